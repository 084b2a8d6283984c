"""Differential tests against NumPy on hypothesis-generated shapes and dtypes.

Dtypes: float32, int32, bool, complex64 (and float64/int64 under x64). Shapes have rank 0-3
with sizes 0-4, so empty arrays and scalars are exercised. Each property draws a small number
of examples (the suite stays fast); the functions run eagerly through their jitted paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jax_core.numpy as jnp
from jax_core._src.config import enable_x64

SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
DTYPES = [np.float32, np.int32, np.bool_, np.complex64]

shapes = st.lists(st.integers(0, 4), min_size=0, max_size=3).map(tuple)


def _values(shape: tuple[int, ...], dtype: Any, seed: int) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-9, 10, shape).astype(dtype)
    out = rng.uniform(-3, 3, shape)
    if np.issubdtype(dtype, np.complexfloating):
        out = out + 1j * rng.uniform(-3, 3, shape)
    return out.astype(dtype)


@st.composite
def arrays(draw: st.DrawFn, dtypes: list[Any] = DTYPES) -> np.ndarray[Any, Any]:
    shape = draw(shapes)
    dtype = draw(st.sampled_from(dtypes))
    return _values(shape, dtype, draw(st.integers(0, 2**16)))


def _check(got: Any, want: Any, rtol: float = 2e-5) -> None:
    want = np.asarray(want)
    got = np.asarray(got)
    assert got.shape == want.shape, (got.shape, want.shape)
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-5, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def _jax_dtype(x: np.ndarray[Any, Any]) -> np.dtype[Any]:
    return x.dtype  # 32-bit inputs keep their dtype in jax_core and NumPy alike


UNARY: list[tuple[str, Callable[..., Any]]] = [
    ("negative", np.negative), ("abs", np.abs), ("square", np.square), ("sign", np.sign), ("exp", np.exp), ("sin", np.sin),
    ("tanh", np.tanh), ("isfinite", np.isfinite), ("isnan", np.isnan), ("real", np.real), ("conj", np.conj),
    ("logical_not", np.logical_not), ("ravel", np.ravel), ("cumsum", np.cumsum),
]


@pytest.mark.parametrize("name,ref", UNARY, ids=[u[0] for u in UNARY])
@SETTINGS
@given(x=arrays())
def test_unary(name: str, ref: Callable[..., Any], x: np.ndarray[Any, Any]) -> None:
    if x.dtype == np.bool_ and name in ("negative", "sign", "square", "cumsum", "abs"):
        return  # NumPy rejects or promotes differently for bools
    if name in ("exp", "sin", "tanh") and x.dtype.kind in "bi":
        want = ref(x.astype(np.float32))
    elif name == "cumsum" and x.dtype == np.int32:
        want = ref(x).astype(np.int32)
    else:
        want = ref(x)
    _check(getattr(jnp, name)(jnp.asarray(x)), want, 1e-4)


BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "equal", "less", "logical_and", "bitwise_or"]


def _broadcastable(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = draw(shapes)
    other = tuple(draw(st.sampled_from([d, 1])) for d in shape[draw(st.integers(0, len(shape))) :])
    return shape, other


@st.composite
def array_pairs(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    s1, s2 = _broadcastable(draw)
    if draw(st.booleans()):
        s1, s2 = s2, s1
    dtype = draw(st.sampled_from(DTYPES))
    seed = draw(st.integers(0, 2**16))
    return _values(s1, dtype, seed), _values(s2, dtype, seed + 1)


@pytest.mark.parametrize("name", BINARY)
@SETTINGS
@given(pair=array_pairs())
def test_binary_broadcasting(name: str, pair: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]) -> None:
    x, y = pair
    if x.dtype == np.bool_ and name == "subtract":
        return
    if x.dtype.kind in "fc" and name == "bitwise_or":
        with pytest.raises(TypeError, match="does not accept dtype"):
            getattr(jnp, name)(jnp.asarray(x), jnp.asarray(y))
        return
    if x.dtype.kind == "c" and name in ("maximum", "minimum", "less"):
        return  # NumPy's lexicographic complex ordering is not part of this property
    _check(getattr(jnp, name)(jnp.asarray(x), jnp.asarray(y)), getattr(np, name)(x, y))


REDUCTIONS = ["sum", "prod", "max", "min", "mean", "all", "any", "argmax"]


@pytest.mark.parametrize("name", REDUCTIONS)
@SETTINGS
@given(x=arrays([np.float32, np.int32, np.bool_]), data=st.data())
def test_reductions_with_axes(name: str, x: np.ndarray[Any, Any], data: st.DataObject) -> None:
    axis = data.draw(st.sampled_from([None, *range(-x.ndim, x.ndim)]))
    keepdims = data.draw(st.booleans()) if name != "argmax" else False
    empty = x.size == 0 if axis is None else (x.ndim and x.shape[axis] == 0)
    if name in ("max", "min", "argmax") and empty:
        with pytest.raises(ValueError):
            getattr(jnp, name)(jnp.asarray(x), axis=axis)
        return
    if name == "argmax" and x.ndim == 0 and axis is not None:
        return
    kwargs: dict[str, Any] = {"axis": axis} if name == "argmax" else {"axis": axis, "keepdims": keepdims}
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy warns on the mean of an empty slice
        want = getattr(np, name)(x, **kwargs)
    if name in ("sum", "prod") and x.dtype != np.float32:
        want = np.asarray(want).astype(np.int32)
    if name == "mean" and x.dtype != np.float32:
        want = np.asarray(want).astype(np.float32)
    if name == "argmax":
        want = np.asarray(want).astype(np.int32)
    got = getattr(jnp, name)(jnp.asarray(x), **kwargs)
    assert got.dtype == np.asarray(want).dtype, (got.dtype, np.asarray(want).dtype)
    _check(got, want, 1e-4)


@SETTINGS
@given(x=arrays(), data=st.data())
def test_manipulation(x: np.ndarray[Any, Any], data: st.DataObject) -> None:
    j = jnp.asarray(x)
    _check(jnp.flip(j), np.flip(x))
    _check(jnp.transpose(j), np.transpose(x))
    _check(jnp.expand_dims(j, 0), np.expand_dims(x, 0))
    _check(jnp.tile(j, 2), np.tile(x, 2))
    _check(jnp.concatenate([jnp.atleast_1d(j)] * 2), np.concatenate([np.atleast_1d(x)] * 2))
    if x.ndim:
        shift = data.draw(st.integers(-5, 5))
        _check(jnp.roll(j, shift, 0), np.roll(x, shift, 0))
        _check(jnp.sort(j, 0), np.sort(x, 0))
        _check(jnp.repeat(j, 2, -1), np.repeat(x, 2, -1))


@SETTINGS
@given(x=arrays([np.float64, np.int64, np.complex128]))
def test_x64_mode_keeps_64_bit_types(x: np.ndarray[Any, Any]) -> None:
    with enable_x64(True):
        j = jnp.asarray(x)
        assert j.dtype == x.dtype
        _check(jnp.sum(j * 2, axis=None), np.sum(x * 2), 1e-12)
        _check(jnp.cumsum(j, axis=0) if x.ndim else j, np.cumsum(x, axis=0) if x.ndim else x, 1e-12)
        _check(jnp.abs(j), np.abs(x), 1e-12)
