"""lax control flow and hessian: what all four checkers (mypy, pyright, pyrefly, ty) agree on.

ty does not type a lambda's parameters from a context of TypeVars that another argument solves,
so ``while_loop``/``fori_loop``/``scan``/``associative_scan`` of lambdas are ``Unknown | Array``
there (recorded in typing/checker_differences.md, with why annotations cannot change it).
Named functions are exact in every checker, and so is ``cond`` of lambdas (the operand comes
after them and types them). ``hessian`` is ``Any``: see checker_differences.md.
"""

from typing import Any, assert_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax

x = jnp.ones(3)
p = x[0] > 0


def step(c: Array) -> Array:
    return c + 1.0


def below(c: Array) -> Array:
    return c < 5.0


def body(i: int, c: Array) -> Array:
    return c * 2.0


def cell(c: Array, xt: Array) -> tuple[Array, Array]:
    return c + xt, c


def add(a: Array, b: Array) -> Array:
    return a + b


def scalar(v: Array) -> Array:
    return jnp.sum(v**3)


# cond: the lambdas are typed by the operand, in every checker
assert_type(lax.cond(p, lambda v: v * 2, lambda v: v / 2, x), Array)
assert_type(lax.cond(p, step, step, x), Array)
assert_type(lax.switch(1, [step, step], x), Array)

# loops of named functions
assert_type(lax.while_loop(below, step, jnp.array(0.0)), Array)
assert_type(lax.fori_loop(0, 4, body, jnp.zeros(3)), Array)
assert_type(lax.scan(cell, jnp.zeros(3), jnp.ones((5, 3))), tuple[Array, Array])
assert_type(lax.associative_scan(add, x), Array)

# hessian: the parameter's structure nested in itself, so Any (the parameters are kept)
assert_type(jax.hessian(scalar)(x), Any)
