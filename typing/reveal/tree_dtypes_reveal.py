"""tree_util and dtypes: what is precise and what is (still) Any."""

from typing import Any, assert_type

import numpy as np

import jax_core
import jax_core.numpy as jnp
from jax_core import Array, dtypes, tree_util
from jax_core.tree_util import PyTreeDef


def add_size(total: int, leaf: Array) -> int:
    return total + leaf.size


params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}

leaves, treedef = tree_util.tree_flatten(params)
assert_type(treedef, PyTreeDef)
assert_type(leaves, list[Any])
assert_type(tree_util.tree_unflatten(treedef, leaves), Any)
assert_type(tree_util.tree_map(lambda a: a * 2, params), Any)  # E[pyrefly]: implicit-any-lambda
assert_type(tree_util.tree_structure(params), PyTreeDef)
assert_type(tree_util.tree_leaves(params), list[Any])
assert_type(jax_core.tree.map(lambda a: a + 1, params), Any)  # E[pyrefly]: implicit-any-lambda
assert_type(tree_util.tree_reduce(add_size, params, 0), int)
assert_type(jax_core.block_until_ready(params), dict[str, Array])
assert_type(jax_core.clear_caches(), None)

assert_type(dtypes.canonicalize_dtype("float64"), np.dtype[Any])
assert_type(dtypes.issubdtype("bfloat16", np.floating), bool)
assert_type(dtypes.itemsize_bits("int4"), int)
assert_type(dtypes.iinfo("int8").max, int)
assert_type(dtypes.finfo("bfloat16").eps, Any)
