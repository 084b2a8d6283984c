"""What checkers infer for Array properties, methods and operators."""

from typing import Any, assert_type

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array

x = jnp.arange(6.0).reshape(2, 3)
nx = np.ones((2, 3), np.float32)

# Properties
assert_type(x.shape, tuple[int, ...])
assert_type(x.dtype, np.dtype[Any])
assert_type(x.ndim, int)
assert_type(x.size, int)
assert_type(x.itemsize, int)
assert_type(x.nbytes, int)
assert_type(x.weak_type, bool)
assert_type(x.T, Array)

# Methods
assert_type(x.sum(), Array)
assert_type(x.sum(axis=0, dtype="float32", keepdims=True), Array)
assert_type(x.mean(axis=(0, 1)), Array)
assert_type(x.max(axis=1), Array)
assert_type(x.min(), Array)
assert_type(x.prod(dtype=jnp.float32), Array)
assert_type(x.reshape(3, 2), Array)
assert_type(x.reshape((6,)), Array)
assert_type(x.reshape([3, -1], order="C"), Array)
assert_type(x.reshape(np.int64(6)), Array)
assert_type(x.transpose(1, 0), Array)
assert_type(x.transpose((1, 0)), Array)
assert_type(x.transpose(None), Array)
assert_type(x.mT, Array)
assert_type(x.real, Array)
assert_type(x.imag, Array)
assert_type(x.swapaxes(0, 1), Array)
assert_type(x.any(), Array)
assert_type(x.all(axis=0, keepdims=True), Array)
assert_type(x.argmax(), Array)
assert_type(x.argmin(axis=1, keepdims=True), Array)
assert_type(x.dot(x.T), Array)
assert_type(x.conj(), Array)
assert_type(x.conjugate(), Array)
assert_type(x.sum(axis=(0, 1), where=x > 0, initial=0.0), Array)
assert_type(x.max(initial=-1.0), Array)
assert_type(x.mean(where=x > 1), Array)
assert_type(x.tolist(), Any)
assert_type(x.is_deleted(), bool)
assert_type(x.is_fully_replicated, bool)
assert_type(x.astype("bfloat16"), Array)
assert_type(x.astype(jnp.int32), Array)
assert_type(x.transpose(), Array)
assert_type(x.ravel(), Array)
assert_type(x.flatten(), Array)
assert_type(x.squeeze(), Array)
assert_type(x.copy(), Array)
assert_type(x.block_until_ready(), Array)
assert_type(x[0, 0].item(), bool | int | float | complex)
assert_type(len(x), int)
assert_type(float(x[0, 0]), float)  # E[ty]: float*
assert_type(int(x[0, 0]), int)
assert_type(bool(x[0, 0]), bool)
assert_type(np.asarray(x), np.ndarray[tuple[Any, ...], np.dtype[Any]])

# Indexing and functional updates
assert_type(x[0], Array)
assert_type(x[:, 1:], Array)
assert_type(x[x > 2], Array)
assert_type(x[..., None], Array)
assert_type(x[jnp.array([1, 0])], Array)
assert_type(x[np.int64(1)], Array)
assert_type(x.at[0, 1].set(10.0), Array)
assert_type(x.at[:, 0].add(1.0), Array)
assert_type(x.at[0].subtract(1), Array)
assert_type(x.at[0].multiply(2.0), Array)
assert_type(x.at[0].divide(2.0), Array)
assert_type(x.at[1, 1].min(0.0), Array)
assert_type(x.at[1, 1].max(9.0), Array)
assert_type(x.at[0].get(), Array)
assert_type(x.at[0].get(mode="fill", fill_value=0.0), Array)
assert_type(x.at[0].set(1.0, mode="drop"), Array)
assert_type(x.at[0].apply(jnp.sin), Array)

# Iteration and unpacking give arrays
for row in x:
    assert_type(row, Array)
first, second = x
assert_type(first, Array)
assert_type(list(x), list[Array])

# Operators with arrays, Python scalars and NumPy values, both sides
assert_type(x + x, Array)
assert_type(x + 1, Array)
assert_type(1 + x, Array)
assert_type(2.0 * x, Array)
assert_type(x - 1j, Array)
assert_type(1 - x, Array)
assert_type(x / 2, Array)
assert_type(2 / x, Array)
assert_type(x // 2, Array)
assert_type(x % 2, Array)
assert_type(2 ** x, Array)
assert_type(x ** 2, Array)
assert_type(x @ x.T, Array)
assert_type(-x, Array)
assert_type(abs(x), Array)
assert_type(x > 1, Array)
assert_type(x == x, Array)
assert_type(x != 0, Array)
assert_type((x > 1) & (x < 4), Array)
assert_type(~(x > 1), Array)
assert_type(x + nx, Array)
assert_type(x * np.float32(2), Array)
assert_type(np.float32(2) * x, Array)
# NumPy's own stubs win the reflected operator: checkers say ndarray, the value is an Array.
assert_type(nx + x, Array)  # E: ndarray
