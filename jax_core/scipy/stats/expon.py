"""The expon distribution, as ``jax.scipy.stats.expon``."""

from jax_core._src.scipy.stats import expon_cdf as cdf
from jax_core._src.scipy.stats import expon_logcdf as logcdf
from jax_core._src.scipy.stats import expon_logpdf as logpdf
from jax_core._src.scipy.stats import expon_logsf as logsf
from jax_core._src.scipy.stats import expon_pdf as pdf
from jax_core._src.scipy.stats import expon_ppf as ppf
from jax_core._src.scipy.stats import expon_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]
