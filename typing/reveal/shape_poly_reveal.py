"""Shape polymorphism: symbolic dimensions are ``DimSize``s, which go wherever shapes take
integers; the specs and queries have JAX's types."""

from typing import Any, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import export
from jax_core.typing import DimSize

b, h = export.symbolic_shape("b, 2*h", constraints=("b >= 2",))
assert_type(export.symbolic_shape("b, 2*h"), tuple[DimSize, ...])
assert_type(b, DimSize)
scope = export.SymbolicScope(["b >= 16"])
assert_type(export.symbolic_shape("b", scope=scope, like=(None,)), tuple[DimSize, ...])
if export.is_symbolic_dim(b):
    assert_type(b + 1, DimSize)
assert_type(export.symbolic_dim_bounds(b), tuple[float, float])

spec = jax.ShapeDtypeStruct((b, h, 3), np.float32)
assert_type(jax.ShapeDtypeStruct(export.symbolic_shape("n, 4"), jnp.int32).shape, tuple[int, ...])
assert_type(export.symbolic_args_specs((np.ones((2, 3)),), "b, _"), Any)


def f(x: jax.Array) -> jax.Array:
    n = x.shape[0]
    return jnp.zeros((n, 2)) + jnp.arange(n)[:, None] + x.reshape((n, -1))[:, :2]


exp = export.export(jax.jit(f))(spec)
assert_type(exp, export.Exported)
assert_type(exp.uses_global_constants, bool)
