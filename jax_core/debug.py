"""``jax_core.debug``: printing and calling back into Python from staged code (as ``jax.debug``)."""

from jax_core._src.callbacks.breakpoint import breakpoint as breakpoint
from jax_core._src.callbacks.debugging import DebugEffect as DebugEffect
from jax_core._src.callbacks.debugging import OrderedDebugEffect as OrderedDebugEffect
from jax_core._src.callbacks.debugging import debug_callback as callback
from jax_core._src.callbacks.debugging import debug_log as log
from jax_core._src.callbacks.debugging import debug_print as print
from jax_core._src.sharding.visualize import inspect_array_sharding as inspect_array_sharding
from jax_core._src.sharding.visualize import visualize_array_sharding as visualize_array_sharding
from jax_core._src.sharding.visualize import visualize_sharding as visualize_sharding

__all__ = [
    "DebugEffect", "OrderedDebugEffect", "breakpoint", "callback", "inspect_array_sharding", "log", "print",
    "visualize_array_sharding", "visualize_sharding",
]  # fmt: skip
