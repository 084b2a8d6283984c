"""The persistent compilation cache, measured: a second process running the MLP workload
(bench/cache_workload.py: compile jit(value_and_grad) and vmap(grad), take steps) with a warm
cache directory, beside the same process without a cache; jax_core beside real JAX in the same run.

    .venv/bin/python -m bench.compilation_cache_bench [--runs N]

Each library runs in its own interpreter (jax_core: .venv; JAX: .venv-jax). For each: one run
fills a fresh cache directory (``JAX_COMPILATION_CACHE_DIR``, with
``JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0`` so every executable is written), then runs
alternate between "warm cache" and "no cache"; the median wall time of each is printed, with the
ratios warm/cold and jax_core/JAX.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.run import child_env

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = {"jax_core": ROOT / ".venv" / "bin" / "python", "jax": ROOT / ".venv-jax" / "bin" / "python"}


def _run(lib: str, cache: str | None) -> tuple[float, str]:
    env = child_env()
    if cache is not None:
        env["JAX_COMPILATION_CACHE_DIR"] = cache
        env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    start = time.perf_counter()
    done = subprocess.run(
        [str(PYTHONS[lib]), str(ROOT / "bench" / "cache_workload.py"), lib],
        env=env, capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    return time.perf_counter() - start, done.stdout.strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each kind per library")
    args = parser.parse_args()
    results: dict[str, tuple[float, float]] = {}
    for lib in PYTHONS:
        if not PYTHONS[lib].exists():
            print(f"{lib}: {PYTHONS[lib]} missing, skipped")
            continue
        with tempfile.TemporaryDirectory() as cache:
            _, first = _run(lib, cache)
            warm, cold = [], []
            for _ in range(args.runs):
                t, out = _run(lib, cache)
                assert out == first, (lib, out, first)
                warm.append(t)
                t, out = _run(lib, None)
                assert out == first, (lib, out, first)
                cold.append(t)
        results[lib] = (statistics.median(warm), statistics.median(cold))
        print(f"{lib:9s} no cache {results[lib][1]:.2f} s, warm cache {results[lib][0]:.2f} s, "
              f"ratio {results[lib][0] / results[lib][1]:.2f}  (loss {first})")  # fmt: skip
    if len(results) == 2:
        (cw, cc), (jw, jc) = results["jax_core"], results["jax"]
        print(f"jax_core/JAX: no cache {cc / jc:.2f}, warm cache {cw / jw:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
