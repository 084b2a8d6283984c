"""Random workloads (issue 4): ``jit`` of ``random.normal`` drawing 1e7 float32 values.

Like bench/workloads.py, each takes the library modules (``jax`` is ``jax_core`` or ``jax``)
and uses only API both share (``jax.random.key``, ``jax.random.normal``, ``jit``).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import numpy as np

N = 10_000_000
# normal(key(0), (n,))[:3] in JAX 0.12 (threefry, partitionable: the first values do not
# depend on n); both libraries must produce exactly these.
FIRST = np.array([1.6226422, 2.0252647, -0.43359444], np.float32)


def random_normal(jax: Any, jnp: Any, *, quick: bool) -> list[float]:
    """Steady-state ``jit(lambda k: random.normal(k, (1e7,)))``; ms/call."""
    sample = jax.jit(lambda k: jax.random.normal(k, (N,)))
    key = jax.random.key(0)
    x = np.asarray(sample(key))
    np.testing.assert_array_equal(x[:3], FIRST)
    assert abs(float(x.mean())) < 1e-2 and abs(float(x.std()) - 1.0) < 1e-2
    out: list[float] = []
    calls = 3 if quick else 5
    for _ in range(3 if quick else 7):
        gc.collect()
        t0 = time.perf_counter()
        for _ in range(calls):
            r = sample(key)
        r.block_until_ready()
        out.append((time.perf_counter() - t0) / calls * 1e3)
    return out


WORKLOADS: dict[str, Callable[..., list[float]]] = {"random_normal": random_normal}
AGGREGATE = {"random_normal": "min"}
