"""``jax_core.numpy.linalg`` (placeholder while the decompositions land)."""

from __future__ import annotations

from typing import Any

from jax_core._src.basearray import Array


def eigvals(a: Any) -> Array:
    """Eigenvalues of a general square matrix."""
    raise NotImplementedError("jnp.linalg.eigvals is not implemented yet")


def lstsq(a: Any, b: Any, rcond: Any = None, *, numpy_resid: bool = False) -> Any:
    """Least-squares solution of ``a @ x = b``."""
    raise NotImplementedError("jnp.linalg.lstsq is not implemented yet")
