"""The betabinom distribution, as ``jax.scipy.stats.betabinom``."""

from jax_core._src.scipy.stats_discrete import betabinom_logpmf as logpmf
from jax_core._src.scipy.stats_discrete import betabinom_pmf as pmf

__all__ = ["logpmf", "pmf"]
