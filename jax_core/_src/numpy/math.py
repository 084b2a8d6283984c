"""More elementwise math: logs, rounding, sign bits, floating-point decomposition, gcd, closeness.

Each function follows ``jax.numpy``'s dtype rules (integer inputs promote to float where
NumPy's result is inexact) and is built from lax primitives; eager calls go through the
C++ jit fast path.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.ad_ops import stop_gradient
from jax_core._src.lax.elementwise import bitcast_convert_type
from jax_core._src.numpy import ufuncs
from jax_core._src.numpy.ufuncs import BinaryFn, UnaryFn
from jax_core._src.numpy.util import (
    check_arraylike,
    ensure_array,
    jitted,
    promote_dtypes,
    promote_dtypes_inexact,
    promote_dtypes_numeric,
    promote_shapes,
)
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_INT_FOR_BITS: dict[int, np.dtype[Any]] = {16: np.dtype(np.int16), 32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UINT_FOR_BITS: dict[int, np.dtype[Any]] = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def const_of(x: ArrayLike, value: Any) -> Any:
    """A scalar constant of ``x``'s dtype, weakly typed when ``x`` is (JAX's ``_lax_const``): a
    jaxpr literal under a trace."""
    aval = get_aval(x)
    if aval.weak_type and isinstance(value, (int, float, complex)) and not isinstance(value, bool):
        return lax.to_dtype(value, aval.dtype, True)
    return np.asarray(value).astype(aval.dtype)


def _full_like(x: Array, value: Any, dtype: Any = None) -> Array:
    from jax_core._src.numpy.creation import full

    return full(x.shape, value, dtype if dtype is not None else x.dtype)


def is_kind(x: ArrayLike, kind: type[Any]) -> bool:
    dt = get_aval(x).dtype
    return dt != np.bool_ and dtypes.issubdtype(dt, kind)


def where_sel(c: ArrayLike, x: ArrayLike, y: ArrayLike) -> Array:
    from jax_core._src.numpy.where import select_promoted

    return select_promoted(c, x, y)


def _inexact1(name: str, x: ArrayLike) -> Array:
    check_arraylike(name, x)
    return ensure_array(promote_dtypes_inexact(x)[0])


def inexact_pair(name: str, x: ArrayLike, y: ArrayLike) -> tuple[Array, Array]:
    check_arraylike(name, x, y)
    a, b = promote_dtypes_inexact(x, y)
    return ensure_array(a), ensure_array(b)


def _no_complex(name: str, *xs: Array) -> None:
    for x in xs:
        if dtypes.issubdtype(x.dtype, np.complexfloating):
            raise TypeError(f"{name} does not support complex-valued inputs")


# -- logs and exponentials --------------------------------------------------------------


@jitted()
def log2(x: ArrayLike, /) -> Array:
    """Elementwise base-2 logarithm (integer inputs promote to float): ``lax.log2``, as JAX's."""
    return lax.log2(_inexact1("log2", x))


@jitted()
def log10(x: ArrayLike, /) -> Array:
    """Elementwise base-10 logarithm (integer inputs promote to float): ``log(x)`` times the
    correctly rounded ``1/log(10)`` of the real dtype, as JAX's."""
    a = _inexact1("log10", x)
    real = dtypes.finfo(a.dtype).dtype
    one_over_log10 = np.array(0.4342944819032518, dtype=real)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        r = lax.log(a)
        return lax.complex(lax.mul(lax.real(r), one_over_log10), lax.mul(lax.imag(r), one_over_log10))
    return lax.mul(lax.log(a), one_over_log10)


def bcast_pair(a: Array, b: Array) -> tuple[Array, Array]:
    from jax_core._src.numpy.shape import broadcast_shapes, broadcast_to

    shape = broadcast_shapes(a.shape, b.shape)
    return broadcast_to(a, shape), broadcast_to(b, shape)


# -- rounding ---------------------------------------------------------------------------


@jitted(inline=False)
def rint(x: ArrayLike, /) -> Array:
    """Rounds to the nearest integer, halves to even; integer inputs become float."""
    check_arraylike("rint", x)
    a = ensure_array(x)
    if a.dtype == np.bool_ or dtypes.issubdtype(a.dtype, np.integer):
        return lax.convert_element_type(a, dtypes.default_float_dtype())
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        return lax.complex(lax.round(lax.real(a), 1), lax.round(lax.imag(a), 1))
    return lax.round(a, 1)


@jitted(static=("decimals",), inline=False)
def round(a: ArrayLike, decimals: int = 0, out: None = None) -> Array:
    """Rounds to ``decimals`` decimal places, halves to even (as ``numpy.round``)."""
    check_arraylike("round", a)
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.round is not supported.")
    x = ensure_array(a)
    decimals = operator.index(decimals)
    if x.dtype == np.bool_:
        raise ValueError("data type dtype('bool') not compatible with finfo")
    if dtypes.issubdtype(x.dtype, np.integer):
        if decimals < 0:
            factor = const_of(x, 10 ** (-decimals))
            return lax.mul(_round_int(lax.div(x, factor), lax.rem(x, factor), factor), factor)
        return x
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        return lax.complex(_round_float(lax.real(x), decimals), _round_float(lax.imag(x), decimals))
    return _round_float(x, decimals)


def _round_int(q: Array, r: Array, factor: ArrayLike) -> Array:
    # Round half to even on the quotient of an integer division.
    twice = lax.mul(lax.abs(r), const_of(r, 2))
    up = lax.gt(twice, factor) | (lax.eq(twice, factor) & lax.ne(lax.rem(q, const_of(q, 2)), const_of(q, 0)))
    step = lax.select(lax.lt(r, const_of(r, 0)), _full_like(q, -1), _full_like(q, 1))
    return lax.select(up & lax.ne(r, const_of(r, 0)), lax.add(q, step), q)


def _round_float(x: Array, decimals: int) -> Array:
    if decimals == 0:
        return lax.round(x, 1)
    dt = x.dtype
    compute = np.dtype(np.float32) if dt in (np.float16, dtypes.dtype(dtypes.bfloat16)) else dt
    xc = lax.convert_element_type(x, compute)
    factor = const_of(xc, 10.0**decimals)
    out = lax.div(lax.round(lax.mul(xc, factor), 1), factor)
    return lax.convert_element_type(out, dt)


@jitted(static=("decimals",), inline=False)
def around(a: ArrayLike, decimals: int = 0, out: None = None) -> Array:
    """Alias of ``round``."""
    return round(a, decimals, out)


@jitted(inline=False)
def trunc(x: ArrayLike, /) -> Array:
    """Rounds toward zero."""
    check_arraylike("trunc", x)
    a = ensure_array(x)
    if a.dtype == np.bool_ or dtypes.issubdtype(a.dtype, np.integer):
        return a
    _no_complex("trunc", a)
    return lax.select(lax.lt(a, const_of(a, 0)), lax.ceil(a), lax.floor(a))


fix = trunc


@jitted(inline=False)
def modf(x: ArrayLike, /) -> tuple[Array, Array]:
    """The fractional and integral parts of ``x`` (both with ``x``'s sign)."""
    a = _inexact1("modf", x)
    whole = trunc(a)
    return lax.sub(a, whole), whole


@jitted(inline=False)
def divmod(x1: ArrayLike, x2: ArrayLike, /) -> tuple[Array, Array]:
    """``(floor_divide(x1, x2), remainder(x1, x2))`` (floats: one ``fmod``-based computation)."""
    check_arraylike("divmod", x1, x2)
    a, b = promote_dtypes_numeric(x1, x2)
    if dtypes.issubdtype(get_aval(a).dtype, np.integer):
        return ufuncs.floor_divide(a, b), ufuncs.remainder(a, b)
    a, b = promote_shapes("divmod", a, b)
    return ufuncs.float_divmod(a, b)


@jitted()
def fabs(x: ArrayLike, /) -> Array:
    """Elementwise absolute value as float (complex inputs are rejected)."""
    a = _inexact1("fabs", x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        raise TypeError("ufunc 'fabs' does not support complex dtypes")
    return lax.abs(a)


# -- sign, classification ---------------------------------------------------------------


@jitted()
def isnan(x: ArrayLike, /) -> Array:
    """Whether each element is NaN (always false for integers and bools)."""
    check_arraylike("isnan", x)
    a = ensure_array(x)
    if not dtypes.issubdtype(a.dtype, np.inexact):
        return _full_like(a, False, np.bool_)
    return lax.ne(a, a)


@jitted(inline=False)
def isinf(x: ArrayLike, /) -> Array:
    """Whether each element is positive or negative infinity."""
    check_arraylike("isinf", x)
    a = ensure_array(x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        return isinf(lax.real(a)) | isinf(lax.imag(a))
    if not dtypes.issubdtype(a.dtype, np.floating):
        return _full_like(a, False, np.bool_)
    return lax.eq(lax.abs(a), const_of(a, np.inf))


def _isposneginf(name: str, x: ArrayLike, infinity: float) -> Array:
    check_arraylike(name, x)
    a = ensure_array(x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        raise ValueError(f"{name} does not support complex-valued inputs.")
    if not dtypes.issubdtype(a.dtype, np.floating):
        return _full_like(a, False, np.bool_)
    return lax.eq(a, const_of(a, infinity))


@jitted()
def isposinf(x: ArrayLike, /) -> Array:
    """Whether each element is positive infinity."""
    return _isposneginf("isposinf", x, np.inf)


@jitted()
def isneginf(x: ArrayLike, /) -> Array:
    """Whether each element is negative infinity."""
    return _isposneginf("isneginf", x, -np.inf)


@jitted(inline=False)
def isreal(x: ArrayLike, /) -> Array:
    """Whether each element has a zero imaginary part."""
    check_arraylike("isreal", x)
    a = ensure_array(x)
    if not dtypes.issubdtype(a.dtype, np.complexfloating):
        return _full_like(a, True, np.bool_)
    return lax.eq(lax.imag(a), const_of(lax.imag(a), 0))


@jitted(inline=False)
def iscomplex(x: ArrayLike, /) -> Array:
    """Whether each element has a nonzero imaginary part."""
    check_arraylike("iscomplex", x)
    a = ensure_array(x)
    if not dtypes.issubdtype(a.dtype, np.complexfloating):
        return _full_like(a, False, np.bool_)
    return lax.ne(lax.imag(a), const_of(lax.imag(a), 0))


@jitted(inline=False)
def signbit(x: ArrayLike, /) -> Array:
    """Whether the sign bit is set (true for -0.0 and negative NaN)."""
    check_arraylike("signbit", x)
    a = ensure_array(x)
    if a.dtype == np.bool_:
        return _full_like(a, False, np.bool_)
    if dtypes.issubdtype(a.dtype, np.integer):
        return lax.lt(a, const_of(a, 0))
    if not dtypes.issubdtype(a.dtype, np.floating):
        raise ValueError(f"jax.numpy.signbit is not well defined for {a.dtype}")
    bits = dtypes.itemsize_bits(a.dtype)
    if bits not in _INT_FOR_BITS:
        raise NotImplementedError("jax.numpy.signbit only supports 16, 32, and 64-bit types.")
    ints = bitcast_convert_type(a, _INT_FOR_BITS[bits])
    return lax.lt(ints, const_of(ints, 0))


@jitted(inline=False)
def copysign(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``x1`` with the sign of ``x2``."""
    a, b = inexact_pair("copysign", x1, x2)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        raise TypeError("copysign does not support complex-valued inputs")
    a, b = bcast_pair(a, b)
    mag = lax.abs(a)
    return lax.select(signbit(b), lax.neg(mag), mag)


@jitted(inline=False)
def heaviside(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """The Heaviside step: 0 for ``x1 < 0``, ``x2`` at 0, 1 for ``x1 > 0``."""
    a, b = inexact_pair("heaviside", x1, x2)
    zero, one = const_of(a, 0), const_of(a, 1)
    return where_sel(lax.lt(a, zero), zero, where_sel(lax.gt(a, zero), one, b))


@jitted(inline=False)
def hypot(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``sqrt(x1**2 + x2**2)``, both legs scaled by a power of two first so that the squares
    neither overflow nor underflow (JAX 0.12's ``lax.hypot``; derivatives from the unit vector)."""
    a, b = inexact_pair("hypot", x1, x2)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        raise ValueError(
            "jnp.hypot is not well defined for complex-valued inputs. "
            "Please convert to real values first, such as by using abs(x)"
        )
    a, b = bcast_pair(a, b)
    out: Array = _hypot(a, b)[0]
    return out


def _hypot_impl(x1: Array, x2: Array) -> tuple[Array, Array, Array]:
    """``(r, x1 / r, x2 / r)`` for ``r = hypot(x1, x2)``."""
    from jax_core._src.lax.shape.compositions import full_like

    a1, a2 = lax.abs(x1), lax.abs(x2)
    m = lax.max(a1, a2)
    fi = dtypes.finfo(x1.dtype)
    k = (fi.nmant - fi.minexp + 1) // 2  # (x * 2**k)**2 stays normal for the smallest subnormal x
    e_hi = (fi.maxexp - 1) // 2  # 2 * m**2 cannot overflow below 2**e_hi
    hi = lax.ge(m, const_of(x1, 2.0**e_hi))
    lo = lax.le(m, const_of(x1, 2.0 ** (e_hi - k)))
    down, up, one = full_like(x1, 2.0**-k), full_like(x1, 2.0**k), full_like(x1, 1.0)
    y1 = lax.select(hi, lax.mul(x1, down), lax.select(lo, lax.mul(x1, up), x1))
    y2 = lax.select(hi, lax.mul(x2, down), lax.select(lo, lax.mul(x2, up), x2))
    unscale = lax.select(hi, up, lax.select(lo, down, one))
    r_scaled = lax.sqrt(lax.add(lax.square(y1), lax.square(y2)))
    r = lax.mul(r_scaled, unscale)
    if dtypes.supports_inf(x1.dtype):
        inf = full_like(x1, np.inf)
        r = lax.select(lax.bitwise_or(lax.eq(a1, inf), lax.eq(a2, inf)), inf, r)
    return r, lax.div(y1, r_scaled), lax.div(y2, r_scaled)


def _hypot_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[tuple[Array, Array, Array], tuple[Array, Array, Array]]:
    # Only the outputs appear, so higher derivatives recurse here and never see the scale.
    (x1, x2), (dx1, dx2) = primals, tangents
    r, u1, u2 = _hypot(x1, x2)
    dr = lax.add(lax.mul(u1, dx1), lax.mul(u2, dx2))
    return (r, u1, u2), (dr, lax.div(lax.sub(dx1, lax.mul(u1, dr)), r), lax.div(lax.sub(dx2, lax.mul(u2, dr)), r))


def _make_hypot() -> Any:
    from jax_core._src.transforms.custom_derivatives import custom_jvp

    f = custom_jvp(_hypot_impl)
    f.defjvp(_hypot_jvp)
    return f


_hypot: Any = _make_hypot()


@jitted()
def deg2rad(x: ArrayLike, /) -> Array:
    """Degrees to radians."""
    a = _inexact1("deg2rad", x)
    return lax.mul(a, const_of(a, np.pi / 180))


@jitted()
def rad2deg(x: ArrayLike, /) -> Array:
    """Radians to degrees."""
    a = _inexact1("rad2deg", x)
    return lax.mul(a, const_of(a, 180 / np.pi))


radians = deg2rad
degrees = rad2deg


# sin(pi r) / (pi r) = 1 + t q(t) for t = r**2, |r| <= 1/2: JAX 0.12's minimax coefficients of q
# (lowest degree first), so results agree with JAX's to the bit.
_SINC_Q32 = tuple(float.fromhex(h) for h in (
    "-0x1.a51a66p0", "0x1.9f9cb4p-1", "-0x1.86a8e4p-3", "0x1.ac6806p-6", "-0x1.33816ap-9",
    "0x1.37471ap-13"))  # fmt: skip
_SINC_Q64 = tuple(float.fromhex(h) for h in (
    "-0x1.a51a6625307d3p0", "0x1.9f9cb402bc46cp-1", "-0x1.86a8e4720db67p-3",
    "0x1.ac6805cf350a6p-6", "-0x1.33816aa4607abp-9", "0x1.374719fab3915p-13",
    "-0x1.d42498d1ce099p-18", "0x1.0fc992ff39e13p-22", "-0x1.f5f9d970ca6dfp-28",
    "0x1.79788684225eap-33", "-0x1.d7353939082fep-39"))  # fmt: skip


def _horner(x: Array, coeffs: tuple[float, ...]) -> Array:
    """``sum(c[k] * x**k)`` by Horner's rule from the highest degree (``lax.polynomial``'s order)."""
    assert len(coeffs) > 1
    acc: Any = const_of(x, coeffs[-1])
    for c in reversed(coeffs[:-1]):
        acc = lax.add(lax.mul(acc, x), const_of(x, c))
    return ensure_array(acc)


def _sinc_complex(x: Array) -> Array:
    """Complex sinc: a Taylor series in ``(pi x)**2`` inside the unit disc, ``sin(u) / u`` outside."""
    re = lax.real(x)
    at_inf = lax.bitwise_and(lax.eq(lax.abs(re), const_of(re, np.inf)), lax.is_finite(lax.imag(x)))
    u = where_sel(at_inf, const_of(x, 1), lax.mul(const_of(x, np.pi), x))
    series_zone = lax.lt(lax.abs(u), const_of(lax.abs(u), 1.0))
    u_series = where_sel(series_zone, u, const_of(u, 0))
    u_direct = where_sel(series_zone, const_of(u, 1.0), u)
    eps = float(dtypes.finfo(x.dtype).eps)
    coeffs: list[float] = []
    for k in range(100):
        mag = 1.0 / math.factorial(2 * k + 1)
        coeffs.append((-1) ** k * mag)
        if mag <= eps:
            break
    series = _horner(lax.square(u_series), tuple(coeffs))
    result = where_sel(series_zone, series, lax.div(lax.sin(u_direct), u_direct))
    return where_sel(at_inf, const_of(x, 0), result)


@jitted(inline=False)
def sinc(x: ArrayLike, /) -> Array:
    """The normalized sinc ``sin(pi x) / (pi x)`` (1 at 0), as JAX 0.12 computes it: ``x = n + r``
    with ``n`` the nearest integer, ``sinc(x) = (-1)**n sinc(r) r / x``, ``sinc(r)`` a minimax
    polynomial in ``r**2`` (exact zeros at the non-zero integers); float16/bfloat16 in float32."""
    a = _inexact1("sinc", x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        return _sinc_complex(a)
    orig = a.dtype
    if dtypes.finfo(orig).bits < 32:
        a = lax.convert_element_type(a, np.float32)
    n = stop_gradient(lax.round(a, 1))
    r = where_sel(lax.eq(lax.abs(a), const_of(a, np.inf)), 0, a - n)
    t = r * r
    tq = t * _horner(t, _SINC_Q64 if a.dtype == np.float64 else _SINC_Q32)
    near_zero = 1 + tq
    num = r + r * tq
    odd = 2 * lax.round(0.5 * n, 1) != n
    n_zero = n == 0
    scaled = num / where_sel(odd, -a, where_sel(n_zero, 1, a))
    scaled = where_sel(r == 0, scaled - stop_gradient(scaled), scaled)
    out = where_sel(n_zero, near_zero, scaled)
    return out if out.dtype == orig else lax.convert_element_type(out, orig)


@jitted()
def float_power(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``x1 ** x2`` computed in floating point (integer inputs promote to float)."""
    a, b = inexact_pair("float_power", x1, x2)
    return lax.pow(*bcast_pair(a, b))


@jitted(inline=False)
def fmax(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Elementwise maximum that ignores NaNs (NaN only where both are NaN)."""
    check_arraylike("fmax", x1, x2)
    a, b = (ensure_array(t) for t in promote_dtypes(x1, x2))
    return where_sel(lax.gt(*bcast_pair(a, b)) | isnan(b), a, b)


@jitted(inline=False)
def fmin(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Elementwise minimum that ignores NaNs (NaN only where both are NaN)."""
    check_arraylike("fmin", x1, x2)
    a, b = (ensure_array(t) for t in promote_dtypes(x1, x2))
    return where_sel(lax.lt(*bcast_pair(a, b)) | isnan(b), a, b)


@jitted(static=("deg",), inline=False)
def angle(z: ArrayLike, deg: bool = False) -> Array:
    """The complex argument of ``z`` (radians, or degrees with ``deg=True``)."""
    check_arraylike("angle", z)
    a = ensure_array(z)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        re, im = lax.real(a), lax.imag(a)
    else:
        re = ensure_array(promote_dtypes_inexact(a)[0])
        im = _full_like(re, 0)
    out = lax.atan2(im, re)
    return rad2deg(out) if deg else out


# -- floating-point structure -------------------------------------------------------------


@jitted()
def spacing(x: ArrayLike, /) -> Array:
    """The distance from ``x`` to the next representable number away from zero."""
    a = _inexact1("spacing", x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        raise ValueError("jnp.spacing is not defined for complex inputs.")
    inf = _full_like(a, np.inf)
    if a.dtype == np.float16:
        return lax.sub(lax.nextafter(a, inf), a)
    result = lax.sub(lax.nextafter(a, copysign(inf, a)), a)
    tiny = copysign(_full_like(a, dtypes.finfo(a.dtype).smallest_subnormal), a)
    return lax.select(lax.eq(result, const_of(result, 0)), tiny, result)


@jitted(inline=False)
def frexp(x: ArrayLike, /) -> tuple[Array, Array]:
    """Mantissa in ``[0.5, 1)`` and integer exponent with ``x == m * 2**e``; the mantissa's
    derivative is ``2**-e`` (JAX's rule: the exponent is locally constant)."""
    a = _inexact1("frexp", x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        raise TypeError("frexp does not support complex-valued inputs")
    strong = ensure_array(lax.to_dtype(a, a.dtype, False))
    return _frexp_mantissa(strong), _frexp_parts(strong)[1]


def _make_frexp_mantissa() -> Any:
    from jax_core._src.transforms.custom_derivatives import custom_jvp

    def mantissa(a: Array) -> Array:
        return _frexp_parts(a)[0]

    f = custom_jvp(mantissa)

    def jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
        (a,), (t,) = primals, tangents
        m, e = _frexp_parts(a)
        return m, ldexp(t, lax.neg(e))

    f.defjvp(jvp)
    return f


def _frexp_parts(a: Array) -> tuple[Array, Array]:
    info = dtypes.finfo(a.dtype)
    bits = int(info.bits)
    if bits not in _UINT_FOR_BITS:
        raise NotImplementedError(f"frexp is not implemented for {a.dtype}")
    nmant, nexp = int(info.nmant), int(info.nexp)
    # Subnormals are flushed to zero, as XLA on CPU does (and JAX's frexp).
    tiny = lax.lt(lax.abs(a), const_of(a, float(info.smallest_normal)))
    ut = _UINT_FOR_BITS[bits]
    u = bitcast_convert_type(a, ut)
    exp_mask = np.asarray((1 << nexp) - 1, ut)
    bias = int(info.maxexp) - 1
    raw_exp = lax.bitwise_and(lax.shift_right_logical(u, const_of(u, nmant)), const_of(u, exp_mask))
    keep = ~np.asarray(exp_mask << np.asarray(nmant, ut), ut)
    m_bits = lax.bitwise_or(lax.bitwise_and(u, const_of(u, keep)), const_of(u, np.asarray((bias - 1) << nmant, ut)))
    mant = bitcast_convert_type(m_bits, a.dtype)
    e = lax.sub(lax.convert_element_type(raw_exp, np.int32), const_of(np.int32(0), bias - 1))
    special = ~ufuncs.isfinite(a)
    mant = lax.select(tiny, copysign(_full_like(a, 0), a), mant)
    return lax.select(special, a, mant), lax.select(special | tiny, _full_like(e, 0), e)


_frexp_mantissa: Any = _make_frexp_mantissa()


@jitted(inline=False)
def ldexp(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``x1 * 2**x2`` (``x2`` integer)."""
    check_arraylike("ldexp", x1, x2)
    a, n = ensure_array(x1), ensure_array(x2)
    if dtypes.issubdtype(a.dtype, np.complexfloating) or dtypes.issubdtype(n.dtype, np.inexact):
        raise ValueError(f"ldexp not supported for input types {(a.dtype, n.dtype)}")
    a = ensure_array(promote_dtypes_inexact(a)[0])
    n = lax.convert_element_type(n, np.int32)
    a, n = bcast_pair(a, n)
    info = dtypes.finfo(a.dtype)
    bias = int(info.maxexp) - 1
    # Three exact power-of-two factors, each within the normal exponent range.
    n = lax.max(lax.min(n, const_of(n, 3 * bias)), const_of(n, -3 * bias))
    third = lax.div(n, const_of(n, 3))
    rest = lax.sub(n, lax.mul(third, const_of(n, 2)))
    return lax.mul(lax.mul(lax.mul(a, _exp2_int(third, a.dtype)), _exp2_int(third, a.dtype)), _exp2_int(rest, a.dtype))


def _exp2_int(k: Array, dtype: np.dtype[Any]) -> Array:
    """``2.0**k`` exactly, for integer ``k`` in the normal exponent range (clamped to it)."""
    info = dtypes.finfo(dtype)
    bits = int(info.bits)
    if bits not in _INT_FOR_BITS:
        return lax.exp2(lax.convert_element_type(k, dtype))
    bias = int(info.maxexp) - 1
    k = lax.max(lax.min(k, const_of(k, bias)), const_of(k, 1 - bias))
    it = _INT_FOR_BITS[bits]
    biased = lax.convert_element_type(lax.add(k, const_of(k, bias)), it)
    return bitcast_convert_type(lax.shift_left(biased, const_of(biased, int(info.nmant))), dtype)


@jitted(inline=False)
def nan_to_num(x: ArrayLike, copy: bool = True, nan: ArrayLike = 0.0, posinf: ArrayLike | None = None, neginf: ArrayLike | None = None) -> Array:
    """NaN replaced by ``nan``, infinities by ``posinf``/``neginf`` (default: the dtype's extremes)."""
    check_arraylike("nan_to_num", x)
    a = ensure_array(x)
    if dtypes.issubdtype(a.dtype, np.complexfloating):
        re = nan_to_num(lax.real(a), nan=nan, posinf=posinf, neginf=neginf)
        im = nan_to_num(lax.imag(a), nan=nan, posinf=posinf, neginf=neginf)
        return lax.complex(re, im)
    if not dtypes.issubdtype(a.dtype, np.inexact):
        return a
    info = dtypes.finfo(a.dtype)
    pos = _full_like(a, float(info.max)) if posinf is None else _full_like(a, posinf)
    neg = _full_like(a, float(info.min)) if neginf is None else _full_like(a, neginf)
    out = where_sel(isnan(a), _full_like(a, nan), a)
    out = where_sel(isposinf(a), pos, out)
    return where_sel(isneginf(a), neg, out)


# -- integers -----------------------------------------------------------------------------


def _int_args(name: str, x1: ArrayLike, x2: ArrayLike) -> tuple[Array, Array]:
    check_arraylike(name, x1, x2)
    a, b = (ensure_array(t) for t in promote_dtypes_numeric(x1, x2))
    if not dtypes.issubdtype(a.dtype, np.integer):
        raise ValueError(f"Arguments to jax.numpy.{name} must be integers.")
    return bcast_pair(a, b)


def _gcd(a: Array, b: Array) -> Array:
    a, b = ufuncs.absolute(a), ufuncs.absolute(b)
    zero = const_of(a, 0)
    # Euclid's algorithm needs at most ~1.44 * bits steps (Fibonacci worst case).
    for _ in range(int(1.45 * dtypes.itemsize_bits(a.dtype)) + 2):
        nz = lax.ne(b, zero)
        safe_b = lax.select(nz, b, _full_like(b, 1))
        a, b = lax.select(nz, b, a), lax.select(nz, lax.rem(a, safe_b), b)
    return a


@jitted(inline=False)
def gcd(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Greatest common divisor (of absolute values)."""
    return _gcd(*_int_args("gcd", x1, x2))


@jitted(inline=False)
def lcm(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Least common multiple (of absolute values)."""
    a, b = _int_args("lcm", x1, x2)
    d = _gcd(a, b)
    zero = lax.eq(d, const_of(d, 0))
    safe = lax.select(zero, _full_like(d, 1), d)
    return lax.select(zero, _full_like(d, 0), ufuncs.absolute(lax.mul(a, lax.div(b, safe))))


@jitted(inline=False)
def bitwise_count(x: ArrayLike, /) -> Array:
    """The number of 1 bits in the absolute value of each element (uint8)."""
    check_arraylike("bitwise_count", x)
    a = ensure_array(x)
    if a.dtype == np.bool_:
        return lax.convert_element_type(a, np.uint8)
    return lax.convert_element_type(lax.population_count(ufuncs.absolute(a)), np.uint8)


# -- closeness ----------------------------------------------------------------------------


@jitted(static=("equal_nan",), inline=False)
def isclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-05, atol: ArrayLike = 1e-08, equal_nan: bool = False) -> Array:
    """Whether ``|a - b| <= atol + rtol * |b|`` elementwise (infinities equal only to themselves)."""
    check_arraylike("isclose", a, b)
    x, y = (ensure_array(t) for t in promote_dtypes(a, b))
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return ufuncs.equal(x, y)
    x, y = bcast_pair(x, y)
    real_dt = dtypes.dtype(lax.abs(x))
    rt = lax.convert_element_type(ensure_array(rtol), real_dt)
    at = lax.convert_element_type(ensure_array(atol), real_dt)
    close = ufuncs.less_equal(lax.abs(lax.sub(x, y)), ufuncs.add(at, ufuncs.multiply(rt, lax.abs(y))))
    both_inf = isinf(x) | isinf(y)
    out = where_sel(both_inf, lax.eq(x, y), close & ufuncs.isfinite(x) & ufuncs.isfinite(y))
    if equal_nan:
        out = out | (isnan(x) & isnan(y))
    return out


@jitted(static=("equal_nan",), inline=False)
def allclose(a: ArrayLike, b: ArrayLike, rtol: ArrayLike = 1e-05, atol: ArrayLike = 1e-08, equal_nan: bool = False) -> Array:
    """Whether every element of ``a`` is close to ``b`` (``isclose``), as a scalar bool array."""
    from jax_core._src.numpy.reductions import all as all_

    return all_(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> Array:
    """Whether two arrays have the same shape and elements (a scalar bool array)."""
    from jax_core._src.numpy.reductions import all as all_

    check_arraylike("array_equal", a1, a2)
    x, y = ensure_array(a1), ensure_array(a2)
    if x.shape != y.shape:
        return ensure_array(np.bool_(False))
    eq = ufuncs.equal(x, y)
    if equal_nan:
        eq = eq | (isnan(x) & isnan(y))
    return all_(eq)


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> Array:
    """Whether two arrays are equal after broadcasting (False if they do not broadcast)."""
    from jax_core._src.numpy.reductions import all as all_
    from jax_core._src.numpy.shape import broadcast_shapes

    check_arraylike("array_equiv", a1, a2)
    x, y = ensure_array(a1), ensure_array(a2)
    try:
        broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return ensure_array(np.bool_(False))
    return all_(ufuncs.equal(x, y))


@jitted(inline=False)
def i0(x: ArrayLike, /) -> Array:
    """The modified Bessel function of the first kind, order 0: ``exp(|x|) * bessel_i0e(|x|)``,
    as JAX computes it (derivative ``I1(x)``)."""
    check_arraylike("i0", x)
    (a,) = promote_dtypes_inexact(x)
    if not dtypes.issubdtype(get_aval(a).dtype, np.floating):
        raise ValueError(f"Unsupported input type to jax.numpy.i0: {get_aval(a).dtype}")
    out: Array = _i0(a)
    return out


def _i0_impl(x: Array) -> Array:
    from jax_core._src.lax.special.functions import bessel_i0e

    ax = lax.abs(x)
    return lax.mul(lax.exp(ax), bessel_i0e(ax))


def _i1_value(x: Array) -> Array:
    from jax_core._src.lax.special.functions import bessel_i1e

    return lax.mul(lax.exp(lax.abs(x)), bessel_i1e(x))


def _i0_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (t,) = primals, tangents
    return _i0(x), lax.mul(t, _i1_value(x))


def _make_i0() -> Any:
    from jax_core._src.transforms.custom_derivatives import custom_jvp

    f = custom_jvp(_i0_impl)
    f.defjvp(_i0_jvp)
    return f


_i0: Any = _make_i0()


acos: UnaryFn = ufuncs.arccos
acosh: UnaryFn = ufuncs.arccosh
asin: UnaryFn = ufuncs.arcsin
asinh: UnaryFn = ufuncs.arcsinh
atan: UnaryFn = ufuncs.arctan
atanh: UnaryFn = ufuncs.arctanh
atan2: BinaryFn = ufuncs.arctan2
bitwise_invert: UnaryFn = ufuncs.bitwise_not
bitwise_left_shift: BinaryFn = ufuncs.left_shift
bitwise_right_shift: BinaryFn = ufuncs.right_shift
pow: BinaryFn = ufuncs.power  # noqa: A001
