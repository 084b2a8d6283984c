"""Transposed operands of matmul, dot and einsum."""

import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import Float


def project(
    x: Float[Array, "batch d_in"], w: Float[Array, "d_in d_out"]
) -> Float[Array, "batch d_out"]:
    return w @ x  # S: matmul of Float[Array, "d_in d_out"] and Float[Array, "batch d_in"]


def project_t(
    x: Float[Array, "batch d_in"], w: Float[Array, "d_out d_in"]
) -> Float[Array, "batch d_out"]:
    return jnp.matmul(x, w)  # S: d_in != d_out


def project_ok(
    x: Float[Array, "batch d_in"], w: Float[Array, "d_out d_in"]
) -> Float[Array, "batch d_out"]:
    return jnp.matmul(x, w.T)


def scores(q: Float[Array, "t d"], k: Float[Array, "s d"]) -> Float[Array, "t s"]:
    return jnp.einsum("td,ds->ts", q, k)  # S: 'd' is d in operand 0


def scores_ok(q: Float[Array, "t d"], k: Float[Array, "s d"]) -> Float[Array, "t s"]:
    return jnp.einsum("td,sd->ts", q, k)


def inner(a: Float[Array, " n"], b: Float[Array, " m"]) -> Float[Array, ""]:
    return jnp.dot(a, b)  # S: dot of Float[Array, "n"] and Float[Array, "m"]: n != m


def fixed(x: Float[Array, "8 3"], w: Float[Array, "4 2"]) -> Float[Array, "8 2"]:
    return x @ w  # S: 3 != 4
