"""The type aliases the sharding modules share, and jaxlib's device classes they name.

``Device``, ``DeviceList`` and the C++ ``Sharding`` base are declared in ``lib/devices.py``
(jaxlib ships no stubs for them) and re-exported here for :mod:`jax_core._src.sharding.mesh`,
:mod:`jax_core._src.sharding.partition_spec`, :mod:`jax_core._src.sharding.op_shardings` and
:mod:`jax_core._src.sharding.shardings`.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, TypeAlias

from jax_core._src.lib.devices import CppSharding as CppSharding
from jax_core._src.lib.devices import Device as Device
from jax_core._src.lib.devices import DeviceList as DeviceList

__all__ = ["AxisName", "CppSharding", "Device", "DeviceList", "HloSharding", "Index", "Shape"]

HloSharding: TypeAlias = Any
"""An XLA ``HloSharding`` (jaxlib's ``_hlo.HloSharding``; untyped)."""

Shape: TypeAlias = tuple[int, ...]
"""A global or per-shard array shape."""

Index: TypeAlias = tuple[slice, ...]
"""The part of the global array a device holds: one slice per dimension."""

AxisName: TypeAlias = Hashable
"""A mesh axis name (usually a ``str``)."""
