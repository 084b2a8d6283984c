"""Every way to spell jit: decorator, call, decorator factory, partial, closures, stages."""

from collections.abc import Callable
from functools import partial

import numpy as np

import jax_core
import jax_core.numpy as jnp
from jax_core import Array, jit


def affine(x: Array, w: Array, b: Array) -> Array:
    return x @ w + b


fast_affine = jit(affine)
x = jnp.ones((4, 3))
w = jnp.ones((3, 2))
b = jnp.zeros(2)
y: Array = fast_affine(x, w, b)
# Known gap (stricter than the runtime): jit converts array-likes, but the checkers hold the
# call to affine's annotations.
y_np = fast_affine(np.ones((4, 3), np.float32), w, b)  # E[mypy,pyright,pyrefly]: ndarray  # E[ty]: _Array[


@jit
def loss(w: Array, x: Array) -> Array:
    return jnp.mean((x @ w) ** 2)


l: Array = loss(w, x)


def power(x: Array, n: int) -> Array:
    return x**n


cube = jit(power, static_argnames="n")
c: Array = cube(x, n=3)
square = jit(power, static_argnums=1)
s: Array = square(x, 2)


@jit(static_argnames=("mode",))
def reduce(x: Array, mode: str = "sum") -> Array:
    return jnp.sum(x) if mode == "sum" else jnp.max(x)


r1: Array = reduce(x)
r2: Array = reduce(x, mode="max")


@partial(jit, static_argnums=1)
def tile(x: Array, n: int) -> Array:
    return jnp.concatenate([x] * n)


t: Array = tile(b, 3)


def make_scaler(factor: float) -> Callable[[Array], Array]:
    @jit
    def scaler(x: Array) -> Array:
        return x * factor

    return scaler


doubled: Array = make_scaler(2.0)(x)


# pytrees in and out
@jit
def stats(batch: dict[str, Array]) -> tuple[Array, Array]:
    return jnp.mean(batch["x"]), jnp.max(batch["x"])


mean, biggest = stats({"x": x})

# stages
lowered = fast_affine.lower(x, w, b)
text: str = lowered.as_text()
compiled = lowered.compile()
y2: Array = compiled(x, w, b)
traced = loss.trace(w, x)
y3: Array = traced.lower().compile()(w, x)
jaxpr = jax_core.make_jaxpr(affine)(x, w, b)

# accepted where a plain callable is expected
apply: Callable[[Array, Array, Array], Array] = fast_affine

assert y.shape == (4, 2) and c.shape == (4, 3) and t.shape == (6,)
assert float(r2) == 1.0 and float(mean) == 1.0 and float(biggest) == 1.0
assert "stablehlo" in text or "mhlo" in text or "func" in text
assert bool(jnp.all(y2 == y)) and bool(jnp.all(y3 == l))
assert "dot_general" in str(jaxpr)
