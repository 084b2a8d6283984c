"""Multi-process benchmark: jax_core vs real JAX, 2 processes x 4 CPU devices on loopback.

```sh
.venv/bin/python bench/distributed_bench.py            # full run, ABBA order (~1-2 min)
.venv/bin/python bench/distributed_bench.py --quick    # one run per library, fewer iterations
.venv/bin/python bench/distributed_bench.py --json out.json --rounds 2
```

Each library runs as ``--processes`` (2) fresh processes of its own interpreter (jax_core:
``.venv/bin/python``, JAX: ``.venv-jax/bin/python``; ``--core-python`` / ``--jax-python`` pick
others), each with ``--local-devices`` (4) host CPU devices (``XLA_FLAGS=
--xla_force_host_platform_device_count=4``, ``JAX_NUM_CPU_DEVICES=4``), joined by
``jax.distributed.initialize`` through a coordinator on 127.0.0.1 (a free port per launch). The
processes exchange data through the CPU client's Gloo collectives over TCP on loopback. Inherited
``JAX_*`` settings are dropped. A launch has a hard timeout (``--timeout``, 300 s): at the deadline,
or 20 s after one process failed, every process of it is killed. Full runs launch the libraries in
the order jax_core, jax, jax, jax_core (ABBA, repeated ``--rounds`` times), pooling the samples, so
slow drift on the shared machine hits both columns alike; ``--quick`` launches each library once.

Inside each process, after ``initialize``, on a mesh ``('d',)`` over all 8 devices (every
process's), each row is warmed up and then K iterations are timed one by one (each call followed
by ``block_until_ready``; the garbage collector off while timing). Process 0's per-iteration times
are the samples (the collectives keep the processes in lockstep); the row's figure is the median
of the pooled samples. ``ratio`` is jax_core / JAX (lower is better; a ratio within ~0.05 of 1 is a
tie on the shared 2-core machine). No pass/fail target: the 8 devices and the Gloo threads of both
processes share the machine's cores, so the rows time multi-process dispatch and the collectives'
overheads, not a speed-up.

Rows (K = timed iterations, full / quick):

(a) psum all-reduce, ms/iter, K = 40 / 10.
    ``jit(shard_map(lambda b: lax.psum(b, 'd'), mesh, in_specs=P('d'), out_specs=P()))`` on a
    f32[8 * 2**20] array sharded ``P('d')``: each device holds 1M float32 and receives the 1M
    sums, an all-reduce of 4 MiB per device across both processes. Checked: device d's block is
    all d + 1, so every sum is 36.
(b) data-parallel MLP train step, us/step, K = 150 / 30.
    The step of examples/multiprocess_train.py: ``jit(step, out_shardings=replicated)``, ``step``
    applying ``value_and_grad`` to the MSE of a 16-64-64-1 tanh MLP on a global batch of 256 rows
    sharded ``P('d')`` (each process makes its half with ``make_array_from_process_local_data``),
    params replicated (``make_array_from_callback``), an SGD update; params are fed back each
    call, and XLA all-reduces the gradients across processes (one tuple all-reduce). Checked: the
    loss falls, and the first and last losses agree between the libraries (1e-5 relative).

A ``note:`` line under each row gives facts that must agree between the libraries: the collective
ops in the compiled HLO (``f.lower(...).compile().as_text()``) and the checked values.

Figures (2-core shared dev machine; full run, ABBA):

    before the dispatch fix         jax_core       jax   ratio
    (a) psum, ms/iter                  20.83     18.66   1.116
    (b) train step, us/step         39091.10  31770.26   1.230
    after (mypy running alongside)
    (a) psum, ms/iter                  28.45     36.01   0.790
    (b) train step, us/step         73224.24  76090.05   0.962

Both libraries compile the same HLO (one tuple all-reduce of the gradients and the loss), and
Gloo's latency for it dominates the step (a lone psum of 1024 floats takes ~7 ms here). The gap
before was dispatch: jaxlib's C++ jit path cannot count the devices of jax_core's Python
shardings, so every multi-device argument goes through ``jit._shard_arg_fallback``, whose layout
check read the array's shards (a failed ``import jax`` in jaxlib per shard). The fallback now
returns the array at once while no executable with custom layouts exists (``relayout.armed``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import json
import os
import platform
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
LIBS = ("jax_core", "jax")
MARKER = "@@DIST_BENCH@@"
PSUM_ELEMENTS = 1 << 20  # float32 per device
IN_DIM, HIDDEN, OUT_DIM, BATCH_PER_DEVICE = 16, 64, 1, 32  # as examples/multiprocess_train.py
LEARNING_RATE = 0.1
LOSS_RTOL = 1e-5
KILL_ON_FAILURE_S = 20.0

# (key, label, unit, scale from seconds, K full, K quick, warm-up)
ROWS: list[tuple[str, str, str, float, int, int, int]] = [
    ("psum", "(a) psum all-reduce, 1M f32 x 8 devices", "ms/iter", 1e3, 40, 10, 3),
    ("train_step", "(b) data-parallel MLP train step", "us/step", 1e6, 150, 30, 10),
]


# -- Worker (one process of a launch) ----------------------------------------------------------


def _time_each(call: Callable[[], Any], iterations: int, warmup: int) -> list[float]:
    """Seconds per call for ``iterations`` calls, each blocked on, after ``warmup`` calls."""
    for _ in range(warmup):
        call().block_until_ready()
    gc.collect()
    gc.disable()
    try:
        samples: list[float] = []
        for _ in range(iterations):
            t0 = time.perf_counter()
            call().block_until_ready()
            samples.append(time.perf_counter() - t0)
    finally:
        gc.enable()
    return samples


def _local_value(x: Any) -> np.ndarray[Any, Any]:
    """This process's copy of a replicated global array."""
    return np.asarray(x.addressable_shards[0].data)


def bench_psum(jax: Any, mesh: Any, iterations: int, warmup: int) -> dict[str, Any]:
    """(a): each device's 1M floats summed over all devices, the sums replicated everywhere."""
    lax, P = jax.lax, jax.sharding.PartitionSpec
    sharding = jax.sharding.NamedSharding(mesh, P("d"))
    n = mesh.size
    shape = (n * PSUM_ELEMENTS,)

    def block(index: tuple[slice, ...]) -> np.ndarray[Any, Any]:
        start = index[0].indices(shape[0])[0]
        return np.full((PSUM_ELEMENTS,), start // PSUM_ELEMENTS + 1, np.float32)

    def total(b: Any) -> Any:
        return lax.psum(b, "d")

    x = jax.make_array_from_callback(shape, sharding, block)
    f = jax.jit(jax.shard_map(total, mesh=mesh, in_specs=P("d"), out_specs=P()))
    out = f(x)
    want = n * (n + 1) / 2
    got = {float(v) for s in out.addressable_shards for v in np.unique(np.asarray(s.data))}
    if got != {want}:
        raise AssertionError(f"psum gave {sorted(got)}, expected {want}")
    samples = _time_each(lambda: f(x), iterations, warmup)
    from bench.workloads_sharding import collectives  # the worker runs with the repo importable

    hlo = f.lower(x).compile().as_text()
    return {"samples": samples, "facts": {"collectives": collectives(hlo), "sum": want}}


def _mlp_loss(jnp: Any, params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return jnp.mean((x @ w + b - y) ** 2)


def bench_train_step(jax: Any, mesh: Any, iterations: int, warmup: int) -> dict[str, Any]:
    """(b): examples/multiprocess_train.py's step on one global batch, params fed back."""
    jnp, P = jax.numpy, jax.sharding.PartitionSpec
    batch = jax.sharding.NamedSharding(mesh, P("d"))
    replicated = jax.sharding.NamedSharding(mesh, P())
    global_batch = mesh.size * BATCH_PER_DEVICE
    rng = np.random.default_rng(0)  # the same host data in every process; each takes its rows
    x_all = rng.standard_normal((global_batch, IN_DIM)).astype(np.float32)
    y_all = np.sin(x_all.sum(axis=1, keepdims=True)).astype(np.float32)
    index_map = batch.addressable_devices_indices_map(x_all.shape)
    starts = sorted(i[0].indices(global_batch)[0] for i in index_map.values())
    rows = slice(starts[0], starts[-1] + BATCH_PER_DEVICE)
    x = jax.make_array_from_process_local_data(batch, x_all[rows], x_all.shape)
    y = jax.make_array_from_process_local_data(batch, y_all[rows], y_all.shape)
    sizes = [IN_DIM, HIDDEN, HIDDEN, OUT_DIM]
    init = [
        ((rng.standard_normal((m, k)) / np.sqrt(m)).astype(np.float32), np.zeros(k, np.float32))
        for m, k in itertools.pairwise(sizes)
    ]

    def put(v: np.ndarray[Any, Any]) -> Any:
        def part(index: tuple[slice, ...]) -> np.ndarray[Any, Any]:
            return v[index]

        return jax.make_array_from_callback(v.shape, replicated, part)

    def step(params: list[tuple[Any, Any]], x: Any, y: Any) -> Any:
        def loss_of(p: list[tuple[Any, Any]]) -> Any:
            return _mlp_loss(jnp, p, x, y)

        loss, grads = jax.value_and_grad(loss_of)(params)
        new = [
            (w - LEARNING_RATE * gw, b - LEARNING_RATE * gb)
            for (w, b), (gw, gb) in zip(params, grads, strict=True)
        ]
        return new, loss

    f = jax.jit(step, out_shardings=replicated)
    state = {"params": [(put(w), put(b)) for w, b in init]}
    first = float(_local_value(f(state["params"], x, y)[1]))

    def call() -> Any:
        state["params"], loss = f(state["params"], x, y)
        return loss

    samples = _time_each(call, iterations, warmup)
    last = float(_local_value(call()))
    if not last < first:
        raise AssertionError(f"the loss did not fall: {first} -> {last}")
    from bench.workloads_sharding import collectives

    hlo = f.lower(state["params"], x, y).compile().as_text()
    facts = {
        "collectives": collectives(hlo),
        "first_loss": first,
        "steps": iterations + warmup + 2,
        "last_loss": last,
    }
    return {"samples": samples, "facts": facts}


def worker(lib: str, quick: bool) -> dict[str, Any]:
    """One process: import ``lib``, join the run, time the rows; the results as JSON-able data."""
    t0 = time.perf_counter()
    jax = importlib.import_module(lib)
    importlib.import_module(f"{lib}.numpy")
    result: dict[str, Any] = {"lib": lib, "version": getattr(jax, "__version__", "?")}
    jax.distributed.initialize(
        coordinator_address=os.environ["JAX_COORDINATOR_ADDRESS"],
        num_processes=int(os.environ["JAX_NUM_PROCESSES"]),
        process_id=int(os.environ["JAX_PROCESS_ID"]),
    )
    result["join_s"] = time.perf_counter() - t0  # import + initialize
    result["process"] = jax.process_index()
    mesh = jax.sharding.Mesh(np.array(jax.devices()), ("d",))
    result["devices"] = mesh.size
    rows: dict[str, Any] = {}
    for key, _label, _unit, _scale, k_full, k_quick, warmup in ROWS:
        bench = {"psum": bench_psum, "train_step": bench_train_step}[key]
        try:
            rows[key] = bench(jax, mesh, k_quick if quick else k_full, warmup)
        except Exception as e:  # noqa: BLE001 - reported in the table
            rows[key] = {
                "error": f"{type(e).__name__}: {e}"[:500],
                "traceback": traceback.format_exc(),
            }
    result["rows"] = rows
    if lib == "jax_core" and "jax" in sys.modules:
        result["fatal"] = "jax_core imported jax (it must never do so)"
    jax.distributed.shutdown()
    return result


# -- Launcher ----------------------------------------------------------------------------------


def launch(lib: str, python: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Runs one launch of ``lib`` (``args.processes`` processes, through the tests' launcher:
    own sessions, a deadline, the others killed after one fails); each process's result, or a
    ``{"fatal": ...}`` for a process that failed, timed out or printed nothing."""
    # Imported here, not in the workers (real JAX's venv has no pytest, which the tests import).
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.distributed._launch import LAUNCHER_VARIABLES, child_env, free_port, run_commands

    port = free_port()
    cmd = [python, "-m", "bench.distributed_bench", "--worker", "--lib", lib]
    cmd += ["--quick"] if args.quick else []
    # Only this run's JAX_* settings (none inherited); the repository importable by either interpreter.
    path = {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    envs = [
        {k: v for k, v in child_env(port, args.processes, i, args.local_devices, path).items()
         if not k.startswith("JAX_") or k in LAUNCHER_VARIABLES}
        for i in range(args.processes)
    ]  # fmt: skip
    procs = run_commands([cmd] * args.processes, envs, args.timeout, KILL_ON_FAILURE_S)
    results: list[dict[str, Any]] = []
    for p in procs:
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith(MARKER)]
        if p.returncode == 0 and lines:
            results.append(json.loads(lines[-1][len(MARKER) :]))
            continue
        why = "timed out" if p.timed_out else "killed after a peer failed" if p.killed_on_failure else ""
        tail = "\n".join(p.stderr.strip().splitlines()[-8:])
        results.append({"fatal": f"process {p.process_id}: exit {p.returncode} {why}".strip(), "traceback": tail})
    return results


# -- Table -------------------------------------------------------------------------------------


def _facts_text(facts: dict[str, Any]) -> str:
    parts: list[str] = []
    for name, value in sorted(facts.items()):
        if name == "collectives":
            ops = ", ".join(f"{op} x{n}" for op, n in sorted(value.items())) or "none"
            parts.append(f"collectives: {ops}")
        elif isinstance(value, float):
            parts.append(f"{name}: {value:.7g}")
        else:
            parts.append(f"{name}: {value}")
    return "; ".join(parts)


def _facts_agree(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Same collectives and checked values (floats, e.g. losses, to LOSS_RTOL relative)."""
    if a.keys() != b.keys():
        return False
    for name, x in a.items():
        y = b[name]
        if isinstance(x, float) and isinstance(y, float):
            if abs(x - y) > LOSS_RTOL * abs(y):
                return False
        elif x != y:
            return False
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one launch per library, fewer iterations")
    ap.add_argument("--rounds", type=int, default=1, help="repeat the ABBA order N times")
    ap.add_argument("--processes", type=int, default=2, help=argparse.SUPPRESS)
    ap.add_argument("--local-devices", type=int, default=4, help=argparse.SUPPRESS)
    ap.add_argument("--timeout", type=float, default=300.0, help="hard limit per launch, s")
    ap.add_argument("--json", metavar="OUT", help="write the samples and results as JSON")
    ap.add_argument("--core-python", default=str(ROOT / ".venv/bin/python"))
    ap.add_argument("--jax-python", default=str(ROOT / ".venv-jax/bin/python"))
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--lib", choices=LIBS, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        assert args.lib is not None
        print(MARKER + json.dumps(worker(args.lib, args.quick)), flush=True)
        return 0

    pythons = {"jax_core": args.core_python, "jax": args.jax_python}
    order = (
        ["jax_core", "jax"] if args.quick else ["jax_core", "jax", "jax", "jax_core"]
    ) * args.rounds
    t_start = time.perf_counter()
    launches: dict[str, list[list[dict[str, Any]]]] = {lib: [] for lib in LIBS}
    for lib in order:
        print(
            f"[dist-bench] {args.processes} x {args.local_devices} devices under {lib}",
            file=sys.stderr,
            flush=True,
        )
        launches[lib].append(launch(lib, pythons[lib], args))

    fatal: dict[str, str] = {}
    # cells[key][lib]: {"value", "samples", "facts"} or {"error"}
    cells: dict[str, dict[str, dict[str, Any]]] = {key: {} for key, *_ in ROWS}
    for lib in LIBS:
        for key, _label, _unit, scale, *_ in ROWS:
            samples: list[float] = []
            facts: list[dict[str, Any]] = []
            error = None
            for procs in launches[lib]:
                bad = [p for p in procs if "fatal" in p]
                if bad:
                    fatal[lib] = bad[0]["fatal"] + "\n" + bad[0].get("traceback", "")
                    error = bad[0]["fatal"]
                    continue
                lead = next(p for p in procs if p["process"] == 0)
                row = lead["rows"][key]
                if "error" in row:
                    error = row["error"]
                    continue
                samples += [s * scale for s in row["samples"]]
                facts.append(row["facts"])
            if error is not None:
                cells[key][lib] = {"error": error}
            else:
                cells[key][lib] = {
                    "value": statistics.median(samples),
                    "samples": samples,
                    "facts": facts,
                }

    header = f"{'workload':<42} {'jax_core':>10} {'jax':>10} {'unit':<8} {'ratio':>6}"
    lines = [header, "-" * len(header)]
    for key, label, unit, *_ in ROWS:
        core, jx = cells[key]["jax_core"], cells[key]["jax"]

        def cell(c: dict[str, Any]) -> str:
            return f"{c['value']:10.2f}" if "value" in c else f"{'ERROR':>10}"

        ratio = (
            f"{core['value'] / jx['value']:6.3f}"
            if "value" in core and "value" in jx
            else f"{'-':>6}"
        )
        lines.append(f"{label:<42} {cell(core)} {cell(jx)} {unit:<8} {ratio}")
        if "facts" in core and "facts" in jx:
            all_facts = core["facts"] + jx["facts"]
            same = all(_facts_agree(all_facts[0], f) for f in all_facts)
            lines.append(
                f"    note: {_facts_text(all_facts[0])} ({'same in both' if same else 'DIFFERENT'})"
            )
            if not same:
                for lib in LIBS:
                    lines += [f"      {lib}: {_facts_text(f)}" for f in cells[key][lib]["facts"]]
        for lib in LIBS:
            if "error" in cells[key][lib] and lib not in fatal:
                lines.append(f"    {lib} error: {cells[key][lib]['error']}")

    joins = {
        lib: statistics.median(
            [p["join_s"] for procs in launches[lib] for p in procs if "join_s" in p]
            or [float("nan")]
        )
        for lib in LIBS
    }
    versions = {
        lib: next((p["version"] for ps in launches[lib] for p in ps if "version" in p), None)
        for lib in LIBS
    }
    elapsed = time.perf_counter() - t_start
    print()
    print("\n".join(lines))
    print(
        f"\nratio = jax_core / jax (lower is better); median per iteration, process 0's timings. "
        f"{args.processes} processes x {args.local_devices} CPU devices on 127.0.0.1 (Gloo). "
        f"import + initialize: jax_core {joins['jax_core']:.2f} s, jax {joins['jax']:.2f} s. "
        f"jax_core {versions['jax_core']}, jax {versions['jax']}; {platform.machine()}, "
        f"{os.cpu_count()} CPUs; {'quick' if args.quick else 'full'} run "
        f"({' '.join(order)}), {elapsed:.0f} s."
    )
    for lib, msg in fatal.items():
        print(f"\n{lib} launch failed: {msg}")
    if args.json:
        payload = {
            "quick": args.quick,
            "order": order,
            "pythons": pythons,
            "versions": versions,
            "rows": cells,
            "launches": launches,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 2 if fatal else 0


if __name__ == "__main__":
    sys.exit(main())
