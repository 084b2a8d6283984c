"""``jax.nn`` and ``jax.nn.initializers``: activations, normalisations, one-hot, attention, the
block-scaled matmul, and the initializers drawn from a key."""

NN = """
celu(x, alpha=_|0.5)  ~
elu(x, alpha=_|2.0)  ~
gelu(x, approximate=_|False)  ~
glu(x[2, 4], axis=_|0)  ~
hard_sigmoid(x)
hard_silu(x)
hard_swish(x)
hard_tanh(x)
identity(a)
leaky_relu(x, negative_slope=_|0.2)
log1mexp(p)  ~
log_sigmoid(x)  ~
log_softmax(x, axis=_|0|None, where=_|jnp.array([True, False, True]))  ~
logmeanexp(x, axis=_|1|(0, 1), keepdims=_|True)  ~
logsumexp(x, axis=_|0, keepdims=_|True)  ~
mish(x)  ~
one_hot(k, 3|5, axis=_|0, dtype=_|jnp.int32|jnp.bfloat16)  -grad
relu(r)
relu6(r)
selu(x)  ~
sigmoid(x)  ~
silu(x)  ~
soft_sign(x)
softmax(x, axis=_|0|None, where=_|jnp.array([True, False, True]))  ~
softplus(x)  ~
sparse_plus(x)
sparse_sigmoid(x)
squareplus(x, b=_|1.0)  ~
standardize(x, axis=_|0|None, epsilon=_|0.1, algorithm=_|'stable')  ~
swish(x)  ~
tanh(f)  ~
dot_product_attention(s[2, 3, 4, 8], s[2, 5, 2, 8], s[2, 5, 2, 8], is_causal=_|True, scale=_|0.5, local_window_size=_|1)  ~ -vmap -grad  # grad: the backward pass sums the softmax's cotangents in another order (cancelling elements differ; tests/nn/test_attention.py compares them within 16 ulps of the largest)
dot_product_attention(s[3, 2, 8], s[4, 2, 8], s[4, 2, 8], s[2, 3, 4])  ~ -vmap
scaled_matmul(s[1, 4, 64], s[1, 3, 64], s[1, 4, 2], s[1, 3, 2], preferred_element_type=_|jnp.bfloat16)  -grad  # JAX has no differentiation rule for it (jax_core differentiates through)
"""

INITIALIZERS = """
constant(2.5|-1, dtype=_|jnp.int8)  -grad -jit -vmap
delta_orthogonal(scale=_|0.5)  -grad -jit -vmap
glorot_normal(in_axis=_|0, out_axis=_|1)  -grad -jit -vmap
glorot_uniform(batch_axis=_|0)  -grad -jit -vmap
he_normal(dtype=_|jnp.bfloat16|jnp.complex64)  -grad -jit -vmap
he_uniform(dtype=_|jnp.float16)  -grad -jit -vmap
lecun_normal()  -grad -jit -vmap
lecun_uniform(in_axis=_|-1, out_axis=_|-2)  -grad -jit -vmap
normal(stddev=_|2.0, dtype=_|jnp.complex64)  -grad -jit -vmap
orthogonal(scale=_|2.0, column_axis=_|0)  -grad -jit -vmap
truncated_normal(stddev=_|0.5, lower=_|-1.0)  -grad -jit -vmap
uniform(scale=_|3.0)  -grad -jit -vmap
variance_scaling(1.0|0.5, 'fan_in'|'fan_out'|'fan_avg'|'fan_geo_avg', 'normal'|'uniform'|'truncated_normal')  -grad -jit -vmap
"""
"""The initializer constructors; with ``INIT_PREFIX`` as the table's prefix each line's call
makes the initializer and applies it to ``random.key(0)`` and the shape ``(3, 4, 5)``."""

INIT_PREFIX = (
    "type('init', (), {n: staticmethod(lambda *a, _n=n, **k: getattr(jax.nn.initializers, _n)(*a, **k)"
    "(random.key(0), (3, 4, 5))) for n in dir(jax.nn.initializers) if not n.startswith('_')})"
)
"""An object whose attribute ``name(...)`` is ``jax.nn.initializers.name(...)(random.key(0), (3, 4, 5))``."""

DIRECT = """
zeros(key, (3, 4)|(2,), dtype=_|jnp.int8)  -grad -vmap
ones(key, (3, 4)|(), dtype=_|jnp.bfloat16)  -grad -vmap
"""
"""The two initializers that are functions of the key themselves (prefix ``jax.nn.initializers``)."""
