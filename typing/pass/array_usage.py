"""Array methods, properties, indexing, `.at[...]` updates and operators on both sides."""

from typing import Any, cast

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array

x = jnp.arange(6.0).reshape(2, 3)
nx = np.full((2, 3), 2.0, np.float32)

rows, cols = x.shape
n: int = x.ndim + x.size + x.itemsize + x.nbytes
total = x.sum() + x.mean(axis=0).sum() + x.max() - x.min()
flat = x.ravel() + x.flatten() + x.ravel(order="F") + x.reshape(3, 2, order="F").ravel()
moved = x.T.reshape(6).astype("float16").astype(jnp.float32)
picked = x[0, 1:] + x[:, 0].sum() + x[x > 2].sum()
value: float = float(x[1, 2])
as_int: int = int(x[0, 1])
scalar = x[0, 0].item()
listed = x.tolist()
host: np.ndarray[Any, Any] = np.asarray(x)

# functional updates
x2 = x.at[0, 0].set(10.0)
x3 = x.at[:, 1].add(1.0)
x4 = x.at[1].multiply(2.0)

# operators: array-array, array-scalar, scalar-array, array-numpy, numpy-scalar
ops: list[Array] = [
    x + x, x - 1, 1 - x, 2.0 * x, x * 2, x / 2, 2 / x, x // 2, 7 // (x + 1), x % 2,
    x**2, 2**x, -x, +x, abs(x), x @ x.T, x + nx, x * np.float32(3), np.float32(3) * x,
    x > 1, 1 < x, x == 2, x != 2, (x > 1) & (x < 4), (x > 1) | (x < 0), ~(x > 1),
]
from_numpy = nx + x  # NumPy's operator runs first and defers to the Array (typed as ndarray)


def weighted(a: Array, w: float | Array) -> Array:
    return (a * w).sum(axis=-1, keepdims=True) / 2


assert isinstance(cast(object, x[0]), Array)
assert (rows, cols) == (2, 3) and weighted(x, 0.5).shape == (2, 1)
assert float(x2[0, 0]) == 10.0 and float(x3[0, 1]) == 2.0 and float(x4[1, 0]) == 6.0
assert isinstance(cast(object, from_numpy), Array) and len(ops) == 26
assert listed == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and scalar == 0.0
assert value == 5.0 and as_int == 1 and host.shape == (2, 3) and moved.dtype == np.float32
