"""``jax.ops``' segment reductions: ``segment_sum``, ``segment_prod``, ``segment_max``,
``segment_min``.

Each one is a scatter of ``data`` into an array of ``num_segments`` rows filled with the
reduction's identity, as JAX builds it: the rows are indexed by ``segment_ids`` (int32 indices,
not normalized, so a negative id is out of range), and out-of-range ids are dropped unless
``mode`` says otherwise. With ``bucket_size`` the scatter goes into one such array per bucket of
consecutive ids, reduced afterwards (smaller partial sums or products). Differentiation and
batching come from the scatter primitives.
"""

from __future__ import annotations

import operator
from typing import Any, Protocol, SupportsIndex, cast

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.lax.elementwise.conversions import convert_element_type
from jax_core._src.lax.indexing.dimension_numbers import GatherScatterMode, ScatterDimensionNumbers
from jax_core._src.lax.indexing.scatter import scatter_add, scatter_max, scatter_min, scatter_mul
from jax_core._src.lax.shape.dimensions import broadcast_in_dim
from jax_core._src.numpy.util import check_arraylike
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_sum"]

_INT32_MAX = int(np.iinfo(np.int32).max)


class _Scatter(Protocol):
    def __call__(
        self,
        operand: ArrayLike,
        scatter_indices: ArrayLike,
        updates: ArrayLike,
        dimension_numbers: ScatterDimensionNumbers,
        *,
        indices_are_sorted: bool = ...,
        unique_indices: bool = ...,
        mode: str | GatherScatterMode | None = ...,
    ) -> Array: ...


class _Reducer(Protocol):
    def __call__(self, a: ArrayLike, axis: int) -> Array: ...


def _identity(scatter_op: _Scatter, dtype: np.dtype[Any]) -> bool | int | float:
    """The value an empty segment holds: the reduction's identity in ``dtype``."""
    if scatter_op is scatter_add:
        return 0
    if scatter_op is scatter_mul:
        return 1
    if scatter_op is scatter_min:
        if dtype == np.bool_:
            return True
        return int(np.iinfo(dtype).max) if dtypes.issubdtype(dtype, np.integer) else float("inf")
    if dtype == np.bool_:
        return False
    return int(np.iinfo(dtype).min) if dtypes.issubdtype(dtype, np.integer) else -float("inf")


def _num_segments(num_segments: int | None, segment_ids: Array) -> int:
    """``num_segments`` as a static int (``max(segment_ids) + 1`` when it is ``None``)."""
    context = "segment_sum() `num_segments` argument."  # JAX names segment_sum for all four
    value: object = num_segments
    if num_segments is None:
        if isinstance(segment_ids, Tracer):
            segment_ids.concretization_error(context)
        value = jnp.max(segment_ids) + 1
    if isinstance(value, Tracer):
        value.concretization_error(context)
    if isinstance(value, Array):
        host: np.ndarray[Any, np.dtype[Any]] = np.asarray(value)
        if not dtypes.issubdtype(host.dtype, np.integer):
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        count = int(host)
    elif isinstance(value, (float, np.floating)):
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
    else:
        count = operator.index(cast(SupportsIndex, value))
    if count < 0:
        raise ValueError("num_segments must be non-negative.")
    return count


def _index_dtype(shape: tuple[int, ...]) -> np.dtype[Any]:
    """int32 positions, unless a dimension needs more (then the widest index type), as JAX's."""
    return np.dtype(np.int32) if all(d <= _INT32_MAX for d in shape) else dtypes.default_int_dtype()


def _as_index(ids: Array, dtype: np.dtype[Any]) -> Array:
    if not dtypes.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {ids.dtype}")
    return ids if ids.dtype == dtype else convert_element_type(ids, dtype)


def _scatter_update(
    scatter_op: _Scatter,
    out: Array,
    ids: list[Array],
    data: Array,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
) -> Array:
    """``data`` scattered into ``out`` at ``ids``, as JAX's ``_scatter_update`` with unnormalized
    indices: one index array (all of one shape, the batch) per leading axis of ``out``, and
    ``data`` broadcast to the batch's shape followed by ``out``'s remaining dimensions. Nothing to
    scatter (an empty batch or row) leaves ``out`` as it is."""
    batch, k = ids[0].shape, len(ids)
    tail = out.shape[k:]
    if 0 in (*batch, *tail):
        return out
    idx_dtype = _index_dtype(out.shape)
    parts = [broadcast_in_dim(_as_index(i, idx_dtype), (*batch, 1), tuple(range(len(batch)))) for i in ids]
    index = parts[0] if k == 1 else jnp.concatenate(parts, axis=len(batch))
    updates = jnp.broadcast_to(data, (*batch, *tail))
    dnums = ScatterDimensionNumbers(
        update_window_dims=tuple(range(len(batch), len(batch) + len(tail))),
        inserted_window_dims=tuple(range(k)),
        scatter_dims_to_operand_dims=tuple(range(k)),
    )
    return scatter_op(out, index, updates, dnums, indices_are_sorted=indices_are_sorted,
                      unique_indices=unique_indices, mode=mode)  # fmt: skip


def _segment_update(
    name: str,
    data: ArrayLike,
    segment_ids: ArrayLike,
    scatter_op: _Scatter,
    num_segments: int | None,
    indices_are_sorted: bool,
    unique_indices: bool,
    bucket_size: int | None,
    reducer: _Reducer,
    mode: GatherScatterMode | str | None,
    out_sharding: NamedSharding | PartitionSpec | None,
) -> Array:
    check_arraylike(name, data, segment_ids)
    if out_sharding is not None:
        raise NotImplementedError(
            f"{name}(out_sharding=...) is not supported by jax_core (one CPU device, no explicit "
            "mesh axes); leave out_sharding=None."
        )
    scatter_mode = GatherScatterMode.from_any(GatherScatterMode.FILL_OR_DROP if mode is None else mode)
    data_arr = jnp.asarray(data)
    ids = jnp.asarray(segment_ids)
    dtype = data_arr.dtype
    count = _num_segments(num_segments, ids)
    identity = _identity(scatter_op, dtype)
    tail = data_arr.shape[1:]
    if bucket_size is None:
        out = jnp.full((count, *tail), identity, dtype=dtype)
        return _scatter_update(scatter_op, out, [ids], data_arr, indices_are_sorted, unique_indices, scatter_mode)
    # One partial result per bucket of ``bucket_size`` consecutive ids, reduced afterwards.
    num_buckets = -(-ids.size // bucket_size)
    out = jnp.full((num_buckets, count, *tail), identity, dtype=dtype)
    shape = (1, ids.shape[0])
    if 0 not in (*shape, *tail):  # (before broadcasting ids: empty ids of any rank give identities)
        buckets = broadcast_in_dim(jnp.arange(ids.shape[0]) // bucket_size, shape, (1,))
        segs = broadcast_in_dim(ids, shape, (1,))
        out = _scatter_update(scatter_op, out, [buckets, segs], data_arr, indices_are_sorted, unique_indices, scatter_mode)
    return reducer(out, axis=0).astype(dtype)


def segment_sum(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: NamedSharding | PartitionSpec | None = None,
) -> Array:
    """The sum of ``data`` (along its leading axis) within each segment of ``segment_ids``.

    The result has shape ``(num_segments,) + data.shape[1:]``; ``num_segments`` defaults to
    ``max(segment_ids) + 1`` (pass it statically under ``jit``). Ids outside
    ``[0, num_segments)`` are dropped by default (``mode``: a ``lax.GatherScatterMode``);
    ``bucket_size`` sums buckets of that many ids separately first, for accuracy.

    Example::

        segment_sum(jnp.arange(5), jnp.array([0, 0, 1, 1, 2]))   # [1, 5, 4]
    """
    return _segment_update("segment_sum", data, segment_ids, scatter_add, num_segments,
                           indices_are_sorted, unique_indices, bucket_size, jnp.sum, mode,
                           out_sharding)  # fmt: skip


def segment_prod(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: NamedSharding | PartitionSpec | None = None,
) -> Array:
    """The product of ``data`` within each segment (an empty segment is 1); see ``segment_sum``.

    Its gradient needs ``unique_indices=True`` (as in JAX).

    Example::

        segment_prod(jnp.arange(6), jnp.array([0, 0, 1, 1, 2, 2]))   # [0, 6, 20]
    """
    return _segment_update("segment_prod", data, segment_ids, scatter_mul, num_segments,
                           indices_are_sorted, unique_indices, bucket_size, jnp.prod, mode,
                           out_sharding)  # fmt: skip


def segment_max(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: NamedSharding | PartitionSpec | None = None,
) -> Array:
    """The maximum of ``data`` within each segment (an empty segment holds ``-inf``, the
    integer minimum, or ``False``); see ``segment_sum``.

    Example::

        segment_max(jnp.arange(6), jnp.array([0, 0, 1, 1, 2, 2]))   # [1, 3, 5]
    """
    return _segment_update("segment_max", data, segment_ids, scatter_max, num_segments,
                           indices_are_sorted, unique_indices, bucket_size, jnp.max, mode,
                           out_sharding)  # fmt: skip


def segment_min(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: int | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: int | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: NamedSharding | PartitionSpec | None = None,
) -> Array:
    """The minimum of ``data`` within each segment (an empty segment holds ``inf``, the
    integer maximum, or ``True``); see ``segment_sum``.

    Example::

        segment_min(jnp.arange(6), jnp.array([0, 0, 1, 1, 2, 2]))   # [0, 2, 4]
    """
    return _segment_update("segment_min", data, segment_ids, scatter_min, num_segments,
                           indices_are_sorted, unique_indices, bucket_size, jnp.min, mode,
                           out_sharding)  # fmt: skip
