"""Reading XLA ``HloSharding``s: ports of ``jax._src.op_shardings``.

Which slice of an array each device position holds under an ``HloSharding``, how
many ways each dimension is split, and equality up to replication. Used by
:mod:`jax_core._src.sharding.shardings` for ``devices_indices_map``, ``shard_shape`` and
sharding equivalence.
"""

from __future__ import annotations

import itertools
from types import ModuleType
from typing import Any, Final

from jax_core._src import lib as _lib
from jax_core._src.sharding.jaxlib_types import HloSharding, Index, Shape

_xc: ModuleType = getattr(_lib, "xla_client")  # noqa: B009  (typed as ModuleType on purpose)

__all__ = [
    "REPLICATED",
    "hlo_shardings_equal",
    "hlo_to_indices",
    "is_hlo_replicated",
    "num_ways_dim_sharded",
]

REPLICATED: Final[Any] = _xc.OpSharding.Type.REPLICATED
"""The ``OpSharding`` subgroup type of replicated tiles."""


def is_hlo_replicated(hlo: HloSharding) -> bool:
    """Whether every device holds the whole array (one device counts as replicated)."""
    return bool(hlo.num_devices() == 1 or hlo.is_replicated())


def hlo_shardings_equal(a: HloSharding, b: HloSharding) -> bool:
    """Equality of ``HloSharding``s, with all replicated ones equal."""
    if a is b or (is_hlo_replicated(a) and is_hlo_replicated(b)):
        return True
    return bool(a == b)


def num_ways_dim_sharded(hlo: HloSharding) -> tuple[list[int], int]:
    """(shards per array dimension, replicas of each shard) of an ``HloSharding``."""
    if hlo.is_manual():
        raise NotImplementedError(f"Manual shardings have no device indices: {hlo}")
    if hlo.is_replicated():
        return [], 1
    if hlo.is_unreduced():
        return [], 1
    partitions = [int(p) for p in hlo.tile_assignment_dimensions()]
    subgroup_types = list(hlo.subgroup_types())
    if subgroup_types == [REPLICATED] or hlo.replicate_on_last_tile_dim():
        return partitions[:-1], partitions[-1]
    if subgroup_types:
        raise NotImplementedError(f"Unhandled OpSharding type: {hlo}.")
    return partitions, 1


def hlo_to_indices(hlo: HloSharding, shape: Shape, num_devices: int) -> list[Index]:
    """The index each device position holds under ``hlo`` (positions, not device ids)."""
    full: Index = (slice(None),) * len(shape)
    if is_hlo_replicated(hlo):
        return [full] * num_devices
    partitions, num_replicas = num_ways_dim_sharded(hlo)
    if len(partitions) != len(shape):
        raise ValueError(
            f"Sharding {hlo} has rank {len(partitions)}, but the shape {shape} does not"
        )
    per_dim: list[list[slice]] = []
    for dim, n in zip(shape, partitions):
        if n == 1:
            per_dim.append([slice(None)])
        else:
            size = dim // n
            per_dim.append([slice(i * size, (i + 1) * size) for i in range(n)])
    out: list[Index] = [full] * num_devices
    positions = iter(int(d) for d in hlo.tile_assignment_devices())
    for idx in itertools.product(*per_dim):
        for _ in range(num_replicas):
            out[next(positions)] = idx
    return out
