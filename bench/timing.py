"""Timing batches of calls, shared by every workload module.

``step()`` returns an array (or something with ``block_until_ready``); the last result of each
batch is blocked on, so a batch includes all the work it queued. The garbage collector is off
while a batch runs (as in ``timeit``), so a collection triggered by one library's allocations does
not land in a batch.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def timed_batches(
    step: Callable[[], Any], *, calls: int, repeats: int, warmup: int = 1, per_s: float = 1e6
) -> list[float]:
    """Time per call (seconds x ``per_s``: µs by default) for each of ``repeats`` batches of
    ``calls`` calls of ``step()``, after ``warmup`` untimed calls."""
    for _ in range(warmup):
        step().block_until_ready()
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
            t1 = time.perf_counter()
        finally:
            gc.enable()
        out.append((t1 - t0) / calls * per_s)
    return out
