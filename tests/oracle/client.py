"""Real JAX as a live oracle: the same expressions, evaluated by JAX 0.12 on this machine.

XLA compiles for the host CPU, so the last bits of ``exp``/``log``/``erf_inv`` and of float16
arithmetic differ between machines, in real JAX as in jax_core. Values recorded from JAX on one
machine are therefore compared with a tolerance wherever they pass through such math; this module
gives the strong check that is portable by construction: run the expression under real JAX (the
interpreter of ``.venv-jax``, in a separate process: jax_core never imports ``jax``) and under
jax_core in this process, on the same CPU with the same ``XLA_FLAGS``, and require the results to
be bit for bit equal.

``make test`` builds ``.venv-jax`` and sets ``JAX_CORE_ORACLE=require``, so there a missing oracle
fails the live tests; elsewhere (a bare ``pytest``) they skip. ``JAX_CORE_ORACLE_PYTHON`` points
at another interpreter with JAX 0.12 installed.

Usage::

    calls = [Call("random.normal(random.key(0), (3,))"), Call("lax.igamma(a, x)", {"a": a, "x": x})]
    theirs = evaluate(calls)          # one subprocess for the whole batch
    assert_same(here(calls[0]), theirs[0])
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).resolve().parent / "worker.py"
PYTHON_ENV = "JAX_CORE_ORACLE_PYTHON"
MODE_ENV = "JAX_CORE_ORACLE"  # "require": a missing oracle is a failure, not a skip
TIMEOUT_S = 900.0  # a whole batch; the worker never waits on anything but XLA


@dataclass(frozen=True)
class Call:
    """An expression over ``jax``, ``jnp``, ``lax``, ``random``, ``jsp``, ``np`` and ``inputs``
    (arrays or JSON values bound by name), evaluated with ``jax_enable_x64`` set to ``x64``."""

    expr: str
    inputs: Mapping[str, Any] = field(default_factory=dict[str, Any])
    x64: bool = False


@dataclass(frozen=True)
class Outcome:
    """A result's pytree leaves as NumPy arrays, or the class name and message of what it raised."""

    leaves: tuple[np.ndarray[Any, Any], ...] | None = None
    error: str | None = None
    message: str | None = None

    def describe(self) -> str:
        if self.leaves is None:
            return f"raised {self.error}: {(self.message or '')[:300]}"
        return "\n".join(f"{a.dtype}{list(a.shape)} {a}" for a in self.leaves)


def python() -> Path | None:
    """The interpreter with real JAX: ``$JAX_CORE_ORACLE_PYTHON`` or ``.venv-jax/bin/python``."""
    chosen = os.environ.get(PYTHON_ENV)
    path = Path(chosen) if chosen else ROOT / ".venv-jax" / "bin" / "python"
    return path if path.exists() else None


@functools.cache
def available() -> bool:
    exe = python()
    if exe is None:
        return False
    probe = subprocess.run([exe, "-c", "import jax"], capture_output=True, timeout=120, check=False)
    return probe.returncode == 0


def need() -> None:
    """Skip the calling test when there is no oracle, or fail it under ``JAX_CORE_ORACLE=require``."""
    if available():
        return
    why = f"no real JAX to compare with live: build .venv-jax (make test does) or set {PYTHON_ENV}"
    if os.environ.get(MODE_ENV) == "require":
        pytest.fail(f"{MODE_ENV}=require but {why}")
    pytest.skip(why)


def dtype_named(name: str) -> np.dtype[Any]:
    """A dtype from its name, ml_dtypes' (bfloat16, float8_*) included."""
    return np.dtype(getattr(ml_dtypes, name)) if hasattr(ml_dtypes, name) else np.dtype(name)


def _encode(value: Any) -> Any:
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        return {
            "dtype": arr.dtype.name,
            "shape": list(arr.shape),
            "hex": np.ascontiguousarray(arr).tobytes().hex(),
        }
    return value


def _decode(leaf: Mapping[str, Any]) -> np.ndarray[Any, Any]:
    if "text" in leaf:  # a string leaf (a repr), as np.asarray gives it here
        return np.asarray(leaf["text"])
    raw = bytes.fromhex(leaf["hex"])
    return np.frombuffer(raw, dtype=dtype_named(leaf["dtype"])).reshape(leaf["shape"])


_CACHE: dict[str, Outcome] = {}


def _key(call: Call) -> str:
    return json.dumps(
        [call.expr, call.x64, {k: _encode(v) for k, v in sorted(call.inputs.items())}]
    )


def _run_batch(calls: Sequence[Call]) -> None:
    """Evaluates ``calls`` in one oracle subprocess and stores the outcomes in ``_CACHE``."""
    exe = python()
    assert exe is not None
    request = [
        {"expr": c.expr, "x64": c.x64, "inputs": {k: _encode(v) for k, v in c.inputs.items()}}
        for c in calls
    ]
    with subprocess.Popen(
        [exe, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    ) as proc:  # fmt: skip
        if threading.current_thread().name == _THREAD:
            _RUNNING[:] = [proc]
        try:
            out, err = proc.communicate(json.dumps(request), timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    if proc.returncode != 0:
        raise RuntimeError(f"the JAX oracle failed (exit {proc.returncode}):\n{err[-3000:]}")
    for call, raw in zip(calls, json.loads(out), strict=True):
        if "leaves" in raw:
            _CACHE[_key(call)] = Outcome(leaves=tuple(_decode(x) for x in raw["leaves"]))
        else:
            _CACHE[_key(call)] = Outcome(error=raw["error"], message=raw["message"])


# -- Prefetching -----------------------------------------------------------------------------
# A test module registers its calls when it is imported (``prefetch``; ``live_fixture`` does it
# itself). Once pytest has collected, ``start_prefetch`` (tests/conftest.py) evaluates the batches
# of the selected modules in a background thread, one subprocess per batch as ``evaluate`` does,
# in collection order: real JAX computes on one core while jax_core's side of the tests runs on
# the other. ``evaluate`` waits for a batch in flight instead of starting it again.

_THREAD = "jax-oracle-prefetch"
_REGISTERED: list[tuple[str, tuple[Call, ...]]] = []
_RUNNING: list[subprocess.Popen[str]] = []  # the prefetch's current subprocess
_STOP = threading.Event()
_LOCK = threading.Lock()
_IN_FLIGHT: dict[str, threading.Event] = {}
_FAILED: dict[str, str] = {}


def prefetch(calls: Sequence[Call], module: str | None = None) -> None:
    """Registers ``calls`` (a test module's oracle batch) for evaluation ahead of its tests."""
    name = module if module is not None else sys._getframe(1).f_globals.get("__name__", "")  # pyright: ignore[reportPrivateUsage]
    _REGISTERED.append((str(name), tuple(calls)))


def start_prefetch(modules: set[str]) -> None:
    """Starts evaluating the registered batches of ``modules`` in a background thread
    (``JAX_CORE_ORACLE_PREFETCH=0``: not at all, each batch is run when its tests need it)."""
    if os.environ.get("JAX_CORE_ORACLE_PREFETCH") == "0" or not available():
        return
    batches: list[list[Call]] = []
    with _LOCK:
        for module, calls in _REGISTERED:
            if module not in modules:
                continue
            batch: dict[str, Call] = {}
            for c in calls:
                key = _key(c)
                if key not in _CACHE and key not in _IN_FLIGHT:
                    _IN_FLIGHT[key] = threading.Event()
                    batch[key] = c
            if batch:
                batches.append(list(batch.values()))
    if batches:
        threading.Thread(target=_prefetch_all, args=(batches,), name=_THREAD, daemon=True).start()


def stop_prefetch() -> None:
    """Ends the prefetch at the end of the session (``pytest -x`` stops early): no oracle
    subprocess outlives pytest."""
    _STOP.set()
    for proc in _RUNNING:
        if proc.poll() is None:
            proc.kill()


def _prefetch_all(batches: list[list[Call]]) -> None:
    for batch in batches:
        try:
            if _STOP.is_set():
                raise RuntimeError("the session ended")
            _run_batch(batch)
        except Exception as err:  # noqa: BLE001  (reported by the evaluate() that needs it)
            for c in batch:
                _FAILED[_key(c)] = f"{type(err).__name__}: {err}"
        finally:
            with _LOCK:
                for c in batch:
                    _IN_FLIGHT.pop(_key(c)).set()


def evaluate(calls: Sequence[Call]) -> list[Outcome]:
    """Real JAX's outcome of each call: from the prefetch, or one subprocess for the calls not
    yet seen."""
    need()
    keys = [_key(c) for c in calls]
    with _LOCK:
        waiting = [_IN_FLIGHT[k] for k in keys if k in _IN_FLIGHT]
    for event in waiting:
        if not event.wait(4 * TIMEOUT_S):
            raise RuntimeError("the JAX oracle's prefetch did not answer in time")
    failed = [_FAILED[k] for k in keys if k in _FAILED]
    if failed:
        raise RuntimeError(failed[0])
    todo = {k: c for k, c in zip(keys, calls, strict=True) if k not in _CACHE}
    if todo:
        _run_batch(list(todo.values()))
    return [_CACHE[k] for k in keys]


def program_call(program: str, case: str) -> Call:
    """A call that runs ``program`` (source defining helpers over ``jax``, ``jnp``, ``lax``) and
    evaluates the expression ``case`` in its namespace, on either side of the oracle."""
    expr = (
        "(lambda ns: (exec(src, ns), eval(ns['case'], ns))[1])"
        f"({{'jax': jax, 'jnp': jnp, 'lax': lax, 'case': {case!r}}})"
    )
    return Call(expr, {"src": program})


def live_fixture(calls: Sequence[Call]) -> Any:
    """A module-scoped pytest fixture: real JAX's outcome of every call, keyed by expression, from
    one oracle batch (``live = live_fixture(CALLS)`` in a test module, then ``live[call.expr]``)."""

    prefetch(calls, sys._getframe(1).f_globals.get("__name__", ""))  # pyright: ignore[reportPrivateUsage]

    @pytest.fixture(scope="module")
    def live() -> dict[str, Outcome]:
        return {c.expr: o for c, o in zip(calls, evaluate(calls), strict=True)}

    return live


@functools.cache
def _namespace() -> dict[str, Any]:
    from tests.oracle.worker import namespace

    return namespace("jax_core")


def here(call: Call) -> Outcome:
    """jax_core's outcome of the same call, in this process."""
    from jax_core._src.config import enable_x64
    from jax_core.tree_util import tree_leaves

    env = {**_namespace(), **dict(call.inputs)}
    with enable_x64(call.x64):
        try:
            value = eval(call.expr, env)
            return Outcome(leaves=tuple(np.asarray(x) for x in tree_leaves(value)))
        except Exception as err:  # noqa: BLE001  (compared with what JAX raised)
            return Outcome(error=type(err).__name__, message=str(err))


def concretization_head(message: str | None) -> str:
    """A concretization error's message up to its documentation link (the part that names the
    problem and where the value came from)."""
    return (message or "").split("\nSee https://")[0].rstrip("\n")


def assert_same(ours: Outcome, theirs: Outcome, what: str = "", *, messages: bool = False) -> None:
    """Bit equality of every leaf (dtype, shape, bytes), or the same exception class (and, with
    ``messages``, the same message)."""
    label = f" for {what}" if what else ""
    if theirs.leaves is None or ours.leaves is None:
        got = (ours.error, ours.message if messages else None, ours.leaves is None)
        want = (theirs.error, theirs.message if messages else None, theirs.leaves is None)
        assert got == want, (
            f"outcomes differ{label}:\n jax_core {ours.describe()}\n      JAX {theirs.describe()}"
        )
        return
    same = len(ours.leaves) == len(theirs.leaves) and all(
        a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
        for a, b in zip(ours.leaves, theirs.leaves)
    )
    assert same, (
        f"not bit-identical to JAX on this machine{label}:\n jax_core {ours.describe()}\n      JAX {theirs.describe()}"
    )


if __name__ == "__main__":  # a quick look: python -m tests.oracle.client 'jnp.sin(1.0)'
    for text in sys.argv[1:]:
        print(evaluate([Call(text)])[0].describe())
