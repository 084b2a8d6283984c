"""Reliability under threads: a cold start from many threads at once, thread-local config, and
the ``once`` initialisation the process-wide objects use.

The stress test runs tests/runtime/_stress.py in fresh processes (the race was in first use): 8
threads released together, each mixing jit (new and cached functions), grad, vmap, eager ops,
device_put, block_until_ready and make_jaxpr; every result must equal, bit for bit, the serial
run's. Bounded: two subprocesses of a few seconds each, with hard timeouts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import disable_jit, enable_x64
from jax_core._src.core.once import once

ROOT = Path(__file__).resolve().parents[2]
THREADS, ITERATIONS = 8, 6


def _stress(threads: int, *extra: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.runtime._stress", str(threads), str(ITERATIONS), *extra],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def test_cold_start_from_many_threads_matches_a_serial_run() -> None:
    threaded = _stress(THREADS)
    assert threaded["errors"] == [], threaded["errors"][0]
    serial = _stress(0, str(THREADS))
    assert serial["errors"] == [], serial["errors"][0]
    assert len(threaded["digests"]) == THREADS * ITERATIONS
    assert threaded["digests"] == serial["digests"]


def _in_thread(fn: Any) -> Any:
    box: list[Any] = []
    th = threading.Thread(target=lambda: box.append(fn()))
    th.start()
    th.join(timeout=120)
    assert box, "thread did not finish"
    return box[0]


def test_config_context_managers_are_thread_local() -> None:
    """Two threads hold different settings at the same time, as in JAX: a ``with`` block in one
    thread is not seen by another."""
    inside = threading.Event()
    release = threading.Event()
    seen: dict[str, Any] = {}

    def holder() -> None:
        with enable_x64(True), disable_jit(True):
            seen["holder x64"] = jnp.arange(2.0).dtype
            seen["holder disable_jit"] = disable_jit.value
            inside.set()
            release.wait(timeout=60)
            seen["holder x64 after"] = jnp.arange(2.0).dtype

    th = threading.Thread(target=holder)
    th.start()
    assert inside.wait(timeout=60)
    seen["other x64"] = jnp.arange(2.0).dtype
    seen["other disable_jit"] = disable_jit.value
    seen["other jit"] = jax.jit(lambda a: a + 1)(np.float32(1)).dtype
    release.set()
    th.join(timeout=60)
    assert seen == {
        "holder x64": np.float64,
        "holder disable_jit": True,
        "other x64": np.float32,
        "other disable_jit": False,
        "other jit": np.float32,
        "holder x64 after": np.float64,
    }
    assert _in_thread(lambda: jnp.arange(2.0).dtype) == np.float32


def test_once_runs_each_key_once_under_concurrent_first_calls() -> None:
    calls: list[int] = []
    gate = threading.Barrier(8)

    @once
    def make(k: int) -> object:
        calls.append(k)
        threading.Event().wait(0.05)  # widen the window a racing second call would use
        return object()

    results: list[object] = []

    def call() -> None:
        gate.wait()
        results.append(make(1))

    pool = [threading.Thread(target=call) for _ in range(8)]
    for th in pool:
        th.start()
    for th in pool:
        th.join(timeout=60)
    assert calls == [1] and len(results) == 8 and all(r is results[0] for r in results)
    assert make(2) is not make(1) and calls == [1, 2]


def test_once_does_not_remember_exceptions() -> None:
    attempts: list[int] = []

    @once
    def flaky() -> int:
        attempts.append(1)
        if len(attempts) == 1:
            raise RuntimeError("first call fails")
        return 7

    try:
        flaky()
    except RuntimeError:
        pass
    assert flaky() == 7 and flaky() == 7 and len(attempts) == 2
