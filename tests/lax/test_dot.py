"""dot_general and dot (jax_core._src.lax.linalg.dot): values vs NumPy, JAX's errors and jaxpr text.

The expected jaxpr strings were recorded from real JAX 0.12.0.1 for the same programs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jax_core._src.typing.basearray import Array
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lax.linalg import dot as lax
from jax_core._src.runtime.array import device_put_host
from tests.lax._helpers import (
    BOOL,
    F16,
    F32,
    I8,
    I32,
    ErrorCase,
    check,
    errors_test,
    jaxpr_text,
    make_jaxpr,
)

MATMUL = (((1,), (0,)), ((), ()))


def _values(shape: Sequence[int], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    n = int(np.prod(shape, dtype=np.int64))
    raw = (np.arange(n) * 5 + 1) % 7 - 3
    return (raw > 0).reshape(shape) if dtype == BOOL else np.asarray(raw, dtype).reshape(shape)


def _check(out: Array, expected: np.ndarray[Any, Any]) -> None:
    check(out, expected, rtol=1e-5)


RECORDED = {
    "dot_general": "{ lambda ; a:f32[2,3] b:f32[3,2]. let\n    c:f32[2,2] = dot_general[dimension_numbers=(([1], [0]), ([], []))] a b\n  in (c,) }",
    "dot_batch": "{ lambda ; a:f32[2,3,4] b:f32[2,4,5]. let\n    c:f32[2,3,5] = dot_general[dimension_numbers=(([2], [1]), ([0], [0]))] a b\n  in (c,) }",
    "dot_options": "{ lambda ; a:f32[2,3] b:f32[3]. let\n    c:f32[2] = dot_general[\n      dimension_numbers=(([1], [0]), ([], []))\n      precision=(Precision.HIGHEST, Precision.HIGHEST)\n      preferred_element_type=float32\n    ] a b\n  in (c,) }",
    "dot_int_pref": "{ lambda ; a:i8[2,3] b:i8[3,2]. let\n    c:i32[2,2] = dot_general[\n      dimension_numbers=(([1], [0]), ([], []))\n      preferred_element_type=int32\n    ] a b\n  in (c,) }",
}


# -- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [F32, I32, BOOL], ids=str)
def test_matmul_matvec_vecvec(dtype: np.dtype[Any]) -> None:
    a, b, v = _values((2, 3), dtype), _values((3, 4), dtype), _values((3,), dtype)
    if dtype == BOOL:
        matmul: Callable[[Any, Any], Any] = lambda p, q: (
            (p.astype(np.int32) @ q.astype(np.int32)) > 0
        )
    else:
        matmul = np.matmul
    _check(lax.dot(a, b), np.asarray(matmul(a, b), dtype))
    _check(lax.dot(device_put_host(a), v), np.asarray(matmul(a, v), dtype))
    _check(lax.dot(v, v), np.asarray(matmul(v, v), dtype))
    _check(lax.dot_general(a, b, MATMUL), np.asarray(matmul(a, b), dtype))


def test_batch_and_multiple_contracting_dims() -> None:
    x, y = _values((2, 3, 4), F32), _values((2, 4, 5), F32)
    _check(lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))), np.einsum("bij,bjk->bik", x, y))
    p, q = _values((3, 4, 5), F32), _values((5, 4, 2), F32)
    _check(lax.dot_general(p, q, (((1, 2), (1, 0)), ((), ()))), np.einsum("ijk,kjl->il", p, q))
    _check(lax.dot_general(p, p, (((), ()), ((0,), (0,)))), np.einsum("bij,bkl->bijkl", p, p))


def test_mixed_dtypes_promote_like_xla() -> None:
    a, b = _values((2, 3), F32), _values((3, 2), I32)
    _check(lax.dot(a, b), a @ b.astype(F32))
    h, m = _values((2, 3), F16), _values((3, 2), BOOL)
    _check(lax.dot(h, m), h @ m.astype(F16))


def test_preferred_element_type() -> None:
    a, b = _values((2, 3), I8), _values((3, 2), I8)
    _check(lax.dot(a, b, preferred_element_type=np.int32), a.astype(I32) @ b.astype(I32))
    _check(
        lax.dot_general(
            _values((2, 3), F16), _values((3,), F16), MATMUL, preferred_element_type=np.float32
        ),
        _values((2, 3), F32) @ _values((3,), F32),
    )


def test_precision_is_accepted_and_canonicalized() -> None:
    a, b = _values((2, 3), F32), _values((3, 2), F32)
    for precision in (
        "highest",
        lax.Precision.HIGH,
        ("bfloat16", "float32"),
        (lax.Precision.DEFAULT, lax.Precision.HIGHEST),
    ):
        _check(lax.dot(a, b, precision=precision), a @ b)
    assert lax.canonicalize_precision("fastest") == (lax.Precision.DEFAULT, lax.Precision.DEFAULT)
    assert lax.canonicalize_precision(("high", "highest")) == (
        lax.Precision.HIGH,
        lax.Precision.HIGHEST,
    )
    assert lax.canonicalize_precision(None) is None
    assert lax.Precision("tensorfloat32") is lax.Precision.HIGH
    assert (
        repr(lax.Precision.HIGHEST) == "Precision.HIGHEST"
        and str(lax.Precision.HIGHEST) == "HIGHEST"
    )


def test_params_match_jax() -> None:
    def fun(a: Any, b: Any) -> list[Any]:
        return [lax.dot(a, b, precision="highest", preferred_element_type=np.float32)]

    closed = make_jaxpr(fun, ((2, 3), F32), ((3,), F32))
    (eqn,) = closed.eqns
    assert eqn.primitive.name == "dot_general"
    assert eqn.params == {
        "dimension_numbers": (((1,), (0,)), ((), ())),
        "precision": (lax.Precision.HIGHEST, lax.Precision.HIGHEST),
        "preferred_element_type": F32,
    }


def test_weak_type_needs_both_operands_weak() -> None:
    weak, strong = ShapedArray((2, 2), F32, weak_type=True), ShapedArray((2, 2), F32)
    closed = make_jaxpr(lambda a, b: [lax.dot(a, a), lax.dot(a, b)], weak, strong)
    assert [a.weak_type for a in closed.out_avals] == [True, False]


# -- errors (JAX's classes and messages) -------------------------------------------------

X = np.ones((2, 3), np.float32)

ERRORS: list[ErrorCase] = [
    (
        "contract_shape",
        lambda: lax.dot_general(X, np.ones((4, 2), np.float32), MATMUL),
        TypeError,
        "dot_general requires contracting dimensions to have the same shape, got (3,) and (4,).",
    ),
    (
        "lhs_range",
        lambda: lax.dot_general(X, X, (((2,), (1,)), ((), ()))),
        TypeError,
        "dot_general requires lhs dimension numbers to be nonnegative and less than the number of axes of the lhs value, got lhs_batch of () and lhs_contracting of (2,) for lhs of rank 2",
    ),
    (
        "rhs_range",
        lambda: lax.dot_general(X, X, (((1,), (2,)), ((), ()))),
        TypeError,
        "dot_general requires rhs dimension numbers to be nonnegative and less than the number of axes of the rhs value, got rhs_batch of () and rhs_contracting of (2,) for rhs of rank 2",
    ),
    (
        "batch_len",
        lambda: lax.dot_general(X, X, (((1,), (1,)), ((0,), ()))),
        TypeError,
        "dot_general requires equal numbers of lhs_batch and rhs_batch dimensions, got lhs_batch (0,) and rhs_batch ().",
    ),
    (
        "batch_shape",
        lambda: lax.dot_general(
            np.ones((2, 3, 4), np.float32),
            np.ones((3, 4, 2), np.float32),
            (((2,), (1,)), ((0,), (0,))),
        ),
        TypeError,
        "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same shape, got (2,) and (3,).",
    ),
    (
        "disjoint",
        lambda: lax.dot_general(X, X, (((0,), (0,)), ((0,), (0,)))),
        TypeError,
        "dot_general requires lhs batch dimensions to be disjoint from contracting dimensions, got lhs_batch (0,) and lhs_contracting (0,).",
    ),
    (
        "distinct",
        lambda: lax.dot_general(X, X, (((1, 1), (1, 1)), ((), ()))),
        TypeError,
        "dot_general requires lhs contracting dimensions to be distinct, got lhs_contracting (1, 1).",
    ),
    (
        "ndim",
        lambda: lax.dot(np.ones((2, 3, 4), np.float32), np.ones((4, 2), np.float32)),
        ValueError,
        "jax.lax.dot: dimension_numbers must be specified when not performing simple un-batched matrix-matrix, matrix-vector, or vector-vector products; got lhs_shape=(2, 3, 4) rhs_shape=(4, 2)",
    ),
    (
        "narrow_pref",
        lambda: lax.dot(
            np.ones((2, 3), np.int32), np.ones((3, 2), np.int32), preferred_element_type=np.int8
        ),
        TypeError,
        "`preferred_element_type` must not be narrower than the original type, got preferred_element_type of int8 for result type of int32.",
    ),
    (
        "bad_precision",
        lambda: lax.dot(X, X.T, precision="bogus"),
        ValueError,
        "Precision argument must be one of:\n- None,\n- a string in ['highest', 'float32', 'high', 'bfloat16_3x', 'tensorfloat32', 'default', 'bfloat16', 'fastest', None],\n- a lax.Precision value,\n- a tuple of two lax.Precision values or strings,\n- a lax.DotAlgorithmPreset or the name of one of these presets, or\n- a lax.DotAlgorithm value;\nbut got bogus.",
    ),
]


test_errors = errors_test(ERRORS)


# -- jaxpr text (recorded from JAX 0.12) --------------------------------------------------


def test_jaxpr_dot_general() -> None:
    assert (
        jaxpr_text(lambda a, b: lax.dot_general(a, b, MATMUL), ((2, 3), F32), ((3, 2), F32))
        == RECORDED["dot_general"]
    )


def test_jaxpr_dot_batch() -> None:
    got = jaxpr_text(
        lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
        ((2, 3, 4), F32),
        ((2, 4, 5), F32),
    )
    assert got == RECORDED["dot_batch"]


def test_jaxpr_dot_options() -> None:
    got = jaxpr_text(
        lambda a, b: lax.dot(
            a, b, precision=lax.Precision.HIGHEST, preferred_element_type=np.float32
        ),
        ((2, 3), F32),
        ((3,), F32),
    )
    assert got == RECORDED["dot_options"]


def test_jaxpr_dot_int_preferred() -> None:
    got = jaxpr_text(
        lambda a, b: lax.dot(a, b, preferred_element_type=np.int32), ((2, 3), I8), ((3, 2), I8)
    )
    assert got == RECORDED["dot_int_pref"]


# -- properties ---------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(0, 4), st.integers(1, 4))
def test_batched_matmul_matches_einsum(b: int, m: int, k: int, n: int) -> None:
    x, y = _values((b, m, k), I32), _values((b, k, n), I32)
    _check(
        lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))),
        np.einsum("bmk,bkn->bmn", x, y).astype(I32),
    )
