"""jax_core.scipy.special: special functions composed from lax and jnp ops (differentiable).

Series, continued fractions and asymptotic expansions are unrolled elementwise programs, so every
function here jits, vmaps and differentiates through the rules of the lax primitives it uses.
"""

from __future__ import annotations

import math
import operator
from builtins import max as builtins_max
from collections.abc import Callable, Sequence
from typing import Any, Literal, ParamSpec, TypeVar, overload

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.numpy.util import (
    check_arraylike,
    ensure_array,
    jitted,
    promote_dtypes_inexact,
    promote_shapes,
)
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = [
    "betaln", "digamma", "entr", "erf", "erfc", "erfinv", "expit", "gamma", "gammaln", "i0", "i0e",
    "i1", "i1e", "log_ndtr", "log_softmax", "logit", "logsumexp", "ndtr", "ndtri", "softmax",
    "xlog1py", "xlogy", "gammasgn", "loggamma", "gammainc", "gammaincc", "beta", "betainc",
    "polygamma", "zeta", "multigammaln", "factorial", "comb", "poch", "boxcox", "boxcox1p",
    "erfcinv", "bernoulli",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")

_SQRT2 = math.sqrt(2.0)
_SQRT1_2 = math.sqrt(0.5)
_LOG_SQRT_PI = 0.5 * math.log(math.pi)


def promote_arrays_inexact(name: str, *args: ArrayLike) -> list[Array]:
    """Array-like check and inexact dtype promotion, shapes left as they are (linear algebra)."""
    check_arraylike(name, *args)
    return [ensure_array(a) for a in promote_dtypes_inexact(*args)]


def promote_args_inexact(name: str, *args: ArrayLike) -> list[Array]:
    """JAX's ``promote_args_inexact``: array-like check, inexact dtype promotion, then NumPy rank
    promotion (leading 1s; lax stretches size-1 dimensions)."""
    check_arraylike(name, *args)
    return [ensure_array(a) for a in promote_shapes(name, *promote_dtypes_inexact(*args))]


def lax_const(like: Array, value: float) -> float | complex | np.ndarray[tuple[()], np.dtype[Any]]:
    """``value`` as a constant for operations with ``like`` (JAX's ``lax._const``): a 0-d NumPy
    array of its dtype, or a Python scalar where ``like`` is a weakly typed 0-d array (JAX's lax
    keeps ``weak op strong-0-d-constant`` weak for 0-d operands, jax_core's lax does not)."""
    aval = get_aval(like)
    if aval.weak_type and not aval.shape:
        return complex(value) if dtypes.issubdtype(like.dtype, np.complexfloating) else float(value)
    out: np.ndarray[tuple[()], np.dtype[Any]] = np.asarray(value, like.dtype)
    return out


def _const(x: Array, v: float) -> Array:
    return jnp.full_like(x, v)


def jitted_as(
    name: str, static: Sequence[str] = (), *, static_argnums: Sequence[int] = ()
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """``jitted(inline=False)`` staging one ``jit[name=<name>]`` equation: for functions JAX
    jits under a module-local name (``truncnorm.logpdf`` is ``jit[name=logpdf]``)."""

    def wrap(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        fn.__name__ = fn.__qualname__ = name
        return jitted(static, inline=False, static_argnums=static_argnums)(fn)

    return wrap


# -- logistic family -------------------------------------------------------------------------------


@jitted()
def expit(x: ArrayLike) -> Array:
    """Logistic sigmoid ``1 / (1 + exp(-x))``."""
    (xa,) = promote_args_inexact("expit", x)
    return lax.logistic(xa)


@jitted()
def logit(x: ArrayLike) -> Array:
    """Log-odds ``log(x / (1 - x))``, the inverse of ``expit``."""
    (xa,) = promote_args_inexact("logit", x)
    return lax.log(lax.div(xa, lax.sub(_const(xa, 1.0), xa)))


@overload
def logsumexp(a: ArrayLike, axis: int | Sequence[int] | None = None, b: ArrayLike | None = None, keepdims: bool = False,
              return_sign: Literal[False] = False, where: ArrayLike | None = None) -> Array: ...
@overload
def logsumexp(a: ArrayLike, axis: int | Sequence[int] | None = None, b: ArrayLike | None = None, keepdims: bool = False, *,
              return_sign: Literal[True], where: ArrayLike | None = None) -> tuple[Array, Array]: ...
@overload
def logsumexp(a: ArrayLike, axis: int | Sequence[int] | None = None, b: ArrayLike | None = None, keepdims: bool = False,
              return_sign: bool = False, where: ArrayLike | None = None) -> Array | tuple[Array, Array]: ...
def logsumexp(a: ArrayLike, axis: int | Sequence[int] | None = None, b: ArrayLike | None = None, keepdims: bool = False,
              return_sign: bool = False, where: ArrayLike | None = None) -> Array | tuple[Array, Array]:
    """``log(sum(b * exp(a), axis))`` computed stably (shifting by the maximum, as JAX does).

    With ``return_sign=True`` returns ``(log|s|, sign(s))``; otherwise a negative sum gives NaN.
    """
    if where is not None:  # masked-out elements never reach exp (nor their gradients)
        a = jnp.where(where, a, 0)
    if b is not None:
        a_arr, b_arr = promote_args_inexact("logsumexp", a, b)
        a_arr = jnp.where(b_arr != 0, a_arr, -np.inf)
    else:
        (a_arr,) = promote_args_inexact("logsumexp", a)
        b_arr = a_arr
    ax: int | tuple[int, ...] | None = tuple(operator.index(d) for d in axis) if isinstance(axis, Sequence) else axis
    listed: tuple[int, ...] = tuple(range(a_arr.ndim)) if ax is None else (ax,) if isinstance(ax, int) else ax
    dims = tuple(operator.index(d) % builtins_max(a_arr.ndim, 1) for d in listed)
    amax = jnp.max(jnp.real(a_arr), axis=ax, keepdims=keepdims, where=where, initial=-np.inf)
    amax = lax.stop_gradient(lax.select(jnp.isfinite(amax), amax, lax.full_like(amax, 0)))
    amax_with_dims = amax if keepdims else lax.expand_dims(amax, sorted(dims))
    exp_a = lax.exp(lax.sub(a_arr, amax_with_dims.astype(a_arr.dtype)))
    if b is not None:
        exp_a = lax.mul(exp_a, b_arr)
    sumexp = jnp.sum(exp_a, axis=ax, keepdims=keepdims, where=where)
    sign = lax.sign(sumexp)
    if return_sign or not dtypes.issubdtype(a_arr.dtype, np.complexfloating):
        sumexp = jnp.abs(sumexp)
    out = lax.add(lax.log(sumexp), amax.astype(sumexp.dtype))
    if return_sign:
        return out, sign
    if b is not None and not dtypes.issubdtype(out.dtype, np.complexfloating):
        out = jnp.where(sign < 0, jnp.array(np.nan, dtype=out.dtype), out)
    return out


def softmax(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``exp(x) / sum(exp(x), axis)``, shifted by the maximum for stability."""
    (xa,) = promote_args_inexact("softmax", x)
    unnorm = jnp.exp(xa - lax.stop_gradient(jnp.max(xa, axis=axis, keepdims=True, initial=-np.inf)))
    return unnorm / jnp.sum(unnorm, axis=axis, keepdims=True)


def log_softmax(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``x - logsumexp(x, axis, keepdims=True)`` (one ``jit[name=log_softmax]``, as JAX's)."""
    out: Array = _log_softmax(x, axis=axis)
    return out


def _log_softmax_impl(x: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Array:
    (xa,) = promote_args_inexact("log_softmax", x)
    shifted = xa - lax.stop_gradient(jnp.max(xa, axis=axis, keepdims=True, initial=-np.inf))
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=axis, keepdims=True))


_log_softmax_impl.__name__ = _log_softmax_impl.__qualname__ = "log_softmax"
_log_softmax = jitted(static=("axis",), inline=False)(_log_softmax_impl)


# -- x log y ---------------------------------------------------------------------------------------


@custom_jvp
def _xlogy(x: Array, y: Array) -> Array:
    # 0 where x == 0 (even at y == 0), but a NaN y propagates (as SciPy and JAX)
    return jnp.where((x != 0.0) | jnp.isnan(y), lax.mul(x, lax.log(y)), jnp.zeros_like(x))


@_xlogy.defjvp
def _xlogy_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    x, y = primals
    x_dot, y_dot = tangents
    result = _xlogy(x, y)
    return result, (x_dot * lax.log(y) + y_dot * x / y).astype(result.dtype)


@custom_jvp
def _xlogx(x: Array) -> Array:
    return _xlogy(x, x)


@_xlogx.defjvp
def _xlogx_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (x_dot,) = primals, tangents
    # log x + 1 (-inf at 0, where xlogy's rule would give log 0 + 0 / 0)
    return _xlogx(x), x_dot * (lax.log(x) + 1)


@jitted()
def xlogy(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log(y)``, defined as 0 where ``x == 0`` (even for ``y == 0``)."""
    xa, ya = promote_args_inexact("xlogy", x, y)
    return _xlogy(xa, ya)


@custom_jvp
def _xlog1py(x: Array, y: Array) -> Array:
    return jnp.where((x != 0.0) | jnp.isnan(y), lax.mul(x, lax.log1p(y)), jnp.zeros_like(x))


@_xlog1py.defjvp
def _xlog1py_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    x, y = primals
    x_dot, y_dot = tangents
    result = _xlog1py(x, y)
    return result, (x_dot * lax.log1p(y) + y_dot * x / (1 + y)).astype(result.dtype)


@jitted()
def xlog1py(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log1p(y)``, defined as 0 where ``x == 0``."""
    xa, ya = promote_args_inexact("xlog1py", x, y)
    return _xlog1py(xa, ya)


@jitted()
def entr(x: ArrayLike) -> Array:
    """Elementwise entropy ``-x log x`` (0 at 0, ``-inf`` for negative ``x``)."""
    (xa,) = promote_args_inexact("entr", x)
    _no_complex("entr", xa)
    return lax.select(lax.lt(xa, lax_const(xa, 0)), lax.full_like(xa, -np.inf), lax.neg(_xlogx(xa)))


# -- error function and normal distribution --------------------------------------------------------


def erf(x: ArrayLike) -> Array:
    """Error function."""
    (xa,) = promote_args_inexact("erf", x)
    return lax.erf(xa)


def erfinv(x: ArrayLike) -> Array:
    """Inverse error function."""
    (xa,) = promote_args_inexact("erfinv", x)
    return lax.erf_inv(xa)


def erfc(x: ArrayLike) -> Array:
    """Complementary error function ``1 - erf(x)`` (``lax.erfc``, as JAX's)."""
    (xa,) = promote_args_inexact("erfc", x)
    return lax.erfc(xa)


def _float32_or_64(x: ArrayLike, name: str = "x") -> None:
    """JAX's ``ndtr``/``ndtri``/``log_ndtr`` take float32 and float64 only."""
    dtype = jnp.asarray(x).dtype
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"{name}.dtype={dtype} is not supported, see docstring for supported types.")


def _ndtr(x: Array) -> Array:
    """The normal CDF from ``erf`` near 0 and ``erfc`` in the tails (the TF-Probability method
    JAX uses), constants in ``x``'s dtype."""
    dt = x.dtype
    half_sqrt_2 = np.asarray(np.asarray(0.5, dt) * np.sqrt(np.asarray(2.0, dt)), dt)
    w = lax.mul(x, half_sqrt_2)
    z = lax.abs(w)
    erfc_z = lax.erfc(z)
    tails = lax.select(lax.gt(w, lax.full_like(w, 0)), lax.sub(lax.full_like(z, 2), erfc_z), erfc_z)
    y = lax.select(lax.lt(z, lax.full_like(z, half_sqrt_2)), lax.add(lax.full_like(w, 1), lax.erf(w)), tails)
    return lax.mul(y, np.asarray(0.5, dt))


@jitted()
def ndtr(x: ArrayLike) -> Array:
    """Standard normal CDF."""
    _float32_or_64(x)
    (xa,) = promote_args_inexact("ndtr", x)
    return _ndtr(xa)


# Where log(ndtr) switches to the asymptotic series below and to -ndtr(-x) above, per dtype.
_LOG_NDTR_SEGMENTS = {np.dtype(np.float32): (-10.0, 5.0), np.dtype(np.float64): (-20.0, 8.0)}


def _log_ndtr_lower(x: Array, series_order: int) -> Array:
    """``log(ndtr(x))`` for ``x << -1``: ``-x**2/2 - log(-x) - log(2 pi)/2`` plus the log of the
    asymptotic series ``1 + sum_n (-1)**n (2n-1)!! / x**(2n)``."""
    dt = x.dtype
    x2 = lax.square(x)
    log_scale = lax.sub(lax.sub(lax.mul(np.asarray(-0.5, dt), x2), lax.log(lax.neg(x))), np.asarray(0.5 * np.log(2.0 * np.pi), dt))
    if series_order <= 0:
        return log_scale
    even = lax.full_like(x, 0)
    odd = lax.full_like(x, 0)
    x2n = x2
    double_factorial = 1
    for n in range(1, series_order + 1):
        double_factorial *= 2 * n - 1
        term = lax.div(np.asarray(double_factorial, dt), x2n)
        if n % 2:
            odd = lax.add(odd, term)
        else:
            even = lax.add(even, term)
        x2n = lax.mul(x2n, x2)
    series = lax.sub(lax.add(lax.full_like(x, 1), even), odd)
    return lax.add(log_scale, lax.log(series))


def _log_ndtr(x: ArrayLike, series_order: int = 3) -> Array:
    if not isinstance(series_order, int):  # pyright: ignore[reportUnnecessaryIsInstance]  (untyped callers)
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    xa = jnp.asarray(x)
    if xa.dtype not in _LOG_NDTR_SEGMENTS:
        raise TypeError(f"x.dtype={xa.dtype} is not supported.")
    lo, hi = (np.asarray(v, xa.dtype) for v in _LOG_NDTR_SEGMENTS[xa.dtype])
    above = lax.gt(xa, lax.full_like(xa, hi))
    ndtr_res = _ndtr(jnp.where(above, lax.neg(xa), lax.max(xa, lax.full_like(xa, lo))))
    inner = jnp.where(lax.gt(xa, lax.full_like(xa, lo)), lax.log(ndtr_res), _log_ndtr_lower(lax.min(xa, lax.full_like(xa, lo)), series_order))
    return jnp.where(above, lax.neg(ndtr_res), inner)  # log(1 - t) ~ -t for tiny t


def _log_ndtr_jvp(series_order: int, primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Array, Array]:
    (x,), (t,) = primals, tangents
    ans = log_ndtr(x, series_order=series_order)
    xa = jnp.asarray(x)
    norm_logpdf = lax.sub(lax.mul(np.asarray(-0.5, xa.dtype), lax.square(xa)), np.asarray(0.5 * np.log(2 * np.pi), xa.dtype))
    return ans, lax.mul(t, lax.exp(lax.sub(norm_logpdf, ans)))


_log_ndtr_custom: Any = custom_jvp(_log_ndtr, nondiff_argnums=(1,))
_log_ndtr_custom.defjvp(_log_ndtr_jvp)


def log_ndtr(x: ArrayLike, series_order: int = 3) -> Array:
    """Log of the standard normal CDF, accurate far into both tails: ``log(ndtr(x))`` between
    the dtype's segment bounds, an asymptotic series of ``series_order`` terms below, and
    ``-ndtr(-x)`` above (as JAX's); its derivative is ``exp(log_pdf(x) - log_ndtr(x))``."""
    out: Array = _log_ndtr_custom(x, series_order)
    return out


@jitted()  # inline: eager calls are one executable, traces see the operations
def ndtri(p: ArrayLike) -> Array:
    """Inverse of the standard normal CDF (``erfinv`` start, Newton steps on ``log_ndtr``)."""
    _float32_or_64(p)
    (pa,) = promote_args_inexact("ndtri", p)
    flip = pa > 0.5
    q = jnp.where(flip, 1 - pa, pa)  # in (0, 0.5]
    qs = jnp.clip(q, jnp.finfo(pa.dtype).tiny, 0.5)
    lq = jnp.log(qs)
    # start: erfinv in the body, the tail asymptote below 1e-3
    body = _SQRT2 * lax.erf_inv(2 * qs - 1)
    t = jnp.sqrt(-2 * lq)
    tail = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3))
    x = jnp.where(qs < 1e-3, tail, body)
    for _ in range(3):
        lnd = log_ndtr(x)
        logpdf = -0.5 * x * x - 0.5 * math.log(2 * math.pi)
        x = x - (lnd - lq) / jnp.exp(logpdf - lnd)
    x = jnp.where(flip, -x, x)
    x = jnp.where(pa == 0, -np.inf, jnp.where(pa == 1, np.inf, x))
    return jnp.where((pa < 0) | (pa > 1), np.nan, x)


# -- gamma family ----------------------------------------------------------------------------------


@jitted()
def gammaln(x: ArrayLike) -> Array:
    """Log of the absolute value of the gamma function."""
    (xa,) = promote_args_inexact("gammaln", x)
    return lax.lgamma(xa)


@jitted()
def loggamma(x: ArrayLike) -> Array:
    """``log(gamma(x))`` for real ``x`` (as ``gammaln``; NaN where gamma is negative)."""
    (xa,) = promote_args_inexact("loggamma", x)
    return jnp.where(xa > 0, lax.lgamma(xa), np.nan)


@jitted()
def digamma(x: ArrayLike) -> Array:
    """Logarithmic derivative of the gamma function."""
    (xa,) = promote_args_inexact("digamma", x)
    return lax.digamma(xa)


@jitted(inline=False)
def gammasgn(x: ArrayLike) -> Array:
    """Sign of the gamma function: NaN at the negative integers (and -inf, NaN), -1 at -0.0."""
    (xa,) = promote_args_inexact("gammasgn", x)
    if jnp.iscomplexobj(xa):
        raise ValueError("gammasgn does not support complex-valued inputs.")
    floor_x = jnp.floor(xa)
    neg = xa < 0
    pole = (neg & (xa == floor_x)) | jnp.isnan(xa)
    minus = (neg & (jnp.remainder(floor_x, 2) != 0)) | ((xa == 0) & jnp.signbit(xa))
    return jnp.where(pole, np.nan, jnp.where(minus, -1.0, 1.0)).astype(xa.dtype)


@jitted()
def gamma(x: ArrayLike) -> Array:
    """The gamma function, ``gammasgn(x) * exp(gammaln(x))``."""
    (xa,) = promote_args_inexact("gamma", x)
    return gammasgn(xa) * lax.exp(lax.lgamma(xa))


def _algdiv(a: Array, b: Array) -> Array:
    """``lgamma(b) - lgamma(a + b)`` for ``b >= 8`` (the TOMS 708 ``algdiv`` series JAX uses)."""
    c0, c1, c2 = 0.0833333333333333, -0.00277777777760991, 0.00079365066682539
    c3, c4, c5 = -0.00059520293135187, 0.000837308034031215, -0.00165322962780713
    h = a / b
    c = h / (1 + h)
    x = h / (1 + h)
    d = b + (a - 0.5)
    x2 = x * x
    s3 = 1.0 + (x + x2)
    s5 = 1.0 + (x + x2 * s3)
    s7 = 1.0 + (x + x2 * s5)
    s9 = 1.0 + (x + x2 * s7)
    s11 = 1.0 + (x + x2 * s9)
    t = (1.0 / b) ** 2
    w = ((((c5 * s11 * t + c4 * s9) * t + c3 * s7) * t + c2 * s5) * t + c1 * s3) * t + c0
    w = w * (c / b)
    u = d * lax.log1p(a / b)
    v = a * (lax.log(b) - 1.0)
    return jnp.where(u <= v, w - v - u, w - u - v)


def betaln(a: ArrayLike, b: ArrayLike) -> Array:
    """Log of the absolute value of the beta function: lgamma sums below ``max(a, b) = 8``, the
    ``algdiv`` series above (no cancellation between large lgammas), as JAX's."""
    aa, ba = promote_args_inexact("betaln", a, b)
    lo = jnp.where(aa <= ba, aa, ba)
    hi = jnp.where(aa <= ba, ba, aa)
    small_b = lax.lgamma(lo) + (lax.lgamma(hi) - lax.lgamma(lo + hi))
    large_b = lax.lgamma(lo) + _algdiv(lo, hi)
    return jnp.where(hi < 8, small_b, large_b)


# -- modified Bessel functions (on lax.bessel_i0e / lax.bessel_i1e) ---------------------------------


def _check_real(name: str, x: Array) -> None:
    if not dtypes.issubdtype(x.dtype, np.floating):
        raise ValueError(f"Unsupported input type to jax.scipy.special.{name}: {x.dtype}")


@jitted()
def i0e(x: ArrayLike) -> Array:
    """Exponentially scaled modified Bessel function of order 0, ``exp(-|x|) I0(x)``."""
    (xa,) = promote_args_inexact("i0e", x)
    return lax.bessel_i0e(xa)


@jitted()
def i1e(x: ArrayLike) -> Array:
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    (xa,) = promote_args_inexact("i1e", x)
    return lax.bessel_i1e(xa)


def _i1_plain(x: Array) -> Array:
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i1e(x))


def _i1_maclaurin_fn(k: int, x: Array) -> Array:
    """The ``k``-th derivative of ``I1`` near 0 by its two-term Maclaurin series (JAX's)."""
    if k % 2 == 0:
        return lax.mul(_const(x, math.comb(k + 1, (k + 1) // 2) / 2 ** (k + 1)), x)
    return _const(x, math.comb(k, k // 2) / 2**k)


_i1_maclaurin = custom_jvp(_i1_maclaurin_fn, nondiff_argnums=(0,))


@_i1_maclaurin.defjvp
def _i1_maclaurin_jvp(k: int, primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (t,) = (jnp.asarray(primals[0]),), tangents
    return _i1_maclaurin(k, x), lax.mul(_i1_maclaurin(k + 1, x), t)


@custom_jvp
def _i1(x: Array) -> Array:
    return _i1_plain(x)


@_i1.defjvp
def _i1_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    # Near 0 the product rule through exp(|x|) cancels badly; JAX switches to the series there.
    from jax_core._src.transforms.ad_api import jvp

    (x,), (t,) = (jnp.asarray(primals[0]),), tangents
    out, t_out = jvp(_i1_plain, (x,), tangents)
    assert isinstance(out, Array) and isinstance(t_out, Array)
    near_zero = lax.abs(x) <= math.sqrt(float(dtypes.finfo(x.dtype).eps))
    return out, jnp.where(near_zero, lax.mul(_i1_maclaurin(1, x), t), t_out)


@custom_jvp
def _i0(x: Array) -> Array:
    ax = lax.abs(x)
    return lax.mul(lax.exp(ax), lax.bessel_i0e(ax))


@_i0.defjvp
def _i0_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (t,) = primals, tangents
    return _i0(x), lax.mul(t, _i1(x))


@jitted()
def i0(x: ArrayLike) -> Array:
    """Modified Bessel function of order 0."""
    (xa,) = promote_args_inexact("i0", x)
    _check_real("i0", xa)
    return _i0(xa)


@jitted()
def i1(x: ArrayLike) -> Array:
    """Modified Bessel function of order 1."""
    (xa,) = promote_args_inexact("i1", x)
    _check_real("i1", xa)
    return _i1(xa)


# -- incomplete gamma and beta (on lax.igamma / lax.igammac / lax.betainc) --------------------------


def _broadcast_args(name: str, *args: ArrayLike) -> list[Array]:
    return [ensure_array(a) for a in jnp.broadcast_arrays(*promote_args_inexact(name, *args))]


@jitted()
def gammainc(a: ArrayLike, x: ArrayLike) -> Array:
    """Regularized lower incomplete gamma function ``P(a, x)`` (``lax.igamma``)."""
    aa, xa = _broadcast_args("gammainc", a, x)
    return lax.igamma(aa, xa)


@jitted()
def gammaincc(a: ArrayLike, x: ArrayLike) -> Array:
    """Regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)`` (``lax.igammac``)."""
    aa, xa = _broadcast_args("gammaincc", a, x)
    return lax.igammac(aa, xa)


def _no_complex(name: str, x: Array, what: str | None = None) -> None:
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        raise ValueError(f"{what or name} does not support complex-valued inputs.")


@jitted()
def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """Regularized incomplete beta function ``I_x(a, b)`` (``lax.betainc``; differentiable in x)."""
    aa, ba, xa = _broadcast_args("betainc", a, b, x)
    _no_complex("betainc", xa)
    return lax.betainc(aa, ba, xa)


@jitted()
def beta(a: ArrayLike, b: ArrayLike) -> Array:
    """The beta function ``Gamma(a) Gamma(b) / Gamma(a + b)``."""
    aa, ba = promote_args_inexact("beta", a, b)
    _no_complex("beta", aa)
    sign = gammasgn(aa) * gammasgn(ba) * gammasgn(aa + ba)
    return sign * lax.exp(betaln(aa, ba))


def multigammaln(a: ArrayLike, d: ArrayLike) -> Array:
    """Log of the multivariate gamma function of dimension ``d`` (a concrete integer)."""
    if isinstance(d, Tracer):
        d.concretization_error("d argument of multigammaln")
    di = int(d)  # type: ignore[arg-type]
    aa, da = promote_args_inexact("multigammaln", a, di)
    constant = 0.25 * da * (da - 1) * math.log(math.pi)
    b = jnp.arange(di, dtype=da.dtype) / 2
    res = jnp.sum(lax.lgamma(jnp.expand_dims(aa, -1) - jnp.expand_dims(b, tuple(range(aa.ndim)))), axis=-1)
    return res + constant


def factorial(n: ArrayLike, exact: bool = False) -> Array:
    """``n!`` as ``gamma(n + 1)`` (0 for negative ``n``); ``exact=True`` is not implemented."""
    if exact:
        raise NotImplementedError("factorial with exact=True")
    (na,) = promote_args_inexact("factorial", n)
    return jnp.where(na < 0, jnp.zeros_like(na), lax.exp(lax.lgamma(na + 1)))


def comb(N: ArrayLike, k: ArrayLike, *, repetition: bool = False) -> Array:
    """The number of combinations of ``N`` things taken ``k`` at a time (as floats)."""
    Na, ka = promote_args_inexact("comb", N, k)
    if repetition:
        return jnp.where((ka == 0) & (Na >= 0), jnp.ones_like(Na + ka), comb(Na + ka - 1, ka))
    ok = (ka <= Na) & (Na >= 0) & (ka >= 0)
    sn = jnp.where(ok, Na, 0.0)
    sk = jnp.where(ok, ka, 0.0)
    out = lax.exp(lax.lgamma(sn + 1) - lax.lgamma(sk + 1) - lax.lgamma(sn + 1 - sk))
    return jnp.where(ok, out, jnp.zeros_like(out))


@custom_jvp
def _poch(z: Array, m: Array) -> Array:
    return jnp.where(m == 0.0, jnp.ones_like(z + m), gamma(z + m) / gamma(z))


def _poch_dz(z_dot: Array, ans: Array, z: Array, m: Array) -> Array:
    return (lax.digamma(z + m) - lax.digamma(z)) * ans * z_dot


def _poch_dm(m_dot: Array, ans: Array, z: Array, m: Array) -> Array:
    return lax.digamma(z + m) * ans * m_dot


_poch.defjvps(_poch_dz, _poch_dm)


@jitted()
def poch(z: ArrayLike, m: ArrayLike) -> Array:
    """Pochhammer's rising factorial ``gamma(z + m) / gamma(z)``."""
    za, ma = promote_args_inexact("poch", z, m)
    _no_complex("poch", za, "jnp.poch")
    return _poch(za, ma)


def _boxcox(name: str, log: Callable[[Array], Array], x: ArrayLike, lmbda: ArrayLike) -> Array:
    xa, la = promote_args_inexact(name, x, lmbda)
    is_zero = la == 0
    safe = jnp.where(is_zero, jnp.ones_like(la), la)
    log_x = log(xa)
    return jnp.where(is_zero, log_x, jnp.expm1(safe * log_x) / safe)


@jitted()
def boxcox(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """The Box-Cox transform ``(x**lmbda - 1) / lmbda`` (``log(x)`` at ``lmbda == 0``)."""
    return _boxcox("boxcox", jnp.log, x, lmbda)


@jitted()
def boxcox1p(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """The Box-Cox transform of ``1 + x``."""
    return _boxcox("boxcox1p", jnp.log1p, x, lmbda)


@jitted()
def erfcinv(y: ArrayLike) -> Array:
    """Inverse of ``erfc`` on ``(0, 2)``: ``-ndtri(y / 2) / sqrt(2)``."""
    (ya,) = promote_args_inexact("erfcinv", y)
    _no_complex("erfcinv", ya)
    return -ndtri(0.5 * ya) * _SQRT1_2


def bernoulli(n: int) -> Array:
    """The first ``n + 1`` Bernoulli numbers ``B_0 .. B_n`` (``B_1 = -1/2``; Chowla and Hartung)."""
    if isinstance(n, Tracer):
        n.concretization_error("Argument n of bernoulli")
    n = operator.index(n)
    if n < 0:
        raise ValueError("n must be a non-negative integer.")
    b3 = jnp.array([1, -1 / 2, 1 / 6])
    if n < 3:
        return b3[: n + 1]
    bn = jnp.zeros(n + 1).at[:3].set(b3)
    m = jnp.arange(4, n + 1, 2, dtype=bn.dtype)
    q1 = (1.0 / np.pi**2) * jnp.cumprod(-(m - 1) * m / 4 / np.pi**2)
    k = jnp.arange(2, 50, dtype=bn.dtype)
    q2 = jnp.sum(k[:, None] ** -m[None, :], axis=0)
    return bn.at[4::2].set(q1 * (1 + q2))


# -- polygamma and Hurwitz zeta --------------------------------------------------------------------


def polygamma(n: ArrayLike, x: ArrayLike) -> Array:
    """The polygamma function ``psi^(n)(x)`` for integer ``n`` (``lax.polygamma``)."""
    n_dtype = dtypes.dtype(n, canonicalize=True)
    if not dtypes.issubdtype(n_dtype, np.integer):
        raise ValueError(f"Argument `n` to polygamma must be of integer type. Got dtype {n_dtype}.")
    na, xa = _broadcast_args("polygamma", n, x)
    _no_complex("polygamma", xa)
    return lax.polygamma(na, xa)


# 1 / B_{2j} * (2j)! for the Euler-Maclaurin tail of the Hurwitz zeta series (JAX's table).
_BERNOULLI_COEFS = np.array([
    12, -720, 30240, -1209600, 47900160, -1307674368000 / 691, 74724249600,
    -10670622842880000 / 3617, 5109094217170944000 / 43867, -802857662698291200000 / 174611,
    14101100039391805440000 / 77683, -1693824136731743669452800000 / 236364091,
    186134520519971831808000000 / 657931, -37893265687455865519472640000000 / 3392780147,
    759790291646040068357842010112000000 / 1723168255201,
    -134196726836183700385281186201600000000 / 7709321041217,
])


def _zeta_series(s: Array, a: Array) -> Array:
    """Hurwitz zeta by Euler-Maclaurin summation (Johansson 2015, formula 5), differentiable in
    both arguments: the jvp of ``zeta`` differentiates this series, as JAX does."""
    n = 8 if a.dtype == np.float32 else 16
    s_, a_ = jnp.expand_dims(s, -1), jnp.expand_dims(a, -1)
    k = jnp.expand_dims(jnp.arange(n, dtype=a.dtype), tuple(range(a.ndim)))
    head = jnp.sum((a_ + k) ** -s_, -1)
    integral = lax.div((a + n) ** (1 - s), s - 1)
    t0 = (a + n) ** -s
    m = jnp.expand_dims(jnp.arange(2 * n, dtype=a.dtype), tuple(range(s.ndim)))
    t1 = jnp.cumprod((s_ + m) / (a_ + n), -1)[..., ::2]
    t1 = jnp.clip(t1, max=float(dtypes.finfo(a.dtype).max))
    coefs = np.expand_dims(_BERNOULLI_COEFS[: t1.shape[-1]].astype(a.dtype), tuple(range(a.ndim)))
    tail = t0 * (0.5 + jnp.sum(t1 / coefs, -1))
    return head + integral + tail


@custom_jvp
def _zeta(x: Array, q: Array) -> Array:
    return lax.zeta(x, q)


@_zeta.defjvp
def _zeta_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    from jax_core._src.transforms.ad_api import jvp

    x, q = jnp.asarray(primals[0]), jnp.asarray(primals[1])
    out = _zeta(x, q)
    _, t_out = jvp(_zeta_series, (x, q), tangents)
    # NaN outside the domain (a multiplicative mask keeps the rule linear in the tangent).
    return out, t_out * jnp.where(jnp.isnan(out), np.nan, 1.0).astype(out.dtype)


@jitted()
def zeta(x: ArrayLike, q: ArrayLike | None = None) -> Array:
    """The Hurwitz zeta function ``sum_n (n + q)^-x``; ``q=None`` (Riemann zeta) is not implemented."""
    if q is None:
        raise NotImplementedError(
            "Riemann zeta function not implemented; pass q != None to compute the Hurwitz Zeta function.")
    xa, qa = _broadcast_args("zeta", x, q)
    return _zeta(xa, qa)
