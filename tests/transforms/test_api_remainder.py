"""Issue 16's transformation-level names, compared with real JAX in its own process:
``fwd_and_bwd`` (and ``vjp`` pullbacks as pytrees), ``custom_batching``, ``jit(inline=Inline...)``,
checkpoint policies answering ``Saveable``/``Recompute``, ``default_matmul_precision`` and
``Lowered.compile(compiler_options)``."""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

PROGRAM = """
x = W = cot = jnp.ones((4, 4)) * 0.5
def f(x, W):
    return jnp.tanh(x @ W)
fwd, bwd = jax.fwd_and_bwd(f, argnums=(0, 1))
def twice():
    out = []
    for _ in range(2):
        y, res = fwd(x, W)
        out.append((y, bwd(res, cot)))
    return out
fwd1, bwd1 = jax.fwd_and_bwd(lambda x, W: (f(x, W).sum(), {'a': x}), argnums=1, has_aux=True, jitted=False)

seen = []
@jax.custom_batching.custom_vmap
def add(x, y):
    return x + y
@add.def_vmap
def add_rule(axis_size, in_batched, xs, ys):
    seen.append((axis_size, in_batched))
    return xs * ys, True
def vmapped(*args, **kw):
    seen.clear()
    return jax.vmap(add, **kw)(*args), str(seen)

@jax.custom_vjp
@jax.custom_batching.custom_vmap
def g(x, y):
    return jnp.sin(x) * y
@g.def_vmap
def g_rule(axis_size, in_batched, xs, ys):
    return jnp.cos(xs) * ys, True
g.defvjp(lambda x, y: (g(x, y), (jnp.cos(x), jnp.sin(x), y)), lambda r, c: (r[0] * c * r[2], r[1] * c))

@jax.custom_batching.sequential_vmap
def seq(x, y):
    return x * 2 + y

def policy(prim, *avals, **params):
    return jax.ad_checkpoint.Saveable if prim.name == 'sin' else jax.ad_checkpoint.Recompute
remat = jax.checkpoint(lambda v: jnp.cos(jnp.sin(v)) * 2, policy=policy)

linear_call = jax.custom_derivatives.linear_call
def div_add(v, denom):
    return v + linear_call(lambda r, u: u / r, lambda r, c: c / r, denom, v)
def transpose(fn, example):
    return lambda y: jax.linear_transpose(fn, example)(y)[0]
def custom_id(v):
    return linear_call(lambda _, u: u, lambda _, c: 7.0, (), v)

def under(cm, fn):
    with cm:
        return fn()
"""
CASES = [
    "twice()",
    "fwd1(x, W)[0], bwd1(fwd1(x, W)[1], 1.0), fwd1(x, W)[2]",
    "jax.jit(lambda fn, c: fn(c))(jax.vjp(f, x, W)[1], cot)",
    "all(isinstance(v, jax.Array) for v in jax.tree_util.tree_leaves(jax.vjp(f, x, W)[1]))",
    "jax.fwd_and_bwd(3, argnums=0)",
    "vmapped(jnp.arange(3), jnp.arange(1, 4))",
    "vmapped(jnp.arange(3), 5, in_axes=(0, None))",
    "add(2, 3)",
    "jax.jit(jax.vmap(add))(jnp.arange(3), jnp.arange(3))",
    "jax.vmap(g)(jnp.zeros(3), jnp.ones(3))",
    "jax.grad(g)(jnp.zeros(()), jnp.ones(()))",
    "jax.vmap(seq)(jnp.arange(3.0), jnp.ones(3))",
    "jax.vmap(seq, in_axes=(0, None))(jnp.arange(3.0), 1.0)",
    "jax.jvp(add, (1.0, 2.0), (1.0, 0.0))",
    "str(jax.make_jaxpr(lambda v: jax.jit(lambda u: u * 2, inline=True)(v) + 1)(1.0))",
    "str(jax.make_jaxpr(lambda v: jax.jit(lambda u: u * 2, inline=jax.Inline.JAX_EARLY)(v) + 1)(1.0))",
    "jax.jit(lambda v: jax.jit(jnp.sin, inline=jax.Inline.XLA_LATE)(v) + 1)(1.0)",
    "[m.value for m in jax.Inline]",
    "jax.jit(jnp.sin, inline='sometimes')",
    "[m.name for m in jax.CompilerEffortLevel], jax.CompilerEffortLevel('O2').value",
    "jax.grad(remat)(1.0)",
    "[str(a) for a, _ in jax.ad_checkpoint.print_saved_residuals(remat, 1.0) or []]",
    "str(jax.make_jaxpr(lambda v: jax.ad_checkpoint.checkpoint_name_fwd(v * 2, 'a'))(1.0))",
    "under(jax.default_matmul_precision('highest'), lambda: str(jax.make_jaxpr(lambda a: a @ a)(x)))",
    "under(jax.default_matmul_precision('tensorfloat32'), lambda: str(jax.make_jaxpr(lambda a: a @ a)(x)))",
    "under(jax.default_matmul_precision('F32_F32_F32'), lambda: jax.jit(lambda a: a @ a)(x))",
    "jax.jit(jnp.sin).lower(x).compile({'xla_cpu_enable_fast_math': False})(x)",
    "jax.jit(jnp.sin).lower(x).compile({'xla_no_such_option': 1})",
    "jax.jit(jnp.cos).lower(x).compile({'optimization_level': 'O1'})(x)",
    "div_add(9.0, 3.0)",
    "transpose(lambda v: div_add(v, 3.0), 1.0)(18.0)",
    "transpose(custom_id, 1.0)(1.0), transpose(transpose(custom_id, 1.0), 1.0)(1.0)",
    "jax.grad(lambda v: custom_id(v) * 2)(3.0)",
    "jax.jit(jax.grad(lambda v: div_add(v, 4.0)))(2.0)",
    "linear_call(lambda r, u: u, lambda r, c: (c, c), (), 1.0) and jax.grad(lambda v: linear_call(lambda r, u: u, lambda r, c: (c, c), (), v))(1.0)",
]
COVERED = {"custom_vmap_call", "linear_call"}
CALLS = [program_call(PROGRAM, c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=CASES)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


def test_linear_call_batches() -> None:
    """JAX has no batching rule for linear_call; jax_core batches both functions."""
    import numpy as np

    import jax_core as jax
    import jax_core.numpy as jnp
    from jax_core.custom_derivatives import linear_call

    def div_add(v: jax.Array, denom: jax.Array) -> jax.Array:
        out: jax.Array = v + linear_call(lambda r, u: u / r, lambda r, c: c / r, denom, v)
        return out

    xs, ds = jnp.arange(3.0), jnp.arange(1.0, 4.0)
    np.testing.assert_allclose(np.asarray(jax.vmap(div_add)(xs, ds)), [0.0, 1.5, 2.6666667], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jax.vmap(jax.grad(div_add))(xs, ds)), [2.0, 1.5, 1.3333334], rtol=1e-6)
