"""Typed faces of jaxlib's distributed runtime (``_jax.DistributedRuntimeService`` /
``DistributedRuntimeClient``), which the stubless extension leaves untyped."""

from __future__ import annotations

from types import ModuleType
from typing import Protocol, cast

from jax_core._src.lib import jax_ext

_jax: ModuleType = jax_ext


class DistributedRuntimeService(Protocol):
    """The coordination service process 0 runs: it registers the processes, checks their
    heartbeats and holds the key-value store."""

    def shutdown(self) -> None:
        """Stops the service (after its clients have left, or when they time out)."""
        ...


class DistributedRuntimeClient(Protocol):
    """One process's connection to the coordination service."""

    def connect(self) -> None:
        """Registers with the service; waits (up to the init timeout) until every process has."""
        ...

    def shutdown(self) -> None:
        """Leaves the job: waits at the shutdown barrier for every other process."""
        ...

    def wait_at_barrier(self, barrier_id: str, timeout_in_ms: int, process_ids: list[int] | None = None) -> None:
        """Blocks until every process (or ``process_ids``) reaches ``barrier_id``."""
        ...

    def key_value_set_bytes(self, key: str, value: bytes, allow_overwrite: bool = False) -> None:
        """Stores ``value`` under ``key`` in the service's key-value store."""
        ...

    def blocking_key_value_get_bytes(self, key: str, timeout_in_ms: int) -> bytes:
        """The value of ``key``, waiting up to ``timeout_in_ms`` for some process to set it."""
        ...

    def get_live_nodes(self, process_ids: list[int]) -> dict[int, int]:
        """Which of ``process_ids`` are alive (process id to incarnation)."""
        ...


class PreemptionSyncManager(Protocol):
    """jaxlib's preemption sync manager: on a preemption notice (SIGTERM), the processes agree
    on a step at which to save a checkpoint."""

    def initialize(self, client: DistributedRuntimeClient) -> None:
        """Starts listening for preemption notices, over ``client``."""
        ...

    def reached_sync_point(self, step_id: int) -> bool:
        """Whether ``step_id`` is the step the processes agreed on."""
        ...

    def shutdown(self) -> None:
        """Stops listening."""
        ...


def make_preemption_sync_manager(client: DistributedRuntimeClient) -> PreemptionSyncManager:
    """A preemption sync manager listening over ``client``."""
    manager = cast(PreemptionSyncManager, _jax.create_preemption_sync_manager())
    manager.initialize(client)
    return manager


class CpuCollectives(Protocol):
    """A cross-process collectives implementation for the CPU client (Gloo over TCP, or MPI)."""


def make_service(
    address: str, num_processes: int, *, heartbeat_timeout: int, shutdown_timeout: int, tls: dict[str, object]
) -> DistributedRuntimeService:
    """Starts the coordination service listening on ``address`` (``host:port``); ``tls``: the mTLS
    arguments given (``mtls_cert_file`` ...)."""
    return cast(
        DistributedRuntimeService,
        _jax.get_distributed_runtime_service(
            address, num_processes, heartbeat_timeout=heartbeat_timeout, shutdown_timeout=shutdown_timeout, **tls
        ),
    )


def make_client(
    address: str, process_id: int, *, init_timeout: int, heartbeat_timeout: int, shutdown_timeout: int,
    tls: dict[str, object],
) -> DistributedRuntimeClient:
    """A client of the service at ``address`` for process ``process_id`` (not yet connected)."""
    return cast(
        DistributedRuntimeClient,
        _jax.get_distributed_runtime_client(
            address,
            process_id,
            init_timeout=init_timeout,
            heartbeat_timeout=heartbeat_timeout,
            shutdown_timeout=shutdown_timeout,
            use_compression=True,
            **tls,
        ),
    )


def make_collectives(implementation: str | None, client: DistributedRuntimeClient) -> CpuCollectives | None:
    """The CPU collectives ``jax_cpu_collectives_implementation`` names, over ``client``."""
    if implementation is None:
        return None
    if implementation == "gloo":
        return cast(CpuCollectives, _jax.make_gloo_tcp_collectives(distributed_client=client))
    if implementation == "mpi":
        collectives = _jax.make_mpi_collectives()
        collectives.Init()
        import atexit

        atexit.register(collectives.Finalize)
        return cast(CpuCollectives, collectives)
    raise NotImplementedError(
        f"jax_cpu_collectives_implementation={implementation!r} is not available on jax_core's CPU "
        "runtime; use 'gloo' (the default) or 'mpi'."
    )
