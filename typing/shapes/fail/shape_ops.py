"""reshape, concatenate, stack, squeeze, indexing and annotated places."""

import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import Float, Int32


def flatten(x: Float[Array, "4 6"]) -> Float[Array, " 24"]:
    return x.reshape(5, -1)  # S: cannot reshape Float[Array, "4 6"] (size 24) into (5, -1)


def regroup(x: Float[Array, "4 6"]) -> Float[Array, "3 8"]:
    return jnp.reshape(x, (3, 7))  # S: cannot reshape Float[Array, "4 6"] (size 24) into (3, 7)


def join(a: Float[Array, "n d"], b: Float[Array, "m e"]) -> Float[Array, "n+m d"]:
    return jnp.concatenate([a, b], axis=0)  # S: concatenate along axis 0


def join_ok(a: Float[Array, "n d"], b: Float[Array, "m d"]) -> Float[Array, "n+m d"]:
    return jnp.concatenate([a, b], axis=0)


def pair(a: Float[Array, " n"], b: Float[Array, " m"]) -> Float[Array, "2 n"]:
    return jnp.stack([a, b])  # S: all input arrays must have the same shape


def drop(x: Float[Array, "n 3"]) -> Float[Array, " n"]:
    return jnp.squeeze(x, axis=1)  # S: dimension 1 is 3, not 1


def first(x: Float[Array, "n d"]) -> Float[Array, " n"]:
    return x[0]  # S: the return value is Float[Array, "d"]


def too_many(x: Float[Array, "n d"]) -> Float[Array, ""]:
    return x[0, 1, 2]  # S: too many indices


def annotated_local(x: Float[Array, "n d"], w: Float[Array, "d k"]) -> Float[Array, "k n"]:
    h: Float[Array, "k n"] = x @ w  # S: the assigned value is Float[Array, "n k"]
    return h


def counts(x: Int32[Array, " n"]) -> Float[Array, " n"]:
    return x * 2  # S: dtype Int32 is not Float


def zeros_like_bound(x: Float[Array, "n d"]) -> Float[Array, "d n"]:
    n, d = x.shape
    return jnp.zeros((n, d))  # S: the return value is Float[Array, "n d"]


def call_site(x: Float[Array, "8 3"], w: Float[Array, "4 2"]) -> None:
    layer(x, w)  # S: d is 3 (bound earlier in the call) but dimension 0 here is 4


def layer(x: Float[Array, "n d"], w: Float[Array, "d k"]) -> Float[Array, "n k"]:
    return x @ w
