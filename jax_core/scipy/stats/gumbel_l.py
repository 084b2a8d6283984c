"""The gumbel_l distribution, as ``jax.scipy.stats.gumbel_l``."""

from jax_core._src.scipy.stats_continuous import gumbel_l_cdf as cdf
from jax_core._src.scipy.stats_continuous import gumbel_l_logcdf as logcdf
from jax_core._src.scipy.stats_continuous import gumbel_l_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import gumbel_l_logsf as logsf
from jax_core._src.scipy.stats_continuous import gumbel_l_pdf as pdf
from jax_core._src.scipy.stats_continuous import gumbel_l_ppf as ppf
from jax_core._src.scipy.stats_continuous import gumbel_l_sf as sf

__all__ = ["logpdf", "pdf", "logcdf", "cdf", "ppf", "sf", "logsf"]
