"""More discrete jax_core.scipy.stats distributions: betabinom, binom, geom, nbinom and multinomial.

Each public module ``jax_core.scipy.stats.<dist>`` re-exports the ``<dist>_<method>`` functions
here under JAX's names; the operations are JAX's, in JAX's order.
"""

from __future__ import annotations

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.numpy.util import (
    check_arraylike,
    ensure_array,
    promote_dtypes_inexact,
    promote_dtypes_numeric,
)
from jax_core._src.scipy.special import (
    betaln,
    gammaln,
    jitted_as,
    promote_args_inexact,
    xlog1py,
    xlogy,
)
from jax_core._src.scipy.special import lax_const as _c
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


@jitted_as("logpmf")
def betabinom_logpmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Beta-binomial log probability mass ``log(C(n, y) B(y + a, n - y + b) / B(a, b))`` at
    ``y = floor(k) - loc`` (``-inf`` off the support; NaN unless ``n >= 0``, ``a > 0``, ``b > 0``)."""
    ka, na, aa, ba, la = promote_args_inexact("betabinom.logpmf", k, n, a, b, loc)
    y = lax.sub(lax.floor(ka), la)
    one = _c(y, 1)
    zero = _c(y, 0)
    combiln = lax.neg(lax.add(lax.log1p(na), betaln(lax.add(lax.sub(na, y), one), lax.add(y, one))))
    beta_lns = lax.sub(betaln(lax.add(y, aa), lax.add(lax.sub(na, y), ba)), betaln(aa, ba))
    log_probs = lax.add(combiln, beta_lns)
    log_probs = jnp.where(jnp.logical_and(lax.eq(y, zero), lax.eq(na, zero)), 0.0, log_probs)
    off = jnp.logical_or(jnp.logical_or(lax.lt(y, lax.neg(la)), lax.gt(y, na)), lax.le(lax.add(y, aa), zero))
    log_probs = jnp.where(off, -np.inf, log_probs)
    bad = jnp.logical_or(jnp.logical_or(lax.lt(na, zero), lax.le(aa, zero)), lax.le(ba, zero))
    return jnp.where(bad, np.nan, log_probs)


def betabinom_pmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Beta-binomial probability mass."""
    return lax.exp(betabinom_logpmf(k, n, a, b, loc))


def binom_logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Binomial log probability mass ``log C(n, y) + y log p + (n - y) log1p(-p)`` at ``y = k - loc``
    (``-inf`` outside ``[loc, loc + n]``)."""
    ka, na, pa, la = promote_args_inexact("binom.logpmf", k, n, p, loc)
    y = lax.sub(ka, la)
    zero = _c(y, 0)
    comb_term = lax.sub(gammaln(na + 1), lax.add(gammaln(y + 1), gammaln(na - y + 1)))
    log_linear_term = lax.add(xlogy(y, pa), xlog1py(lax.sub(na, y), lax.neg(pa)))
    log_probs = lax.add(comb_term, log_linear_term)
    degenerate = jnp.logical_or(jnp.logical_and(lax.eq(y, zero), lax.eq(na, zero)), lax.eq(log_linear_term, zero))
    log_probs = jnp.where(degenerate, 0.0, log_probs)
    return jnp.where(lax.ge(ka, la) & lax.lt(ka, la + na + 1), log_probs, -np.inf)


def binom_pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Binomial probability mass."""
    return lax.exp(binom_logpmf(k, n, p, loc))


def geom_logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Geometric log probability mass ``(k - 1) log1p(-p) + log p`` (``-inf`` for ``k - loc <= 0``)."""
    ka, pa, la = promote_args_inexact("geom.logpmf", k, p, loc)
    x = lax.sub(ka, la)
    log_probs = xlog1py(lax.sub(x, _c(ka, 1)), -pa) + lax.log(pa)
    return jnp.where(lax.le(x, _c(ka, 0)), -np.inf, log_probs)


def geom_pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Geometric probability mass."""
    return jnp.exp(geom_logpmf(k, p, loc))


def nbinom_logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Negative-binomial log probability mass ``log C(y + n - 1, n - 1) + n log p + y log(1 - p)``
    at ``y = k - loc`` (``-inf`` below ``loc``)."""
    ka, na, pa, la = promote_args_inexact("nbinom.logpmf", k, n, p, loc)
    one = _c(ka, 1)
    y = lax.sub(ka, la)
    comb_term = lax.sub(lax.sub(gammaln(lax.add(y, na)), gammaln(na)), gammaln(lax.add(y, one)))
    log_linear_term = lax.add(xlogy(na, pa), xlogy(y, lax.sub(one, pa)))
    return jnp.where(lax.lt(ka, la), -np.inf, lax.add(comb_term, log_linear_term))


def nbinom_pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """Negative-binomial probability mass."""
    return lax.exp(nbinom_logpmf(k, n, p, loc))


def multinomial_logpmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """Multinomial log probability mass of integer counts ``x`` (last axis) summing to ``n``
    (``-inf`` where they do not), with category probabilities ``p``."""
    check_arraylike("multinomial.logpmf", x, n, p)
    (pp,) = promote_dtypes_inexact(p)
    xp, np_ = promote_dtypes_numeric(x, n)
    pa, xa, na = ensure_array(pp), ensure_array(xp), ensure_array(np_)
    if not dtypes.issubdtype(xa.dtype, np.integer):
        raise ValueError(f"x and n must be of integer type; got x.dtype={xa.dtype}, n.dtype={na.dtype}")
    in_support = jnp.equal(jnp.sum(xa, axis=-1, dtype=xa.dtype), na)
    xf = xa.astype(pa.dtype)
    nf = na.astype(pa.dtype)
    logprobs = gammaln(nf + 1) + jnp.sum(xlogy(xf, pa) - gammaln(xf + 1), axis=-1)
    return jnp.where(in_support, logprobs, -np.inf)


def multinomial_pmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """Multinomial probability mass."""
    return lax.exp(multinomial_logpmf(x, n, p))
