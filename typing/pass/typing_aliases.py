"""Annotating user code with jax_core.typing: loose inputs, strict outputs."""

from typing import Any

import numpy as np

import jax_core
import jax_core.numpy as jnp
from jax_core.typing import (
    Array,
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


def init(shape: ShapeLike, dtype: DTypeLike = "float32") -> Array:
    return jnp.zeros(shape, dtype)


def describe(x: SupportsDType) -> str:
    dt: DType = x.dtype
    return dt.name


def batch(x: Array) -> tuple[DimSize, Shape]:
    return x.shape[0], x.shape[1:]


def check_key(key: PRNGKeyArray) -> PRNGKeyArray:
    return key


def cast_all(xs: list[Array], name: DTypeName) -> list[Array]:
    return [x.astype(name) for x in xs]


# ArrayLike: arrays, NumPy arrays and scalars, Python scalars
for value in (jnp.ones(2), np.ones(2), np.float32(1), np.bool_(True), True, 1, 1.0, 1j):
    scale(value)

# DTypeLike: names, codes, scalar types, Python types, dtype objects, SupportsDType
dtype_likes: list[DTypeLike] = [
    "float32", "f4", "bfloat16", "int8", "uint32", "bool", "complex64", "float16", "i2", "u1",
    jnp.float32, jnp.bfloat16, np.int16, float, int, bool, complex, np.dtype("float32"),
    jax_core.ShapeDtypeStruct((2,), jnp.float32),
]
arrays = [init(3, d) for d in dtype_likes]

# A name known only at run time becomes a dtype object first.
from_config = "float16"
arrays.append(init((2, 2), np.dtype(from_config)))

# ShapeLike: an int or a sequence of ints
shapes: list[ShapeLike] = [3, (2, 3), [4], ()]
zeros = [init(s) for s in shapes]

info: tuple[DimSize, Shape] = batch(jnp.ones((4, 2, 3)))
names: list[str] = [describe(a) for a in arrays[:3]] + [describe(np.float32(0))]
key: PRNGKeyArray = check_key(jnp.zeros(2, "uint32"))
casts = cast_all([jnp.ones(2)], "float16")
meta: dict[str, Any] = {"shape": info[1]}

assert names == ["float32", "float32", "bfloat16", "float32"]
assert info == (4, (2, 3)) and zeros[1].shape == (2, 3) and zeros[3].shape == ()
assert arrays[-1].dtype == np.float16 and casts[0].dtype == np.float16
assert key.shape == (2,) and meta["shape"] == (2, 3)


# isinstance with ArrayLike: checks what a parameter typed ArrayLike accepts
def as_array_or_none(v: object) -> Array | None:
    return jnp.asarray(v) if isinstance(v, ArrayLike) else None


assert as_array_or_none(1.5) is not None and as_array_or_none(np.ones(2)) is not None
assert as_array_or_none([1.0]) is None and as_array_or_none("a") is None
