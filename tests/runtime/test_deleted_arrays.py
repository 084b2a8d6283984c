"""Deleted and donated arrays: every use raises JAX's ``RuntimeError`` before jaxlib sees the
buffer (jaxlib would fail inside ``Execute()`` with ``INVALID_ARGUMENT`` and C++ logs).

The message is JAX 0.12's (``Array has been deleted with shape=float32[1000].``); the live tests
compare each use with real JAX on this machine.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

MESSAGE = "Array has been deleted with shape=float32[1000]."
_cached = jax.jit(lambda a: a + 1)
_cached(jnp.ones(1000))  # compiled: a later call with a deleted array takes the C++ fast path first


def _deleted() -> Any:
    z = jnp.ones(1000)
    z.delete()
    return z


def _donated() -> Any:
    x = jnp.ones(1000)
    jax.jit(lambda a: a * 2, donate_argnums=0)(x).block_until_ready()
    return x


USES: dict[str, Callable[[Any], object]] = {
    "x + 1": lambda x: x + 1,
    "1 + x": lambda x: 1 + x,
    "x.sum()": lambda x: x.sum(),
    "jnp.sin(x)": jnp.sin,
    "x[0]": lambda x: x[0],
    "x.T": lambda x: x.T,
    "x.astype": lambda x: x.astype(jnp.int32),
    "x.at[0].set": lambda x: x.at[0].set(1.0),
    "x.copy()": lambda x: x.copy(),
    "jit cached": _cached,
    "jit new": lambda x: jax.jit(lambda a: a * 3)(x),
    "vmap": lambda x: jax.vmap(jnp.sin)(x),
    "grad": lambda x: jax.grad(lambda a: (a * a).sum())(x),
    "device_put": jax.device_put,
    "device_get": jax.device_get,
    "np.asarray": np.asarray,
    "jnp.asarray": jnp.asarray,
    "jnp.array": jnp.array,
    "repr": repr,
    "str": str,
    "float(x[0])": lambda x: float(x[0]),
    "x.tolist()": lambda x: x.tolist(),
    "x.devices()": lambda x: x.devices(),
    "x.addressable_shards": lambda x: x.addressable_shards,
}


@pytest.mark.parametrize("make", [_deleted, _donated], ids=["deleted", "donated"])
@pytest.mark.parametrize("use", list(USES), ids=list(USES))
def test_every_use_raises_jax_runtime_error(make: Callable[[], Any], use: str) -> None:
    x = make()
    assert x.is_deleted()
    with pytest.raises(RuntimeError, match=f"^{re.escape(MESSAGE)}$") as info:
        USES[use](x)
    assert (
        type(info.value) is RuntimeError
    )  # not jaxlib's JaxRuntimeError (a RuntimeError subclass)


def test_metadata_still_readable() -> None:
    """As in JAX: shape, dtype, size and nbytes need no buffer; deleting twice is allowed."""
    x = _deleted()
    assert (x.shape, x.dtype, x.size, x.nbytes, len(x)) == ((1000,), np.float32, 1000, 4000, 1000)
    x.delete()
    assert x.is_deleted()


def test_shape_in_message_names_dtype_and_dims() -> None:
    x = jnp.zeros((2, 3), jnp.int8)
    x.delete()
    with pytest.raises(RuntimeError, match=r"^Array has been deleted with shape=int8\[2,3\]\.$"):
        x * 2


LIVE = [
    Call("(lambda x: (x.delete(), x + 1))(jnp.ones(1000))"),
    Call("(lambda x: (x.delete(), np.asarray(x)))(jnp.ones(1000))"),
    Call("(lambda x: (x.delete(), jax.jit(lambda a: a - 1)(x)))(jnp.ones(1000))"),
    Call("(lambda x: (jax.jit(lambda a: a * 2, donate_argnums=0)(x), x.sum()))(jnp.ones(1000))"),
    Call("(lambda x: (x.delete(), repr(x)))(jnp.zeros((2, 3), jnp.int8))"),
]


live = live_fixture(LIVE)


@pytest.mark.parametrize("call", LIVE, ids=[c.expr for c in LIVE])
def test_same_error_and_message_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert theirs.error == "RuntimeError" and (theirs.message or "").startswith(
        "Array has been deleted"
    )
    assert_same(here(call), theirs, call.expr, messages=True)
