"""jaxlib's device classes (``Device``, ``DeviceList``, the C++ ``Sharding`` base), declared here for
the type checkers (jaxlib's ``_jax`` extension ships no stubs) and jaxlib's own classes at run time.
The backend's client and the sharding modules both name them."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from jax_core._src import lib as _lib

# Reached through ``ModuleType``, the extension's attributes are ``Any`` to both checkers.
_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)

__all__ = ["CppSharding", "Device", "DeviceList"]

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

    class CppSharding:
        """jaxlib's C++ ``Sharding`` base class (no Python-visible members)."""

    class DeviceList:
        """jaxlib's C++ ``DeviceList``: an immutable, hashable tuple of devices."""

        @property
        def is_fully_addressable(self) -> bool: ...
        @property
        def default_memory_kind(self) -> str | None: ...
        @property
        def memory_kinds(self) -> tuple[str, ...]: ...
        @property
        def addressable_device_list(self) -> DeviceList: ...
        def __iter__(self) -> Iterator[Device]: ...
        def __len__(self) -> int: ...
        def __getitem__(self, i: int, /) -> Device: ...
        def __hash__(self) -> int: ...
        def __eq__(self, other: object, /) -> bool: ...

else:
    Device = _jax.Device
    CppSharding = _jax.Sharding
    DeviceList = _jax.DeviceList
