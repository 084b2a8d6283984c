"""Slice primitives (jax_core._src.lax.indexing.slicing): values vs NumPy, JAX's errors and jaxpr text.

The expected jaxpr strings were recorded from real JAX 0.12.0.1 for the same programs.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jax_core._src.lax.indexing import slicing as lax
from jax_core._src.runtime.array import device_put_host
from tests.lax._helpers import (
    DTYPES,
    F32,
    I32,
    ErrorCase,
    arange,
    check,
    errors_test,
    jaxpr_text,
)

RECORDED = {
    "slice": "{ lambda ; a:f32[2,3]. let\n    b:f32[2,2] = slice[limit_indices=(2, 3) start_indices=(0, 1) strides=None] a\n    c:f32[2,2] = slice[limit_indices=(2, 3) start_indices=(0, 0) strides=(1, 2)] a\n  in (b, c) }",
    "dynamic_slice": "{ lambda ; a:f32[2,3] b:i32[]. let\n    c:bool[] = lt b 0:i32[]\n    d:i32[] = add b 2:i32[]\n    e:i32[] = select_n c b d\n    f:f32[1,2] = dynamic_slice[slice_sizes=(1, 2)] a e 0:i32[]\n  in (f,) }",
    "dynamic_update_slice": "{ lambda ; a:f32[2,3] b:f32[1,2] c:i32[]. let\n    d:bool[] = lt c 0:i32[]\n    e:i32[] = add c 3:i32[]\n    f:i32[] = select_n d c e\n    g:f32[2,3] = dynamic_update_slice a b 1:i32[] f\n  in (g,) }",
}


# -- slice, dynamic_slice, dynamic_update_slice -------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_slice(dtype: np.dtype[Any]) -> None:
    x = arange((4, 5), dtype)
    check(lax.slice(x, (1, 0), (3, 5)), x[1:3, 0:5])
    check(lax.slice(x, (0, 1), (4, 5), (3, 2)), x[0:4:3, 1:5:2])
    check(lax.slice(device_put_host(x), (2, 2), (2, 4)), x[2:2, 2:4])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_dynamic_slice(dtype: np.dtype[Any]) -> None:
    x = arange((5, 3), dtype)
    check(lax.dynamic_slice(x, (1, 1), (2, 2)), x[1:3, 1:3])
    check(lax.dynamic_slice(x, (-2, 0), (2, 3)), x[3:5])  # negative indices wrap around
    check(lax.dynamic_slice(x, (4, 2), (2, 2)), x[3:5, 1:3])  # XLA clamps into range
    i = device_put_host(np.int32(-1))
    check(lax.dynamic_slice(x, (i, np.int32(0)), (1, 3)), x[4:5])
    check(lax.dynamic_slice(x, np.array([2, 1], np.int32), (1, 1)), x[2:3, 1:2])


def test_dynamic_slice_without_negative_wraparound_clamps() -> None:
    x = arange((5,), F32)
    i = device_put_host(np.int32(-2))
    check(lax.dynamic_slice(x, (i,), (2,), allow_negative_indices=False), x[0:2])
    with pytest.raises(
        ValueError,
        match=re.escape(
            "Index -2 is out of bounds for dimension 5 if allow_negative_indices=False"
        ),
    ):
        lax.dynamic_slice(x, (-2,), (2,), allow_negative_indices=False)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_dynamic_update_slice(dtype: np.dtype[Any]) -> None:
    x = arange((4, 3), dtype)
    u = np.ones((2, 2), dtype)
    expected = x.copy()
    expected[1:3, 1:3] = u
    check(lax.dynamic_update_slice(x, u, (1, 1)), expected)
    expected = x.copy()
    expected[2:4, 0:2] = u
    check(lax.dynamic_update_slice(x, u, (-1, 0)), expected)  # -1 wraps to 3, then clamps to 2
    check(lax.dynamic_update_slice(x, u, (device_put_host(np.int32(2)), np.int32(0))), expected)


# -- errors (JAX's classes and messages) -------------------------------------------------

X = np.ones((2, 3), np.float32)

ERRORS: list[ErrorCase] = [
    (
        "slice_len",
        lambda: lax.slice(X, (0,), (1,)),
        TypeError,
        "slice start_indices must have length equal to the number of dimensions of the operand, got indices (0,) for operand shape (2, 3).",
    ),
    (
        "slice_limit",
        lambda: lax.slice(X, (0, 0), (3, 3)),
        TypeError,
        "slice limit_indices must be less than or equal to operand shape, got limit_indices (3, 3) for operand shape (2, 3).",
    ),
    (
        "slice_start",
        lambda: lax.slice(X, (-1, 0), (1, 3)),
        TypeError,
        "slice start_indices must have every element be nonnegative, got (-1, 0).",
    ),
    (
        "slice_order",
        lambda: lax.slice(X, (2, 0), (1, 3)),
        TypeError,
        "slice limit_indices must be greater than or equal to start_indices, got start_indices (2, 0) and limit_indices (1, 3).",
    ),
    (
        "slice_lens",
        lambda: lax.slice(X, (0, 0), (1,)),
        TypeError,
        "slice limit_indices must have the same length as start_indices, got start_indices (0, 0) and limit_indices (1,).",
    ),
    (
        "slice_strides",
        lambda: lax.slice(X, (0, 0), (2, 3), (1,)),
        TypeError,
        "slice strides must have length equal to the number of dimensions of the operand, got strides (1,) for operand shape (2, 3).",
    ),
    (
        "slice_strides_neg",
        lambda: lax.slice(X, (0, 0), (2, 3), (1, -1)),
        TypeError,
        "slice strides must have every element be nonnegative, got (1, -1).",
    ),
    (
        "dslice_len",
        lambda: lax.dynamic_slice(X, (0,), (1,)),
        ValueError,
        "Length of slice indices must match number of operand dimensions (1 vs (2, 3))",
    ),
    (
        "dslice_size",
        lambda: lax.dynamic_slice(X, (0, 0), (3, 1)),
        TypeError,
        "slice slice_sizes must be less than or equal to operand shape, got slice_sizes (3, 1) for operand shape (2, 3).",
    ),
    (
        "dslice_dtype",
        lambda: lax.dynamic_slice(X, (np.float32(0), 0), (1, 1)),
        TypeError,
        "index arguments to dynamic_slice must be integers of the same type, got: float32, int32",
    ),
    (
        "dus_rank",
        lambda: lax.dynamic_update_slice(X, np.ones(3, np.float32), (0, 0)),
        TypeError,
        "dynamic_update_slice update must have the same rank as operand, got update shape (3,) for operand shape (2, 3).",
    ),
    (
        "dus_shape",
        lambda: lax.dynamic_update_slice(X, np.ones((3, 3), np.float32), (0, 0)),
        TypeError,
        "dynamic_update_slice update shape must be smaller than operand shape, got update shape (3, 3) for operand shape (2, 3).",
    ),
    (
        "dus_dtype",
        lambda: lax.dynamic_update_slice(X, np.ones((1, 3), np.int32), (0, 0)),
        TypeError,
        "lax.dynamic_update_slice requires arguments to have the same dtypes, got float32, int32.",
    ),
    (
        "dus_len",
        lambda: lax.dynamic_update_slice(X, np.ones((1, 3), np.float32), (0,)),
        ValueError,
        "Length of slice indices must match number of operand dimensions (1 vs (2, 3))",
    ),
]


test_errors = errors_test(ERRORS)


# -- jaxpr text (recorded from JAX 0.12) --------------------------------------------------


def test_jaxpr_slice() -> None:
    got = jaxpr_text(
        lambda x: [lax.slice(x, (0, 1), (2, 3)), lax.slice(x, (0, 0), (2, 3), (1, 2))],
        ((2, 3), F32),
    )
    assert got == RECORDED["slice"]


def test_jaxpr_dynamic_slice() -> None:
    got = jaxpr_text(lambda x, i: lax.dynamic_slice(x, (i, 0), (1, 2)), ((2, 3), F32), ((), I32))
    assert got == RECORDED["dynamic_slice"]


def test_jaxpr_dynamic_update_slice() -> None:
    got = jaxpr_text(
        lambda x, u, i: lax.dynamic_update_slice(x, u, (1, i)),
        ((2, 3), F32),
        ((1, 2), F32),
        ((), I32),
    )
    assert got == RECORDED["dynamic_update_slice"]


# -- properties ---------------------------------------------------------------------------


@st.composite
def _slice_case(
    draw: st.DrawFn,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)))
    starts, limits, strides = [], [], []
    for d in shape:
        lo = draw(st.integers(0, d))
        starts.append(lo)
        limits.append(draw(st.integers(lo, d)))
        strides.append(draw(st.integers(1, 3)))
    return shape, tuple(starts), tuple(limits), tuple(strides)


@settings(max_examples=15, deadline=None)
@given(_slice_case())
def test_slice_matches_numpy(
    case: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]],
) -> None:
    shape, starts, limits, strides = case
    x = arange(shape, I32)
    expected = x[tuple(np.s_[s:lim:st_] for s, lim, st_ in zip(starts, limits, strides))]
    check(lax.slice(x, starts, limits, strides), expected)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 6), st.integers(-8, 8), st.data())
def test_dynamic_slice_clamps_like_xla(n: int, start: int, data: st.DataObject) -> None:
    size = data.draw(st.integers(0, n))
    x = arange((n,), F32)
    wrapped = start + n if start < 0 else start
    begin = min(max(wrapped, 0), n - size)
    check(
        lax.dynamic_slice(x, (device_put_host(np.int32(start)),), (size,)), x[begin : begin + size]
    )
