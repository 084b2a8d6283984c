"""The gamma distribution, as ``jax.scipy.stats.gamma``."""

from jax_core._src.scipy.stats import gamma_logpdf as logpdf
from jax_core._src.scipy.stats import gamma_pdf as pdf

__all__ = ["logpdf", "pdf"]
