"""Shardings: how an array's elements are laid out across devices (``jax.sharding``).

A :class:`Sharding` says which devices hold an array and which slice of the
global array each device holds. The concrete kinds are

* :class:`SingleDeviceSharding`: the whole array on one device;
* :class:`NamedSharding`: a :class:`Mesh` of devices with named axes plus a
  :class:`PartitionSpec` naming the mesh axes each array dimension is split over;
* :class:`GSPMDSharding` (internal, as in JAX): a device list plus an XLA
  ``HloSharding``; what jaxlib itself produces for SPMD computations.

How they meet jaxlib's C++ runtime
----------------------------------
Every jax_core sharding is a Python subclass of jaxlib's C++ ``Sharding`` base
and implements the duck-typed protocol the C++ runtime reads from shardings it
does not know natively (``_internal_device_list``, ``_device_assignment``,
``memory_kind``, ``_to_xla_hlo_sharding(ndim)``, ``is_fully_replicated``,
``is_fully_addressable``). So a jax_core sharding object can be handed straight
to ``batched_device_put``, ``batched_copy_array_to_devices_with_sharding`` or
``array_result_handler``, and the array stores that very object as its
``_sharding``: ``jax_core.device_put(x, s).sharding is s``.

Arrays that jaxlib builds itself (shards, compiled results) carry native C++
shardings; :func:`from_cpp_sharding` maps those to jax_core shardings (cached),
which is what ``Array.sharding`` returns. :func:`to_cpp_sharding` goes the other
way, for code that wants jaxlib's native objects (its C++ fast paths).

This module never imports ``jax``; ``_jax.NamedSharding`` (which would) is never used.
"""

from __future__ import annotations

import collections
import enum
import functools
import itertools
import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, NoReturn, TypeAlias, cast, final

import numpy as np

from jax_core._src import lib as _lib
from jax_core._src.runtime import client as _client

# jaxlib's ``_jax`` extension ships no stubs: reached through ``ModuleType`` its
# attributes are ``Any`` to both checkers; the classes used in signatures are
# declared under ``TYPE_CHECKING`` below.
_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)
_xc: ModuleType = getattr(_lib, "xla_client")  # noqa: B009

__all__ = [
    "AxisType",
    "Device",
    "DuplicateSpecError",
    "GSPMDSharding",
    "Index",
    "IndivisibleError",
    "Mesh",
    "NamedSharding",
    "P",
    "PartitionSpec",
    "Sharding",
    "SingleDeviceSharding",
    "devices_indices_map",
    "from_cpp_sharding",
    "make_mesh",
    "to_cpp_sharding",
]

if TYPE_CHECKING:

    class Device:
        """A jaxlib device, e.g. ``CpuDevice(id=0)`` (jaxlib's C++ ``Device``)."""

        @property
        def id(self) -> int:
            """The device's id, unique within its client."""
            ...

        @property
        def platform(self) -> str:
            """The platform name, e.g. ``'cpu'``."""
            ...

        @property
        def device_kind(self) -> str:
            """The kind of device, e.g. ``'cpu'``."""
            ...

        @property
        def process_index(self) -> int:
            """The index of the process the device is attached to."""
            ...

        @property
        def client(self) -> Any:
            """The PjRt client that owns the device."""
            ...

        def __hash__(self) -> int: ...
        def __eq__(self, other: object, /) -> bool: ...

    class _CppSharding:
        """jaxlib's C++ ``Sharding`` base class (no Python-visible members)."""

    class _DeviceList:
        """jaxlib's C++ ``DeviceList``: an immutable, hashable tuple of devices."""

        @property
        def is_fully_addressable(self) -> bool: ...
        @property
        def default_memory_kind(self) -> str | None: ...
        @property
        def memory_kinds(self) -> tuple[str, ...]: ...
        @property
        def addressable_device_list(self) -> _DeviceList: ...
        def __iter__(self) -> Iterator[Device]: ...
        def __len__(self) -> int: ...
        def __getitem__(self, i: int, /) -> Device: ...
        def __hash__(self) -> int: ...
        def __eq__(self, other: object, /) -> bool: ...

else:
    Device = _jax.Device
    _CppSharding = _jax.Sharding
    _DeviceList = _jax.DeviceList

HloSharding: TypeAlias = Any
"""An XLA ``HloSharding`` (jaxlib's ``_hlo.HloSharding``; untyped)."""

Shape: TypeAlias = tuple[int, ...]
"""A global or per-shard array shape."""

Index: TypeAlias = tuple[slice, ...]
"""The part of the global array a device holds: one slice per dimension."""

AxisName: TypeAlias = Hashable
"""A mesh axis name (usually a ``str``)."""

_REPLICATED: Final[Any] = _xc.OpSharding.Type.REPLICATED


class IndivisibleError(ValueError):
    """An array dimension is not divisible by the number of shards along it."""


class DuplicateSpecError(Exception):
    """A :class:`PartitionSpec` maps one mesh axis to more than one dimension."""

    def __init__(self, message: str, mesh: Mesh | None, pspec: PartitionSpec) -> None:
        super().__init__(message)
        self.message = message
        self.mesh = mesh
        self.pspec = pspec

    def __str__(self) -> str:
        return self.message


# ---------------------------------------------------------------------------
# HloSharding helpers (ports of jax._src.op_shardings)
# ---------------------------------------------------------------------------


def _is_hlo_replicated(hlo: HloSharding) -> bool:
    return bool(hlo.num_devices() == 1 or hlo.is_replicated())


def _hlo_shardings_equal(a: HloSharding, b: HloSharding) -> bool:
    if a is b or (_is_hlo_replicated(a) and _is_hlo_replicated(b)):
        return True
    return bool(a == b)


def _num_ways_dim_sharded(hlo: HloSharding) -> tuple[list[int], int]:
    """(shards per array dimension, replicas of each shard) of an ``HloSharding``."""
    if hlo.is_manual():
        raise NotImplementedError(f"Manual shardings have no device indices: {hlo}")
    if hlo.is_replicated():
        return [], 1
    if hlo.is_unreduced():
        return [], 1
    partitions = [int(p) for p in hlo.tile_assignment_dimensions()]
    subgroup_types = list(hlo.subgroup_types())
    if subgroup_types == [_REPLICATED] or hlo.replicate_on_last_tile_dim():
        return partitions[:-1], partitions[-1]
    if subgroup_types:
        raise NotImplementedError(f"Unhandled OpSharding type: {hlo}.")
    return partitions, 1


def _hlo_to_indices(hlo: HloSharding, shape: Shape, num_devices: int) -> list[Index]:
    """The index each device position holds under ``hlo`` (positions, not device ids)."""
    full: Index = (slice(None),) * len(shape)
    if _is_hlo_replicated(hlo):
        return [full] * num_devices
    partitions, num_replicas = _num_ways_dim_sharded(hlo)
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


def _canonical_memory_kind(device_list: _DeviceList, kind: str | None) -> str | None:
    if kind is None:
        return device_list.default_memory_kind
    kinds = device_list.memory_kinds
    if kind not in kinds:
        platform = device_list[0].platform if len(device_list) else "?"
        raise ValueError(
            f"Could not find memory addressable by device {platform}. Device {platform} "
            f"can address the following memory kinds: {', '.join(kinds)}. Got memory kind: {kind}"
        )
    return kind


# ---------------------------------------------------------------------------
# Sharding
# ---------------------------------------------------------------------------


class Sharding(_CppSharding):
    """Describes how an :class:`~jax_core.Array` is laid out across devices.

    Abstract: subclasses implement ``device_set``, ``is_fully_replicated``,
    ``memory_kind``, ``with_memory_kind``, ``_device_assignment`` and
    ``_to_xla_hlo_sharding``; everything else has a default built on those.
    """

    # -- abstract ------------------------------------------------------------

    @property
    def device_set(self) -> set[Device]:
        """The set of devices this sharding spans (all processes' devices)."""
        raise NotImplementedError("Subclasses should implement this method.")

    @property
    def is_fully_replicated(self) -> bool:
        """Whether every device holds a complete copy of the array."""
        raise NotImplementedError("Subclasses should implement this method.")

    @property
    def memory_kind(self) -> str | None:
        """The memory kind the array lives in (``'device'`` by default on CPU)."""
        raise NotImplementedError("Subclasses should implement this method.")

    def with_memory_kind(self, kind: str) -> Sharding:
        """A copy of this sharding placing the array in memory kind ``kind``."""
        raise NotImplementedError("Subclasses should implement this method.")

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        """The devices in the order XLA numbers them (device positions)."""
        raise NotImplementedError("Subclasses should implement this method.")

    def _to_xla_hlo_sharding(self, num_dimensions: int) -> HloSharding:
        """This sharding as an XLA ``HloSharding`` for an array of that rank."""
        raise NotImplementedError("Subclasses should implement this method.")

    # -- defaults ------------------------------------------------------------

    @property
    def _internal_device_list(self) -> _DeviceList:
        """The device assignment as a jaxlib ``DeviceList`` (read by the C++ runtime)."""
        return cast(_DeviceList, _jax.DeviceList(tuple(self._device_assignment)))

    @property
    def num_devices(self) -> int:
        """The number of devices the sharding spans."""
        return len(self._device_assignment)

    @property
    def is_fully_addressable(self) -> bool:
        """Whether this process can address every device of the sharding."""
        return self._internal_device_list.is_fully_addressable

    @property
    def addressable_devices(self) -> set[Device]:
        """The devices of the sharding that this process can address."""
        if self.is_fully_addressable:
            return self.device_set
        return set(self._internal_device_list.addressable_device_list)

    @property
    def has_addressable_devices(self) -> bool:
        """Whether this process can address at least one device of the sharding."""
        return len(self._internal_device_list.addressable_device_list) > 0

    @property
    def _addressable_device_assignment(self) -> tuple[Device, ...]:
        if self.is_fully_addressable:
            return self._device_assignment
        return tuple(self._internal_device_list.addressable_device_list)

    def devices_indices_map(self, global_shape: Shape) -> Mapping[Device, Index]:
        """Maps every device (of all processes) to the slice of the array it holds.

        Raises ``IndivisibleError`` if a sharded dimension does not divide evenly.
        """
        return _devices_indices_map_cached(self, tuple(global_shape))

    def addressable_devices_indices_map(self, global_shape: Shape) -> Mapping[Device, Index]:
        """:meth:`devices_indices_map` restricted to this process's devices."""
        full = self.devices_indices_map(global_shape)
        if self.is_fully_addressable:
            return full
        return {d: full[d] for d in self._internal_device_list.addressable_device_list}

    def shard_shape(self, global_shape: Shape) -> Shape:
        """The shape of the piece of a ``global_shape`` array each device holds.

        Raises ``IndivisibleError`` if a sharded dimension does not divide evenly.
        """
        return _shard_shape_cached(self, tuple(global_shape))

    def is_equivalent_to(self, other: Sharding, ndim: int) -> bool:
        """Whether both place the same slices of an ``ndim``-dimensional array on the same devices."""
        return (
            _hlo_shardings_equal(self._to_xla_hlo_sharding(ndim), other._to_xla_hlo_sharding(ndim))
            and self.memory_kind == other.memory_kind
            and self._internal_device_list == other._internal_device_list
        )

    def _check_compatible_rank(self, ndim: int) -> None:
        """Raises ``ValueError`` if the sharding cannot apply to an array of rank ``ndim``."""


@functools.lru_cache(maxsize=4096)
def _devices_indices_map_cached(sharding: Sharding, shape: Shape) -> dict[Device, Index]:
    sharding.shard_shape(shape)  # validates rank and divisibility with a good message
    devices = sharding._device_assignment  # pyright: ignore[reportPrivateUsage]
    hlo = sharding._to_xla_hlo_sharding(len(shape))  # pyright: ignore[reportPrivateUsage]
    return dict(zip(devices, _hlo_to_indices(hlo, shape, len(devices)), strict=True))


@functools.lru_cache(maxsize=4096)
def _shard_shape_cached(sharding: Sharding, shape: Shape) -> Shape:
    sharding._check_compatible_rank(len(shape))  # pyright: ignore[reportPrivateUsage]
    hlo = sharding._to_xla_hlo_sharding(len(shape))  # pyright: ignore[reportPrivateUsage]
    if _is_hlo_replicated(hlo) or hlo.is_unreduced():
        return shape
    partitions, _ = _num_ways_dim_sharded(hlo)
    out: list[int] = []
    for dim, (size, parts) in enumerate(zip(shape, partitions, strict=True)):
        quotient, remainder = divmod(size, parts)
        if remainder:
            raise IndivisibleError(
                f"{sharding} implies that array axis {dim} is partitioned {parts} times, but "
                f"the dimension size is {size} (full shape: {shape}, per-dimension tiling "
                f"factors: {tuple(partitions)} should evenly divide the shape)"
            )
        out.append(quotient)
    return tuple(out)


def devices_indices_map(sharding: Sharding, global_shape: Shape) -> dict[Device, Index]:
    """Maps every device of ``sharding`` to the slice of a ``global_shape`` array it holds.

    Accepts jax_core shardings and jaxlib's native C++ ones (see :func:`from_cpp_sharding`).
    Raises ``IndivisibleError`` if a sharded dimension does not divide evenly.
    """
    s = from_cpp_sharding(sharding)
    return dict(s.devices_indices_map(tuple(global_shape)))


# ---------------------------------------------------------------------------
# SingleDeviceSharding
# ---------------------------------------------------------------------------


@final
class SingleDeviceSharding(Sharding):
    """The whole array on one device.

    Args:
      device: the device holding the array.
      memory_kind: the memory kind on that device (default: the device's default).
    """

    def __init__(self, device: Device, *, memory_kind: str | None = None) -> None:
        super().__init__()
        self._device: Final[Device] = device
        self._device_list: Final[_DeviceList] = cast(_DeviceList, _jax.DeviceList((device,)))
        self._memory_kind: Final[str | None] = _canonical_memory_kind(
            self._device_list, memory_kind
        )

    def __repr__(self) -> str:
        mem = "" if self._memory_kind is None else f", memory_kind={self._memory_kind}"
        return f"SingleDeviceSharding(device={self._device!r}{mem})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_single_device_sharding, (self._device, self._memory_kind))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SingleDeviceSharding):
            return False
        return self is other or (
            self._device == other._device and self._memory_kind == other._memory_kind
        )

    def __hash__(self) -> int:
        return hash((self._device, self._memory_kind))

    @property
    def device_set(self) -> set[Device]:
        """The one device, as a set."""
        return {self._device}

    @property
    def num_devices(self) -> int:
        """Always 1."""
        return 1

    @property
    def is_fully_replicated(self) -> bool:
        """Always ``True``: the one device holds the whole array."""
        return True

    @property
    def is_fully_addressable(self) -> bool:
        """Whether this process can address the device."""
        return self._device_list.is_fully_addressable

    @property
    def memory_kind(self) -> str | None:
        """The memory kind on the device."""
        return self._memory_kind

    def with_memory_kind(self, kind: str) -> SingleDeviceSharding:
        """The same device with memory kind ``kind``."""
        return SingleDeviceSharding(self._device, memory_kind=kind)

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        return (self._device,)

    @property
    def _internal_device_list(self) -> _DeviceList:
        return self._device_list

    def _to_xla_hlo_sharding(self, num_dimensions: int) -> HloSharding:
        return _xc.HloSharding.replicate()

    def devices_indices_map(self, global_shape: Shape) -> Mapping[Device, Index]:
        """``{device: (slice(None),) * ndim}``."""
        return {self._device: (slice(None),) * len(global_shape)}

    def shard_shape(self, global_shape: Shape) -> Shape:
        """The global shape: the device holds everything."""
        return tuple(global_shape)


def _make_single_device_sharding(device: Device, memory_kind: str | None) -> SingleDeviceSharding:
    return SingleDeviceSharding(device, memory_kind=memory_kind)


# ---------------------------------------------------------------------------
# Mesh
# ---------------------------------------------------------------------------


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
    _device_list: _DeviceList
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
        device_list = cast(_DeviceList, _jax.DeviceList(flat))
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
    def _internal_device_list(self) -> _DeviceList:
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


# ---------------------------------------------------------------------------
# PartitionSpec
# ---------------------------------------------------------------------------


@final
class _UnconstrainedSingleton:
    """The type of ``PartitionSpec.UNCONSTRAINED``: the dimension's sharding is left to XLA."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNCONSTRAINED"

    def __reduce__(self) -> str:
        return "_UNCONSTRAINED"


_UNCONSTRAINED: Final = _UnconstrainedSingleton()

PartitionEntry: TypeAlias = AxisName | tuple[AxisName, ...] | None
"""One element of a :class:`PartitionSpec`: ``None`` (not sharded), a mesh axis
name, a tuple of mesh axis names, or ``PartitionSpec.UNCONSTRAINED``."""


def _canonicalize_partition(p: Any) -> PartitionEntry:
    if isinstance(p, (list, tuple)):
        items = tuple(cast(Iterable[AxisName], p))
        if not items:
            return None
        if len(items) == 1:
            return items[0]
        return items
    return cast(PartitionEntry, p)


@final
class PartitionSpec:
    """How each dimension of an array is split over the axes of a :class:`Mesh`.

    Each entry is ``None`` (the dimension is not split), a mesh axis name (split
    over that axis), or a tuple of axis names (split over all of them, the first
    major). Missing trailing entries mean ``None``. ``P()`` replicates the array
    on every device of the mesh.

    Example: ``PartitionSpec('x', None)`` splits dimension 0 over mesh axis ``'x'``.
    """

    __slots__ = ("_partitions", "reduced", "unreduced")

    UNCONSTRAINED: Final = _UNCONSTRAINED
    """A sentinel entry: leave this dimension's sharding to the compiler."""

    _partitions: tuple[PartitionEntry, ...]
    unreduced: frozenset[AxisName]
    reduced: frozenset[AxisName]

    def __init__(
        self,
        *partitions: PartitionEntry | list[AxisName],
        unreduced: frozenset[AxisName] | set[AxisName] = frozenset(),
        reduced: frozenset[AxisName] | set[AxisName] = frozenset(),
    ) -> None:
        parts = tuple(_canonicalize_partition(p) for p in partitions)
        ur = frozenset(unreduced)
        r = frozenset(reduced)
        if None in ur or None in r:
            raise ValueError("unreduced and reduced cannot contain None; they name mesh axes.")
        if ur & r:
            raise ValueError(
                "`unreduced` and `reduced` argument to PartitionSpec cannot overlap. "
                f"Got unreduced: {set(ur)} and reduced: {set(r)}"
            )
        object.__setattr__(self, "_partitions", parts)
        object.__setattr__(self, "unreduced", ur)
        object.__setattr__(self, "reduced", r)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"PartitionSpec is immutable: cannot set {name!r}")

    @property
    def partitions(self) -> tuple[PartitionEntry, ...]:
        """The per-dimension entries."""
        return self._partitions

    def __repr__(self) -> str:
        pr = repr(self._partitions)[1:-1]
        if not self.unreduced and not self.reduced:
            return f"P({pr})"
        extra: list[str] = []
        if self.unreduced:
            extra.append(f"unreduced={set(self.unreduced)!r}")
        if self.reduced:
            extra.append(f"reduced={set(self.reduced)!r}")
        pr = "" if not pr else f"{pr} " if pr.endswith(",") else f"{pr}, "
        return f"P({pr}{', '.join(extra)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartitionSpec):
            return False
        return (
            self._partitions == other._partitions
            and self.unreduced == other.unreduced
            and self.reduced == other.reduced
        )

    def __hash__(self) -> int:
        return hash((self._partitions, self.unreduced, self.reduced))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_partition_spec, (self._partitions, self.unreduced, self.reduced))

    def __len__(self) -> int:
        return len(self._partitions)

    def __getitem__(self, i: int) -> PartitionEntry:
        return self._partitions[i]

    def __iter__(self) -> Any:
        return iter(self._partitions)

    def __add__(self, other: PartitionSpec | tuple[PartitionEntry, ...]) -> PartitionSpec:
        if isinstance(other, PartitionSpec):
            return PartitionSpec(
                *self._partitions,
                *other._partitions,
                unreduced=self.unreduced | other.unreduced,
                reduced=self.reduced | other.reduced,
            )
        return PartitionSpec(
            *self._partitions, *other, unreduced=self.unreduced, reduced=self.reduced
        )

    def __radd__(self, other: tuple[PartitionEntry, ...]) -> PartitionSpec:
        return PartitionSpec(
            *other, *self._partitions, unreduced=self.unreduced, reduced=self.reduced
        )

    def index(self, value: PartitionEntry) -> int:
        """The position of the first entry equal to ``value``."""
        return self._partitions.index(_canonicalize_partition(value))

    def count(self, value: PartitionEntry) -> int:
        """The number of entries equal to ``value``."""
        return self._partitions.count(_canonicalize_partition(value))

    def _normalized(self, ndim: int) -> tuple[PartitionEntry, ...]:
        """The entries padded with ``None`` to ``ndim``, ``UNCONSTRAINED`` read as ``None``."""
        out = [None if p is _UNCONSTRAINED else p for p in self._partitions]
        out.extend([None] * (ndim - len(out)))
        return tuple(out)


P = PartitionSpec
"""Short alias of :class:`PartitionSpec`."""


def _make_partition_spec(
    partitions: tuple[PartitionEntry, ...],
    unreduced: frozenset[AxisName],
    reduced: frozenset[AxisName],
) -> PartitionSpec:
    return PartitionSpec(*partitions, unreduced=unreduced, reduced=reduced)


def _entry_axes(entry: PartitionEntry) -> tuple[AxisName, ...]:
    if entry is None or entry is _UNCONSTRAINED:
        return ()
    if isinstance(entry, tuple):
        return cast(tuple[AxisName, ...], entry)
    return (entry,)


def _array_mapping(spec: PartitionSpec) -> dict[AxisName, int]:
    """``{mesh axis: array dimension it splits}``, in major-to-minor order."""
    out: dict[AxisName, int] = {}
    for dim, entry in enumerate(spec.partitions):
        for axis in _entry_axes(entry):
            out[axis] = dim
    return out


def _show_axes(axes: Iterable[AxisName]) -> str:
    return ", ".join(sorted(f"`{a}`" for a in axes))


def _check_spec(mesh: Mesh, spec: PartitionSpec) -> None:
    counts: dict[AxisName, int] = {}
    for entry in spec.partitions:
        for axis in _entry_axes(entry):
            counts[axis] = counts.get(axis, 0) + 1
    duplicates = [a for a, c in counts.items() if c > 1]
    if duplicates:
        raise DuplicateSpecError(
            "A single NamedSharding spec specification can map every mesh axis to at most "
            f"one positional dimension, but {spec} has duplicate entries for {_show_axes(duplicates)}",
            mesh,
            spec,
        )
    for axis in counts:
        if axis not in mesh.axis_names:
            raise ValueError(
                f"Resource axis: {axis} of {spec} is not found in mesh: {tuple(mesh.shape.keys())}."
            )
    for axis in spec.unreduced | spec.reduced:
        if axis not in mesh.axis_names:
            raise ValueError(f"Unreduced/reduced axis {axis} is not found in {mesh.axis_names=}.")


# ---------------------------------------------------------------------------
# NamedSharding
# ---------------------------------------------------------------------------


@final
class NamedSharding(Sharding):
    """A :class:`Mesh` of devices plus a :class:`PartitionSpec` over its axes.

    Dimension ``i`` of the array is split into as many equal blocks as the product
    of the sizes of the mesh axes named by ``spec[i]``; mesh axes the spec does not
    name replicate the blocks.

    Args:
      mesh: the device mesh.
      spec: which mesh axes each array dimension is split over.
      memory_kind: the memory kind (default: the devices' default).

    Example::

      mesh = jax_core.sharding.Mesh(np.array(jax_core.devices()).reshape(2, 4), ("x", "y"))
      s = NamedSharding(mesh, PartitionSpec("x", "y"))  # an (8, 8) array -> (4, 2) blocks
    """

    def __init__(self, mesh: Mesh, spec: PartitionSpec, *, memory_kind: str | None = None) -> None:
        if not isinstance(mesh, Mesh):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"NamedSharding's mesh must be a jax_core.sharding.Mesh, got {type(mesh)}"
            )
        if not isinstance(spec, PartitionSpec):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(
                f"NamedSharding's spec must be a PartitionSpec, got {type(spec)}: {spec!r}"
            )
        _check_spec(mesh, spec)
        super().__init__()
        self.mesh: Final[Mesh] = mesh
        self.spec: Final[PartitionSpec] = spec
        self._memory_kind: Final[str | None] = _canonical_memory_kind(
            mesh._internal_device_list,  # pyright: ignore[reportPrivateUsage]
            memory_kind,
        )
        self._hash: Final[int] = hash((mesh, spec, self._memory_kind))
        self._fully_replicated: Final[bool] = mesh.size == 1 or (
            not spec.unreduced and math.prod(mesh.shape[a] for a in _array_mapping(spec)) == 1
        )

    def __repr__(self) -> str:
        mem = "" if self._memory_kind is None else f", memory_kind={self._memory_kind}"
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec}{mem})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_named_sharding, (self.mesh, self.spec, self._memory_kind))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NamedSharding):
            return False
        return self is other or (
            self.spec == other.spec
            and self._memory_kind == other._memory_kind
            and self.mesh == other.mesh
        )

    def __hash__(self) -> int:
        return self._hash

    @property
    def device_set(self) -> set[Device]:
        """All devices of the mesh."""
        return set(self.mesh.devices.flat)

    @property
    def num_devices(self) -> int:
        """The number of devices of the mesh."""
        return self.mesh.size

    @property
    def is_fully_replicated(self) -> bool:
        """Whether no mesh axis of size > 1 splits any dimension."""
        return self._fully_replicated

    @property
    def memory_kind(self) -> str | None:
        """The memory kind on the mesh's devices."""
        return self._memory_kind

    def with_memory_kind(self, kind: str) -> NamedSharding:
        """The same mesh and spec in memory kind ``kind``."""
        return NamedSharding(self.mesh, self.spec, memory_kind=kind)

    def with_spec(self, spec: PartitionSpec | Sequence[PartitionEntry]) -> NamedSharding:
        """The same mesh with another spec."""
        if not isinstance(spec, PartitionSpec):
            spec = PartitionSpec(*spec)
        return NamedSharding(self.mesh, spec, memory_kind=self._memory_kind)

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        return self.mesh._flat_devices_tuple  # pyright: ignore[reportPrivateUsage]

    @property
    def _internal_device_list(self) -> _DeviceList:
        return self.mesh._internal_device_list  # pyright: ignore[reportPrivateUsage]

    def _check_compatible_rank(self, ndim: int) -> None:
        if len(self.spec) > ndim:
            extra = " For scalars the PartitionSpec should be P()" if ndim == 0 else ""
            raise ValueError(
                f"Sharding {self} is only valid for values of rank at least {len(self.spec)}, "
                f"but was applied to a value of rank {ndim}.{extra}"
            )

    def _to_xla_hlo_sharding(self, num_dimensions: int) -> HloSharding:
        self._check_compatible_rank(num_dimensions)
        return _named_to_hlo(self.mesh.shape_tuple, self.spec, num_dimensions)


def _make_named_sharding(mesh: Mesh, spec: PartitionSpec, memory_kind: str | None) -> NamedSharding:
    return NamedSharding(mesh, spec, memory_kind=memory_kind)


@functools.lru_cache(maxsize=4096)
def _named_to_hlo(
    mesh_shape: tuple[tuple[AxisName, int], ...], spec: PartitionSpec, ndim: int
) -> HloSharding:
    """A port of JAX's ``named_sharding_to_xla_hlo_sharding`` (no manual/unreduced axes)."""
    if spec.unreduced:
        raise NotImplementedError("PartitionSpec(unreduced=...) is not supported by jax_core yet")
    axes = [(name, size) for name, size in mesh_shape if size != 1]  # size-1 axes do nothing
    sizes = dict(axes)
    position = {name: i for i, (name, _) in enumerate(axes)}
    mapping = {a: d for a, d in _array_mapping(spec).items() if a in sizes}
    if not mapping:
        return _xc.HloSharding.replicate()
    tile_dims = [1] * ndim
    permutation: list[int] = []
    for name, dim in sorted(mapping.items(), key=lambda kv: kv[1]):
        tile_dims[dim] *= sizes[name]
        permutation.append(position[name])
    replicated = [(i, size) for i, (name, size) in enumerate(axes) if name not in mapping]
    subgroups: list[Any] = []
    if replicated:
        tile_dims.append(math.prod(size for _, size in replicated))
        permutation.extend(i for i, _ in replicated)
        subgroups.append(_REPLICATED)
    return _xc.HloSharding.iota_tile(
        tile_dims,
        reshape_dims=[size for _, size in axes],
        transpose_perm=permutation,
        subgroup_types=subgroups,
    )


# ---------------------------------------------------------------------------
# GSPMDSharding (internal, as in JAX)
# ---------------------------------------------------------------------------


@final
class GSPMDSharding(Sharding):
    """A device list plus an XLA ``HloSharding`` (what compiled SPMD programs report).

    Internal (JAX keeps it out of ``jax.sharding`` too): :func:`from_cpp_sharding`
    wraps jaxlib's C++ ``GSPMDSharding`` in it so every array has a jax_core sharding.
    """

    def __init__(
        self, devices: Sequence[Device], op_sharding: HloSharding, *, memory_kind: str | None = None
    ) -> None:
        super().__init__()
        self._devices: Final[tuple[Device, ...]] = tuple(devices)
        self._device_list: Final[_DeviceList] = cast(_DeviceList, _jax.DeviceList(self._devices))
        self._hlo_sharding: Final[HloSharding] = op_sharding
        self._memory_kind: Final[str | None] = _canonical_memory_kind(
            self._device_list, memory_kind
        )

    def __repr__(self) -> str:
        mem = "" if self._memory_kind is None else f", memory_kind={self._memory_kind}"
        return f"GSPMDSharding({self._hlo_sharding}{mem})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GSPMDSharding):
            return False
        return self is other or (
            _hlo_shardings_equal(self._hlo_sharding, other._hlo_sharding)
            and self._memory_kind == other._memory_kind
            and self._device_list == other._device_list
        )

    def __hash__(self) -> int:
        hlo_key: object = (
            "replicated" if _is_hlo_replicated(self._hlo_sharding) else self._hlo_sharding
        )
        return hash((self._device_list, hlo_key, self._memory_kind))

    @property
    def device_set(self) -> set[Device]:
        """The devices of the device list."""
        return set(self._devices)

    @property
    def is_fully_replicated(self) -> bool:
        """Whether the ``HloSharding`` is replicated."""
        return _is_hlo_replicated(self._hlo_sharding)

    @property
    def memory_kind(self) -> str | None:
        """The memory kind on the devices."""
        return self._memory_kind

    def with_memory_kind(self, kind: str) -> GSPMDSharding:
        """The same layout in memory kind ``kind``."""
        return GSPMDSharding(self._devices, self._hlo_sharding, memory_kind=kind)

    @property
    def _device_assignment(self) -> tuple[Device, ...]:
        return self._devices

    @property
    def _internal_device_list(self) -> _DeviceList:
        return self._device_list

    def _to_xla_hlo_sharding(self, num_dimensions: int) -> HloSharding:
        return self._hlo_sharding


# ---------------------------------------------------------------------------
# To and from jaxlib's C++ shardings
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _from_cpp_single(device: Device, memory_kind: str | None) -> SingleDeviceSharding:
    return SingleDeviceSharding(device, memory_kind=memory_kind)


@functools.lru_cache(maxsize=1024)
def _from_cpp_gspmd(cpp: Any) -> GSPMDSharding:
    return GSPMDSharding(tuple(cpp._devices), cpp._hlo_sharding, memory_kind=cpp._memory_kind)


def from_cpp_sharding(sharding: object) -> Sharding:
    """The jax_core :class:`Sharding` for a sharding stored on a jaxlib array.

    jax_core shardings are returned as they are. jaxlib's native
    ``SingleDeviceSharding`` and ``GSPMDSharding`` (what the C++ runtime puts on
    the arrays it builds) map to equal jax_core shardings, cached. Raises
    ``TypeError`` for anything else.
    """
    if isinstance(sharding, Sharding):
        return sharding
    cpp: Any = sharding
    if isinstance(cpp, _jax.SingleDeviceSharding):
        return _from_cpp_single(cpp._device, cpp._memory_kind)
    if isinstance(cpp, _jax.GSPMDSharding):
        return _from_cpp_gspmd(cpp)
    raise TypeError(f"Not a sharding jax_core understands: {sharding!r} of type {type(sharding)}")


@functools.lru_cache(maxsize=4096)
def _to_cpp_cached(sharding: Sharding, ndim: int) -> Any:
    if isinstance(sharding, SingleDeviceSharding):
        device = sharding._device  # pyright: ignore[reportPrivateUsage]
        if sharding.memory_kind == sharding._device_list.default_memory_kind:  # pyright: ignore[reportPrivateUsage]
            return _client.single_device_sharding(device)
        return _jax.SingleDeviceSharding(device, memory_kind=sharding.memory_kind)
    return _jax.GSPMDSharding(
        sharding._internal_device_list,  # pyright: ignore[reportPrivateUsage]
        sharding._to_xla_hlo_sharding(ndim),  # pyright: ignore[reportPrivateUsage]
        memory_kind=sharding.memory_kind,
    )


def to_cpp_sharding(sharding: Sharding | object, ndim: int) -> Any:
    """jaxlib's native C++ sharding equivalent to ``sharding`` for an ``ndim``-dimensional array.

    ``SingleDeviceSharding`` becomes ``_jax.SingleDeviceSharding`` (the client's
    cached one for the default memory kind); every other jax_core sharding becomes
    ``_jax.GSPMDSharding(device list, HloSharding)``. Native C++ shardings pass
    through. Only needed for jaxlib's C++ fast paths: jax_core shardings are
    accepted by jaxlib's entry points as they are.
    """
    if not isinstance(sharding, Sharding):
        return sharding
    return _to_cpp_cached(sharding, ndim)
