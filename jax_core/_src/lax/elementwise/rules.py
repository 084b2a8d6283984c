"""Autodiff and batching rules of the elementwise primitives (their ``jvp``/``transpose``/``batch``).

``elementwise.py`` defines the primitives and registers each one's ``Rules`` record; this module
holds the rules it registers, keyed by primitive name, written (as JAX's ``lax.py`` writes them)
with the public lax functions. Binary ops broadcast their operands NumPy-style, so the jvp
factories broadcast each operand's contribution to the output shape and the transposes
``unbroadcast`` the cotangent back to each operand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

# Circular at import time (api binds the primitives elementwise.py defines); only used inside
# rule bodies, which run after both modules are loaded.
import jax_core._src.lax.elementwise.wrappers as lax
from jax_core._src import dtypes
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    TransposeRule,
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    is_undefined_primal,
    is_zero,
    linear_jvp,
    per_arg_jvp,
    per_arg_jvp_with_ans,
    tangent_dtype,
    unbroadcast,
    zero_jvp,
    zeros_like_aval,
)
from jax_core._src.interpreters.batching_util import (
    BatchRule,
    axis_size,
    bdim_at_front,
    broadcast_batcher,
    moveaxis,
    vectorized_batcher,
)

JvpFactory: TypeAlias = Callable[[Primitive], JvpRule]
"""Builds a primitive's jvp rule from the primitive (rules bind it for the primal output)."""
D1: TypeAlias = Callable[[Any, Any], Any]
"""``(g, x) -> tangent contribution`` of a unary op (JAX's ``defjvp``)."""
D2: TypeAlias = Callable[[Any, Any, Any], Any]
"""``(g, ans, x) -> tangent contribution`` of a unary op (JAX's ``defjvp2``)."""
B: TypeAlias = Callable[[Any, Any, Any], Any]
"""``(g, x, y) -> tangent contribution`` for one operand of a binary op."""
B2: TypeAlias = Callable[[Any, Any, Any, Any], Any]
"""``(g, ans, x, y) -> tangent contribution`` for one operand of a binary op."""


# -- small helpers --------------------------------------------------------------------------
def _dtype(x: Any) -> np.dtype[Any]:
    return get_aval(x).dtype


def const_like(x: Any, value: float) -> np.ndarray[Any, Any]:
    """A scalar constant of ``x``'s dtype (lax ops broadcast rank-0 operands)."""
    return np.asarray(value, _dtype(x))


def _full(x: Any, value: float) -> Any:
    """An array of ``x``'s shape and dtype filled with ``value``."""
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    return broadcast_in_dim(const_like(x, value), get_aval(x).shape, ())


def _iscomplex(x: Any) -> bool:
    return _dtype(x).kind == "c"


def _replace_zero(x: Any) -> Any:
    """``x`` with its zeros replaced by ones."""
    return lax.select(lax.eq(x, const_like(x, 0)), _full(x, 1), x)


def _one_minus_square(x: Any) -> Any:
    return lax.mul(lax.sub(const_like(x, 1), x), lax.add(const_like(x, 1), x))


def _as(x: Any, like: Any) -> Any:
    return lax.convert_element_type(x, _dtype(like))


# -- jvp factories --------------------------------------------------------------------------
def _d(fn: D1) -> JvpFactory:
    def d(g: Any, x: Any, **params: Any) -> Any:
        return fn(g, x)

    return lambda prim: per_arg_jvp(prim, d)


def _d2(fn: D2) -> JvpFactory:
    def d(g: Any, ans: Any, x: Any, **params: Any) -> Any:
        return fn(g, ans, x)

    return lambda prim: per_arg_jvp_with_ans(prim, d)


def _db(dx: B | None, dy: B | None) -> JvpFactory:
    return lambda prim: per_arg_jvp(prim, dx, dy)


def _d2b(dx: B2, dy: B2) -> JvpFactory:
    return lambda prim: per_arg_jvp_with_ans(prim, dx, dy)


def _sign_jvp(prim: Primitive) -> JvpRule:
    # Piecewise constant on the reals; for complex x, d sign = i sign(x) Im(conj(sign(x)) dx)/|x|.
    def rule(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
        (x,), (g,) = primals, tangents
        ans = prim.bind(x)
        if not _iscomplex(x) or is_zero(g):
            return ans, Zero.from_primal_value(ans)
        dtheta = lax.div(lax.imag(lax.mul(lax.conj(ans), g)), _replace_zero(lax.abs(x)))
        return ans, lax.mul(ans, lax.complex(_full(dtheta, 0), dtheta))

    return rule


def _abs_jvp(g: Any, ans: Any, x: Any) -> Any:
    if _iscomplex(x):
        return lax.real(lax.mul(g, lax.div(lax.conj(x), _replace_zero(_as(ans, x)))))
    return lax.select(lax.ge(x, const_like(x, 0)), g, lax.neg(g))


def _integer_pow_jvp(prim: Primitive) -> JvpRule:
    def d(g: Any, x: Any, *, y: int) -> Any:
        if y == 0:
            return zeros_like_aval(get_aval(g))
        if y == 1:
            return g
        if y == 2:
            return lax.mul(g, lax.mul(const_like(x, 2), x))
        return lax.mul(g, lax.mul(const_like(x, y), lax.integer_pow(x, y - 1)))

    return per_arg_jvp(prim, d)


def _pow_jvp_lhs(g: Any, ans: Any, x: Any, y: Any) -> Any:
    return lax.mul(g, lax.mul(y, lax.pow(x, lax.sub(y, const_like(y, 1)))))


def _pow_jvp_rhs(g: Any, ans: Any, x: Any, y: Any) -> Any:
    # log(1) = 0 where x == 0, so d/dy 0**y is 0 rather than nan.
    return lax.mul(g, lax.mul(lax.log(_replace_zero(x)), ans))


def _balanced_cmp(x: Any, y: Any) -> Any:
    """1 where x > y, 0.5 where x == y, 0 where x < y or either is nan (in x's dtype)."""
    return lax.add(_as(lax.gt(x, y), x), lax.mul(_as(lax.eq(x, y), x), const_like(x, 0.5)))


def _atan2_den(x: Any, y: Any) -> Any:
    return lax.add(lax.square(x), lax.square(y))


# -- trigamma (the jvp of digamma; jax_core has no polygamma primitive) ---------------------
_TRIGAMMA_SHIFT = 8
# Bernoulli-number coefficients of the asymptotic series
#   psi1(w) ~ 1/w + 1/(2 w^2) + sum_k B_2k / w^(2k+1), for w >= _TRIGAMMA_SHIFT.
_TRIGAMMA_SERIES = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def trigamma(x: Any) -> Any:
    """``polygamma(1, x)`` for real floating ``x``, built from lax ops (so it differentiates).

    Uses the reflection formula for ``x < 0.5``, the recurrence ``psi1(z) = psi1(z + 1) +
    1/z^2`` to shift the argument past 8, and the asymptotic series there (relative error
    below 1e-13 in float64).
    """
    half = const_like(x, 0.5)
    reflect = lax.lt(x, half)
    z = lax.select(reflect, lax.sub(const_like(x, 1), x), x)
    acc = lax.integer_pow(z, -2)
    for k in range(1, _TRIGAMMA_SHIFT):
        acc = lax.add(acc, lax.integer_pow(lax.add(z, const_like(z, k)), -2))
    r = lax.div(const_like(z, 1), lax.add(z, const_like(z, _TRIGAMMA_SHIFT)))
    r2 = lax.square(r)
    poly: Any = const_like(z, _TRIGAMMA_SERIES[-1])
    for coef in reversed(_TRIGAMMA_SERIES[:-1]):
        poly = lax.add(lax.mul(poly, r2), const_like(z, coef))
    asym = lax.add(lax.add(r, lax.mul(r2, const_like(z, 0.5))), lax.mul(lax.mul(r2, r), poly))
    psi1 = lax.add(acc, asym)
    # Where no reflection happens, evaluate sin at 0.5 so the unused branch (and its
    # derivative) stays finite at the integers.
    xs = lax.select(reflect, x, _full(x, 0.5))
    sin_pix = lax.sin(lax.mul(xs, const_like(x, np.pi)))
    reflected = lax.sub(lax.div(const_like(x, np.pi**2), lax.square(sin_pix)), psi1)
    return lax.select(reflect, reflected, psi1)


_FLOAT_BINARY = (
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "pow",
    "max",
    "min",
    "atan2",
    "nextafter",
    "complex",
)
_INT_BINARY = ("and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical")
_COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")

# -- jvp rules, by primitive name -------------------------------------------------------------
JVP: dict[str, JvpFactory] = {
    # unary
    "neg": linear_jvp,
    "sign": _sign_jvp,
    "floor": zero_jvp,
    "ceil": zero_jvp,
    "round": zero_jvp,
    "is_finite": zero_jvp,
    "abs": _d2(_abs_jvp),
    "exp": _d2(lambda g, ans, x: lax.mul(g, ans)),
    "exp2": _d2(lambda g, ans, x: lax.mul(const_like(x, np.log(2)), lax.mul(g, ans))),
    "log": _d(lambda g, x: lax.div(g, x)),
    "log1p": _d(lambda g, x: lax.div(g, lax.add(x, const_like(x, 1)))),
    "expm1": _d(lambda g, x: lax.mul(g, lax.exp(x))),
    "tanh": _d2(lambda g, ans, x: lax.mul(g, _one_minus_square(ans))),
    "logistic": _d2(lambda g, ans, x: lax.mul(g, lax.mul(ans, lax.sub(const_like(ans, 1), ans)))),
    "sin": _d(lambda g, x: lax.mul(g, lax.cos(x))),
    "cos": _d(lambda g, x: lax.neg(lax.mul(g, lax.sin(x)))),
    "tan": _d2(lambda g, ans, x: lax.mul(g, lax.add(const_like(x, 1), lax.square(ans)))),
    "asin": _d(lambda g, x: lax.mul(g, lax.rsqrt(_one_minus_square(x)))),
    "acos": _d(lambda g, x: lax.mul(g, lax.neg(lax.rsqrt(_one_minus_square(x))))),
    "atan": _d(lambda g, x: lax.div(g, lax.add(const_like(x, 1), lax.square(x)))),
    "sinh": _d(lambda g, x: lax.mul(g, lax.cosh(x))),
    "cosh": _d(lambda g, x: lax.mul(g, lax.sinh(x))),
    "asinh": _d(lambda g, x: lax.mul(g, lax.rsqrt(lax.add(lax.square(x), const_like(x, 1))))),
    "acosh": _d(
        lambda g, x: lax.mul(
            g, lax.mul(lax.rsqrt(lax.sub(x, const_like(x, 1))), lax.rsqrt(lax.add(x, const_like(x, 1))))
        )
    ),
    "atanh": _d(lambda g, x: lax.div(g, _one_minus_square(x))),
    "sqrt": _d2(lambda g, ans, x: lax.mul(g, lax.div(const_like(x, 0.5), ans))),
    "rsqrt": _d2(lambda g, ans, x: lax.mul(g, lax.mul(const_like(x, -0.5), lax.div(ans, x)))),
    "cbrt": _d2(lambda g, ans, x: lax.mul(g, lax.mul(const_like(x, 1 / 3), lax.integer_pow(ans, -2)))),
    "erf": _d(
        lambda g, x: lax.mul(const_like(x, 2 / np.sqrt(np.pi)), lax.mul(g, lax.exp(lax.neg(lax.square(x)))))
    ),
    "erf_inv": _d2(
        lambda g, ans, x: lax.mul(const_like(x, np.sqrt(np.pi) / 2), lax.mul(g, lax.exp(lax.square(ans))))
    ),
    "lgamma": _d(lambda g, x: lax.mul(g, lax.digamma(x))),
    "digamma": _d(lambda g, x: lax.mul(g, trigamma(x))),
    "not": zero_jvp,
    "population_count": zero_jvp,
    "clz": zero_jvp,
    "real": linear_jvp,
    "imag": linear_jvp,
    "conj": linear_jvp,
    "integer_pow": _integer_pow_jvp,
    "square": _d(lambda g, x: lax.mul(g, lax.mul(const_like(x, 2), x))),
    # binary (per_arg_jvp broadcasts each contribution to the output shape)
    "add": _db(lambda g, x, y: g, lambda g, x, y: g),
    "sub": _db(lambda g, x, y: g, lambda g, x, y: lax.neg(g)),
    "mul": _db(lambda g, x, y: lax.mul(g, y), lambda g, x, y: lax.mul(x, g)),
    "div": _db(
        lambda g, x, y: lax.div(g, y),
        lambda g, x, y: lax.mul(lax.mul(lax.neg(g), x), lax.integer_pow(y, -2)),
    ),
    "rem": _db(
        lambda g, x, y: g,
        lambda g, x, y: lax.mul(
            lax.neg(g), lax.mul(lax.sign(lax.div(x, y)), lax.floor(lax.abs(lax.div(x, y))))
        ),
    ),
    "pow": _d2b(_pow_jvp_lhs, _pow_jvp_rhs),
    "max": _db(
        lambda g, x, y: lax.mul(g, _balanced_cmp(x, y)),
        lambda g, x, y: lax.mul(g, _balanced_cmp(y, x)),
    ),
    "min": _db(
        lambda g, x, y: lax.mul(g, _balanced_cmp(y, x)),
        lambda g, x, y: lax.mul(g, _balanced_cmp(x, y)),
    ),
    "atan2": _db(
        lambda g, x, y: lax.mul(g, lax.div(y, _atan2_den(x, y))),
        lambda g, x, y: lax.mul(g, lax.div(lax.neg(x), _atan2_den(x, y))),
    ),
    "nextafter": _db(lambda g, x, y: g, None),
    "complex": linear_jvp,
    **{name: zero_jvp for name in _INT_BINARY + _COMPARISONS},
}
"""Each elementwise primitive's jvp rule factory."""


# -- transposes of the linear ones ----------------------------------------------------------
def _unary_transpose(fn: Callable[[Any], Any]) -> TransposeRule:
    def rule(ct: Any, x: Any, **params: Any) -> list[Any]:
        return [fn(ct)]

    return rule


def _binary_transpose(
    fx: Callable[[Any, Any], Any], fy: Callable[[Any, Any], Any]
) -> TransposeRule:
    """``fx(ct, y)``/``fy(ct, x)`` give the (output-shaped) cotangent of x/y when it is linear."""

    def rule(ct: Any, x: Any, y: Any) -> list[Any]:
        return [
            unbroadcast(x.aval, fx(ct, y)) if is_undefined_primal(x) else None,
            unbroadcast(y.aval, fy(ct, x)) if is_undefined_primal(y) else None,
        ]

    return rule


def _div_transpose(ct: Any, x: Any, y: Any) -> list[Any]:
    if is_undefined_primal(y):
        raise RuntimeError("nonlinear div can't be transposed")
    return [unbroadcast(x.aval, lax.div(ct, y)), None]


TRANSPOSE: dict[str, TransposeRule] = {
    "neg": _unary_transpose(lambda t: lax.neg(t)),
    "real": _unary_transpose(lambda t: lax.complex(t, const_like(t, 0))),
    "imag": _unary_transpose(lambda t: lax.complex(const_like(t, 0), lax.neg(t))),
    "conj": _unary_transpose(lambda t: lax.conj(t)),
    "add": _binary_transpose(lambda t, y: t, lambda t, x: t),
    "sub": _binary_transpose(lambda t, y: t, lambda t, x: lax.neg(t)),
    "mul": _binary_transpose(lambda t, y: lax.mul(t, y), lambda t, x: lax.mul(x, t)),
    "div": _div_transpose,
    "complex": _binary_transpose(lambda t, y: lax.real(t), lambda t, x: lax.imag(lax.neg(t))),
}
"""The transpose rules of the elementwise primitives linear in some operand."""


def batch_rule(prim: Primitive) -> BatchRule:
    """The batching rule of an elementwise primitive (unary: as is; n-ary: broadcast)."""
    return vectorized_batcher(prim) if prim.name in _UNARY else broadcast_batcher(prim)


_UNARY = frozenset(JVP) - frozenset(_FLOAT_BINARY + _INT_BINARY + _COMPARISONS)


# -- select_n -----------------------------------------------------------------------------------
def select_n_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    """The tangent is the selected case's tangent."""
    which, *cases = primals
    out = lax.select_n(which, *cases)
    case_tangents = tangents[1:]
    if tangent_dtype(_dtype(out)) == dtypes.float0 or all(is_zero(t) for t in case_tangents):
        return out, Zero.from_primal_value(out)
    return out, lax.select_n(which, *map(instantiate_zeros, case_tangents))


def select_n_transpose(ct: Any, which: Any, *cases: Any) -> list[Any]:
    """Routes the cotangent to the case ``which`` chose (zeros to the others)."""
    if is_undefined_primal(which):
        raise ValueError("select_n is not linear in its `which` operand")
    if len(cases) == 1:
        return [None, ct if is_undefined_primal(cases[0]) else None]
    zeros = zeros_like_aval(get_aval(ct))
    return [None] + [
        lax.select_n(which, *(ct if i == j else zeros for j in range(len(cases))))
        if isinstance(case, UndefinedPrimal)
        else None
        for i, case in enumerate(cases)
    ]


def select_n_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    """Batches ``which`` and the cases; a scalar ``which`` per example is broadcast."""
    which, *cases = args
    wdim, *cdims = dims
    case_rank = get_aval(cases[0]).ndim - (cdims[0] is not None)
    if all(d == dims[0] for d in dims) and get_aval(which).ndim == case_rank + 1:
        assert dims[0] is not None
        return lax.select_n(which, *cases), dims[0]
    size = axis_size(args, dims)
    if wdim is None and get_aval(which).ndim == 0 and all(d is not None for d in cdims):
        d0 = cdims[0]
        assert d0 is not None
        moved = [moveaxis(c, d, d0) for c, d in zip(cases, cdims) if d is not None]
        return lax.select_n(which, *moved), d0
    cases = [bdim_at_front(c, d, size) for c, d in zip(cases, cdims)]
    which = bdim_at_front(which, wdim, size) if wdim is not None or get_aval(which).ndim else which
    out_shape = get_aval(cases[0]).shape
    if 0 < get_aval(which).ndim < len(out_shape):
        from jax_core._src.lax.shape.dimensions import broadcast_in_dim

        which = broadcast_in_dim(which, out_shape, (0,))
    return lax.select_n(which, *cases), 0
