"""vmap over the wrong argument, a scan carry whose shape changes, loop bodies."""

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.typing import Float


def predict(w: Float[Array, "d k"], x: Float[Array, " d"]) -> Float[Array, " k"]:
    return x @ w


def batched(w: Float[Array, "d k"], xs: Float[Array, "batch d"]) -> Float[Array, "batch k"]:
    return jax.vmap(predict, in_axes=(None, 0))(w, xs)


def batched_wrong(w: Float[Array, "d k"], xs: Float[Array, "batch d"]) -> Float[Array, "batch k"]:
    wrong = jax.vmap(predict, in_axes=(0, None))
    return wrong(w, xs)  # S: argument 'x' of "wrong" is Float[Array, "batch d"]


def grow(
    carry: Float[Array, " n"], x: Float[Array, " n"]
) -> tuple[Float[Array, "n 2"], Float[Array, ""]]:
    both = jnp.stack([carry, x], axis=1)
    return both, x.sum()


def running(xs: Float[Array, "t n"], init: Float[Array, " n"]) -> Float[Array, " n"]:
    _final, _ = lax.scan(grow, init, xs)  # S: returns the carry as Float[Array, "n 2"]
    return init


def step(
    carry: Float[Array, " n"], x: Float[Array, " n"]
) -> tuple[Float[Array, " n"], Float[Array, ""]]:
    return carry + x, x.sum()


def running_wrong_xs(xs: Float[Array, "n t"], init: Float[Array, " m"]) -> Float[Array, " m"]:
    final, _ = lax.scan(step, init, xs)  # S: xs (one step) is Float[Array, "t"]
    return final


def double(i: int, c: Float[Array, " n"]) -> Float[Array, "n n"]:
    return jnp.outer(c, c)


def iterate(c0: Float[Array, " n"]) -> Float[Array, " n"]:
    return lax.fori_loop(0, 3, double, c0)  # S: returns the carry as Float[Array, "n n"]


def jitted(x: Float[Array, "8 3"], w: Float[Array, "4 2"]) -> None:
    jax.jit(predict)(w, x[0])  # S: d is 4 (bound earlier in the call) but dimension 0 here is 3


def shrink(c: Float[Array, " n"]) -> Float[Array, ""]:
    return c.sum()


def until_small(c0: Float[Array, " n"]) -> None:
    lax.while_loop(lambda c: True, shrink, c0)  # S: returns the carry as Float[Array, ""]
