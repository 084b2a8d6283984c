"""Optimization, as ``jax.scipy.optimize``: ``minimize`` (BFGS, experimental L-BFGS)."""

from jax_core._src.scipy.optimize.minimize import OptimizeResults as OptimizeResults
from jax_core._src.scipy.optimize.minimize import minimize as minimize
