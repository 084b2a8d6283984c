"""Single-head attention with a batch dimension, and variadic batch dimensions."""

import math
from typing import reveal_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import Float, Shaped


def attention(
    q: Float[Array, "t d"], k: Float[Array, "s d"], v: Float[Array, "s e"]
) -> Float[Array, "t e"]:
    scores = q @ k.T / math.sqrt(q.shape[-1])
    reveal_type(scores)  # R: Float[t s]
    weights = jax.nn.softmax(scores, axis=-1)
    return weights @ v


def einsum_attention(
    q: Float[Array, "b t d"], k: Float[Array, "b s d"], v: Float[Array, "b s e"]
) -> Float[Array, "b t e"]:
    scores = jnp.einsum("btd,bsd->bts", q, k)
    reveal_type(scores)  # R: Float[b t s]
    return jnp.einsum("bts,bse->bte", jax.nn.softmax(scores, axis=-1), v)


def batched(
    q: Float[Array, "b t d"], k: Float[Array, "b s d"], v: Float[Array, "b s e"]
) -> Float[Array, "b t e"]:
    out = jax.vmap(attention)(q, k, v)
    reveal_type(out)  # R: Float[b t e]
    return out


def layer_norm(x: Float[Array, "*batch d"], scale: Float[Array, " d"]) -> Float[Array, "*batch d"]:
    mean = x.mean(axis=-1, keepdims=True)
    reveal_type(mean)  # R: Float[*batch 1]
    centered = x - mean
    reveal_type(centered)  # R: Float[*batch d]
    return centered * scale


def use(x: Float[Array, "4 16 32"], s: Float[Array, " 32"]) -> None:
    reveal_type(layer_norm(x, s))  # R: Float[4 16 32]


def anything(x: Shaped[Array, "..."]) -> Shaped[Array, "..."]:
    return x
