"""jax_core.lax: primitives with dtype names, shapes and dimension numbers, inside and outside jit."""

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array, jit, lax

x = jnp.arange(6.0).reshape(2, 3)

ids = lax.iota("int32", 4)
grid = lax.broadcasted_iota(jnp.int8, (2, 3), 1)
half = lax.convert_element_type(x, "bfloat16")
back = lax.convert_element_type(half, jnp.float32)
wide = lax.broadcast_in_dim(jnp.ones(3), (2, 3), (1,))
prod = lax.dot_general(x, x, (((1,), (1,)), ((), ())), preferred_element_type="float32")
part = lax.slice(x, (0, 1), (2, 3))
window = lax.dynamic_slice(x, (jnp.array(0), jnp.array(1)), (2, 2))
total = lax.reduce_sum(x, (0, 1))
picked = lax.select(x > 2, x, jnp.zeros_like(x))
best = lax.argmax(x, 1, "int32")


@jit
def gelu(z: Array) -> Array:
    return 0.5 * z * (1 + lax.tanh(0.7978845608 * (z + 0.044715 * z**3)))


g: Array = gelu(x)

assert ids.shape == (4,) and grid.shape == (2, 3) and str(half.dtype) == "bfloat16"
assert wide.shape == (2, 3) and prod.shape == (2, 2) and part.shape == (2, 2)
assert window.shape == (2, 2) and float(total) == 15.0 and best.shape == (2,)
assert back.dtype == jnp.float32 and picked.shape == g.shape == (2, 3)

# JAX 0.12's one_minus_square, and check_grads with a per-dtype tolerance dict (as JAX accepts).
from jax_core.test_util import check_grads  # noqa: E402

near_one = lax.one_minus_square(jnp.array([0.5, 2.0]))
check_grads(lax.tanh, (jnp.array([0.3, -0.2]),), 2, atol={jnp.float32: 1e-2}, rtol=1e-2)
assert near_one.tolist() == [0.75, -3.0]

# JAX 0.12's lax.polynomial (lowest degree first; Python, NumPy or array coefficients) and polyval on it.
cubic: Array = lax.polynomial(jnp.array([0.5, 2.0]), [1.0, np.float32(2.0), jnp.array(3.0)], unroll=2)
horner: Array = jnp.polyval(jnp.array([3.0, 2.0, 1.0]), 2.0, unroll=4)
assert cubic.tolist() == [2.75, 17.0] and float(horner) == 17.0
