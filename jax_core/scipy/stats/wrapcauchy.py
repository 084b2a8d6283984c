"""The wrapcauchy distribution, as ``jax.scipy.stats.wrapcauchy``."""

from jax_core._src.scipy.stats_continuous import wrapcauchy_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import wrapcauchy_pdf as pdf

__all__ = ["logpdf", "pdf"]
