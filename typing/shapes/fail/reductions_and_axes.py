"""Reductions over the wrong axis, and axes out of range."""

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import Float


def row_means(x: Float[Array, "batch features"]) -> Float[Array, " batch"]:
    return x.mean(axis=0)  # S: the return value is Float[Array, "features"]


def column_sums(x: Float[Array, "batch features"]) -> Float[Array, " features"]:
    totals = jnp.sum(x, axis=1)
    return totals  # S: the return value (totals) is Float[Array, "batch"]


def normalize(x: Float[Array, "batch features"]) -> Float[Array, "batch features"]:
    return x - x.mean(axis=0)  # fine: (features,) broadcasts against (batch, features)


def normalize_wrong(x: Float[Array, "batch features"]) -> Float[Array, "batch features"]:
    return x - x.mean(axis=1)  # S: cannot broadcast


def out_of_range(x: Float[Array, "batch features"]) -> Float[Array, ""]:
    return jnp.max(x, axis=2).sum()  # S: axis 2 is out of bounds for an array of rank 2


def probabilities(logits: Float[Array, "batch classes"]) -> Float[Array, "batch classes"]:
    return jax.nn.softmax(logits, axis=2)  # S: axis 2 is out of bounds


def kept(x: Float[Array, "batch features"]) -> Float[Array, " batch"]:
    return x.sum(axis=1, keepdims=True)  # S: the return value is Float[Array, "batch 1"]
