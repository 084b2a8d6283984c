"""A training step: grad, vmap, jit and lax.scan keep the shapes."""

from typing import reveal_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.typing import Float


def predict(w: Float[Array, "d k"], x: Float[Array, " d"]) -> Float[Array, " k"]:
    return jnp.tanh(x @ w)


def loss(w: Float[Array, "d k"], x: Float[Array, " d"], y: Float[Array, " k"]) -> Float[Array, ""]:
    return jnp.mean((predict(w, x) - y) ** 2)


def update(
    w: Float[Array, "d k"], xs: Float[Array, "batch d"], ys: Float[Array, "batch k"]
) -> Float[Array, "d k"]:
    grads = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
    reveal_type(grads)  # R: Float[batch d k]
    return w - 0.01 * grads.mean(axis=0)


def epoch(
    w: Float[Array, "d k"], xs: Float[Array, "steps batch d"], ys: Float[Array, "steps batch k"]
) -> Float[Array, "d k"]:
    def body(
        w: Float[Array, "d k"], batch: tuple[Float[Array, "batch d"], Float[Array, "batch k"]]
    ) -> tuple[Float[Array, "d k"], Float[Array, ""]]:
        x, y = batch
        new = update(w, x, y)
        return new, jnp.sum(new)

    final, _history = lax.scan(body, w, (xs, ys))
    reveal_type(final)  # R: Float[d k]
    return final


def run(w: Float[Array, "3 2"], xs: Float[Array, "16 3"], ys: Float[Array, "16 2"]) -> None:
    step = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
    reveal_type(step(w, xs, ys))  # R: Float[16 3 2]
    reveal_type(jax.jit(update)(w, xs, ys))  # R: Float[3 2]
    per_example = jax.vmap(predict, in_axes=(None, 0))(w, xs)
    reveal_type(per_example)  # R: Float[16 2]

    def body(
        c: Float[Array, "3 2"], x: Float[Array, " 3"]
    ) -> tuple[Float[Array, "3 2"], Float[Array, " 2"]]:
        return c, predict(c, x)

    _final, outs = lax.scan(body, w, xs)
    reveal_type(outs)  # R: Float[16 2]

    def double(i: int, c: Float[Array, "3 2"]) -> Float[Array, "3 2"]:
        return c * 2.0

    reveal_type(lax.fori_loop(0, 3, double, w))  # R: Float[3 2]


def more(w: Float[Array, "3 2"], x: Float[Array, " 3"], y: Float[Array, " 2"]) -> None:
    value, grads = jax.value_and_grad(loss)(w, x, y)
    reveal_type(value)  # R: Float[]
    reveal_type(grads)  # R: Float[3 2]
    reveal_type(jax.checkpoint(predict)(w, x))  # R: Float[2]
    reveal_type(jax.vmap(predict, in_axes=(None, 0), out_axes=1)(w, x[None]))  # R: Float[2 1]


def settle(w: Float[Array, "3 2"]) -> None:
    def keep_going(c: Float[Array, "3 2"]) -> Array:
        return c.sum() > 1.0

    def halve(c: Float[Array, "3 2"]) -> Float[Array, "3 2"]:
        return c / 2.0

    reveal_type(lax.while_loop(keep_going, halve, w))  # R: Float[3 2]
