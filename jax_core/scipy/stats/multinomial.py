"""The multinomial distribution, as ``jax.scipy.stats.multinomial``."""

from jax_core._src.scipy.stats_discrete import multinomial_logpmf as logpmf
from jax_core._src.scipy.stats_discrete import multinomial_pmf as pmf

__all__ = ["logpmf", "pmf"]
