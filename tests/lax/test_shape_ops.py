"""Shape primitives (jax_core._src.lax.shape.shape_ops): values vs NumPy, JAX's errors and jaxpr text.

The expected jaxpr strings were recorded from real JAX 0.12.0.1 for the same programs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jax_core._src.core.avals import ShapedArray
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.runtime.array import device_put_host
from tests.lax._helpers import (
    BOOL,
    DTYPES,
    F32,
    I32,
    ErrorCase,
    arange,
    check,
    errors_test,
    jaxpr_text,
    make_jaxpr,
)

RECORDED = {
    "broadcast_in_dim": "{ lambda ; a:f32[2,3]. let\n    b:f32[4,2,3] = broadcast_in_dim[broadcast_dimensions=(1, 2)] a\n  in (b,) }",
    "broadcast_scalar": "{ lambda ; a:f32[]. let b:f32[2,3] = broadcast_in_dim a in (b,) }",
    "broadcast": "{ lambda ; a:i32[3]. let\n    b:i32[4,3] = broadcast_in_dim[broadcast_dimensions=(1,)] a\n  in (b,) }",
    "expand_dims": "{ lambda ; a:f32[2,3]. let\n    b:f32[1,2,1,3] = broadcast_in_dim[broadcast_dimensions=(1, 3)] a\n  in (b,) }",
    "reshape": "{ lambda ; a:f32[2,3]. let\n    b:f32[3,2] = reshape[dimensions=None new_sizes=(3, 2) sharding=None] a\n    c:f32[6] = reshape[dimensions=(1, 0) new_sizes=(6,) sharding=None] a\n  in (b, c) }",
    "transpose": "{ lambda ; a:bool[2,3]. let\n    b:bool[3,2] = transpose[permutation=(1, 0)] a\n  in (b,) }",
    "squeeze": "{ lambda ; a:bool[1,3,1]. let b:bool[3] = squeeze[dimensions=(0, 2)] a in (b,) }",
    "concatenate": "{ lambda ; a:f32[2,3] b:f32[2,1]. let\n    c:f32[2,7] = concatenate[dimension=1] a b a\n  in (c,) }",
    "pad": "{ lambda ; a:f32[2,3]. let\n    b:f32[5,4] = pad[padding_config=((1, 2, 0), (0, -1, 1))] a 0.0:f32[]\n  in (b,) }",
    "pad_operand": "{ lambda ; a:i32[3] b:i32[]. let\n    c:i32[4] = pad[padding_config=((1, 0, 0),)] a b\n  in (c,) }",
    "rev": "{ lambda ; a:f32[2,3]. let b:f32[2,3] = rev[dimensions=(0, 1)] a in (b,) }",
    "iota": "{ lambda ; . let\n    a:i32[5] = iota[dimension=0 dtype=int32 shape=(5,) sharding=None] \n    b:f32[2,3] = iota[dimension=1 dtype=float32 shape=(2, 3) sharding=None] \n  in (a, b) }",
}


# -- values -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_broadcast_in_dim(dtype: np.dtype[Any]) -> None:
    x = arange((2, 1), dtype)
    check(shape_dims.broadcast_in_dim(x, (4, 2, 3), (1, 2)), np.broadcast_to(x, (4, 2, 3)))
    check(shape_dims.broadcast_in_dim(device_put_host(x), (2, 3), (0, 1)), np.broadcast_to(x, (2, 3)))


def test_broadcast_in_dim_scalar_to_scalar_returns_the_array() -> None:
    x = device_put_host(np.float32(3.0))
    assert shape_dims.broadcast_in_dim(x, (), ()) is x


def test_broadcast_and_broadcast_to_rank() -> None:
    x = arange((3,), I32)
    check(shape_dims.broadcast(x, (2, 4)), np.broadcast_to(x, (2, 4, 3)))
    check(shape_dims.broadcast(x, ()), x)
    check(shape_dims.broadcast_to_rank(x, 3), x.reshape(1, 1, 3))
    check(shape_dims.broadcast_to_rank(x, 1), x)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_expand_dims(dtype: np.dtype[Any]) -> None:
    x = arange((2, 3), dtype)
    check(shape_dims.expand_dims(x, (0, 2)), x.reshape(1, 2, 1, 3))
    check(shape_dims.expand_dims(x, (-1,)), x[..., None])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_reshape(dtype: np.dtype[Any]) -> None:
    x = arange((2, 3), dtype)
    check(shape_dims.reshape(x, (3, 2)), x.reshape(3, 2))
    check(shape_dims.reshape(x, (6,), (1, 0)), x.T.reshape(6))
    check(shape_dims.reshape(x, 6), x.reshape(6))


def test_reshape_to_same_shape_returns_the_array() -> None:
    x = device_put_host(arange((2, 3), F32))
    assert shape_dims.reshape(x, (2, 3)) is x


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_transpose(dtype: np.dtype[Any]) -> None:
    x = arange((2, 3, 4), dtype)
    check(shape_dims.transpose(x, (2, 0, 1)), x.transpose(2, 0, 1))
    check(shape_dims.transpose(x, np.array([1, 0, 2])), x.transpose(1, 0, 2))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_squeeze(dtype: np.dtype[Any]) -> None:
    x = arange((1, 3, 1), dtype)
    check(shape_dims.squeeze(x, (0, -1)), x.reshape(3))
    check(shape_dims.squeeze(x, (2,)), x.reshape(1, 3))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_concatenate(dtype: np.dtype[Any]) -> None:
    x, y = arange((2, 3), dtype), arange((2, 1), dtype)
    check(shape_assembly.concatenate([x, y, x], 1), np.concatenate([x, y, x], 1))
    check(shape_assembly.concatenate([x, x], 0), np.concatenate([x, x], 0))
    single = device_put_host(x)
    assert shape_assembly.concatenate([single], 0) is single


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_pad(dtype: np.dtype[Any]) -> None:
    x = arange((2, 3), dtype)
    value = np.ones((), dtype)
    out = np.asarray(shape_assembly.pad(x, value, [(1, 2, 0), (0, -1, 1)]))
    expected = np.full((5, 4), value)
    expected[1:3, 0:5:2] = x[:, :2]
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == dtype


def test_pad_with_python_scalar_and_empty_operand() -> None:
    check(shape_assembly.pad(np.zeros((0,), F32), 2.0, [(1, 1, 3)]), np.full((2,), 2.0, F32))
    check(shape_assembly.pad(arange((3,), F32), -1.0, [(-1, 0, 1)]), np.array([-1, 1, -1, 2], F32))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_rev(dtype: np.dtype[Any]) -> None:
    x = arange((2, 3), dtype)
    check(shape_assembly.rev(x, (0, 1)), x[::-1, ::-1])
    check(shape_assembly.rev(x, (1,)), x[:, ::-1])
    check(shape_assembly.rev(x, ()), x)


def test_iota() -> None:
    check(shape_assembly.iota(np.int32, 5), np.arange(5, dtype=np.int32))
    check(shape_assembly.iota(np.float32, 0), np.zeros((0,), np.float32))
    check(
        shape_assembly.broadcasted_iota(np.float32, (2, 3), 1),
        np.broadcast_to(np.arange(3, dtype=np.float32), (2, 3)),
    )
    check(
        shape_assembly.broadcasted_iota("uint8", (2, 3), 0),
        np.broadcast_to(np.arange(2, dtype=np.uint8)[:, None], (2, 3)),
    )


def test_weak_types_follow_jax() -> None:
    def fun(x: Any, v: Any) -> list[Any]:
        y = shape_dims.reshape(x, (1,))
        return [
            y,
            shape_assembly.pad(y, v, [(1, 1, 0)]),
            shape_assembly.pad(y, 1.0, [(1, 1, 0)]),
            shape_assembly.iota(np.float32, 2),
        ]

    closed = make_jaxpr(fun, ShapedArray((), F32, weak_type=True), ShapedArray((), F32))
    assert [a.weak_type for a in closed.out_avals] == [True, False, True, False]


# -- errors (JAX's classes and messages) -------------------------------------------------

X = np.ones((2, 3), np.float32)

ERRORS: list[ErrorCase] = [
    (
        "bid_len",
        lambda: shape_dims.broadcast_in_dim(X, (2, 3), (0,)),
        TypeError,
        "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; got broadcast_dimensions (0,) for operand ndim 2.",
    ),
    (
        "bid_rank",
        lambda: shape_dims.broadcast_in_dim(X, (3,), (0, 1)),
        TypeError,
        "broadcast_in_dim target broadcast shape must have equal or higher rank to the operand shape; got operand ndim 2 and target broadcast ndim 1.",
    ),
    (
        "bid_subset",
        lambda: shape_dims.broadcast_in_dim(X, (2, 3), (0, 2)),
        TypeError,
        "broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, got (0, 2) for operand ndim 2 and shape (2, 3).",
    ),
    (
        "bid_size",
        lambda: shape_dims.broadcast_in_dim(X, (4, 3), (0, 1)),
        TypeError,
        "broadcast_in_dim operand dimension sizes must either be 1, or be equal to their corresponding dimensions in the target broadcast shape; got operand of shape (2, 3), target broadcast shape (4, 3), broadcast_dimensions (0, 1) ",
    ),
    (
        "bid_dup",
        lambda: shape_dims.broadcast_in_dim(np.ones((1, 1), np.float32), (3, 4), (1, 1)),
        TypeError,
        "broadcast_in_dim broadcast_dimensions must not contain duplicates, got broadcast_dimensions (1, 1)",
    ),
    (
        "bid_neg",
        lambda: shape_dims.broadcast_in_dim(X, (2, -3), (0, 1)),
        TypeError,
        "broadcast_in_dim shape must have every element be nonnegative, got (2, -3).",
    ),
    (
        "reshape_neg",
        lambda: shape_dims.reshape(X, (-1, 6)),
        TypeError,
        "reshape new_sizes must all be positive, got (-1, 6).",
    ),
    (
        "reshape_dims",
        lambda: shape_dims.reshape(X, (3, 2), (0, 0)),
        TypeError,
        "reshape dimensions must be a permutation of operand dimensions, got dimensions (0, 0) for shape (2, 3).",
    ),
    (
        "reshape_size",
        lambda: shape_dims.reshape(X, (4,)),
        TypeError,
        "reshape total size must be unchanged, got new_sizes (4,) (of total size 4) for shape (2, 3) (of total size 6).",
    ),
    (
        "reshape_float",
        lambda: shape_dims.reshape(X, (2.0, 3)),
        TypeError,  # type: ignore[arg-type]
        "Shapes must be 1D sequences of concrete values of integer type, got (2.0, 3).",
    ),
    (
        "transpose_perm",
        lambda: shape_dims.transpose(X, (0, 0)),
        TypeError,
        "transpose permutation isn't a permutation of operand dimensions, got permutation (0, 0) for operand shape (2, 3).",
    ),
    (
        "squeeze_size",
        lambda: shape_dims.squeeze(X, (0,)),
        ValueError,
        "cannot select an axis to squeeze out which has size not equal to one, got shape=(2, 3) and dimensions=(0,)",
    ),
    (
        "squeeze_range",
        lambda: shape_dims.squeeze(X, (2,)),
        ValueError,
        "axis 2 is out of bounds for array of dimension 2",
    ),
    (
        "squeeze_dup",
        lambda: shape_dims.squeeze(np.ones((1, 3)), (0, 0)),
        ValueError,
        "dimensions are not unique: (0, 0)",
    ),
    (
        "expand_dup",
        lambda: shape_dims.expand_dims(X, (0, 0)),
        ValueError,
        "repeated axis in lax.expand_dims: (0, 0)",
    ),
    (
        "expand_range",
        lambda: shape_dims.expand_dims(X, (5,)),
        ValueError,
        "axis 5 is out of bounds for array of dimension 3",
    ),
    (
        "concat_empty",
        lambda: shape_assembly.concatenate([], 0),
        ValueError,
        "concatenate requires a non-empty sequences of arrays",
    ),
    (
        "concat_rank",
        lambda: shape_assembly.concatenate([X, np.ones(3, np.float32)], 0),
        TypeError,
        "Cannot concatenate arrays with different numbers of dimensions: got (2, 3), (3,).",
    ),
    (
        "concat_dim",
        lambda: shape_assembly.concatenate([X, X], 2),
        TypeError,
        "concatenate dimension out of bounds: dimension 2 for shapes (2, 3), (2, 3).",
    ),
    (
        "concat_shape",
        lambda: shape_assembly.concatenate([X, np.ones((2, 4), np.float32)], 0),
        TypeError,
        "Cannot concatenate arrays with shapes that differ in dimensions other than the one being concatenated: concatenating along dimension 0 for shapes (2, 3), (2, 4).",
    ),
    (
        "concat_dtype",
        lambda: shape_assembly.concatenate([X, np.ones((2, 3), np.int32)], 0),
        TypeError,
        "lax.concatenate requires arguments to have the same dtypes, got float32, int32. (Tip: jnp.concatenate is a similar function that does automatic type promotion on inputs).",
    ),
    (
        "pad_dtype",
        lambda: shape_assembly.pad(X, np.int32(0), [(0, 0, 0), (0, 0, 0)]),
        TypeError,
        "pad operand and padding_value must be same dtype: got float32 and int32.",
    ),
    (
        "pad_len",
        lambda: shape_assembly.pad(X, 0.0, [(0, 0, 0)]),
        ValueError,
        "length of padding_config must equal the number of axes of operand, got padding_config ((0, 0, 0),) for operand shape (2, 3)",
    ),
    (
        "pad_interior",
        lambda: shape_assembly.pad(X, 0.0, [(0, 0, -1), (0, 0, 0)]),
        ValueError,
        "interior padding in padding_config must be nonnegative, got padding_config ((0, 0, -1), (0, 0, 0))",
    ),
    (
        "pad_neg",
        lambda: shape_assembly.pad(X, 0.0, [(-3, 0, 0), (0, 0, 0)]),
        ValueError,
        "Dimension size after padding is not at least 0, got result shape (-1, 3), for padding_config ((-3, 0, 0), (0, 0, 0)) and operand shape (2, 3)",
    ),
    (
        "pad_nonscalar",
        lambda: shape_assembly.pad(X, np.zeros(2, np.float32), [(0, 0, 0), (0, 0, 0)]),
        ValueError,
        "padding_value must be a scalar; got np.shape(padding_value)=(2,)",
    ),
    (
        "rev_dup",
        lambda: shape_assembly.rev(X, (0, 0)),
        TypeError,
        "rev dimensions must be unique, got (0, 0).",
    ),
    (
        "rev_range",
        lambda: shape_assembly.rev(X, (2,)),
        TypeError,
        "rev dimensions must all be less than operand ndim, got dimensions (2,) for operand ndim 2.",
    ),
    (
        "iota_dtype",
        lambda: shape_assembly.iota(np.bool_, 3),
        TypeError,
        "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, complexfloating, floating.",
    ),
    (
        "iota_dim",
        lambda: shape_assembly.broadcasted_iota(np.int32, (2, 3), 2),
        ValueError,
        "iota dimension must be between 0 and len(shape), got dimension=2 for shape=(2, 3)",
    ),
]


test_errors = errors_test(ERRORS)


# -- jaxpr text (recorded from JAX 0.12) --------------------------------------------------


def test_jaxpr_reshape() -> None:
    got = jaxpr_text(
        lambda x: [shape_dims.reshape(x, (3, 2)), shape_dims.reshape(x, (6,), (1, 0))], ((2, 3), F32)
    )
    assert got == RECORDED["reshape"]


def test_jaxpr_transpose() -> None:
    assert jaxpr_text(lambda x: shape_dims.transpose(x, (1, 0)), ((2, 3), BOOL)) == RECORDED["transpose"]


def test_jaxpr_squeeze() -> None:
    assert jaxpr_text(lambda x: shape_dims.squeeze(x, (0, -1)), ((1, 3, 1), BOOL)) == RECORDED["squeeze"]


def test_jaxpr_concatenate() -> None:
    got = jaxpr_text(lambda x, y: shape_assembly.concatenate([x, y, x], 1), ((2, 3), F32), ((2, 1), F32))
    assert got == RECORDED["concatenate"]


def test_jaxpr_pad() -> None:
    assert (
        jaxpr_text(lambda x: shape_assembly.pad(x, 0.0, [(1, 2, 0), (0, -1, 1)]), ((2, 3), F32))
        == RECORDED["pad"]
    )
    got = jaxpr_text(lambda x, v: shape_assembly.pad(x, v, [(1, 0, 0)]), ((3,), I32), ((), I32))
    assert got == RECORDED["pad_operand"]


def test_jaxpr_rev() -> None:
    assert jaxpr_text(lambda x: shape_assembly.rev(x, (0, 1)), ((2, 3), F32)) == RECORDED["rev"]


def test_jaxpr_iota() -> None:
    got = jaxpr_text(lambda: [shape_assembly.iota(np.int32, 5), shape_assembly.broadcasted_iota(np.float32, (2, 3), 1)])
    assert got == RECORDED["iota"]


def test_jaxpr_broadcast_in_dim() -> None:
    assert (
        jaxpr_text(lambda x: shape_dims.broadcast_in_dim(x, (4, 2, 3), (1, 2)), ((2, 3), F32))
        == RECORDED["broadcast_in_dim"]
    )


def test_jaxpr_broadcast_scalar() -> None:
    assert (
        jaxpr_text(lambda x: shape_dims.broadcast_in_dim(x, (2, 3), ()), ((), F32))
        == RECORDED["broadcast_scalar"]
    )


def test_jaxpr_broadcast() -> None:
    assert jaxpr_text(lambda x: shape_dims.broadcast(x, (4,)), ((3,), I32)) == RECORDED["broadcast"]


def test_jaxpr_expand_dims() -> None:
    assert (
        jaxpr_text(lambda x: shape_dims.expand_dims(x, (0, 2)), ((2, 3), F32)) == RECORDED["expand_dims"]
    )


def test_broadcast_in_dim_params_match_jax() -> None:
    closed = make_jaxpr(lambda x: shape_dims.broadcast_in_dim(x, (4, 2, 3), (1, 2)), ((2, 3), F32))
    (eqn,) = closed.eqns
    assert eqn.primitive.name == "broadcast_in_dim"
    assert eqn.params == {"shape": (4, 2, 3), "broadcast_dimensions": (1, 2)}


# -- properties ---------------------------------------------------------------------------


@st.composite
def _shape_and_perm(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=1, max_size=3)))
    perm = tuple(draw(st.permutations(range(len(shape)))))
    return shape, perm


@settings(max_examples=15, deadline=None)
@given(_shape_and_perm())
def test_transpose_matches_numpy(case: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    shape, perm = case
    x = arange(shape, F32)
    check(shape_dims.transpose(x, perm), np.transpose(x, perm))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.data())
def test_concatenate_and_rev_match_numpy(shape: list[int], data: st.DataObject) -> None:
    axis = data.draw(st.integers(0, len(shape) - 1))
    x = arange(shape, I32)
    check(shape_assembly.concatenate([x, x + 1], axis), np.concatenate([x, x + 1], axis))
    check(shape_assembly.rev(x, (axis,)), np.flip(x, axis))
