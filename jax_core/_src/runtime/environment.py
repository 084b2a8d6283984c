"""What the process runs on: ``default_backend``, ``local_device_count``, ``process_index`` /
``process_count`` / ``process_indices``, ``live_arrays``,
``print_environment_info``, and ``copy_to_host_async``."""

from __future__ import annotations

import platform
import sys
from typing import Any, Literal, overload

import numpy as np

from jax_core._src.backend import client
from jax_core._src.lib import JAXLIB_VERSION
from jax_core._src.runtime.array import ArrayImpl
from jax_core._src.tree.tree_util import tree_leaves
from jax_core._src.typing.basearray import Array
from jax_core.version import __version__


def default_backend() -> str:
    """The platform name of the default backend: ``'cpu'`` on jax_core."""
    return client.backend().platform


def local_device_count(backend: str | None = None) -> int:
    """The number of devices attached to this process (of ``backend``, default: the default one)."""
    _check_backend(backend)
    return len(client.local_devices())


def process_index(backend: str | None = None) -> int:
    """This process's index among the processes of a multi-process run (0 on one process)."""
    _check_backend(backend)
    raw: Any = client.backend()
    return int(raw.process_index())


def process_count(backend: str | None = None) -> int:
    """The number of processes taking part in the computation (1 on one process)."""
    _check_backend(backend)
    return len({d.process_index for d in client.devices()})


def process_indices(backend: str | None = None) -> list[int]:
    """The indices of every process, in order."""
    _check_backend(backend)
    return sorted({d.process_index for d in client.devices()})


def _check_backend(backend: object) -> None:
    if backend is not None and backend != "cpu":
        raise RuntimeError(f"Unknown backend {backend}. Available: ['cpu']")


def live_arrays(platform: str | None = None) -> list[Array]:
    """Every array alive on the devices of ``platform`` (default: the default backend)."""
    _check_backend(platform)
    backend: Any = client.backend()
    arrays: list[Array] = list(backend.live_arrays())
    return arrays


def copy_to_host_async(x: Any) -> Any:
    """Starts copying every array leaf of pytree ``x`` to the host, without waiting; returns ``x``.

    A later ``np.asarray`` of a leaf then finds its host copy ready or in flight."""
    for leaf in tree_leaves(x):
        if isinstance(leaf, ArrayImpl):
            leaf.copy_to_host_async()
    return x


@overload
def print_environment_info(return_string: Literal[False] = False) -> None: ...
@overload
def print_environment_info(return_string: Literal[True]) -> str: ...
@overload
def print_environment_info(return_string: bool) -> str | None: ...
def print_environment_info(return_string: bool = False) -> str | None:
    """Prints (or, with ``return_string``, returns) the versions of jax_core, jaxlib, NumPy and
    Python, the devices and the platform: what a bug report needs."""
    devices = client.devices()
    text = "\n".join(
        [
            f"jax_core: {__version__}",
            f"jaxlib: {'.'.join(map(str, JAXLIB_VERSION))}",
            f"numpy:  {np.__version__}",
            f"python: {sys.version.replace(chr(10), ' ')}",
            f"device info: {default_backend()}-{len(devices)}, {len(client.local_devices())} local devices",
            f"process_count: {process_count()}",
            f"platform: {platform.uname()}",
        ]
    )
    if return_string:
        return text
    print(text)
    return None
