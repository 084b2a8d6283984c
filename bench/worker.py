"""One benchmark process: ``python -m bench.worker --lib jax_core|jax [--quick] [--devices N]``.

Imports the chosen library, runs bench/workloads.py against it and prints one JSON object on
the last line of stdout. bench/run.py starts one of these per library, each with that
library's own interpreter, so the two never share a process. ``--devices N`` runs the workloads
that need N host devices (the environment must provide them: bench/run.py sets ``XLA_FLAGS``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
import traceback


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", choices=["jax_core", "jax"], required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", action="append", help="run only this workload (repeatable)")
    ap.add_argument("--devices", type=int, default=1, help="run the workloads needing N devices")
    args = ap.parse_args()

    result: dict[str, object] = {"lib": args.lib, "python": sys.executable}
    try:
        t0 = time.perf_counter()
        jax = importlib.import_module(args.lib)
        jnp = importlib.import_module(args.lib + ".numpy")
        result["import_s"] = time.perf_counter() - t0
        result["version"] = getattr(jax, "__version__", "?")
    except Exception as e:  # noqa: BLE001 - reported in the table, not raised
        result["fatal"] = f"import {args.lib} failed: {type(e).__name__}: {e}"
        result["traceback"] = traceback.format_exc(limit=-4)
        print(json.dumps(result))
        return 0

    from bench import workloads

    result["workloads"] = workloads.run(
        jax, jnp, quick=args.quick, only=args.only, devices=args.devices
    )
    if args.lib == "jax_core" and "jax" in sys.modules:
        result["fatal"] = "jax_core imported jax (it must never do so)"
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
