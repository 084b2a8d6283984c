"""Annotations written with jaxtyping's own names are checked the same way."""

from typing import reveal_type

import jaxtyping as jt
from jaxtyping import Float, Int

import jax_core.numpy as jnp
from jax_core import Array


def scale(x: jt.Float[Array, "b n"], w: Float[Array, "n m"]) -> jt.Float[Array, "b m"]:
    out = x @ w
    reveal_type(out)  # R: Float[b m]
    return out


def count(labels: Int[Array, " b"], x: Float[Array, "b n"]) -> Float[Array, " n"]:
    weights = (labels > 0).astype(jnp.float32)
    return weights @ x


def use(x: Float[Array, "4 3"], w: Float[Array, "3 2"]) -> None:
    reveal_type(scale(x, w))  # R: Float[4 2]
