"""Collectives over the processes of a run, on host values: ``process_allgather``,
``broadcast_one_to_all``, ``sync_global_devices``, ``assert_equal`` and
``reached_preemption_sync_point`` (``jax.experimental.multihost_utils``).

Each process contributes one block per leaf, which becomes row ``process_index`` of a global
array over a ``(processes, local_devices)`` mesh of every device; one ``jit`` then replicates
(gather) or sums (broadcast: the other processes contribute zeros) it across processes, and the
result is read back from this process's first device as NumPy. On one process no computation
runs: the values come back as NumPy arrays.
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

import numpy as np

from jax_core._src import lib as _lib
from jax_core._src.backend import client
from jax_core._src.distributed import state as distributed
from jax_core._src.lax.reductions.reduce import reduce_or, reduce_sum
from jax_core._src.multihost.conversion import host_local_array_to_global_array
from jax_core._src.runtime.array import ArrayImpl, device_put_host
from jax_core._src.runtime.assembly import make_array_from_single_device_arrays
from jax_core._src.runtime.environment import local_device_count, process_count, process_index
from jax_core._src.sharding.shardings import (
    GSPMDSharding,
    Mesh,
    NamedSharding,
    PartitionSpec,
    Sharding,
)
from jax_core._src.transforms.api import jit
from jax_core._src.tree.tree_util import tree_leaves, tree_map
from jax_core._src.typing.basearray import Array

__all__ = [
    "assert_equal",
    "broadcast_one_to_all",
    "process_allgather",
    "reached_preemption_sync_point",
    "sync_global_devices",
]

# jaxlib ships no stubs: reached through ``ModuleType`` its attributes are ``Any`` to both checkers.
_xc: ModuleType = getattr(_lib, "xla_client")  # noqa: B009  (typed as ModuleType on purpose)

_PROCESSES = PartitionSpec("processes")


def _process_mesh() -> Mesh:
    """Every device, one row per process: ``(process_count, local_device_count)``."""
    devices = np.array(client.devices(), dtype=object).reshape(
        process_count(), local_device_count()
    )
    return Mesh(devices, ("processes", "local_devices"))


def _identity(x: Any) -> Any:
    return x


def _sum_rows(tree: Any) -> Any:
    """The sum over axis 0 of each leaf, in its own dtype (``or`` for booleans)."""

    def one(x: Array) -> Array:
        return reduce_or(x, (0,)) if x.dtype == np.dtype(bool) else reduce_sum(x, (0,))

    return tree_map(one, tree)


@functools.lru_cache(maxsize=64)
def _jitted(fn: Callable[[Any], Any], out_sharding: Sharding) -> Callable[[Any], Any]:
    """``fn`` under ``jit`` with every result laid out by ``out_sharding`` (one per sharding, so
    repeated calls reuse the compiled executable)."""
    return jit(fn, out_shardings=out_sharding)


def _replicated_like(sharding: Sharding) -> Sharding:
    """The sharding that replicates an array over the devices of ``sharding``."""
    if isinstance(sharding, NamedSharding):
        return sharding.with_spec(PartitionSpec())
    devices = sharding._device_assignment  # pyright: ignore[reportPrivateUsage]
    return GSPMDSharding(devices, _xc.HloSharding.replicate(), memory_kind=sharding.memory_kind)


def _first_block(x: Any) -> np.ndarray[Any, Any]:
    """The block of ``x`` on this process's first device, as a NumPy array."""
    out: np.ndarray[Any, Any] = np.asarray(x.addressable_data(0))
    return out


def _allgather_leaf(x: Any, tiled: bool) -> np.ndarray[Any, Any]:
    if isinstance(x, ArrayImpl) and not x.is_fully_addressable:
        if not tiled:
            raise ValueError(
                "Gathering global non-fully-addressable arrays only supports tiled=True"
            )
        sharding = cast(Sharding, x.sharding)
        return _first_block(_jitted(_identity, _replicated_like(sharding))(x))
    if process_count() == 1:
        value: np.ndarray[Any, Any] = np.asarray(x)
        return value if tiled else np.expand_dims(value, axis=0)
    mesh = _process_mesh()
    host: np.ndarray[Any, Any] = np.asarray(x)
    if host.ndim == 0 or not tiled:
        host = np.expand_dims(host, axis=0)
    # This process's block is row ``process_index`` of the global array (replicated over its devices).
    blocks = [device_put_host(host, d, committed=True) for d in client.local_devices()]
    global_shape = (host.shape[0] * process_count(), *host.shape[1:])
    stacked = make_array_from_single_device_arrays(
        global_shape, NamedSharding(mesh, _PROCESSES), blocks
    )
    return _first_block(_jitted(_identity, NamedSharding(mesh, PartitionSpec()))(stacked))


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Gathers every process's values onto every process.

    Args:
      in_tree: a pytree of arrays (NumPy, scalars, ``jax_core.Array``); each leaf must have the
        same shape and dtype on every process.
      tiled: ``False`` (default): stack the processes' values along a new leading axis;
        ``True``: concatenate them along axis 0 (scalars are stacked either way).

    Returns:
      A pytree of NumPy arrays: for a fully addressable leaf, the values of all processes in
      process order (stacked or concatenated); for a non-fully-addressable ``jax_core.Array``,
      its whole global value.

    Raises:
      ValueError: a leaf is a non-fully-addressable array and ``tiled`` is ``False``
        (JAX's message).
    """
    return tree_map(lambda x: _allgather_leaf(x, tiled), in_tree)


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """Sends the source process's values to every process.

    Args:
      in_tree: a pytree of arrays; each leaf must have the same shape and dtype on every process.
      is_source: whether this process is the source (exactly one process should be); ``None``:
        process 0 is.

    Returns:
      A pytree of NumPy arrays like ``in_tree``, holding the source's values (in their canonical
      dtypes: ``int64`` becomes ``int32`` unless x64 is enabled). On one process the leaves come
      back as NumPy arrays of their own.
    """
    if process_count() == 1:
        return tree_map(np.asarray, in_tree)
    source = process_index() == 0 if is_source is None else is_source
    mesh = _process_mesh()

    def to_global(x: Any) -> Any:
        contribution = x if source else np.zeros_like(x)
        return host_local_array_to_global_array(
            np.expand_dims(contribution, axis=0), mesh, _PROCESSES
        )

    summed = _jitted(_sum_rows, NamedSharding(mesh, PartitionSpec()))(tree_map(to_global, in_tree))
    return tree_map(_first_block, summed)


def sync_global_devices(name: str) -> None:
    """Waits until every process has called ``sync_global_devices`` with this name (a barrier
    through a collective on every device).

    Args:
      name: the barrier's name; all processes must pass the same one.

    Raises:
      AssertionError: the processes passed different names (JAX's message, naming ``name``).
    """
    digest = np.uint32(zlib.crc32(name.encode()))
    assert_equal(digest, f"sync_global_devices name mismatch ('{name}')")


def _repeated_for_each_process(x: Any) -> np.ndarray[Any, Any]:
    """What ``process_allgather(x, tiled=True)`` gives when every process holds ``x``."""
    if isinstance(x, ArrayImpl) and not x.is_fully_addressable:
        return np.asarray(x.addressable_data(0))
    value: np.ndarray[Any, Any] = np.asarray(x)
    if value.ndim == 0:
        value = np.expand_dims(value, axis=0)
    return np.concatenate([value] * process_count())


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Checks that every process holds the same values.

    Args:
      in_tree: a pytree of arrays; each leaf must have the same shape on every process.
      fail_message: the start of the error's message.

    Raises:
      AssertionError: some leaf differs between processes; the message is ``fail_message``
        followed by the gathered values and this process's (JAX's format).
    """
    gathered = process_allgather(in_tree, tiled=True)
    expected = tree_map(_repeated_for_each_process, in_tree)
    same = tree_map(lambda a, b: bool(np.all(np.equal(a, b))), expected, gathered)
    if not all(tree_leaves(same)):
        raise AssertionError(f"{fail_message}. Expected: {gathered}; got: {in_tree}.")


def reached_preemption_sync_point(step_id: int) -> bool:
    """Whether every process has reached the step at which to save a checkpoint after a
    preemption notice.

    Outside a multi-process run this is ``False``. Inside one it asks the distributed state's
    preemption sync manager; jax_core's ``distributed.initialize`` starts none, so there it
    raises JAX's error for a run without one (real JAX starts one by default, and answers
    ``False`` until a preemption notice arrives).

    Args:
      step_id: the current training step (every process calls this at every step, all having
        started from the same step).

    Returns:
      ``False`` when ``jax_core.distributed.initialize`` has not been called; otherwise whether
      ``step_id`` is the step the processes agreed to save at.

    Raises:
      RuntimeError: in a multi-process run without a preemption sync manager (JAX's message).
    """
    if not distributed.is_initialized():
        return False
    # A manager the distributed state may start (jaxlib's ``create_preemption_sync_manager``).
    manager: Any = getattr(distributed.global_state, "preemption_sync_manager", None)
    if manager is None:
        raise RuntimeError(
            "Preemption sync manager has not been initialized. Make sure the 'jax_enable_preemption_service' "
            "config is enabled."
        )
    return bool(manager.reached_sync_point(step_id))
