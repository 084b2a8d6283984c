"""jit keeps the wrapped function's signature and return type, in every spelling."""

from collections.abc import Callable
from functools import partial
from typing import Any, assert_type

import jax_core.numpy as jnp
from jax_core import Array, ShapeDtypeStruct, jit


def f(x: Array, n: int) -> Array:
    return x * n


def pair(x: Array) -> tuple[Array, dict[str, Array]]:
    return x, {"twice": 2 * x}


x = jnp.ones(3)

jf = jit(f)
assert_type(jf(x, 2), Array)
assert_type(jit(f, static_argnums=1)(x, 2), Array)
assert_type(jit(f, static_argnames="n")(x, n=2), Array)
assert_type(jit(f, donate_argnums=(0,))(jnp.ones(3), 2), Array)
assert_type(jit(pair)(x), tuple[Array, dict[str, Array]])

as_callable: Callable[[Array, int], Array] = jf


@jit
def g(x: Array) -> Array:
    return jnp.sin(x)


assert_type(g(x), Array)


@jit(static_argnames=("n",))
def h(x: Array, n: int = 2) -> Array:
    return x**n


assert_type(h(x), Array)
assert_type(h(x, n=3), Array)


@partial(jit, static_argnums=1)
def k(x: Array, n: int) -> Array:
    return x * n


# mypy's functools.partial support gives up on jit's overloads: the call is Any there.
assert_type(k(x, 2), Array)  # E[mypy]: Any  # E[pyrefly]: Unknown

# Stages: trace -> lower -> compile, each keeping the signature.
assert_type(jf.lower(x, 2).compile()(x, 2), Array)
assert_type(jf.trace(x, 2).lower().compile()(x, 2), Array)
assert_type(jf.lower(x, 2).as_text(), str)
assert_type(jf.eval_shape(x, 2), ShapeDtypeStruct)
assert_type(jit(pair).eval_shape(x), Any)
