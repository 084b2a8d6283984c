"""Arithmetic primitives: negation, sign, rounding, ``abs``, powers with integer exponents,
``add``/``sub``/``mul``/``div``/``rem``, ``max``/``min``, the complex parts, ``clamp``.

Each block is the typed wrapper and the primitive with its rules (JAX's ``lax.py`` rules: ``max``
and ``min`` split the tangent at ties, ``abs`` of a complex number differentiates through
``conj(x)/|x|``).
"""

from __future__ import annotations

import enum

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    Zero,
    is_undefined_primal,
    is_zero,
    linear_jvp,
    per_arg_jvp,
    unbroadcast,
    zero_jvp,
    zeros_like_aval,
)
from jax_core._src.interpreters.batching_util import (
    axis_size,
    bdim_at_front,
)
from jax_core._src.lax.elementwise.bitwise import bitwise_and
from jax_core._src.lax.elementwise.comparisons import eq, ge, gt, lt, select
from jax_core._src.lax.elementwise.conversions import convert_element_type
from jax_core._src.lax.elementwise.factories import (
    binary_transpose,
    binop,
    const_like,
    d,
    d2,
    db,
    dtype_of,
    full_like_value,
    iscomplex,
    register,
    splat_like,
    unary_transpose,
    unop,
)
from jax_core._src.lax.standard_rules import (
    bind_one,
    is_any,
    is_int,
    is_int_or_real_float,
    is_number,
    is_real_float,
    is_signed_number,
    lower_with,
    naryop_abstract_eval,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def replace_zero(x: Any) -> Any:
    """``x`` with its zeros replaced by ones."""
    return select(eq(x, const_like(x, 0)), full_like_value(x, 1), x)


def _as(x: Any, like: Any) -> Any:
    return convert_element_type(x, dtype_of(like))


# -- neg ---------------------------------------------------------------------------------------
def neg(x: ArrayLike, /) -> Array:
    """Elementwise negation: -x."""
    return bind_one(neg_p, x)


neg_p: Primitive = unop(
    "neg", is_number, hlo.negate, jvp=linear_jvp, transpose=unary_transpose(lambda t: neg(t))
)


# -- sign --------------------------------------------------------------------------------------
def _sign_jvp(prim: Primitive) -> JvpRule:
    # Piecewise constant on the reals; for complex x, d sign = i sign(x) Im(conj(sign(x)) dx)/|x|.
    def rule(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
        (x,), (g,) = primals, tangents
        ans = prim.bind(x)
        if not iscomplex(x) or is_zero(g):
            return ans, Zero.from_primal_value(ans)
        dtheta = div(imag(mul(conj(ans), g)), replace_zero(abs(x)))
        return ans, mul(ans, complex(full_like_value(dtheta, 0), dtheta))

    return rule


def sign(x: ArrayLike, /) -> Array:
    """Elementwise sign."""
    return bind_one(sign_p, x)


def _sign_lowering(x: ir.Value[Any]) -> ir.Value[Any]:
    t = ir.RankedTensorType(x.type)
    elt = t.element_type
    if isinstance(elt, ir.IntegerType) and elt.is_unsigned:  # no stablehlo.sign
        zero = dynamic_shapes.broadcast_like(t, hlo.constant(ir.DenseElementsAttr.get_splat(
            ir.RankedTensorType.get([], elt), ir.IntegerAttr.get(elt, 0))), x)
        one = dynamic_shapes.broadcast_like(t, hlo.constant(ir.DenseElementsAttr.get_splat(
            ir.RankedTensorType.get([], elt), ir.IntegerAttr.get(elt, 1))), x)
        is_zero = hlo.compare(x, zero, hlo.ComparisonDirectionAttr.get("EQ"),
                              compare_type=hlo.ComparisonTypeAttr.get("UNSIGNED"))
        return hlo.select(is_zero, zero, one)  # type: ignore[no-any-return]
    return hlo.sign(x)  # type: ignore[no-any-return]


sign_p: Primitive = unop("sign", is_number, _sign_lowering, jvp=_sign_jvp)


# -- floor -------------------------------------------------------------------------------------
def floor(x: ArrayLike, /) -> Array:
    """Elementwise floor."""
    return bind_one(floor_p, x)


floor_p: Primitive = unop("floor", is_real_float, hlo.floor, jvp=zero_jvp)


# -- ceil --------------------------------------------------------------------------------------
def ceil(x: ArrayLike, /) -> Array:
    """Elementwise ceiling."""
    return bind_one(ceil_p, x)


ceil_p: Primitive = unop("ceil", is_real_float, hlo.ceil, jvp=zero_jvp)


# -- round -------------------------------------------------------------------------------------
def _round_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, rounding_method: int
) -> ir.Value[Any]:
    out: ir.Value[Any] = (
        hlo.round_nearest_even(x) if rounding_method == 1 else hlo.round_nearest_afz(x)
    )
    return out


class RoundingMethod(enum.IntEnum):
    """How :func:`round` treats halfway values."""

    AWAY_FROM_ZERO = 0
    """Halfway values round away from zero (0.5 to 1, -0.5 to -1)."""
    TO_NEAREST_EVEN = 1
    """Halfway values round to the even neighbour (0.5 to 0, 1.5 to 2)."""


def round(x: ArrayLike, rounding_method: RoundingMethod | int = RoundingMethod.AWAY_FROM_ZERO) -> Array:
    """Elementwise rounding: half away from zero (0) or half to even (1)."""
    return bind_one(round_p, x, rounding_method=int(rounding_method))


round_p: Primitive = register(
    Primitive("round"),
    unop_abstract_eval("round", is_real_float),
    _round_lower,
    jvp=zero_jvp,
    unary=True,
)


# -- is_finite ---------------------------------------------------------------------------------
def is_finite(x: ArrayLike, /) -> Array:
    """Elementwise ``isfinite``."""
    return bind_one(is_finite_p, x)


is_finite_p: Primitive = unop(
    "is_finite", is_real_float, hlo.is_finite, lambda d: np.dtype(np.bool_), jvp=zero_jvp
)


# -- abs ---------------------------------------------------------------------------------------
def _real_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    return (
        np.dtype(np.float32)
        if d == np.complex64
        else np.dtype(np.float64)
        if d == np.complex128
        else d
    )


def _abs_jvp(g: Any, ans: Any, x: Any) -> Any:
    if iscomplex(x):
        return real(mul(g, div(conj(x), replace_zero(_as(ans, x)))))
    return select(ge(x, const_like(x, 0)), g, neg(g))


def abs(x: ArrayLike, /) -> Array:
    """Elementwise absolute value."""
    return bind_one(abs_p, x)


abs_p: Primitive = unop("abs", is_signed_number, hlo.abs, _real_dtype, jvp=d2(_abs_jvp))


# -- integer_pow -------------------------------------------------------------------------------
def _integer_pow_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, y: int) -> ir.Value[Any]:
    if y == 0:
        aval = ctx.avals_out[0]
        return hlo_util.broadcast_in_dim(hlo_util.constant(np.ones((), aval.dtype)), aval, ())
    is_reciprocal = y < 0
    n = -y if is_reciprocal else y
    acc: ir.Value[Any] | None = None
    base = x
    while n:
        if n & 1:
            acc = base if acc is None else hlo.multiply(acc, base)
        n >>= 1
        if n:
            base = hlo.multiply(base, base)
    assert acc is not None
    if not is_reciprocal:
        return acc
    aval = ctx.avals_out[0]
    one = hlo_util.broadcast_in_dim(hlo_util.constant(np.ones((), aval.dtype)), aval, ())
    reciprocal: ir.Value[Any] = hlo.divide(one, acc)
    return reciprocal


def _integer_pow_jvp(prim: Primitive) -> JvpRule:
    def d(g: Any, x: Any, *, y: int) -> Any:
        if y == 0:
            return zeros_like_aval(get_aval(g))
        if y == 1:
            return g
        if y == 2:
            return mul(g, mul(const_like(x, 2), x))
        return mul(g, mul(const_like(x, y), integer_pow(x, y - 1)))

    return per_arg_jvp(prim, d)


def integer_pow(x: ArrayLike, y: int) -> Array:
    """Elementwise power with a static integer exponent: x**y."""
    return bind_one(integer_pow_p, x, y=int(y))


_integer_pow_dtypes = unop_abstract_eval("integer_pow", is_number)


def _integer_pow_abstract_eval(x: ShapedArray, *, y: int) -> ShapedArray:
    out = _integer_pow_dtypes(x)
    if y < 0 and dtypes.issubdtype(x.dtype, np.integer):
        raise TypeError(f"Integers cannot be raised to negative powers, got integer_pow({x.dtype.name}[{','.join(map(str, x.shape))}], {y})")
    return out


integer_pow_p: Primitive = register(
    Primitive("integer_pow"),
    _integer_pow_abstract_eval,
    _integer_pow_lower,
    jvp=_integer_pow_jvp,
    unary=True,
)


# -- square ------------------------------------------------------------------------------------
def square(x: ArrayLike, /) -> Array:
    """Elementwise square: x*x."""
    return bind_one(square_p, x)


square_p: Primitive = unop(
    "square",
    is_number,
    lambda x: hlo.multiply(x, x),
    jvp=d(lambda g, x: mul(g, mul(const_like(x, 2), x))),
)


# -- one_minus_square -----------------------------------------------------------------------
def one_minus_square(x: ArrayLike, /) -> Array:
    """Elementwise ``1 - x**2``, evaluated as ``(1 + x) * (1 - x)`` (no precision lost near
    ``|x| = 1``) with the derivative ``-2x`` (no cancellation near 0), as JAX's primitive.

    The jvps of ``tanh``, ``asin``, ``acos`` and ``atanh`` are written with it, as in JAX.
    """
    return bind_one(one_minus_square_p, x)


def _one_minus_square_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    one = hlo_util.broadcast_in_dim(hlo_util.constant(np.ones((), aval.dtype)), aval, ())
    out: ir.Value[Any] = hlo.multiply(hlo.add(one, x), hlo.subtract(one, x))
    return out


one_minus_square_p: Primitive = register(
    Primitive("one_minus_square"),
    unop_abstract_eval("one_minus_square", is_number),
    _one_minus_square_lower,
    jvp=d(lambda g, x: mul(g, mul(const_like(x, -2), x))),
    unary=True,
)


# -- add ---------------------------------------------------------------------------------------
def add(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise addition: x + y."""
    return bind_one(add_p, x, y)


add_p: Primitive = binop(
    "add",
    is_number,
    hlo.add,
    jvp=db(lambda g, x, y: g, lambda g, x, y: g),
    transpose=binary_transpose(lambda t, y: t, lambda t, x: t),
)


# -- sub ---------------------------------------------------------------------------------------
def sub(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise subtraction: x - y."""
    return bind_one(sub_p, x, y)


sub_p: Primitive = binop(
    "sub",
    is_number,
    hlo.subtract,
    jvp=db(lambda g, x, y: g, lambda g, x, y: neg(g)),
    transpose=binary_transpose(lambda t, y: t, lambda t, x: neg(t)),
)


# -- mul ---------------------------------------------------------------------------------------
def mul(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise multiplication: x * y."""
    return bind_one(mul_p, x, y)


mul_p: Primitive = binop(
    "mul",
    is_number,
    hlo.multiply,
    jvp=db(lambda g, x, y: mul(g, y), lambda g, x, y: mul(x, g)),
    transpose=binary_transpose(lambda t, y: mul(t, y), lambda t, x: mul(x, t)),
)


# -- mulhi -------------------------------------------------------------------------------------
def mulhi(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise multiply-high: the upper N bits of the 2N-bit product of N-bit integers.

    ``x`` and ``y`` must have the same integer dtype; the result has that dtype.
    """
    return bind_one(mulhi_p, x, y)


mulhi_p: Primitive = binop("mulhi", is_int, chlo.mulhi, jvp=zero_jvp)


# -- div ---------------------------------------------------------------------------------------
def _div_transpose(ct: Any, x: Any, y: Any) -> list[Any]:
    if is_undefined_primal(y):
        raise RuntimeError("nonlinear div can't be transposed")
    return [unbroadcast(x.aval, div(ct, y)), None]


def div(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise division: x / y (integer division rounds toward zero)."""
    return bind_one(div_p, x, y)


div_p: Primitive = binop(
    "div",
    is_number,
    hlo.divide,
    jvp=db(
        lambda g, x, y: div(g, y),
        lambda g, x, y: mul(mul(neg(g), x), integer_pow(y, -2)),
    ),
    transpose=_div_transpose,
)


# -- rem ---------------------------------------------------------------------------------------
def rem(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise remainder, with the sign of x (C's fmod)."""
    return bind_one(rem_p, x, y)


rem_p: Primitive = binop(
    "rem",
    is_int_or_real_float,
    hlo.remainder,
    jvp=db(
        lambda g, x, y: g,
        lambda g, x, y: mul(neg(g), mul(sign(div(x, y)), floor(abs(div(x, y))))),
    ),
)


# -- max ---------------------------------------------------------------------------------------
def _balanced_cmp(x: Any, y: Any) -> Any:
    """1 where x > y, 0.5 where x == y, 0 where x < y or either is nan (in x's dtype)."""
    return add(_as(gt(x, y), x), mul(_as(eq(x, y), x), const_like(x, 0.5)))


def max(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise maximum."""
    return bind_one(max_p, x, y)


max_p: Primitive = binop(
    "max",
    is_any,
    hlo.maximum,
    jvp=db(
        lambda g, x, y: mul(g, _balanced_cmp(x, y)),
        lambda g, x, y: mul(g, _balanced_cmp(y, x)),
    ),
)


# -- min ---------------------------------------------------------------------------------------
def min(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise minimum."""
    return bind_one(min_p, x, y)


min_p: Primitive = binop(
    "min",
    is_any,
    hlo.minimum,
    jvp=db(
        lambda g, x, y: mul(g, _balanced_cmp(y, x)),
        lambda g, x, y: mul(g, _balanced_cmp(x, y)),
    ),
)


# -- real --------------------------------------------------------------------------------------
def real(x: ArrayLike, /) -> Array:
    """Elementwise real part."""
    return bind_one(real_p, x)


real_p: Primitive = unop(
    "real",
    lambda d: d.kind == "c",
    hlo.real,
    _real_dtype,
    jvp=linear_jvp,
    transpose=unary_transpose(lambda t: complex(t, const_like(t, 0))),
)


# -- imag --------------------------------------------------------------------------------------
def imag(x: ArrayLike, /) -> Array:
    """Elementwise imaginary part."""
    return bind_one(imag_p, x)


imag_p: Primitive = unop(
    "imag",
    lambda d: d.kind == "c",
    hlo.imag,
    _real_dtype,
    jvp=linear_jvp,
    transpose=unary_transpose(lambda t: complex(const_like(t, 0), neg(t))),
)


# -- conj --------------------------------------------------------------------------------------
def conj(x: ArrayLike, /) -> Array:
    """Elementwise complex conjugate."""
    return bind_one(conj_p, x)


def _conj_lowering(x: ir.Value[Any]) -> ir.Value[Any]:
    if isinstance(ir.RankedTensorType(x.type).element_type, ir.ComplexType):
        return hlo.complex(hlo.real(x), hlo.negate(hlo.imag(x)))  # type: ignore[no-any-return]
    # a real operand is the real part of a complex result with a +0 imaginary part (also for inf, nan)
    return hlo.complex(x, splat_like(x, 0.0))  # type: ignore[no-any-return]


def _conj_transpose(ct: Any, x: Any, **params: Any) -> list[Any]:
    return [conj(ct) if x.aval.dtype.kind == "c" else real(ct)]


_COMPLEX_OF: dict[np.dtype[Any], np.dtype[Any]] = {
    np.dtype(np.float32): np.dtype(np.complex64),
    np.dtype(np.float64): np.dtype(np.complex128),
}


def _conj_dtype(d: np.dtype[Any]) -> np.dtype[Any]:
    return _COMPLEX_OF.get(d, d)

conj_p: Primitive = unop(
    "conj",
    lambda d: d.kind == "c" or d in _COMPLEX_OF,  # float32/64 become complex, as in JAX
    _conj_lowering,
    _conj_dtype,
    jvp=linear_jvp,
    transpose=_conj_transpose,
)


# -- complex -----------------------------------------------------------------------------------
def _complex_abstract_eval(x: ShapedArray, y: ShapedArray) -> ShapedArray:
    out = naryop_abstract_eval(
        "complex", lambda d: d in (np.dtype(np.float32), np.dtype(np.float64))
    )(x, y)
    return ShapedArray(
        out.shape,
        np.dtype(np.complex64 if x.dtype == np.float32 else np.complex128),
        x.weak_type and y.weak_type,
    )


def complex(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Builds complex numbers x + yj from real parts."""
    return bind_one(complex_p, x, y)


complex_p: Primitive = register(
    Primitive("complex"),
    _complex_abstract_eval,
    lower_with(hlo.complex),
    jvp=linear_jvp,
    transpose=binary_transpose(lambda t, y: real(t), lambda t, x: imag(neg(t))),
    unary=False,
)


# -- clamp ----------------------------------------------------------------------------------------
def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:
    """Elementwise clamp: ``min`` where ``x < min``, ``max`` where ``x > max``, else ``x``.

    ``min`` and ``max`` are scalars or have ``x``'s shape; all three share one dtype.
    """
    out: Array = clamp_p.bind(min, x, max)
    return out


_clamp_dtypes = naryop_abstract_eval("clamp", is_any)


def _clamp_abstract_eval(lo: ShapedArray, x: ShapedArray, hi: ShapedArray) -> ShapedArray:
    if lo.shape and lo.shape != x.shape:
        raise TypeError(
            f"clamp requires min.shape == operand.shape or min.shape == (), got min.shape={lo.shape}, operand.shape={x.shape}."
        )
    if hi.shape and hi.shape != x.shape:
        raise TypeError(
            f"clamp requires max.shape == operand.shape or max.shape == (), got max.shape={hi.shape}, operand.shape={x.shape}."
        )
    out = _clamp_dtypes(lo, x, hi)
    return ShapedArray(x.shape, out.dtype, out.weak_type)


def _clamp_lower(
    ctx: LoweringRuleContext, lo: ir.Value[Any], x: ir.Value[Any], hi: ir.Value[Any]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.clamp(lo, x, hi)
    return out


def _where(pred: Any, g: Any, x: Any) -> Any:
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    shape = get_aval(x).shape
    g = g if get_aval(g).shape == shape else broadcast_in_dim(g, shape, ())
    zeros = broadcast_in_dim(np.zeros((), get_aval(g).dtype), shape, ())
    return select(pred, g, zeros)


def _clamp_dmin(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(bitwise_and(gt(lo, x), lt(lo, hi)), g, x)


def _clamp_dx(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(bitwise_and(gt(x, lo), lt(x, hi)), g, x)


def _clamp_dmax(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lt(hi, x), g, x)


def _clamp_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    lo, x, hi = args
    lo_d, x_d, hi_d = dims
    if (
        lo_d is None
        and hi_d is None
        and x_d is not None
        and get_aval(lo).ndim == get_aval(hi).ndim == 0
    ):
        return clamp(lo, x, hi), x_d
    size = axis_size(args, dims)
    x_shape = get_aval(x).shape
    if x_d is not None:
        x_shape = x_shape[:x_d] + x_shape[x_d + 1 :]
    full = (size, *x_shape)
    moved: list[Any] = []
    for v, dim in zip(args, dims):
        if dim is None and get_aval(v).ndim == 0 and v is not x:
            moved.append(v)  # an unbatched scalar bound stays a scalar
            continue
        v = bdim_at_front(v, dim, size)
        if get_aval(v).shape != full:
            v = broadcast_in_dim(v, full, (0,))  # a batched scalar: one bound per example
        moved.append(v)
    return clamp(*moved), 0


clamp_p: Primitive = Primitive("clamp")
clamp_p.def_rules(
    Rules(
        abstract_eval=_clamp_abstract_eval,
        lower=_clamp_lower,
        jvp=per_arg_jvp(clamp_p, _clamp_dmin, _clamp_dx, _clamp_dmax),
        batch=_clamp_batch,
    )
)


def reciprocal(x: ArrayLike) -> Array:
    """Elementwise ``1 / x`` (``integer_pow(x, -1)``; integers are rejected with ``TypeError``)."""
    aval = get_aval(x)
    if dtypes.issubdtype(aval.dtype, np.integer):
        short = (
            f"{'~' if aval.weak_type else ''}{aval.dtype.name}[{','.join(map(str, aval.shape))}]"
        )
        raise TypeError(
            f"Integers cannot be raised to negative powers, got integer_pow({short}, -1)"
        )
    return integer_pow(x, -1)
