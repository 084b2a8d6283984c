"""An annotated MLP: every shape checks, and reveal_type shows them."""

from typing import reveal_type

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import Float


def dense(
    x: Float[Array, "batch d_in"], w: Float[Array, "d_in d_out"], b: Float[Array, " d_out"]
) -> Float[Array, "batch d_out"]:
    return x @ w + b


def mlp(
    x: Float[Array, "batch 784"],
    w1: Float[Array, "784 hidden"],
    b1: Float[Array, " hidden"],
    w2: Float[Array, "hidden 10"],
    b2: Float[Array, " 10"],
) -> Float[Array, "batch 10"]:
    h = jax.nn.relu(dense(x, w1, b1))
    reveal_type(h)  # R: Float[batch hidden]
    logits = dense(h, w2, b2)
    reveal_type(logits)  # R: Float[batch 10]
    return jax.nn.log_softmax(logits, axis=-1)


def run(
    x: Float[Array, "32 784"],
    w1: Float[Array, "784 128"],
    b1: Float[Array, " 128"],
    w2: Float[Array, "128 10"],
    b2: Float[Array, " 10"],
) -> None:
    out = mlp(x, w1, b1, w2, b2)
    reveal_type(out)  # R: Float[32 10]
    fast = jax.jit(mlp)
    reveal_type(fast(x, w1, b1, w2, b2))  # R: Float[32 10]
    n, features = x.shape
    mask = jnp.ones((n, features))
    reveal_type(mask)  # R: Float[32 784]
    reveal_type(x[:, :10])  # R: Float[32 _]
    reveal_type(x[0])  # R: Float[784]
    reveal_type(x[None, ..., 0])  # R: Float[1 32]
    reveal_type(x.T)  # R: Float[784 32]
    reveal_type(jnp.transpose(x))  # R: Float[784 32]
    reveal_type(x.reshape(32, 28, 28))  # R: Float[32 28 28]
    reveal_type(x.reshape(-1, 28))  # R: Float[896 28]
    reveal_type(jnp.expand_dims(x, 0))  # R: Float[1 32 784]
    reveal_type(jnp.concatenate([x, x], axis=0))  # R: Float[64 784]
    reveal_type(jnp.stack([b2, b2], axis=1))  # R: Float[10 2]
    reveal_type(jnp.where(x > 0, x, 0.0))  # R: Float[32 784]
    reveal_type(x > 0)  # R: Bool[32 784]
    reveal_type(jnp.argmax(out, axis=-1))  # R: Int[32]
    reveal_type(out.sum())  # R: Float[]
    reveal_type(jnp.swapaxes(x, 0, 1))  # R: Float[784 32]
    reveal_type(jnp.moveaxis(x[None], 0, 2))  # R: Float[32 784 1]
