"""``jax.distributed``: joining the processes of a multi-process run.

Process 0 starts jaxlib's coordination service; every process connects a client to it. The CPU
client, made afterwards (``backend/client.py``), is built over that client with Gloo collectives,
so ``devices()`` lists every process's devices and ``local_devices()`` this process's.
"""

from __future__ import annotations

import atexit
import errno
import logging
import os
import socket
import sys
import threading
import warnings
from collections.abc import Sequence

from jax_core._src import config
from jax_core._src.core.errors import JaxRuntimeError
from jax_core._src.distributed.runtime import (
    DistributedRuntimeClient, DistributedRuntimeService, PreemptionSyncManager, make_client,
    make_preemption_sync_manager, make_service,
)  # fmt: skip

logger = logging.getLogger(__name__)

_ONCE = "distributed.initialize should only be called once."


class State:
    """The process's place in the run: its id, the number of processes, the service (process 0)
    and the client. One instance, ``global_state``."""

    def __init__(self) -> None:
        self.process_id: int = 0
        self.num_processes: int = 1
        self.service: DistributedRuntimeService | None = None
        self.client: DistributedRuntimeClient | None = None
        self.preemption_sync_manager: PreemptionSyncManager | None = None
        self.coordinator_address: str | None = None
        self.local_device_ids: list[int] | None = None
        self.partition_index: int | None = None
        self._lock = threading.Lock()
        self._exit_hook = False

    def initialize(
        self,
        coordinator_address: str | None,
        num_processes: int | None,
        process_id: int | None,
        local_device_ids: int | Sequence[int] | None,
        cluster_detection_method: str | None,
        initialization_timeout: int,
        heartbeat_timeout_seconds: int,
        shutdown_timeout_seconds: int,
        coordinator_bind_address: str | None,
        partition_index: int | None,
        tls: dict[str, object],
    ) -> None:
        """Checks the arguments (JAX's errors), starts the service on process 0 and connects."""
        coordinator_address = coordinator_address or os.environ.get("JAX_COORDINATOR_ADDRESS")
        num_processes = _from_env(num_processes, "JAX_NUM_PROCESSES")
        process_id = _from_env(process_id, "JAX_PROCESS_ID")
        if isinstance(local_device_ids, int):
            local_device_ids = [local_device_ids]
        if local_device_ids is None and (ids := os.environ.get("JAX_LOCAL_DEVICE_IDS")):
            local_device_ids = [int(i) for i in ids.split(",")]
        if cluster_detection_method not in (None, "deactivate") and None in (
            coordinator_address, num_processes, process_id
        ):  # fmt: skip
            raise NotImplementedError(
                f"cluster_detection_method={cluster_detection_method!r}: jax_core does not detect "
                "clusters (Slurm, Open MPI, TPU, mpi4py). Pass coordinator_address, num_processes "
                "and process_id, or set JAX_COORDINATOR_ADDRESS, JAX_NUM_PROCESSES and JAX_PROCESS_ID."
            )
        if coordinator_address is None:
            raise ValueError("coordinator_address should be defined.")
        if num_processes is None:
            raise ValueError("Number of processes must be defined.")
        if process_id is None:
            raise ValueError("The process id of the current process must be defined.")
        if not isinstance(process_id, int):  # pyright: ignore[reportUnnecessaryIsInstance]  (untyped callers)
            raise TypeError(
                f"process_id must be a nonnegative int. Got process_id={process_id} of type {type(process_id)}."
            )
        if not isinstance(num_processes, int):  # pyright: ignore[reportUnnecessaryIsInstance]  (untyped callers)
            raise TypeError(
                f"num_processes must be a positive int. Got num_processes={num_processes} of type {type(num_processes)}."
            )
        if not 0 <= process_id < num_processes:
            raise ValueError(
                "process_id and num_processes must be nonnegative, with process_id < num_processes. "
                f"Got process_id={process_id}, num_processes={num_processes}."
            )
        bind = coordinator_bind_address or os.environ.get(
            "JAX_COORDINATOR_BIND_ADDRESS", "[::]:" + coordinator_address.rsplit(":", 1)[1]
        )
        with self._lock:
            if self.client is not None or self.service is not None:
                raise RuntimeError(_ONCE)
            service = None
            if process_id == 0:
                logger.info("Starting JAX distributed service on %s", bind)
                _check_port_free(bind)
                try:
                    service = make_service(
                        bind, num_processes, heartbeat_timeout=heartbeat_timeout_seconds,
                        shutdown_timeout=shutdown_timeout_seconds, tls=tls,
                    )  # fmt: skip
                except JaxRuntimeError as e:
                    raise JaxRuntimeError(
                        f"{e}: process 0 could not start the coordination service on {bind}; is the port "
                        "already in use (another run, or a process that has not exited)? Choose a free port "
                        "for coordinator_address (or JAX_COORDINATOR_ADDRESS)."
                    ) from e
            client = make_client(
                coordinator_address, process_id, init_timeout=initialization_timeout,
                heartbeat_timeout=heartbeat_timeout_seconds, shutdown_timeout=shutdown_timeout_seconds,
                tls=tls,
            )  # fmt: skip
            logger.info("Connecting to JAX distributed service on %s", coordinator_address)
            # jaxlib's client ends the process when the processes have not all joined in time
            # (its message names no process): say first, from Python, who is waiting for whom.
            watchdog = threading.Timer(
                max(initialization_timeout - 0.5, 0.9 * initialization_timeout),
                _report_join_timeout, (coordinator_address, num_processes, process_id, initialization_timeout),
            )  # fmt: skip
            watchdog.daemon = True
            watchdog.start()
            try:
                client.connect()
            except BaseException:
                if service is not None:
                    service.shutdown()
                raise
            finally:
                watchdog.cancel()
            self.service, self.client = service, client
            if not self._exit_hook:
                # As JAX's exit hook: leave the run cleanly when the program ends without shutdown().
                atexit.register(self.shutdown)
                self._exit_hook = True
            if config.enable_preemption_service.value:
                # As JAX: SIGTERM becomes a preemption notice the processes agree on
                # (``multihost_utils.reached_preemption_sync_point``), not an exit.
                self.preemption_sync_manager = make_preemption_sync_manager(client)
            self.coordinator_address = coordinator_address
            self.process_id, self.num_processes = process_id, num_processes
            self.local_device_ids = None if local_device_ids is None else list(local_device_ids)
            self.partition_index = _partition_index(partition_index)

    def shutdown(self) -> None:
        """Leaves the run: the client waits at the shutdown barrier, then process 0 stops the
        service. Nothing happens when the run was never joined."""
        with self._lock:
            client, service, manager = self.client, self.service, self.preemption_sync_manager
            self.client = self.service = self.preemption_sync_manager = None
            if manager is not None:  # before the client it listens through
                manager.shutdown()
            if client is not None:
                client.shutdown()
            if service is not None:
                service.shutdown()


def _check_port_free(bind: str) -> None:
    """Raises JAX's runtime error when ``bind``'s port is taken: jaxlib's service fails there, and
    sometimes crashes the process while failing."""
    host, _, port_text = bind.rpartition(":")
    host = host.strip("[]")
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"coordinator address {bind!r} must end with ':<port>'.") from None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    probe = socket.socket(family, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host in ("", "::"):
            probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # also IPv4, as gRPC binds
        probe.bind((host or "::", port))
    except OSError as e:
        if e.errno != errno.EADDRINUSE:
            return  # (an address family this host lacks: let jaxlib decide)
        raise JaxRuntimeError(
            f"UNKNOWN: Failed to start RPC server: process 0 could not start the coordination service on "
            f"{bind}: the port {port} is already in use (another run, or a process that has not exited). "
            "Choose a free port for coordinator_address (or JAX_COORDINATOR_ADDRESS)."
        ) from None
    finally:
        probe.close()


def _report_join_timeout(address: str, num_processes: int, process_id: int, timeout: int) -> None:
    others = sorted(set(range(num_processes)) - {process_id})
    sys.stderr.write(
        f"jax_core.distributed.initialize: process {process_id} has waited {timeout} s "
        f"(initialization_timeout) for all {num_processes} processes to join the coordination service at "
        f"{address}, and some of processes {others} have not joined. Check that {num_processes} processes "
        f"were started (num_processes={num_processes}), each with a distinct process_id in "
        f"0..{num_processes - 1}, and that they reach {address}. jaxlib's coordination client now stops "
        "this process.\n"
    )
    sys.stderr.flush()


def _from_env(value: int | None, variable: str) -> int | None:
    """``value``, or the integer in environment variable ``variable`` (jax_core also reads
    ``JAX_NUM_PROCESSES`` and ``JAX_PROCESS_ID``, as a cluster launcher would set them)."""
    if value is not None:
        return value
    raw = os.environ.get(variable)
    if raw is None:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{variable}={raw!r} must be an integer.") from None


def _partition_index(given: int | None) -> int | None:
    if given is not None:
        return given
    raw = os.environ.get("JAX_PARTITION_INDEX")
    return None if raw is None else int(raw)


global_state = State()


def initialize(
    coordinator_address: str | None = None,
    num_processes: int | None = None,
    process_id: int | None = None,
    local_device_ids: int | Sequence[int] | None = None,
    cluster_detection_method: str | None = None,
    initialization_timeout: int = 300,
    heartbeat_timeout_seconds: int = 100,
    shutdown_timeout_seconds: int = 300,
    coordinator_bind_address: str | None = None,
    slice_index: int | None = None,
    partition_index: int | None = None,
    mtls_cert_file: str | None = None,
    mtls_key_file: str | None = None,
    mtls_ca_file: str | None = None,
    mtls_peer_uri_prefix: str | None = None,
    verify_secure_credentials: bool | None = None,
) -> None:
    """Joins this process to a multi-process run; call it before anything that starts the backend.

    Args:
      coordinator_address: ``host:port`` of process 0's coordination service (default:
        ``JAX_COORDINATOR_ADDRESS``). Every process must name the same address.
      num_processes: how many processes take part (default: ``JAX_NUM_PROCESSES``).
      process_id: this process's index, ``0 <= process_id < num_processes`` (default:
        ``JAX_PROCESS_ID``). Process 0 runs the service.
      local_device_ids: the devices this process may use (kept; on CPU every local device is used).
      cluster_detection_method: ``None`` or ``"deactivate"``; jax_core detects no clusters.
      initialization_timeout: seconds to wait for every process to join; past it,
        ``initialize`` raises (naming the processes that did not join).
      heartbeat_timeout_seconds: seconds without a heartbeat after which a process is taken for
        dead, and the others are stopped with an error naming it.
      shutdown_timeout_seconds: seconds ``shutdown`` waits for the other processes.
      coordinator_bind_address: where process 0's service listens (default: every address, on
        ``coordinator_address``'s port).
      slice_index: the older name of ``partition_index``.
      partition_index: the partition this process's devices belong to.
      mtls_cert_file, mtls_key_file, mtls_ca_file, mtls_peer_uri_prefix,
        verify_secure_credentials: mutual TLS for the coordination service (passed to jaxlib).

    Raises:
      RuntimeError: when called twice, or after the backend started (``jax.devices()``, any
        computation); ``ValueError``/``TypeError`` for missing or invalid arguments.
    """
    if config.backend_started():
        raise RuntimeError(
            "jax.distributed.initialize() must be called before any JAX calls that might initialise the XLA "
            "backend. This includes any computation, but also calls to jax.devices, jax.device_put, and others."
        )
    if partition_index is None and slice_index is not None:
        warnings.warn("`slice_index` has been deprecated. Please use `partition_index` instead.", DeprecationWarning, stacklevel=2)
        partition_index = slice_index
    tls: dict[str, object] = {
        name: value
        for name, value in (
            ("mtls_cert_file", mtls_cert_file), ("mtls_key_file", mtls_key_file), ("mtls_ca_file", mtls_ca_file),
            ("mtls_peer_uri_prefix", mtls_peer_uri_prefix), ("verify_secure_credentials", verify_secure_credentials),
        )
        if value is not None
    }  # fmt: skip
    global_state.initialize(
        coordinator_address, num_processes, process_id, local_device_ids, cluster_detection_method,
        initialization_timeout, heartbeat_timeout_seconds, shutdown_timeout_seconds,
        coordinator_bind_address, partition_index, tls,
    )  # fmt: skip


def is_initialized() -> bool:
    """Whether this process has joined a multi-process run (``initialize`` was called)."""
    return global_state.client is not None


def shutdown() -> None:
    """Leaves the multi-process run (waits for the other processes at the shutdown barrier).

    Does nothing if ``initialize`` was not called."""
    global_state.shutdown()
