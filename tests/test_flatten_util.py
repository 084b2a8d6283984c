"""jax_core.flatten_util.ravel_pytree against real JAX: the flat vector bit for bit (dtype
promotion over the leaves, weak types), the round trip, unravel's dtype check, and ravel under
``jit``, ``grad`` and ``vmap``."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core
import jax_core.numpy as jnp
from jax_core.flatten_util import ravel_pytree
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

R = "jax.flatten_util.ravel_pytree"
TREE = "{'a': 1.0, 'b': (jnp.ones((2, 2), jnp.int32), np.arange(3.0)), 'c': [jnp.float16(2)]}"
EXPRS = [
    f"{R}({TREE})[0]",
    f"{R}({TREE})[1]({R}({TREE})[0])",
    f"{R}([1.0, 2.0])[0]",
    f"{R}([1.0, 2.0])[0].weak_type",
    f"{R}([1, 2.0])[0]",
    f"{R}([1.0, np.float64(2.0)])[0]",
    f"{R}([jnp.ones(2, jnp.bfloat16), jnp.ones(1, jnp.float16)])[0]",
    f"{R}([jnp.ones(2, jnp.complex64), jnp.ones(1)])[0]",
    f"{R}([jnp.ones(2, jnp.complex64), jnp.ones(1)])[1](jnp.array([1 + 2j, 3, 4j], jnp.complex64))",
    f"{R}([jnp.ones(2, bool), jnp.arange(3, dtype=jnp.uint8)])[0]",
    f"{R}([])[0]",
    f"{R}([])[1](jnp.zeros(0))",
    f"{R}(None)[0]",
    f"{R}({{'x': jnp.zeros((0, 3))}})[1](jnp.zeros(0))",
    f"{R}(jnp.arange(6.0).reshape(2, 3))[0]",
    # the same-dtype unravel takes any dtype; the converting one insists on the promoted dtype
    f"{R}([jnp.ones(2), jnp.ones(3)])[1](jnp.arange(5))",
    f"{R}([jnp.ones(2), jnp.ones(3, jnp.int32)])[1](jnp.arange(5))",
    f"{R}([jnp.ones(2), jnp.ones(3, jnp.int32)])[1](jnp.arange(5.0))",
    f"{R}([jnp.ones(2), jnp.ones(3)])[1](jnp.arange(4.0))",
    # unravel functions built for the same structure are equal (a static jit argument)
    f"{R}([jnp.ones(2), 1])[1] == {R}([jnp.zeros(2), 5])[1]",
    f"hash({R}([jnp.ones(2), 1])[1]) == hash({R}([jnp.zeros(2), 5])[1])",
    f"{R}([jnp.ones(2)])[1] == {R}([jnp.ones(3)])[1]",
    # transformations
    f"jax.jit(lambda t: {R}(t)[0])({TREE})",
    f"jax.grad(lambda t: jnp.sum({R}(t)[0] ** 2))({{'u': jnp.arange(3.0), 'v': 2.0}})",
    f"jax.vmap(lambda t: {R}(t)[0])((jnp.ones((4, 2)), jnp.arange(4.0)))",
    f"jax.jit(lambda v: {R}([jnp.ones(2), jnp.ones((1, 3), jnp.int32)])[1](v))(jnp.arange(5.0))",
]
CALLS = [Call(e) for e in EXPRS]
live = live_fixture(CALLS)
CALLS64 = [Call(e, x64=True) for e in EXPRS[:8]]
live64 = live_fixture(CALLS64)


@pytest.mark.parametrize("call", CALLS, ids=EXPRS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=True)


@pytest.mark.parametrize("call", CALLS64, ids=EXPRS[:8])
def test_same_as_live_jax_x64(call: Call, live64: dict[str, Outcome]) -> None:
    assert_same(here(call), live64[call.expr], call.expr, messages=True)


def test_round_trip_keeps_structure_and_dtypes() -> None:
    tree = {"a": jnp.ones((2, 1), jnp.int16), "b": [np.float32(3.0), jnp.arange(2.0)]}
    flat, unravel = ravel_pytree(tree)
    assert flat.shape == (5,) and flat.dtype == np.float32
    back = unravel(flat)
    assert jax_core.tree_util.tree_structure(back) == jax_core.tree_util.tree_structure(tree)
    assert back["a"].dtype == np.int16 and back["a"].shape == (2, 1)
    with pytest.raises(
        TypeError, match="unravel function given array of dtype int32, but expected dtype float32"
    ):
        unravel(jnp.arange(5))
