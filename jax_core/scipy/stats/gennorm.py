"""The gennorm distribution, as ``jax.scipy.stats.gennorm``."""

from jax_core._src.scipy.stats_continuous import gennorm_cdf as cdf
from jax_core._src.scipy.stats_continuous import gennorm_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import gennorm_pdf as pdf

__all__ = ["logpdf", "pdf", "cdf"]
