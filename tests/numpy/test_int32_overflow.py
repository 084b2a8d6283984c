"""Indices and sizes past int32 without x64: JAX's ``OverflowError`` (or the right answer), never
a value that wrapped around. Shapes past 2**31 are checked abstractly (``eval_shape``: nothing
is allocated) except the one program from the report, which allocates its 2 GiB array."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

BIG = 2**31 + 7
S = jax.ShapeDtypeStruct
HINT = "jax_enable_x64"


def test_the_reported_update_raises_instead_of_landing_elsewhere() -> None:
    x = jnp.ones((BIG,), jnp.int8)  # 2 GiB; the update itself never runs
    with pytest.raises(OverflowError, match=HINT):
        x.at[2**31 + 5].set(5)
    del x


UPDATES: dict[str, tuple[tuple[int, ...], Callable[..., Any], bool]] = {
    # name: (shape, update, raises)
    "static index past int32": ((BIG,), lambda x: x.at[2**31 + 5].set(5), True),
    "negative index past int32": ((BIG,), lambda x: x.at[-1].add(1), True),
    "slice reaching past int32": ((BIG,), lambda x: x.at[2**31 :].set(0), True),
    "clipped out-of-bounds index": ((BIG,), lambda x: x.at[BIG + 5].add(1, mode="clip"), True),
    "row 1 of a 2 x 2**31 array": ((2, 2**31), lambda x: x.at[1, 5].set(5), True),
    "index array into a long axis": ((BIG,), lambda x: x.at[jnp.array([3])].set(5), True),
    "small static index": ((BIG,), lambda x: x.at[5].set(5), False),
    "row 0 of a 2 x 2**31 array": ((2, 2**31), lambda x: x.at[0, 2:4].set(5), False),
    "2**31 elements exactly": ((2, 2**30), lambda x: x.at[1, jnp.array([3])].set(5), False),
}


@pytest.mark.parametrize("name", list(UPDATES))
def test_indexed_updates_of_huge_arrays(name: str) -> None:
    shape, update, raises = UPDATES[name]
    if raises:
        with pytest.raises(OverflowError, match=HINT):
            jax.eval_shape(update, S(shape, jnp.int8))
        with enable_x64(True):  # 64-bit positions: no overflow
            assert jax.eval_shape(update, S(shape, jnp.int8)).shape == shape
    else:
        assert jax.eval_shape(update, S(shape, jnp.int8)).shape == shape


def test_argmax_over_an_axis_past_int32_raises() -> None:
    for f in (jnp.argmax, jnp.argmin):
        with pytest.raises(OverflowError, match="index_dtype"):
            jax.eval_shape(f, S((BIG,), jnp.int8))
        with enable_x64(True):
            assert jax.eval_shape(f, S((BIG,), jnp.int8)).dtype == np.int64
    assert jax.eval_shape(jnp.argmax, S((2**31 - 1,), jnp.int8)).dtype == np.int32


def test_arange_of_the_default_int_past_int32_raises() -> None:
    with pytest.raises(OverflowError, match=HINT):
        jnp.arange(2**31 + 3)
    with pytest.raises(OverflowError, match=HINT):
        jnp.arange(2**31 - 2, 2**31 + 1)
    assert jnp.arange(2**31 - 3, 2**31 - 1).tolist() == [2**31 - 3, 2**31 - 2]
    # An explicit narrow dtype keeps NumPy's (and JAX's) modular values.
    assert (
        jnp.arange(300, dtype=jnp.int8)[-3:].tolist() == np.arange(300, dtype=np.int8)[-3:].tolist()
    )


LIVE = [
    Call("jax.jit(lambda a, j: a + j)(jnp.ones(3), 2**31 + 5)"),
    Call("jax.jit(lambda a, j: a + j['k'][0])(jnp.ones(3), {'k': [2**40]})"),
    Call("jax.jit(lambda a, j: a + j)(jnp.ones(3), 2**31 - 1)"),
    Call("jax.jit(lambda a, j: a + j)(jnp.ones(3, jnp.int32), -(2**31))"),
]


live = live_fixture(LIVE)


@pytest.mark.parametrize("call", LIVE, ids=[c.expr for c in LIVE])
def test_jit_int_arguments_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=True)
