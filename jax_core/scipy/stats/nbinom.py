"""The nbinom distribution, as ``jax.scipy.stats.nbinom``."""

from jax_core._src.scipy.stats_discrete import nbinom_logpmf as logpmf
from jax_core._src.scipy.stats_discrete import nbinom_pmf as pmf

__all__ = ["logpmf", "pmf"]
