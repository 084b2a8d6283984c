"""The BFGS method of JAX's ``minimize`` (Nocedal & Wright, Algorithm 6.1): the inverse Hessian
estimate updated from each step, the step length from the strong-Wolfe line search."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

import jax_core.numpy as jnp
from jax_core._src.lax.control_flow.loops import while_loop
from jax_core._src.lax.linalg.dot import Precision, dot_general
from jax_core._src.numpy.util import ensure_array
from jax_core._src.scipy.optimize.line_search import dot, line_search
from jax_core._src.transforms.ad_signatures import value_and_grad
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


class BFGSResults(NamedTuple):
    """The state of a BFGS minimization: ``converged``/``failed``, the iteration ``k``, evaluation
    counts, the point ``x_k``, value ``f_k``, gradient ``g_k``, inverse Hessian estimate ``H_k``,
    and ``status`` (0 converged, 1 max iterations, 2 + line-search status, -1 undefined)."""

    converged: Array
    failed: Array
    k: Array
    nfev: Array
    ngev: Array
    nhev: Array
    x_k: Array
    f_k: Array
    g_k: Array
    H_k: Array
    old_old_fval: Array
    status: Array
    line_search_status: Array


def _sandwich(w: Array, h: Array) -> Array:
    """``einsum('ij,jk,lk', w, h, w)`` (``w @ h @ w.T``) at the highest precision, contracted in
    the order JAX's einsum path takes (``h`` with ``w`` first), so the result is JAX's bit for bit."""
    contract = (((0,), (1,)), ((), ()))
    hw = dot_general(h, w, contract, precision=Precision.HIGHEST, preferred_element_type=h.dtype)
    return dot_general(hw, w, contract, precision=Precision.HIGHEST, preferred_element_type=h.dtype)


def minimize_bfgs(
    fun: Callable[[Array], ArrayLike],
    x0: Array,
    maxiter: int | None = None,
    norm: float = np.inf,
    gtol: float = 1e-5,
    line_search_maxiter: int = 10,
) -> BFGSResults:
    """Minimizes ``fun`` from ``x0`` (1-d) by BFGS until the ``norm`` of the gradient is below
    ``gtol`` or ``maxiter`` iterations (default ``200 * x0.size``) have run."""
    if maxiter is None:
        maxiter = int(np.size(x0)) * 200
    d = x0.shape[0]
    f_0, g_0 = value_and_grad(fun)(x0)
    f_0 = jnp.asarray(f_0)
    state = BFGSResults(
        converged=jnp.linalg.norm(g_0, ord=norm) < gtol, failed=ensure_array(False), k=ensure_array(0),
        nfev=ensure_array(1), ngev=ensure_array(1), nhev=ensure_array(0), x_k=x0, f_k=f_0, g_k=g_0,
        H_k=jnp.eye(d, dtype=x0.dtype), old_old_fval=f_0 + jnp.linalg.norm(g_0) / 2,
        status=ensure_array(0), line_search_status=ensure_array(0),
    )  # fmt: skip
    max_k = maxiter

    def cond_fun(state: BFGSResults) -> Array:
        return jnp.logical_not(state.converged) & jnp.logical_not(state.failed) & (state.k < max_k)

    def body_fun(state: BFGSResults) -> BFGSResults:
        p_k = -dot(state.H_k, state.g_k)
        ls = line_search(
            fun, state.x_k, p_k, old_fval=state.f_k, old_old_fval=state.old_old_fval, gfk=state.g_k,
            maxiter=line_search_maxiter,
        )  # fmt: skip
        state = state._replace(
            nfev=state.nfev + ls.nfev, ngev=state.ngev + ls.ngev, failed=ls.failed, line_search_status=ls.status
        )
        s_k = ls.a_k * p_k
        x_kp1 = state.x_k + s_k
        f_kp1 = ls.f_k
        g_kp1 = ls.g_k
        y_k = g_kp1 - state.g_k
        rho_k = jnp.reciprocal(dot(y_k, s_k))
        sy_k = s_k[:, np.newaxis] * y_k[np.newaxis, :]
        w = jnp.eye(d, dtype=rho_k.dtype) - rho_k * sy_k
        h_kp1 = _sandwich(w, state.H_k) + rho_k * s_k[:, np.newaxis] * s_k[np.newaxis, :]
        h_kp1 = jnp.where(jnp.isfinite(rho_k), h_kp1, state.H_k)
        converged = jnp.linalg.norm(g_kp1, ord=norm) < gtol
        return state._replace(
            converged=converged, k=state.k + 1, x_k=x_kp1, f_k=f_kp1, g_k=g_kp1, H_k=h_kp1, old_old_fval=state.f_k
        )

    state = while_loop(cond_fun, body_fun, state)
    status = jnp.where(
        state.converged,
        0,
        jnp.where(state.k == maxiter, 1, jnp.where(state.failed, 2 + state.line_search_status, -1)),
    )
    return state._replace(status=status)
