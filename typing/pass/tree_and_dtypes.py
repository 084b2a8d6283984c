"""tree_util / jax_core.tree over nested containers and registered classes; jax_core.dtypes."""

from dataclasses import dataclass
from typing import Any

import numpy as np

import jax_core
import jax_core.numpy as jnp
from jax_core import Array, dtypes, jit, tree_util


@tree_util.register_pytree_node_class
class Linear:
    def __init__(self, w: Array, b: Array) -> None:
        self.w = w
        self.b = b

    def tree_flatten(self) -> tuple[tuple[Array, Array], None]:
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux: None, children: tuple[Array, Array]) -> "Linear":
        return cls(*children)

    def __call__(self, x: Array) -> Array:
        return x @ self.w + self.b


@dataclass
class Adam:
    lr: float
    mu: Array


tree_util.register_dataclass(Adam, data_fields=["mu"], meta_fields=["lr"])

layer = Linear(jnp.ones((3, 2)), jnp.zeros(2))
params: dict[str, Any] = {"layer": layer, "opt": Adam(1e-3, jnp.zeros(2)), "step": jnp.array(0)}

leaves, treedef = tree_util.tree_flatten(params)
rebuilt = tree_util.tree_unflatten(treedef, leaves)
doubled = tree_util.tree_map(lambda a: a * 2, params)  # E[pyrefly]: implicit-any-lambda
count: int = tree_util.tree_reduce(lambda acc, leaf: acc + leaf.size, params, 0)
shifted = jax_core.tree.map(lambda a: a + 1, params)  # E[pyrefly]: implicit-any-lambda
names = [tree_util.keystr(path) for path, _ in tree_util.tree_flatten_with_path(params)[0]]


@jit
def apply(model: Linear, x: Array) -> Array:
    return model(x)


out: Array = apply(layer, jnp.ones((4, 3)))

# dtypes
canon: np.dtype[Any] = dtypes.canonicalize_dtype("int64")
is_float: bool = dtypes.issubdtype("bfloat16", np.floating) and dtypes.issubdtype(jnp.float32, np.inexact)
bits: int = dtypes.itemsize_bits("int4")
top: int = dtypes.iinfo("int8").max
eps = dtypes.finfo(jnp.bfloat16).eps
rt = dtypes.result_type(jnp.ones(2, "int8"), 1.0)

assert len(leaves) == 4 and count == 3 * 2 + 2 + 2 + 1
assert isinstance(rebuilt["layer"], Linear) and isinstance(doubled["opt"], Adam)
assert out.shape == (4, 2) and len(names) == 4
assert canon == np.dtype("int32") and is_float and bits == 4 and top == 127
