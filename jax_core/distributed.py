"""``jax_core.distributed``: running one program as several processes (as ``jax.distributed``).

Each process calls :func:`initialize` first; process 0 runs the coordination service. Then
``jax_core.devices()`` lists every process's devices and ``jax_core.local_devices()`` this
process's. See docs/distributed.md.
"""

from jax_core._src.distributed.state import initialize as initialize
from jax_core._src.distributed.state import is_initialized as is_initialized
from jax_core._src.distributed.state import shutdown as shutdown

__all__ = ["initialize", "is_initialized", "shutdown"]
