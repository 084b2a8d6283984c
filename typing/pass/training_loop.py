"""A small training program using every transformation, fully typed: no checker reports anything."""

from functools import partial

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax

Params = dict[str, Array]
Batch = tuple[Array, Array]


def init(n_in: int, n_out: int) -> Params:
    return {"w": jnp.full((n_in, n_out), 0.1), "b": jnp.zeros(n_out)}


@jax.custom_jvp
def softplus(x: Array) -> Array:
    return jnp.log1p(jnp.exp(x))


@softplus.defjvp
def _softplus_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,) = primals
    (t,) = tangents
    return softplus(x), t / (1.0 + jnp.exp(-x))


@jax.checkpoint
def layer(params: Params, x: Array) -> Array:
    return softplus(x @ params["w"] + params["b"])


def loss(params: Params, batch: Batch) -> tuple[Array, dict[str, Array]]:
    x, y = batch
    pred = layer(params, x)
    err = jnp.mean((pred - y) ** 2)
    return err, {"pred": pred}


@jax.jit
def train_step(params: Params, batch: Batch) -> tuple[Params, Array]:
    (value, aux), grads = jax.value_and_grad(loss, has_aux=True)(params, batch)
    new_params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)  # E[pyrefly]: implicit-any-lambda
    return new_params, value + 0.0 * jnp.sum(aux["pred"])


def example_loss(params: Params, x: Array, y: Array) -> Array:
    return jnp.sum((layer(params, x) - y) ** 2)


@jax.jit
def per_example_grads(params: Params, xs: Array, ys: Array) -> Params:
    return jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, xs, ys)


class Model:
    def __init__(self, params: Params) -> None:
        self.params = params

    def __hash__(self) -> int:
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    @partial(jax.jit, static_argnums=0)
    def predict(self, x: Array) -> Array:
        return layer(self.params, x)


def rnn(h0: Array, xs: Array) -> Array:
    def cell(h: Array, x: Array) -> tuple[Array, Array]:
        h = jnp.tanh(h + x)
        return h, h

    final, _ = lax.scan(cell, h0, xs)
    return lax.cond(jnp.sum(final) > 0, lambda h: h, lambda h: -h, final)


params = init(3, 2)
batch: Batch = (jnp.ones((4, 3)), jnp.zeros((4, 2)))
losses: list[float] = []
for _ in range(3):
    params, value = train_step(params, batch)
    losses.append(float(value))
assert losses[2] < losses[0]

g: Params = per_example_grads(params, batch[0], batch[1])
assert g["w"].shape == (4, 3, 2)
assert Model(params).predict(batch[0]).shape == (4, 2)
h: Array = jax.jit(rnn)(jnp.zeros(3), jnp.ones((5, 3)))
assert h.shape == (3,)
y, y_dot = jax.jvp(softplus, (jnp.ones(3),), (jnp.ones(3),))
out, pullback = jax.vjp(layer, params, batch[0])
d_params, d_x = pullback(jnp.ones((4, 2)))
assert d_params["w"].shape == (3, 2) and d_x.shape == (4, 3) and y_dot.shape == (3,)
jac: Array = jax.jacrev(softplus)(jnp.ones(3))
assert jac.shape == (3, 3)
