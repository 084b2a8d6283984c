"""The multivariate_normal distribution, as ``jax.scipy.stats.multivariate_normal``."""

from jax_core._src.scipy.stats import multivariate_normal_logpdf as logpdf
from jax_core._src.scipy.stats import multivariate_normal_pdf as pdf

__all__ = ["logpdf", "pdf"]
