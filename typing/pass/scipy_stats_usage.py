"""jax_core.scipy.stats and jax_core.scipy.special: the distributions, sample statistics, the
kernel density estimate and the special functions added with them, with their static types."""

from typing import assert_type

import numpy as np

import jax_core.numpy as jnp
import jax_core.scipy.special as sps
import jax_core.scipy.stats as st
from jax_core import Array, jit, random

x = jnp.linspace(-2.0, 2.0, 5)
k = jnp.arange(5.0)

assert_type(st.cauchy.logpdf(x, loc=1.0, scale=2.0), Array)
assert_type(st.cauchy.ppf(0.3), Array)
assert_type(st.gumbel_l.logsf(x), Array)
assert_type(st.gumbel_r.ppf(np.float32(0.5), 1, 2), Array)
assert_type(st.pareto.cdf(x, 2.5), Array)
assert_type(st.truncnorm.logcdf(x, -1.0, 2.0), Array)
assert_type(st.vonmises.pdf(x, 2.0), Array)
assert_type(st.wrapcauchy.logpdf(x + 2.0, 0.4), Array)
assert_type(st.gennorm.cdf(x, 1.5), Array)
assert_type(st.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([1.0, 2.0, 3.0])), Array)
assert_type(st.binom.pmf(k, 4, 0.3), Array)
assert_type(st.betabinom.logpmf(k, 4, 2.0, 3.0), Array)
assert_type(st.geom.pmf(k, 0.3, loc=1), Array)
assert_type(st.nbinom.logpmf(k, 3, 0.4), Array)
assert_type(st.multinomial.pmf(jnp.array([1, 2, 1]), 4, jnp.array([0.2, 0.5, 0.3])), Array)

result = st.mode(jnp.array([1, 2, 2, 3]))
assert_type(result.mode, Array)
assert_type(result.count, Array)
assert_type(st.rankdata(x, "min"), Array)
assert_type(st.sem(x, axis=None, ddof=0), Array)

kde = st.gaussian_kde(x, bw_method="silverman")
assert_type(kde.evaluate(jnp.array([0.0, 1.0])), Array)
assert_type(kde.logpdf(0.5), Array)
assert_type(kde.integrate_box_1d(-1.0, 1.0), Array)
assert_type(kde.resample(random.key(0), (3,)), Array)
assert_type(kde.d, int)

assert_type(sps.expi(x), Array)
assert_type(sps.exp1(x), Array)
assert_type(sps.expn(2, x), Array)
assert_type(sps.sici(x), tuple[Array, Array])
assert_type(sps.dawsn(x), Array)
assert_type(sps.erfcx(x), Array)
assert_type(sps.wofz(x + 1j), Array)
assert_type(sps.spence(jnp.abs(x)), Array)
assert_type(sps.bessel_jn(x, v=2), Array)
assert_type(sps.hyp1f1(0.5, 1.5, x), Array)
assert_type(sps.owens_t(x, 0.5), Array)


@jit
def log_likelihood(data: Array, loc: Array) -> Array:
    return st.cauchy.logpdf(data, loc).sum() + st.gumbel_r.logpdf(data, loc).sum()


assert_type(log_likelihood(x, jnp.float32(0.5)), Array)
