"""A concurrency workload for tests/runtime/test_threads.py, run in a fresh process (a cold start).

``python -m tests.runtime._stress THREADS ITERATIONS`` runs the workload of each (thread, iteration)
pair, in THREADS threads released together by a barrier (THREADS=0: the same pairs one after
another in the main thread), and prints JSON: ``{"errors": [...], "digests": {"t/i": sha256}}``.
The digests of a threaded run must equal those of a serial one, bit for bit.
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import traceback
from typing import Any

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp


def _loss(w: Any, x: Any) -> Any:
    return jnp.sum(jnp.tanh(x @ w) ** 2)


_shared = jax.jit(lambda a, b: jnp.sin(a) * b + 1.0)  # one cached function used by every thread


def work(t: int, i: int) -> str:
    """jit, grad, vmap, eager ops, device_put, block_until_ready and make_jaxpr, with new and
    cached functions; returns a digest of every result."""
    rng = np.random.default_rng(1000 * t + i)
    w_host = rng.standard_normal((4, 3)).astype(np.float32)
    x_host = rng.standard_normal((5, 4)).astype(np.float32)
    w, x = jax.device_put(w_host), jnp.asarray(x_host)
    scale = float(i % 3 + 1)
    outs: list[Any] = [
        jax.jit(jax.grad(_loss))(w, x),  # a new wrapper each time, as tutorials write it
        jax.vmap(lambda r: r * 2 + jnp.cos(r))(x),
        jax.jit(lambda a: a * scale - a.mean())(x),  # a new function each time
        _shared(x, scale),
        jnp.sin(x) * 2 + x.sum(),
        jax.value_and_grad(_loss, argnums=1)(w, x)[1],
        jax.block_until_ready(jnp.cumsum(x, axis=0) @ w),
    ]
    h = hashlib.sha256()
    for out in outs:
        h.update(np.asarray(out).tobytes())
    h.update(str(jax.make_jaxpr(_loss)(w, x)).encode())
    return h.hexdigest()


def main() -> None:
    threads, iterations = int(sys.argv[1]), int(sys.argv[2])
    digests: dict[str, str] = {}
    errors: list[str] = []
    barrier = threading.Barrier(max(threads, 1))

    def run(t: int) -> None:
        try:
            if threads:
                barrier.wait()
            for i in range(iterations):
                digests[f"{t}/{i}"] = work(t, i)
        except Exception:  # noqa: BLE001  (reported to the test)
            errors.append(traceback.format_exc())

    if threads:
        pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
        for th in pool:
            th.start()
        for th in pool:
            th.join()
    else:
        for t in range(int(sys.argv[3]) if len(sys.argv) > 3 else 1):
            run(t)
    json.dump({"errors": errors, "digests": digests}, sys.stdout)


if __name__ == "__main__":
    main()
