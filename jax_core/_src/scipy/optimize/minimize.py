"""``jax_core.scipy.optimize.minimize`` and its ``OptimizeResults``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import jax_core.numpy as jnp
from jax_core._src.scipy.optimize.bfgs import minimize_bfgs
from jax_core._src.scipy.optimize.lbfgs import minimize_lbfgs
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["OptimizeResults", "minimize"]


class OptimizeResults(NamedTuple):
    """Object holding optimization results.

    Parameters:
      x: final solution.
      success: ``True`` if optimization succeeded.
      status: integer solver specific return code. 0 means converged (nominal),
        1=max BFGS iters reached, 3=zoom failed, 4=saddle point reached,
        5=max line search iters reached, -1=undefined
      fun: final function value.
      jac: final jacobian array.
      hess_inv: final inverse Hessian estimate.
      nfev: integer number of function calls used.
      njev: integer number of gradient evaluations.
      nit: integer number of iterations of the optimization algorithm.
    """

    x: Array
    success: bool | Array
    status: int | Array
    fun: Array
    jac: Array
    hess_inv: Array | None
    nfev: int | Array
    njev: int | Array
    nit: int | Array


def minimize(
    fun: Callable[..., ArrayLike],
    x0: Array,
    args: tuple[Any, ...] = (),
    *,
    method: str,
    tol: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> OptimizeResults:
    """Minimization of a scalar function of one or more variables, as JAX's ``minimize``.

    ``method`` is ``'BFGS'`` or ``'l-bfgs-experimental-do-not-rely-on-this'`` (case-insensitive);
    ``x0`` is 1-d; ``fun(x, *args)`` returns a scalar; ``options`` go to the method (``maxiter``,
    ``norm``, ``gtol``, ``line_search_maxiter`` for BFGS; ``maxcor``, ``ftol``, ``maxfun``,
    ``maxgrad``, ``maxls`` as well for L-BFGS). ``tol`` is not used, as in JAX.
    """
    if options is None:
        options = {}
    if not isinstance(args, tuple):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"args argument to jax.scipy.optimize.minimize must be a tuple, got {args}")

    def fun_with_args(x: Array) -> ArrayLike:
        return fun(x, *args)

    if method.lower() == "bfgs":
        res = minimize_bfgs(fun_with_args, x0, **options)
        return OptimizeResults(
            x=res.x_k, success=res.converged & jnp.logical_not(res.failed), status=res.status, fun=res.f_k,
            jac=res.g_k, hess_inv=res.H_k, nfev=res.nfev, njev=res.ngev, nit=res.k,
        )  # fmt: skip
    if method.lower() == "l-bfgs-experimental-do-not-rely-on-this":
        lres = minimize_lbfgs(fun_with_args, x0, **options)
        return OptimizeResults(
            x=lres.x_k, success=lres.converged & jnp.logical_not(lres.failed), status=lres.status, fun=lres.f_k,
            jac=lres.g_k, hess_inv=None, nfev=lres.nfev, njev=lres.ngev, nit=lres.k,
        )  # fmt: skip
    raise ValueError(f"Method {method} not recognized")
