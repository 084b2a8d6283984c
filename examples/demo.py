"""The main job: a jitted computation, its jaxpr, its StableHLO, and a timing.

Run with ``make demo``. Later issues extend it (autodiff, vmap, the typing demo).
"""

from __future__ import annotations

import time

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp


def mlp_layer(w: jax.Array, b: jax.Array, x: jax.Array) -> jax.Array:
    """One dense layer with a tanh nonlinearity."""
    return jnp.tanh(x @ w + b)


def main() -> None:
    print(f"jax_core {jax.__version__} on {jax.devices()}")
    rng = np.random.default_rng(0)
    w = jnp.asarray(rng.standard_normal((4, 3), dtype=np.float32))
    b = jnp.zeros(3)
    x = jnp.asarray(rng.standard_normal((2, 4), dtype=np.float32))

    print("\n== jaxpr of mlp_layer ==")
    print(jax.make_jaxpr(mlp_layer)(w, b, x))

    layer = jax.jit(mlp_layer)
    print("\n== StableHLO of jit(mlp_layer) ==")
    print(layer.lower(w, b, x).as_text())

    out = layer(w, b, x)
    expected = np.tanh(np.asarray(x) @ np.asarray(w) + np.asarray(b))
    print("== result ==")
    print(out)
    print("matches numpy:", bool(np.allclose(np.asarray(out), expected, rtol=1e-5, atol=1e-6)))

    f = jax.jit(lambda a, b, c: a * b + c)
    a = jnp.ones(3)
    f(a, a, a).block_until_ready()
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        f(a, a, a)
    f(a, a, a).block_until_ready()
    per_call = (time.perf_counter() - start) / n * 1e6
    print(f"\n== timing ==\njit dispatch of a*b+c on f32[3]: {per_call:.1f} us/call")


if __name__ == "__main__":
    main()
