"""Array methods, properties and operators are precisely typed."""

import jax_core.numpy as jnp
from jax_core import Array

x = jnp.ones((2, 3))

x.shape = (3, 2)  # E: shape
x.T = x  # E: T
x.dtype = jnp.float32  # E: dtype
x.no_such_method()  # E: no_such_method
a = x.sum(axis="0")  # E: axis
b = x.squeeze(axis=1.5)  # E: float
c: float = x.sum()  # E: "float"
d: str = x[0]  # E: "str"
e: int = x.ndim + x.size  # ok
g: Array = x.item()  # E: Array
h: bool = x > 0  # E: "bool"
