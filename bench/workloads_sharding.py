"""Sharding workloads on 8 host CPU devices: a partitioned matmul under ``jit`` (with the
collective ops of its compiled HLO), a data-parallel training step through ``shard_map`` and
``lax.pmean``, and dispatch of a jitted function on sharded inputs.

These run only in workers whose environment holds ``XLA_FLAGS`` with
``--xla_force_host_platform_device_count=8`` (set by bench/run.py before the backend starts;
``DEVICES`` names the count each workload needs). Like bench/workloads.py, each takes the library
modules (``jax`` is ``jax_core`` or ``jax``) and uses only API both share (``make_mesh``,
``sharding.{Mesh, NamedSharding, PartitionSpec, AxisType}``, ``device_put``, ``shard_map``,
``lax.pmean``).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from bench.timing import timed_batches
from bench.workloads_transforms import SIZES

N_DEVICES = 8
XLA_FLAG = f"--xla_force_host_platform_device_count={N_DEVICES}"
DP_BATCH = 1024

_COLLECTIVE = re.compile(
    r"\b(all-reduce|all-gather|collective-permute|reduce-scatter|all-to-all)(?:-start)?\("
)


def _devices(jax: Any) -> list[Any]:
    devices: list[Any] = jax.devices()
    if len(devices) < N_DEVICES:
        raise RuntimeError(
            f"needs {N_DEVICES} devices, found {len(devices)}: run with XLA_FLAGS={XLA_FLAG}"
        )
    return devices[:N_DEVICES]


def _auto_mesh(jax: Any, shape: tuple[int, ...], names: tuple[str, ...]) -> Any:
    auto = jax.sharding.AxisType.Auto
    return jax.make_mesh(shape, names, axis_types=(auto,) * len(shape), devices=_devices(jax))


def _matmul(a: Any, b: Any) -> Any:
    return a @ b


def _mul_add(a: Any, b: Any) -> Any:
    return a * b + 1


def _sgd(p: Any, g: Any) -> Any:
    return p - 0.01 * g


def _put(jax: Any, x: np.ndarray[Any, Any], mesh: Any, *spec: str | None) -> Any:
    s = jax.sharding
    return jax.device_put(x, s.NamedSharding(mesh, s.PartitionSpec(*spec)))


def collectives(hlo_text: str) -> dict[str, int]:
    """The multiset of collective ops in compiled HLO text (async ``-start`` halves counted as
    their op), as ``{op: count}``."""
    return dict(sorted(Counter(m.group(1) for m in _COLLECTIVE.finditer(hlo_text)).items()))


def sharded_matmul(jax: Any, jnp: Any, *, quick: bool) -> dict[str, Any]:
    """(p) steady-state ``jit(a @ b)``, a f32[1024,1024] sharded ``P(None, 'x')`` and b
    ``P('x', 'y')`` on a 2x4 Auto mesh (the contracting dimension is split, so the partial
    products need an all-reduce); ms/call. Also returns the collective ops of the compiled HLO
    as a fact that must be the same in both libraries."""
    del jnp
    mesh = _auto_mesh(jax, (2, 4), ("x", "y"))
    rng = np.random.default_rng(0)
    a_np = rng.standard_normal((1024, 1024)).astype(np.float32)
    b_np = rng.standard_normal((1024, 1024)).astype(np.float32)
    a, b = _put(jax, a_np, mesh, None, "x"), _put(jax, b_np, mesh, "x", "y")
    f = jax.jit(_matmul)
    ref = a_np.astype(np.float64) @ b_np.astype(np.float64)
    np.testing.assert_allclose(np.asarray(f(a, b)), ref, rtol=1e-3, atol=1e-3)
    found = collectives(f.lower(a, b).compile().as_text())
    samples = timed_batches(
        lambda: f(a, b), calls=2 if quick else 10, repeats=3 if quick else 7, warmup=2, per_s=1e3
    )
    return {"samples": samples, "facts": {"collectives": found}}


def _dp_step(jax: Any, jnp: Any, mesh: Any) -> Callable[..., Any]:
    """The jitted data-parallel SGD step: per-device MSE of the tanh MLP, ``pmean`` over 'i'
    inside ``shard_map``, ``value_and_grad`` around it."""
    P = jax.sharding.PartitionSpec

    def local_loss(params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
        h = x
        for w, b in params[:-1]:
            h = jnp.tanh(h @ w + b)
        w, b = params[-1]
        return jax.lax.pmean(jnp.mean((h @ w + b - y) ** 2), "i")

    loss = jax.shard_map(local_loss, mesh=mesh, in_specs=(P(), P("i"), P("i")), out_specs=P())

    def step(params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
        value, grads = jax.value_and_grad(loss)(params, x, y)
        new = jax.tree_util.tree_map(_sgd, params, grads)
        return new, value

    jitted: Callable[..., Any] = jax.jit(step)
    return jitted


def _np_loss(params: list[tuple[Any, Any]], x: np.ndarray[Any, Any], y: Any) -> float:
    h: np.ndarray[Any, Any] = x.astype(np.float64)
    for w, b in params[:-1]:
        h = np.tanh(h @ w + b)
    w, b = params[-1]
    err: np.ndarray[Any, Any] = h @ w + b - y
    return float(np.mean(err**2))


def shard_map_train_step(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(q) steady-state data-parallel training step of the MLP of row (e) on a batch of 1024
    sharded over 8 devices (loss in ``shard_map`` with ``lax.pmean``); µs/step."""
    mesh = jax.sharding.Mesh(np.array(_devices(jax), dtype=object), ("i",))
    rng = np.random.default_rng(0)
    params_np = [
        ((rng.standard_normal((m, n)) / np.sqrt(m)).astype(np.float32), np.zeros(n, np.float32))
        for m, n in itertools.pairwise(SIZES)
    ]
    x_np = rng.standard_normal((DP_BATCH, SIZES[0])).astype(np.float32)
    y_np = rng.standard_normal((DP_BATCH, SIZES[-1])).astype(np.float32)
    params = [(_put(jax, w, mesh), _put(jax, b, mesh)) for w, b in params_np]
    x, y = _put(jax, x_np, mesh, "i"), _put(jax, y_np, mesh, "i")
    step = _dp_step(jax, jnp, mesh)

    new, first = step(params, x, y)
    np.testing.assert_allclose(float(first), _np_loss(params_np, x_np, y_np), rtol=1e-4)
    state = {"p": new}
    last = first
    for _ in range(20):
        state["p"], last = step(state["p"], x, y)
    assert float(last) < float(first), "training step must reduce the loss"

    def run() -> Any:
        state["p"], value = step(state["p"], x, y)
        return value

    return timed_batches(
        run, calls=20 if quick else 100, repeats=3 if quick else 7, warmup=1, per_s=1e6
    )


def sharded_dispatch(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(s) steady-state calls of ``jit(a * b + 1)`` on two f32[64] sharded ``P('x')`` over an
    8-device 1-D Auto mesh, after 200 warm-up calls; µs/call."""
    del jnp
    mesh = _auto_mesh(jax, (N_DEVICES,), ("x",))
    a_np = np.arange(64, dtype=np.float32)
    b_np = np.linspace(-1, 1, 64, dtype=np.float32)
    a, b = _put(jax, a_np, mesh, "x"), _put(jax, b_np, mesh, "x")
    f = jax.jit(_mul_add)
    np.testing.assert_allclose(np.asarray(f(a, b)), a_np * b_np + 1, rtol=1e-6)
    return timed_batches(
        lambda: f(a, b),
        calls=500 if quick else 5000,
        repeats=3 if quick else 9,
        warmup=200,
        per_s=1e6,
    )


WORKLOADS: dict[str, Callable[..., Any]] = {
    "sharded_matmul": sharded_matmul,
    "shard_map_train_step": shard_map_train_step,
    "sharded_dispatch": sharded_dispatch,
}
AGGREGATE = {"sharded_matmul": "min", "shard_map_train_step": "min", "sharded_dispatch": "min"}
# Host devices each workload needs (others run on the default single device).
DEVICES = {name: N_DEVICES for name in WORKLOADS}
