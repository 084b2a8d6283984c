"""``symbolic_zeros=True`` custom rules (``jax.custom_derivatives.SymbolicZero``, ``CustomVJPPrimal``)
and ``custom_gradient``, compared with real JAX in its own process: the values, and what the rules
were given."""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

PROGRAM = """
SymbolicZero = jax.custom_derivatives.SymbolicZero
custom_vjp_primal_tree_values = jax.custom_derivatives.custom_vjp_primal_tree_values
zero_from_primal = jax.custom_derivatives.zero_from_primal
seen = []
def kind(t):
    return type(t).__name__ if type(t) is SymbolicZero else "array"

@jax.custom_jvp
def g(x, y):
    return x * y
def g_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    seen.append((kind(tx), kind(ty)))
    out = x * y
    if type(tx) is SymbolicZero and type(ty) is SymbolicZero:
        return out, SymbolicZero.from_primal_value(out)
    t = jnp.zeros_like(out)
    if type(tx) is not SymbolicZero: t = t + tx * y
    if type(ty) is not SymbolicZero: t = t + x * ty
    return out, t
g.defjvp(g_jvp, symbolic_zeros=True)

@jax.custom_vjp
def h(x, y):
    return jnp.sin(x) * y
def h_fwd(x, y):
    seen.append((x.perturbed, y.perturbed))
    xv, yv = custom_vjp_primal_tree_values((x, y))
    return h(xv, yv), (xv, yv)
def h_bwd(res, ct):
    xv, yv = res
    seen.append(kind(ct))
    return (ct * jnp.cos(xv) * yv, SymbolicZero.from_primal_value(yv))
h.defvjp(h_fwd, h_bwd, symbolic_zeros=True)

def run(f):
    seen.clear()
    out = f()
    return out, str(seen)
"""
CASES = [
    "run(lambda: jax.grad(g)(2.0, 3.0))",
    "run(lambda: jax.grad(g, 1)(2.0, 3.0))",
    "run(lambda: jax.jvp(lambda a: g(a, 3.0), (2.0,), (1.0,)))",
    "run(lambda: jax.jit(jax.grad(g))(2.0, 3.0))",
    "run(lambda: jax.vmap(jax.grad(g))(jnp.arange(3.0), jnp.ones(3)))",
    "run(lambda: jax.grad(h)(1.0, 2.0))",
    "run(lambda: jax.grad(h, (0, 1))(1.0, 2.0))",
    "run(lambda: jax.grad(lambda x: h(x, 2.0).sum())(jnp.ones(2)))",
    "run(lambda: jax.jit(jax.grad(h))(1.0, 2.0))",
    "zero_from_primal((1.0, jnp.ones(2)))",
    "str(zero_from_primal({'a': jnp.ones((2, 3), jnp.int32)}, symbolic_zeros=True))",
    "custom_vjp_primal_tree_values((1.0,))",
    "SymbolicZero.from_primal_value(jnp.ones((2, 3))).shape",
]
CALLS = [program_call(PROGRAM, c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=CASES)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)
