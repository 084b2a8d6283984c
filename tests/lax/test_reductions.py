"""Reductions (jax_core._src.lax.reductions: reduce, cumulative): values vs NumPy, JAX's errors and jaxpr text.

The expected jaxpr strings were recorded from real JAX 0.12.0.1 for the same programs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jax_core._src.core.avals import ShapedArray
from jax_core._src.lax.reductions import cumulative as lax_cumulative
from jax_core._src.lax.reductions import reduce as lax_reduce
from jax_core._src.runtime.array import device_put_host
from jax_core._src.typing.basearray import Array
from tests.lax._helpers import (
    BOOL,
    F32,
    I32,
    U8,
    ErrorCase,
    check,
    errors_test,
    jaxpr_text,
    make_jaxpr,
)


def _values(shape: Sequence[int], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """Small, distinct-ish values (with repeats, to exercise argmin/argmax ties)."""
    n = int(np.prod(shape, dtype=np.int64))
    raw = (np.arange(n) * 7 + 3) % 5
    if dtype == BOOL:
        return (raw % 2 == 1).reshape(shape)
    return np.asarray(raw - (2 if dtype.kind in "if" else 0), dtype).reshape(shape)


def _check(out: Array, expected: np.ndarray[Any, Any]) -> None:
    check(out, expected, rtol=1e-6)


RECORDED = {
    "reduce_sum_max_min": "{ lambda ; a:f32[2,3]. let\n    b:f32[3] = reduce_sum[axes=(0,) out_sharding=None] a\n    c:f32[] = reduce_max[axes=(0, 1) out_sharding=None] a\n    d:f32[2] = reduce_min[axes=(1,) out_sharding=None] a\n  in (b, c, d) }",
    "reduce_prod": "{ lambda ; a:i32[2,3]. let b:i32[2] = reduce_prod[axes=(1,)] a in (b,) }",
    "reduce_logical": "{ lambda ; a:bool[2,3]. let\n    b:bool[2] = reduce_and[axes=(1,)] a\n    c:bool[3] = reduce_or[axes=(0,)] a\n    d:bool[] = reduce_xor[axes=(0, 1)] a\n  in (b, c, d) }",
    "argminmax": "{ lambda ; a:f32[2,3]. let\n    b:i32[2] = argmax[axes=(1,) index_dtype=int32] a\n    c:i32[3] = argmin[axes=(0,) index_dtype=int32] a\n  in (b, c) }",
    "cumulative": "{ lambda ; a:f32[2,3]. let\n    b:f32[2,3] = cumsum[axis=1 reverse=False] a\n    c:f32[2,3] = cumprod[axis=0 reverse=True] a\n    d:f32[2,3] = cummax[axis=1 reverse=False] a\n    e:f32[2,3] = cummin[axis=0 reverse=False] a\n  in (b, c, d, e) }",
}

AXES = [(0,), (1,), (0, 2), (), (0, 1, 2)]


# -- monoid reductions ----------------------------------------------------------------------


@pytest.mark.parametrize("axes", AXES, ids=str)
@pytest.mark.parametrize("dtype", [F32, I32], ids=str)
def test_sum_prod_max_min(dtype: np.dtype[Any], axes: tuple[int, ...]) -> None:
    x = _values((2, 3, 4), dtype)
    _check(lax_reduce.reduce_sum(x, axes), np.sum(x, axes, dtype=dtype))
    _check(lax_reduce.reduce_prod(x, axes), np.prod(x, axes, dtype=dtype))
    _check(lax_reduce.reduce_max(device_put_host(x), axes), np.max(x, axes))
    _check(lax_reduce.reduce_min(x, axes), np.min(x, axes))


@pytest.mark.parametrize("dtype", [BOOL, I32, U8], ids=str)
def test_logical_reductions(dtype: np.dtype[Any]) -> None:
    x = _values((3, 4), dtype)
    if dtype == BOOL:
        _check(lax_reduce.reduce_and(x, (1,)), np.all(x, 1))
        _check(lax_reduce.reduce_or(x, (0,)), np.any(x, 0))
        _check(lax_reduce.reduce_xor(x, (0, 1)), np.asarray(np.logical_xor.reduce(x.ravel())))
    else:
        _check(lax_reduce.reduce_and(x, (1,)), np.bitwise_and.reduce(x, 1))
        _check(lax_reduce.reduce_or(x, (0,)), np.bitwise_or.reduce(x, 0))
        _check(lax_reduce.reduce_xor(x, (0, 1)), np.asarray(np.bitwise_xor.reduce(x.ravel())))


def test_empty_reductions_give_identities() -> None:
    empty_f, empty_i = np.zeros((0, 2), F32), np.zeros((0,), I32)
    _check(lax_reduce.reduce_sum(empty_f, (0,)), np.zeros(2, F32))
    _check(lax_reduce.reduce_prod(empty_f, (0,)), np.ones(2, F32))
    _check(lax_reduce.reduce_max(empty_f, (0,)), np.full(2, -np.inf, F32))
    _check(lax_reduce.reduce_min(empty_f, (0,)), np.full(2, np.inf, F32))
    _check(lax_reduce.reduce_max(empty_i, (0,)), np.asarray(np.iinfo(np.int32).min, I32))
    _check(lax_reduce.reduce_min(empty_i, (0,)), np.asarray(np.iinfo(np.int32).max, I32))
    _check(lax_reduce.reduce_and(empty_i, (0,)), np.asarray(-1, I32))
    _check(lax_reduce.reduce_and(np.zeros((0,), BOOL), (0,)), np.asarray(True))
    _check(lax_reduce.reduce_or(np.zeros((0,), BOOL), (0,)), np.asarray(False))


def test_max_propagates_nan() -> None:
    _check(lax_reduce.reduce_max(np.array([1.0, np.nan, 3.0], F32), (0,)), np.asarray(np.nan, F32))


def test_weak_types_follow_jax() -> None:
    def fun(x: Any, b: Any) -> list[Any]:
        return [
            lax_reduce.reduce_sum(x, (0,)),
            lax_reduce.reduce_max(x, (0,)),
            lax_reduce.argmax(x, 0, np.int32),
            lax_cumulative.cumsum(x),
            lax_reduce.reduce_or(b, (0,)),
        ]

    avals = [ShapedArray((3,), F32, weak_type=True), ShapedArray((3,), I32, weak_type=True)]
    closed = make_jaxpr(fun, *avals)
    assert [a.weak_type for a in closed.out_avals] == [True, True, False, True, False]


# -- argmin / argmax ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [F32, I32, BOOL], ids=str)
def test_argmin_argmax_first_occurrence(dtype: np.dtype[Any]) -> None:
    x = _values((3, 5), dtype)
    for axis in (0, 1):
        _check(lax_reduce.argmax(x, axis, np.int32), np.argmax(x, axis).astype(I32))
        _check(lax_reduce.argmin(x, axis, np.int32), np.argmin(x, axis).astype(I32))


def test_argmax_nan_and_index_dtype() -> None:
    x = np.array([1.0, np.nan, 3.0, np.nan], F32)
    _check(lax_reduce.argmax(x, 0, np.int32), np.asarray(1, I32))
    _check(lax_reduce.argmin(x, 0, np.int32), np.asarray(1, I32))
    _check(lax_reduce.argmax(np.array([3, 1, 3], I32), 0, np.uint8), np.asarray(0, U8))


# -- cumulative reductions ------------------------------------------------------------------


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("dtype", [F32, I32], ids=str)
def test_cumulative(dtype: np.dtype[Any], reverse: bool) -> None:
    x = _values((3, 4), dtype)
    ops: list[tuple[Callable[..., Array], Callable[..., Any]]] = [
        (lax_cumulative.cumsum, np.cumsum),
        (lax_cumulative.cumprod, np.cumprod),
        (lax_cumulative.cummax, np.maximum.accumulate),
        (lax_cumulative.cummin, np.minimum.accumulate),
    ]
    for axis in (0, 1):
        for ours, theirs in ops:
            if reverse:
                expected = np.flip(theirs(np.flip(x, axis), axis=axis), axis)
            else:
                expected = theirs(x, axis=axis)
            _check(ours(x, axis, reverse), np.asarray(expected, dtype))


def test_cumulative_of_empty_axis() -> None:
    _check(lax_cumulative.cumsum(np.zeros((0, 2), F32), 0), np.zeros((0, 2), F32))


# -- errors (JAX's classes and messages) -------------------------------------------------

X = np.ones((2, 3), np.float32)

ERRORS: list[ErrorCase] = [
    (
        "sum_dup",
        lambda: lax_reduce.reduce_sum(X, (0, 0)),
        ValueError,
        "duplicate value in 'axes' of reduction: (0, 0)",
    ),
    (
        "sum_range",
        lambda: lax_reduce.reduce_sum(X, (2,)),
        ValueError,
        "reduction axes (2,) contains out-of-bounds indices for float32[2,3].",
    ),
    (
        "sum_bool",
        lambda: lax_reduce.reduce_sum(X > 0, (0,)),
        TypeError,
        "reduce_sum does not accept dtype bool. Accepted dtypes are subtypes of number.",
    ),
    (
        "prod_bool",
        lambda: lax_reduce.reduce_prod(X > 0, (0,)),
        TypeError,
        "reduce_prod does not accept dtype bool. Accepted dtypes are subtypes of number.",
    ),
    (
        "max_negative_axis",
        lambda: lax_reduce.reduce_max(X, (-1,)),
        ValueError,
        "reduction axes (-1,) contains out-of-bounds indices for float32[2,3].",
    ),
    (
        "and_float",
        lambda: lax_reduce.reduce_and(X, (0,)),
        TypeError,
        "logical reduction requires operand dtype bool or int, got float32.",
    ),
    (
        "argmax_axis",
        lambda: lax_reduce.argmax(X, 2, np.int32),
        ValueError,
        "Invalid axis 2 for operand shape (2, 3)",
    ),
    (
        "argmax_empty",
        lambda: lax_reduce.argmax(np.ones((0, 3), np.float32), 0, np.int32),
        ValueError,
        "argmin and argmax require non-empty reduced dimension. operand.shape=(0, 3) axis=0",
    ),
    (
        "argmax_dtype",
        lambda: lax_reduce.argmax(X, 0, np.float32),
        TypeError,
        "index_dtype must be an integer type, but got float32",
    ),
    (
        "cumsum_axis",
        lambda: lax_cumulative.cumsum(X, 2),
        ValueError,
        "axis 2 is out of bounds for array of shape (2, 3)",
    ),
    (
        "cumsum_negative",
        lambda: lax_cumulative.cumsum(X, -1),
        ValueError,
        "XLA operations do not allow negative axes",
    ),
    (
        "cumsum_bool",
        lambda: lax_cumulative.cumsum(X > 0, 0),
        TypeError,
        "cumsum does not accept dtype bool. Accepted dtypes are subtypes of number.",
    ),
]


test_errors = errors_test(ERRORS)


# -- jaxpr text (recorded from JAX 0.12) --------------------------------------------------


def test_jaxpr_sum_max_min() -> None:
    got = jaxpr_text(
        lambda x: [lax_reduce.reduce_sum(x, (0,)), lax_reduce.reduce_max(x, (0, 1)), lax_reduce.reduce_min(x, (1,))],
        ((2, 3), F32),
    )
    assert got == RECORDED["reduce_sum_max_min"]


def test_jaxpr_prod() -> None:
    assert jaxpr_text(lambda x: lax_reduce.reduce_prod(x, (1,)), ((2, 3), I32)) == RECORDED["reduce_prod"]


def test_jaxpr_logical() -> None:
    got = jaxpr_text(
        lambda x: [lax_reduce.reduce_and(x, (1,)), lax_reduce.reduce_or(x, (0,)), lax_reduce.reduce_xor(x, (0, 1))],
        ((2, 3), BOOL),
    )
    assert got == RECORDED["reduce_logical"]


def test_jaxpr_argminmax() -> None:
    got = jaxpr_text(
        lambda x: [lax_reduce.argmax(x, 1, np.int32), lax_reduce.argmin(x, 0, np.int32)], ((2, 3), F32)
    )
    assert got == RECORDED["argminmax"]


def test_jaxpr_cumulative() -> None:
    got = jaxpr_text(
        lambda x: [
            lax_cumulative.cumsum(x, 1),
            lax_cumulative.cumprod(x, 0, reverse=True),
            lax_cumulative.cummax(x, 1),
            lax_cumulative.cummin(x, 0),
        ],
        ((2, 3), F32),
    )
    assert got == RECORDED["cumulative"]


# -- properties ---------------------------------------------------------------------------


@st.composite
def _shape_and_axes(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    axes = tuple(sorted(draw(st.sets(st.integers(0, len(shape) - 1)))))
    return shape, axes


@settings(max_examples=15, deadline=None)
@given(_shape_and_axes())
def test_reductions_match_numpy(case: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    shape, axes = case
    x = _values(shape, I32)
    _check(lax_reduce.reduce_sum(x, axes), np.sum(x, axes, dtype=I32))
    _check(lax_reduce.reduce_max(x, axes), np.max(x, axes))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.data())
def test_cumsum_matches_numpy(shape: list[int], data: st.DataObject) -> None:
    axis = data.draw(st.integers(0, len(shape) - 1))
    x = _values(shape, I32)
    _check(lax_cumulative.cumsum(x, axis), np.cumsum(x, axis, dtype=I32))
