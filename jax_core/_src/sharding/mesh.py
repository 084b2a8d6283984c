"""Device meshes (``jax.sharding.Mesh``, ``AbstractMesh``): grids of devices with named axes.

A :class:`Mesh` arranges devices in a grid whose axes have names; a
:class:`~jax_core._src.sharding.partition_spec.PartitionSpec` then names the mesh axes each
array dimension is split over, and the two together make a
:class:`~jax_core._src.sharding.shardings.NamedSharding`. :func:`make_mesh` builds a mesh of a
given shape from the first devices. :class:`AxisType` is recorded per axis.

An :class:`AbstractMesh` has only the axis sizes, names and types (plus, optionally, an
:class:`AbstractDevice` describing the kind of device): what tracing needs to know of a mesh.
``Mesh.abstract_mesh`` is a mesh's abstract form.

``with mesh:`` (deprecated in JAX, as here) pushes the mesh on a per-thread stack read by
:func:`resource_env_mesh`; the current mesh proper is set with ``jax.set_mesh``
(:mod:`jax_core._src.sharding.mesh_context`).
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import math
import threading
import warnings
from collections.abc import Mapping, Sequence
from types import ModuleType, TracebackType
from typing import Any, NoReturn, cast, final

import numpy as np

from jax_core._src import lib as _lib
from jax_core._src.backend import client as _client
from jax_core._src.sharding.device_mesh import canonicalize_axis_sizes, create_device_mesh
from jax_core._src.sharding.jaxlib_types import AxisName, Device, DeviceList

_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)

__all__ = [
    "AbstractDevice",
    "AbstractMesh",
    "AxisType",
    "Mesh",
    "empty_abstract_mesh",
    "make_mesh",
    "resource_env_mesh",
]


class AxisType(enum.Enum):
    """How a mesh axis behaves under tracing (recorded; jax_core treats all as ``Auto``)."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


def _normalize_axis_types(
    names: tuple[AxisName, ...],
    axis_types: AxisType | Sequence[AxisType] | None,
    owner: str,
    default: AxisType,
) -> tuple[AxisType, ...]:
    """One :class:`AxisType` per axis name (``default`` for all when ``None``); JAX's errors."""
    if axis_types is None:
        types: tuple[object, ...] = (default,) * len(names)
    elif isinstance(axis_types, AxisType):
        types = (axis_types,)
    else:
        types = tuple(axis_types)
    if not all(isinstance(t, AxisType) for t in types):  # pyright: ignore[reportUnnecessaryIsInstance]
        kinds = tuple(type(t) for t in types)
        raise TypeError(
            f"axis_types passed to {owner} must be of type `jax.sharding.AxisType`. "
            f"Got {types} of type {kinds}"
        )
    if len(types) != len(names):
        raise ValueError(
            "Number of axis names should match the number of axis_types. Got "
            f"axis_names={names} and axis_types={types}"
        )
    return cast(tuple[AxisType, ...], types)


class _AxisTypeQueries:
    """Questions about a mesh's axis types, shared by :class:`Mesh` and :class:`AbstractMesh`."""

    __slots__ = ()

    axis_names: tuple[AxisName, ...]
    axis_types: tuple[AxisType, ...]

    def _axes_of(self, kind: AxisType) -> tuple[AxisName, ...]:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t == kind)

    def _all(self, *kinds: AxisType) -> bool:
        return bool(self.axis_types) and all(t in kinds for t in self.axis_types)

    @property
    def auto_axes(self) -> tuple[AxisName, ...]:
        """The names of the ``AxisType.Auto`` axes."""
        return self._axes_of(AxisType.Auto)

    @property
    def explicit_axes(self) -> tuple[AxisName, ...]:
        """The names of the ``AxisType.Explicit`` axes."""
        return self._axes_of(AxisType.Explicit)

    @property
    def manual_axes(self) -> tuple[AxisName, ...]:
        """The names of the ``AxisType.Manual`` axes."""
        return self._axes_of(AxisType.Manual)

    @property
    def are_all_axes_auto(self) -> bool:
        """Whether there are axes and all are ``Auto``."""
        return self._all(AxisType.Auto)

    @property
    def are_all_axes_explicit(self) -> bool:
        """Whether there are axes and all are ``Explicit``."""
        return self._all(AxisType.Explicit)

    @property
    def are_all_axes_manual(self) -> bool:
        """Whether there are axes and all are ``Manual``."""
        return self._all(AxisType.Manual)

    @property
    def are_all_axes_explicit_or_manual(self) -> bool:
        """Whether there are axes and each is ``Explicit`` or ``Manual``."""
        return self._all(AxisType.Explicit, AxisType.Manual)

    @property
    def _any_axis_manual(self) -> bool:
        return AxisType.Manual in self.axis_types

    @property
    def _name_to_type(self) -> dict[AxisName, AxisType]:
        return dict(zip(self.axis_names, self.axis_types, strict=True))


@final
class Mesh(_AxisTypeQueries):
    """A multidimensional array of devices whose axes have names.

    Args:
      devices: an array (or nested sequence) of devices, e.g.
        ``np.array(jax_core.devices()).reshape(2, 4)``.
      axis_names: one name per dimension of ``devices`` (a single ``str`` for 1-D).
      axis_types: one :class:`AxisType` per axis (default ``AxisType.Auto``).

    Meshes are immutable and compare equal when their devices, axis names and
    axis types are equal.
    """

    __slots__ = (
        "_abstract",
        "_device_list",
        "_hash",
        "axis_names",
        "axis_types",
        "devices",
        "size",
    )

    devices: np.ndarray[Any, np.dtype[np.object_]]
    axis_names: tuple[AxisName, ...]
    axis_types: tuple[AxisType, ...]
    size: int
    _device_list: DeviceList
    _hash: int
    _abstract: AbstractMesh | None

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
        types = _normalize_axis_types(names, axis_types, "Mesh", AxisType.Auto)
        devs.flags.writeable = False
        flat = tuple(devs.flat)
        # ``Mesh(np.empty((), dtype=object), ())`` is the empty mesh (JAX's "no mesh").
        empty = not names and flat[0] is None
        device_list = cast(DeviceList, _jax.DeviceList(flat))
        set_ = object.__setattr__
        set_(self, "devices", devs)
        set_(self, "axis_names", names)
        set_(self, "axis_types", types)
        set_(self, "size", 0 if empty else math.prod(devs.shape))
        set_(self, "_device_list", device_list)
        set_(self, "_hash", hash((devs.shape, device_list, names, types)))
        set_(self, "_abstract", None)

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

    @property
    def is_scalar(self) -> bool:
        """Whether the mesh is one device with no axes."""
        return self.size == 1 and not self.axis_names

    @property
    def local_mesh(self) -> Mesh:
        """The part of the mesh attached to this process (the mesh itself on one process): the
        smallest block of the device grid holding every local device.

        Raises ``ValueError`` when this process's devices do not form such a block alone (a
        contiguous sub-cube of the mesh), as JAX does.
        """
        if self.empty:
            return self
        if not self.is_multi_process:
            return Mesh(self.devices, self.axis_names)
        here = cast(Device, self.devices.flat[0]).client.process_index()
        flags = [cast(Device, d).process_index == here for d in self.devices.flat]
        local: np.ndarray[Any, np.dtype[np.bool_]] = np.array(flags, dtype=bool).reshape(self.devices.shape)
        hull: list[slice] = []
        for axis in range(local.ndim):
            others = tuple(a for a in range(local.ndim) if a != axis)
            hit = np.flatnonzero(local.any(axis=others))
            hull.append(slice(int(hit.min()), int(hit.max()) + 1) if hit.size else slice(0, 0))
        block = tuple(hull)
        if local[block].size == 0 or not local[block].all():
            raise ValueError(
                "When passing host local inputs to pjit, devices connected to a single host must form a "
                "contiguous subcube of the global device mesh"
            )
        return Mesh(self.devices[block], self.axis_names, axis_types=self.axis_types)

    @property
    def abstract_mesh(self) -> AbstractMesh:
        """The mesh's axis sizes, names and types, and its kind of device, without the devices."""
        cached = self._abstract
        if cached is None:
            if not self.axis_names:
                cached = empty_abstract_mesh
            else:
                cached = AbstractMesh(
                    self.axis_sizes,
                    self.axis_names,
                    self.axis_types,
                    abstract_device=AbstractDevice.of(cast(Device, self.devices.flat[0])),
                )
            object.__setattr__(self, "_abstract", cached)
        return cached

    def __enter__(self) -> Mesh:
        """Deprecated (as in JAX): use ``with jax_core.set_mesh(mesh):``.

        Pushes the mesh on this thread's stack of ``with mesh:`` meshes (read by
        :func:`resource_env_mesh`); it does not change ``jax.sharding.get_mesh()``.
        """
        warnings.warn(
            "`with mesh:` context manager has been deprecated. Please use "
            "`with jax.set_mesh(mesh):` instead.",
            category=DeprecationWarning,
            stacklevel=2,
        )
        _resource_env.stack.append(self)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        _resource_env.stack.pop()

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


class _ResourceEnv(threading.local):
    """This thread's stack of ``with mesh:`` meshes, innermost last."""

    def __init__(self) -> None:
        self.stack: list[Mesh] = []


_resource_env = _ResourceEnv()


def resource_env_mesh() -> Mesh | None:
    """The innermost mesh entered with the deprecated ``with mesh:`` in this thread, if any."""
    stack = _resource_env.stack
    return stack[-1] if stack else None


# ---------------------------------------------------------------------------
# AbstractDevice, AbstractMesh
# ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class AbstractDevice:
    """The kind of device a mesh is made of (``jax.sharding.AbstractDevice``).

    Args:
      device_kind: e.g. ``'cpu'``.
      num_cores: cores per device where the platform reports it (TPU, GPU), else ``None``.
      platform: e.g. ``'cpu'``.
    """

    device_kind: str
    num_cores: int | None
    platform: str

    def __repr__(self) -> str:
        return f"AbstractDevice({self._fields_text()})"

    def _fields_text(self) -> str:
        return (
            f"device_kind={self.device_kind}, num_cores={self.num_cores}, platform={self.platform}"
        )

    @staticmethod
    def of(device: Device | None) -> AbstractDevice | None:
        """The abstract form of ``device`` (``None`` for ``None``)."""
        if device is None:
            return None
        cores_attr = {"tpu": "num_cores", "gpu": "core_count"}.get(device.platform)
        cores: int | None = None if cores_attr is None else getattr(device, cores_attr, None)
        return AbstractDevice(device.device_kind, cores, device.platform)


class _Keep(enum.Enum):
    KEEP = enum.auto()


def _no_devices(what: str) -> NoReturn:
    raise ValueError(f"AbstractMesh does not implement {what}")


@final
class AbstractMesh(_AxisTypeQueries):
    """A mesh's axis sizes, names and types, without devices (``jax.sharding.AbstractMesh``).

    What tracing needs of a mesh: ``jax.sharding.get_abstract_mesh()`` returns the
    current one (empty, ``AbstractMesh((), ())``, when no mesh is set).

    Args:
      axis_sizes: the size of each axis, e.g. ``(2, 4)``.
      axis_names: the name of each axis, e.g. ``('x', 'y')``.
      axis_types: one :class:`AxisType` per axis (default ``AxisType.Explicit``, as in JAX).
      abstract_device: the kind of device, if known.

    Abstract meshes are immutable and compare equal when all four are equal.
    """

    __slots__ = ("_hash", "abstract_device", "axis_names", "axis_sizes", "axis_types", "size")

    axis_sizes: tuple[int, ...]
    axis_names: tuple[AxisName, ...]
    axis_types: tuple[AxisType, ...]
    abstract_device: AbstractDevice | None
    size: int
    _hash: int

    def __init__(
        self,
        axis_sizes: tuple[int, ...],
        axis_names: tuple[AxisName, ...],
        axis_types: AxisType | tuple[AxisType, ...] | None = None,
        *,
        abstract_device: AbstractDevice | None = None,
    ) -> None:
        hash((axis_sizes, axis_names))  # JAX's TypeError for lists
        sizes = tuple(axis_sizes)
        names = tuple(axis_names)
        if len(sizes) != len(names):
            raise ValueError(
                f"AbstractMesh needs one axis name per axis size. Got axis_sizes={sizes} "
                f"and axis_names={names}"
            )
        types = _normalize_axis_types(names, axis_types, "AbstractMesh", AxisType.Explicit)
        set_ = object.__setattr__
        set_(self, "axis_sizes", sizes)
        set_(self, "axis_names", names)
        set_(self, "axis_types", types)
        set_(self, "abstract_device", abstract_device)
        set_(self, "size", math.prod(sizes) if sizes else 0)
        set_(self, "_hash", hash((sizes, names, types, abstract_device)))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"AbstractMesh is immutable: cannot set {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AbstractMesh):
            return False
        return self is other or (
            self.axis_sizes == other.axis_sizes
            and self.axis_names == other.axis_names
            and self.axis_types == other.axis_types
            and self.abstract_device == other.abstract_device
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _make_abstract_mesh,
            (self.axis_sizes, self.axis_names, self.axis_types, self.abstract_device),
        )

    def __repr__(self) -> str:
        axes = ", ".join(f"'{n}': {v}" for n, v in self.shape_tuple) if self.axis_names else "()"
        device = "" if self.abstract_device is None else f", {self.abstract_device._fields_text()}"  # pyright: ignore[reportPrivateUsage]
        return f"AbstractMesh({axes}, axis_types={self.axis_types}{device})"

    @property
    def shape(self) -> collections.OrderedDict[AxisName, int]:
        """``{axis name: axis size}``, in axis order."""
        return collections.OrderedDict(self.shape_tuple)

    @property
    def shape_tuple(self) -> tuple[tuple[AxisName, int], ...]:
        """``((axis name, axis size), ...)``."""
        return tuple(zip(self.axis_names, self.axis_sizes, strict=True))

    @property
    def empty(self) -> bool:
        """Whether the mesh has no axes (size 0)."""
        return self.size == 0

    @property
    def abstract_mesh(self) -> AbstractMesh:
        """The mesh itself."""
        return self

    @property
    def _internal_device_list(self) -> None:
        return None

    def update(
        self,
        axis_sizes: tuple[int, ...] | None = None,
        axis_names: tuple[AxisName, ...] | None = None,
        axis_types: AxisType | tuple[AxisType, ...] | None = None,
        *,
        abstract_device: AbstractDevice | None | _Keep = _Keep.KEEP,
    ) -> AbstractMesh:
        """An abstract mesh with some of its fields replaced."""
        return AbstractMesh(
            self.axis_sizes if axis_sizes is None else axis_sizes,
            self.axis_names if axis_names is None else axis_names,
            self.axis_types if axis_types is None else axis_types,
            abstract_device=(
                self.abstract_device if abstract_device is _Keep.KEEP else abstract_device
            ),
        )

    def update_axis_types(self, name_to_type: Mapping[AxisName, AxisType]) -> AbstractMesh:
        """The mesh with the types of the axes named in ``name_to_type`` replaced."""
        types = tuple(name_to_type.get(n, t) for n, t in zip(self.axis_names, self.axis_types))
        return self.update(axis_types=types)

    @property
    def devices(self) -> NoReturn:
        """Raises ``ValueError``: an abstract mesh has no devices."""
        _no_devices("devices")

    @property
    def device_ids(self) -> NoReturn:
        """Raises ``ValueError``: an abstract mesh has no devices."""
        _no_devices("device_ids")

    @property
    def is_multi_process(self) -> NoReturn:
        """Raises ``ValueError``: an abstract mesh has no devices."""
        _no_devices("is_multi_process")

    @property
    def local_devices(self) -> NoReturn:
        """Raises ``ValueError``: an abstract mesh has no devices."""
        _no_devices("local_devices")

    @property
    def local_mesh(self) -> NoReturn:
        """Raises ``ValueError``: an abstract mesh has no devices."""
        _no_devices("local_mesh")

    def __enter__(self) -> NoReturn:
        _no_devices("__enter__")

    def __exit__(self, *exc: object) -> NoReturn:
        _no_devices("__exit__")


def _make_abstract_mesh(
    sizes: tuple[int, ...],
    names: tuple[AxisName, ...],
    types: tuple[AxisType, ...],
    device: AbstractDevice | None,
) -> AbstractMesh:
    return AbstractMesh(sizes, names, types, abstract_device=device)


empty_abstract_mesh: AbstractMesh = AbstractMesh((), ())
"""``AbstractMesh((), ())``: what ``get_abstract_mesh()`` returns when no mesh is set."""


# ---------------------------------------------------------------------------
# make_mesh
# ---------------------------------------------------------------------------


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

    Raises ``ValueError`` if ``axis_shapes`` is not a sequence of ints, if there are
    fewer devices than ``prod(axis_shapes)``, or if the names or types do not match
    the shape.
    """
    devs: Sequence[Device] = _client.devices() if devices is None else devices
    shape = canonicalize_axis_sizes(axis_shapes)
    if shape is None:
        raise ValueError(
            f"`axis_sizes` passed to `make_mesh` should be a sequence of ints. Got {axis_shapes}"
        )
    size = math.prod(shape)
    if size > len(devs):
        raise ValueError(
            f"Number of devices {len(devs)} must be >= the product of mesh_shape {shape}"
        )
    grid = create_device_mesh(shape, list(devs[:size]))
    types = (AxisType.Explicit,) * len(shape) if axis_types is None else axis_types
    return Mesh(grid, axis_names, types)
