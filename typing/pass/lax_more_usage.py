"""The rest of ``jax_core.lax``: solvers, ragged dots, approximate top-k, dot algorithms."""

from typing import assert_type

import numpy as np

import jax_core.numpy as jnp
from jax_core import Array, lax

x = jnp.arange(12.0).reshape(4, 3)
w = jnp.arange(18.0).reshape(2, 3, 3)
gs = jnp.array([1, 3])

assert_type(lax.mulhi(jnp.int32(7), jnp.int32(3)), Array)
assert_type(lax.stage(1.0), Array)
assert_type(lax.ragged_dot(x, w, gs), Array)
dn = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
assert_type(lax.ragged_dot_general(x, w, gs, dn), Array)
assert_type(lax.approx_max_k(x, 2), list[Array])
assert_type(lax.approx_min_k(x, 2, reduction_dimension=0, recall_target=0.9), list[Array])
assert_type(lax.dot(x, x.T, precision=lax.DotAlgorithmPreset.F32_F32_F32), Array)
assert_type(lax.dot(x, x.T, precision="BF16_BF16_F32"), Array)
algorithm = lax.DotAlgorithm(np.float32, np.float32, np.float32)
assert_type(algorithm.num_primitive_operations, int)
precision: lax.PrecisionLike = lax.DotAlgorithmPreset.DEFAULT
tolerance = lax.Tolerance(atol=1e-6)
mode: lax.AccuracyMode = lax.AccuracyMode.HIGHEST
assert_type(lax.platform_dependent(x, cpu=jnp.sin, default=jnp.cos), Array)
A = jnp.array([[2.0, 1.0], [1.0, 3.0]])
solution = lax.custom_linear_solve(lambda v: A @ v, jnp.ones(2), lambda mv, b: b / 2.0, symmetric=True)
root = lax.custom_root(lambda v: v * v - 2.0, 1.0, lambda f, x0: jnp.sqrt(2.0), lambda g, y: y)
assert_type(lax.add_p.name, str)
