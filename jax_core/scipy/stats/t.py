"""The t distribution, as ``jax.scipy.stats.t``."""

from jax_core._src.scipy.stats import t_logpdf as logpdf
from jax_core._src.scipy.stats import t_pdf as pdf

__all__ = ["logpdf", "pdf"]
