"""Soak run: the MLP training loop of row (e) for many steps, watching memory and step time.

    .venv/bin/python bench/soak.py [--steps 100000] [--minutes 10] [--every 10000] [--lib jax_core|jax]

Runs ``jit(step)`` (value_and_grad of an MSE loss of a 32-128-128-10 tanh MLP on a 128-example
batch, then an SGD update, parameters fed back) until ``--steps`` steps or ``--minutes`` have
passed, whichever comes first. Every ``--every`` steps it blocks on the loss and prints the
process's resident memory (RSS, from /proc/self/statm) and the mean step time of that window.
Every 10th window also calls eager ops and builds a fresh jitted function, so those caches are
exercised too. A leak shows as RSS growing window after window; the run ends with the RSS
growth between the second window and the last (the first includes compilation and warm-up).
``--lib jax`` runs the same loop under real JAX (``.venv-jax/bin/python``) for comparison.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.workloads_transforms import _data, _make_step  # noqa: E402


def rss_mib() -> float:
    """Resident set size of this process, MiB."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--every", type=int, default=10_000)
    ap.add_argument("--lib", choices=("jax_core", "jax"), default="jax_core")
    args = ap.parse_args()

    jax: Any = importlib.import_module(args.lib)
    jnp: Any = importlib.import_module(f"{args.lib}.numpy")
    step = _make_step(jax, jnp)
    params, x, y = _data(jnp)
    deadline = time.perf_counter() + 60 * args.minutes
    rows: list[tuple[int, float, float, float]] = []
    print(f"{'steps':>8} {'RSS MiB':>9} {'us/step':>9} {'loss':>10}", flush=True)
    done = 0
    while done < args.steps and time.perf_counter() < deadline:
        t0 = time.perf_counter()
        n = min(args.every, args.steps - done)
        for _ in range(n):
            params, loss = step(params, x, y)
        value = float(loss)  # blocks
        done += n
        us = (time.perf_counter() - t0) / n * 1e6
        if len(rows) % 10 == 9:  # eager ops and a fresh jitted function, now and then
            float(jnp.sin(x).sum() + jax.jit(lambda a: a * 2)(x).mean())
        rows.append((done, rss_mib(), us, value))
        print(f"{done:>8} {rows[-1][1]:>9.1f} {us:>9.1f} {value:>10.5f}", flush=True)
    if len(rows) >= 3:
        growth = rows[-1][1] - rows[1][1]
        times = [r[2] for r in rows[1:]]
        print(
            f"{args.lib}: {done} steps in {len(rows)} windows; RSS {rows[1][1]:.1f} -> {rows[-1][1]:.1f} MiB "
            f"({growth:+.1f} MiB after the first window); us/step min {min(times):.1f} "
            f"median {sorted(times)[len(times) // 2]:.1f} max {max(times):.1f}"
        )


if __name__ == "__main__":
    main()
