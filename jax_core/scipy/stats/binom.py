"""The binom distribution, as ``jax.scipy.stats.binom``."""

from jax_core._src.scipy.stats_discrete import binom_logpmf as logpmf
from jax_core._src.scipy.stats_discrete import binom_pmf as pmf

__all__ = ["logpmf", "pmf"]
