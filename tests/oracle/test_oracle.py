"""The live oracle itself (tests/oracle/client.py): what it returns, and that its comparison fails
where it should. The bit-equality checks that use it live beside the recordings they back up."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tests.oracle.client import Call, Outcome, assert_same, evaluate, here


def _one(leaf: np.ndarray[Any, Any]) -> Outcome:
    return Outcome(leaves=(leaf,))


def test_assert_same_needs_every_bit() -> None:
    x = np.array([1.0, -0.0, np.nan], np.float32)
    assert_same(_one(x), _one(x.copy()))
    with pytest.raises(AssertionError, match="not bit-identical"):
        assert_same(_one(x), _one(np.nextafter(x, np.float32(2))))
    with pytest.raises(AssertionError, match="not bit-identical"):  # -0.0 == 0.0, but not its bits
        assert_same(_one(np.zeros(1, np.float32)), _one(-np.zeros(1, np.float32)))
    with pytest.raises(AssertionError, match="not bit-identical"):  # same bytes, other dtype
        assert_same(_one(np.zeros(2, np.int16)), _one(np.zeros(1, np.int32)))
    with pytest.raises(AssertionError, match="outcomes differ"):
        assert_same(Outcome(error="TypeError", message="m"), _one(x))
    assert_same(Outcome(error="TypeError", message="a"), Outcome(error="TypeError", message="b"))
    with pytest.raises(AssertionError, match="outcomes differ"):
        assert_same(
            Outcome(error="TypeError", message="a"),
            Outcome(error="TypeError", message="b"),
            messages=True,
        )


def test_jax_core_side_gives_leaves_and_errors() -> None:
    out = here(Call("(jnp.arange(3), {'b': x * 2})", {"x": np.float32(1.5)}))
    assert out.leaves is not None
    assert [a.tolist() for a in out.leaves] == [[0, 1, 2], 3.0]
    assert here(Call("jnp.arange(2.0)", x64=True)).leaves[0].dtype == np.float64  # type: ignore[index]
    err = here(Call("random.key(0) + 1"))
    assert err.leaves is None and err.error == "TypeError"


def test_jax_side_round_trips_values_and_dtypes() -> None:
    calls = [
        Call("(jnp.arange(3), {'b': x * 2})", {"x": np.float32(1.5)}),
        Call("jnp.asarray(y) + 1", {"y": np.array([1.0, 2.0], ml_dtypes.bfloat16)}),
        Call("jnp.arange(2.0)", x64=True),
        Call("jnp.arange(2.0)"),
        Call("random.key(0) + 1"),
        Call("(print('printed output stays out of the answer'), repr(jnp.arange(3)))[1]"),
    ]
    tup, bf16, f64, f32, err, text = evaluate(calls)
    assert text.leaves is not None and str(text.leaves[0]) == "Array([0, 1, 2], dtype=int32)"
    assert tup.leaves is not None and [a.tolist() for a in tup.leaves] == [[0, 1, 2], 3.0]
    assert bf16.leaves is not None and bf16.leaves[0].dtype == ml_dtypes.bfloat16
    assert bf16.leaves[0].astype(np.float32).tolist() == [2.0, 3.0]
    assert f64.leaves is not None and f64.leaves[0].dtype == np.float64
    assert f32.leaves is not None and f32.leaves[0].dtype == np.float32
    assert err.leaves is None and err.error == "TypeError" and "key<fry>" in (err.message or "")
    for call, theirs in zip(calls, (tup, bf16, f64, f32, err, text), strict=True):
        assert_same(here(call), theirs, call.expr)
