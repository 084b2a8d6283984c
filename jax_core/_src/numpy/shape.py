"""Shape manipulation: reshape, transpose, squeeze, expand_dims, concatenate, stack, broadcast_to."""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import canonical_shape
from jax_core._src.core.errors import InconclusiveDimensionOperation
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.trace import get_aval
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.standard_rules import numpy_broadcast_shapes as _broadcast_shapes
from jax_core._src.numpy.util import (
    canonicalize_axes,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    hashable,
    jitted,
    promote_dtypes,
)
from jax_core._src.typing import ArrayLike, ShapeLike, shape_entries
from jax_core._src.typing.basearray import Array


def reshape(a: ArrayLike, shape: ShapeLike, order: str = "C") -> Array:
    """``a`` with a new shape of the same size (one dimension may be -1). ``order="F"`` reads and
    writes the elements with the first index changing fastest (Fortran order)."""
    try:
        dims = (operator.index(shape),) if not isinstance(shape, Iterable) else tuple(_dim(d) for d in shape)
    except TypeError:  # traced or non-integer sizes: the body raises JAX's error for them
        return _reshape(a, shape, order)
    return _reshape_staged(a, dims, order)


def _dim(d: Any) -> Any:
    return d if is_symbolic_dim(d) else operator.index(d)


def _reshape(a: ArrayLike, shape: ShapeLike, order: str = "C") -> Array:
    check_arraylike("reshape", a)
    if order == "A":
        raise NotImplementedError("np.reshape order=A is not implemented.")
    if order not in ("C", "F"):
        raise ValueError(f"Unexpected value for 'order' argument: {order}.")
    arr = ensure_array(a)
    dims = list(shape_entries(shape))
    size = arr.size
    known = 1
    unknown = [i for i, d in enumerate(dims) if not isinstance(d, Array) and not is_symbolic_dim(d) and int(d) == -1]
    if len(unknown) > 1:
        raise TypeError(f"can only specify one unknown axis size with a `-1` value, got {tuple(dims)}")
    resolved = canonical_shape(tuple(1 if i in unknown else d for i, d in enumerate(dims)), "reshape")
    for d in resolved:
        known *= d
    if unknown and (is_symbolic_dim(size) or is_symbolic_dim(known)):
        # Shape polymorphism, as JAX: the size must divide evenly for every value of the dimensions.
        quotient, remainder = divmod(size, -known)
        if remainder != 0:
            raise InconclusiveDimensionOperation(
                f"Cannot divide evenly the sizes of shapes {arr.shape} and {tuple(dims)}. The remainder {remainder} should be 0."
            )
        resolved = tuple(-quotient if i in unknown else d for i, d in enumerate(resolved))
    elif unknown:
        if known == 0 or size % known:
            raise TypeError(
                f"cannot reshape array of shape {arr.shape} (size {size}) into shape {tuple(dims)} because "
                f"the product of specified axis sizes ({known}) does not evenly divide {size}"
            )
        resolved = tuple(size // known if i in unknown else d for i, d in enumerate(resolved))
    if math.prod(resolved) != size:
        raise TypeError(f"cannot reshape array of shape {arr.shape} (size {size}) into shape {tuple(dims)} (size {math.prod(resolved)})")
    if resolved == arr.shape:
        return arr
    if order == "F":  # Fortran order is C order of the reversed axes
        return transpose(shape_dims.reshape(transpose(arr), resolved[::-1]))
    return shape_dims.reshape(arr, resolved)


# An eager reshape is one cached executable (the body's checks run once per signature).
_reshape_staged = jitted(static=("shape", "order"))(_reshape)


@jitted(static=("order",), inline=True)
def ravel(a: ArrayLike, order: str = "C") -> Array:
    """``a`` flattened to one dimension (``order="F"``: first index fastest)."""
    return reshape(a, (-1,), order=order)


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> Array:
    """``a`` with its axes permuted (reversed by default)."""
    check_arraylike("transpose", a)
    arr = ensure_array(a)
    perm = tuple(reversed(range(arr.ndim))) if axes is None else tuple(canonicalize_axis(int(i), arr.ndim) for i in axes)
    if sorted(perm) != list(range(arr.ndim)):
        raise TypeError(f"transpose permutation isn't a permutation of operand dimensions, got permutation {perm} for operand shape {arr.shape}.")
    if perm == tuple(range(arr.ndim)):
        return arr
    return shape_dims.transpose(arr, perm)


@jitted(static=("axis1", "axis2"))
def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Array:
    """``a`` with two axes swapped."""
    check_arraylike("swapaxes", a)
    arr = ensure_array(a)
    # As JAX: NumPy indexing of the permutation raises IndexError for an axis out of range.
    perm = np.arange(arr.ndim)
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return transpose(arr, [int(p) for p in perm])


def squeeze(a: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    """``a`` without size-1 dimensions (all of them, or those in ``axis``)."""
    key: Any = axis
    if axis is not None and not isinstance(axis, (int, np.integer)):
        key = tuple(axis)
    return _squeeze(a, key) if hashable(key) else _squeeze_body(a, axis)


def _squeeze_body(a: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    arr = ensure_array(a)
    if axis is None:
        dims = tuple(i for i, d in enumerate(arr.shape) if d == 1)
    else:
        dims = canonicalize_axes(axis, arr.ndim)
        for d in dims:
            if arr.shape[d] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, got shape={arr.shape} and dimensions={dims}")
    return shape_dims.squeeze(arr, dims) if dims else arr


_squeeze_body.__name__ = _squeeze_body.__qualname__ = "_squeeze"
_squeeze = jitted(static=("axis",))(_squeeze_body)


def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> Array:
    """``a`` with new size-1 dimensions at ``axis``."""
    arr = ensure_array(a)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return shape_dims.expand_dims(arr, canonicalize_axes(axes, arr.ndim + len(axes)))


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape ``shapes`` broadcast to (NumPy rules)."""
    try:
        return _broadcast_shapes("broadcast_shapes", *(tuple(s) for s in shapes))
    except TypeError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={[tuple(s) for s in shapes]}") from None


def broadcast_to(a: ArrayLike, shape: ShapeLike) -> Array:
    """``a`` broadcast to ``shape`` (NumPy rules)."""
    check_arraylike("broadcast_to", a)
    arr = ensure_array(a)
    dims = canonical_shape(shape, "broadcast_to")
    if arr.shape == dims:
        return arr
    if len(dims) < arr.ndim or any(s not in (1, d) for s, d in zip(arr.shape, dims[len(dims) - arr.ndim:])):
        raise ValueError(
            f"Incompatible types for broadcasting: input type={arr.dtype.name}[{','.join(map(str, arr.shape))}] "
            f"and requested type={arr.dtype.name}[{','.join(map(str, dims))}]"
        )
    lead = len(dims) - arr.ndim
    # One broadcast_in_dim, as JAX's (size-1 operand dimensions stretch to the output's).
    return shape_dims.broadcast_in_dim(arr, dims, tuple(range(lead, len(dims))))


def concatenate(arrays: Sequence[ArrayLike], axis: int | None = 0) -> Array:
    """Joins arrays along an existing axis."""
    if not arrays:
        raise ValueError("Need at least one array to concatenate.")
    check_arraylike("concatenate", *arrays)
    arrs = [ensure_array(a) for a in promote_dtypes(*arrays)]
    if axis is None:
        arrs = [ravel(a) for a in arrs]
        axis = 0
    if arrs[0].ndim == 0:  # a later 0-d array is lax.concatenate's rank error, as in JAX
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    ax = canonicalize_axis(axis, arrs[0].ndim)
    return arrs[0] if len(arrs) == 1 else shape_assembly.concatenate(arrs, ax)


def stack(arrays: Sequence[ArrayLike], axis: int = 0) -> Array:
    """Joins arrays along a new axis."""
    return _stack(arrays, axis) if isinstance(arrays, (list, tuple)) and hashable(axis) else _stack_body(arrays, axis)


def _stack_body(arrays: Sequence[ArrayLike], axis: int = 0) -> Array:
    if isinstance(arrays, (Array, np.ndarray)):  # stacking the slices along the first axis
        arr = ensure_array(arrays)
        return shape_dims.transpose(arr, _move_first_to(canonicalize_axis(axis, arr.ndim), arr.ndim))
    if not arrays:
        raise ValueError("Need at least one array to stack.")
    check_arraylike("stack", *arrays)
    arrs = [ensure_array(a) for a in arrays]
    shapes = {a.shape for a in arrs}
    if len(shapes) != 1:
        raise ValueError(f"All input arrays must have the same shape. Got {', '.join(str(a.shape) for a in arrs)}.")
    ax = canonicalize_axis(axis, arrs[0].ndim + 1)
    return concatenate([expand_dims(a, ax) for a in arrs], ax)


_stack = jitted(static=("axis",))(_stack_body)


def _move_first_to(axis: int, ndim: int) -> tuple[int, ...]:
    perm = list(range(1, ndim))
    perm.insert(axis, 0)
    return tuple(perm)


def shape(a: ArrayLike) -> tuple[int, ...]:
    """The shape of an array-like."""
    return get_aval(a).shape


def ndim(a: ArrayLike) -> int:
    """The number of dimensions of an array-like."""
    return len(get_aval(a).shape)


def size(a: ArrayLike, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements of an array-like, or along the given axis or axes."""
    dims = get_aval(a).shape
    if axis is None:
        return math.prod(dims)
    axes = (axis,) if isinstance(axis, int) else axis
    return math.prod(dims[canonicalize_axis(ax, len(dims))] for ax in axes)


