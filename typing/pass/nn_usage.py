"""`jax_core.nn` and `jax_core.nn.initializers`: activations, softmax, one-hot, attention and
initializers keep precise types (arrays in, arrays out; initializers are `Initializer`s)."""

from typing import assert_type

import jax_core
import jax_core.nn as nn
import jax_core.nn.initializers as init
import jax_core.numpy as jnp
from jax_core import Array

x = jnp.linspace(-2.0, 2.0, 8).reshape(2, 4)
key = jax_core.random.key(0)

assert_type(nn.relu(x), Array)
assert_type(nn.gelu(x, approximate=False), Array)
assert_type(nn.glu(x, axis=-1), Array)
assert_type(nn.softmax(x, axis=(0, 1), where=x > 0), Array)
assert_type(nn.log_softmax(x, axis=None), Array)
assert_type(nn.standardize(x, axis=0, epsilon=1e-3, algorithm="stable"), Array)
assert_type(nn.one_hot(jnp.array([0, 2]), 3, dtype=jnp.int8, axis=0), Array)
assert_type(nn.logsumexp(x, axis=1), Array)
assert_type(nn.logsumexp(x, axis=1, return_sign=True), tuple[Array, Array])
assert_type(nn.tanh(x) + nn.sigmoid(x) * nn.silu(2.0), Array)

grad_relu = jax_core.grad(nn.relu)(0.0)
batched = jax_core.vmap(nn.elu)(x)

q = jnp.ones((2, 3, 4, 8))
assert_type(nn.dot_product_attention(q, q, q, is_causal=True), Array)
out, lse = nn.dot_product_attention(q, q, q, return_residual=True)
assert_type(out, Array)
assert_type(lse, Array)

config = nn.get_scaled_dot_general_config("mxfp8")
assert_type(config.block_size, int)
product = nn.scaled_dot_general(jnp.ones((2, 32, 64)), jnp.ones((2, 32, 64)), (((2,), (2,)), ((0,), (0,))), configs=[config] * 3)
assert_type(product, Array)

initializer: init.Initializer = init.glorot_normal(in_axis=0, out_axis=1)
assert_type(initializer(key, (3, 4)), Array)
assert_type(init.zeros(key, (2,), jnp.float16), Array)
assert_type(init.variance_scaling(2.0, "fan_in", "truncated_normal")(key, [4, 5]), Array)
assert_type(init.orthogonal(scale=0.5)(key, (4, 4)), Array)
params = [f(key, (3, 3)) for f in (init.lecun_uniform(), init.he_normal(), init.constant(0.1), init.ones)]
