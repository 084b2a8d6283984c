"""Array methods, properties and operators are precisely typed."""

import jax_core.numpy as jnp
from jax_core import Array

x = jnp.ones((2, 3))

x.shape = (3, 2)  # E: shape
x.T = x  # E: T
x.dtype = jnp.float32  # E: dtype
x.no_such_method()  # E: no_such_method
a = x.sum(axis="0")  # E[mypy,pyright,pyrefly]: axis  # E[ty]: [invalid-argument-type]
b = x.squeeze(axis=1.5)  # E: float
c: float = x.sum()  # E: "float"
d: str = x[0]  # E: "str"
e: int = x.ndim + x.size  # ok
g: Array = x.item()  # E: Array
h: bool = x > 0  # E: "bool"

# operands must be array-likes; indices are ints, slices, arrays or tuples of them (a list
# index raises TypeError at run time, as in JAX: write x[jnp.array([0, 1])])
x + [1, 2]  # E: list[int]
"a" - x  # E[mypy]: "str"  # E[pyright]: Literal['a']  # E[pyrefly]: [unsupported-operation]  # E[ty]: [unsupported-operator]
x @ None  # E: None
x > "0"  # E[mypy]: "str"  # E[pyright]: Literal['0']  # E[pyrefly]: [unsupported-operation]  # E[ty]: [unsupported-operator]
x["a"]  # E[mypy]: "str"  # E[pyright]: Literal['a']  # E[pyrefly]: [bad-index]  # E[ty]: [invalid-argument-type]
x[[0, 1]]  # E[mypy]: "list[int]"  # E[pyright]: list[int]  # E[pyrefly]: [bad-index]  # E[ty]: [invalid-argument-type]
x[0] = 1.0  # E[mypy]: Unsupported target  # E[pyright]: __setitem__  # E[pyrefly]: [unsupported-operation]  # E[ty]: [invalid-assignment]
x.reshape("6")  # E[mypy,pyright]: "reshape"  # E[pyrefly,ty]: [no-matching-overload]
x.reshape(2.0, 3)  # E[mypy,pyright]: "reshape"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
x.transpose("a")  # E[mypy,pyright]: "transpose"  # E[pyrefly,ty]: [no-matching-overload]
x.swapaxes(0)  # E: "axis2"

# .at[...] updates take array-likes and return arrays
x.at[0].set("a")  # E[mypy]: "str"  # E[pyright]: Literal['a']  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
x.at[0].add([1.0])  # E: list[float]
x.at[0].set(1.0, mode=3)  # E[mypy,pyright,pyrefly]: "mode"  # E[ty]: [invalid-argument-type]
x.at[0].apply(1.0)  # E[mypy,pyright]: "apply"  # E[pyrefly]: [bad-argument-type]  # E[ty]: [invalid-argument-type]
i: int = x.at[0].get()  # E: "int"
x.at[0].update(1.0)  # E: update
for r in x:
    r.no_such_method()  # E: no_such_method
