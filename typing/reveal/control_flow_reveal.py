"""lax.cond, switch, while_loop, fori_loop, scan, map and associative_scan keep types."""

from typing import assert_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax

State = tuple[Array, Array]
x = jnp.arange(4.0)
p = jnp.array(True)


def pos(v: Array) -> Array:
    return v + 1


def neg(v: Array) -> Array:
    return v - 1


def first_of_four(a: Array, b: Array, c: Array, d: Array) -> Array:
    return a


def last_of_four(a: Array, b: Array, c: Array, d: Array) -> Array:
    return d


def pair(v: Array, w: Array) -> tuple[Array, Array]:
    return v + w, v - w


def pair_swapped(v: Array, w: Array) -> tuple[Array, Array]:
    return w - v, w + v


# cond: the branches take the operands; the result is their common return type
assert_type(lax.cond(p, pos, neg, x), Array)
assert_type(lax.cond(x[0] > 0, pos, neg, x), Array)
assert_type(lax.cond(True, pair, pair_swapped, x, x), tuple[Array, Array])
assert_type(lax.cond(p, lambda: x, lambda: -x), Array)
assert_type(lax.cond(p, lambda v: v * 2, lambda v: v / 2, x), Array)  # lambdas typed by the operand
assert_type(lax.cond(p, pos, neg, operand=x), Array)
assert_type(lax.cond(p, lambda a, b, c: a, lambda a, b, c: b, x, x, x), Array)
assert_type(lax.cond(p, first_of_four, last_of_four, x, x, x, x), Array)  # more operands: not checked

# switch: a sequence of branches
assert_type(lax.switch(2, [pos, neg, jnp.sin], x), Array)
assert_type(lax.switch(jnp.array(1), (pair, pair_swapped), x, x), tuple[Array, Array])
assert_type(lax.switch(0, [lambda: x, lambda: x * 2]), Array)


# while_loop / fori_loop: the carry keeps its type
def keep_going(s: State) -> Array:
    return s[0] < 10


def step(s: State) -> State:
    return s[0] + 1, s[1] * 2


assert_type(lax.while_loop(keep_going, step, (jnp.array(0), jnp.ones(3))), State)
assert_type(lax.while_loop(lambda c: c < 5.0, lambda c: c + 1.0, jnp.array(0.0)), Array)  # E[ty]: Unknown | Array
assert_type(lax.fori_loop(0, 4, lambda i, c: c * 2.0, jnp.zeros(3)), Array)  # E[ty]: Unknown | Array
assert_type(lax.fori_loop(0, 3, lambda i, s: (s[0] + 1, s[1]), (jnp.array(0), x)), tuple[Array, Array])  # E[ty]: tuple[Unknown, Unknown]


# scan: (final carry, stacked outputs)
def rnn_cell(h: Array, xt: Array) -> tuple[Array, Array]:
    h = jnp.tanh(h + xt)
    return h, h * 2


def cumsum_cell(c: Array, xt: Array) -> tuple[Array, dict[str, Array]]:
    return c + xt, {"sum": c + xt}


assert_type(lax.scan(rnn_cell, jnp.zeros(3), jnp.ones((5, 3))), tuple[Array, Array])
assert_type(lax.scan(cumsum_cell, jnp.array(0.0), x, reverse=True), tuple[Array, dict[str, Array]])
assert_type(lax.scan(lambda c, _: (c + 1, c), jnp.array(0), None, length=4), tuple[Array, Array])  # E[pyrefly]: implicit-any-lambda  # E[ty]: Unknown | Array
final, ys = lax.scan(rnn_cell, jnp.zeros(3), jnp.ones((5, 3)))
assert_type(final, Array)

# map and associative_scan
assert_type(lax.map(jnp.sin, x), Array)
assert_type(lax.map(lambda r: {"n": jnp.sum(r)}, jnp.ones((2, 3))), dict[str, Array])
assert_type(lax.associative_scan(jnp.add, x), Array)
assert_type(lax.associative_scan(lambda a, b: a * b, x), Array)  # E[ty]: Unknown | Array

# under jit and grad
@jax.jit
def branchy(v: Array) -> Array:
    return lax.cond(v[0] > 0, pos, neg, v)


assert_type(branchy(x), Array)


@jax.jit
def loop_sum(v: Array) -> Array:
    return lax.fori_loop(0, v.shape[0], lambda i, acc: acc + v[i], jnp.array(0.0))


assert_type(loop_sum(x), Array)


def scan_loss(h0: Array) -> Array:
    return jnp.sum(lax.scan(rnn_cell, h0, jnp.ones((2, 3)))[0])


assert_type(jax.grad(scan_loss)(jnp.zeros(3)), Array)
