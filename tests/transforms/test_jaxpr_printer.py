"""The jaxpr text layout, compared with live JAX.

JAX's printer names equation results nothing reads ``_`` (in the printed jaxpr; a ``jit``'s inner
variables take the names of the outer ones, ``_`` included), prints every sub-jaxpr that occurs
more than once or has more than 10 equations once, up front, as ``let name = { ... } in`` (named
by the equation's ``name`` param, else ``jaxpr``, numbered when taken), masks object addresses in
params, and breaks long equations, binder lists and operand lists where its document says.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle.client import Call, assert_same, here, live_fixture, program_call

PROGRAM = """
import numpy as np

def text(f, *args):
    return str(jax.make_jaxpr(f)(*args))

def long(x):
    for _ in range(11):
        x = jnp.sin(x)
    return x

def short(x):
    for _ in range(6):
        x = jnp.cos(x)
    return x

def two(y):
    return jnp.sin(y), jnp.cos(y)

def add_one(*c):
    return tuple(v + 1.0 for v in c)

jit_long = jax.jit(long)
jit_short = jax.jit(short)
"""

CASES: dict[str, str] = {
    # Results nothing reads print as _.
    "sort_one_result": "text(lambda x, y: lax.sort((x, y), num_keys=1)[1], jnp.ones(3), jnp.ones(3))",
    "grad_unused_primal": "text(jax.grad(lambda x: 2.0 * x), 1.0)",
    "jit_first_result": "text(lambda x: jax.jit(two)(x)[0], 1.0)",
    "jit_second_result": "text(lambda x: jax.jit(two)(x)[1], 1.0)",
    "cond_unused_result": "text(lambda p, x: lax.cond(p, two, lambda y: (y, y), x)[1], True, 1.0)",
    "unused_chain": "text(lambda x: (jnp.sin(x), jnp.cos(x))[0], 1.0)",
    # Shared and long sub-jaxprs print once, up front.
    "cond_long_branch": "text(lambda p, x: lax.cond(p, long, short, x), True, 1.0)",
    "cond_same_branch": "text(lambda p, x: lax.cond(p, short, short, x), True, 1.0)",
    "while_long_body": "text(lambda x: lax.while_loop(lambda c: c < 3.0, long, x), 0.0)",
    "jit_long": "text(lambda x: jit_long(x), 0.0)",
    "jit_twice": "text(lambda x: jit_short(jit_short(x)), 0.0)",
    "jit_long_twice": "text(lambda x: jit_long(jit_long(x)), 0.0)",
    "jit_nested": "text(lambda x: jax.jit(lambda y: jit_long(y) + 1.0)(x), 0.0)",
    "top_level_long": "text(long, 0.0)",
    # Line breaking.
    "conv_params": "text(lambda x: lax.conv_general_dilated(x, x, (1, 1), 'SAME'), jnp.ones((1, 1, 4, 4)))",
    "while_many_carries": "text(lambda *c: lax.while_loop(lambda c: c[0] < 10.0, add_one, c), *[1.0] * 8)",
    "many_operands": "text(lambda x: lax.concatenate([x] * 30, 0), jnp.ones(2))",
    "many_outputs": "text(lambda x: [x * i for i in range(30)], 1.0)",
    "many_inputs": "text(lambda *a: sum(a), *[1.0] * 40)",
    "reduce_window_jaxpr_param": "text(lambda x: lax.reduce_window(x, 0.0, lambda a, b: a + 2.0 * b, (1, 2), (1, 1), 'VALID'), jnp.ones((2, 3)))",
}


def _call(case: str) -> Call:
    return program_call(PROGRAM, CASES[case])


CALLS = [_call(c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_as_jax(case: str, live: dict[str, Any]) -> None:
    call = _call(case)
    assert_same(here(call), live[call.expr], case, messages=True)
