"""Runs a batch of calls through both workers at once (jax_core in this repository's interpreter,
real JAX in ``.venv-jax``'s): two subprocesses, one per implementation, on the two cores.

A worker that crashes or hangs on a call loses only that call: the outcome there is recorded as
``crash``/``hang`` and the worker is restarted after it.
"""

from __future__ import annotations

import json
import queue
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from tests.oracle import client

WORKER = Path(__file__).resolve().parent / "worker.py"
CALL_TIMEOUT_S = 120.0  # the slowest single call (a compile) is far below this


@dataclass(frozen=True)
class Result:
    """A call's outcome: leaves with their weak types, or the class and message of what it raised
    (``crash``/``hang`` when the worker died on it)."""

    leaves: tuple[np.ndarray[Any, Any], ...] | None = None
    weak: tuple[bool, ...] = ()
    error: str | None = None
    message: str = ""

    def describe(self) -> str:
        if self.leaves is None:
            return f"raised {self.error}: {self.message[:200]}"
        return "; ".join(
            f"{a.dtype}{list(a.shape)}{' weak' if w else ''} {np.array2string(a, threshold=12)}"
            for a, w in zip(self.leaves, self.weak, strict=True)
        )


def encode(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return {
            "dtype": value.dtype.name,
            "shape": list(value.shape),
            "hex": np.ascontiguousarray(value).tobytes().hex(),
        }
    return value


def encode_result(result: Result) -> dict[str, Any]:
    """A result as the worker writes it (the inverse of ``decode_result``)."""
    if result.leaves is None:
        return {"error": result.error, "message": result.message[:200]}
    leaves = [{"text": str(a.tolist())} if a.dtype.kind in "USO" else encode(a) for a in result.leaves]
    return {"leaves": leaves, "weak": list(result.weak)}


def decode_result(raw: dict[str, Any]) -> Result:
    return _decode(raw)


def _decode(raw: dict[str, Any]) -> Result:
    if "error" in raw:
        return Result(error=raw["error"], message=raw["message"])
    leaves = tuple(
        np.asarray(x["text"]) if "text" in x
        else np.frombuffer(bytes.fromhex(x["hex"]), dtype=client.dtype_named(x["dtype"])).reshape(x["shape"])
        for x in raw["leaves"]
    )  # fmt: skip
    return Result(leaves=leaves, weak=tuple(raw["weak"]))


def _interpreter(impl: str) -> str:
    if impl == "jax_core":
        return sys.executable
    exe = client.python()
    assert exe is not None, "no real JAX: build .venv-jax (make test does)"
    return str(exe)


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def run_worker(impl: str, requests: Sequence[dict[str, Any]]) -> list[Result]:
    """Every request's outcome under ``impl``, restarting the worker after a crash or a hang."""
    results: list[Result] = []
    env = {**os.environ, "PYTHONPATH": str(client.ROOT)}
    while len(results) < len(requests):
        rest = requests[len(results) :]
        with tempfile.TemporaryFile("w+") as stderr:
            proc = subprocess.Popen(
                [_interpreter(impl), str(WORKER), impl],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                text=True, env=env, cwd=client.ROOT,
            )  # fmt: skip
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(list(rest)))
            proc.stdin.close()
            lines: queue.Queue[str | None] = queue.Queue()
            pump = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
            pump.start()
            failure = None
            for _ in rest:
                try:
                    line = lines.get(timeout=CALL_TIMEOUT_S)
                except queue.Empty:
                    failure = "hang"
                    break
                if line is None:  # the worker's output ended before its last answer
                    failure = "crash"
                    break
                results.append(_decode(json.loads(line)))
            proc.kill()
            proc.wait()
            pump.join()
            proc.stdout.close()
            if failure is not None:
                stderr.seek(0)
                results.append(Result(error=failure, message=stderr.read()[-500:]))
    return results


def run_both(requests: Sequence[dict[str, Any]]) -> tuple[list[Result], list[Result]]:
    """(jax_core's outcomes, JAX's outcomes), the two workers running side by side."""
    with ThreadPoolExecutor(2) as pool:
        ours = pool.submit(run_worker, "jax_core", requests)
        theirs = pool.submit(run_worker, "jax", requests)
        return ours.result(), theirs.result()
