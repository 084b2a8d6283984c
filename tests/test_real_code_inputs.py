"""Inputs published JAX code passes that jax_core's types and runtime once rejected (issue 15),
compared with real JAX in its own process: the values, or the exception class and message."""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

SPEC = "jax.ShapeDtypeStruct((2, 3), jnp.float32)"
EXPRS = [
    # the *_like constructors take anything with shape and dtype
    f"jnp.zeros_like({SPEC})",
    f"jnp.ones_like({SPEC}, dtype=jnp.int32)",
    f"jnp.full_like({SPEC}, 2.5, shape=(4,))",
    f"jnp.empty_like({SPEC}).shape",
    f"str(jax.make_jaxpr(lambda: jnp.zeros_like({SPEC}))())",
    # shapes of NumPy integers
    "jnp.zeros((np.int32(2), np.int64(3)))",
    "jnp.ones(np.int32(3)).reshape((np.int64(3), 1))",
    "jnp.full_like(jnp.ones(2), 1.0, shape=np.int16(3))",
    # where with three operands; pad with a mode from a variable
    "jnp.where(jnp.arange(3) > 0, 1.0, 0.0)",
    "jnp.pad(jnp.arange(4.0).reshape(2, 2), 1, mode=str('reflect'))",
    # scatter dimension numbers from range(...)
    "lax.scatter_add(jnp.zeros((4, 2)), jnp.array([[1], [3]]), jnp.ones((2, 2)), "
    "lax.ScatterDimensionNumbers(range(1, 2), (0,), (0,)))",
    # vmap: a top-level list in_axes is a tuple; a non-callable is refused at once
    "jax.vmap(lambda a, b: a * b, in_axes=[0, None])(jnp.ones((2, 3)), jnp.arange(3.0))",
    "jax.vmap(lambda *x: sum(x))(jnp.ones((2, 3)), jnp.ones((2, 3)))",
    "jax.vmap(3)",
    # a Python or NumPy scalar is not a PRNG key
    "random.normal(0, (3,))",
    "random.uniform(np.uint32(7), (2,))",
    "random.normal(np.array([0, 1], np.uint32), (2,))",
]

CUSTOM = """
@jax.custom_vjp
def safe_norm(x, eps=1e-6):
    return jnp.sqrt(jnp.sum(x * x) + eps)
def fwd(x, eps):
    n = safe_norm(x, eps)
    return n, (x, n)
def bwd(res, g):
    x, n = res
    return g * x / n, None
safe_norm.defvjp(fwd, bwd)

@jax.custom_jvp
def scale(x, k=2.0):
    return x * k
@scale.defjvp
def scale_jvp(primals, tangents):
    (x, k), (dx, _) = primals, tangents
    return scale(x, k), dx * k

def keyword_only(x, *, k=2.0):
    return x * k
kw = jax.custom_jvp(keyword_only)
kw.defjvp(lambda p, t: (kw(*p), t[0]))
"""
CUSTOM_CASES = [
    "jax.grad(safe_norm)(jnp.arange(3.0))",
    "jax.grad(lambda v: safe_norm(v, eps=1.0))(jnp.arange(3.0))",
    "jax.jvp(scale, (1.0,), (1.0,))",
    "kw(1.0)",
    "kw(1.0, k=3.0)",
]

CALLS = [Call(e) for e in EXPRS] + [program_call(CUSTOM, c) for c in CUSTOM_CASES]
IDS = EXPRS + [f"custom: {c}" for c in CUSTOM_CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=IDS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=live[call.expr].error is not None)
