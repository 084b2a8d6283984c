"""jax_core.numpy creation, math and reductions, with every kind of dtype argument."""

from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array

# Creation: shapes as int, tuple or list; dtypes as names, char codes, scalar types, Python
# types, np.dtype objects and ml_dtypes types.
a = jnp.zeros(3)
b = jnp.ones((2, 3), "float32")
c = jnp.full([2, 2], 7, dtype="int8")
d = jnp.zeros(4, "f4")
e = jnp.ones(4, dtype="bfloat16")
f = jnp.zeros(4, jnp.float16)
g = jnp.ones(4, np.dtype("uint8"))
h = jnp.zeros(4, float)
i = jnp.ones(4, bool)
j = jnp.arange(10)
k = jnp.arange(0, 10, 2, dtype="int32")
m = jnp.array([[1.0, 2.0], [3.0, 4.0]])
n = jnp.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3))
o = jnp.zeros_like(b)
p = jnp.ones_like(b, dtype="complex64")
q = jnp.full_like(a, 2.5)
r = jnp.empty((2,), jnp.bfloat16)
s = jnp.zeros(2, "?")
t = jnp.ones(2, "c8")
u = jnp.zeros(2, jnp.uint32)

# Elementwise math with arrays, Python scalars and NumPy values.
y1 = jnp.sin(a) + jnp.cos(a) * jnp.exp(-a)
y2 = jnp.where(a > 0, a, 0.0)
y3 = jnp.maximum(b, 0.5)
y4 = jnp.add(a, np.float32(1.0))
y5 = jnp.sqrt(jnp.abs(n)) ** 2
y6 = jnp.tanh(np.ones(3))
y7 = jnp.logical_and(a > 0, a < 1)
y8 = jnp.power(2.0, a)

# Reductions and structural functions.
total = jnp.sum(b)
per_row = jnp.sum(b, axis=1, dtype="float32")
avg = jnp.mean(n, axis=(0, 1), keepdims=True)
biggest = jnp.max(n, axis=0)
idx = jnp.argmax(n, axis=1)
prod = jnp.prod(b, dtype=jnp.float32)
stacked = jnp.stack([a, a])
joined = jnp.concatenate([a, a, a])
flat = jnp.reshape(b, (6,))
mat = jnp.matmul(b, jnp.ones((3, 2)))
dot = jnp.dot(a, a)
swapped = jnp.transpose(n)
shape: tuple[int, ...] = jnp.shape(n)
size: int = jnp.size(n)
ndim: int = jnp.ndim(n)
dt: np.dtype[Any] = jnp.promote_types("int8", "bfloat16")
res = jnp.result_type(a, 1.0)


def normalize(x: Array, eps: float = 1e-6) -> Array:
    return (x - jnp.mean(x)) / (jnp.max(jnp.abs(x)) + eps)


assert normalize(jnp.arange(4.0)).shape == (4,)
assert per_row.shape == (2,) and avg.shape == (1, 1)
assert str(e.dtype) == "bfloat16" and f.dtype == np.float16 and c.dtype == np.int8
assert dt == np.dtype("bfloat16")
