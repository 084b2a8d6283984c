"""JAX's backend extension API (``jax.extend.backend``) over jax_core's one PjRt client.

jax_core computes on jaxlib's CPU client (``backend/client.py``), created once per process. This
module adds what JAX's ``xla_bridge`` offers around it: a registry of backend factories
(``register_backend_factory``; their clients are created by ``backends()`` and returned by
``get_backend(name)``, but jax_core's ``jit`` and eager operations run on the CPU client only),
caches cleared with the backends (``register_backend_cache``), XLA compile options built like
JAX's (``get_compile_options``) and the clearing of compiled computations.

``clear_backends`` drops the registered backends' clients and every cache, as JAX's does, but
keeps the CPU client: arrays, shardings and executables all over jax_core refer to its devices.
"""

from __future__ import annotations

import dataclasses
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any, Protocol

import numpy as np

from jax_core._src import config
from jax_core._src.backend import client as _client
from jax_core._src.backend.client import Client, CompileOptions
from jax_core._src import lib as _lib
from jax_core._src.lib import xla_client
from jax_core._src.lib.devices import Device
from jax_core._src.runtime.compile import compile_options
from jax_core._src.transforms import jit as _jit

_xc: ModuleType = xla_client

ifrt_proxy: ModuleType = _lib.ifrt_proxy
"""jaxlib's IFRT proxy client module (``get_client``, ``ClientConnectionOptions``): a client that
forwards to an IFRT proxy server (JAX's ``jax.extend.backend.ifrt_proxy``)."""

BackendFactory = Callable[[], Client | None]
"""Makes a backend's client (``None``: the backend is not available)."""

TopologyFactory = Callable[..., Any]
"""Makes a backend's topology description (for ahead-of-time compilation)."""


@dataclasses.dataclass(frozen=True)
class _Registration:
    factory: BackendFactory
    priority: int
    fail_quietly: bool
    experimental: bool
    c_api: Any | None


_CPU = "cpu"
_lock = threading.RLock()
_factories: dict[str, _Registration] = {}
_topology_factories: dict[str, TopologyFactory] = {}
_clients: dict[str, Client] = {}
"""The registered backends' clients created so far (by ``backends()``)."""
_errors: dict[str, str] = {}
"""Why a registered backend failed to initialize."""
_tried: set[str] = set()


def register_backend_factory(
    name: str,
    factory: BackendFactory,
    *,
    priority: int = 0,
    fail_quietly: bool = True,
    experimental: bool = False,
    make_topology: TopologyFactory | None = None,
    c_api: Any | None = None,
) -> None:
    """Registers a backend: ``factory()`` makes its client when ``backends()`` next initializes
    backends (``fail_quietly``: a failure is recorded, not raised). jax_core's own computations
    stay on its CPU client; ``"cpu"`` cannot be registered again."""
    with _lock:
        if name == _CPU or name in _clients:
            raise RuntimeError(f"Backend {name} already initialized")
        _factories[name] = _Registration(factory, priority, fail_quietly, experimental, c_api)
        _tried.discard(name)
        _errors.pop(name, None)
        if make_topology is not None:
            _topology_factories[name] = make_topology


def _requested(name: str) -> bool:
    raw = config.platforms.value or ""
    wanted = [p.strip().lower() for p in raw.split(",") if p.strip()]
    return not wanted or name in wanted


def _initialize(name: str, registration: _Registration) -> None:
    _tried.add(name)
    try:
        made = registration.factory()
        if made is None:
            raise RuntimeError(f"Could not initialize backend '{name}'")
    except Exception as err:
        if not registration.fail_quietly:
            raise
        _errors[name] = f"{type(err).__name__}: {err}"
        return
    _clients[name] = made


def backends() -> dict[str, Client]:
    """The initialized backends by platform name: ``"cpu"`` (jax_core's client) and the registered
    backends whose factories succeeded (initialized here on first need, highest priority first)."""
    cpu = _client.backend()
    with _lock:
        pending = [(n, r) for n, r in _factories.items() if n not in _tried and _requested(n)]
        for name, registration in sorted(pending, key=lambda item: -item[1].priority):
            _initialize(name, registration)
        return {_CPU: cpu, **_clients}


_GPU_PLATFORMS = ("cuda", "rocm", "oneapi")


def _canonical_platform(platform: str, present: Mapping[str, Client]) -> str:
    """``platform``, or for the alias ``"gpu"`` the GPU platform present (JAX's aliasing)."""
    if platform != "gpu":
        return platform
    for name in _GPU_PLATFORMS:
        if name in present:
            return name
    raise RuntimeError(
        f"Unknown backend: '{platform}' requested, but no platforms that are instances of {platform} are "
        "present. Platforms present are: " + ",".join(present)
    )


def get_backend(platform: str | Client | None = None) -> Client:
    """The client of ``platform`` (a name; a client is returned as is; ``None``: the default,
    jax_core's CPU client)."""
    if platform is not None and not isinstance(platform, str):
        return platform
    all_backends = backends()
    if platform is None:
        return all_backends[_CPU]
    name = _canonical_platform(platform, all_backends)
    found = all_backends.get(name)
    if found is not None:
        return found
    if name in _errors:
        raise RuntimeError(
            f"Backend '{name}' failed to initialize: {_errors[name]}. Available backends are {list(all_backends)}"
        )
    raise RuntimeError(f"Unknown backend {name}. Available backends are {list(all_backends)}")


def backend_xla_version(platform: str | Client | None = None) -> int | None:
    """The XLA version a plugin backend reports (``None`` for backends that report none, such as
    jaxlib's built-in CPU client)."""
    version: int | None = getattr(get_backend(platform), "xla_version", None)
    return version


def get_default_device() -> Device:
    """The device computations run on by default (``jax_default_device``, else the first)."""
    return _client.default_device()


class SupportsCacheClear(Protocol):
    """A cache: ``functools.lru_cache`` results and the like."""

    def cache_clear(self) -> None:
        """Empties the cache."""
        ...


_registered_caches: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def register_backend_cache(cache: SupportsCacheClear, for_what: str) -> None:
    """Registers ``cache`` (an object with ``cache_clear()``) to be cleared with the backends
    (``clear_backends``) and with the in-memory compilation cache, for as long as it lives (it
    is held weakly); ``for_what`` names it."""
    with _lock:
        _registered_caches[cache] = for_what


def _clear_registered_caches() -> None:
    with _lock:
        caches: list[SupportsCacheClear] = list(_registered_caches.keys())
    for cache in caches:
        cache.cache_clear()


def clear_in_memory_compilation_cache() -> None:
    """Forgets every compiled computation held in memory (``jit``'s and eager operations'; they
    compile again when next called) and clears the registered backend caches. The persistent
    compilation cache is kept."""
    _jit.clear_caches()
    _clear_registered_caches()


def clear_backends() -> None:
    """Drops the registered backends' clients (their factories run again on the next
    ``backends()``), and clears every compilation and registered cache. jax_core's CPU client is
    kept for the life of the process."""
    with _lock:
        _clients.clear()
        _errors.clear()
        _tried.clear()
    clear_in_memory_compilation_cache()


_NO_PROFILE = -1
"""``profile_version``: no feedback-directed optimization profile is to be fetched."""


def _device_id(device: Device) -> int:
    return device.id


def _device_assignment(assignment: Any, num_replicas: int, num_partitions: int) -> Any:
    arr = np.array(assignment)
    if arr.ndim == 1 and num_partitions == 1:
        arr = arr[:, None]
    if arr.ndim != 2 or num_replicas != arr.shape[0]:
        raise ValueError(f"device_assignment does not match num_replicas: {arr} vs {num_replicas}.")
    if num_partitions != arr.shape[1]:
        raise ValueError(
            f"device_assignment does not match num_partitions: {arr} vs {num_partitions}."
        )
    if arr.dtype == object:
        arr = np.vectorize(_device_id, otypes=[int])(arr)
    return _xc.DeviceAssignment.create(arr)


def get_compile_options(
    num_replicas: int,
    num_partitions: int,
    device_assignment: Sequence[Any] | np.ndarray[Any, Any] | None = None,
    env_options_overrides: Mapping[str, Any] | None = None,
    fdo_profile: bytes | None = None,
    detailed_logging: bool = True,
    backend: Client | None = None,
) -> CompileOptions:
    """XLA ``CompileOptions`` for ``num_replicas`` x ``num_partitions`` (SPMD partitioning on),
    from the configuration as jax_core compiles: ``jax_optimization_level``,
    ``jax_memory_fitting_level``, ``jax_disable_most_optimizations``; ``device_assignment`` is an
    array of devices (or ids) of shape ``(num_replicas, num_partitions)``;
    ``env_options_overrides`` are XLA options by name; ``fdo_profile`` a feedback-directed
    optimization profile. ``backend`` is accepted for JAX's signature (it only chooses a
    profile version there)."""
    overrides = dict(env_options_overrides or {})
    output_indices = overrides.pop("individually_defined_output_indices", None)
    options: Any = compile_options(overrides)
    options.num_replicas = num_replicas
    options.num_partitions = num_partitions
    if output_indices is not None:
        options.individually_defined_output_indices = output_indices
    build = options.executable_build_options
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    if fdo_profile is not None:
        build.fdo_profile = fdo_profile
    if device_assignment is not None:
        options.device_assignment = _device_assignment(
            device_assignment, num_replicas, num_partitions
        )
    options.profile_version = _NO_PROFILE
    build.debug_options.xla_detailed_logging = detailed_logging
    built: CompileOptions = options
    return built
