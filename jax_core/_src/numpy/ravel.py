"""``ravel_pytree``: a pytree of arrays as one flat vector, and the function that undoes it.

The leaves are promoted to one dtype (JAX's lattice over the leaves' dtypes, so a
Python scalar leaf counts as its default dtype), flattened and concatenated. When
every leaf already has that dtype no conversion happens and the returned
``unravel`` accepts a vector of any dtype; otherwise ``unravel`` insists on the
promoted dtype and converts each piece back to its leaf's dtype (a complex vector
back to real leaves drops the imaginary part without a warning, as in JAX). An
empty tree ravels to a float32 vector of length 0.

The ``unravel`` functions compare equal (and hash alike) when built for the same
structure, so passing one as a static argument to ``jit`` does not recompile.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax.elementwise import conversions
from jax_core._src.lax.shape import assembly, compositions, dimensions
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jax_core._src.typing.basearray import Array

Sizes = tuple[int, ...]
Shapes = tuple[tuple[int, ...], ...]


class _StructuralPartial:
    """``functools.partial`` that is equal to another built from the same code and arguments."""

    __slots__ = ("args", "func")

    def __init__(self, func: Callable[..., Any], *args: Hashable) -> None:
        self.func = func
        self.args = args

    def __call__(self, arr: Array) -> Any:
        return self.func(*self.args, arr)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is _StructuralPartial
            and self.func.__code__ == other.func.__code__
            and self.args == other.args
        )

    def __hash__(self) -> int:
        return hash((self.func.__code__, self.args))

    def __repr__(self) -> str:
        return f"<unravel function {self.func.__name__}{self.args!r}>"


def ravel_pytree(pytree: Any) -> tuple[Array, Callable[[Array], Any]]:
    """Ravels a pytree of arrays and scalars into one 1-D array.

    Returns ``(flat, unravel)``: ``flat`` holds the leaves' values in tree order,
    promoted to their common dtype (float32 and empty for a tree without leaves);
    ``unravel(v)`` rebuilds a tree of the same structure, shapes and leaf dtypes from
    a vector ``v`` of the same length.
    """
    leaves, treedef = tree_flatten(pytree)
    flat, unravel_list = _ravel_list(leaves)
    return flat, _StructuralPartial(_unravel_pytree, treedef, unravel_list)


def _unravel_pytree(
    treedef: PyTreeDef, unravel_list: Callable[[Array], list[Any]], flat: Array
) -> Any:
    return tree_unflatten(treedef, unravel_list(flat))


def _no_leaves(_: Array) -> list[Any]:
    return []


def _ravel_list(leaves: list[Any]) -> tuple[Array, Callable[[Array], list[Any]]]:
    if not leaves:
        return compositions.full([0], 0, np.dtype("float32")), _no_leaves
    from_dtypes = tuple(dtypes.dtype(leaf, canonicalize=True) for leaf in leaves)
    to_dtype = dtypes.result_type(*from_dtypes)
    sizes = tuple(int(np.size(leaf)) for leaf in leaves)
    shapes = tuple(tuple(int(d) for d in np.shape(leaf)) for leaf in leaves)
    if all(dt == to_dtype for dt in from_dtypes):
        # No conversion: the unravel function then works for a vector of any dtype.
        pieces = [dimensions.reshape(leaf, (size,)) for leaf, size in zip(leaves, sizes)]
        return (
            assembly.concatenate(pieces, 0),
            _StructuralPartial(_unravel_same_dtype, sizes, shapes),
        )
    pieces = [
        dimensions.reshape(conversions.convert_element_type(leaf, to_dtype), (size,))
        for leaf, size in zip(leaves, sizes)
    ]
    return (
        assembly.concatenate(pieces, 0),
        _StructuralPartial(_unravel_converting, sizes, shapes, from_dtypes, to_dtype),
    )


def _unravel_same_dtype(sizes: Sizes, shapes: Shapes, arr: Array) -> list[Array]:
    chunks = compositions.split(arr, sizes)
    return [dimensions.reshape(chunk, shape) for chunk, shape in zip(chunks, shapes)]


def _unravel_converting(
    sizes: Sizes,
    shapes: Shapes,
    from_dtypes: tuple[np.dtype[Any], ...],
    to_dtype: np.dtype[Any],
    arr: Array,
) -> list[Array]:
    arr_dtype = dtypes.dtype(arr, canonicalize=True)
    if arr_dtype != to_dtype:
        raise TypeError(
            f"unravel function given array of dtype {arr_dtype}, but expected dtype {to_dtype}"
        )
    chunks = compositions.split(arr, sizes)
    return [
        conversions.convert_element_type(dimensions.reshape(chunk, shape), dtype)
        for chunk, shape, dtype in zip(chunks, shapes, from_dtypes)
    ]
