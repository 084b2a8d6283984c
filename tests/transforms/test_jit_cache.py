"""``jit``'s caches are keyed on the function itself (held weakly) and the jit options, shared by
every ``jit(f)`` wrapper, as JAX's are: ``jax.jit(f)(x)`` in a loop traces and compiles once, and
a global that ``f`` read while traced stays baked in for later wrappers (JAX's documented
behaviour for impure functions). The speed is bench row (m)."""

from __future__ import annotations

import functools
import gc
import operator
import weakref
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture


def _counting() -> tuple[list[int], Any]:
    traces: list[int] = []

    def f(x: Any, k: int = 2) -> Any:
        traces.append(1)
        return x * k

    return traces, f


def test_new_wrappers_of_one_function_trace_once() -> None:
    traces, f = _counting()
    x = jnp.ones(3)
    outs = [jax.jit(f)(x) for _ in range(5)]
    assert len(traces) == 1 and all(o.tolist() == [2.0] * 3 for o in outs)
    jax.jit(f)(jnp.ones(4))  # another signature: one more trace
    jax.jit(f)(jnp.ones(4))
    assert len(traces) == 2


def test_options_and_functions_are_part_of_the_key() -> None:
    traces, f = _counting()
    x = jnp.ones(3)
    jax.jit(f)(x)
    jax.jit(f, static_argnums=1)(x, 3)
    jax.jit(f, static_argnames="k")(x, 3)  # names the same parameter: the same options as above
    jax.jit(f, donate_argnums=0)(jnp.ones(3))
    assert len(traces) == 3
    _, g = _counting()
    jax.jit(g)(x)  # another function object, even with the same code
    assert len(traces) == 3


def test_clear_caches_forgets_traces() -> None:
    traces, f = _counting()
    jax.jit(f)(jnp.ones(3))
    jax.clear_caches()
    jax.jit(f)(jnp.ones(3))
    assert len(traces) == 2


def test_callables_that_cannot_be_weakly_referenced_still_work() -> None:
    assert int(jax.jit(operator.add)(1, 2)) == 3
    assert int(jax.jit(functools.partial(operator.mul, 3))(2)) == 6


def test_the_cache_does_not_keep_functions_alive() -> None:
    _, f = _counting()
    jax.jit(f)(jnp.ones(3))
    ref = weakref.ref(f)
    del f
    gc.collect()
    assert ref() is None


LIVE = [
    # A global read at trace time stays baked in for a later jit(f) of the same f.
    Call(
        "(lambda box: (lambda f: (jax.jit(f)(1.0), box.__setitem__(0, 5.0), jax.jit(f)(1.0))[::2])(lambda x: x * box[0]))([1.0])"
    ),
    # A new function object is traced anew and sees the new value.
    Call(
        "(lambda box: (jax.jit(lambda x: x * box[0])(1.0), box.__setitem__(0, 5.0), jax.jit(lambda x: x * box[0])(1.0))[::2])([1.0])"
    ),
]


live = live_fixture([*LIVE, Call("jax.clear_caches()")])


def test_clear_caches_returns_none_as_live_jax(live: dict[str, Outcome]) -> None:
    assert_same(here(Call("jax.clear_caches()")), live["jax.clear_caches()"], "jax.clear_caches()")


@pytest.mark.parametrize("call", LIVE, ids=["same function", "new function"])
def test_impure_function_semantics_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    ours = here(call)
    assert_same(ours, live[call.expr], call.expr)
    assert ours.leaves is not None
    assert [float(np.asarray(a)) for a in ours.leaves] == (
        [1.0, 1.0] if "lambda f" in call.expr else [1.0, 5.0]
    )
