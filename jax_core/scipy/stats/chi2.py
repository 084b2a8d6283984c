"""The chi2 distribution, as ``jax.scipy.stats.chi2``."""

from jax_core._src.scipy.stats import chi2_cdf as cdf
from jax_core._src.scipy.stats import chi2_logcdf as logcdf
from jax_core._src.scipy.stats import chi2_logpdf as logpdf
from jax_core._src.scipy.stats import chi2_logsf as logsf
from jax_core._src.scipy.stats import chi2_pdf as pdf
from jax_core._src.scipy.stats import chi2_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
