"""Reductions (sum, prod, max, min, mean, any, all, argmax, argmin) and products (dot, matmul)."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

from jax_core._src import dtypes
from jax_core._src.basearray import Array
from jax_core._src.lax import api as lax
from jax_core._src.lax import dot as lax_dot
from jax_core._src.lax import reductions as lax_red
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import canonicalize_axes, canonicalize_axis, check_arraylike, ensure_array, promote_dtypes, user_dtype
from jax_core._src.typing import ArrayLike, DTypeLike

Axis: TypeAlias = int | Sequence[int] | None
"""What ``axis`` parameters accept: one axis, several, or ``None`` for all of them."""


def _reduce(
    name: str,
    a: ArrayLike,
    axis: Axis,
    keepdims: bool,
    op: Callable[[ArrayLike, tuple[int, ...]], Array],
    dtype: np.dtype[Any] | None = None,
    *,
    empty_identity: bool = True,
) -> Array:
    check_arraylike(name, a)
    arr = ensure_array(a)
    axes = canonicalize_axes(axis, arr.ndim)
    if not empty_identity and builtins.any(arr.shape[i] == 0 for i in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    if dtype is not None and dtype != arr.dtype:
        arr = lax.convert_element_type(arr, dtype)
    out = op(arr, axes) if axes else arr
    if keepdims:
        out = jshape.reshape(out, tuple(1 if i in axes else d for i, d in enumerate(arr.shape)))
    return out


def _sum_dtype(a: ArrayLike, dtype: DTypeLike | None, name: str) -> np.dtype[Any] | None:
    check_arraylike(name, a)
    explicit = user_dtype(dtype, name)
    if explicit is not None:
        return explicit
    dt = ensure_array(a).dtype
    if dt == np.bool_ or (dtypes.issubdtype(dt, np.integer) and dt.itemsize < dtypes.default_int_dtype().itemsize):
        return dtypes.default_int_dtype() if dtypes.issubdtype(dt, np.signedinteger) or dt == np.bool_ else dtypes.default_uint_dtype()
    return None


def sum(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, keepdims: bool = False) -> Array:
    """Sum of elements over ``axis`` (all axes by default)."""
    return _reduce("sum", a, axis, keepdims, lax_red.reduce_sum, _sum_dtype(a, dtype, "sum"))


def prod(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, keepdims: bool = False) -> Array:
    """Product of elements over ``axis``."""
    return _reduce("prod", a, axis, keepdims, lax_red.reduce_prod, _sum_dtype(a, dtype, "prod"))


def max(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """Maximum over ``axis``."""
    return _reduce("max", a, axis, keepdims, lax_red.reduce_max, empty_identity=False)


def min(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """Minimum over ``axis``."""
    return _reduce("min", a, axis, keepdims, lax_red.reduce_min, empty_identity=False)


def any(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """Whether any element over ``axis`` is true."""
    return _reduce("any", lax.as_bool(ensure_array(a)), axis, keepdims, lax_red.reduce_or)


def all(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """Whether every element over ``axis`` is true."""
    return _reduce("all", lax.as_bool(ensure_array(a)), axis, keepdims, lax_red.reduce_and)


def mean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, keepdims: bool = False) -> Array:
    """Arithmetic mean over ``axis`` (integer inputs give floats)."""
    check_arraylike("mean", a)
    arr = ensure_array(a)
    axes = canonicalize_axes(axis, arr.ndim)
    n = 1
    for i in axes:
        n *= arr.shape[i]
    explicit = user_dtype(dtype, "mean")
    out_dtype = explicit if explicit is not None else dtypes.to_inexact_dtype(arr.dtype) if not dtypes.issubdtype(arr.dtype, np.inexact) else arr.dtype
    total = sum(arr, axis, out_dtype, keepdims)
    return lax.div(total, lax.to_dtype(n, out_dtype, False))


def _arg_reduce(name: str, op: Callable[..., Array], a: ArrayLike, axis: int | None, keepdims: bool) -> Array:
    check_arraylike(name, a)
    arr = ensure_array(a)
    if axis is None:
        arr = jshape.ravel(arr)
        ax = 0
    else:
        ax = canonicalize_axis(axis, arr.ndim)
    if arr.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    out = op(arr, ax, dtypes.default_int_dtype())
    if keepdims:
        shape = list(ensure_array(a).shape) if axis is not None else [1] * ensure_array(a).ndim
        if axis is not None:
            shape[ax] = 1
        out = jshape.reshape(out, tuple(shape))
    return out


def argmax(a: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Array:
    """Index of the maximum along ``axis`` (of the flattened array by default)."""
    return _arg_reduce("argmax", lax_red.argmax, a, axis, keepdims)


def argmin(a: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Array:
    """Index of the minimum along ``axis`` (of the flattened array by default)."""
    return _arg_reduce("argmin", lax_red.argmin, a, axis, keepdims)


def _dot_general(a: Array, b: Array, contract: tuple[Sequence[int], Sequence[int]], batch: tuple[Sequence[int], Sequence[int]]) -> Array:
    return lax_dot.dot_general(a, b, ((tuple(contract[0]), tuple(contract[1])), (tuple(batch[0]), tuple(batch[1]))), preferred_element_type=a.dtype)


def matmul(a: ArrayLike, b: ArrayLike, /) -> Array:
    """Matrix product with NumPy's rules for 1-D operands and batch broadcasting."""
    check_arraylike("matmul", a, b)
    x, y = (ensure_array(t) for t in promote_dtypes(a, b))
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError(f"matmul: inputs must be at least 1-dimensional, got shapes {x.shape} and {y.shape}")
    x_vec, y_vec = x.ndim == 1, y.ndim == 1
    if x_vec:
        x = jshape.expand_dims(x, 0)
    if y_vec:
        y = jshape.expand_dims(y, 1)
    if x.shape[-1] != y.shape[-2]:
        raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got {(x.shape[-1],)} and {(y.shape[-2],)}.")
    batch = jshape.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    x = jshape.broadcast_to(x, batch + x.shape[-2:])
    y = jshape.broadcast_to(y, batch + y.shape[-2:])
    nb = len(batch)
    out = _dot_general(x, y, ((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))))
    if x_vec:
        out = jshape.squeeze(out, out.ndim - 2)
    if y_vec:
        out = jshape.squeeze(out, out.ndim - 1)
    return out


def dot(a: ArrayLike, b: ArrayLike) -> Array:
    """Dot product with NumPy's rules (scalars multiply; N-D contracts last with second-to-last)."""
    check_arraylike("dot", a, b)
    x, y = (ensure_array(t) for t in promote_dtypes(a, b))
    if x.ndim == 0 or y.ndim == 0:
        return lax.mul(x, y)
    if y.ndim == 1 or x.ndim == 1 and y.ndim <= 2:
        return matmul(x, y)
    contract_y = y.ndim - 2
    if x.shape[-1] != y.shape[contract_y]:
        raise TypeError(f"dot_general requires contracting dimensions to have the same shape, got {(x.shape[-1],)} and {(y.shape[contract_y],)}.")
    return _dot_general(x, y, ((x.ndim - 1,), (contract_y,)), ((), ()))


