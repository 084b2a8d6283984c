"""Special-function primitives, as JAX's ``lax`` has them.

``polygamma``, ``zeta`` and ``bessel_i1e`` lower to their CHLO ops; ``igamma``, ``igammac``,
``igamma_grad_a``, ``regularized_incomplete_beta`` (``lax.betainc``) and ``bessel_i0e`` lower to
the lax programs of ``special_impl`` (series and continued fractions in ``while_loop``s), as JAX
lowers them with ``mlir.lower_fun``. ``random_gamma_grad`` is, as in JAX, a plain function of lax
ops rather than a primitive. The derivative rules are JAX's: ``igamma`` differentiates in ``x``
to the gamma density and in ``a`` to ``igamma_grad_a``; ``betainc`` and ``polygamma`` only in
their last operand (JAX's ``ValueError`` otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import DerivativeFn, per_arg_jvp, per_arg_jvp_with_ans
from jax_core._src.interpreters.batching_util import broadcast_batcher, vectorized_batcher
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.control_flow.common import lower_fun
from jax_core._src.lax.special import programs as _impl
from jax_core._src.lax.standard_rules import (
    bind_one,
    is_real_float,
    lower_with,
    naryop_abstract_eval,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import chlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

LowerRule = Callable[..., Any]


def _lower_program(impl: _impl.Impl) -> LowerRule:
    """A lowering rule that emits ``impl`` (broadcast, 16-bit floats upcast) inline."""
    run = _impl.up_and_broadcast(impl)

    def rule(ctx: LoweringRuleContext, *args: ir.Value[Any]) -> ir.Value[Any]:
        return lower_fun(lambda *xs: [run(*xs)], ctx.avals_in, args)[0]

    return rule


def _define(name: str, nargs: int, lower: LowerRule, *derivs: DerivativeFn | None, with_ans: bool = False) -> Primitive:
    prim = Primitive(name)
    unary = nargs == 1
    jvp = per_arg_jvp_with_ans(prim, *derivs) if with_ans else per_arg_jvp(prim, *derivs)
    prim.def_rules(
        Rules(
            abstract_eval=unop_abstract_eval(name, is_real_float) if unary else naryop_abstract_eval(name, is_real_float),
            lower=lower,
            jvp=jvp,
            batch=vectorized_batcher(prim) if unary else broadcast_batcher(prim),
        )
    )
    return prim




def _c(x: Any, value: float) -> np.ndarray[Any, Any]:
    return np.asarray(value, get_aval(x).dtype)


# -- derivative rules (JAX's) ---------------------------------------------------------------------
def _gamma_density(a: Any, x: Any) -> Any:
    """``exp(-x) x^(a-1) / Gamma(a)``, the x-derivative of ``igamma``."""
    return lax.exp(lax.sub(lax.sub(lax.mul(lax.sub(a, _c(a, 1)), lax.log(x)), x), lax.lgamma(a)))


def _igamma_da(g: Any, a: Any, x: Any) -> Any:
    return lax.mul(g, igamma_grad_a(a, x))


def _igamma_dx(g: Any, a: Any, x: Any) -> Any:
    return lax.mul(g, _gamma_density(a, x))


def _igammac_da(g: Any, a: Any, x: Any) -> Any:
    return lax.neg(_igamma_da(g, a, x))


def _igammac_dx(g: Any, a: Any, x: Any) -> Any:
    return lax.neg(_igamma_dx(g, a, x))


def _igamma_grad_a_da(g: Any, a: Any, x: Any) -> Any:
    raise NotImplementedError(
        "Differentiation of lax.igamma_grad_a with respect to a (the second derivative of igamma in a) "
        "is not implemented (JAX does not implement it either)."
    )


def _igamma_grad_a_dx(g: Any, a: Any, x: Any) -> Any:
    # d/dx dP/da = d/da (x-density) = density * (log x - digamma(a)).
    return lax.mul(g, lax.mul(_gamma_density(a, x), lax.sub(lax.log(x), lax.digamma(a))))


def _polygamma_dm(g: Any, m: Any, x: Any) -> Any:
    raise ValueError("polygamma gradient with respect to m is not supported")


def _polygamma_dx(g: Any, m: Any, x: Any) -> Any:
    return lax.mul(g, polygamma(lax.add(m, _c(m, 1)), x))


def _zeta_dx(g: Any, s: Any, q: Any) -> Any:
    raise NotImplementedError("Differentiation of lax.zeta with respect to its first argument x is not implemented.")


def _zeta_dq(g: Any, s: Any, q: Any) -> Any:
    # d/dq sum_n (n + q)^-s = -s zeta(s + 1, q)
    return lax.mul(g, lax.neg(lax.mul(s, zeta(lax.add(s, _c(s, 1)), q))))


def _betainc_dab(g: Any, a: Any, b: Any, x: Any) -> Any:
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _betainc_dx(g: Any, a: Any, b: Any, x: Any) -> Any:
    lbeta = lax.sub(lax.add(lax.lgamma(a), lax.lgamma(b)), lax.lgamma(lax.add(a, b)))
    log_dx = lax.add(lax.mul(lax.sub(b, _c(b, 1)), lax.log1p(lax.neg(x))), lax.mul(lax.sub(a, _c(a, 1)), lax.log(x)))
    return lax.mul(g, lax.exp(lax.sub(log_dx, lbeta)))


def _bessel_i0e_d(g: Any, y: Any, x: Any) -> Any:
    return lax.mul(g, lax.sub(bessel_i1e(x), lax.mul(lax.sign(x), y)))


def _bessel_i1e_d(g: Any, y: Any, x: Any) -> Any:
    eps = float(dtypes.finfo(get_aval(x).dtype).eps)
    not_tiny = lax.gt(lax.abs(x), _c(x, eps))
    safe_x = lax.select(not_tiny, x, _impl.full(x, eps))
    dy = lax.sub(bessel_i0e(safe_x), lax.mul(y, lax.add(lax.sign(safe_x), lax.div(_c(x, 1), safe_x))))
    return lax.mul(g, lax.select(not_tiny, dy, _impl.full(x, 0.5)))


# -- primitives -----------------------------------------------------------------------------------
igamma_p: Primitive = _define("igamma", 2, _lower_program(_impl.igamma_impl), _igamma_da, _igamma_dx)
igammac_p: Primitive = _define("igammac", 2, _lower_program(_impl.igammac_impl), _igammac_da, _igammac_dx)
igamma_grad_a_p: Primitive = _define("igamma_grad_a", 2, _lower_program(_impl.igamma_grad_a_impl), _igamma_grad_a_da, _igamma_grad_a_dx)
regularized_incomplete_beta_p: Primitive = _define(
    "regularized_incomplete_beta", 3, _lower_program(_impl.regularized_incomplete_beta_impl),
    _betainc_dab, _betainc_dab, _betainc_dx,
)
polygamma_p: Primitive = _define("polygamma", 2, lower_with(chlo.polygamma), _polygamma_dm, _polygamma_dx)
zeta_p: Primitive = _define("zeta", 2, lower_with(chlo.zeta), _zeta_dx, _zeta_dq)
bessel_i0e_p: Primitive = _define("bessel_i0e", 1, _lower_program(_impl.bessel_i0e_impl), _bessel_i0e_d, with_ans=True)
bessel_i1e_p: Primitive = _define("bessel_i1e", 1, lower_with(chlo.bessel_i1e), _bessel_i1e_d, with_ans=True)


# -- public functions -----------------------------------------------------------------------------
def igamma(a: ArrayLike, x: ArrayLike) -> Array:
    """Elementwise regularized lower incomplete gamma function ``P(a, x)``."""
    return bind_one(igamma_p, a, x)


def igammac(a: ArrayLike, x: ArrayLike) -> Array:
    """Elementwise regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    return bind_one(igammac_p, a, x)


def igamma_grad_a(a: ArrayLike, x: ArrayLike) -> Array:
    """Elementwise derivative of the regularized incomplete gamma function ``P(a, x)`` in ``a``."""
    return bind_one(igamma_grad_a_p, a, x)


def random_gamma_grad(a: ArrayLike, x: ArrayLike) -> Array:
    """Elementwise derivative of a sample ``x`` from ``Gamma(a, 1)`` with respect to ``a``.

    Not a primitive (as in JAX): a program of lax ops, forward-mode differentiable only.
    """
    args = [v if isinstance(v, Array) else lax.convert_element_type(v, dtypes.dtype(v, canonicalize=True)) for v in (a, x)]
    for i, v in enumerate(args):
        if not is_real_float(v.dtype):
            raise TypeError(
                f"random_gamma_grad does not accept dtype {v.dtype.name} at position {i}. "
                f"Accepted dtypes at position {i} are subtypes of floating."
            )
    if args[0].dtype != args[1].dtype:
        raise TypeError(f"lax.random_gamma_grad requires arguments to have the same dtypes, got {args[0].dtype.name}, {args[1].dtype.name}.")
    return _impl.up_and_broadcast(_impl.random_gamma_grad_impl)(*args)


def zeta(x: ArrayLike, q: ArrayLike) -> Array:
    """Elementwise Hurwitz zeta function ``zeta(x, q) = sum_n (n + q)^-x``."""
    return bind_one(zeta_p, x, q)


def polygamma(m: ArrayLike, x: ArrayLike) -> Array:
    """Elementwise polygamma function ``psi^(m)(x)``, the m-th derivative of digamma."""
    return bind_one(polygamma_p, m, x)


def bessel_i0e(x: ArrayLike) -> Array:
    """Exponentially scaled modified Bessel function of order 0, ``exp(-|x|) I0(x)``."""
    return bind_one(bessel_i0e_p, x)


def bessel_i1e(x: ArrayLike) -> Array:
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    return bind_one(bessel_i1e_p, x)


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """Elementwise regularized incomplete beta integral ``I_x(a, b)``."""
    return bind_one(regularized_incomplete_beta_p, a, b, x)
