"""The main job: a jitted computation, its jaxpr, its StableHLO, a timing, training a small
MLP with ``jit(value_and_grad(loss))``, per-example gradients with ``vmap(grad)``, and a jitted
training loop (``lax.fori_loop`` of steps) reporting each step's loss with an ordered
``jax.debug.print``.

Run with ``make demo``.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp


def mlp_layer(w: jax.Array, b: jax.Array, x: jax.Array) -> jax.Array:
    """One dense layer with a tanh nonlinearity."""
    return jnp.tanh(x @ w + b)


def fma(a: jax.Array, b: jax.Array, c: jax.Array) -> jax.Array:
    """``a * b + c``: the smallest jitted computation, to time jit's dispatch."""
    return a * b + c


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

    f = jax.jit(fma)
    a = jnp.ones(3)
    f(a, a, a).block_until_ready()
    n = 20_000
    start = time.perf_counter()
    for _ in range(n):
        f(a, a, a)
    f(a, a, a).block_until_ready()
    per_call = (time.perf_counter() - start) / n * 1e6
    print(f"\n== timing ==\njit dispatch of a*b+c on f32[3]: {per_call:.1f} us/call")


Params = list[tuple[jax.Array, jax.Array]]


def predict(params: Params, x: jax.Array) -> jax.Array:
    """A tanh MLP."""
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss(params: Params, x: jax.Array, y: jax.Array) -> jax.Array:
    """Mean squared error of ``predict``."""
    return jnp.mean((predict(params, x) - y) ** 2)


def problem() -> tuple[jax.Array, jax.Array, Params]:
    """The data, y = sin(3x) + noise on 256 points, and a 1-32-32-1 MLP's initial parameters."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, (256, 1)).astype(np.float32)
    y = (np.sin(3 * x) + 0.05 * rng.standard_normal(x.shape)).astype(np.float32)
    sizes = (1, 32, 32, 1)
    params: Params = [
        (jnp.asarray((rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32)), jnp.zeros(n))
        for m, n in itertools.pairwise(sizes)
    ]
    return jnp.asarray(x), jnp.asarray(y), params


def sgd(params: Params, grads: Params) -> Params:
    """One SGD update with learning rate 0.05."""
    updated: Params = jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, params, grads)
    return updated


def train() -> None:
    """Fits y = sin(3x) + noise with SGD; prints the loss as it falls."""
    print("\n== training an MLP with jit(value_and_grad(loss)) ==")
    xs, ys, params = problem()

    @jax.jit
    def step(params: Params, x: jax.Array, y: jax.Array) -> tuple[Params, jax.Array]:
        value, grads = jax.value_and_grad(loss)(params, x, y)
        return sgd(params, grads), value

    history: list[float] = []
    for i in range(301):
        params, value = step(params, xs, ys)
        history.append(float(value))
        if i % 50 == 0:
            print(f"step {i:3d}  loss {float(value):.4f}")
    print("loss fell:", history[-1] < 0.25 * history[0])

    print("\n== per-example gradients with vmap(grad(loss)) ==")
    per_example = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
    grads = per_example(params, xs[:, None, :], ys[:, None, :])
    w0 = grads[0][0]
    print(f"first-layer weight gradients: {w0.shape} (one {w0.shape[1:]} gradient per example)")
    mean_grad = jax.grad(loss)(params, xs, ys)[0][0]
    print(
        "mean of per-example gradients equals the batch gradient:",
        bool(np.allclose(np.asarray(w0).mean(0), np.asarray(mean_grad), atol=1e-5)),
    )


def train_with_ordered_prints() -> None:
    """Two calls of a jitted 5-step training loop (``lax.fori_loop``) whose steps report their
    loss with ``jax.debug.print(..., ordered=True)``: the prints come from the compiled loop, in
    program order, within each call and across the two calls."""
    print("\n== ordered jax.debug.print inside a jitted training loop (lax.fori_loop) ==")
    xs, ys, params = problem()

    @jax.jit
    def fit(params: Params, x: jax.Array, y: jax.Array, first: jax.Array) -> Params:
        def one_step(i: jax.Array, params: Params) -> Params:
            value, grads = jax.value_and_grad(loss)(params, x, y)
            jax.debug.print("step {i}: loss {value:.4f}", i=i, value=value, ordered=True)
            return sgd(params, grads)

        return jax.lax.fori_loop(first, first + 5, one_step, params)

    params = fit(params, xs, ys, jnp.int32(0))
    params = fit(params, xs, ys, jnp.int32(5))  # same executable; prints follow the first call's
    jax.effects_barrier()  # wait until every print of the dispatched calls has happened
    print(f"after 10 steps: loss {float(loss(params, xs, ys)):.4f}")


if __name__ == "__main__":
    main()
    train()
    train_with_ordered_prints()
