"""custom_jvp/custom_vjp functions whose Python control flow reads values differentiate outside
``jit`` as in JAX: the rule runs on the primal values (issue 24, item 3), compared with live JAX."""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, assert_same, here, live_fixture, program_call

PROGRAM = """
@jax.custom_jvp
def g(x):
    return jnp.sin(x) if x > 0 else jnp.cos(x)

@g.defjvp
def g_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if x > 0:
        return g(x), 3.0 * x * t
    return g(x), -t

@jax.custom_vjp
def h(x):
    return x ** 2 if x > 1 else x

def h_fwd(x):
    return h(x), x

def h_bwd(x, ct):
    return ((5.0 if x > 1 else 7.0) * ct,)

h.defvjp(h_fwd, h_bwd)

@jax.custom_jvp
def clip_grad(x, limit):
    return x

@clip_grad.defjvp
def clip_grad_jvp(primals, tangents):
    x, limit = primals
    tx, _ = tangents
    return x, tx if abs(x) < limit else tx * 0.0

def k(x):
    return clip_grad(x * x, 4.0) + jnp.sin(x)
"""

CASES = {
    "grad_g_pos": "jax.grad(g)(1.0)",
    "grad_g_neg": "jax.grad(g)(-1.0)",
    "grad_grad_g": "jax.grad(jax.grad(g))(1.0)",
    "jvp_g": "jax.jvp(g, (2.0,), (1.0,))",
    "value_and_grad_g": "jax.value_and_grad(g)(0.5)",
    "grad_h_big": "jax.grad(h)(2.0)",
    "grad_h_small": "jax.grad(h)(0.5)",
    "grad_k_inside": "jax.grad(k)(1.5)",
    "grad_k_outside": "jax.grad(k)(3.0)",
    "vjp_h": "jax.vjp(h, 3.0)[1](1.0)",
    "jit_grad_g_raises": "jax.jit(jax.grad(g))(1.0)",
    "jit_g_raises": "jax.jit(g)(1.0)",
    "grad_is_an_array": "[repr(jax.grad(h)(3.0)), repr(jax.grad(lambda x: x * 2.0)(3.0))]",
}


def _call(case: str) -> Call:
    return program_call(PROGRAM, CASES[case])


CALLS = [_call(c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_as_jax(case: str, live: dict[str, object]) -> None:
    call = _call(case)
    ours, theirs = here(call), live[call.expr]
    if case.endswith("_raises"):
        assert ours.error is not None and ours.error.split(":")[0] == "TracerBoolConversionError", ours
    assert_same(ours, theirs, case)  # type: ignore[arg-type]


def test_values_without_the_oracle() -> None:
    # Independent of the oracle: the rules' own arithmetic (3x, -1, 5, 7) and the chain rule through k.
    import jax_core as jax
    import jax_core.numpy as jnp

    ns: dict[str, object] = {"jax": jax, "jnp": jnp}
    exec(PROGRAM, ns)  # noqa: S102
    grad, g, h, k = jax.grad, ns["g"], ns["h"], ns["k"]
    assert float(grad(g)(1.0)) == 3.0  # type: ignore[arg-type]
    assert float(grad(g)(-1.0)) == -1.0  # type: ignore[arg-type]
    assert float(grad(grad(g))(1.0)) == 3.0  # type: ignore[arg-type]
    assert float(grad(h)(2.0)) == 5.0 and float(grad(h)(0.5)) == 7.0  # type: ignore[arg-type]
    assert abs(float(grad(k)(1.5)) - (2 * 1.5 + float(jnp.cos(1.5)))) < 1e-6  # type: ignore[arg-type]
    assert abs(float(grad(k)(3.0)) - float(jnp.cos(3.0))) < 1e-6  # type: ignore[arg-type]
