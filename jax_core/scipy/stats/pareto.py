"""The pareto distribution, as ``jax.scipy.stats.pareto``."""

from jax_core._src.scipy.stats_continuous import pareto_cdf as cdf
from jax_core._src.scipy.stats_continuous import pareto_logcdf as logcdf
from jax_core._src.scipy.stats_continuous import pareto_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import pareto_logsf as logsf
from jax_core._src.scipy.stats_continuous import pareto_pdf as pdf
from jax_core._src.scipy.stats_continuous import pareto_ppf as ppf
from jax_core._src.scipy.stats_continuous import pareto_sf as sf

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "logsf", "sf", "ppf"]
