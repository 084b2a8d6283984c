"""The type aliases of jax_core's public API: the one place they are defined.

Inputs are typed loosely (``ArrayLike``, ``DTypeLike``, ``ShapeLike``) and outputs
strictly (``Array``, ``np.dtype``, ``tuple[int, ...]``), as JEP 12049 proposes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy as np

from jax_core._src.basearray import Array as Array

DType: TypeAlias = np.dtype[Any]
"""A concrete dtype object, as every jax_core function returns."""

Shape: TypeAlias = tuple[int, ...]
"""A concrete shape, as every jax_core function returns."""

DimSize: TypeAlias = int
"""One dimension of a shape."""

ShapeLike: TypeAlias = int | Sequence[int]
"""What shape parameters accept: an int or a sequence of ints."""


@runtime_checkable
class SupportsDType(Protocol):
    """Any object with a ``dtype`` attribute (numpy scalar types, ``ShapeDtypeStruct``)."""

    @property
    def dtype(self) -> DType:
        """The object's dtype."""
        ...


DTypeLike: TypeAlias = str | type[Any] | np.dtype[Any] | SupportsDType
"""What dtype parameters accept: dtype objects, scalar types, Python types or names."""


@runtime_checkable
class SupportsJaxArray(Protocol):
    """An object that converts itself to an array through ``__jax_array__``."""

    def __jax_array__(self) -> Array:
        """The object as a jax_core array."""
        ...


ArrayLike: TypeAlias = (
    Array
    | np.ndarray[Any, Any]
    | np.bool_
    | np.number[Any]
    | bool
    | int
    | float
    | complex
    | SupportsJaxArray
)
"""What array parameters accept. Lists, tuples, strings and None are rejected, as in JAX."""
