"""The PjRt client and its devices (the only module that creates a jaxlib client)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, cast

from jax_core._src import config
from jax_core._src.core.once import once
from jax_core._src.distributed import state as distributed
from jax_core._src.distributed.runtime import make_collectives
from jax_core._src.lib import jax_ext, xla_client

if TYPE_CHECKING:
    from jax_core._src.lib.mlir import ir
    from jax_core._src.lib.devices import Device

# ``xla_client`` is typed, but what it re-exports from the stubless ``_jax`` extension
# (``make_cpu_client``'s ``Client``) is unknown to checkers: it is reached through
# ``ModuleType`` (attributes are ``Any``) and typed by the Protocols below.
_xc: ModuleType = xla_client


class HloModule(Protocol):
    """jaxlib's ``HloModule``: an XLA HLO module of a compiled executable."""

    def to_string(self) -> str:
        """The module as HLO text."""
        ...


class ExecuteResults(Protocol):
    """jaxlib's ``ExecuteResults``: the per-device output buffers of one execution."""

    def consume_with_handlers(self, out_handlers: Sequence[object], /) -> list[object]:
        """Builds the output arrays with one result handler per output."""
        ...

    def consume_token(self) -> ShardedToken:
        """The token of the execution (when run ``with_tokens``): ready once it has finished,
        side effects included."""
        ...


class ShardedToken(Protocol):
    """jaxlib's ``ShardedToken``: the runtime token of one execution on its devices."""

    def block_until_ready(self) -> None:
        """Waits until the execution, and its side effects, have finished."""
        ...


class LoadedExecutable(Protocol):
    """jaxlib's ``LoadedExecutable``: a computation compiled and loaded on devices."""

    def execute_sharded(self, arguments: Sequence[object], /, *, with_tokens: bool = False) -> ExecuteResults:
        """Runs on one device array per argument (asynchronously); ``with_tokens``: also gives
        the execution's runtime token (``consume_token``)."""
        ...

    def hlo_modules(self) -> list[HloModule]:
        """The optimized HLO modules XLA compiled."""
        ...

    def cost_analysis(self) -> object:
        """XLA's cost estimates: a ``dict[str, float | ...]`` (a list of them in old jaxlibs)."""
        ...


class DeviceList(Protocol):
    """jaxlib's ``DeviceList``: an immutable, hashable tuple of devices."""

    def __len__(self) -> int: ...
    def __getitem__(self, i: int, /) -> Device: ...


class CompileOptions(Protocol):
    """jaxlib's ``CompileOptions`` (XLA compilation settings); used as built."""


class Client(Protocol):
    """jaxlib's PjRt ``Client``: the part of it jax_core uses."""

    @property
    def platform(self) -> str:
        """The platform name, e.g. ``'cpu'``."""
        ...

    def process_index(self) -> int:
        """The index of this process."""
        ...

    def devices(self) -> list[Device]:
        """All devices of the client (of every process)."""
        ...

    def local_devices(self) -> list[Device]:
        """The devices attached to this process."""
        ...

    def compile_and_load(
        self,
        computation: ir.Module,
        executable_devices: DeviceList,
        compile_options: CompileOptions,
        /,
        host_callbacks: Sequence[Callable[..., Any]] = (),
    ) -> LoadedExecutable:
        """Compiles a StableHLO module and loads it on ``executable_devices``."""
        ...


class CppSharding(Protocol):
    """A sharding of jaxlib's C++ runtime (here ``_jax.SingleDeviceSharding``).

    jax_core only passes these back to jaxlib (transfers, result handlers, the jit
    fast path); :func:`jax_core._src.sharding.shardings.from_cpp_sharding` maps them to
    jax_core shardings.
    """


def _requested_platforms() -> list[str]:
    """``jax_platforms`` (or the older ``jax_platform_name``), set by ``config.update`` or the
    ``JAX_PLATFORMS``/``JAX_PLATFORM_NAME`` environment variables, read when the client is made."""
    raw = config.platforms.value or config.platform_name.value or ""
    return [p.strip().lower() for p in raw.split(",") if p.strip()]


@once
def backend() -> Client:
    """The CPU PjRt client, created on first use (once, whichever threads get there together)."""
    requested = _requested_platforms()
    if requested and "cpu" not in requested:
        raise NotImplementedError(
            f"JAX_PLATFORMS={','.join(requested)} was requested, but jax_core runs on the "
            "'cpu' platform only (jaxlib's CPU client); GPU/TPU backends are not implemented. "
            "Unset JAX_PLATFORMS or set it to 'cpu'."
        )
    count = config.num_cpu_devices.value
    config.mark_backend_started()
    num_devices = count if count is not None and count > 0 else None
    joined = distributed.global_state
    if joined.client is None:
        return cast(Client, _xc.make_cpu_client(num_devices=num_devices))
    # One process of a multi-process run: the client learns every process's devices through the
    # coordination service, and runs cross-process collectives with the configured implementation.
    collectives = make_collectives(config.cpu_collectives_implementation.value, joined.client)
    return cast(
        Client,
        _xc.make_cpu_client(
            distributed_client=joined.client,
            node_id=joined.process_id,
            num_nodes=joined.num_processes,
            collectives=collectives,
            num_devices=num_devices,
            get_local_topology_timeout_minutes=config.cpu_get_local_topology_timeout_minutes.value,
            get_global_topology_timeout_minutes=config.cpu_get_global_topology_timeout_minutes.value,
        ),
    )


def devices() -> list[Device]:
    """All devices of the backend (of every process in a multi-process run)."""
    return backend().devices()


def local_devices() -> list[Device]:
    """The devices attached to this process."""
    return backend().local_devices()


def device_count() -> int:
    """The number of devices."""
    return len(devices())


def default_device() -> Device:
    """The device computations run on when none is given: ``jax_default_device`` when it names a
    device (``jax.default_device(d)``), otherwise this process's first device."""
    chosen = config.default_device.value
    if chosen is None or isinstance(chosen, str):
        if isinstance(chosen, str) and chosen != "cpu":
            raise RuntimeError(
                f"Unknown backend: '{chosen}' requested, but no platforms that are instances of {chosen} "
                "are present. Platforms present are: cpu"
            )
        return local_devices()[0]
    return cast("Device", chosen)


@once
def single_device_sharding(device: Device) -> CppSharding:
    """The cached ``SingleDeviceSharding`` of one device."""
    return cast(CppSharding, jax_ext.SingleDeviceSharding(device))


def device_list(devs: tuple[Device, ...]) -> DeviceList:
    """A jaxlib ``DeviceList``."""
    return cast(DeviceList, jax_ext.DeviceList(devs))
