"""Snippets compared by what they print: the same source run by real JAX and by jax_core.

A snippet is Python source over ``jax``, ``jnp``, ``lax``, ``np``, ``io_callback``
(``jax.experimental.io_callback``) and ``attempt(fn)`` (calls ``fn()``, waits for its effects
and prints ``ok <value>`` or what it raised, as below). It runs with ``sys.stdout`` captured
(``debug.print`` writes there when its callback runs), then ``effects_barrier`` waits for its
callbacks; an exception becomes one line, ``raised <class>: <message>`` (a ``JaxRuntimeError``'s
message, which holds a traceback with file paths, is shortened to its first and last lines).
Object addresses are masked as ``0xXXXX``. The text is compared exactly, so a snippet must print only what is exact
by construction on every CPU, or what both libraries compute the same way on this one.

Real JAX's side is one oracle batch per test module (``tests/oracle/client.py``: evaluated in a
subprocess of ``.venv-jax`` in the background while the module's tests run); jax_core's side runs
in the test process. Usage::

    CASES = {"grad": snippet("print(jax.grad(f)(2.0))")}
    live = live_fixture(list(CASES.values()))

    def test_grad(live):
        assert_same_output(CASES["grad"], live)
"""

from __future__ import annotations

import dataclasses
import difflib
import textwrap
from collections.abc import Mapping

import pytest

from tests.oracle.client import Call, Outcome, here, program_call

_RUNNER = """
import importlib, io, re, sys
import numpy as np


def _summary(err):
    lines = str(err).strip().splitlines()
    if len(lines) > 1 and "Traceback (most recent call last)" in lines[0]:
        return lines[0] + " ... " + lines[-1]
    return "\\n".join(lines)


def attempt(fn):
    try:
        value = fn()
        jax.effects_barrier()
        print("ok", value)
    except Exception as err:
        jax.effects_barrier()
        print(f"raised {type(err).__name__}: {_summary(err)}")


def run(src):
    names = {
        "jax": jax, "jnp": jnp, "lax": lax, "np": np, "attempt": attempt,
        "io_callback": importlib.import_module(jax.__name__ + ".experimental").io_callback,
    }
    out, saved = io.StringIO(), sys.stdout
    sys.stdout = out
    try:
        try:
            exec(src, names)
        except Exception as err:
            print(f"raised {type(err).__name__}: {_summary(err)}")
        jax.effects_barrier()
    finally:
        sys.stdout = saved
    return re.sub(r"0x[0-9a-fA-F]{6,}", "0xXXXX", out.getvalue())
"""


def snippet(source: str, *, x64: bool = False) -> Call:
    """The oracle call that runs ``source`` (dedented) and evaluates to what it printed, with
    ``jax_enable_x64`` set to ``x64``."""
    return dataclasses.replace(program_call(_RUNNER, f"run({textwrap.dedent(source)!r})"), x64=x64)


def printed(outcome: Outcome, side: str) -> str:
    """The text a snippet printed (failing the test if the runner itself failed)."""
    if outcome.leaves is None:
        pytest.fail(f"the snippet runner failed under {side}: {outcome.describe()}")
    return str(outcome.leaves[0])


def output_here(call: Call) -> str:
    """What the snippet prints under jax_core, in this process."""
    return printed(here(call), "jax_core")


def assert_same_output(call: Call, live: Mapping[str, Outcome]) -> str:
    """Asserts that jax_core prints exactly what real JAX printed; returns the text."""
    ours = output_here(call)
    theirs = printed(live[call.expr], "JAX")
    if ours != theirs:
        diff = "\n".join(
            difflib.unified_diff(
                theirs.splitlines(), ours.splitlines(), "JAX", "jax_core", lineterm=""
            )
        )
        pytest.fail(f"jax_core's output differs from JAX's:\n{diff}")
    return ours
