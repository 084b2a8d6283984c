"""Transcendental primitives: exponentials and logarithms, trigonometric and hyperbolic functions
and their inverses, roots, ``erf``/``erfc``/``erf_inv``, ``lgamma``/``digamma``, ``pow``, ``atan2``
and ``nextafter``, each with JAX's derivative rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import (
    per_arg_jvp,
)
from jax_core._src.interpreters.batching_util import (
    vectorized_batcher,
)
from jax_core._src.lax.elementwise.arithmetic import (
    add,
    div,
    integer_pow,
    mul,
    neg,
    one_minus_square,
    replace_zero,
    square,
    sub,
)
from jax_core._src.lax.elementwise.comparisons import lt, select
from jax_core._src.lax.elementwise.factories import (
    binop,
    const_like,
    dtype_of,
    register,
    d,
    d2,
    d2b,
    db,
    full_like_value,
    splat_like,
    unop,
)
from jax_core._src.lax.standard_rules import (
    bind_one,
    broadcast_operands,
    broadcast_shapes,
    is_float,
    is_number,
    is_real_float,
    lower_with,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


# -- exp ---------------------------------------------------------------------------------------
def exp(x: ArrayLike, /) -> Array:
    """Elementwise exponential: e**x."""
    return bind_one(exp_p, x)


exp_p: Primitive = unop("exp", is_float, hlo.exponential, jvp=d2(lambda g, ans, x: mul(g, ans)))


# -- exp2 --------------------------------------------------------------------------------------
def exp2(x: ArrayLike, /) -> Array:
    """Elementwise base-2 exponential: 2**x."""
    return bind_one(exp2_p, x)


exp2_p: Primitive = unop(
    "exp2",
    is_float,
    lambda x: hlo.exponential(hlo.multiply(x, splat_like(x, np.log(2)))),
    jvp=d2(lambda g, ans, x: mul(const_like(x, np.log(2)), mul(g, ans))),
)


# -- log ---------------------------------------------------------------------------------------
def log(x: ArrayLike, /) -> Array:
    """Elementwise natural logarithm."""
    return bind_one(log_p, x)


log_p: Primitive = unop("log", is_float, hlo.log, jvp=d(lambda g, x: div(g, x)))


# -- log1p -------------------------------------------------------------------------------------
def log1p(x: ArrayLike, /) -> Array:
    """Elementwise log(1 + x), accurate near 0."""
    return bind_one(log1p_p, x)


log1p_p: Primitive = unop(
    "log1p", is_float, hlo.log_plus_one, jvp=d(lambda g, x: div(g, add(x, const_like(x, 1))))
)


# -- expm1 -------------------------------------------------------------------------------------
def expm1(x: ArrayLike, /) -> Array:
    """Elementwise e**x - 1, accurate near 0."""
    return bind_one(expm1_p, x)


expm1_p: Primitive = unop("expm1", is_float, hlo.exponential_minus_one, jvp=d(lambda g, x: mul(g, exp(x))))


# -- tanh --------------------------------------------------------------------------------------


def tanh(x: ArrayLike, /) -> Array:
    """Elementwise hyperbolic tangent."""
    return bind_one(tanh_p, x)


tanh_p: Primitive = unop("tanh", is_float, hlo.tanh, jvp=d2(lambda g, ans, x: mul(g, one_minus_square(ans))))


# -- logistic ----------------------------------------------------------------------------------
def logistic(x: ArrayLike, /) -> Array:
    """Elementwise logistic (sigmoid): 1 / (1 + e**-x)."""
    return bind_one(logistic_p, x)


logistic_p: Primitive = unop(
    "logistic",
    is_float,
    hlo.logistic,
    jvp=d2(lambda g, ans, x: mul(g, mul(ans, sub(const_like(ans, 1), ans)))),
)


# -- sin ---------------------------------------------------------------------------------------
def sin(x: ArrayLike, /) -> Array:
    """Elementwise sine."""
    return bind_one(sin_p, x)


sin_p: Primitive = unop("sin", is_float, hlo.sine, jvp=d(lambda g, x: mul(g, cos(x))))


# -- cos ---------------------------------------------------------------------------------------
def cos(x: ArrayLike, /) -> Array:
    """Elementwise cosine."""
    return bind_one(cos_p, x)


cos_p: Primitive = unop("cos", is_float, hlo.cosine, jvp=d(lambda g, x: neg(mul(g, sin(x)))))


# -- tan ---------------------------------------------------------------------------------------
def tan(x: ArrayLike, /) -> Array:
    """Elementwise tangent."""
    return bind_one(tan_p, x)


tan_p: Primitive = unop(
    "tan", is_float, hlo.tan, jvp=d2(lambda g, ans, x: mul(g, add(const_like(x, 1), square(ans))))
)


# -- asin --------------------------------------------------------------------------------------
def asin(x: ArrayLike, /) -> Array:
    """Elementwise arc sine."""
    return bind_one(asin_p, x)


asin_p: Primitive = unop("asin", is_float, chlo.asin, jvp=d(lambda g, x: mul(g, rsqrt(one_minus_square(x)))))


# -- acos --------------------------------------------------------------------------------------
def acos(x: ArrayLike, /) -> Array:
    """Elementwise arc cosine."""
    return bind_one(acos_p, x)


acos_p: Primitive = unop(
    "acos", is_float, chlo.acos, jvp=d(lambda g, x: mul(g, neg(rsqrt(one_minus_square(x)))))
)


# -- atan --------------------------------------------------------------------------------------
def atan(x: ArrayLike, /) -> Array:
    """Elementwise arc tangent."""
    return bind_one(atan_p, x)


atan_p: Primitive = unop(
    "atan", is_float, chlo.atan, jvp=d(lambda g, x: div(g, add(const_like(x, 1), square(x))))
)


# -- sinh --------------------------------------------------------------------------------------
def sinh(x: ArrayLike, /) -> Array:
    """Elementwise hyperbolic sine."""
    return bind_one(sinh_p, x)


sinh_p: Primitive = unop("sinh", is_float, chlo.sinh, jvp=d(lambda g, x: mul(g, cosh(x))))


# -- cosh --------------------------------------------------------------------------------------
def cosh(x: ArrayLike, /) -> Array:
    """Elementwise hyperbolic cosine."""
    return bind_one(cosh_p, x)


cosh_p: Primitive = unop("cosh", is_float, chlo.cosh, jvp=d(lambda g, x: mul(g, sinh(x))))


# -- asinh -------------------------------------------------------------------------------------
def asinh(x: ArrayLike, /) -> Array:
    """Elementwise inverse hyperbolic sine."""
    return bind_one(asinh_p, x)


asinh_p: Primitive = unop(
    "asinh",
    is_float,
    chlo.asinh,
    jvp=d(lambda g, x: mul(g, rsqrt(add(square(x), const_like(x, 1))))),
)


# -- acosh -------------------------------------------------------------------------------------
def acosh(x: ArrayLike, /) -> Array:
    """Elementwise inverse hyperbolic cosine."""
    return bind_one(acosh_p, x)


acosh_p: Primitive = unop(
    "acosh",
    is_float,
    chlo.acosh,
    jvp=d(
        lambda g, x: mul(g, mul(rsqrt(sub(x, const_like(x, 1))), rsqrt(add(x, const_like(x, 1)))))
    ),
)


# -- atanh -------------------------------------------------------------------------------------
def atanh(x: ArrayLike, /) -> Array:
    """Elementwise inverse hyperbolic tangent."""
    return bind_one(atanh_p, x)


atanh_p: Primitive = unop("atanh", is_float, chlo.atanh, jvp=d(lambda g, x: div(g, one_minus_square(x))))


# -- sqrt --------------------------------------------------------------------------------------
def sqrt(x: ArrayLike, /) -> Array:
    """Elementwise square root."""
    return bind_one(sqrt_p, x)


sqrt_p: Primitive = unop(
    "sqrt", is_float, hlo.sqrt, jvp=d2(lambda g, ans, x: mul(g, div(const_like(x, 0.5), ans)))
)


# -- rsqrt -------------------------------------------------------------------------------------
def rsqrt(x: ArrayLike, /) -> Array:
    """Elementwise reciprocal square root: 1/sqrt(x)."""
    return bind_one(rsqrt_p, x)


rsqrt_p: Primitive = unop(
    "rsqrt",
    is_float,
    hlo.rsqrt,
    jvp=d2(lambda g, ans, x: mul(g, mul(const_like(x, -0.5), div(ans, x)))),
)


# -- cbrt --------------------------------------------------------------------------------------
def cbrt(x: ArrayLike, /) -> Array:
    """Elementwise cube root."""
    return bind_one(cbrt_p, x)


cbrt_p: Primitive = unop(
    "cbrt",
    is_real_float,
    hlo.cbrt,
    jvp=d2(lambda g, ans, x: mul(g, mul(const_like(x, 1 / 3), integer_pow(ans, -2)))),
)


# -- erf ---------------------------------------------------------------------------------------
def erf(x: ArrayLike, /) -> Array:
    """Elementwise error function."""
    return bind_one(erf_p, x)


erf_p: Primitive = unop(
    "erf",
    is_real_float,
    chlo.erf,
    jvp=d(lambda g, x: mul(const_like(x, 2 / np.sqrt(np.pi)), mul(g, exp(neg(square(x)))))),
)


# -- erf_inv -----------------------------------------------------------------------------------
def erf_inv(x: ArrayLike, /) -> Array:
    """Elementwise inverse error function."""
    return bind_one(erf_inv_p, x)


erf_inv_p: Primitive = unop(
    "erf_inv",
    is_real_float,
    chlo.erf_inv,
    jvp=d2(lambda g, ans, x: mul(const_like(x, np.sqrt(np.pi) / 2), mul(g, exp(square(ans))))),
)


# -- lgamma ------------------------------------------------------------------------------------
def lgamma(x: ArrayLike, /) -> Array:
    """Elementwise log of the absolute value of the gamma function."""
    return bind_one(lgamma_p, x)


def _widen_f32_exactly(x: ir.Value[Any], shape: tuple[int, ...]) -> ir.Value[Any]:
    """float32 -> float64 keeping subnormal inputs, which XLA:CPU's convert flushes to zero.

    A subnormal float32 is ``bits * 2**-149``; it is rebuilt from its integer bits in float64.
    """
    f32, i32, f64 = (ShapedArray(shape, np.dtype(t)) for t in (np.float32, np.int32, np.float64))

    def const(value: int | float, aval: ShapedArray) -> ir.Value[Any]:
        return hlo_util.broadcast_in_dim(hlo_util.constant(np.asarray(value, aval.dtype)), aval, ())

    bits = hlo.bitcast_convert(aval_to_ir_type(i32), x)
    mag_bits = hlo.and_(bits, const(0x7FFFFFFF, i32))
    is_sub = hlo_util.compare(mag_bits, const(0x00800000, i32), "LT", i32.dtype)
    is_neg = hlo_util.compare(bits, const(0, i32), "LT", i32.dtype)
    mag = hlo.multiply(hlo_util.convert(mag_bits, i32, f64), const(2.0**-149, f64))
    sub = hlo.select(is_neg, hlo.negate(mag), mag)
    out: ir.Value[Any] = hlo.select(is_sub, sub, hlo_util.convert(x, f32, f64))
    return out


def _lgamma_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> ir.Value[Any]:
    """``chlo.lgamma`` in float64, rounded to the operand's type.

    CHLO's float32 expansion loses up to ~50 ulp near the roots of lgamma (x = 1, 2 and the
    negative zeros), where JAX's own float32 implementation stays within 3 ulp of the correctly
    rounded value. The float64 expansion rounded to float32 is correctly rounded (checked over
    ~320k float32 inputs against ``math.lgamma``), so jax_core's float32 lgamma is within JAX's
    3 ulp of JAX's, subnormal inputs included. float16/bfloat16 round through float32 as JAX's do.
    """
    (aval,) = ctx.avals_in
    if aval.dtype == np.float64:
        return chlo.lgamma(x)  # type: ignore[no-any-return]
    f32, f64 = aval.update(dtype=np.dtype(np.float32)), aval.update(dtype=np.dtype(np.float64))
    narrow = hlo_util.convert(x, aval, f32)
    y = hlo_util.convert(chlo.lgamma(_widen_f32_exactly(narrow, aval.shape)), f64, f32)
    return hlo_util.convert(y, f32, aval)


lgamma_p: Primitive = register(
    Primitive("lgamma"),
    unop_abstract_eval("lgamma", is_real_float, None),
    _lgamma_lower,
    jvp=d(lambda g, x: mul(g, digamma(x))),
    unary=True,
)


# -- digamma -----------------------------------------------------------------------------------
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
    reflect = lt(x, half)
    z = select(reflect, sub(const_like(x, 1), x), x)
    acc = integer_pow(z, -2)
    for k in range(1, _TRIGAMMA_SHIFT):
        acc = add(acc, integer_pow(add(z, const_like(z, k)), -2))
    r = div(const_like(z, 1), add(z, const_like(z, _TRIGAMMA_SHIFT)))
    r2 = square(r)
    poly: Any = const_like(z, _TRIGAMMA_SERIES[-1])
    for coef in reversed(_TRIGAMMA_SERIES[:-1]):
        poly = add(mul(poly, r2), const_like(z, coef))
    asym = add(add(r, mul(r2, const_like(z, 0.5))), mul(mul(r2, r), poly))
    psi1 = add(acc, asym)
    # Where no reflection happens, evaluate sin at 0.5 so the unused branch (and its
    # derivative) stays finite at the integers.
    xs = select(reflect, x, full_like_value(x, 0.5))
    sin_pix = sin(mul(xs, const_like(x, np.pi)))
    reflected = sub(div(const_like(x, np.pi**2), square(sin_pix)), psi1)
    return select(reflect, reflected, psi1)


def digamma(x: ArrayLike, /) -> Array:
    """Elementwise digamma function."""
    return bind_one(digamma_p, x)


digamma_p: Primitive = unop("digamma", is_real_float, chlo.digamma, jvp=d(lambda g, x: mul(g, trigamma(x))))


# -- pow ---------------------------------------------------------------------------------------
def _pow_jvp_lhs(g: Any, ans: Any, x: Any, y: Any) -> Any:
    from jax_core._src.lax.elementwise.comparisons import eq
    from jax_core._src.lax.elementwise.conversions import convert_element_type

    dt = dtype_of(x)
    if not dtypes.issubdtype(dtype_of(y), np.integer):
        return mul(g, mul(y, pow(x, sub(y, const_like(y, 1)))))
    # an integer exponent: y * x**(y-1) in x's dtype, 0 where y == 0 (no 0 * inf)
    yf = convert_element_type(y, dt)
    jac = select(eq(yf, const_like(yf, 0)), mul(yf, const_like(yf, 0)),
                 mul(replace_zero(yf), pow(x, sub(yf, const_like(yf, 1)))))  # fmt: skip
    return mul(g, jac)


def _pow_jvp_rhs(g: Any, ans: Any, x: Any, y: Any) -> Any:
    # log(1) = 0 where x == 0, so d/dy 0**y is 0 rather than nan.
    return mul(g, mul(log(replace_zero(x)), ans))


def pow(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise power: x**y."""
    return bind_one(pow_p, x, y)


def _pow_abstract_eval(x: ShapedArray, y: ShapedArray) -> ShapedArray:
    for i, (a, ok, kinds) in enumerate(((x, is_float, "floating, complexfloating"),
                                        (y, is_number, "integer, floating, complexfloating"))):  # fmt: skip
        if not ok(a.dtype):
            raise TypeError(
                f"pow does not accept dtype {a.dtype.name} at position {i}. Accepted dtypes at "
                f"position {i} are subtypes of {kinds}."
            )
    if x.dtype != y.dtype and not dtypes.issubdtype(y.dtype, np.integer):
        raise TypeError(
            "the first argument to pow must have an inexact dtype (float or complex), and the second "
            "argument must have an inexact or integer dtype, and two inexact dtypes must match, but "
            f"got {x.dtype} and {y.dtype} respectively."
        )
    shape = broadcast_shapes("pow", x.shape, y.shape)
    return ShapedArray(shape, x.dtype, x.weak_type and y.weak_type)


def _pow_lower(ctx: LoweringRuleContext, x: ir.Value[Any], y: ir.Value[Any]) -> ir.Value[Any]:
    xa, ya = ctx.avals_in
    x, y = broadcast_operands(ctx, (x, y))
    if xa.dtype != ya.dtype:  # an integer exponent: converted to the base's type
        elt = ir.RankedTensorType(x.type).element_type
        y = hlo.convert(ir.RankedTensorType.get(ir.RankedTensorType(y.type).shape, elt), y)
    return hlo.power(x, y)  # type: ignore[no-any-return]


pow_p: Primitive = register(
    Primitive("pow"), _pow_abstract_eval, _pow_lower, jvp=d2b(_pow_jvp_lhs, _pow_jvp_rhs), unary=False
)


# -- atan2 -------------------------------------------------------------------------------------
def _atan2_den(x: Any, y: Any) -> Any:
    return add(square(x), square(y))


def atan2(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise arc tangent of x/y."""
    return bind_one(atan2_p, x, y)


atan2_p: Primitive = binop(
    "atan2",
    is_float,
    hlo.atan2,
    jvp=db(
        lambda g, x, y: mul(g, div(y, _atan2_den(x, y))),
        lambda g, x, y: mul(g, div(neg(x), _atan2_den(x, y))),
    ),
)


# -- nextafter ---------------------------------------------------------------------------------
def nextafter(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The next representable value after x toward y."""
    return bind_one(nextafter_p, x, y)


nextafter_p: Primitive = binop("nextafter", is_real_float, chlo.next_after, jvp=db(lambda g, x, y: g, None))


# -- erfc -----------------------------------------------------------------------------------------
def erfc(x: ArrayLike, /) -> Array:
    r"""Elementwise complementary error function: :math:`\mathrm{erfc}(x) = 1 - \mathrm{erf}(x)`.

    ``x`` must have a real floating-point dtype; unlike ``1 - erf(x)`` the result keeps its
    relative precision for large ``x``.
    """
    out: Array = erfc_p.bind(x)
    return out


def _erfc_d(g: Any, x: Any, **params: Any) -> Any:
    return mul(const_like(x, -2 / np.sqrt(np.pi)), mul(g, exp(neg(square(x)))))


erfc_p: Primitive = Primitive("erfc")
erfc_p.def_rules(
    Rules(
        abstract_eval=unop_abstract_eval("erfc", is_real_float),
        lower=lower_with(chlo.erfc),
        jvp=per_arg_jvp(erfc_p, _erfc_d),
        batch=vectorized_batcher(erfc_p),
    )
)


# -- log2 -----------------------------------------------------------------------------------------
def log2(x: ArrayLike, /) -> Array:
    r"""Elementwise base-2 logarithm: :math:`\log_2(x)`.

    ``x`` must have a floating-point or complex dtype. Lowered as ``log(x) / log(2)``, as
    JAX lowers it.
    """
    out: Array = log2_p.bind(x)
    return out


def _log2_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> ir.Value[Any]:
    two = hlo.constant(ir.DenseElementsAttr.get(np.asarray(2, ctx.avals_in[0].dtype), type=x.type))
    out: ir.Value[Any] = hlo.divide(hlo.log(x), hlo.log(two))
    return out


def _log2_d(g: Any, x: Any, **params: Any) -> Any:
    return div(g, mul(x, log(const_like(x, 2))))


log2_p: Primitive = Primitive("log2")
log2_p.def_rules(
    Rules(
        abstract_eval=unop_abstract_eval("log2", is_float),
        lower=_log2_lower,
        jvp=per_arg_jvp(log2_p, _log2_d),
        batch=vectorized_batcher(log2_p),
    )
)
