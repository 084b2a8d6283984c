"""Broadcasting that works at run time only because two sizes happen to be equal."""

import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import Float


def add_bias(
    x: Float[Array, "batch hidden"], b: Float[Array, " batch"]
) -> Float[Array, "batch hidden"]:
    # runs whenever batch == hidden; the annotation says they are different sizes
    return x + b  # S: cannot broadcast Float[Array, "batch hidden"] and Float[Array, "batch"]


def gram(x: Float[Array, "n d"], y: Float[Array, "d n"]) -> Float[Array, "n d"]:
    return x * y  # S: cannot broadcast


def weighted(x: Float[Array, "n d"], w: Float[Array, "n 1"]) -> Float[Array, "n d"]:
    return x * w  # fine: size 1 broadcasts


def symmetrize(x: Float[Array, "n d"]) -> Float[Array, "n d"]:
    return (x + x.T) / 2  # S: cannot broadcast Float[Array, "n d"] and Float[Array, "d n"]


def clipped(x: Float[Array, "n d"], limit: Float[Array, " n"]) -> Float[Array, "n d"]:
    return jnp.minimum(x, limit)  # S: minimum: cannot broadcast
