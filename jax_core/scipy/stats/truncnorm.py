"""The truncnorm distribution, as ``jax.scipy.stats.truncnorm``."""

from jax_core._src.scipy.stats_continuous import truncnorm_cdf as cdf
from jax_core._src.scipy.stats_continuous import truncnorm_logcdf as logcdf
from jax_core._src.scipy.stats_continuous import truncnorm_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import truncnorm_logsf as logsf
from jax_core._src.scipy.stats_continuous import truncnorm_pdf as pdf
from jax_core._src.scipy.stats_continuous import truncnorm_sf as sf

__all__ = ["logpdf", "pdf", "logcdf", "cdf", "logsf", "sf"]
