"""One library's side of the API benchmark: ``python bench/api_worker.py --lib jax_core|jax``.

Started by bench/api_bench.py, once per library, each under that library's own interpreter
(jax_core: ``.venv``, with ``--core-root`` or the repo root first on ``PYTHONPATH``; JAX:
``.venv-jax``). It stays alive for the whole run and answers one request at a time: it reads a
JSON object per line on stdin and writes one per line on stdout (what the measured calls print
goes to stderr). The driver keeps both workers alive and alternates them function by function,
so an idle worker is blocked on its stdin and costs nothing.

Self-contained on purpose (only the standard library, NumPy, ml_dtypes and the library under
test): with ``--core-root`` an older checkout's ``bench``/``tests`` packages come first on the
path, so nothing here may import them.

Requests (``op``):

- ``probe``: ``{"candidates": [call, ...]}``: evaluates each call once eagerly, in order, and
  answers ``{"chosen": i}`` for the first that does not raise (``{"chosen": -1, "error": ...}``
  when all raise). The driver asks JAX, then times the chosen call in both libraries.
- ``run``: ``{"call": call, "calls": n, "batches": b, "first": s, "cap_s": c, "no_jit": why}``
  (``no_jit`` null: the call is jitted too): times one call (below) and answers ``{"eager": ...,
  "jit": ..., "first": ...}``, each ``{"samples": [...], "n": calls}`` (``n``: calls per batch),
  ``{"error": "Class: message"}`` or ``{"skip": why}``.

A call is ``{"src": "lambda x0, x1: jnp.add(x0, x1)", "args": ["x0", "x1"], "inputs": {...}}``;
an input is ``{"dtype", "shape", "hex"}`` (raw bytes) or ``{"expr": "random.key(0)"}``. Inputs
become library arrays once (``jnp.asarray``), before anything is timed. The sources see ``jax``,
``jnp``, ``lax``, ``random``, ``jsp`` (``jax.scipy`` with its submodules) and ``np``.

What ``run`` measures, in this order:

1. one untimed eager call (warm-up: the primitives' executables compile here);
2. first call: ``s`` times, a fresh ``jax.jit`` of a fresh lambda (the source evaluated again,
   so no trace or compile cache keyed on the function can hit) called once and blocked on: trace
   + lower + compile + run, in ms;
3. eager: ``b`` batches of ``n`` calls of the lambda, blocking on the last result's array leaves
   at the end of each batch, in µs/call;
4. jit: the same for the last jitted wrapper of step 2 (already compiled: dispatch only).

``n`` is ``calls``, cut so that one batch takes about ``cap_s`` seconds at most (at least 3
calls) for functions slow enough to need it; the answer reports the ``n`` used. GC is disabled
inside a timed batch, as ``timeit`` does.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

Json = dict[str, Any]
Fn = Callable[..., Any]


def _dtype(name: str) -> np.dtype[Any]:
    """A dtype from its name, ml_dtypes' (bfloat16, float8_*) included."""
    import ml_dtypes

    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def namespace(lib: str) -> dict[str, Any]:
    """The names the measured sources see: ``jax``, ``jnp``, ``lax``, ``random``, ``jsp``, ``np``."""
    jax = importlib.import_module(lib)
    jsp = importlib.import_module(f"{lib}.scipy")
    for sub in ("linalg", "signal", "special", "stats"):
        try:
            importlib.import_module(f"{lib}.scipy.{sub}")
        except ImportError:  # an older checkout may lack one; its rows then raise
            pass
    return {
        "jax": jax,
        "jnp": importlib.import_module(f"{lib}.numpy"),
        "lax": importlib.import_module(f"{lib}.lax"),
        "random": importlib.import_module(f"{lib}.random"),
        "jsp": jsp,
        "np": np,
    }


def _describe(err: BaseException) -> str:
    return f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"[:300]


class Worker:
    def __init__(self, lib: str) -> None:
        self.lib = lib
        self.ns = namespace(lib)
        self.jax: Any = self.ns["jax"]
        self.jnp: Any = self.ns["jnp"]
        self.leaves: Callable[[Any], list[Any]] = self.jax.tree_util.tree_leaves

    # -------------------------------------------------------------------------------- inputs

    def arrays(self, call: Json) -> list[Any]:
        """The call's arguments as library arrays, in order."""
        out: list[Any] = []
        for name in call["args"]:
            spec = call["inputs"][name]
            if "expr" in spec:
                out.append(eval(spec["expr"], dict(self.ns)))
            else:
                dtype = _dtype(str(spec["dtype"]))
                shape = tuple(int(d) for d in spec["shape"])
                flat = np.frombuffer(bytes.fromhex(spec["hex"]), dtype=dtype)
                out.append(self.jnp.asarray(flat.reshape(shape).copy()))
        self.block(out)
        return out

    def function(self, call: Json) -> Fn:
        """A fresh function object (and fresh inner lambdas) from the call's source."""
        fn: Fn = eval(call["src"], dict(self.ns))
        return fn

    def block(self, out: Any) -> None:
        for leaf in self.leaves(out):
            ready = getattr(leaf, "block_until_ready", None)
            if ready is not None:
                ready()

    # -------------------------------------------------------------------------------- timing

    def batch(self, fn: Fn, args: list[Any], n: int) -> float:
        """µs per call over ``n`` calls, blocking on the last result."""
        gc.disable()
        try:
            out = None
            t0 = time.perf_counter()
            for _ in range(n):
                out = fn(*args)
            self.block(out)
            t1 = time.perf_counter()
        finally:
            gc.enable()
        return (t1 - t0) / n * 1e6

    def steady(self, fn: Fn, args: list[Any], req: Json) -> Json:
        """``batches`` batches of at most ``calls`` calls (cut to about ``cap_s`` per batch)."""
        # two more warm calls; the faster sizes the batches (one call can catch a preemption)
        single = min(self.batch(fn, args, 1), self.batch(fn, args, 1)) * 1e-6
        n = max(3, min(int(req["calls"]), int(float(req["cap_s"]) / max(single, 1e-9))))
        return {"samples": [self.batch(fn, args, n) for _ in range(int(req["batches"]))], "n": n}

    def first_calls(self, call: Json, args: list[Any], samples: int) -> tuple[Json, Fn | None]:
        """ms of trace + compile + run of a fresh jit of a fresh lambda, ``samples`` times; and
        the last (now compiled) jitted wrapper, for the steady-state jit timing."""
        times: list[float] = []
        jitted: Fn | None = None
        for _ in range(samples):
            jitted = self.jax.jit(self.function(call))
            assert jitted is not None
            t0 = time.perf_counter()
            out = jitted(*args)
            self.block(out)
            times.append((time.perf_counter() - t0) * 1e3)
        return {"samples": times}, jitted

    # ------------------------------------------------------------------------------ requests

    def probe(self, req: Json) -> Json:
        errors: list[str] = []
        for i, call in enumerate(req["candidates"]):
            try:
                args = self.arrays(call)
                self.block(self.function(call)(*args))
                return {"chosen": i}
            except Exception as err:  # noqa: BLE001 - the outcome is reported, not raised
                errors.append(_describe(err))
        return {"chosen": -1, "error": errors[0] if errors else "no candidates"}

    def run(self, req: Json) -> Json:
        call = req["call"]
        result: Json = {}
        try:
            args = self.arrays(call)
        except Exception as err:  # noqa: BLE001
            msg = f"inputs: {_describe(err)}"
            return {"eager": {"error": msg}, "jit": {"error": msg}, "first": {"error": msg}}
        fn = self.function(call)
        eager_ok = True
        try:
            self.block(fn(*args))  # warm-up
        except Exception as err:  # noqa: BLE001
            result["eager"] = {"error": _describe(err)}
            eager_ok = False
        jitted: Fn | None = None
        if req.get("no_jit"):
            result["jit"] = result["first"] = {"skip": str(req["no_jit"])}
        else:
            try:
                result["first"], jitted = self.first_calls(call, args, int(req["first"]))
            except Exception as err:  # noqa: BLE001
                result["jit"] = result["first"] = {"error": _describe(err)}
        if eager_ok:
            try:
                result["eager"] = self.steady(fn, args, req)
            except Exception as err:  # noqa: BLE001
                result["eager"] = {"error": _describe(err)}
        if jitted is not None:
            try:
                result["jit"] = self.steady(jitted, args, req)
            except Exception as err:  # noqa: BLE001
                result["jit"] = {"error": _describe(err)}
        return result


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", choices=["jax_core", "jax"], required=True)
    args = ap.parse_args()
    stdout = sys.stdout
    sys.stdout = sys.stderr  # what the measured calls print must not mix with the answers

    def send(obj: Json) -> None:
        stdout.write(json.dumps(obj) + "\n")
        stdout.flush()

    try:
        t0 = time.perf_counter()
        worker = Worker(args.lib)
        hello: Json = {
            "lib": args.lib,
            "version": getattr(worker.jax, "__version__", "?"),
            "file": getattr(worker.jax, "__file__", "?"),
            "python": sys.executable,
            "import_s": time.perf_counter() - t0,
        }
    except Exception as err:  # noqa: BLE001
        send({"fatal": f"import {args.lib} failed: {_describe(err)}", "tb": traceback.format_exc()})
        return 1
    send(hello)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        reply = worker.probe(req) if req["op"] == "probe" else worker.run(req)
        if args.lib == "jax_core" and "jax" in sys.modules:
            reply["fatal"] = "jax_core imported jax (it must never do so)"
        send(reply)
    return 0


if __name__ == "__main__":
    sys.exit(main())
