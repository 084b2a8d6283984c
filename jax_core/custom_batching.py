"""Custom batching rules (``jax.custom_batching``): ``custom_vmap`` and ``sequential_vmap``."""

from jax_core._src.transforms.custom_batching import custom_vmap as custom_vmap
from jax_core._src.transforms.custom_batching import sequential_vmap as sequential_vmap
