"""Sparse linear algebra, as ``jax.scipy.sparse``: the iterative solvers of ``linalg``."""

from jax_core.scipy.sparse import linalg as linalg
