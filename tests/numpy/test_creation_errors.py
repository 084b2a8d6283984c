"""What jnp.array/asarray raise for values JAX cannot hold, as JAX raises it (issue 24, item 7):
``None`` anywhere is a ``ValueError``; objects and strings are ``TypeError``s naming the value."""

from __future__ import annotations

import re

import pytest

import jax_core.numpy as jnp
from tests.oracle.client import Call, assert_same, here, live_fixture

EXPRS = [
    "jnp.asarray(None)",
    "jnp.array(None)",
    "jnp.array([1, None])",
    "jnp.asarray([[1.0], [None]])",
    "jnp.asarray(('a', 1))",
    "jnp.asarray('a')",
    "jnp.sin(None)",
]
CALLS = [Call(e) for e in EXPRS]
live = live_fixture(CALLS)


@pytest.mark.parametrize("expr", EXPRS)
def test_same_error_as_jax(expr: str, live: dict[str, object]) -> None:
    call = Call(expr)
    assert_same(here(call), live[expr], expr, messages=True)  # type: ignore[arg-type]


def test_none_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"^None is not a valid value for jnp\.array$"):
        jnp.array([[1, 2], [3, None]])


def test_an_object_is_a_type_error_naming_it() -> None:
    thing = object()
    msg = f"Value '{thing}' with dtype object is not a valid JAX array type. Only arrays of numeric types are supported by JAX."
    with pytest.raises(TypeError, match=re.escape(msg)):
        jnp.array(thing)
