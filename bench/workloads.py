"""Benchmark workloads, written once and run against either library.

Every function takes the library modules as parameters (``jax`` is ``jax_core`` or ``jax``;
``jnp`` is its ``numpy``) and uses only API both share: ``jit``, ``jnp.sin``, ``jnp.tanh``,
``jnp.ones``, ``jnp.asarray``, ``@``, ``+``, ``*`` and ``.block_until_ready()``.

Workloads return raw samples; bench/run.py aggregates them (it may pool samples from several
worker processes), so the statistic used per row lives in one place: ``AGGREGATE`` below.
"""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

from bench import workloads_array as _array
from bench import workloads_effects as _effects
from bench import workloads_export as _export
from bench import workloads_extend as _extend
from bench import workloads_layout as _layout
from bench import workloads_random as _random
from bench import workloads_sharding as _sharding
from bench import workloads_transforms as _transforms
from bench.timing import timed_batches

# How each workload's samples are reduced to one number (see bench/run.py).
AGGREGATE = {
    "dispatch": "min",
    "eager_sin": "min",
    "mlp20_compile": "median",
    "rejit": "min",
    **_transforms.AGGREGATE,
    **_random.AGGREGATE,
    **_array.AGGREGATE,
    **_effects.AGGREGATE,
    **_sharding.AGGREGATE,
    **_layout.AGGREGATE,
    **_extend.AGGREGATE,
    **_export.AGGREGATE,
}
# Host devices a workload needs; the others run on the default single device. A worker runs only
# the workloads of its device count (bench/run.py starts one per count, with the XLA_FLAGS).
DEVICES = {name: 1 for name in AGGREGATE} | _sharding.DEVICES


_timed_batches = timed_batches


def dispatch(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(a) steady-state jit dispatch of ``a * b + c`` on three f32[3] arrays; µs/call."""

    def f(a: Any, b: Any, c: Any) -> Any:
        return a * b + c

    jf = jax.jit(f)
    a = jnp.asarray(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    b = jnp.asarray(np.array([4.0, 5.0, 6.0], dtype=np.float32))
    c = jnp.asarray(np.array([7.0, 8.0, 9.0], dtype=np.float32))
    expected = np.array([11.0, 18.0, 27.0], dtype=np.float32)
    np.testing.assert_allclose(np.asarray(jf(a, b, c)), expected)
    return _timed_batches(
        lambda: jf(a, b, c),
        calls=500 if quick else 5000,
        repeats=3 if quick else 9,
        warmup=200,
    )


def eager_sin(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(b) eager (op-by-op) ``jnp.sin`` on f32[3]; µs/call."""
    del jax
    x = jnp.asarray(np.array([0.1, 0.2, 0.3], dtype=np.float32))
    np.testing.assert_allclose(np.asarray(jnp.sin(x)), np.sin(np.asarray(x)), rtol=1e-6)
    return _timed_batches(
        lambda: jnp.sin(x),
        calls=500 if quick else 5000,
        repeats=3 if quick else 9,
        warmup=200,
    )


def rejit(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(m) ``jax.jit(f)(x)`` with a new wrapper on every call (as tutorials and libraries write
    it) of one function ``f(x) = sin(x) @ cos(x).T + 1``, x f32[64,64]; µs/call. Trace and
    compile caches keyed on ``f`` itself make every call after the first a cache hit."""

    def f(x: Any) -> Any:
        return jnp.sin(x) @ jnp.cos(x).T + 1

    x_np = np.linspace(-1, 1, 64 * 64, dtype=np.float32).reshape(64, 64)
    x = jnp.asarray(x_np)
    ref = np.sin(x_np.astype(np.float64)) @ np.cos(x_np.astype(np.float64)).T + 1
    np.testing.assert_allclose(np.asarray(jax.jit(f)(x)), ref, rtol=1e-4, atol=1e-4)
    return _timed_batches(
        lambda: jax.jit(f)(x),
        calls=100 if quick else 1000,
        repeats=3 if quick else 7,
        warmup=20,
    )


LAYERS = 20
WIDTH = 64
BATCH = 8


def _make_mlp20(jax: Any, jnp: Any) -> Callable[..., Any]:
    """A brand-new ``jit(mlp20_forward)``: a fresh function object, so no trace/compile cache
    keyed on the function (or on its jaxpr) can hit."""

    def mlp20_forward(params: list[tuple[Any, Any]], x: Any) -> Any:
        for w, b in params:
            x = jnp.tanh(x @ w + b)
        return x

    return jax.jit(mlp20_forward)


def mlp20_compile(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(c) first call (trace + lower + compile + run) of ``jit(mlp20_forward)``; ms per sample.

    One untimed first call warms one-time costs (lazy imports, backend start) that are not part
    of trace+compile; each timed sample then uses a fresh function object.
    """
    rng = np.random.default_rng(0)
    params_np = [
        (
            (rng.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH)).astype(np.float32),
            (0.1 * rng.standard_normal(WIDTH)).astype(np.float32),
        )
        for _ in range(LAYERS)
    ]
    x_np = rng.standard_normal((BATCH, WIDTH)).astype(np.float32)
    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in params_np]
    x = jnp.asarray(x_np)

    ref = x_np.astype(np.float64)
    for w, b in params_np:
        ref = np.tanh(ref @ w + b)

    _make_mlp20(jax, jnp)(params, x).block_until_ready()  # warm-up, untimed
    out: list[float] = []
    for _ in range(3 if quick else 5):
        fn = _make_mlp20(jax, jnp)
        gc.collect()
        t0 = time.perf_counter()
        y = fn(params, x)
        y.block_until_ready()
        t1 = time.perf_counter()
        out.append((t1 - t0) * 1e3)
        np.testing.assert_allclose(np.asarray(y), ref, rtol=1e-4, atol=1e-4)
    return out


WORKLOADS: dict[str, Callable[..., Any]] = {
    "dispatch": dispatch,
    "eager_sin": eager_sin,
    "mlp20_compile": mlp20_compile,
    "rejit": rejit,
}
WORKLOADS.update(_transforms.WORKLOADS)
WORKLOADS.update(_random.WORKLOADS)
WORKLOADS.update(_array.WORKLOADS)
WORKLOADS.update(_effects.WORKLOADS)
WORKLOADS.update(_sharding.WORKLOADS)
WORKLOADS.update(_layout.WORKLOADS)
WORKLOADS.update(_extend.WORKLOADS)
WORKLOADS.update(_export.WORKLOADS)


def run(
    jax: Any,
    jnp: Any,
    *,
    quick: bool = False,
    only: list[str] | None = None,
    devices: int = 1,
) -> dict[str, Any]:
    """Run the workloads that need ``devices`` host devices (those named in ``only``, if given);
    ``{name: {"samples": [...]}}`` (plus ``"facts"``, values that must be equal in both
    libraries, when the workload reports some) or ``{name: {"error": "..."}}``."""
    results: dict[str, Any] = {}
    for name, fn in WORKLOADS.items():
        if DEVICES[name] != devices or (only and name not in only):
            continue
        try:
            out = fn(jax, jnp, quick=quick)
            results[name] = out if isinstance(out, dict) else {"samples": out}
        except Exception as e:  # noqa: BLE001 - one broken workload must not hide the others
            tb = traceback.format_exc(limit=-3)
            results[name] = {"error": f"{type(e).__name__}: {e}", "traceback": tb}
    return results
