"""The persistent compilation cache: compiled executables on disk, so another process that
compiles the same computation loads it instead of running XLA.

On when ``jax_compilation_cache_dir`` names a directory (and ``jax_enable_compilation_cache`` is
on, and ``jax_compilation_cache_max_size`` is not 0). The key hashes everything the executable
depends on: the StableHLO module, the compile options, jaxlib's version and the platform and
device kind. An executable is written only when its compilation took at least
``jax_persistent_cache_min_compile_time_secs`` and it is at least
``jax_persistent_cache_min_entry_size_bytes`` long; beyond ``jax_compilation_cache_max_size``
bytes the least recently used entries are deleted. A failure to read or write warns (raises with
``jax_raise_persistent_cache_errors``): the cache can only make compiling faster.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import tempfile
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jax_core._src import config
from jax_core._src.lib import JAXLIB_VERSION

_SUFFIX = "-cache"
_lock = threading.Lock()


def cache_dir() -> Path | None:
    """The directory in use, or None when the cache is off."""
    path = config.compilation_cache_dir.value
    if not path or not config.enable_compilation_cache.value or config.compilation_cache_max_size.value == 0:
        return None
    return Path(path)


@functools.cache
def _host_fingerprint() -> bytes:
    """What XLA's CPU code generation depends on beyond the module: the CPU's features (it
    compiles for the host) and ``XLA_FLAGS``, so a directory shared by machines stays correct."""
    features = b""
    try:
        with open("/proc/cpuinfo", "rb") as f:
            features = next((line for line in f if line.startswith((b"flags", b"Features"))), b"")
    except OSError:
        features = platform.processor().encode()
    return features + b"|" + os.environ.get("XLA_FLAGS", "").encode()


def cache_key(module_name: str, module_text: str, options: bytes, platform_name: str, device_kind: str) -> str:
    """The entry's file name: the module's name and a hash of what the executable depends on."""
    digest = hashlib.sha256()
    parts = (module_text.encode(), options, ".".join(map(str, JAXLIB_VERSION)).encode(),
             platform_name.encode(), device_kind.encode(), _host_fingerprint())  # fmt: skip
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return f"{module_name}-{digest.hexdigest()}"


def _problem(what: str, err: Exception) -> None:
    if config.raise_persistent_cache_errors.value:
        raise err
    warnings.warn(f"Error {what} the persistent compilation cache: {type(err).__name__}: {err}", stacklevel=3)


def read(directory: Path, key: str) -> bytes | None:
    """The entry's bytes, or None on a miss (its access time is renewed on a hit)."""
    path = directory / (key + _SUFFIX)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        _problem("reading", err)
        return None
    try:
        os.utime(path)  # least-recently-used order is by modification time
    except OSError:
        pass
    return data


def write(directory: Path, key: str, data: bytes, compile_secs: float) -> None:
    """Stores an entry when it passes the size and compile-time thresholds; evicts beyond the limit."""
    if compile_secs < config.persistent_cache_min_compile_time_secs.value:
        return
    if len(data) < (config.persistent_cache_min_entry_size_bytes.value or 0):
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, directory / (key + _SUFFIX))  # atomic: readers never see half an entry
    except OSError as err:
        _problem("writing to", err)
        return
    limit = config.compilation_cache_max_size.value
    if limit is not None and limit > 0:
        _evict(directory, limit)


def _evict(directory: Path, limit: int) -> None:
    with _lock:
        entries: list[tuple[float, int, Path]] = []
        for path in directory.glob("*" + _SUFFIX):
            try:
                stat = path.stat()
            except OSError:
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= limit:
                break
            try:
                path.unlink()
                total -= size
            except OSError:
                pass


def compile_or_load(
    key: str,
    compile_fn: Callable[[], Any],
    serialize: Callable[[Any], bytes],
    deserialize: Callable[[bytes], Any],
) -> Any:
    """The executable of ``key``: loaded from the cache when there, else compiled and stored."""
    directory = cache_dir()
    if directory is None:
        return compile_fn()
    data = read(directory, key)
    if data is not None:
        try:
            return deserialize(data)
        except Exception as err:  # noqa: BLE001  (a corrupt or incompatible entry: compile instead)
            _problem("loading an entry of", err)
    start = time.monotonic()
    executable = compile_fn()
    elapsed = time.monotonic() - start
    try:
        blob = serialize(executable)
    except Exception as err:  # noqa: BLE001  (some executables cannot be serialized)
        _problem("serializing for", err)
        return executable
    write(directory, key, blob, elapsed)
    return executable
