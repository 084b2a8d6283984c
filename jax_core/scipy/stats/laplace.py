"""The laplace distribution, as ``jax.scipy.stats.laplace``."""

from jax_core._src.scipy.stats import laplace_cdf as cdf
from jax_core._src.scipy.stats import laplace_logpdf as logpdf
from jax_core._src.scipy.stats import laplace_pdf as pdf

__all__ = ["logpdf", "pdf", "cdf"]
