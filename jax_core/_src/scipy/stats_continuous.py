"""More continuous jax_core.scipy.stats distributions: cauchy, gennorm, gumbel_l, gumbel_r, pareto,
truncnorm, vonmises, wrapcauchy and dirichlet.

Each public module ``jax_core.scipy.stats.<dist>`` re-exports the ``<dist>_<method>`` functions
here under JAX's names. The operations are JAX's, in JAX's order (so the values are bit for bit
JAX's); constants are strongly typed arrays of the promoted dtype, as JAX's ``_lax_const`` makes.
"""

from __future__ import annotations

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.numpy.util import ensure_array, jitted, promote_dtypes_inexact
from jax_core._src.scipy.special import (
    gammaln,
    jitted_as,
    log_ndtr,
    logsumexp,
    ndtr,
    promote_args_inexact,
    xlog1py,
    xlogy,
)
from jax_core._src.scipy.special import lax_const as _c
from jax_core._src.scipy.stats import norm_logpdf
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- cauchy ----------------------------------------------------------------------------------------


def cauchy_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Cauchy log density ``-log(pi scale (1 + z**2))``."""
    xa, la, sa = promote_args_inexact("cauchy.logpdf", x, loc, scale)
    z = lax.div(lax.sub(xa, la), sa)
    return lax.neg(lax.add(lax.log(lax.mul(_c(xa, np.pi), sa)), lax.log1p(lax.mul(z, z))))


def cauchy_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Cauchy density."""
    return lax.exp(cauchy_logpdf(x, loc, scale))


def cauchy_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Cauchy CDF ``1/2 + arctan(z) / pi``."""
    xa, la, sa = promote_args_inexact("cauchy.cdf", x, loc, scale)
    z = lax.div(lax.sub(xa, la), sa)
    return lax.add(_c(xa, 0.5), lax.mul(lax.div(_c(xa, 1.0), _c(xa, np.pi)), jnp.arctan(z)))


def cauchy_logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the Cauchy CDF."""
    return lax.log(cauchy_cdf(x, loc, scale))


def cauchy_sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Cauchy survival function (the CDF reflected)."""
    xa, la, sa = promote_args_inexact("cauchy.sf", x, loc, scale)
    return cauchy_cdf(-xa, -la, sa)


def cauchy_logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the Cauchy survival function."""
    xa, la, sa = promote_args_inexact("cauchy.logsf", x, loc, scale)
    return cauchy_logcdf(-xa, -la, sa)


def cauchy_ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Cauchy quantile function, ``-1 / tan(pi q)`` folded about 1/2 (NaN outside ``[0, 1]``)."""
    qa, la, sa = promote_args_inexact("cauchy.ppf", q, loc, scale)
    one = _c(qa, 1)
    upper = qa > 0.5
    arg = lax.mul(_c(qa, np.pi), jnp.where(upper, lax.sub(one, qa), lax.abs(qa)))
    unscaled = jnp.where(qa == 0.5, _c(qa, 0), lax.div(jnp.where(upper, one, -one), lax.tan(arg)))
    return jnp.where((qa < 0) | (qa > 1), np.nan, lax.add(lax.mul(unscaled, sa), la))


def cauchy_isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Cauchy inverse survival function."""
    qa, la, sa = promote_args_inexact("cauchy.isf", q, loc, scale)
    return lax.neg(cauchy_ppf(qa, lax.neg(la), sa))


# -- gennorm ---------------------------------------------------------------------------------------


def gennorm_logpdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """Generalized normal log density ``log(beta / 2) - lgamma(1 / beta) - |x|**beta``."""
    xa, ba = promote_args_inexact("gennorm.logpdf", x, beta)
    return lax.log(0.5 * ba) - lax.lgamma(1 / ba) - lax.abs(xa) ** ba


def gennorm_cdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """Generalized normal CDF through the regularized lower incomplete gamma function."""
    xa, ba = promote_args_inexact("gennorm.cdf", x, beta)
    return 0.5 * (1 + lax.sign(xa) * lax.igamma(1 / ba, lax.abs(xa) ** ba))


def gennorm_pdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """Generalized normal density."""
    return lax.exp(gennorm_logpdf(x, beta))


# -- gumbel_l --------------------------------------------------------------------------------------


def gumbel_l_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Left-skewed Gumbel log density ``z - exp(z) - log(scale)`` (NaN unless ``scale > 0``)."""
    xa, la, sa = promote_args_inexact("gumbel_l.logpdf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(ok, lax.add(xlogy(-1, sa), lax.sub(z, lax.exp(z))), np.nan)


def gumbel_l_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Left-skewed Gumbel density."""
    return lax.exp(gumbel_l_logpdf(x, loc, scale))


def gumbel_l_logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the left-skewed Gumbel CDF ``log(1 - exp(-exp(z)))``."""
    xa, la, sa = promote_args_inexact("gumbel_l.logcdf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(ok, lax.log(-lax.expm1(lax.neg(lax.exp(z)))), np.nan)


def gumbel_l_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Left-skewed Gumbel CDF."""
    return lax.exp(gumbel_l_logcdf(x, loc, scale))


def gumbel_l_ppf(p: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Left-skewed Gumbel quantile ``loc + scale log(-log1p(-p))`` (NaN outside ``(0, 1)``)."""
    pa, la, sa = promote_args_inexact("gumbel_l.ppf", p, loc, scale)
    ok = lax.bitwise_and(lax.gt(pa, _c(pa, 0)), lax.lt(pa, _c(pa, 1)))
    quantile = lax.add(la, lax.mul(sa, lax.log(xlog1py(-1, lax.neg(pa)))))
    return jnp.where(ok, quantile, np.nan)


def gumbel_l_logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the left-skewed Gumbel survival function, ``-exp(z)``."""
    xa, la, sa = promote_args_inexact("gumbel_l.logsf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(ok, lax.neg(lax.exp(z)), np.nan)


def gumbel_l_sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Left-skewed Gumbel survival function."""
    return jnp.exp(gumbel_l_logsf(x, loc, scale))


# -- gumbel_r --------------------------------------------------------------------------------------


@jitted(inline=False)
def log1mexp(x: Array) -> Array:
    """``log(1 - exp(-x))`` (JAX's ``nn.log1mexp`` body, named as its ``jit`` is)."""
    return jnp.where(x < jnp.log(2.0), jnp.log(-jnp.expm1(-x)), jnp.log1p(-jnp.exp(-x)))


@custom_jvp
def _log1mexp(x: Array) -> Array:
    """``log(1 - exp(-x))``, by ``expm1`` below ``log 2`` and ``log1p`` above (Maechler), one
    ``jit`` as JAX's ``nn.log1mexp``."""
    return log1mexp(x)


@_log1mexp.defjvp
def _log1mexp_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (t,) = primals, tangents
    return _log1mexp(x), t / jnp.expm1(x)


def gumbel_r_logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Right-skewed Gumbel log density ``-(z + exp(-z)) - log(scale)`` (NaN unless ``scale > 0``)."""
    xa, la, sa = promote_args_inexact("gumbel_r.logpdf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(ok, lax.add(xlogy(-1, sa), lax.neg(lax.add(z, lax.exp(lax.neg(z))))), np.nan)


def gumbel_r_pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Right-skewed Gumbel density."""
    return lax.exp(gumbel_r_logpdf(x, loc, scale))


def gumbel_r_logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the right-skewed Gumbel CDF, ``-exp(-z)``."""
    xa, la, sa = promote_args_inexact("gumbel_r.logcdf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(ok, lax.neg(lax.exp(lax.neg(z))), np.nan)


def gumbel_r_cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Right-skewed Gumbel CDF."""
    return lax.exp(gumbel_r_logcdf(x, loc, scale))


def gumbel_r_ppf(p: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Right-skewed Gumbel quantile ``loc - scale log(-log p)`` (NaN outside ``(0, 1)``)."""
    pa, la, sa = promote_args_inexact("gumbel_r.ppf", p, loc, scale)
    ok = lax.bitwise_and(lax.gt(pa, _c(pa, 0)), lax.lt(pa, _c(pa, 1)))
    quantile = lax.sub(la, lax.mul(sa, lax.log(xlogy(-1, pa))))
    return jnp.where(ok, quantile, np.nan)


def gumbel_r_sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Right-skewed Gumbel survival function ``1 - exp(-exp(-z))``."""
    xa, la, sa = promote_args_inexact("gumbel_r.sf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    neg_z = lax.div(lax.sub(la, xa), sa)
    return jnp.where(ok, lax.sub(_c(xa, 1), lax.exp(lax.neg(lax.exp(neg_z)))), np.nan)


def gumbel_r_logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the right-skewed Gumbel survival function, ``log1mexp(exp(-z))``."""
    xa, la, sa = promote_args_inexact("gumbel_r.logsf", x, loc, scale)
    ok = lax.gt(sa, _c(sa, 0))
    neg_z = lax.div(lax.sub(la, xa), sa)
    return jnp.where(ok, _log1mexp(lax.exp(neg_z)), np.nan)


# -- pareto ----------------------------------------------------------------------------------------


def pareto_logpdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Pareto log density ``-(log(scale / b) + (b + 1) log z)`` (``-inf`` below 1)."""
    xa, ba, la, sa = promote_args_inexact("pareto.logpdf", x, b, loc, scale)
    one = _c(xa, 1)
    z = lax.div(lax.sub(xa, la), sa)
    out = lax.neg(lax.add(lax.log(lax.div(sa, ba)), lax.mul(lax.add(ba, one), lax.log(z))))
    return jnp.where(lax.lt(z, one), -np.inf, out)


def pareto_pdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Pareto density."""
    return lax.exp(pareto_logpdf(x, b, loc, scale))


def pareto_cdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Pareto CDF ``1 - z**-b`` (0 below 1)."""
    xa, ba, la, sa = promote_args_inexact("pareto.cdf", x, b, loc, scale)
    one = _c(xa, 1)
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(lax.lt(z, one), _c(xa, 0), lax.sub(one, lax.pow(z, lax.neg(ba))))


def pareto_logcdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the Pareto CDF, ``log1p(-z**-b)``."""
    xa, ba, la, sa = promote_args_inexact("pareto.logcdf", x, b, loc, scale)
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(lax.lt(z, _c(xa, 1)), -np.inf, lax.log1p(lax.neg(lax.pow(z, lax.neg(ba)))))


def pareto_logsf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the Pareto survival function, ``-b log z`` (0 below 1)."""
    xa, ba, la, sa = promote_args_inexact("pareto.logsf", x, b, loc, scale)
    z = lax.div(lax.sub(xa, la), sa)
    return jnp.where(lax.lt(z, _c(xa, 1)), _c(xa, 0), lax.neg(lax.mul(ba, lax.log(z))))


def pareto_sf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Pareto survival function."""
    return lax.exp(pareto_logsf(x, b, loc, scale))


def pareto_ppf(q: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Pareto quantile ``loc + scale (1 - q)**(-1/b)`` (NaN outside ``[0, 1]``)."""
    qa, ba, la, sa = promote_args_inexact("pareto.ppf", q, b, loc, scale)
    one = _c(qa, 1)
    out = lax.add(la, lax.mul(sa, lax.pow(lax.sub(one, qa), lax.neg(lax.div(one, ba)))))
    return jnp.where(jnp.isnan(qa) | (qa < 0) | (qa > 1), np.nan, out)


# -- truncnorm -------------------------------------------------------------------------------------


def _log_diff(x: Array, y: Array) -> Array:
    """``log(exp(x) - exp(y))``, by ``logsumexp`` with weights ``(1, -1)``."""
    return logsumexp(jnp.array([x, y]), b=jnp.array([jnp.ones_like(x), -jnp.ones_like(y)]), axis=0)


def _log_gauss_mass(a: ArrayLike, b: ArrayLike) -> Array:
    """Log of the standard normal mass on ``[a, b]``: by the tails where the interval is on one
    side of 0 (reflected to the left one), by ``1 - ndtr(a) - ndtr(-b)`` where it straddles 0."""
    aa, ba = jnp.broadcast_arrays(jnp.array(a), jnp.array(b))
    left = ba <= 0
    right = aa > 0
    central = ~(left | right)
    a_tail = jnp.where(right, -ba, aa)
    b_tail = jnp.where(right, -aa, ba)
    mass_tail = _log_diff(log_ndtr(b_tail), log_ndtr(a_tail))
    mass_central = jnp.log1p(-ndtr(aa) - ndtr(-ba))
    return jnp.where(central, mass_central, mass_tail)


@jitted_as("logpdf")
def truncnorm_logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Truncated normal log density on ``[a, b]`` (standardized bounds); NaN unless ``a < b``."""
    xa, aa, ba, la, sa = promote_args_inexact("truncnorm.logpdf", x, a, b, loc, scale)
    val = lax.sub(norm_logpdf(xa, la, sa), _log_gauss_mass(aa, ba))
    z = lax.div(lax.sub(xa, la), sa)
    val = jnp.where((z < aa) | (z > ba), -np.inf, val)
    return jnp.where(aa < ba, val, np.nan)


def truncnorm_pdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Truncated normal density."""
    return lax.exp(truncnorm_logpdf(x, a, b, loc, scale))


@jitted_as("logcdf")
def truncnorm_logcdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the truncated normal CDF (by the survival mass where the CDF is near 1)."""
    xa, aa, ba, la, sa = promote_args_inexact("truncnorm.logcdf", x, a, b, loc, scale)
    xa, aa, ba = (ensure_array(v) for v in jnp.broadcast_arrays(xa, aa, ba))
    z = lax.div(lax.sub(xa, la), sa)
    lgm_ab = _log_gauss_mass(aa, ba)
    log_cdf = _log_gauss_mass(aa, z) - lgm_ab
    log_sf = _log_gauss_mass(z, ba) - lgm_ab
    out = jnp.select(
        [z >= ba, z <= aa, log_cdf > -0.1, z > aa],
        [0, -np.inf, jnp.log1p(-jnp.exp(log_sf)), log_cdf],
        np.nan,
    )
    return jnp.where(aa < ba, out, np.nan)


@jitted_as("cdf")
def truncnorm_cdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Truncated normal CDF."""
    return lax.exp(truncnorm_logcdf(x, a, b, loc, scale))


@jitted_as("logsf")
def truncnorm_logsf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Log of the truncated normal survival function (the CDF of the reflected distribution)."""
    xa, aa, ba, la, sa = promote_args_inexact("truncnorm.logsf", x, a, b, loc, scale)
    return truncnorm_logcdf(-xa, -ba, -aa, -la, sa)


@jitted_as("sf")
def truncnorm_sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """Truncated normal survival function."""
    return lax.exp(truncnorm_logsf(x, a, b, loc, scale))


# -- circular --------------------------------------------------------------------------------------


def vonmises_logpdf(x: ArrayLike, kappa: ArrayLike) -> Array:
    """von Mises log density ``kappa cos x - log(2 pi I0(kappa))`` (by ``i0e``; NaN for
    ``kappa < 0``)."""
    xa, ka = promote_args_inexact("vonmises.logpdf", x, kappa)
    out = ka * (jnp.cos(xa) - lax.sign(ka)) - float(np.log(2 * np.pi)) - jnp.log(lax.bessel_i0e(ka))
    return jnp.where(lax.ge(ka, _c(ka, 0)), out, np.nan)


def vonmises_pdf(x: ArrayLike, kappa: ArrayLike) -> Array:
    """von Mises density."""
    return lax.exp(vonmises_logpdf(x, kappa))


def wrapcauchy_logpdf(x: ArrayLike, c: ArrayLike) -> Array:
    """Wrapped Cauchy log density on ``[0, 2 pi]`` (``-inf`` outside; NaN unless ``0 < c < 1``)."""
    xa, ca = promote_args_inexact("wrapcauchy.logpdf", x, c)
    inside = lax.ge(xa, _c(xa, 0)) & lax.le(xa, _c(xa, np.pi * 2))
    out = jnp.log(1 - ca * ca) - jnp.log(2 * np.pi) - jnp.log(1 + ca * ca - 2 * ca * jnp.cos(xa))
    return jnp.where(lax.gt(ca, _c(ca, 0)) & lax.lt(ca, _c(ca, 1)), jnp.where(inside, out, -np.inf), np.nan)


def wrapcauchy_pdf(x: ArrayLike, c: ArrayLike) -> Array:
    """Wrapped Cauchy density."""
    return lax.exp(wrapcauchy_logpdf(x, c))


# -- dirichlet -------------------------------------------------------------------------------------


def _is_simplex(x: Array) -> Array:
    return jnp.all(x > 0, axis=0) & (abs(jnp.sum(x, axis=0) - 1) < 1e-6)


def dirichlet_logpdf(x: ArrayLike, alpha: ArrayLike) -> Array:
    """Dirichlet log density of ``x`` (``(k, ...)``, or ``(k - 1, ...)`` with the last component
    implied) for a one-dimensional ``alpha`` of ``k`` concentrations (``-inf`` off the simplex)."""
    xp, ap = promote_dtypes_inexact(x, alpha)
    xa, aa = ensure_array(xp), ensure_array(ap)
    if aa.ndim != 1:
        raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={aa.shape}")
    if xa.shape[0] not in (aa.shape[0], aa.shape[0] - 1):
        raise ValueError(
            "`x` must have either the same number of entries as `alpha` "
            f"or one entry fewer; got x.shape={xa.shape}, alpha.shape={aa.shape}"
        )
    one = _c(xa, 1)
    if xa.shape[0] != aa.shape[0]:
        xa = jnp.concatenate([xa, lax.sub(one, xa.sum(0, keepdims=True))], axis=0)
    normalize_term = jnp.sum(gammaln(aa)) - gammaln(jnp.sum(aa))
    if xa.ndim > 1:
        aa = lax.broadcast_in_dim(aa, aa.shape + (1,) * (xa.ndim - 1), (0,))
    log_probs = lax.sub(jnp.sum(xlogy(lax.sub(aa, one), xa), axis=0), normalize_term)
    return jnp.where(_is_simplex(xa), log_probs, -np.inf)


def dirichlet_pdf(x: ArrayLike, alpha: ArrayLike) -> Array:
    """Dirichlet density."""
    return lax.exp(dirichlet_logpdf(x, alpha))
