"""The geom distribution, as ``jax.scipy.stats.geom``."""

from jax_core._src.scipy.stats_discrete import geom_logpmf as logpmf
from jax_core._src.scipy.stats_discrete import geom_pmf as pmf

__all__ = ["logpmf", "pmf"]
