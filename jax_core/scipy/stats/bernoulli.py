"""The bernoulli distribution, as ``jax.scipy.stats.bernoulli``."""

from jax_core._src.scipy.stats import bernoulli_cdf as cdf
from jax_core._src.scipy.stats import bernoulli_logpmf as logpmf
from jax_core._src.scipy.stats import bernoulli_pmf as pmf
from jax_core._src.scipy.stats import bernoulli_ppf as ppf

__all__ = ["logpmf", "pmf", "cdf", "ppf"]
