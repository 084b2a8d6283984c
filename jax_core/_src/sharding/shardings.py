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

Where the pieces live
---------------------
:class:`Mesh`, :class:`AxisType` and :func:`make_mesh` are in
:mod:`jax_core._src.sharding.mesh`; :class:`PartitionSpec`, ``P`` and spec validation in
:mod:`jax_core._src.sharding.partition_spec`; reading ``HloSharding``s in
:mod:`jax_core._src.sharding.op_shardings`; jaxlib's ``Device``/``DeviceList`` and the shared
type aliases in :mod:`jax_core._src.sharding.jaxlib_types`. This module re-exports them, so
``jax_core._src.sharding.shardings`` remains the one import point for all sharding names.

This module never imports ``jax``; ``_jax.NamedSharding`` (which would) is never used.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any, Final, cast, final

from jax_core._src import lib as _lib
from jax_core._src.backend import client as _client
from jax_core._src.sharding import partition_spec as _partition_spec
from jax_core._src.sharding.jaxlib_types import AxisName as AxisName
from jax_core._src.sharding.jaxlib_types import CppSharding, Device, DeviceList, Index
from jax_core._src.sharding.jaxlib_types import HloSharding as HloSharding
from jax_core._src.sharding.jaxlib_types import Shape as Shape
from jax_core._src.sharding.mesh import AxisType, Mesh, make_mesh
from jax_core._src.sharding.op_shardings import (
    REPLICATED,
    hlo_shardings_equal,
    hlo_to_indices,
    is_hlo_replicated,
    num_ways_dim_sharded,
)
from jax_core._src.sharding.partition_spec import (
    DuplicateSpecError,
    P,
    PartitionSpec,
    array_mapping,
    check_spec,
)
from jax_core._src.sharding.partition_spec import PartitionEntry as PartitionEntry

# jaxlib's extensions ship no stubs: reached through ``ModuleType`` their attributes are
# ``Any`` to both checkers (the classes used in signatures are in ``sharding_types``).
_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)
_xc: ModuleType = getattr(_lib, "xla_client")  # noqa: B009

# Pickles of ``PartitionSpec`` and ``P.UNCONSTRAINED`` made before the split name these here.
_make_partition_spec = _partition_spec._make_partition_spec  # pyright: ignore[reportPrivateUsage]
_UNCONSTRAINED = _partition_spec._UNCONSTRAINED  # pyright: ignore[reportPrivateUsage]

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


class IndivisibleError(ValueError):
    """An array dimension is not divisible by the number of shards along it."""


def _canonical_memory_kind(device_list: DeviceList, kind: str | None) -> str | None:
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


class Sharding(CppSharding):
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
    def _internal_device_list(self) -> DeviceList:
        """The device assignment as a jaxlib ``DeviceList`` (read by the C++ runtime)."""
        return cast(DeviceList, _jax.DeviceList(tuple(self._device_assignment)))

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
            hlo_shardings_equal(self._to_xla_hlo_sharding(ndim), other._to_xla_hlo_sharding(ndim))
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
    return dict(zip(devices, hlo_to_indices(hlo, shape, len(devices)), strict=True))


@functools.lru_cache(maxsize=4096)
def _shard_shape_cached(sharding: Sharding, shape: Shape) -> Shape:
    sharding._check_compatible_rank(len(shape))  # pyright: ignore[reportPrivateUsage]
    hlo = sharding._to_xla_hlo_sharding(len(shape))  # pyright: ignore[reportPrivateUsage]
    if is_hlo_replicated(hlo) or hlo.is_unreduced():
        return shape
    partitions, _ = num_ways_dim_sharded(hlo)
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
        self._device_list: Final[DeviceList] = cast(DeviceList, _jax.DeviceList((device,)))
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
    def _internal_device_list(self) -> DeviceList:
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
        check_spec(mesh, spec)
        super().__init__()
        self.mesh: Final[Mesh] = mesh
        self.spec: Final[PartitionSpec] = spec
        self._memory_kind: Final[str | None] = _canonical_memory_kind(
            mesh._internal_device_list,  # pyright: ignore[reportPrivateUsage]
            memory_kind,
        )
        self._hash: Final[int] = hash((mesh, spec, self._memory_kind))
        self._fully_replicated: Final[bool] = mesh.size == 1 or (
            not spec.unreduced and math.prod(mesh.shape[a] for a in array_mapping(spec)) == 1
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
    def _internal_device_list(self) -> DeviceList:
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
    mapping = {a: d for a, d in array_mapping(spec).items() if a in sizes}
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
        subgroups.append(REPLICATED)
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
        if isinstance(op_sharding, _xc.OpSharding):  # JAX accepts the proto too
            op_sharding = _xc.HloSharding.from_proto(op_sharding)
        self._devices: Final[tuple[Device, ...]] = tuple(devices)
        self._device_list: Final[DeviceList] = cast(DeviceList, _jax.DeviceList(self._devices))
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
            hlo_shardings_equal(self._hlo_sharding, other._hlo_sharding)
            and self._memory_kind == other._memory_kind
            and self._device_list == other._device_list
        )

    def __hash__(self) -> int:
        hlo_key: object = (
            "replicated" if is_hlo_replicated(self._hlo_sharding) else self._hlo_sharding
        )
        return hash((self._device_list, hlo_key, self._memory_kind))

    @property
    def device_set(self) -> set[Device]:
        """The devices of the device list."""
        return set(self._devices)

    @property
    def is_fully_replicated(self) -> bool:
        """Whether the ``HloSharding`` is replicated."""
        return is_hlo_replicated(self._hlo_sharding)

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
    def _internal_device_list(self) -> DeviceList:
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
