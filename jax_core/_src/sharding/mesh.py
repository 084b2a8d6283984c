"""Device meshes (``jax.sharding.Mesh``): an array of devices with named axes.

A :class:`Mesh` arranges devices in a grid whose axes have names; a
:class:`~jax_core._src.sharding.partition_spec.PartitionSpec` then names the mesh axes each
array dimension is split over, and the two together make a
:class:`~jax_core._src.sharding.shardings.NamedSharding`. :func:`make_mesh` builds a mesh of a
given shape from the first devices. :class:`AxisType` is recorded per axis.
"""

from __future__ import annotations

import collections
import enum
import math
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NoReturn, cast, final

import numpy as np

from jax_core._src import lib as _lib
from jax_core._src.backend import client as _client
from jax_core._src.sharding.jaxlib_types import AxisName, Device, DeviceList

_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)

__all__ = ["AxisType", "Mesh", "make_mesh"]


class AxisType(enum.Enum):
    """How a mesh axis behaves under tracing (recorded; jax_core treats all as ``Auto``)."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


@final
class Mesh:
    """A multidimensional array of devices whose axes have names.

    Args:
      devices: an array (or nested sequence) of devices, e.g.
        ``np.array(jax_core.devices()).reshape(2, 4)``.
      axis_names: one name per dimension of ``devices`` (a single ``str`` for 1-D).
      axis_types: one :class:`AxisType` per axis (default ``AxisType.Auto``).

    Meshes are immutable and compare equal when their devices, axis names and
    axis types are equal.
    """

    __slots__ = ("_device_list", "_hash", "axis_names", "axis_types", "devices", "size")

    devices: np.ndarray[Any, np.dtype[np.object_]]
    axis_names: tuple[AxisName, ...]
    axis_types: tuple[AxisType, ...]
    size: int
    _device_list: DeviceList
    _hash: int

    def __init__(
        self,
        devices: np.ndarray[Any, Any] | Sequence[Any],
        axis_names: str | Sequence[AxisName],
        axis_types: AxisType | tuple[AxisType, ...] | None = None,
    ) -> None:
        devs: np.ndarray[Any, np.dtype[np.object_]] = np.array(devices, dtype=object)
        names: tuple[AxisName, ...] = (
            (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        )
        if any(n is None for n in names):
            raise ValueError(f"Mesh axis names cannot be None. Got: {names}")
        if len(set(names)) != len(names):
            raise ValueError(f"Mesh axis names must be unique. Got: {names}")
        if devs.ndim != len(names):
            raise ValueError(
                "Mesh requires the ndim of its first argument (`devices`) to equal the length "
                "of its second argument (`axis_names`), but got "
                f"devices.ndim == {devs.ndim} and len(axis_names) == {len(names)}."
            )
        if axis_types is None:
            types: tuple[AxisType, ...] = (AxisType.Auto,) * len(names)
        elif isinstance(axis_types, AxisType):
            types = (axis_types,)
        else:
            types = tuple(axis_types)
        if not all(isinstance(t, AxisType) for t in types):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                "axis_types passed to Mesh must be of type `jax.sharding.AxisType`. "
                f"Got {types} of type {tuple(type(t) for t in types)}"
            )
        if len(types) != len(names):
            raise ValueError(
                "Number of axis names should match the number of axis_types. Got "
                f"axis_names={names} and axis_types={types}"
            )
        devs.flags.writeable = False
        flat = tuple(devs.flat)
        device_list = cast(DeviceList, _jax.DeviceList(flat))
        set_ = object.__setattr__
        set_(self, "devices", devs)
        set_(self, "axis_names", names)
        set_(self, "axis_types", types)
        set_(self, "size", math.prod(devs.shape))
        set_(self, "_device_list", device_list)
        set_(self, "_hash", hash((devs.shape, device_list, names, types)))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"Mesh is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mesh):
            return False
        return self is other or (
            self.devices.shape == other.devices.shape
            and self._device_list == other._device_list
            and self.axis_names == other.axis_names
            and self.axis_types == other.axis_types
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (Mesh, (self.devices, self.axis_names, self.axis_types))

    def __str__(self) -> str:
        if self.empty:
            return "Mesh()"
        mesh_str = ", ".join(f"'{k}': {v}" for k, v in self.shape.items())
        return f"Mesh({mesh_str}, axis_types={self.axis_types})"

    def __repr__(self) -> str:
        if self.empty:
            return "Mesh(axis_sizes=(), axis_names=())"
        return (
            f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names!r}, "
            f"axis_types={self.axis_types})"
        )

    @property
    def shape(self) -> collections.OrderedDict[AxisName, int]:
        """``{axis name: axis size}``, in axis order."""
        return collections.OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple[tuple[AxisName, int], ...]:
        """``((axis name, axis size), ...)``."""
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def axis_sizes(self) -> tuple[int, ...]:
        """The size of each axis."""
        return tuple(int(s) for s in self.devices.shape)

    @property
    def empty(self) -> bool:
        """Whether the mesh has no devices."""
        return self.size == 0

    @property
    def device_ids(self) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The ids of the mesh's devices, in the mesh's shape."""
        ids = np.array([d.id for d in self.devices.flat], dtype=np.int64)
        return ids.reshape(self.devices.shape)

    @property
    def local_devices(self) -> list[Device]:
        """The mesh's devices attached to this process, in mesh order."""
        return [d for d in self.devices.flat if d.process_index == d.client.process_index()]

    @property
    def is_multi_process(self) -> bool:
        """Whether some devices belong to other processes."""
        return self.devices.size != len(self.local_devices)

    @property
    def _flat_devices_tuple(self) -> tuple[Device, ...]:
        return tuple(self.devices.flat)

    @property
    def _internal_device_list(self) -> DeviceList:
        return self._device_list

    def update(
        self,
        devices: np.ndarray[Any, Any] | Sequence[Any] | None = None,
        axis_names: Sequence[AxisName] | None = None,
        axis_types: tuple[AxisType, ...] | None = None,
    ) -> Mesh:
        """A mesh with some of ``devices``, ``axis_names``, ``axis_types`` replaced."""
        return Mesh(
            self.devices if devices is None else devices,
            self.axis_names if axis_names is None else axis_names,
            self.axis_types if axis_types is None else axis_types,
        )


def make_mesh(
    axis_shapes: Sequence[int],
    axis_names: Sequence[AxisName],
    axis_types: tuple[AxisType, ...] | None = None,
    *,
    devices: Sequence[Device] | None = None,
) -> Mesh:
    """Creates a :class:`Mesh` of the given shape from the first devices (``jax.make_mesh``).

    Args:
      axis_shapes: the size of each mesh axis, e.g. ``(2, 4)``.
      axis_names: the name of each axis, e.g. ``('x', 'y')``.
      axis_types: one :class:`AxisType` per axis; ``AxisType.Explicit`` for all by
        default, as in JAX.
      devices: the devices to use (default: all devices); only the first
        ``prod(axis_shapes)`` are used, in order.

    Raises ``ValueError`` if there are fewer devices than ``prod(axis_shapes)``.
    """
    shape = tuple(int(s) for s in axis_shapes)
    names = tuple(axis_names)
    if len(shape) != len(names):
        raise ValueError(
            f"`axis_shapes` and `axis_names` must have the same length. Got {shape} and {names}"
        )
    devs: list[Device] = list(_client.devices() if devices is None else devices)
    size = math.prod(shape)
    if size > len(devs):
        raise ValueError(
            f"Number of devices {len(devs)} must be >= the product of mesh_shape {shape}"
        )
    grid: np.ndarray[Any, np.dtype[np.object_]] = np.empty(size, dtype=object)
    for i, d in enumerate(devs[:size]):
        grid[i] = d
    types = (AxisType.Explicit,) * len(shape) if axis_types is None else axis_types
    return Mesh(grid.reshape(shape), names, types)
