"""The uniform distribution, as ``jax.scipy.stats.uniform``."""

from jax_core._src.scipy.stats import uniform_cdf as cdf
from jax_core._src.scipy.stats import uniform_logpdf as logpdf
from jax_core._src.scipy.stats import uniform_pdf as pdf
from jax_core._src.scipy.stats import uniform_ppf as ppf

__all__ = ["logpdf", "pdf", "cdf", "ppf"]
