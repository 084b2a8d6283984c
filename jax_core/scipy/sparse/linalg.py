"""Iterative linear solvers, as ``jax.scipy.sparse.linalg``: ``cg``, ``bicgstab``, ``gmres``."""

from jax_core._src.scipy.sparse_linalg import bicgstab as bicgstab
from jax_core._src.scipy.sparse_linalg import cg as cg
from jax_core._src.scipy.sparse_linalg import gmres as gmres
