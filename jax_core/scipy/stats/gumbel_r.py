"""The gumbel_r distribution, as ``jax.scipy.stats.gumbel_r``."""

from jax_core._src.scipy.stats_continuous import gumbel_r_cdf as cdf
from jax_core._src.scipy.stats_continuous import gumbel_r_logcdf as logcdf
from jax_core._src.scipy.stats_continuous import gumbel_r_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import gumbel_r_logsf as logsf
from jax_core._src.scipy.stats_continuous import gumbel_r_pdf as pdf
from jax_core._src.scipy.stats_continuous import gumbel_r_ppf as ppf
from jax_core._src.scipy.stats_continuous import gumbel_r_sf as sf

__all__ = ["logpdf", "pdf", "logcdf", "cdf", "ppf", "sf", "logsf"]
