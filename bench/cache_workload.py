"""One process's work for bench/compilation_cache_bench.py: import the library named on the
command line, build the MLP of examples/demo.py, compile jit(value_and_grad(loss)) and the
per-example gradients, and take a few steps. Prints the loss (the runs must agree)."""

from __future__ import annotations

import importlib
import sys

import numpy as np

jax = importlib.import_module(sys.argv[1])
jnp = importlib.import_module(sys.argv[1] + ".numpy")


def loss(params, x, y):  # type: ignore[no-untyped-def]
    h = x
    for w, b in params[:-1]:
        h = jnp.tanh(h @ w + b)
    w, b = params[-1]
    return jnp.mean((h @ w + b - y) ** 2)


rng = np.random.default_rng(0)
sizes = [32, 128, 128, 128, 1]
params = [(jnp.asarray(rng.standard_normal((a, b)).astype(np.float32) * 0.1), jnp.zeros(b)) for a, b in zip(sizes, sizes[1:])]
x = jnp.asarray(rng.standard_normal((256, 32)).astype(np.float32))
y = jnp.asarray(rng.standard_normal((256, 1)).astype(np.float32))
step = jax.jit(jax.value_and_grad(loss))
per_example = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
for _ in range(5):
    value, grads = step(params, x, y)
    params = [(w - 0.01 * gw, b - 0.01 * gb) for (w, b), (gw, gb) in zip(params, grads)]
per_example(params, x[:8, None], y[:8, None])
print(f"{float(value):.6f}")
