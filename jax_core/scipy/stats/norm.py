"""The norm distribution, as ``jax.scipy.stats.norm``."""

from jax_core._src.scipy.stats import norm_cdf as cdf
from jax_core._src.scipy.stats import norm_isf as isf
from jax_core._src.scipy.stats import norm_logcdf as logcdf
from jax_core._src.scipy.stats import norm_logpdf as logpdf
from jax_core._src.scipy.stats import norm_logsf as logsf
from jax_core._src.scipy.stats import norm_pdf as pdf
from jax_core._src.scipy.stats import norm_ppf as ppf
from jax_core._src.scipy.stats import norm_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
