"""jax_core.scipy.stats distributions: log densities, densities, CDFs and quantiles from jnp/lax ops.

Each public module ``jax_core.scipy.stats.<dist>`` re-exports the ``<dist>_<method>`` functions here
under JAX's names (``norm.logpdf``, ``poisson.logpmf``, ...).
"""

from __future__ import annotations

import math

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.lax.linalg import decompositions as lax_linalg
from jax_core._src.numpy.util import jitted
from jax_core._src.scipy.special import (
    betainc,
    betaln,
    gammainc,
    gammaincc,
    log_ndtr,
    ndtr,
    ndtri,
    promote_args_inexact,
    promote_arrays_inexact,
    xlog1py,
    xlogy,
)
from jax_core._src.scipy.special import lax_const as _c
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# -- norm ------------------------------------------------------------------------------------------


@jitted()
def norm_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal log density."""
    xa, la, sa = promote_args_inexact("norm.logpdf", x, loc, scale)
    scale_sq = lax.square(sa)  # JAX's operations, in JAX's order
    log_normalizer = lax.log(lax.mul(np.asarray(2 * np.pi, xa.dtype), scale_sq))
    quadratic = lax.div(lax.square(lax.sub(xa, la)), scale_sq)
    return lax.div(lax.add(log_normalizer, quadratic), np.asarray(-2, xa.dtype))


@jitted()
def norm_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal density."""
    return jnp.exp(norm_logpdf(x, loc, scale))


@jitted()
def norm_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal CDF."""
    xa, la, sa = promote_args_inexact("norm.cdf", x, loc, scale)
    return ndtr((xa - la) / sa)


@jitted()
def norm_logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal log CDF."""
    xa, la, sa = promote_args_inexact("norm.logcdf", x, loc, scale)
    return log_ndtr((xa - la) / sa)


@jitted()
def norm_sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal survival function ``1 - cdf``."""
    xa, la, sa = promote_args_inexact("norm.sf", x, loc, scale)
    return ndtr((la - xa) / sa)


@jitted()
def norm_logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal log survival function."""
    xa, la, sa = promote_args_inexact("norm.logsf", x, loc, scale)
    return log_ndtr((la - xa) / sa)


@jitted()
def norm_ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal quantile function (inverse CDF)."""
    qa, la, sa = promote_args_inexact("norm.ppf", q, loc, scale)
    return ndtri(qa) * sa + la


@jitted()
def norm_isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Normal inverse survival function."""
    qa, la, sa = promote_args_inexact("norm.isf", q, loc, scale)
    return -ndtri(qa) * sa + la


# -- expon -----------------------------------------------------------------------------------------


@jitted()
def expon_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential log density (``-inf`` below ``loc``)."""
    xa, la, sa = promote_args_inexact("expon.logpdf", x, loc, scale)
    y = (xa - la) / sa
    return jnp.where(y < 0, -np.inf, -y - jnp.log(sa))


@jitted()
def expon_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential density."""
    return jnp.exp(expon_logpdf(x, loc, scale))


@jitted()
def expon_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential CDF."""
    xa, la, sa = promote_args_inexact("expon.cdf", x, loc, scale)
    y = (xa - la) / sa
    return jnp.where(y < 0, 0.0, -jnp.expm1(-jnp.maximum(y, 0))).astype(y.dtype)


@jitted()
def expon_logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential log CDF."""
    return jnp.log(expon_cdf(x, loc, scale))


@jitted()
def expon_sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential survival function."""
    return jnp.exp(expon_logsf(x, loc, scale))


@jitted()
def expon_logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential log survival function."""
    xa, la, sa = promote_args_inexact("expon.logsf", x, loc, scale)
    y = (xa - la) / sa
    return jnp.where(y < 0, 0.0, -y).astype(y.dtype)


@jitted()
def expon_ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Exponential quantile function."""
    qa, la, sa = promote_args_inexact("expon.ppf", q, loc, scale)
    return jnp.where((qa < 0) | (qa > 1), np.nan, -jnp.log1p(-qa) * sa + la).astype(qa.dtype)


# -- laplace ---------------------------------------------------------------------------------------


@jitted()
def laplace_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Laplace log density."""
    xa, la, sa = promote_args_inexact("laplace.logpdf", x, loc, scale)
    return -jnp.abs((xa - la) / sa) - math.log(2.0) - jnp.log(sa)


@jitted()
def laplace_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Laplace density."""
    return jnp.exp(laplace_logpdf(x, loc, scale))


@jitted()
def laplace_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Laplace CDF."""
    xa, la, sa = promote_args_inexact("laplace.cdf", x, loc, scale)
    y = (xa - la) / sa
    half = 0.5 * jnp.exp(-jnp.abs(y))
    return jnp.where(y < 0, half, 1 - half)


# -- logistic --------------------------------------------------------------------------------------


@jitted()
def logistic_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Logistic log density."""
    xa, la, sa = promote_args_inexact("logistic.logpdf", x, loc, scale)
    y = jnp.abs((xa - la) / sa)
    return -y - 2 * jnp.log1p(jnp.exp(-y)) - jnp.log(sa)


@jitted()
def logistic_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Logistic density."""
    return jnp.exp(logistic_logpdf(x, loc, scale))


@jitted()
def logistic_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Logistic CDF."""
    xa, la, sa = promote_args_inexact("logistic.cdf", x, loc, scale)
    return lax.logistic((xa - la) / sa)


@jitted()
def logistic_sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Logistic survival function."""
    xa, la, sa = promote_args_inexact("logistic.sf", x, loc, scale)
    return lax.logistic((la - xa) / sa)


@jitted()
def logistic_ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Logistic quantile function."""
    qa, la, sa = promote_args_inexact("logistic.ppf", q, loc, scale)
    return jnp.log(qa / (1 - qa)) * sa + la


@jitted()
def logistic_isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Logistic inverse survival function."""
    qa, la, sa = promote_args_inexact("logistic.isf", q, loc, scale)
    return -jnp.log(qa / (1 - qa)) * sa + la


# -- uniform ---------------------------------------------------------------------------------------


@jitted()
def uniform_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Uniform log density on ``[loc, loc + scale]``."""
    xa, la, sa = promote_args_inexact("uniform.logpdf", x, loc, scale)
    z = lax.div(lax.sub(xa, la), sa)
    log_probs = lax.neg(lax.log(sa))
    # NaN anywhere fails both conditions: the default
    return jnp.select([(z < 0) | (z > 1), (z >= 0) & (z <= 1)], [-np.inf, log_probs], np.nan)


@jitted()
def uniform_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Uniform density."""
    return lax.exp(uniform_logpdf(x, loc, scale))


@jitted()
def uniform_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Uniform CDF."""
    xa, la, sa = promote_args_inexact("uniform.cdf", x, loc, scale)
    return jnp.clip((xa - la) / sa, 0, 1)


@jitted()
def uniform_ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Uniform quantile function."""
    qa, la, sa = promote_args_inexact("uniform.ppf", q, loc, scale)
    return jnp.where((qa < 0) | (qa > 1), np.nan, la + qa * sa).astype(qa.dtype)


# -- discrete --------------------------------------------------------------------------------------


@jitted()
def bernoulli_logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Bernoulli log probability mass (``-inf`` outside {0, 1})."""
    ka, pa, la = promote_args_inexact("bernoulli.logpmf", k, p, loc)
    kk = ka - la
    out = xlogy(kk, pa) + xlog1py(np.asarray(1, kk.dtype) - kk, -pa)  # a strong 1, as JAX's
    return jnp.where((kk < 0) | (kk > 1), -np.inf, out)  # weak if out is (as JAX)


@jitted()
def bernoulli_pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Bernoulli probability mass."""
    return jnp.exp(bernoulli_logpmf(k, p, loc))


@jitted()
def bernoulli_cdf(k: ArrayLike, p: ArrayLike) -> Array:
    """Bernoulli CDF."""
    ka, pa = promote_args_inexact("bernoulli.cdf", k, p)
    return jnp.where(ka < 0, 0.0, jnp.where(ka < 1, 1 - pa, 1.0)).astype(pa.dtype)


@jitted()
def bernoulli_ppf(q: ArrayLike, p: ArrayLike) -> Array:
    """Bernoulli quantile function."""
    qa, pa = promote_args_inexact("bernoulli.ppf", q, p)
    return jnp.where((qa < 0) | (qa > 1), np.nan, jnp.where(qa <= 1 - pa, 0.0, 1.0)).astype(qa.dtype)


@jitted()
def poisson_logpmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Poisson log probability mass (``-inf`` below ``loc`` and at non-integers)."""
    ka, ma, la = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = ka - la
    out = xlogy(x, ma) - lax.lgamma(x + 1) - ma
    return jnp.where((x < 0) | (x != jnp.round(x)), -np.inf, out)  # weak if out is (as JAX)


@jitted()
def poisson_pmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Poisson probability mass."""
    return jnp.exp(poisson_logpmf(k, mu, loc))


# -- continuous with shape parameters --------------------------------------------------------------


@jitted()
def beta_logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Beta log density (``-inf`` outside ``[loc, loc + scale]``; NaN unless ``a``, ``b`` and
    ``scale`` are positive)."""
    xa, aa, ba, la, sa = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
    one = _c(xa, 1)
    zero = _c(aa, 0)
    shape_term = lax.neg(betaln(aa, ba))
    y = lax.div(lax.sub(xa, la), sa)
    log_linear_term = lax.add(xlogy(lax.sub(aa, one), y), xlog1py(lax.sub(ba, one), lax.neg(y)))
    log_probs = lax.sub(lax.add(shape_term, log_linear_term), lax.log(sa))
    outside = jnp.logical_or(lax.gt(xa, lax.add(la, sa)), lax.lt(xa, la))
    result = jnp.where(outside, -np.inf, log_probs)
    bad = jnp.logical_or(jnp.logical_or(lax.le(aa, zero), lax.le(ba, zero)), lax.le(sa, zero))
    return jnp.where(bad, np.nan, result)


@jitted()
def beta_pdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Beta density."""
    return lax.exp(beta_logpdf(x, a, b, loc, scale))


@jitted()
def gamma_logpdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Gamma log density (``-inf`` below ``loc``)."""
    xa, aa, la, sa = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
    ok = xa >= la  # False for NaN too: JAX's density is -inf there
    y = jnp.where(ok, (xa - la) / sa, jnp.ones_like(xa))
    out = (xlogy(aa - 1, y) - y) - (lax.lgamma(aa) + jnp.log(sa))
    return jnp.where(ok, out, -np.inf).astype(out.dtype)


@jitted()
def gamma_pdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Gamma density."""
    return jnp.exp(gamma_logpdf(x, a, loc, scale))


@jitted()
def t_logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Student's t log density."""
    xa, da, la, sa = promote_args_inexact("t.logpdf", x, df, loc, scale)
    y = (xa - la) / sa
    half = 0.5 * (da + 1)
    norm = lax.lgamma(half) - lax.lgamma(0.5 * da) - 0.5 * jnp.log(da * math.pi) - jnp.log(sa)
    return norm - half * jnp.log1p(y * y / da)


@jitted()
def t_pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Student's t density."""
    return jnp.exp(t_logpdf(x, df, loc, scale))


# -- CDFs on the incomplete gamma and beta functions (as JAX writes them) ----------------------------


def _clamp01(y: Array, hi: float) -> Array:
    """``y`` clamped to ``[0, hi]``."""
    return lax.clamp(np.zeros((), y.dtype), y, np.asarray(hi, y.dtype))


@jitted()
def beta_cdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Beta CDF ``I_y(a, b)`` of ``y = (x - loc) / scale`` clamped to ``[0, 1]``."""
    xa, aa, ba, la, sa = promote_args_inexact("beta.cdf", x, a, b, loc, scale)
    return betainc(aa, ba, _clamp01(lax.div(lax.sub(xa, la), sa), 1.0))


@jitted()
def beta_logcdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the beta CDF."""
    return lax.log(beta_cdf(x, a, b, loc, scale))


@jitted()
def beta_sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Beta survival function ``I_{1-y}(b, a)``."""
    xa, aa, ba, la, sa = promote_args_inexact("beta.sf", x, a, b, loc, scale)
    return betainc(ba, aa, 1 - _clamp01(lax.div(lax.sub(xa, la), sa), 1.0))


@jitted()
def beta_logsf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the beta survival function."""
    return lax.log(beta_sf(x, a, b, loc, scale))


@jitted()
def gamma_cdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Gamma CDF ``P(a, y)`` of ``y = (x - loc) / scale`` (0 below ``loc``)."""
    xa, aa, la, sa = promote_args_inexact("gamma.cdf", x, a, loc, scale)
    return gammainc(aa, _clamp01(lax.div(lax.sub(xa, la), sa), np.inf))


@jitted()
def gamma_logcdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the gamma CDF."""
    return lax.log(gamma_cdf(x, a, loc, scale))


@jitted()
def gamma_sf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Gamma survival function ``Q(a, y)`` (1 below ``loc``)."""
    xa, aa, la, sa = promote_args_inexact("gamma.sf", x, a, loc, scale)
    y = lax.div(lax.sub(xa, la), sa)
    q = gammaincc(aa, y)
    return jnp.where(y < 0, jnp.ones_like(q), q)


@jitted()
def gamma_logsf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the gamma survival function."""
    return lax.log(gamma_sf(x, a, loc, scale))


def chi2_logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Chi-squared log density (``-inf`` below ``loc``)."""
    xa, da, la, sa = promote_args_inexact("chi2.logpdf", x, df, loc, scale)
    y = (xa - la) / sa
    half_df = da / 2
    kernel = xlogy(half_df - 1, y) - y / 2
    norm = -(lax.lgamma(half_df) + math.log(2.0) * da / 2)
    return jnp.where(xa < la, -np.inf, norm - jnp.log(sa) + kernel).astype(kernel.dtype)


def chi2_pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Chi-squared density."""
    return lax.exp(chi2_logpdf(x, df, loc, scale))


def chi2_cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Chi-squared CDF ``P(df / 2, y / 2)``."""
    xa, da, la, sa = promote_args_inexact("chi2.cdf", x, df, loc, scale)
    return gammainc(da / 2, _clamp01(lax.div(lax.sub(xa, la), sa * 2), np.inf))


def chi2_logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the chi-squared CDF."""
    return lax.log(chi2_cdf(x, df, loc, scale))


def chi2_sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Chi-squared survival function ``Q(df / 2, y / 2)``."""
    xa, da, la, sa = promote_args_inexact("chi2.sf", x, df, loc, scale)
    return gammaincc(da / 2, _clamp01(lax.div(lax.sub(xa, la), sa * 2), np.inf))


def chi2_logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the chi-squared survival function."""
    return lax.log(chi2_sf(x, df, loc, scale))


@jitted()
def poisson_cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Poisson CDF ``Q(floor(k - loc) + 1, mu)`` (0 below ``loc``)."""
    ka, ma, la = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = ka - la
    p = gammaincc(jnp.floor(1 + x), ma)
    return jnp.where(x < 0, jnp.zeros_like(p), p)


def _poisson_entropy_sum(mu: Array, max_k: int, upper: Array) -> Array:
    """``-sum_k pmf(k) log pmf(k)`` over ``k < upper`` (``k < max_k``), from the log pmf so a pmf
    that underflows contributes 0 (and no NaN gradient)."""
    k = jnp.arange(max_k, dtype=mu.dtype)[:, None]
    log_probs = poisson_logpmf(k, mu, 0)
    terms = jnp.where(k < upper[None, :], -jnp.exp(log_probs) * log_probs, jnp.zeros_like(log_probs))
    return jnp.sum(terms, axis=0)


def poisson_entropy(mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Poisson entropy, as JAX computes it: direct sums below ``mu = 100`` (35 terms below 10,
    250 below 100), the asymptotic ``0.5 log(2 pi e mu) - 1 / (12 mu)`` above; ``loc`` only
    broadcasts."""
    mu_a, loc_a = promote_args_inexact("poisson.entropy", mu, loc)
    shape = jnp.broadcast_shapes(mu_a.shape, loc_a.shape)
    flat = jnp.ravel(mu_a)
    small = jnp.where((flat == 0) | (flat >= 10), 1.0, flat)
    medium = jnp.where((flat < 10) | (flat >= 100), 10.0, flat)
    large = jnp.where(flat < 100, 100.0, flat)
    out = jnp.where(
        flat == 0,
        jnp.zeros_like(flat),
        jnp.where(
            flat < 10,
            _poisson_entropy_sum(small, 35, jnp.ceil(small + 20)),
            jnp.where(
                flat < 100,
                _poisson_entropy_sum(medium, 250, jnp.ceil(medium + 10 * jnp.sqrt(medium) + 20)),
                0.5 * jnp.log(2 * np.pi * np.e * large) - 1.0 / (12 * large),
            ),
        ),
    )
    return jnp.broadcast_to(jnp.reshape(out, mu_a.shape), shape)


# -- multivariate normal ---------------------------------------------------------------------------


def multivariate_normal_logpdf(x: ArrayLike, mean: ArrayLike, cov: ArrayLike, allow_singular: None = None) -> Array:
    """Multivariate normal log density; ``x`` is ``(..., n)``, ``mean`` ``(n,)``, ``cov`` ``(n, n)``
    (or scalars / 1-D for the one-dimensional case, as JAX)."""
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    xa, ma, ca = promote_arrays_inexact("multivariate_normal.logpdf", x, mean, cov)
    if ma.ndim == 0 and ca.ndim == 0:
        return -0.5 * (xa - ma) ** 2 / ca - 0.5 * (math.log(2 * math.pi) + jnp.log(ca))
    n = ma.shape[-1]
    if ca.ndim < 2:
        ca = jnp.eye(n, dtype=ca.dtype) * ca
    if ca.ndim != 2 or ma.ndim != 1:
        raise ValueError("multivariate_normal.logpdf got incompatible shapes")
    diff = xa - ma
    lead = diff.shape[:-1]
    chol = lax_linalg.cholesky(ca)
    y = lax_linalg.triangular_solve(chol, jnp.reshape(diff, (-1, n)), left_side=False, lower=True, transpose_a=True)
    quad = jnp.reshape(jnp.sum(y * y, axis=-1), lead)
    logdet = jnp.sum(jnp.log(jnp.diagonal(chol)))
    return -0.5 * quad - logdet - n * _LOG_SQRT_2PI


def multivariate_normal_pdf(x: ArrayLike, mean: ArrayLike, cov: ArrayLike) -> Array:
    """Multivariate normal density."""
    return jnp.exp(multivariate_normal_logpdf(x, mean, cov))
