"""Shape compositions of lax (as JAX 0.12 has them): ``full``/``full_like``/``empty``,
``broadcast_shapes``, ``collapse``, ``tile``, ``split``, ``stack``/``unstack``, ``broadcast_like``.

Built from slices, broadcasts, reshapes and concatenations (JAX makes ``tile``, ``split``, ``stack`` and
``unstack`` primitives of their own), so they differentiate and batch through those primitives."""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax import elementwise as _lax
from jax_core._src.lax import standard_rules as _base
from jax_core._src.lax.indexing.slicing import index_in_dim, slice_in_dim
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array


# -- compositions ---------------------------------------------------------------------------------
def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """Broadcasts ``arr`` (NumPy-style, new leading dimensions) to the shape of ``like_arr``."""
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    aval = get_aval(arr)
    shape = get_aval(like_arr).shape
    nlead = len(shape) - len(aval.shape)
    if nlead < 0:
        raise ValueError(
            f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}"
        )
    if not all(a in (1, s) for a, s in zip(aval.shape, shape[nlead:])):
        name = aval.dtype.name
        have, want = ",".join(map(str, aval.shape)), ",".join(map(str, shape))
        raise ValueError(
            f"Incompatible types for broadcasting: input type={name}[{have}] and requested type={name}[{want}]"
        )
    return broadcast_in_dim(arr, shape, tuple(range(nlead, len(shape))))






# -- creation -----------------------------------------------------------------------------------
def full(shape: ShapeLike, fill_value: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    """An array of ``shape`` filled with the scalar ``fill_value`` (cast to ``dtype`` if given).

    Without ``dtype`` the result has ``fill_value``'s dtype and weak type (``full((2,), 3)``
    is a weakly typed int32 array). JAX's ``sharding`` keyword is not supported.
    """
    dims = shape_dims.canonicalize_shape(shape)
    if shape_dims.shape_of(fill_value):
        raise TypeError(
            f"full must be called with scalar fill_value, got fill_value.shape {shape_dims.shape_of(fill_value)}."
        )
    if dtype is None:
        weak = dtypes.is_weakly_typed(fill_value)
        fill_dtype = dtypes.dtype(fill_value, canonicalize=True)
    else:
        weak = False
        fill_dtype = dtypes.canonicalize_dtype(dtype)
    return shape_dims.broadcast(_lax.to_dtype(fill_value, fill_dtype, weak), dims)


def full_like(
    x: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
) -> Array:
    """An array like ``x`` (its shape and dtype, unless ``shape``/``dtype`` are given) filled
    with ``fill_value``; weakly typed when ``x`` is and ``dtype`` is ``None``.

    JAX's ``sharding`` argument is not supported.
    """
    fill_shape = shape_dims.shape_of(x) if shape is None else shape_dims.canonicalize_shape(shape)
    weak = dtype is None and dtypes.is_weakly_typed(x)
    dt = (
        dtypes.canonicalize_dtype(dtype)
        if dtype is not None
        else dtypes.dtype(x, canonicalize=True)
    )
    return full(fill_shape, _lax.to_dtype(fill_value, dt, weak))


def empty(shape: ShapeLike, dtype: DTypeLike) -> Array:
    """An array of ``shape`` and ``dtype`` whose values are unspecified (zeros here).

    JAX's ``out_sharding`` keyword is not supported.
    """
    return full(shape, 0, dtype)


# -- shapes -------------------------------------------------------------------------------------
def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to under NumPy's rules.

    Raises ``ValueError`` for incompatible shapes. One shape is returned as given.
    """
    if len(shapes) == 1:
        only: Any = shapes[0]
        return only  # type: ignore[no-any-return]  # JAX returns a single shape unchanged
    if not shapes:
        raise ValueError("broadcast_shapes requires at least one shape")
    tuples = [tuple(int(d) for d in s) for s in shapes]
    try:
        return _base.numpy_broadcast_shapes("broadcast_shapes", *tuples)
    except TypeError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={tuples}") from None


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """``operand`` with dimensions ``[start_dimension, stop_dimension)`` merged into one.

    ``stop_dimension=None`` collapses through the last dimension; negative values count from
    the end, as in a Python slice.
    """
    shape = shape_dims.shape_of(operand)
    lo, hi, _ = builtins.slice(start_dimension, stop_dimension).indices(len(shape))
    if hi < lo:
        raise ValueError(
            f"Invalid dimension range passed to collapse: {shape}[{start_dimension}:{stop_dimension}]"
        )
    new_shape = (*shape[:lo], math.prod(shape[lo:hi]), *shape[hi:])
    return shape_dims.reshape(operand, new_shape)


def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along each dimension ``i`` (``len(reps) == ndim``)."""
    shape = shape_dims.shape_of(operand)
    reps_t = tuple(int(r) for r in reps)
    if len(reps_t) != len(shape):
        raise TypeError(
            f"reps length must be equal to the ndim of x, got len(reps)={len(reps_t)} and x.ndim={len(shape)}."
        )
    if any(r < 0 for r in reps_t):
        raise ValueError(f"reps must be nonnegative, got {reps_t}")
    interleaved = tuple(d for pair in zip(reps_t, shape) for d in pair)
    dims = tuple(range(1, 2 * len(shape), 2))
    expanded = shape_dims.broadcast_in_dim(operand, interleaved, dims)
    return shape_dims.reshape(expanded, tuple(r * d for r, d in zip(reps_t, shape)))


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """``operand`` cut along ``axis`` into consecutive pieces of ``sizes`` (which must sum to
    the size of that axis)."""
    shape = shape_dims.shape_of(operand)
    axis = shape_dims.canonicalize_axis(axis, len(shape))
    sizes_t = [int(s) for s in sizes]
    if any(s < 0 for s in sizes_t):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {sizes_t}")
    if sum(sizes_t) != shape[axis]:
        raise ValueError(
            f"Sum of sizes {sum(sizes_t)} must be equal to dimension {axis} of the operand shape {list(shape)}"
        )
    starts = np.cumsum([0, *sizes_t]).tolist()
    return [slice_in_dim(operand, s, s + n, 1, axis) for s, n in zip(starts, sizes_t)]


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, each without that axis."""
    shape = shape_dims.shape_of(x)
    axis = shape_dims.canonicalize_axis(axis, len(shape))
    return tuple(index_in_dim(x, i, axis, keepdims=False) for i in range(shape[axis]))


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """``operands`` (same shape and dtype) joined along a new axis ``axis``."""
    arrays = [as_array(op) for op in operands]
    axis = shape_dims.canonicalize_axis(axis, arrays[0].ndim + 1)
    if any(a.shape != arrays[0].shape for a in arrays[1:]):
        got = ", ".join(str(a.shape) for a in arrays)
        raise ValueError(f"All input arrays must have the same shape. Got {got}.")
    if any(a.dtype != arrays[0].dtype for a in arrays[1:]):
        got = ", ".join(a.dtype.name for a in arrays)
        raise TypeError(f"lax.stack requires arguments to have the same dtypes, got {got}.")
    return shape_assembly.concatenate([shape_dims.expand_dims(a, (axis,)) for a in arrays], axis)


def as_array(x: ArrayLike) -> Array:
    """``x`` as a jax_core Array (Python scalars keep their weak type)."""
    out = _lax.to_dtype(x, None, dtypes.is_weakly_typed(x))
    return out if isinstance(out, Array) else shape_dims.broadcast(out, ())


