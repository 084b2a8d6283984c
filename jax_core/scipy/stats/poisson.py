"""The poisson distribution, as ``jax.scipy.stats.poisson``."""

from jax_core._src.scipy.stats import poisson_cdf as cdf
from jax_core._src.scipy.stats import poisson_entropy as entropy
from jax_core._src.scipy.stats import poisson_logpmf as logpmf
from jax_core._src.scipy.stats import poisson_pmf as pmf

__all__ = ["logpmf", "pmf", "cdf", "entropy"]
