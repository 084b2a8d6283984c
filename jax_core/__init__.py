"""jax_core: a JAX-compatible array runtime on jaxlib, precisely typed.

Use it as ``import jax_core as jax`` and ``import jax_core.numpy as jnp``.
"""

from jax_core.version import __version__ as __version__
