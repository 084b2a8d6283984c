"""The rest of ``jax.lax`` compared with live JAX 0.12: the ``*_p`` objects under JAX's names, dot
algorithms as ``precision=``, ``custom_linear_solve``/``custom_root``, ragged dots, approximate
top-k, ``platform_dependent``, ``mulhi``, ``stage`` and the total-order comparisons."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

COVERED: frozenset[str] = frozenset(
    {"mulhi", "eq_to", "le_to", "lt_to", "stage", "custom_linear_solve", "custom_root",
     "approx_top_k", "platform_index"}
)

X = "jnp.arange(12.0).reshape(4, 3)"
W = "jnp.arange(18.0).reshape(2, 3, 3)"
R = "jnp.array(np.random.RandomState(0).randn(3, 10).astype(np.float32))"
EXPRS = [
    # primitive objects under JAX's names
    "[p.name for p in (lax.add_p, lax.scatter_add_p, lax.and_p, lax.linear_solve_p, lax.mulhi_p, "
    "lax.stage_p, lax.eq_to_p, lax.approx_top_k_p, lax.reduce_window_sum_p, lax.sort_p)]",
    "lax.add_p.bind(jnp.float32(1), jnp.float32(2))",
    # mulhi
    "lax.mulhi(jnp.int32(7), jnp.int32(2**30))",
    "lax.mulhi(jnp.uint8(200), jnp.uint8(200))",
    "lax.mulhi(jnp.array([-5, 7], jnp.int16), jnp.array([30000, -30000], jnp.int16))",
    "lax.mulhi(1.0, 2.0)",
    # stage
    "lax.stage(1.0)",
    "lax.stage(np.arange(3))",
    "str(jax.make_jaxpr(lambda: lax.stage(1.0))())",
    "str(jax.make_jaxpr(lambda x: lax.stage(x) * 2)(1.0))",
    "jax.grad(lambda x: lax.stage(x) * 2.0)(1.0)",
    "jax.vmap(lax.stage)(jnp.arange(3.0))",
    # total-order comparisons
    "lax.lt_to_p.bind(jnp.float32(-0.0), jnp.float32(0.0))",
    "lax.eq_to_p.bind(jnp.float32(np.nan), jnp.float32(np.nan))",
    "lax.le_to_p.bind(jnp.array([1, 2, 3]), jnp.array([2, 2, 2]))",
    # dot algorithms
    f"lax.dot({X}, {X}.T, precision='F32_F32_F32')",
    f"lax.dot({X}, {X}.T, precision=lax.DotAlgorithmPreset.BF16_BF16_F32_X3)",
    f"lax.dot({X}, {X}.T, precision=lax.DotAlgorithmPreset.DEFAULT)",
    f"lax.dot({X}, {X}.T, precision='BF16_BF16_F32')",
    f"lax.dot({X}, {X}.T, precision='F16_F16_F32')",
    f"lax.dot({X}, {X}.T, precision=lax.DotAlgorithm(np.float32, np.float32, np.float32))",
    f"lax.dot({X}, {X}.T, precision='bogus')",
    "[l.strip() for l in jax.jit(lambda a: lax.dot(a, a.T, precision='F32_F32_F32'))"
    f".lower({X}).as_text().splitlines() if 'dot_general' in l]",
    f"str(jax.make_jaxpr(lambda a: lax.dot(a, a.T, precision='BF16_BF16_F32'))({X}))",
    f"jax.grad(lambda a: lax.dot(a, a.T, precision='F32_F32_F32').sum())({X})",
    "str(lax.DotAlgorithmPreset.F16_F16_F32)",
    "repr(lax.DotAlgorithmPreset.F16_F16_F32)",
    "[np.dtype(t).name for t in lax.DotAlgorithmPreset.BF16_BF16_F32.supported_output_types("
    "jnp.bfloat16, jnp.bfloat16)]",
    "lax.Tolerance(atol=-1.0)",
    "lax.Tolerance()",
    "lax.AccuracyMode.HIGHEST.value",
    # ragged dot
    f"lax.ragged_dot({X}, {W}, jnp.array([1, 3]))",
    f"lax.ragged_dot({X}, {W}, jnp.array([2, 1]))",
    f"jax.grad(lambda x: lax.ragged_dot(x, {W}, jnp.array([1, 3])).sum())({X})",
    f"jax.grad(lambda w: lax.ragged_dot({X}, w, jnp.array([1, 3])).sum())({W})",
    f"jax.jit(lax.ragged_dot)({X}, {W}, jnp.array([1, 3]))",
    f"lax.ragged_dot_general({X}, jnp.arange(8.0).reshape(4, 2), jnp.array([1, 3]), "
    "lax.RaggedDotDimensionNumbers((([0], [0]), ([], [])), [0], []))",
    f"lax.ragged_dot_general({X}, {W}, jnp.array([1, 3]), "
    "lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0, 1], [0]))",
    f"lax.ragged_dot_general({X}, {W}, jnp.array([1, 3]), "
    "lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], []))",
    f"lax.ragged_dot({X}, {W}, jnp.array(3))",
    "repr(lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0]))",
    # approx top-k (exact on CPU)
    f"lax.approx_max_k({R}, 3)",
    f"lax.approx_min_k({R}, 2, reduction_dimension=0)",
    f"jax.jit(lambda x: lax.approx_max_k(x, 3, aggregate_to_topk=False))({R})",
    f"jax.grad(lambda x: lax.approx_max_k(x, 2)[0].sum())({R})",
    f"jax.vmap(lambda x: lax.approx_max_k(x, 2))({R})",
    "lax.approx_max_k(jnp.arange(4), 2)",
    f"lax.approx_max_k({R}, 11)",
    f"lax.approx_max_k({R}, 0)",
    # platform_dependent
    "lax.platform_dependent(1.0, cpu=jnp.sin, default=jnp.cos)",
    "jax.jit(lambda x: lax.platform_dependent(x, tpu=jnp.sin, default=jnp.cos))(1.0)",
    "jax.grad(lambda x: lax.platform_dependent(x, cpu=jnp.sin))(1.0)",
    "lax.platform_dependent(1.0, gpu=jnp.sin)",
    "lax.platform_dependent(1.0, cpu=3)",
    "lax.platform_dependent(1.0, tpu=jnp.sin)",
]

SOLVES = """
A = jnp.array([[2.0, 1.0], [1.0, 3.0]])
def mv(x):
    return A @ x
def solve(m, b):
    return jnp.linalg.solve(A, b)
def sym(b):
    return lax.custom_linear_solve(mv, b, solve, symmetric=True)
def tr(b):
    return lax.custom_linear_solve(mv, b, solve, transpose_solve=lambda vm, c: jnp.linalg.solve(A.T, c))
def scaled(a):
    return lax.custom_linear_solve(lambda x: a * x, jnp.ones(2), lambda m, b: b / a, symmetric=True)
def sqrt_cr(a):
    return lax.custom_root(lambda x: x**2 - a, 1.0, lambda f, x0: jnp.sqrt(a), lambda g, y: y / g(1.0))
def aux_cr(a):
    return lax.custom_root(lambda x: x**2 - a, 1.0, lambda f, x0: (jnp.sqrt(a), 7), lambda g, y: y / g(1.0), has_aux=True)
"""
SOLVE_CASES = [
    "sym(jnp.ones(2))",
    "jax.jacobian(sym)(jnp.ones(2))",
    "jax.vmap(sym)(jnp.arange(6.0).reshape(3, 2))",
    "jax.jit(sym)(jnp.ones(2))",
    "jax.grad(lambda b: tr(b).sum())(jnp.ones(2))",
    "jax.grad(lambda a: scaled(a).sum())(2.0)",
    "jax.jvp(scaled, (2.0,), (1.0,))",
    "jax.vmap(scaled)(jnp.arange(1.0, 4.0))",
    "sqrt_cr(2.0)",
    "jax.grad(sqrt_cr)(2.0)",
    "jax.vmap(sqrt_cr)(jnp.arange(1.0, 4.0))",
    "jax.jit(jax.grad(sqrt_cr))(2.0)",
    "jax.vmap(jax.grad(sqrt_cr))(jnp.arange(1.0, 4.0))",
    "aux_cr(4.0)",
    "jax.grad(lambda a: aux_cr(a)[0])(4.0)",
    "lax.custom_linear_solve(mv, jnp.ones(2), lambda m, b: (b, b))",
    "lax.custom_linear_solve(mv, jnp.ones(2), lambda m, b: b[:1])",
    "jax.grad(lambda b: lax.custom_linear_solve(mv, b, solve).sum())(jnp.ones(2))",
    "lax.custom_root(lambda x: (x, x), 1.0, lambda f, x0: x0, lambda g, y: y)",
]

CALLS = [Call(e) for e in EXPRS] + [program_call(SOLVES, c) for c in SOLVE_CASES]
IDS = EXPRS + [f"solves: {c}" for c in SOLVE_CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=live[call.expr].error is not None)


def test_every_jax_primitive_name_matches() -> None:
    names = [n for n in dir(lax) if n.endswith("_p")]
    assert len(names) > 130
    for n in names:
        prim = getattr(lax, n)
        expected = {"scatter_add_p": "scatter-add", "scatter_mul_p": "scatter-mul",
                    "scatter_min_p": "scatter-min", "scatter_max_p": "scatter-max", "scatter_sub_p": "scatter-sub",
                    "linear_solve_p": "custom_linear_solve"}.get(n, n[:-2])
        assert prim.name == expected, n


def test_custom_linear_solve_matches_numpy() -> None:
    a = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], np.float32)
    b = np.array([1.0, 2.0, 3.0], np.float32)
    A = jnp.asarray(a)

    def f(b: jax.Array) -> jax.Array:
        out: jax.Array = lax.custom_linear_solve(
            lambda x: A @ x, b, lambda m, v: jnp.linalg.solve(A, v), symmetric=True
        )
        return out

    np.testing.assert_allclose(np.asarray(f(jnp.asarray(b))), np.linalg.solve(a, b), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jax.jacobian(f)(jnp.asarray(b))), np.linalg.inv(a), rtol=1e-5)
