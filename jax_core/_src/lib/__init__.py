"""The one gateway to jaxlib: every jaxlib import in jax_core goes through here.

Importing this module checks the jaxlib contract (seed 000, "jax and jaxlib
versioning"): the installed jaxlib must be at least ``MINIMUM_JAXLIB_VERSION`` and
its C++ extension must speak an API version in ``SUPPORTED_API_VERSIONS``. The
version numbers are exposed so other modules can gate features on them.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

# The C++ client logs INFO lines to stderr when it starts; keep user output clean.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import jaxlib.version as _jaxlib_version  # noqa: E402

from jax_core.version import (  # noqa: E402
    MINIMUM_JAXLIB_VERSION as MINIMUM_JAXLIB_VERSION,
)
from jax_core.version import (
    SUPPORTED_API_VERSIONS as SUPPORTED_API_VERSIONS,
)
from jax_core.version import (
    __version__ as _jax_core_version,
)

_FIX = "pip install --upgrade 'jaxlib>={minimum},<0.13'"


def _parse(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in version.split("+")[0].split("."):
        if not piece.isdigit():
            break
        parts.append(int(piece))
    return tuple(parts)


def check_jaxlib_version(installed: str, api_version: int) -> tuple[int, ...]:
    """Checks an installed jaxlib against jax_core's contract; returns its version tuple.

    Raises ``ImportError`` (jaxlib too old) or ``RuntimeError`` (extension API
    version unknown to this jax_core), naming both versions and the fix.
    """
    minimum = ".".join(map(str, MINIMUM_JAXLIB_VERSION))
    fix = _FIX.format(minimum=minimum)
    parsed = _parse(installed)
    if parsed < MINIMUM_JAXLIB_VERSION:
        raise ImportError(
            f"jax_core {_jax_core_version} requires jaxlib >= {minimum}, but jaxlib "
            f"{installed} is installed. Upgrade it with: {fix}"
        )
    if api_version not in SUPPORTED_API_VERSIONS:
        lo, hi = min(SUPPORTED_API_VERSIONS), max(SUPPORTED_API_VERSIONS)
        newer = api_version > hi
        raise RuntimeError(
            f"jax_core {_jax_core_version} supports jaxlib extension API versions "
            f"{lo}..{hi}, but the installed jaxlib {installed} has API version "
            f"{api_version} ({'newer' if newer else 'older'} than this jax_core knows). "
            + (
                f"Install a jaxlib this jax_core was tested with: {fix}"
                if newer
                else f"Upgrade jaxlib with: {fix}"
            )
        )
    return parsed


from jaxlib import xla_client as xla_client  # noqa: E402

JAXLIB_VERSION: tuple[int, ...] = check_jaxlib_version(
    _jaxlib_version._version,  # pyright: ignore[reportPrivateUsage]
    xla_client._version,  # pyright: ignore[reportPrivateUsage]
)
"""The installed jaxlib's version, e.g. ``(0, 12, 0, 1)``."""

API_VERSION: int = xla_client._version  # pyright: ignore[reportPrivateUsage]
"""The installed jaxlib extension's API version (``xla_client._version``)."""

# jaxlib's C++ extension modules ship no stubs, so both checkers would see them as
# unknown. They are imported by name and typed as ``ModuleType`` on purpose: their
# attributes are ``Any``, and each module that uses one declares the precise type
# of what it takes from it (an annotated variable, a ``cast`` or a small Protocol).
jax_ext: ModuleType = importlib.import_module("jaxlib._jax")
"""jaxlib's main C++ extension ``jaxlib._jax`` (arrays, shardings, devices, the jit fast path)."""

_jax: ModuleType = jax_ext  # the name the rest of jax_core has used

weakref_lru_cache: ModuleType = importlib.import_module("jaxlib.weakref_lru_cache")
"""jaxlib's C++ ``weakref_lru_cache`` extension."""

utils: ModuleType = importlib.import_module("jaxlib.utils")
"""jaxlib's C++ ``utils`` extension."""

profiler_ext: ModuleType = importlib.import_module("jaxlib._profiler")
"""jaxlib's profiler extension (``ProfilerSession``, ``TraceMe``, the profiler server)."""

profile_data_ext: ModuleType = importlib.import_module("jaxlib._profile_data")
"""jaxlib's ``ProfileData`` extension (reading XSpace profiles)."""

pytree: ModuleType = jax_ext.pytree
"""jaxlib's C++ pytree module (``PyTreeDef``, ``PyTreeRegistry``, key entries)."""

jax_jit: ModuleType = jax_ext.jax_jit
"""jaxlib's C++ jit module (the global config states its fast path reads)."""

lapack: ModuleType = importlib.import_module("jaxlib.lapack")
"""jaxlib's LAPACK bindings: the CPU FFI custom-call targets (``registrations()``) that
``jax_core._src.lax.linalg.decompositions`` registers with XLA and lowers to."""

ifrt_proxy: ModuleType = importlib.import_module("jaxlib._ifrt_proxy")
"""jaxlib's IFRT proxy client module (``get_client``, ``ClientConnectionOptions``)."""
