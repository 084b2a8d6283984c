"""``jax_core.extend.random`` and ``jax_core.ffi`` as their documentation uses them type-check as
written: a user PRNG implementation feeds ``random.key``, and an ``ffi_call`` is a typed callable
(lowered here; calling it needs a registered handler)."""

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.extend import random as jex_random

key = jex_random.seed_with_impl(jex_random.rbg_prng_impl, 0)
bits: jax.Array = jax.random.bits(key, (3,))
print(bits.shape, jax.random.key(0, impl=jex_random.threefry_prng_impl).dtype)

call = jax.ffi.ffi_call("typing_usage_target", jax.ShapeDtypeStruct((3,), jnp.float32))
text: str = jax.jit(call).lower(np.ones(3, np.float32)).as_text()
print("typing_usage_target" in text, jax.ffi.include_dir().endswith("include"))
