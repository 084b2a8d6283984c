"""jit keeps the function's signature: wrong arguments and wrong uses of the result are errors."""

from functools import partial

import jax_core.numpy as jnp
from jax_core import Array, jit


def f(x: Array, n: int) -> Array:
    return x * n


x = jnp.ones(3)
jf = jit(f)

jf(x, "two")  # E: "int"
jf(x)  # E: "n"
jf(x, 2, 3)  # E[mypy]: Too many arguments  # E[pyright]: Expected 2 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
jf(y=x, n=2)  # E: "y"
s: str = jf(x, 2)  # E: "str"
jit(f, static_argnums="n")  # E[mypy,pyright,pyrefly]: static_argnums  # E[ty]: [no-matching-overload]
jit(f, static_argnames=1)  # E[mypy]: No overload variant  # E[pyright]: static_argnames  # E[pyrefly,ty]: [no-matching-overload]
jit(f, inline="yes")  # E[mypy]: No overload variant  # E[pyright]: inline  # E[pyrefly,ty]: [no-matching-overload]
jf.lower(x)  # E: lower
jf.trace(x, 2.5)  # E[mypy,pyright,pyrefly]: float  # E[ty]: [no-matching-overload]
compiled = jf.lower(x, 2).compile()
compiled(x)  # E: "n"
t: int = compiled(x, 2)  # E: "int"


@jit
def g(x: Array) -> Array:
    return x + 1


g(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
u: tuple[Array, Array] = g(x)  # E: tuple


@jit(static_argnames="n")
def h(x: Array, n: int) -> Array:
    return x * n


h(x, n="3")  # E: "int"


# mypy's functools.partial support gives up on jit's overloads, so only pyright sees these.
@partial(jit, static_argnums=1)
def k(x: Array, n: int) -> Array:
    return x * n


k(x, "4")  # E[pyright,ty]: "int"
v: str = k(x, 4)  # E[pyright,ty]: "str"
