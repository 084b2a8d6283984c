"""Idioms of published JAX code that jax_core's types once rejected (issue 15's false positives).

Each block is written the way library code writes it; all of it is correct and runs. The
principle (docs/typing.md): accept everything JAX's annotations accept unless the runtime
rejects it.
"""

from __future__ import annotations

from typing import Any, NamedTuple, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.typing import ArrayLike, DuckTypedArray


# 1. A parameter annotated ArrayLike is used in arithmetic and passed to NumPy and jnp.
def sgd_update(param: Array, grad: Array, learning_rate: ArrayLike, decay: ArrayLike = 0.0) -> Array:
    return param - learning_rate * (grad + decay * param)


def polynomial_schedule(count: ArrayLike, init: ArrayLike, power: ArrayLike = 2) -> Array:
    frac = 1.0 / (1.0 + count)
    return jnp.asarray(init * frac**power)


def host_mean(scale: ArrayLike) -> float:
    return float(np.asarray(scale).mean() * np.mean(scale))


assert_type(sgd_update(jnp.ones(3), jnp.ones(3), 0.1), Array)
assert_type(polynomial_schedule(np.int32(3), 1e-3), Array)
assert host_mean(np.float32(2.0)) == 4.0


# 2. Shapes made of NumPy integers (sizes read from NumPy arrays or configs).
n_features = np.int32(4)
batch = np.int64(2)
zeros = jnp.zeros((batch, n_features))
ones = jnp.ones(n_features)
assert zeros.shape == (2, 4) and ones.shape == (4,)
full = jnp.full((np.int32(3),), 1.5)
assert full.reshape((np.int64(3), 1)).shape == (3, 1)


# 3. jnp.where with operands the checker sees as Any (read from an untyped dict).
config: dict[str, Any] = {"low": 0.0, "high": 1.0}
chosen = jnp.where(jnp.arange(3) > 0, config["high"], config["low"])
assert_type(chosen, Array)
(nonzero_idx,) = jnp.where(jnp.arange(3) > 0)
assert_type(nonzero_idx, Array)


# 4. jnp.pad with a mode held in a str variable.
def pad_image(image: Array, width: int, mode: str = "reflect") -> Array:
    return jnp.pad(image, ((width, width), (width, width)), mode=mode)


assert pad_image(jnp.ones((3, 3)), 1).shape == (5, 5)


# 5. custom_vjp whose function has a default; fwd and bwd are written without it.
@jax.custom_vjp
def clip_gradient(x: Array, bound: float = 1.0) -> Array:
    return x


def clip_gradient_fwd(x: Array, bound: float) -> tuple[Array, float]:
    return x, bound


def clip_gradient_bwd(bound: float, g: Array) -> tuple[Array, None]:
    return jnp.clip(g, -bound, bound), None


clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
assert_type(clip_gradient(jnp.ones(3)), Array)
def clipped_loss(v: Array) -> Array:
    return jnp.sum(clip_gradient(v * 3.0, 0.5))


clipped = jax.grad(clipped_loss)(jnp.ones(3))
assert float(clipped[0]) == 1.5


# 7. Scatter dimension numbers built from range(...) and lists.
def scatter_rows(operand: Array, rows: Array, updates: Array) -> Array:
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=range(1, operand.ndim),
        inserted_window_dims=[0],
        scatter_dims_to_operand_dims=[0],
    )
    return lax.scatter_add(operand, rows[:, None], updates, dnums)


assert scatter_rows(jnp.zeros((4, 2)), jnp.array([1, 3]), jnp.ones((2, 2))).sum() == 4.0


# 8. A list in_axes (JAX reads a top-level list as a tuple).
class Linear(NamedTuple):
    w: Array
    b: Array


def apply(layer: Linear, x: Array) -> Array:
    return x @ layer.w + layer.b


layer = Linear(jnp.ones((3, 2)), jnp.zeros(2))
batched = jax.vmap(apply, in_axes=[None, 0])(layer, jnp.ones((5, 3)))
assert_type(batched, Array)
assert batched.shape == (5, 2)


# 9. The *_like constructors take anything with shape and dtype (ShapeDtypeStruct).
spec = jax.ShapeDtypeStruct((2, 3), jnp.float32)
assert jnp.zeros_like(spec).shape == (2, 3)
assert jnp.ones_like(spec, dtype=jnp.int32).dtype == jnp.int32
assert_type(jnp.full_like(spec, 2.0), Array)
assert jnp.empty_like(spec, shape=(4,)).shape == (4,)


def zeros_for(template: DuckTypedArray) -> Array:
    return jnp.zeros(tuple(template.shape), template.dtype)


assert_type(zeros_for(spec), Array)
assert zeros_for(np.ones((2, 2), np.int8)).dtype == jnp.int8
assert isinstance(spec, DuckTypedArray)
