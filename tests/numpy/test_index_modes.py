"""``x.at[idx]`` with every ``mode`` against live JAX, bit for bit: each index kind (static,
negative and out-of-bounds ints, slices, index arrays, traced scalars and arrays under ``jit``) x
each operation (``get``, ``set``, ``add``, ``multiply``, ``min``, ``max``, ``apply``, ``power``,
``divide``, ``subtract``) x each mode (default, ``clip``, ``drop``, ``fill``, ``promise_in_bounds``).

JAX's rules, which these pin down: a negative index counts from the end once; reads clamp by
default (and under ``clip``/``promise_in_bounds``) and read ``fill_value`` (NaN, or the dtype's
extreme for integers) under ``drop``/``fill``; updates drop out-of-bounds indices except under
``clip``; ``apply`` runs once per occurrence of a position.
"""

from __future__ import annotations

import pytest

from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

_VECTOR_INDICES = {
    "int": "3",
    "negative": "-2",
    "past the end": "11",
    "before the start": "-12",
    "slice": "8:12",
    "reversed slice": "::-3",
    "array": "np.array([1, 11, -12, -2])",
    "2-d array with repeats": "np.array([[0, 12], [3, -1]])",
}
_TRACED = {"int", "negative", "past the end", "before the start", "array"}
_OPS = {
    "get": "get({mode})",
    "set": "set(100.0{mode})",
    "add": "add(100.0{mode})",
    "subtract": "subtract(1.5{mode})",
    "multiply": "multiply(2.0{mode})",
    "divide": "divide(4.0{mode})",
    "power": "power(2.0{mode})",
    "min": "min(-5.0{mode})",
    "max": "max(50.0{mode})",
    "apply": "apply(jnp.negative{mode})",
}
_MODES = (None, "clip", "drop", "fill", "promise_in_bounds")


def _op(op: str, mode: str | None) -> str:
    if op == "get":
        text = (
            ""
            if mode is None
            else f"mode={mode!r}" + (", fill_value=-1.0" if mode == "fill" else "")
        )
    else:
        text = "" if mode is None else f", mode={mode!r}"
    return _OPS[op].format(mode=text)


def _calls() -> list[Call]:
    calls: list[Call] = []
    for kind, idx in _VECTOR_INDICES.items():
        for op in _OPS:
            for mode in _MODES:
                calls.append(Call(f"jnp.arange(10.0).at[{idx}].{_op(op, mode)}"))
                if kind in _TRACED:
                    calls.append(
                        Call(
                            f"jax.jit(lambda x, i: x.at[i].{_op(op, mode)})(jnp.arange(10.0), {idx})"
                        )
                    )
    matrix = "jnp.arange(12.0).reshape(3, 4)"
    for idx in (
        "1, -1",
        "5, 0",
        "-4, 2",
        ":, 7",
        "np.array([0, 3]), 1",
        "np.array([[2], [-5]]), np.array([0, 4, -1])",
        "..., -5",
        "None, 2",
    ):
        for op in ("get", "set", "add"):
            for mode in _MODES:
                calls.append(Call(f"{matrix}.at[{idx}].{_op(op, mode)}"))
    for dtype in ("jnp.int32", "jnp.uint8", "jnp.bool_"):
        for mode in ("drop", "fill"):
            calls.append(Call(f"jnp.ones(4, {dtype}).at[np.array([0, 9])].get(mode={mode!r})"))
    calls.append(Call("jnp.arange(5.0).at[7].add(100.0, mode='drop')"))  # reported: added to x[4]
    calls.append(
        Call("jnp.arange(10.0).at[11].get(mode='fill', fill_value=jnp.nan)")
    )  # reported: 9.0
    calls.append(
        Call("jax.grad(lambda x: x.at[1].apply(jnp.sin).sum())(jnp.arange(3.0))")
    )  # JAX: not differentiable
    calls.append(Call("jax.vmap(lambda x: x.at[1].apply(jnp.sin))(jnp.ones((2, 3)))"))
    calls.append(
        Call(
            "jax.grad(lambda x: x.at[np.array([1, 5])].add(x[0] * 3, mode='drop').sum())(jnp.arange(3.0))"
        )
    )
    return calls


CALLS = _calls()


live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=[c.expr for c in CALLS])
def test_indexed_update_or_read_bit_identical_to_live_jax(
    call: Call, live: dict[str, Outcome]
) -> None:
    assert_same(here(call), live[call.expr], call.expr)


def test_reported_silent_wrong_results() -> None:
    """Without the oracle too: the two reported cases give JAX's values."""
    import jax_core.numpy as jnp

    assert jnp.arange(5.0).at[7].add(100.0, mode="drop").tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert bool(jnp.isnan(jnp.arange(10.0).at[11].get(mode="fill", fill_value=jnp.nan)))
    assert float(jnp.arange(10.0).at[-12].get(mode="clip")) == 0.0
