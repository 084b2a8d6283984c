"""The logistic distribution, as ``jax.scipy.stats.logistic``."""

from jax_core._src.scipy.stats import logistic_cdf as cdf
from jax_core._src.scipy.stats import logistic_isf as isf
from jax_core._src.scipy.stats import logistic_logpdf as logpdf
from jax_core._src.scipy.stats import logistic_pdf as pdf
from jax_core._src.scipy.stats import logistic_ppf as ppf
from jax_core._src.scipy.stats import logistic_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "sf", "ppf", "isf"]
