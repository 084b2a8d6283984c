"""Differences found by running JAX programs written from JAX's documentation (not from these
tests), each compared with live JAX bit for bit, plus one check that needs no oracle:

* cumulative reductions keep small integer dtypes (``cumsum`` of int8 is int8; ``cumulative_sum``
  widens, as JAX's does);
* ``jnp.angle(z, deg)`` takes ``deg`` as a static Python bool, also positionally and under ``jit``;
* ``reshape``/``ravel``/``flatten`` honour ``order="F"`` (``x.ravel(order="F")`` silently ignored
  it), and an unknown order raises JAX's ``ValueError``.
"""

from __future__ import annotations

import numpy as np
import pytest

import jax_core.numpy as jnp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture


def _calls() -> list[Call]:
    calls: list[Call] = []
    for f in ("cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod"):
        for dt in ("int8", "uint8", "int16", "bool_", "float16", "bfloat16", "int32", "uint32"):
            calls.append(Call(f"jnp.{f}(jnp.arange(5).astype(jnp.{dt}))"))
            calls.append(Call(f"jnp.{f}(jnp.arange(5).astype(jnp.{dt}), dtype=jnp.int16)"))
    calls += [
        Call("jnp.cumsum(jnp.full(300, 1, jnp.int8))"),  # wraps in int8, as JAX
        Call("jax.jit(lambda z: jnp.angle(z, deg=True))(jnp.array([1 + 1j, -1j]))"),
        Call("jnp.angle(jnp.array([1 + 1j, -1j]), True)"),
        Call("jax.jit(lambda z: jnp.angle(z, True))(jnp.array([1.0, -2.0]))"),
    ]
    for expr in (
        "jnp.reshape(jnp.arange(6), (3, 2), order='F')",
        "jnp.arange(6).reshape((3, 2), order='F')",
        "jnp.arange(6).reshape(3, 2, order='F')",
        "jnp.reshape(jnp.arange(24).reshape(2, 3, 4), (4, -1), order='F')",
        "jnp.reshape(jnp.arange(6), (3, 2), order='A')",
        "jnp.reshape(jnp.arange(6), (3, 2), order='K')",
        "jnp.ravel(jnp.arange(6).reshape(2, 3), order='F')",
        "jnp.arange(6).reshape(2, 3).ravel(order='F')",
        "jnp.arange(6).reshape(2, 3).flatten(order='F')",
        "jax.jit(lambda x: x.reshape(3, 2, order='F'))(jnp.arange(6.0))",
        "jax.grad(lambda x: (x.reshape(3, 2, order='F') * jnp.arange(6.0).reshape(3, 2)).sum())(jnp.ones(6))",
    ):
        calls.append(Call(expr))
    return calls


CALLS = _calls()


@pytest.mark.parametrize("call", CALLS, ids=[c.expr for c in CALLS])
def test_bit_identical_to_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr)


def test_reported_cases_without_the_oracle() -> None:
    assert jnp.cumsum(jnp.arange(5, dtype=jnp.int8)).dtype == np.int8
    assert jnp.cumulative_sum(jnp.arange(5, dtype=jnp.int8)).dtype == np.int32
    assert jnp.angle(jnp.array([1j]), True).tolist() == [90.0]
    x = np.arange(6).reshape(2, 3)
    assert jnp.asarray(x).ravel(order="F").tolist() == x.ravel(order="F").tolist()
    assert (
        jnp.reshape(jnp.asarray(x), (3, 2), order="F").tolist()
        == x.reshape((3, 2), order="F").tolist()
    )
    with pytest.raises(ValueError, match="Unexpected value for 'order' argument: K"):
        jnp.reshape(jnp.asarray(x), (3, 2), order="K")


# -- exception classes and tracer reprs users see (compared with live JAX, messages too) ------------
ERRORS = [
    Call("jax.jit(lambda n: jnp.ones(n))(3)"),  # TypeError (was ConcretizationTypeError)
    Call("jax.jit(lambda n: jnp.zeros((2, n)))(3)"),
    Call("jnp.ones(100) * jnp.ones((100, 10))"),  # jnp's rank promotion: ValueError (was TypeError)
    Call("jnp.add(jnp.ones(100), jnp.ones((100, 10)))"),
    Call("jnp.ones((2, 3)) - jnp.ones((3, 2))"),
    Call("jnp.ones((3, 1)) + jnp.ones(4)"),  # broadcasts
    Call("jax.jit(lambda x: repr(x) and x)(1.0)"),
    Call("jax.make_jaxpr(lambda x: (repr(x), x)[1])(1.0).jaxpr.invars[0].aval.weak_type"),
]


live = live_fixture(CALLS + ERRORS)


@pytest.mark.parametrize("call", ERRORS, ids=[c.expr for c in ERRORS])
def test_error_classes_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs, ours = live[call.expr], here(call)
    assert_same(ours, theirs, call.expr, messages=ours.error == "ValueError")
    if ours.error == "TypeError":  # ours adds where the traced value came from
        assert (ours.message or "").startswith((theirs.message or "").split("\n")[0])


def test_tracer_repr_marks_weak_types() -> None:
    import jax_core as jax

    seen: list[str] = []
    jax.jit(lambda x, y: (seen.append(repr(x)), seen.append(repr(y)), x)[2])(1.0, jnp.float32(2))
    assert seen == ["JitTracer(~float32[])", "JitTracer(float32[])"]
