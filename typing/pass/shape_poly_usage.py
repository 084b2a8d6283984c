"""Shape-polymorphic export as JAX's documentation writes it: symbolic dimensions flow into
``ShapeDtypeStruct``, ``jnp.zeros``, ``reshape`` and arithmetic without a checker complaint."""

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import export
from jax_core.typing import DimSize


def features(x: jax.Array, w: jax.Array) -> jax.Array:
    batch: DimSize = x.shape[0]
    hidden = jnp.tanh(x @ w)
    return jnp.concatenate([hidden, jnp.zeros((batch, 1), hidden.dtype)], axis=1).reshape((batch, -1))


b, k = export.symbolic_shape("b, k")
specs = (jax.ShapeDtypeStruct((b, k), np.float32), jax.ShapeDtypeStruct((k, 8), np.float32))
exp = export.export(jax.jit(features))(*specs)
blob = exp.serialize()
restored = export.deserialize(blob)
out = restored.call(np.ones((3, 5), np.float32), np.ones((5, 8), np.float32))

both = export.symbolic_args_specs((np.ones((2, 3)), np.ones((3, 4))), ("b, k", "k, 4"))
scoped = export.symbolic_shape("n", scope=export.SymbolicScope(("n >= 2",)))
lo, hi = export.symbolic_dim_bounds(scoped[0])
if export.is_symbolic_dim(scoped[0]):
    doubled = 2 * scoped[0] + 1
