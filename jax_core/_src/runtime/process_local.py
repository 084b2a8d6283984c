"""``jax.make_array_from_process_local_data``: a global array from the block of data each process
holds (its sub-batch, say), in a multi-process run.

Along each dimension a process holds either the whole extent or the blocks its devices hold,
packed together in order. The global shape is inferred where the sharding is *process uniform*
along a dimension: every process holds the same number of blocks, and two processes hold either
the same blocks or disjoint ones.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, cast, overload

import numpy as np

from jax_core._src.backend import client
from jax_core._src.runtime.assembly import make_array_from_callback
from jax_core._src.runtime.environment import process_count
from jax_core._src.runtime.transfer import device_put
from jax_core._src.sharding.jaxlib_types import Index
from jax_core._src.sharding.shardings import Sharding, devices_indices_map, from_cpp_sharding
from jax_core._src.tree.tree_util import broadcast_prefix, tree_flatten, tree_unflatten
from jax_core._src.typing.basearray import Array

__all__ = ["local_to_global_shape", "make_array_from_process_local_data", "num_addressable_indices"]


def _start(s: slice) -> int:
    return 0 if s.start is None else int(s.start)


def _starts_by_process(sharding: Sharding, dim: int, global_shape: tuple[int, ...]) -> dict[int, frozenset[int]]:
    """For each process, the starts (along ``dim``) of the blocks its devices hold."""
    out: dict[int, set[int]] = {}
    for device, index in devices_indices_map(sharding, global_shape).items():
        out.setdefault(device.process_index, set()).add(_start(index[dim]))
    return {p: frozenset(s) for p, s in out.items()}


def local_to_global_shape(sharding: Sharding, local_shape: Sequence[int]) -> tuple[int | None, ...]:
    """The global shape whose process-local part is ``local_shape``; ``None`` along a dimension
    where the sharding is not process uniform (the global size cannot be inferred there)."""
    n = len(sharding.device_set)
    # A probe shape with ``n`` indices per dimension: every dimension's number of blocks divides n.
    probe = (n,) * len(local_shape)
    block = sharding.shard_shape(probe)
    me = client.backend().process_index()
    out: list[int | None] = []
    for dim, size in enumerate(local_shape):
        starts = _starts_by_process(sharding, dim, probe)
        sets = set(starts.values())
        counts = {len(s) for s in sets}
        disjoint = sum(len(s) for s in sets) == len(frozenset[int]().union(*sets))
        if len(counts) != 1 or not disjoint:
            out.append(None)
            continue
        mine = len(starts[me]) * block[dim]
        # This process holds ``mine`` of the probe's n indices; the global size scales alike.
        out.append(size * n // mine if (size * n) % mine == 0 else None)
    return tuple(out)


def num_addressable_indices(sharding: Sharding, dim: int, global_shape: Sequence[int]) -> int:
    """How many indices along ``dim`` this process's devices hold (of ``global_shape``)."""
    shape = tuple(global_shape)
    index_map = sharding.addressable_devices_indices_map(shape)
    unique = {(i[dim].start, i[dim].stop, i[dim].step) for i in index_map.values()}
    return sharding.shard_shape(shape)[dim] * len(unique)


def _from_local_block(local: np.ndarray[Any, Any], sharding: Sharding, global_shape: tuple[int, ...] | None) -> Array:
    local_shape = local.shape
    if global_shape is None:
        inferred = local_to_global_shape(sharding, local_shape)
        if None in inferred:
            raise ValueError(
                "Unable to compute global_shape due to non-uniform sharding. Specify global shape "
                f"directly. Partially computed global_shape={inferred}."
            )
        global_shape = tuple(operator.index(d) for d in inferred if d is not None)
    elif None in cast(tuple[int | None, ...], global_shape):
        raise ValueError(f"global_shape={global_shape} has Nones. This is not supported.")
    if len(global_shape) != len(local_shape):
        raise ValueError(
            f"global_shape={global_shape} and the process data's shape {local_shape} must have the same rank."
        )
    for dim, (have, full) in enumerate(zip(local_shape, global_shape, strict=True)):
        if have != full:
            held = num_addressable_indices(sharding, dim, global_shape)
            if held != have:
                raise ValueError(
                    "Invalid host data, each dimension should match either global or process shape. "
                    f"In dimension {dim}, the process data has {have} elements. Process addresses "
                    f"{held} elements and global_shape={global_shape}."
                )
    index_map = sharding.addressable_devices_indices_map(global_shape)
    block = sharding.shard_shape(global_shape)
    starts = [sorted({_start(i[d]) for i in index_map.values()}) for d in range(len(global_shape))]

    def block_of(index: Index) -> np.ndarray[Any, Any]:
        local_index: list[slice] = []
        for d, s in enumerate(index):
            if local_shape[d] == global_shape[d]:
                local_index.append(s)
            else:
                at = starts[d].index(_start(s)) * block[d]
                local_index.append(slice(at, at + block[d]))
        return local[tuple(local_index)]

    return make_array_from_callback(global_shape, sharding, block_of)


@overload
def make_array_from_process_local_data(
    sharding: Sharding, local_data: np.ndarray[Any, Any] | Array, global_shape: Sequence[int] | None = None
) -> Array: ...
@overload
def make_array_from_process_local_data(sharding: Any, local_data: Any, global_shape: Any = None) -> Any: ...
def make_array_from_process_local_data(sharding: Any, local_data: Any, global_shape: Any = None) -> Any:
    """A global array from the data this process holds (``jax.make_array_from_process_local_data``).

    Args:
      sharding: the global array's ``Sharding`` (or a pytree prefix of ``local_data`` of them).
      local_data: this process's data (NumPy arrays, a pytree of them). Along each dimension it
        holds either the whole global extent or the blocks of this process's devices, in order.
      global_shape: the global shape (or a pytree of them); inferred when ``None`` where the
        sharding is process uniform.

    Returns:
      A ``jax_core.Array`` (or a pytree of them) with ``sharding`` as its sharding.

    Raises:
      ValueError: the data's shape fits neither the global shape nor the process's part of it,
        or the global shape cannot be inferred (JAX's messages).
    """
    leaves, treedef = tree_flatten(local_data)
    shardings = broadcast_prefix(sharding, local_data)
    shapes = broadcast_prefix(global_shape, local_data, is_leaf=lambda x: x is None or isinstance(x, tuple))
    if process_count() == 1:
        for shape, leaf in zip(shapes, leaves, strict=True):
            if shape is not None and tuple(shape) != np.shape(leaf):
                raise ValueError(
                    "When calling `make_array_from_process_local_data` on a single process, global_shape "
                    f"should be None or equal to local_data.shape.Got global_shape={shape} and "
                    f"local_data.shape={np.shape(leaf)}."
                )
        return device_put(local_data, sharding)
    out = [
        _from_local_block(np.asarray(leaf), from_cpp_sharding(s), None if shape is None else tuple(shape))
        for leaf, s, shape in zip(leaves, shardings, shapes, strict=True)
    ]
    return tree_unflatten(treedef, out)
