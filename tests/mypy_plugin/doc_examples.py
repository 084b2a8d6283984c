"""The examples of docs/mypy-plugin.md in one module, type-checked by test_examples.py: every
``error: ...`` line of the page must be in mypy's output on this file (plugin on). Not a test
module itself (no ``test_`` prefix): it holds deliberate errors."""

from collections.abc import Sequence
from functools import partial

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax


def f(x: Array, n: int) -> Array:
    return x * n


def loss(w: Array, x: Array) -> Array:
    return jnp.sum((x @ w) ** 2)


def loss_aux(w: Array, x: Array) -> tuple[Array, Array]:
    return jnp.sum((x @ w) ** 2), x @ w


def loss_n(w: Array, n: int) -> Array:
    return jnp.sum(w) * n


x = jnp.ones(3)

# jax-static
jax.jit(f, static_argnums=2)
jax.jit(f, static_argnames="m")
jax.checkpoint(f, static_argnums=(2,))
jax.pmap(f, static_broadcasted_argnums=2)

# jax-donate
jax.jit(f, donate_argnums=2)
jax.jit(f, static_argnums=1, donate_argnums=1)


# jax-unhashable
@partial(jax.jit, static_argnums=1)
def resize(x: Array, shape: Sequence[int]) -> Array:
    return jnp.zeros(tuple(shape)) + jnp.sum(x)


resize(x, [2, 3])

# jax-argnums, jax-grad-output, jax-has-aux, jax-grad-int
jax.grad(loss, argnums=2)
jax.grad(loss, argnums=(0, 2))
jax.grad(loss_aux)
jax.grad(loss, has_aux=True)
jax.grad(loss_n, argnums=1)

# jax-in-axes
jax.vmap(f, in_axes=(0, None, 0))
jax.vmap(f, in_axes=[0, None, 0])
jax.vmap(f, in_axes=(0, "n"))


# jax-custom-rule
@jax.custom_vjp
def clip(x: Array, bound: Array) -> Array:
    return x


def clip_fwd(x: Array, bound: Array) -> tuple[Array, Array]:
    return x, bound


def clip_bwd(bound: Array, g: Array) -> Array:
    return jnp.clip(g, -bound, bound)


clip.defvjp(clip_fwd, clip_bwd)


def clip_fwd_short(x: Array) -> tuple[Array, Array]:
    return x, x


def clip_bwd_pair(bound: Array, g: Array) -> tuple[Array, Array]:
    return g, bound


clip.defvjp(clip_fwd_short, clip_bwd_pair)


@jax.custom_jvp
def softplus(x: Array) -> Array:
    return jnp.log1p(jnp.exp(x))


@softplus.defjvp
def softplus_jvp(
    primals: tuple[Array, Array], tangents: tuple[Array, Array]
) -> tuple[Array, Array]:
    return softplus(primals[0]), tangents[0]


# jax-branches
def a(v: Array) -> Array:
    return v


def b(v: Array) -> tuple[Array, Array]:
    return v, v


lax.cond(True, a, b, x)
lax.switch(1, [a, a, b], x)
