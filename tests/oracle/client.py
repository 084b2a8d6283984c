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


def evaluate(calls: Sequence[Call]) -> list[Outcome]:
    """Real JAX's outcome of each call, from one subprocess for the calls not yet seen."""
    need()
    exe = python()
    assert exe is not None
    todo = {_key(c): c for c in calls if _key(c) not in _CACHE}
    if todo:
        request = [
            {"expr": c.expr, "x64": c.x64, "inputs": {k: _encode(v) for k, v in c.inputs.items()}}
            for c in todo.values()
        ]
        proc = subprocess.run(
            [exe, str(WORKER)], input=json.dumps(request), capture_output=True, text=True,
            timeout=TIMEOUT_S, check=False,
        )  # fmt: skip
        if proc.returncode != 0:
            raise RuntimeError(
                f"the JAX oracle failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
            )
        for key, raw in zip(todo, json.loads(proc.stdout), strict=True):
            if "leaves" in raw:
                _CACHE[key] = Outcome(leaves=tuple(_decode(x) for x in raw["leaves"]))
            else:
                _CACHE[key] = Outcome(error=raw["error"], message=raw["message"])
    return [_CACHE[_key(c)] for c in calls]


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
    """A concretization error's message up to its documentation link (JAX puts a blank line before
    the link, jax_core does not)."""
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
