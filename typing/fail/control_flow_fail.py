"""Control flow: branches take the operands, carries keep their type, results are checked."""

import jax_core.numpy as jnp
from jax_core import Array, lax

x = jnp.arange(4.0)
p = jnp.array(True)


def pos(v: Array) -> Array:
    return v + 1


def two(v: Array, w: Array) -> Array:
    return v * w


def as_tuple(v: Array) -> tuple[Array, Array]:
    return v, v


def as_str(v: Array) -> str:
    return "not an array"


# cond/switch: the operands must fit the branches
lax.cond(p, pos, pos, "x")  # E[mypy,pyright,ty]: "cond"  # E[pyrefly]: [bad-argument-type]
lax.cond(p, pos, two, x)  # E[mypy,pyright,ty]: "cond"  # E[pyrefly]: [bad-argument-type]
lax.cond(p, pos, pos)  # E[mypy,pyright,ty]: "cond"  # E[pyrefly]: [bad-argument-type]
lax.cond(p, pos, pos, x, x)  # E[mypy,pyright,ty]: "cond"  # E[pyrefly]: [bad-argument-type]
lax.switch(0, [pos, two], x)  # E[mypy,pyright,ty]: "switch"  # E[pyrefly]: [bad-argument-type]
lax.switch(0, pos, x)  # E[mypy,pyright,ty]: "switch"  # E[pyrefly]: [bad-argument-type]
lax.cond("yes", pos, pos, x)  # E[mypy,pyright,ty]: "cond"  # E[pyrefly]: [bad-argument-type]

# a branch mismatch gives a joined result, which is an error where it is used as an Array
y: Array = lax.cond(p, pos, as_tuple, x)  # E[mypy]: "object"  # E[pyright]: tuple[Array, Array]  # E[pyrefly]: [bad-assignment]  # E[ty]: [invalid-assignment]
z: Array = lax.switch(1, [pos, as_str], x)  # E[mypy]: "object"  # E[pyright]: "str"  # E[pyrefly]: [bad-assignment]  # E[ty]: [invalid-assignment]
s: str = lax.cond(p, pos, pos, x)  # E: "str"


# while_loop / fori_loop / scan: the body returns the carry's type
def step_changes_type(c: Array) -> tuple[Array, Array]:
    return c, c


def keep_going(c: Array) -> Array:
    return c < 3


def body_changes_type(i: Array, c: Array) -> tuple[Array, Array]:
    return c, c


lax.while_loop(keep_going, step_changes_type, x)  # E[mypy,pyright,ty]: "while_loop"  # E[pyrefly]: [bad-argument-type]
lax.while_loop(keep_going, pos, (x, x))  # E[mypy,pyright,ty]: "while_loop"  # E[pyrefly]: [bad-argument-type]
lax.fori_loop(0, 3, body_changes_type, x)  # E[mypy,pyright,ty]: "fori_loop"  # E[pyrefly]: [bad-argument-type]
# pyright widens the carry of a lambda body to a union instead of reporting it
lax.fori_loop(0, 3, lambda i, c: (c, c), x)  # E[mypy]: "fori_loop"
lax.fori_loop(0, 3, pos, x)  # E[mypy,pyright,ty]: "fori_loop"  # E[pyrefly]: [bad-argument-type]


def cell(h: Array, xt: Array) -> tuple[Array, Array]:
    return h + xt, h


def cell_changes_carry(h: Array, xt: Array) -> tuple[tuple[Array, Array], Array]:
    return (h, h), h


lax.scan(cell_changes_carry, jnp.zeros(3), jnp.ones((2, 3)))  # E[mypy,pyright,ty]: "scan"  # E[pyrefly]: [bad-argument-type]
lax.scan(cell, "h0", jnp.ones((2, 3)))  # E[mypy,pyright,ty]: "scan"  # E[pyrefly]: [bad-argument-type]
lax.scan(pos, jnp.zeros(3), jnp.ones((2, 3)))  # E[mypy,pyright,ty]: "scan"  # E[pyrefly]: [bad-argument-type]
h, ys, extra = lax.scan(cell, jnp.zeros(3), jnp.ones((2, 3)))  # E[mypy]: 3 expected  # E[pyright]: Expression with type  # E[pyrefly]: [bad-unpacking]  # E[ty]: [invalid-assignment]
