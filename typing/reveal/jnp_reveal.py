"""jax_core.numpy functions return Array; shapes, dtypes and sizes are plain Python types."""

from typing import Any, assert_type

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array, lax

x = jnp.ones((2, 3))

assert_type(jnp.zeros(3), Array)
assert_type(jnp.ones((2, 3), "int8"), Array)
assert_type(jnp.full(3, 1.5, jnp.float16), Array)
assert_type(jnp.arange(5), Array)
assert_type(jnp.array([1, 2, 3]), Array)
assert_type(jnp.asarray(np.ones(3)), Array)
assert_type(jnp.zeros_like(x, dtype="bool"), Array)
assert_type(jnp.sin(x), Array)
assert_type(jnp.add(x, 1), Array)
assert_type(jnp.ravel(x, order="F"), Array)
assert_type(jnp.reshape(x, (3, 2), order="F"), Array)
assert_type(jnp.where(x > 0, x, 0.0), Array)
assert_type(jnp.sum(x, axis=0), Array)
assert_type(jnp.argmax(x), Array)
assert_type(jnp.matmul(x, x.T), Array)
assert_type(jnp.concatenate([x, x], axis=1), Array)
assert_type(jnp.stack([x, x]), Array)
assert_type(jnp.reshape(x, -1), Array)
assert_type(jnp.shape(x), tuple[int, ...])
assert_type(jnp.ndim(x), int)
assert_type(jnp.size(x), int)
assert_type(jnp.broadcast_shapes((2, 1), (1, 3)), tuple[int, ...])
assert_type(jnp.promote_types("int8", "uint8"), np.dtype[Any])
assert_type(jnp.result_type(x, 1.0), np.dtype[Any])
assert_type(jnp.pi, float)
assert_type(jnp.float32(1.0), Array)  # JAX: scalar types build arrays
assert_type(lax.one_minus_square(x), Array)
assert_type(jnp.size(x, 0), int)
assert_type(jnp.size(x, (0, 1)), int)
assert_type(lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN), Array)
assert_type(lax.top_k(x, 2), list[Array])
assert_type(lax.reduce(x, 0.0, lax.add, (0,)), Array)  # one array operand: one array
method: lax.RoundingMethod = lax.RoundingMethod.AWAY_FROM_ZERO
