"""The cauchy distribution, as ``jax.scipy.stats.cauchy``."""

from jax_core._src.scipy.stats_continuous import cauchy_cdf as cdf
from jax_core._src.scipy.stats_continuous import cauchy_isf as isf
from jax_core._src.scipy.stats_continuous import cauchy_logcdf as logcdf
from jax_core._src.scipy.stats_continuous import cauchy_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import cauchy_logsf as logsf
from jax_core._src.scipy.stats_continuous import cauchy_pdf as pdf
from jax_core._src.scipy.stats_continuous import cauchy_ppf as ppf
from jax_core._src.scipy.stats_continuous import cauchy_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
