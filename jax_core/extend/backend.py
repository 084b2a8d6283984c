"""``jax.extend.backend``: the PjRt clients (backends) jax_core runs on, and their caches.

jax_core computes on jaxlib's CPU client; ``register_backend_factory`` adds other clients that
``backends()``/``get_backend(name)`` return (jax_core's own computations stay on the CPU client).
"""

from jax_core._src.transforms.backend_api import backend_xla_version as backend_xla_version
from jax_core._src.transforms.backend_api import backends as backends
from jax_core._src.transforms.backend_api import clear_backends as clear_backends
from jax_core._src.transforms.backend_api import (
    clear_in_memory_compilation_cache as clear_in_memory_compilation_cache,
)
from jax_core._src.transforms.backend_api import get_backend as get_backend
from jax_core._src.transforms.backend_api import get_compile_options as get_compile_options
from jax_core._src.transforms.backend_api import get_default_device as get_default_device
from jax_core._src.transforms.backend_api import ifrt_proxy as ifrt_proxy
from jax_core._src.transforms.backend_api import register_backend_cache as register_backend_cache
from jax_core._src.transforms.backend_api import (
    register_backend_factory as register_backend_factory,
)

__all__ = [
    "backend_xla_version",
    "backends",
    "clear_backends",
    "clear_in_memory_compilation_cache",
    "get_backend",
    "get_compile_options",
    "get_default_device",
    "ifrt_proxy",
    "register_backend_cache",
    "register_backend_factory",
]
