"""Runs one multi-device program under jax_core and under real JAX (the oracle venv), each in a
fresh process with N host CPU devices and a hard timeout, and gives back what each case printed.

A program defines cases with ``@case`` (written against ``jax``'s names: the jax_core run binds
``jax`` to ``jax_core``); each returns a JSON-able value (``val`` turns arrays into
dtype/shape/values records, ``sharding_of`` a sharding into its spec text) or raises. Every case
of a run is recorded as ``{"ok": value}`` or ``{"error": class name, "message": text}``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from tests.oracle import client

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 240

PRELUDE = textwrap.dedent(
    """
    import json, sys, traceback
    import numpy as np
    if sys.argv[1] == "jax_core":
        import jax_core as jax
        import jax_core.numpy as jnp
        from jax_core import lax
        from jax_core.sharding import NamedSharding, PartitionSpec as P, AxisType
    else:
        import jax
        import jax.numpy as jnp
        from jax import lax
        from jax.sharding import NamedSharding, PartitionSpec as P, AxisType
    CASES = {}

    def case(fn):
        CASES[fn.__name__] = fn
        return fn

    def val(x):
        a = np.asarray(x)
        return {"dtype": str(a.dtype), "shape": list(a.shape), "values": a.tolist()}

    def sharding_of(x):
        s = x.sharding
        return {"spec": str(getattr(s, "spec", None)), "devices": sorted(d.id for d in s.device_set),
                "mesh": str(getattr(getattr(s, "mesh", None), "shape_tuple", None))}

    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,) * 2)
    """
)

EPILOGUE = textwrap.dedent(
    """
    results = {}
    for name, fn in CASES.items():
        try:
            results[name] = {"ok": fn()}
        except Exception as e:
            results[name] = {"error": type(e).__name__, "message": str(e).split("\\n--------")[0]}
    print("@@RESULTS@@" + json.dumps(results))
    """
)


def run(program: str, which: str, devices: int = 8) -> dict[str, Any]:
    """The cases' results of ``program`` run under ``which`` ("jax_core" or "jax")."""
    exe = sys.executable if which == "jax_core" else str(client.python())
    env = {**os.environ, "XLA_FLAGS": f"--xla_force_host_platform_device_count={devices}", "TF_CPP_MIN_LOG_LEVEL": "3"}
    env.pop("JAX_NUM_CPU_DEVICES", None)
    source = PRELUDE + textwrap.dedent(program) + EPILOGUE
    proc = subprocess.run(
        [exe, "-c", source, which], capture_output=True, text=True, timeout=TIMEOUT_S, env=env, cwd=ROOT, check=False
    )
    marker = [line for line in proc.stdout.splitlines() if line.startswith("@@RESULTS@@")]
    assert proc.returncode == 0 and marker, f"{which} run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    out: dict[str, Any] = json.loads(marker[0][len("@@RESULTS@@") :])
    return out


def run_both(program: str, devices: int = 8) -> tuple[dict[str, Any], dict[str, Any]]:
    """jax_core's results and real JAX's (the oracle is required under ``make test``)."""
    client.need()
    return run(program, "jax_core", devices), run(program, "jax", devices)


def close(a: Any, b: Any, rtol: float = 1e-6) -> bool:
    """Equal JSON results, floats within ``rtol`` (integers, strings and shapes exactly)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k], rtol) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, rtol) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= rtol * max(1.0, abs(a), abs(b))
    return bool(a == b)


def run_json_program(source: str, what: str, devices: int = 8, timeout_s: int = 120) -> Any:
    """Runs ``source`` under jax_core in a fresh process with ``devices`` host CPU devices and a
    hard timeout; returns the JSON its last stdout line prints."""
    import pytest

    flags = f"{os.environ.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count={devices}".strip()
    env = dict(os.environ, XLA_FLAGS=flags, JAX_PLATFORMS="cpu")
    try:
        done = subprocess.run(
            [sys.executable, "-c", source], capture_output=True, text=True, timeout=timeout_s, env=env, cwd=ROOT, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{devices}-device {what} program did not finish in {timeout_s} s")
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
