"""The dirichlet distribution, as ``jax.scipy.stats.dirichlet``."""

from jax_core._src.scipy.stats_continuous import dirichlet_logpdf as logpdf
from jax_core._src.scipy.stats_continuous import dirichlet_pdf as pdf

__all__ = ["logpdf", "pdf"]
