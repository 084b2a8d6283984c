"""The gamma distribution, as ``jax.scipy.stats.gamma``."""

from jax_core._src.scipy.stats import gamma_cdf as cdf
from jax_core._src.scipy.stats import gamma_logcdf as logcdf
from jax_core._src.scipy.stats import gamma_logpdf as logpdf
from jax_core._src.scipy.stats import gamma_logsf as logsf
from jax_core._src.scipy.stats import gamma_pdf as pdf
from jax_core._src.scipy.stats import gamma_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
