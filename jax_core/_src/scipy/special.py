"""jax_core.scipy.special: special functions composed from lax and jnp ops (differentiable).

Series, continued fractions and asymptotic expansions are unrolled elementwise programs, so every
function here jits, vmaps and differentiates through the rules of the lax primitives it uses.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.basearray import Array
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_dtypes_inexact
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core import lax
import jax_core.numpy as jnp

__all__ = [
    "betaln", "digamma", "entr", "erf", "erfc", "erfinv", "expit", "gamma", "gammaln", "i0", "i0e",
    "i1", "i1e", "log_ndtr", "log_softmax", "logit", "logsumexp", "ndtr", "ndtri", "softmax",
    "xlog1py", "xlogy", "gammasgn", "loggamma", "gammainc", "gammaincc",
]

_SQRT2 = math.sqrt(2.0)
_SQRT1_2 = math.sqrt(0.5)
_LOG_SQRT_PI = 0.5 * math.log(math.pi)


def promote_args_inexact(name: str, *args: ArrayLike) -> list[Array]:
    check_arraylike(name, *args)
    return [ensure_array(a) for a in promote_dtypes_inexact(*args)]


def _const(x: Array, v: float) -> Array:
    return jnp.full_like(x, v)


# -- logistic family -------------------------------------------------------------------------------


def expit(x: ArrayLike) -> Array:
    """Logistic sigmoid ``1 / (1 + exp(-x))``."""
    (xa,) = promote_args_inexact("expit", x)
    return lax.logistic(xa)


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
    if b is not None:
        a_arr, b_arr = promote_args_inexact("logsumexp", a, b)
        a_arr = jnp.where(b_arr != 0, a_arr, -np.inf)
    else:
        (a_arr,) = promote_args_inexact("logsumexp", a)
        b_arr = a_arr
    ax: Any = tuple(axis) if isinstance(axis, Sequence) else axis
    a_real = jnp.real(a_arr)
    amax = jnp.max(a_real, axis=ax, keepdims=True, where=where, initial=-np.inf)
    amax = lax.stop_gradient(jnp.where(jnp.isfinite(amax), amax, jnp.zeros_like(amax)))
    exp_a = lax.exp(lax.sub(a_arr, amax.astype(a_arr.dtype)))
    if b is not None:
        exp_a = lax.mul(exp_a, b_arr)
    sumexp = jnp.sum(exp_a, axis=ax, keepdims=keepdims, where=where)
    sign = jnp.sign(sumexp)
    if return_sign or not dtypes.issubdtype(a_arr.dtype, np.complexfloating):
        sumexp = jnp.abs(sumexp)
    amax_out = amax if keepdims else jnp.squeeze(amax, axis=ax if ax is not None else tuple(range(amax.ndim)))
    out = lax.add(lax.log(sumexp), amax_out.astype(sumexp.dtype))
    if return_sign:
        return out, sign
    if b is not None and not dtypes.issubdtype(out.dtype, np.complexfloating):
        out = jnp.where(sign < 0, jnp.array(np.nan, dtype=out.dtype), out)
    return out


def softmax(x: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Array:
    """``exp(x) / sum(exp(x), axis)``, shifted by the maximum for stability."""
    (xa,) = promote_args_inexact("softmax", x)
    unnorm = jnp.exp(xa - lax.stop_gradient(jnp.max(xa, axis=axis, keepdims=True)))
    return unnorm / jnp.sum(unnorm, axis=axis, keepdims=True)


def log_softmax(x: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Array:
    """``x - logsumexp(x, axis, keepdims=True)``."""
    (xa,) = promote_args_inexact("log_softmax", x)
    shifted = xa - lax.stop_gradient(jnp.max(xa, axis=axis, keepdims=True))
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=axis, keepdims=True))


# -- x log y ---------------------------------------------------------------------------------------


@custom_jvp
def _xlogy(x: Array, y: Array) -> Array:
    x_ok = x != 0
    safe_x = jnp.where(x_ok, x, 1)
    safe_y = jnp.where(x_ok, y, 1)
    return jnp.where(x_ok, lax.mul(safe_x, lax.log(safe_y)), jnp.zeros_like(x))


@_xlogy.defjvp
def _xlogy_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    x, y = primals
    x_dot, y_dot = tangents
    result = _xlogy(x, y)
    return result, (x_dot * lax.log(y) + y_dot * x / y).astype(result.dtype)


def xlogy(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log(y)``, defined as 0 where ``x == 0`` (even for ``y == 0``)."""
    xa, ya = promote_args_inexact("xlogy", x, y)
    return _xlogy(xa, ya)


@custom_jvp
def _xlog1py(x: Array, y: Array) -> Array:
    x_ok = x != 0
    safe_x = jnp.where(x_ok, x, 1)
    safe_y = jnp.where(x_ok, y, 1)
    return jnp.where(x_ok, lax.mul(safe_x, lax.log1p(safe_y)), jnp.zeros_like(x))


@_xlog1py.defjvp
def _xlog1py_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    x, y = primals
    x_dot, y_dot = tangents
    result = _xlog1py(x, y)
    return result, (x_dot * lax.log1p(y) + y_dot * x / (1 + y)).astype(result.dtype)


def xlog1py(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log1p(y)``, defined as 0 where ``x == 0``."""
    xa, ya = promote_args_inexact("xlog1py", x, y)
    return _xlog1py(xa, ya)


def entr(x: ArrayLike) -> Array:
    """Elementwise entropy ``-x log x`` (0 at 0, ``-inf`` for negative ``x``)."""
    (xa,) = promote_args_inexact("entr", x)
    return jnp.where(xa < 0, jnp.full_like(xa, -np.inf), lax.neg(_xlogy(xa, xa)))


# -- error function and normal distribution --------------------------------------------------------


def erf(x: ArrayLike) -> Array:
    """Error function."""
    (xa,) = promote_args_inexact("erf", x)
    return lax.erf(xa)


def erfinv(x: ArrayLike) -> Array:
    """Inverse error function."""
    (xa,) = promote_args_inexact("erfinv", x)
    return lax.erf_inv(xa)


def _erfc_cf(z: Array) -> Array:
    """``sqrt(pi) * exp(z**2) * erfc(z)`` for ``z >= 1`` by its continued fraction (40 terms)."""
    t = z
    for n in range(40, 0, -1):
        t = z + (0.5 * n) / t
    return 1.0 / t


def erfc(x: ArrayLike) -> Array:
    """Complementary error function ``1 - erf(x)``, accurate in the tail (continued fraction)."""
    (xa,) = promote_args_inexact("erfc", x)
    z = jnp.abs(xa)
    big = z >= 1
    zs = jnp.where(big, z, jnp.ones_like(z))
    tail = jnp.exp(-zs * zs) * _erfc_cf(zs) / math.sqrt(math.pi)
    pos = jnp.where(big, tail, 1 - lax.erf(z))
    return jnp.where(xa < 0, 2 - pos, pos)


def ndtr(x: ArrayLike) -> Array:
    """Standard normal CDF."""
    (xa,) = promote_args_inexact("ndtr", x)
    return 0.5 * erfc(-xa * _SQRT1_2)


def log_ndtr(x: ArrayLike) -> Array:
    """Log of the standard normal CDF, accurate far into the lower tail."""
    (xa,) = promote_args_inexact("log_ndtr", x)
    lower = xa < -1
    z = jnp.where(lower, -xa * _SQRT1_2, jnp.ones_like(xa))
    log_tail = -z * z + jnp.log(_erfc_cf(z)) - _LOG_SQRT_PI - math.log(2.0)
    xs = jnp.where(lower, jnp.zeros_like(xa), xa)
    upper = jnp.log1p(-ndtr(-xs))
    return jnp.where(lower, log_tail, upper)


def ndtri(p: ArrayLike) -> Array:
    """Inverse of the standard normal CDF (``erfinv`` start, Newton steps on ``log_ndtr``)."""
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


def gammaln(x: ArrayLike) -> Array:
    """Log of the absolute value of the gamma function."""
    (xa,) = promote_args_inexact("gammaln", x)
    return lax.lgamma(xa)


def loggamma(x: ArrayLike) -> Array:
    """``log(gamma(x))`` for real ``x`` (as ``gammaln``; NaN where gamma is negative)."""
    (xa,) = promote_args_inexact("loggamma", x)
    return jnp.where(gammasgn(xa) < 0, np.nan, lax.lgamma(xa))


def digamma(x: ArrayLike) -> Array:
    """Logarithmic derivative of the gamma function."""
    (xa,) = promote_args_inexact("digamma", x)
    return lax.digamma(xa)


def gammasgn(x: ArrayLike) -> Array:
    """Sign of the gamma function (NaN at its poles)."""
    (xa,) = promote_args_inexact("gammasgn", x)
    floor_x = jnp.floor(xa)
    neg = xa < 0
    return jnp.where((xa == 0) | (neg & (xa == floor_x)), np.nan,
                     jnp.where(neg & (jnp.remainder(floor_x, 2) != 0), -1.0, 1.0)).astype(xa.dtype)


def gamma(x: ArrayLike) -> Array:
    """The gamma function, ``gammasgn(x) * exp(gammaln(x))``."""
    (xa,) = promote_args_inexact("gamma", x)
    return gammasgn(xa) * lax.exp(lax.lgamma(xa))


def betaln(a: ArrayLike, b: ArrayLike) -> Array:
    """Log of the absolute value of the beta function."""
    aa, ba = promote_args_inexact("betaln", a, b)
    return lax.lgamma(aa) + lax.lgamma(ba) - lax.lgamma(aa + ba)


# -- modified Bessel functions ---------------------------------------------------------------------

_BESSEL_SWITCH = 15.0


def _bessel_ie(x: Array, nu: int) -> Array:
    """``exp(-|x|) * I_nu(|x|)`` for ``nu`` in {0, 1}: power series below 15, asymptotic above."""
    ax = jnp.abs(x)
    small = ax <= _BESSEL_SWITCH
    xs = jnp.where(small, ax, jnp.zeros_like(ax))
    y = 0.25 * xs * xs
    term = jnp.ones_like(xs) if nu == 0 else 0.5 * xs
    total = term
    for k in range(1, 60):
        term = term * y / (k * (k + nu))
        total = total + term
    series = total * jnp.exp(-xs)
    xl = jnp.where(small, jnp.full_like(ax, _BESSEL_SWITCH + 1), ax)
    mu = 4.0 * nu * nu
    coef = jnp.ones_like(xl)
    acc = coef
    for k in range(1, 12):
        coef = -coef * (mu - (2 * k - 1) ** 2) / (k * 8.0 * xl)
        acc = acc + coef
    asym = acc / jnp.sqrt(2 * math.pi * xl)
    return jnp.where(small, series, asym)


def i0e(x: ArrayLike) -> Array:
    """Exponentially scaled modified Bessel function of order 0, ``exp(-|x|) I0(x)``."""
    (xa,) = promote_args_inexact("i0e", x)
    return _bessel_ie(xa, 0)


def i1e(x: ArrayLike) -> Array:
    """Exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    (xa,) = promote_args_inexact("i1e", x)
    return jnp.sign(xa) * _bessel_ie(xa, 1)


def i0(x: ArrayLike) -> Array:
    """Modified Bessel function of order 0."""
    (xa,) = promote_args_inexact("i0", x)
    return jnp.exp(jnp.abs(xa)) * _bessel_ie(xa, 0)


def i1(x: ArrayLike) -> Array:
    """Modified Bessel function of order 1."""
    (xa,) = promote_args_inexact("i1", x)
    return jnp.sign(xa) * jnp.exp(jnp.abs(xa)) * _bessel_ie(xa, 1)


# -- incomplete gamma ------------------------------------------------------------------------------


def _igamma_parts(a: Array, x: Array) -> tuple[Array, Array, Array]:
    """``(use_series, P by series, Q by continued fraction)``, each evaluated on safe inputs."""
    use_series = x < a + 1
    ok = (a > 0) & (x > 0)
    a_s = jnp.where(ok, a, jnp.ones_like(a))
    x_s = jnp.where(ok, x, jnp.ones_like(x))
    log_pref = -x_s + a_s * jnp.log(x_s) - lax.lgamma(a_s)
    xs = jnp.where(use_series, x_s, jnp.zeros_like(x_s))
    term = 1 / a_s
    total = term
    for n in range(1, 150):
        term = term * xs / (a_s + n)
        total = total + term
    series = total * jnp.exp(log_pref)
    xc = jnp.where(use_series, a_s + 1, x_s)
    n_terms = 60
    t = xc + 2 * n_terms + 1 - a_s
    for n in range(n_terms, 0, -1):
        t = xc + 2 * n - 1 - a_s - n * (n - a_s) / t
    cf = jnp.exp(log_pref) / t
    return use_series, series, cf


def gammainc(a: ArrayLike, x: ArrayLike) -> Array:
    """Regularized lower incomplete gamma function ``P(a, x)`` (series, or 1 - continued fraction)."""
    aa, xa = promote_args_inexact("gammainc", a, x)
    aa, xa = jnp.broadcast_arrays(aa, xa)
    use_series, series, cf = _igamma_parts(aa, xa)
    out = jnp.where(use_series, series, 1 - cf)
    out = jnp.where(xa == 0, jnp.zeros_like(out), out)
    return jnp.where((aa <= 0) | (xa < 0) | jnp.isnan(aa) | jnp.isnan(xa), np.nan, out).astype(out.dtype)


def gammaincc(a: ArrayLike, x: ArrayLike) -> Array:
    """Regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    aa, xa = promote_args_inexact("gammaincc", a, x)
    aa, xa = jnp.broadcast_arrays(aa, xa)
    use_series, series, cf = _igamma_parts(aa, xa)
    out = jnp.where(use_series, 1 - series, cf)
    out = jnp.where(xa == 0, jnp.ones_like(out), out)
    return jnp.where((aa <= 0) | (xa < 0) | jnp.isnan(aa) | jnp.isnan(xa), np.nan, out).astype(out.dtype)
