"""``random``: the samplers added with the rest of JAX 0.12's ``jax.random`` (the RANDOM table in
``other_tables.py`` has the first ones). Same language; the lead registers it in ``__init__.py``
as ``("random", "random", RANDOM + RANDOM_MORE, {})``."""

RANDOM_MORE = """
ball(key, 3|1, p=_|1.0|3, shape=_|(2,), dtype=_|jnp.float16)  ~16 -grad
binomial(key, 10.0|100.0|s[3], 0.3|0.8|q[3], shape=_|(3,), dtype=_|jnp.float16)  ~16 -grad
chisquare(key, 3.0|0.5|p[3], shape=_|(3,), dtype=_|jnp.float16, method=_|'approximate')  ~16 -grad
double_sided_maxwell(key, 0.0|s[2], 2.0, shape=_|(3,), dtype=_|jnp.bfloat16)  ~16 -grad
f(key, 2.0|p[3], 3.0, shape=_|(3,))  ~16 -grad
generalized_normal(key, 2.0|0.5|1.0, shape=_|(3,), dtype=_|jnp.float16)  ~16 -grad
geometric(key, 0.3|q[3], shape=_|(3,), dtype=_|jnp.int8)  -grad
lognormal(key, 1.0|0.5|s[3], shape=_|(3,), dtype=_|jnp.float16|jnp.complex64)  ~16 -grad
maxwell(key, (3,)|()|(2, 2), dtype=_|jnp.float16)  ~ -grad
multinomial(key, 10.0|s[2], jnp.array([0.2, 0.3, 0.5]), shape=_|(2,), unroll=_|2|True)  -grad
orthogonal(key, 3|2, shape=_|(2,), m=_|4, dtype=_|jnp.complex64)  ~64 -grad
pareto(key, 2.0|p[3], shape=_|(3,), dtype=_|jnp.float16|jnp.bfloat16)  ~ -grad
rademacher(key, (3,)|()|(2, 2), dtype=_|jnp.float32|jnp.int8)  -grad
rayleigh(key, 1.0|p[3], shape=_|(3,), dtype=_|jnp.float16)  ~ -grad
t(key, 3.0|0.5|p[3], shape=_|(3,), dtype=_|jnp.float16)  ~16 -grad
triangular(key, 0.0, 0.5, 1.0|s[3] + 2, shape=_|(3,), dtype=_|jnp.float16)  ~ -grad
wald(key, 1.0|p[3], shape=_|(3,), dtype=_|jnp.float16)  ~ -grad
weibull_min(key, 1.0|p[3], 2.0, shape=_|(3,), dtype=_|jnp.float16)  ~ -grad
"""

RANDOM_MORE_NOT_GENERATED = {"Key": "a typing.NewType of Array (an annotation), not a sampler"}
