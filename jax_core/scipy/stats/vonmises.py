"""The vonmises distribution, as ``jax.scipy.stats.vonmises``."""

from jax_core._src.scipy.stats_continuous import vonmises_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import vonmises_pdf as pdf

__all__ = ["logpdf", "pdf"]
