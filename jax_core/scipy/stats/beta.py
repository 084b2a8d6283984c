"""The beta distribution, as ``jax.scipy.stats.beta``."""

from jax_core._src.scipy.stats import beta_logpdf as logpdf
from jax_core._src.scipy.stats import beta_pdf as pdf

__all__ = ["logpdf", "pdf"]
