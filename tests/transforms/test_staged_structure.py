"""What users read off staged programs equals JAX's (issue 24, item 5): matrix-vector products are
one ``dot_general``, and ``saved_residuals`` lists the same residuals, in the same order, with the
same sources, for checkpointed networks under every policy. Compared with live JAX."""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, assert_same, here, live_fixture, program_call

PROGRAM = """
import numpy as np
saved = getattr(getattr(jax, "ad_checkpoint", None), "saved_residuals", None) or __import__("jax._src.ad_checkpoint", fromlist=["_"]).saved_residuals

def layer(W, x):
    return jnp.sin(W @ x)

def net(params, x):
    for W in params:
        x = jax.checkpoint(layer)(W, x)
    return jnp.sum(x)

def mlp(params, x):
    for W in params:
        x = jnp.tanh(W @ x)
    return jnp.sum(x)

params = [jnp.ones((4, 3)), jnp.ones((5, 4)) / 2, jnp.ones((2, 5)) / 3]
x = jnp.ones(3)

def residuals(f, *args):
    return [(str(a.shape), str(a.dtype), what) for a, what in saved(f, *args)]

def product_jaxpr(f, sa, sb):
    a = jnp.asarray(np.arange(np.prod(sa), dtype=np.float32).reshape(sa))
    b = jnp.asarray(np.arange(np.prod(sb), dtype=np.float32).reshape(sb) / 7)
    return str(jax.make_jaxpr(f)(a, b)), f(a, b)
"""

POLICIES = ["checkpoint_dots", "dots_with_no_batch_dims_saveable", "everything_saveable", "nothing_saveable"]
SHAPES = [
    ((4, 3), (3,)),
    ((3,), (3, 4)),
    ((3,), (3,)),
    ((2, 4, 3), (3,)),
    ((3,), (2, 3, 4)),
    ((2, 4, 3), (3, 5)),
    ((1, 4, 3), (2, 3, 5)),
    ((2, 1, 4, 3), (3, 3, 5)),
    ((5, 1, 4, 3), (1, 6, 3, 2)),
    ((2, 4, 3), (7, 3)),
]

CASES: dict[str, str] = {
    "residuals_plain": "residuals(lambda p, x: jnp.sum(layer(p[0], x)), params, x)",
    "residuals_checkpoint_per_layer": "residuals(net, params, x)",
    **{f"residuals_{p}": f"residuals(jax.checkpoint(mlp, policy=jax.checkpoint_policies.{p}), params, x)" for p in POLICIES},
    **{f"{f}_{sa}_{sb}": f"product_jaxpr(jnp.{f}, {sa}, {sb})" for f in ("matmul", "dot") for sa, sb in SHAPES},
    "one_minus_square": "(jax.lax.one_minus_square(jnp.array([0.5, 2.0, 1e-9])), jax.grad(jax.lax.one_minus_square)(1e-30))",
    "tanh_grad_jaxpr": "str(jax.make_jaxpr(jax.grad(jnp.tanh))(1.0))",
}


def _call(case: str) -> Call:
    return program_call(PROGRAM, CASES[case])


CALLS = [_call(c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_as_jax(case: str, live: dict[str, object]) -> None:
    call = _call(case)
    assert_same(here(call), live[call.expr], case, messages=True)  # type: ignore[arg-type]


def test_matvec_is_one_dot_general() -> None:
    # Independent of the oracle: the jaxpr of W @ x has one equation.
    import jax_core as jax
    import jax_core.numpy as jnp

    jaxpr = jax.make_jaxpr(lambda w, v: w @ v)(jnp.ones((4, 3)), jnp.ones(3))
    assert [e.primitive.name for e in jaxpr.jaxpr.eqns] == ["dot_general"]
