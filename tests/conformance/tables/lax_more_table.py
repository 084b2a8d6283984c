"""``lax``: the names added with the rest of JAX 0.12's lax (mulhi, stage, ragged dots, approximate
top-k, dot algorithms as ``precision=``, platform_dependent); the solvers take functions, so they
are tested in ``tests/lax/test_lax_remainder.py``."""

LAX_MORE = """
mulhi(z, z)  -grad
stage(a)
ragged_dot(s[4, 3], s[2, 3, 3], jnp.array([1, 3])|jnp.array([2, 1]))  ~4 -vmap
ragged_dot_general(s[4, 3], s[4, 2], jnp.array([1, 3]), lax.RaggedDotDimensionNumbers((([0], [0]), ([], [])), [0], []))  ~4 -vmap -grad
approx_max_k(x[3, 10], 3|1, reduction_dimension=_|0, aggregate_to_topk=_|False)
approx_min_k(x[3, 10], 2, reduction_dimension=_|-1)
dot(s[3, 4], s[4, 2], precision='F32_F32_F32'|'BF16_BF16_F32_X3'|lax.DotAlgorithmPreset.DEFAULT)
dot_general(s[2, 3], s[3, 2], (([1], [0]), ([], [])), precision='F32_F32_F32'|'F16_F16_F32')
platform_dependent(f, cpu=jnp.sin, default=jnp.cos)  ~
scatter_sub(f[5], jnp.array([[1], [3], [1]]), f[3], lax.ScatterDimensionNumbers((), (0,), (0,)), mode=_|'clip')
dce_sink(a)  -grad
scaled_dot(s[2, 4], s[4, 3], preferred_element_type=_|jnp.float32)  -grad
"""

LAX_MORE_NOT_GENERATED = {
    "DotDimensionNumbers": "a type alias (a tuple of contracting and batch dimensions), not a function",
    "custom_linear_solve": "takes functions (matvec, solve): tests/lax/test_lax_remainder.py",
    "custom_root": "takes functions (f, solve, tangent_solve): tests/lax/test_lax_remainder.py",
    "composite": "takes a function (the decomposition): tests/lax/test_lax_last.py",
    "create_token": "returns a token, not an array: tests/lax/test_lax_last.py",
    "after_all": "takes and returns tokens, not arrays: tests/lax/test_lax_last.py",
    "rng_uniform": "backend-defined random values (bounds, shapes, dtypes): tests/lax/test_lax_last.py",
    "shape_as_value": "takes a shape, not arrays: tests/lax/test_lax_last.py",
}
