"""The API benchmark: every public callable of the conformance tables, eager, jit and first call,
jax_core beside real JAX. ``.venv/bin/python -m bench.api_bench`` (see bench/README.md).

One call per table line (bench/api_calls.py: the conformance generator's representative call,
f32[8,8] where the line allows it), and host round trips such as ``float(x.sum())``. Each
library runs in its own persistent worker process (bench/api_worker.py) under its own
interpreter; the driver alternates them function by function (jax_core first on even rows, JAX
first on odd ones), so slow drift of a shared machine hits both columns alike. Per function and
library: eager and jit µs/call (best of the batches), the first call of a fresh jit in ms
(median). Prints the ratio's distribution per column and writes the full table.

Options: ``--only PATTERN`` (function names; comma-separated globs or substrings), ``--quick``,
``--out FILE`` (the table; default bench/api_bench_last.txt), ``--json FILE`` (every reply),
``--core-root PATH`` (an older checkout's jax_core first on the worker's PYTHONPATH),
``--record FILE`` (write a baseline), ``--check FILE`` (exit 1 when an eager or jit ratio grew
by more than ``--factor`` over the baseline's).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import platform
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "bench" / "api_worker.py"
DEFAULT_OUT = ROOT / "bench" / "api_bench_last.txt"
REQUEST_TIMEOUT_S = 300.0  # one function's whole measurement in one library
START_TIMEOUT_S = 120.0

Json = dict[str, Any]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def child_env(pythonpath: str | None) -> dict[str, str]:
    """CPU only, quiet C++ logging, inherited ``JAX_*`` settings dropped (as bench/run.py);
    ``pythonpath`` first on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["TF_CPP_MIN_LOG_LEVEL"] = "1"
    env["JAX_PLATFORMS"] = "cpu"
    if pythonpath is not None:
        old = env.get("PYTHONPATH")
        env["PYTHONPATH"] = pythonpath + (os.pathsep + old if old else "")
    return env


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


class WorkerProcess:
    """A persistent bench/api_worker.py under one interpreter. ``ask`` sends a request and
    waits for its answer; a worker that dies or hangs on a request is killed, the request's
    answer is ``{"crash": ...}``, and the next request starts a new worker."""

    def __init__(self, lib: str, python: str, env: dict[str, str]) -> None:
        self.lib, self.python, self.env = lib, python, env
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.stderr: IO[str] | None = None
        self.hello: Json = {}
        self.restarts = 0

    def _stderr_tail(self) -> str:
        if self.stderr is None:
            return ""
        self.stderr.seek(0)
        return self.stderr.read()[-600:].strip()

    def start(self) -> Json:
        self.stderr = tempfile.TemporaryFile("w+")  # noqa: SIM115 - lives as long as the worker
        self.proc = subprocess.Popen(
            [self.python, str(WORKER), "--lib", self.lib],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            env=self.env,
            cwd=ROOT,
        )
        assert self.proc.stdout is not None
        self.lines = queue.Queue()
        threading.Thread(target=_pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        hello = self._answer(START_TIMEOUT_S)
        if "crash" in hello or "fatal" in hello:
            self.stop()
            raise RuntimeError(f"{self.lib} worker did not start: {hello}")
        self.hello = hello
        return hello

    def _answer(self, timeout: float) -> Json:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return {"crash": f"hang: no answer in {timeout:.0f} s"}
        if line is None:
            return {"crash": f"worker died: {self._stderr_tail()[-300:]}"}
        answer: Json = json.loads(line)
        return answer

    def ask(self, request: Json) -> Json:
        if self.proc is None:
            self.restarts += 1
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except OSError as err:
            answer: Json = {"crash": f"worker gone: {err}"}
        else:
            answer = self._answer(REQUEST_TIMEOUT_S)
        if "crash" in answer:
            self.stop()
        if "fatal" in answer:
            raise RuntimeError(f"{self.lib} worker: {answer['fatal']}")
        return answer

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            if self.proc.stdout is not None:
                self.proc.stdout.close()
            self.proc = None
        if self.stderr is not None:
            self.stderr.close()
            self.stderr = None


def select(names: list[str], pattern: str | None) -> set[str]:
    """The names matched by ``--only``: comma-separated parts, each a glob (``jnp.linalg.*``)
    when it has ``*?[``, else a substring (``sum`` matches ``jnp.sum``, ``jnp.cumsum``, ...)."""
    if pattern is None:
        return set(names)
    parts = [p.strip() for p in pattern.split(",") if p.strip()]
    return {
        n
        for n in names
        for p in parts
        if (fnmatch.fnmatchcase(n, p) if any(c in p for c in "*?[") else p in n)
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--only", metavar="PATTERN", help="only these functions (globs/substrings, comma-separated)"
    )
    ap.add_argument("--quick", action="store_true", help="20 calls per batch, 1 first-call sample")
    ap.add_argument("--calls", type=int, help="calls per batch (default 100; --quick 20)")
    ap.add_argument("--batches", type=int, default=3, help="timed batches per column (default 3)")
    ap.add_argument("--first", type=int, help="first-call samples (default 3; --quick 1)")
    ap.add_argument(
        "--batch-cap-ms",
        type=float,
        default=50.0,
        help="cut a batch's calls so that it takes about this long at most (default 50 ms; "
        "only functions slower than 0.5 ms/call get fewer than 100 calls)",
    )
    ap.add_argument(
        "--out",
        default=str(DEFAULT_OUT),
        help=f"the full table (default {DEFAULT_OUT.relative_to(ROOT)})",
    )
    ap.add_argument("--json", metavar="FILE", help="also write every row and worker reply as JSON")
    ap.add_argument(
        "--record", metavar="BASELINE", help="write this run's summary as a baseline (JSON)"
    )
    ap.add_argument(
        "--check",
        metavar="BASELINE",
        help="compare the eager/jit ratios with a baseline; exit 1 if worse",
    )
    ap.add_argument(
        "--factor",
        type=float,
        default=1.3,
        help="--check: a ratio this many times the baseline's is worse (default 1.3)",
    )
    ap.add_argument(
        "--min-us",
        type=float,
        default=1.0,
        help="--check: and jax_core's time exceeds the baseline ratio times JAX's time now by "
        "more than this many us (default 1.0)",
    )
    ap.add_argument(
        "--core-root",
        metavar="PATH",
        help="put PATH first on the jax_core worker's PYTHONPATH (measure another checkout)",
    )
    ap.add_argument("--core-python", default=str(ROOT / ".venv/bin/python"))
    ap.add_argument("--jax-python", default=str(ROOT / ".venv-jax/bin/python"))
    ap.add_argument("--worst", type=int, default=20, help="rows listed per column (default 20)")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if str(ROOT) not in sys.path:  # run as a script: the tables live under tests/
        sys.path.insert(0, str(ROOT))
    from bench import api_calls, api_report

    t_start = time.perf_counter()
    rows = api_calls.all_rows()
    wanted = select([r.name for r in rows], args.only)
    rows = [r for r in rows if r.name in wanted]
    if not rows:
        raise SystemExit(f"api_bench: --only {args.only!r} matches no function")
    calls = args.calls or (20 if args.quick else 100)
    first = args.first or (1 if args.quick else 3)

    core_root = str(Path(args.core_root).resolve()) if args.core_root else str(ROOT)
    workers = {
        "jax_core": WorkerProcess("jax_core", args.core_python, child_env(core_root)),
        "jax": WorkerProcess("jax", args.jax_python, child_env(None)),
    }
    try:
        for w in workers.values():
            hello = w.start()
            log(f"[api-bench] {w.lib} {hello['version']} from {hello['file']} ({w.python})")
        core_file = str(workers["jax_core"].hello.get("file", ""))
        if not core_file.startswith(core_root + os.sep):
            log(f"[api-bench] warning: jax_core came from {core_file}, not from {core_root}")

        results: list[api_report.Result] = []
        raw: list[Json] = []
        for k, row in enumerate(rows):
            # The call to time: the first candidate JAX runs eagerly (f32[8,8], else the table's
            # base shape); jax_core then makes the same untimed eager call.
            probe = workers["jax"].ask(
                {"op": "probe", "candidates": [c.wire() for c in row.candidates]}
            )
            chosen = max(int(probe.get("chosen", -1)), 0)
            call = row.candidates[chosen]
            workers["jax_core"].ask({"op": "probe", "candidates": [call.wire()]})
            request = {
                "op": "run",
                "call": call.wire(),
                "calls": calls,
                "batches": args.batches,
                "first": first,
                "cap_s": args.batch_cap_ms / 1e3,
                "no_jit": row.no_jit,
            }
            order = ("jax_core", "jax") if k % 2 == 0 else ("jax", "jax_core")
            replies = {lib: workers[lib].ask(request) for lib in order}
            cells = {
                col: {lib: api_report.cell(replies[lib], col) for lib in api_report.LIBS}
                for col in api_report.COLUMNS
            }
            results.append(api_report.Result(row.name, row.module, call.describe, cells))
            raw.append({"chosen": chosen, "probe": probe, **replies})
            if (k + 1) % 50 == 0 or k + 1 == len(rows):
                el = time.perf_counter() - t_start
                log(
                    f"[api-bench] {k + 1}/{len(rows)} functions, {el:.0f} s, ~{el / (k + 1) * (len(rows) - k - 1):.0f} s left"
                )
        versions = {lib: w.hello.get("version") for lib, w in workers.items()}
        files = {lib: w.hello.get("file") for lib, w in workers.items()}
        restarts = {lib: w.restarts for lib, w in workers.items()}
    finally:
        for w in workers.values():
            w.stop()

    elapsed = time.perf_counter() - t_start
    meta: Json = {
        "versions": versions,
        "files": files,
        "core_root": core_root,
        "pythons": {lib: w.python for lib, w in workers.items()},
        "machine": {"arch": platform.machine(), "cpus": os.cpu_count()},
        "calls": calls,
        "batches": args.batches,
        "first": first,
        "batch_cap_ms": args.batch_cap_ms,
        "quick": args.quick,
        "only": args.only,
        "worker_restarts": restarts,
        "elapsed_s": elapsed,
        "argv": sys.argv[1:] if argv is None else argv,
    }
    footer = (
        f"ratio = jax_core / jax (lower is better). jax_core {versions['jax_core']} ({core_root}), "
        f"jax {versions['jax']}; {platform.machine()}, {os.cpu_count()} CPUs; {len(rows)} functions; "
        f"{args.batches} batches of <= {calls} calls (cut to ~{args.batch_cap_ms:g} ms per batch), "
        f"{first} first-call samples; worker restarts {restarts}; {elapsed:.0f} s."
    )
    summary: list[str] = []
    for col in api_report.COLUMNS:
        summary += api_report.distribution(results, col, args.worst) + [""]
    n_err = sum(
        1
        for r in results
        for col in api_report.COLUMNS
        if any(r.cells[col][lib].error is not None for lib in api_report.LIBS)
    )
    print("\n".join(summary))
    print(f"{n_err} cells raised in one or both libraries: see {args.out}")
    print(footer)

    Path(args.out).write_text(
        "\n".join([*api_report.full_table(results), "", *summary, footer]) + "\n"
    )
    print(f"wrote {args.out}")
    if args.json:
        Path(args.json).write_text(
            json.dumps(api_report.payload(meta, results, raw), indent=1) + "\n"
        )
        print(f"wrote {args.json}")
    if args.record:
        Path(args.record).write_text(api_report.baseline_text(meta, results))
        print(f"recorded the baseline {args.record}")
    if args.check:
        baseline = json.loads(Path(args.check).read_text())
        lines, worse = api_report.check(results, baseline, args.factor, args.min_us)
        print("\n".join(lines))
        return 1 if worse else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
