"""``jax_core.debug``: printing and calling back into Python from staged code (as ``jax.debug``)."""

from jax_core._src.callbacks.breakpoint import breakpoint as breakpoint
from jax_core._src.callbacks.debugging import DebugEffect as DebugEffect
from jax_core._src.callbacks.debugging import OrderedDebugEffect as OrderedDebugEffect
from jax_core._src.callbacks.debugging import debug_callback as callback
from jax_core._src.callbacks.debugging import debug_log as log
from jax_core._src.callbacks.debugging import debug_print as print

__all__ = ["DebugEffect", "OrderedDebugEffect", "breakpoint", "callback", "log", "print"]
