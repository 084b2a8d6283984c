"""Benchmark jax_core against real JAX: ``make bench`` or ``.venv/bin/python bench/run.py``.

Each library runs in its own subprocess with its own interpreter (jax_core: ``.venv``, with the
repo root on PYTHONPATH; JAX: ``.venv-jax``), so neither can see the other's modules or caches.
Prints one row per workload: both times, the ratio jax_core/JAX, the target ratio and
PASS/FAIL. See bench/README.md for what each row measures.

Options: ``--quick`` (fewer repeats), ``--json OUT`` (write raw samples and results),
``--strict`` (exit 1 when a row fails or errors), ``--rows LIST`` (only these rows, by key or
letter: ``--rows i,j,sort``), ``--rounds N`` (repeat the ABBA worker order N times),
``--core-python`` / ``--jax-python`` (other interpreters).

Rows that need several host devices ((p), (q), (s): 8) run in their own workers, whose
environment adds ``--xla_force_host_platform_device_count`` to ``XLA_FLAGS``; the other rows'
workers keep the plain environment.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
LIBS = ("jax_core", "jax")

# (key, label, unit, target ratio jax_core/JAX)
ROWS: list[tuple[str, str, str, float]] = [
    ("dispatch", "(a) jit dispatch a*b+c, f32[3]", "us/call", 1.0),
    ("eager_sin", "(b) eager jnp.sin, f32[3]", "us/call", 1.0),
    ("mlp20_compile", "(c) trace+compile jit(mlp20_forward)", "ms", 0.8),
    ("import", "(d) import time (minus bare python)", "ms", 0.4),
    ("mlp_train_step", "(e) MLP train step jit(value_and_grad)", "us/step", 1 / 0.98),
    ("mlp_train_compile", "(f) trace+compile of that train step", "ms", 0.8),
    ("per_example_grads", "(g) jit(vmap(grad)) per-example grads", "us/call", 1 / 0.98),
    ("rnn_scan_compile", "(h) compile grad of 100-step scan RNN", "ms", 1.0),
    ("random_normal", "(r) jit random.normal, 1e7 f32", "ms/call", 1 / 0.98),
    ("matmul_chain", "(i) jit 8x tanh(x @ W), f32[256,256]", "ms/call", 1 / 0.98),
    ("softmax", "(j) jit softmax via logsumexp, 1024^2", "ms/call", 1 / 0.98),
    ("logsumexp", "(j2) jit logsumexp(axis=-1), 1024^2", "ms/call", 1 / 0.98),
    ("sort", "(k) jit jnp.sort, f32[1e6]", "ms/call", 1 / 0.98),
    ("argsort", "(k2) jit jnp.argsort, f32[1e6]", "ms/call", 1 / 0.98),
    ("conv_net", "(l) jit CNN forward, 3 convs + dense", "ms/call", 1 / 0.98),
    ("rejit", "(m) jax.jit(f)(x), new wrapper per call", "us/call", 1.0),
    ("ordered_callback", "(n) jit with ordered debug.callback", "us/call", 1.0),
    ("fori_callback", "(o) jit fori_loop(1000) + debug.callback", "ms/call", 1.0),
    ("sharded_matmul", "(p) 8 dev: jit a@b sharded, 1024^2", "ms/call", 1.0),
    ("shard_map_train_step", "(q) 8 dev: shard_map+pmean train step", "us/step", 1.0),
    ("sharded_dispatch", "(s) 8 dev: jit dispatch, sharded f32[64]", "us/call", 1.0),
    ("layout_apply", "(t) layouts doc apply_exe, AUTO formats", "us/call", 1.0),
    ("layout_dispatch", "(u) jit dispatch, committed column-major", "us/call", 1.0),
    ("custom_primitive_step", "(v) jit(vmap(grad)) of a jax.extend primitive", "us/call", 1.0),
    ("custom_primitive_compile", "(w) trace+compile of that, user rules", "ms", 1.0),
    ("export_serialize", "(x) export+serialize MLP train step", "ms", 1.0),
    ("deserialize_first_call", "(y) deserialize + first exp.call of it", "ms", 1.0),
    ("exported_call", "(z) steady-state eager exp.call of it", "us/call", 1.0),
]
AGGREGATE = {
    "dispatch": "min",
    "eager_sin": "min",
    "mlp20_compile": "median",
    "import": "median",
    "mlp_train_step": "min",
    "mlp_train_compile": "median",
    "per_example_grads": "min",
    "rnn_scan_compile": "median",
    "random_normal": "min",
    "matmul_chain": "min",
    "softmax": "min",
    "logsumexp": "min",
    "sort": "min",
    "argsort": "min",
    "conv_net": "min",
    "rejit": "min",
    "ordered_callback": "min",
    "fori_callback": "min",
    "sharded_matmul": "min",
    "shard_map_train_step": "min",
    "sharded_dispatch": "min",
    "layout_apply": "min",
    "layout_dispatch": "min",
    "custom_primitive_step": "min",
    "custom_primitive_compile": "median",
    "export_serialize": "median",
    "deserialize_first_call": "median",
    "exported_call": "min",
}
# Host CPU devices a row's workers need (as bench/workloads.py's DEVICES); unlisted rows: 1.
DEVICES = {"sharded_matmul": 8, "shard_map_train_step": 8, "sharded_dispatch": 8}


def child_env(devices: int = 1) -> dict[str, str]:
    """The environment for every child: CPU only, quiet C++ logging, the repo root importable.
    Inherited ``JAX_*`` settings are dropped so both libraries run on their defaults. With
    ``devices > 1``, ``XLA_FLAGS`` also asks for that many host CPU devices."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    if devices > 1:
        flag = f"--xla_force_host_platform_device_count={devices}"
        env["XLA_FLAGS"] = " ".join(filter(None, [env.get("XLA_FLAGS", ""), flag]))
    env["TF_CPP_MIN_LOG_LEVEL"] = "1"
    env["JAX_PLATFORMS"] = "cpu"
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + old if old else "")
    return env


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def select_rows(spec: str | None) -> list[str]:
    """Row keys named by ``--rows`` (comma-separated keys such as ``sort`` or row letters such
    as ``k2``), in table order; all rows when ``spec`` is None."""
    if spec is None:
        return [key for key, *_ in ROWS]
    letters = {label[1 : label.index(")")]: key for key, label, *_ in ROWS}
    wanted: set[str] = set()
    for name in filter(None, (n.strip() for n in spec.split(","))):
        key = letters.get(name.strip("()"), name)
        if key not in AGGREGATE and key != "import":
            known = ", ".join(f"{k} ({lt})" for lt, k in letters.items())
            raise SystemExit(f"run.py: unknown row {name!r}; rows: {known}")
        wanted.add(key)
    return [key for key, *_ in ROWS if key in wanted]


def run_worker(
    lib: str,
    python: str,
    quick: bool,
    timeout: float,
    only: list[str] | None = None,
    devices: int = 1,
) -> dict[str, Any]:
    cmd = [python, "-m", "bench.worker", "--lib", lib, "--devices", str(devices)]
    cmd += ["--quick"] if quick else []
    for name in only or []:
        cmd += ["--only", name]
    try:
        p = subprocess.run(
            cmd,
            check=False,
            cwd=ROOT,
            env=child_env(devices),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"fatal": f"worker timed out after {timeout:.0f}s"}
    except OSError as e:
        return {"fatal": f"cannot start {python}: {e}"}
    lines = p.stdout.strip().splitlines()
    if p.returncode != 0 or not lines:
        tail = (p.stderr or p.stdout).strip().splitlines()[-8:]
        return {"fatal": f"worker exited {p.returncode}", "traceback": "\n".join(tail)}
    try:
        res: dict[str, Any] = json.loads(lines[-1])
    except json.JSONDecodeError:
        return {"fatal": "worker printed no JSON", "traceback": "\n".join(lines[-8:])}
    return res


def _wall(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, check=False, cwd=ROOT, env=env, capture_output=True, text=True)
    t1 = time.perf_counter()
    if p.returncode != 0:
        raise RuntimeError((p.stderr.strip().splitlines() or ["?"])[-1])
    return (t1 - t0) * 1e3


def measure_imports(pythons: dict[str, str], runs: int) -> dict[str, dict[str, Any]]:
    """(d) wall time of a fresh ``python -c "import LIB"`` minus a fresh ``python -c pass``
    with the same interpreter, in ms; the libraries are interleaved so drift hits both alike.
    One untimed import per library first (warms the OS file cache and writes .pyc files)."""
    env = child_env()
    out: dict[str, dict[str, Any]] = {}
    ok: list[str] = []
    for lib in LIBS:
        try:
            _wall([pythons[lib], "-c", f"import {lib}"], env)
            ok.append(lib)
            out[lib] = {"samples": [], "baseline": []}
        except (RuntimeError, OSError) as e:
            out[lib] = {"error": f"import {lib} failed: {e}"}
    for _ in range(runs):
        for lib in ok:
            out[lib]["baseline"].append(_wall([pythons[lib], "-c", "pass"], env))
            out[lib]["samples"].append(_wall([pythons[lib], "-c", f"import {lib}"], env))
    for lib in ok:
        d = out[lib]
        d["baseline_median"] = statistics.median(d["baseline"])
        d["raw_median"] = statistics.median(d["samples"])
        d["value"] = d["raw_median"] - d["baseline_median"]
    return out


def show_facts(facts: dict[str, Any]) -> str:
    """``{"collectives": {"all-reduce": 2}}`` as ``collectives: all-reduce x2`` (an empty
    multiset as ``none``)."""

    def value(v: Any) -> str:
        if isinstance(v, dict):
            counts = cast(dict[str, int], v)
            return ", ".join(f"{k} x{n}" for k, n in sorted(counts.items())) or "none"
        return str(v)

    return "; ".join(f"{name}: {value(v)}" for name, v in sorted(facts.items()))


def reduce(key: str, samples: list[float]) -> float:
    return min(samples) if AGGREGATE[key] == "min" else statistics.median(samples)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats (smoke test)")
    ap.add_argument("--json", metavar="OUT", help="write raw samples and results as JSON")
    ap.add_argument("--strict", action="store_true", help="exit 1 if any row fails or errors")
    ap.add_argument("--core-python", default=str(ROOT / ".venv/bin/python"))
    ap.add_argument("--jax-python", default=str(ROOT / ".venv-jax/bin/python"))
    ap.add_argument(
        "--rows",
        metavar="LIST",
        help="run only these rows: comma-separated keys or letters, e.g. 'i,j,sort' "
        "(default: all)",
    )
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        metavar="N",
        help="repeat the worker order (full: ABBA, --quick: AB) N times, pooling the samples "
        "(default 1); more rounds give each library more chances at a quiet spell",
    )
    args = ap.parse_args()
    keys = select_rows(args.rows)
    rows = [row for row in ROWS if row[0] in keys]
    only = None if args.rows is None else [k for k in keys if k != "import"]

    pythons = {"jax_core": args.core_python, "jax": args.jax_python}
    t_start = time.perf_counter()

    # Workloads: whole worker processes, alternating libraries (ABBA in the full run) so slow
    # drift on a noisy machine hits both columns alike; samples are pooled across rounds. One
    # such series per device count among the rows asked for (each with its own environment).
    order = (["jax_core", "jax"] if args.quick else ["jax_core", "jax", "jax", "jax_core"]) * args.rounds
    groups = sorted({DEVICES.get(k, 1) for k in keys if k != "import"})
    workers: dict[int, dict[str, list[dict[str, Any]]]] = {}
    for n in groups:
        workers[n] = {lib: [] for lib in LIBS}
        names = [k for k in keys if k != "import" and DEVICES.get(k, 1) == n]
        for lib in order:
            log(f"[bench] workloads under {lib} ({pythons[lib]}), {n} device(s)")
            workers[n][lib].append(
                run_worker(
                    lib, pythons[lib], args.quick, timeout=600, only=only and names, devices=n
                )
            )

    imports: dict[str, dict[str, Any]] = {lib: {"error": "not run"} for lib in LIBS}
    if "import" in keys:
        log("[bench] import times")
        imports = measure_imports(pythons, runs=3 if args.quick else 7)

    # results[key][lib] = {"value": float} | {"error": str}
    results: dict[str, dict[str, dict[str, Any]]] = {}
    fatal: dict[str, str] = {}
    for key, *_ in rows:
        results[key] = {}
        for lib in LIBS:
            if key == "import":
                results[key][lib] = imports[lib]
                continue
            samples: list[float] = []
            facts: list[Any] = []
            err = None
            for w in workers[DEVICES.get(key, 1)][lib]:
                if "fatal" in w:
                    fatal[lib] = w["fatal"] + ("\n" + w["traceback"] if "traceback" in w else "")
                    err = w["fatal"]
                    continue
                r = w["workloads"].get(key, {"error": "not run"})
                if "error" in r:
                    err = r["error"]
                    results[key].setdefault("_tb", {})[lib] = r.get("traceback", "")
                else:
                    samples += r["samples"]
                    facts += [r["facts"]] if "facts" in r else []
            if facts:
                results[key].setdefault("_facts", {})[lib] = facts
            if err is not None:
                results[key][lib] = {"error": err, "samples": samples}
            else:
                results[key][lib] = {"value": reduce(key, samples), "samples": samples}

    # Table.
    header = f"{'workload':<40} {'jax_core':>10} {'jax':>10} {'unit':<8} {'ratio':>6} {'target':>7}  result"
    lines = [header, "-" * len(header)]
    any_bad = False
    errors: list[str] = []

    def cell(d: dict[str, Any]) -> str:
        return f"{d['value']:10.2f}" if "value" in d else f"{'ERROR':>10}"

    def facts_note(key: str) -> tuple[bool, str | None]:
        """Whether every worker of both libraries reported the same facts for the row (e.g. the
        collective ops of (p)'s compiled HLO), and a note line saying so; (True, None) if the
        row reports none."""
        by_lib: dict[str, list[Any]] = results[key].get("_facts", {})
        if not by_lib:
            return True, None
        shown = {lib: sorted({show_facts(f) for f in by_lib.get(lib, [])}) for lib in LIBS}
        same = all(len(v) == 1 for v in shown.values()) and len({v[0] for v in shown.values()}) == 1
        text = " / ".join(f"{lib} {' | '.join(v) or '-'}" for lib, v in shown.items())
        return same, f"    note: {text} ({'same' if same else 'DIFFERENT: FAIL'})"

    for key, label, unit, target in rows:
        core, jx = results[key]["jax_core"], results[key]["jax"]
        same_facts, note = facts_note(key)
        if "value" in core and "value" in jx and jx["value"] > 0:
            ratio = core["value"] / jx["value"]
            ok = ratio <= target and same_facts
            verdict = "PASS" if ok else "FAIL"
            rs = f"{ratio:6.3f}"
            results[key]["ratio"] = {
                "value": ratio, "target": target, "pass": ok, "same_facts": same_facts
            }
        else:
            ok, verdict, rs = False, "ERROR", f"{'-':>6}"
            results[key]["ratio"] = {"value": None, "target": target, "pass": False}
            for lib in LIBS:
                if "error" in results[key][lib] and lib not in fatal:
                    errors.append(f"{label} [{lib}]: {results[key][lib]['error']}")
        any_bad |= not ok
        lines.append(
            f"{label:<40} {cell(core)} {cell(jx)} {unit:<8} {rs} {f'<= {target:.2f}':>7}  {verdict}"
        )
        lines += [note] if note else []

    elapsed = time.perf_counter() - t_start
    versions = {
        lib: next(
            (w["version"] for g in workers.values() for w in g[lib] if "version" in w), None
        )
        for lib in LIBS
    }
    print()
    print("\n".join(lines))
    print(
        f"\nratio = jax_core / jax (lower is better). jax_core {versions['jax_core']}, "
        f"jax {versions['jax']}; {platform.machine()}, {os.cpu_count()} CPUs; "
        f"{'quick' if args.quick else 'full'} run, {elapsed:.0f}s."
    )
    for lib, msg in fatal.items():
        print(f"\n{lib} worker failed: {msg}")
    for msg in errors:
        print(f"\n{msg}")

    if args.json:
        payload = {
            "quick": args.quick,
            "pythons": pythons,
            "versions": versions,
            "machine": {"arch": platform.machine(), "cpus": os.cpu_count()},
            "elapsed_s": elapsed,
            "rows": [
                {"key": k, "label": lbl, "unit": u, "target": t, **results[k]}
                for k, lbl, u, t in rows
            ],
            "fatal": fatal,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")

    if fatal.get("jax"):
        return 2  # the oracle itself is broken: the comparison means nothing
    return 1 if (args.strict and any_bad) else 0


if __name__ == "__main__":
    sys.exit(main())
