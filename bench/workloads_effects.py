"""Side-effect workloads (issue 17): steady-state dispatch of a jitted function with an ordered
``jax.debug.callback`` (the runtime-token path), and a 1000-step ``lax.fori_loop`` whose body
calls an unordered ``jax.debug.callback`` each step.

Like bench/workloads.py, each takes the library modules (``jax`` is ``jax_core`` or ``jax``)
and uses only API both share (``jit``, ``debug.callback``, ``lax.fori_loop``,
``effects_barrier``). Every batch ends by blocking on its last result and then calling
``jax.effects_barrier()``, so the time includes every callback the batch queued.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import numpy as np

STEPS = 1000


def _timed_effect_batches(
    jax: Any, step: Callable[[], Any], *, calls: int, repeats: int, warmup: int, per_s: float
) -> list[float]:
    """Time per call (seconds x ``per_s``) for each of ``repeats`` batches of ``calls`` calls.

    ``step()`` returns an array; each batch blocks on its last result, then waits for every
    pending effect with ``jax.effects_barrier()``. The garbage collector is off inside a batch.
    """
    for _ in range(warmup):
        step().block_until_ready()
    jax.effects_barrier()
    out: list[float] = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            r = None
            for _ in range(calls):
                r = step()
            assert r is not None
            r.block_until_ready()
            jax.effects_barrier()
            t1 = time.perf_counter()
        finally:
            gc.enable()
        out.append((t1 - t0) / calls * per_s)
    return out


def _check_ordering(jax: Any, jnp: Any) -> None:
    """Ordered callbacks of successive calls run in call order, once per call."""
    seen: list[float] = []

    def record(x: Any) -> None:
        seen.append(float(np.asarray(x)[0]))

    def f(x: Any) -> Any:
        jax.debug.callback(record, x, ordered=True)
        return x + 1.0

    jf = jax.jit(f)
    for i in range(20):
        jf(jnp.asarray(np.full(3, i, np.float32)))
    jax.effects_barrier()
    assert seen == [float(i) for i in range(20)], seen


def ordered_callback(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(n) steady-state calls of a jitted ``x * 2 + 1`` with one ordered no-op
    ``jax.debug.callback`` on f32[3] (every call passes and receives the effect's runtime
    token); µs/call."""

    def noop(*args: Any) -> None:
        del args

    def f(x: Any) -> Any:
        jax.debug.callback(noop, x, ordered=True)
        return x * 2.0 + 1.0

    jf = jax.jit(f)
    x = jnp.asarray(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    np.testing.assert_allclose(np.asarray(jf(x)), np.array([3.0, 5.0, 7.0], np.float32))
    _check_ordering(jax, jnp)
    return _timed_effect_batches(
        jax,
        lambda: jf(x),
        calls=200 if quick else 1000,
        repeats=3 if quick else 9,
        warmup=200,
        per_s=1e6,
    )


def fori_callback(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """(o) steady-state calls of a jitted 1000-step ``lax.fori_loop`` whose body calls an
    unordered ``jax.debug.callback`` on the loop value each step; ms/call. After every batch
    the callback must have run exactly 1000 times per call."""
    count: list[None] = []

    def tick(v: Any) -> None:
        del v
        count.append(None)

    def body(i: Any, v: Any) -> Any:
        del i
        jax.debug.callback(tick, v)
        return v + 1.0

    def run_loop(x: Any) -> Any:
        return jax.lax.fori_loop(0, STEPS, body, x)

    loop = jax.jit(run_loop)
    x = jnp.asarray(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    np.testing.assert_allclose(np.asarray(loop(x)), np.array([1.0, 2.0, 3.0], np.float32) + STEPS)
    jax.effects_barrier()
    assert len(count) == STEPS, len(count)

    calls, repeats = (2, 3) if quick else (5, 7)
    out: list[float] = []
    for _ in range(repeats):
        count.clear()
        out += _timed_effect_batches(
            jax, lambda: loop(x), calls=calls, repeats=1, warmup=0, per_s=1e3
        )
        assert len(count) == STEPS * calls, (len(count), STEPS * calls)
    return out


WORKLOADS: dict[str, Callable[..., list[float]]] = {
    "ordered_callback": ordered_callback,
    "fori_callback": fori_callback,
}
AGGREGATE = {"ordered_callback": "min", "fori_callback": "min"}
