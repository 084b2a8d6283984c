"""The PjRt client and its devices (the only module that creates a jaxlib client)."""

from __future__ import annotations

import functools
import os
from typing import Any, cast

from jax_core._src.lib import _jax, xla_client

Device = Any
"""A jaxlib device (``CpuDevice(id=0)``)."""

Client = Any
"""A jaxlib PjRt client."""


def _requested_platforms() -> list[str]:
    raw = os.environ.get("JAX_PLATFORMS") or os.environ.get("JAX_PLATFORM_NAME") or ""
    return [p.strip().lower() for p in raw.split(",") if p.strip()]


@functools.cache
def backend() -> Client:
    """The CPU PjRt client, created on first use."""
    requested = _requested_platforms()
    if requested and "cpu" not in requested:
        raise NotImplementedError(
            f"JAX_PLATFORMS={','.join(requested)} was requested, but jax_core runs on the "
            "'cpu' platform only (jaxlib's CPU client); GPU/TPU backends are not implemented. "
            "Unset JAX_PLATFORMS or set it to 'cpu'."
        )
    return xla_client.make_cpu_client()


def devices() -> list[Device]:
    """All devices of the backend."""
    return cast(list[Device], backend().devices())


def local_devices() -> list[Device]:
    """The devices attached to this process."""
    return cast(list[Device], backend().local_devices())


def device_count() -> int:
    """The number of devices."""
    return len(devices())


def default_device() -> Device:
    """The device computations run on when none is given."""
    return devices()[0]


@functools.cache
def single_device_sharding(device: Device) -> Any:
    """The cached ``SingleDeviceSharding`` of one device."""
    return _jax.SingleDeviceSharding(device)


def device_list(devs: tuple[Device, ...]) -> Any:
    """A jaxlib ``DeviceList``."""
    return _jax.DeviceList(devs)
