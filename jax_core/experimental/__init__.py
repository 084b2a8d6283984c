"""``jax_core.experimental``: the experimental APIs jax_core has (as ``jax.experimental``)."""

from jax_core._src.callbacks.io import io_callback as io_callback

__all__ = ["io_callback"]
