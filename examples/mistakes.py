"""A small training program with eleven mistakes that real JAX's typing lets through.

Do not run it: it exists to be type-checked. ``make demo`` runs mypy with the jax_core plugin
on it (tools/typecheck_examples.py), and each mistake line ends with ``# plugin: jax-<code>``,
the error code the plugin reports there. With real JAX, ``jit`` and ``grad`` results are ``Any``
and none of these arguments are checked: the mistakes surface at run time, some only when the
faulty line is reached (a tracer error, a ``ValueError`` from ``vmap``, a wrong gradient).
See docs/mypy-plugin.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import partial

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.typing import Float

Params = dict[str, jax.Array]


def init(sizes: tuple[int, ...], seed: int) -> Params:
    """A dense network: ``w0, b0, w1, b1, ...``."""
    rng = np.random.default_rng(seed)
    params: Params = {}
    for i, (m, n) in enumerate(itertools.pairwise(sizes)):
        params[f"w{i}"] = jnp.asarray(rng.standard_normal((m, n), dtype=np.float32) / np.sqrt(m))
        params[f"b{i}"] = jnp.zeros(n)
    return params


def predict(params: Params, x: jax.Array, n_layers: int) -> jax.Array:
    for i in range(n_layers - 1):
        x = jnp.tanh(x @ params[f"w{i}"] + params[f"b{i}"])
    last = n_layers - 1
    return x @ params[f"w{last}"] + params[f"b{last}"]


def project(
    x: Float[jax.Array, "batch d_in"], w: Float[jax.Array, "d_in d_out"]
) -> Float[jax.Array, "batch d_out"]:
    # Mistake: the operands are transposed; (d_in, d_out) @ (batch, d_in) does not contract.
    return w @ x  # plugin: jax-shape


# Mistake: n_layers is parameter 2, not 3.
fast_predict = jax.jit(predict, static_argnums=3)  # plugin: jax-static


# Mistake: params is donated (its buffers are reused for the result) and also static.
@partial(jax.jit, static_argnums=0, donate_argnums=0)  # plugin: jax-donate
def scale_params(params: Params, factor: float) -> Params:
    return {k: v * factor for k, v in params.items()}


@partial(jax.jit, static_argnames="layer_sizes")
def init_like(key_data: jax.Array, layer_sizes: Sequence[int]) -> jax.Array:
    return jnp.zeros(sum(layer_sizes)) + key_data


def loss(params: Params, x: jax.Array, y: jax.Array) -> tuple[jax.Array, jax.Array]:
    """The loss and the predictions (an auxiliary output, for logging)."""
    pred = predict(params, x, 2)
    return jnp.mean((pred - y) ** 2), pred


def l2(params: Params, weight: float) -> jax.Array:
    return weight * jnp.sum(jnp.stack([jnp.sum(v**2) for v in params.values()]))


def scaled_loss(params: Params, x: jax.Array, steps: int) -> jax.Array:
    return jnp.mean(predict(params, x, 2)) / steps


def sharpen(x: jax.Array) -> jax.Array:
    return jnp.where(x > 0, x, 0.1 * x)


@jax.custom_vjp
def clip_gradient(x: jax.Array, bound: jax.Array) -> jax.Array:
    return x


def clip_fwd(x: jax.Array, bound: jax.Array) -> tuple[jax.Array, jax.Array]:
    return x, bound


def clip_bwd(bound: jax.Array, g: jax.Array) -> jax.Array:
    return jnp.clip(g, -bound, bound)


# Mistake: bwd returns one cotangent per differentiable parameter, as a tuple: (g, zeros).
clip_gradient.defvjp(clip_fwd, clip_bwd)  # plugin: jax-custom-rule


def activation(use_sharpen: jax.Array, x: jax.Array) -> jax.Array:
    # Mistake: both branches must return the same structure; the second returns a pair.
    return jax.lax.cond(use_sharpen, sharpen, lambda v: (v, v), x)  # plugin: jax-branches


def train(x: jax.Array, y: jax.Array) -> None:
    params = init((1, 16, 1), seed=0)
    sizes = [1, 16, 1]
    # Mistake: a static argument must be hashable; a list is not (a tuple is).
    init_like(jnp.zeros(()), sizes)  # plugin: jax-unhashable

    # Mistake: loss returns (value, predictions) and needs has_aux=True.
    grads = jax.grad(loss)(params, x, y)  # plugin: jax-grad-output
    # Mistake: l2 returns a single array; has_aux=True expects (value, aux).
    reg_grads, _ = jax.grad(l2, has_aux=True)(params, 1e-4)  # plugin: jax-has-aux
    # Mistake: the weight is parameter 1, there is no parameter 2.
    dweight = jax.grad(l2, argnums=2)(params, 1e-4)  # plugin: jax-argnums
    # Mistake: steps is an int: its gradient is float0 unless allow_int=True (and meaningless).
    dsteps = jax.grad(scaled_loss, argnums=2)(params, x, 10)  # plugin: jax-grad-int

    # Mistake: per-example predictions: in_axes has one entry per parameter (3, not 2).
    batched = jax.vmap(predict, in_axes=(None, 0))  # plugin: jax-in-axes

    print(grads, reg_grads, dweight, dsteps, batched, fast_predict, scale_params)
    print(activation(jnp.asarray(True), x), clip_gradient(x, jnp.asarray(1.0)))


if __name__ == "__main__":
    raise SystemExit("examples/mistakes.py is for the type checkers: see its docstring")
