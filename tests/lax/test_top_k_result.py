"""``lax.top_k`` returns what JAX returns: the list ``[values, indices]`` (its primitive's list of
results, whatever JAX's annotation says), along any axis, eagerly and under ``jit``. Compared with
live JAX."""

from __future__ import annotations

from typing import Any

import pytest

from tests.oracle.client import Call, assert_same, here, live_fixture

CASES: dict[str, str] = {
    "type": "type(lax.top_k(jnp.array([9.0, 3.0, 6.0, 4.0, 10.0]), 3)).__name__",
    "type_axis0": "type(lax.top_k(jnp.arange(6.0).reshape(3, 2), 2, axis=0)).__name__",
    "type_jit": "type(jax.jit(lambda x: lax.top_k(x, 2))(jnp.arange(5.0))).__name__",
    "length": "len(lax.top_k(jnp.arange(5.0), 2))",
    "values": "lax.top_k(jnp.array([9.0, 3.0, 6.0, 4.0, 10.0]), 3)",
    "values_axis0": "lax.top_k(jnp.array([[1.0, 5.0], [4.0, 2.0], [3.0, 3.0]]), 2, axis=0)",
    "ties": "lax.top_k(jnp.array([1, 3, 3, 2, 3]), 2)",
}


CALLS = [Call(expr) for expr in CASES.values()]
live = live_fixture(CALLS)


@pytest.mark.parametrize("case", list(CASES))
def test_same_as_jax(case: str, live: dict[str, Any]) -> None:
    call = Call(CASES[case])
    assert_same(here(call), live[call.expr], case, messages=True)


def test_unpacks_and_indexes() -> None:
    import jax_core.numpy as jnp
    from jax_core import lax

    result = lax.top_k(jnp.arange(4.0), 2)
    assert isinstance(result, list)
    values, indices = result
    assert values.tolist() == [3.0, 2.0] and indices.tolist() == [3, 2]
