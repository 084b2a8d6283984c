"""Transformation workloads (issue 3): an MLP training step (steady state and trace+compile),
per-example gradients, and the compile time of a 100-step scan RNN.

Like bench/workloads.py, each takes the library modules (``jax`` is ``jax_core`` or ``jax``)
and uses only API both share.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import numpy as np

SIZES = (32, 128, 128, 10)
BATCH = 128


def _params(rng: np.random.Generator) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    return [
        ((rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32), np.zeros(n, np.float32))
        for m, n in zip(SIZES[:-1], SIZES[1:])
    ]


def _loss_fn(jnp: Any) -> Callable[..., Any]:
    def loss(params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
        h = x
        for w, b in params[:-1]:
            h = jnp.tanh(h @ w + b)
        w, b = params[-1]
        return jnp.mean((h @ w + b - y) ** 2)

    return loss


def _data(jnp: Any) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(0)
    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in _params(rng)]
    x = jnp.asarray(rng.standard_normal((BATCH, SIZES[0])).astype(np.float32))
    y = jnp.asarray(rng.standard_normal((BATCH, SIZES[-1])).astype(np.float32))
    return params, x, y


def _make_step(jax: Any, jnp: Any) -> Callable[..., Any]:
    loss = _loss_fn(jnp)

    def step(params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
        value, grads = jax.value_and_grad(loss)(params, x, y)
        new = jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)
        return new, value

    return jax.jit(step)


def _time_steps(run: Callable[[], Any], *, calls: int, repeats: int) -> list[float]:
    run()
    out: list[float] = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            r = None
            for _ in range(calls):
                r = run()
            r.block_until_ready()  # type: ignore[union-attr]
            out.append((time.perf_counter() - t0) / calls * 1e6)
        finally:
            gc.enable()
    return out


def mlp_train_step(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """Steady-state ``jit(value_and_grad(loss))`` MLP training step; µs/step."""
    step = _make_step(jax, jnp)
    params, x, y = _data(jnp)
    state = {"p": params}
    first = float(step(params, x, y)[1])
    for _ in range(20):
        state["p"], last = step(state["p"], x, y)
    assert float(last) < first, "training step must reduce the loss"

    def run() -> Any:
        state["p"], value = step(state["p"], x, y)
        return value

    return _time_steps(run, calls=50 if quick else 300, repeats=3 if quick else 7)


def mlp_train_compile(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """First call (trace + lower + compile + run) of a fresh jitted training step; ms."""
    params, x, y = _data(jnp)
    _make_step(jax, jnp)(params, x, y)[1].block_until_ready()
    out: list[float] = []
    for _ in range(3 if quick else 5):
        step = _make_step(jax, jnp)
        gc.collect()
        t0 = time.perf_counter()
        step(params, x, y)[1].block_until_ready()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def per_example_grads(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """Steady-state ``jit(vmap(grad(loss), in_axes=(None, 0, 0)))``; µs/call."""
    loss = _loss_fn(jnp)
    params, x, y = _data(jnp)
    per_ex = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
    grads = per_ex(params, x[:, None, :], y[:, None, :])
    full = jax.grad(loss)(params, x, y)
    np.testing.assert_allclose(np.asarray(grads[0][0]).mean(0), np.asarray(full[0][0]), rtol=1e-3, atol=1e-5)
    return _time_steps(lambda: per_ex(params, x[:, None, :], y[:, None, :])[0][0], calls=20 if quick else 100, repeats=3 if quick else 7)


def rnn_scan_compile(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """Trace + compile + first run of ``jit(grad(loss))`` of a 100-step ``lax.scan`` RNN; ms."""
    rng = np.random.default_rng(1)
    w = jnp.asarray((rng.standard_normal((32, 32)) / 6).astype(np.float32))
    xs = jnp.asarray(rng.standard_normal((100, 32)).astype(np.float32))

    def make() -> Callable[..., Any]:
        def loss(w: Any, xs: Any) -> Any:
            def cell(h: Any, x: Any) -> tuple[Any, Any]:
                h = jnp.tanh(h @ w + x)
                return h, jnp.sum(h)

            h, ys = jax.lax.scan(cell, jnp.zeros(32), xs)
            return jnp.sum(h) + jnp.mean(ys)

        return jax.jit(jax.grad(loss))

    make()(w, xs).block_until_ready()
    out: list[float] = []
    for _ in range(3 if quick else 5):
        fn = make()
        gc.collect()
        t0 = time.perf_counter()
        fn(w, xs).block_until_ready()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


WORKLOADS: dict[str, Callable[..., list[float]]] = {
    "mlp_train_step": mlp_train_step,
    "mlp_train_compile": mlp_train_compile,
    "per_example_grads": per_example_grads,
    "rnn_scan_compile": rnn_scan_compile,
}
AGGREGATE = {"mlp_train_step": "min", "mlp_train_compile": "median", "per_example_grads": "min", "rnn_scan_compile": "median"}
