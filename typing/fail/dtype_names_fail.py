"""DTypeLike: misspelt names, non-dtype types and plain ``str`` values are type errors."""

import jax_core.numpy as jnp
from jax_core import lax
from jax_core.typing import DTypeLike, DTypeName

x = jnp.ones(3)

a = jnp.zeros(3, "flaot32")  # E: flaot32
b = jnp.ones(3, dtype="f32")  # E: f32
c = jnp.arange(4, dtype="bf16")  # E: bf16
d = jnp.full(3, 1.0, "Float32")  # E: Float32
e = jnp.zeros(3, str)  # E[mypy,pyright,pyrefly]: type[str]  # E[ty]: [invalid-argument-type]
f = jnp.zeros(3, dtype=[("a", "f4")])  # E: list
g = jnp.zeros(3, dtype=1)  # E: Literal[1]
h = x.astype("float")  # ok: "float" is float64's alias
i = x.astype("floaty")  # E: floaty
j = x.sum(dtype="int")  # ok
k = x.mean(dtype="uint33")  # E: uint33
m = lax.convert_element_type(x, "i3")  # E: i3
n: DTypeName = "float23"  # E: float23
o: DTypeLike = "complex256"  # E: complex256
p = jnp.promote_types("int8", "in16")  # E: in16


def from_config(name: str) -> None:
    jnp.zeros(3, name)  # E: "str"
    jnp.zeros(3, name.lower())  # E: "str"
