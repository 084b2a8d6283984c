"""``jax_core.export``: the types of exporting, serializing, deserializing and calling."""

from collections.abc import Callable
from typing import Any, assert_type

import numpy as np

import jax_core as jax
from jax_core import export
from jax_core.extend.core import ShapedArray
from jax_core.tree_util import PyTreeDef


def f(x: jax.Array) -> jax.Array:
    return x + 1


make = export.export(jax.jit(f))
assert_type(make, Callable[..., export.Exported])
exp = make(jax.ShapeDtypeStruct((2,), np.float32))
assert_type(exp.serialize(), bytearray)
assert_type(export.deserialize(exp.serialize()), export.Exported)
assert_type(exp.in_avals, tuple[ShapedArray, ...])
assert_type(exp.in_tree, PyTreeDef)
assert_type(exp.platforms, tuple[str, ...])
assert_type(exp.module_kept_var_idx, tuple[int, ...])
assert_type(exp.mlir_module_serialized, bytes)
assert_type(exp.uses_global_constants, bool)
assert_type(exp.vjp(), export.Exported)
assert_type(exp.call(np.ones(2, np.float32)), Any)
assert_type(export.DisabledSafetyCheck.platform(), export.DisabledSafetyCheck)
assert_type(export.maximum_supported_calling_convention_version, int)
