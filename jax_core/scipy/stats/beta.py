"""The beta distribution, as ``jax.scipy.stats.beta``."""

from jax_core._src.scipy.stats import beta_cdf as cdf
from jax_core._src.scipy.stats import beta_logcdf as logcdf
from jax_core._src.scipy.stats import beta_logpdf as logpdf
from jax_core._src.scipy.stats import beta_logsf as logsf
from jax_core._src.scipy.stats import beta_pdf as pdf
from jax_core._src.scipy.stats import beta_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
