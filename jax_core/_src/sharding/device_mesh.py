"""Arranging devices into grids for :class:`~jax_core._src.sharding.mesh.Mesh` (``mesh_utils``).

:func:`create_device_mesh` lays devices out in an array of a given shape;
:func:`create_hybrid_device_mesh` tiles one such array per *granule* (slice or
process) into a larger one. On CPU (jax_core's platform) the layout is the devices in
the order given; GPU devices are sorted by id, as in JAX. TPU-topology-aware
layouts are not implemented: ``device_kind_handler_dict`` lets callers register a
layout function for a ``device_kind``, which is tried first, as in JAX.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

from jax_core._src.backend import client as _client
from jax_core._src.sharding.jaxlib_types import Device

__all__ = [
    "canonicalize_axis_sizes",
    "create_device_mesh",
    "create_hybrid_device_mesh",
    "device_kind_handler_dict",
]

DeviceGrid: TypeAlias = np.ndarray[Any, np.dtype[np.object_]]
"""A NumPy array of devices (dtype ``object``)."""

DeviceMeshHandler: TypeAlias = Callable[..., DeviceGrid | None]
"""``handler(mesh_shape, devices, *, contiguous_submeshes)``: a device grid, or ``None`` to
fall back to the default layout."""

device_kind_handler_dict: dict[str, DeviceMeshHandler] = {}
"""Layout functions by ``device_kind``, consulted before the default layout (empty: jax_core
ships none; JAX's are for TPUs)."""


def canonicalize_axis_sizes(axis_sizes: Sequence[Any]) -> tuple[int, ...] | None:
    """``axis_sizes`` as a tuple of ``int``s, or ``None`` if one of them is not integral."""
    sizes: list[int] = []
    for s in axis_sizes:
        try:
            sizes.append(int(s))
        except (TypeError, ValueError):
            return None
    return tuple(sizes)


def _as_grid(devices: Sequence[Any], shape: tuple[int, ...]) -> DeviceGrid:
    grid: DeviceGrid = np.empty(len(devices), dtype=object)
    for i, d in enumerate(devices):
        grid[i] = d
    return grid.reshape(shape)


def create_device_mesh(
    mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    contiguous_submeshes: bool = False,
    allow_split_physical_axes: bool = False,
) -> DeviceGrid:
    """Arranges ``devices`` (default: all devices) in an array of shape ``mesh_shape``.

    Args:
      mesh_shape: the shape of the logical mesh, e.g. ``(2, 4)``.
      devices: the devices to arrange; there must be exactly ``prod(mesh_shape)``.
      contiguous_submeshes: ask for each process's devices to form a contiguous
        submesh (always true on one process; accepted for compatibility).
      allow_split_physical_axes: accepted for compatibility (only meaningful for
        TPU topologies).

    Returns:
      A NumPy ``object`` array of devices, ready for ``jax_core.sharding.Mesh``.

    Raises:
      ValueError: ``mesh_shape`` is not a sequence of ints, or the number of
        devices is not its product.
      NotImplementedError: the devices are TPUs (no topology-aware layout here).
    """
    del allow_split_physical_axes  # only used by TPU layouts
    devs: Sequence[Any] = _client.devices() if devices is None else devices
    shape = canonicalize_axis_sizes(mesh_shape)
    if shape is None:
        raise ValueError(
            "`mesh_shape` passed to `create_device_mesh` should be a sequence of ints. "
            f"Got {mesh_shape}"
        )
    if math.prod(shape) != len(devs):
        raise ValueError(
            f"Number of devices {len(devs)} must equal the product of mesh_shape {shape}"
        )
    last: Device = devs[-1]
    handler = device_kind_handler_dict.get(last.device_kind)
    if handler is not None:
        result = handler(shape, devs, contiguous_submeshes=contiguous_submeshes)
        if result is not None:
            return result
    if last.platform == "tpu":
        raise NotImplementedError(
            "create_device_mesh: topology-aware TPU layouts are not supported by jax_core; "
            "register one in device_kind_handler_dict or arrange the devices yourself."
        )
    if last.platform == "gpu":
        return _as_grid(sorted(devs, key=lambda d: d.id), shape)
    return _as_grid(devs, shape)


def create_hybrid_device_mesh(
    mesh_shape: Sequence[int],
    dcn_mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    process_is_granule: bool = False,
    should_sort_granules_by_key: bool = True,
    allow_split_physical_axes: bool = False,
) -> DeviceGrid:
    """A device array for two-level parallelism: one ``mesh_shape`` block per granule.

    Devices are grouped into granules by ``slice_index`` (or ``process_index`` when
    ``process_is_granule``); each granule's devices are laid out with
    :func:`create_device_mesh` in ``mesh_shape``, and the blocks are tiled in a
    ``dcn_mesh_shape`` grid, so axis ``i`` of the result has size
    ``mesh_shape[i] * dcn_mesh_shape[i]``.

    Args:
      mesh_shape: the shape of each granule's block.
      dcn_mesh_shape: how the blocks are tiled; its product must equal the number of granules.
      devices: the devices (default: all devices).
      process_is_granule: group by process instead of by slice (CPU devices have no slices).
      should_sort_granules_by_key: order the granules by their slice or process index
        (else in order of first appearance).
      allow_split_physical_axes: passed on to :func:`create_device_mesh`.

    Raises:
      ValueError: the devices have no such attribute, the number of granules is not
        ``prod(dcn_mesh_shape)``, or a granule does not have ``prod(mesh_shape)`` devices.
    """
    devs: Sequence[Any] = _client.devices() if devices is None else devices
    attr = "process_index" if process_is_granule else "slice_index"
    if not hasattr(devs[0], attr):
        raise ValueError(
            f"Device {devs[0]} does not have attribute {attr}. See `process_is_granule` option."
        )
    by_key: dict[Any, list[Any]] = collections.defaultdict(list)
    for d in devs:
        by_key[getattr(d, attr)].append(d)
    keys = sorted(by_key) if should_sort_granules_by_key else list(by_key)
    granules = [by_key[k] for k in keys]
    if math.prod(dcn_mesh_shape) != len(granules):
        raise ValueError(
            f"Number of slices {len(granules)} must equal the product of dcn_mesh_shape {dcn_mesh_shape}"
        )
    blocks = [
        create_device_mesh(mesh_shape, g, allow_split_physical_axes=allow_split_physical_axes)
        for g in granules
    ]
    layout = np.arange(len(granules)).reshape(tuple(dcn_mesh_shape))
    nested = _nest_blocks(layout, blocks)
    out: DeviceGrid = np.block(nested)
    return out


def _nest_blocks(layout: np.ndarray[Any, np.dtype[np.int_]], blocks: list[DeviceGrid]) -> Any:
    """``layout`` (granule numbers) as nested lists of their blocks, the input ``np.block`` takes."""
    if layout.ndim == 0:
        return blocks[int(layout)]
    return [_nest_blocks(sub, blocks) for sub in layout]
