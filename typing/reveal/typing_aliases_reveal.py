"""jax_core.typing aliases: what an annotated user function exposes to its callers."""

from typing import Any, assert_type

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array
from jax_core.typing import (
    ArrayLike,
    DimSize,
    DType,
    DTypeLike,
    DTypeName,
    PRNGKeyArray,
    Shape,
    ShapeLike,
    SupportsDType,
)


def scale(x: ArrayLike, factor: float = 2.0, dtype: DTypeLike | None = None) -> Array:
    return jnp.asarray(x, dtype) * factor


def leading(x: Array) -> DimSize:
    return x.shape[0]


def dtype_of(x: SupportsDType) -> DType:
    return x.dtype


def new_shape(shape: ShapeLike) -> Shape:
    return jnp.zeros(shape).shape


def split_key(key: PRNGKeyArray) -> PRNGKeyArray:
    return key


name: DTypeName = "bfloat16"
key = jnp.zeros(2, "uint32")

assert_type(scale(1.0), Array)
assert_type(scale(np.ones(3), dtype=name), Array)
assert_type(leading(jnp.ones((4, 2))), DimSize)
assert_type(dtype_of(jnp.ones(2)), np.dtype[Any])
assert_type(new_shape([2, 3]), tuple[int, ...])
assert_type(split_key(key), Array)
assert_type(split_key(key), PRNGKeyArray)


def pick(n: DTypeName) -> DTypeName:
    assert_type(n, DTypeName)
    return n


assert_type(pick("f4"), DTypeName)
