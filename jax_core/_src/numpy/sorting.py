"""Sorting and searching: sort, argsort, lexsort, partition, top_k, searchsorted, digitize."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax import sorting as lax_sort
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    jitted,
    promote_dtypes,
    user_dtype,
)
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


def _prep(name: str, a: ArrayLike, axis: int | None) -> tuple[Array, int]:
    check_arraylike(name, a)
    x = ensure_array(a)
    if axis is None:
        return jshape.ravel(x), 0
    if x.ndim == 0:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension 0")
    return x, canonicalize_axis(axis, x.ndim)


@jitted(static=('axis', 'kind', 'order', 'stable', 'descending'), inline=False)
def sort(a: ArrayLike, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True, descending: bool = False) -> Array:
    """Sorted copy of ``a`` along ``axis`` (flattened if ``None``); NaNs last."""
    if kind is not None:
        raise TypeError("'kind' argument to sort is not supported. Use stable=True or stable=False to specify sort stability.")
    if order is not None:
        raise TypeError("'order' argument to sort is not supported.")
    x, ax = _prep("sort", a, axis)
    if x.ndim == 0:
        return x
    if descending:
        return shape_assembly.rev(lax_sort.sort(x, ax, stable), (ax,))
    out: Array = lax_sort.sort(x, ax, stable)
    return out


@jitted(static=('axis', 'kind', 'order', 'stable', 'descending', 'dtype'), inline=False)
def argsort(
    a: ArrayLike, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True, descending: bool = False,
    dtype: DTypeLike | None = None,
) -> Array:
    """Indices that sort ``a`` along ``axis`` (stable; ``descending`` keeps equal elements in order)."""
    if kind is not None:
        raise TypeError("'kind' argument to argsort is not supported. Use stable=True or stable=False to specify sort stability.")
    if order is not None:
        raise TypeError("'order' argument to argsort is not supported.")
    x, ax = _prep("argsort", a, axis)
    idt = user_dtype(dtype, "argsort") or dtypes.default_int_dtype()
    if x.ndim == 0:
        return ensure_array(np.zeros((), idt))
    iota = shape_assembly.broadcasted_iota(idt, x.shape, ax)
    if descending:
        _, idx = lax_sort.sort((shape_assembly.rev(x, (ax,)), shape_assembly.rev(iota, (ax,))), ax, stable, 1)
        return shape_assembly.rev(idx, (ax,))
    _, idx = lax_sort.sort((x, iota), ax, stable, 1)
    out: Array = idx
    return out


@jitted(static=('axis', 'batch_size'), inline=False)
def lexsort(keys: Array | np.ndarray[Any, Any] | Sequence[ArrayLike], axis: int = -1, *, batch_size: int = 16) -> Array:
    """Indirect stable sort by several keys, the last key primary. ``batch_size`` (JAX's knob for
    how many keys one comparator sees) is validated; one stable sort over every key gives the same
    permutation as JAX's batched passes."""
    batch_size = operator.index(batch_size)
    if batch_size < 1:
        raise ValueError(f"lexsort: batch_size must be positive, got {batch_size}")
    key_list = [keys[i] for i in range(len(keys))] if isinstance(keys, (Array, np.ndarray)) else list(keys)
    if len(key_list) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    check_arraylike("lexsort", *key_list)
    arrs = [ensure_array(k) for k in key_list]
    shape = jshape.broadcast_shapes(*(k.shape for k in arrs))
    if len(shape) == 0:
        raise TypeError("lexsort keys must be at least 1-dimensional")
    arrs = [jshape.broadcast_to(k, shape) for k in arrs]
    ax = canonicalize_axis(axis, len(shape))
    iota = shape_assembly.broadcasted_iota(dtypes.default_int_dtype(), shape, ax)
    out = lax_sort.sort((*arrs[::-1], iota), ax, True, len(arrs))
    res: Array = out[-1]
    return res


@jitted(inline=False)
def sort_complex(a: ArrayLike) -> Array:
    """``a`` sorted along its last axis, as complex numbers."""
    check_arraylike("sort_complex", a)
    x = sort(a)
    return lax.convert_element_type(x, dtypes.to_complex_dtype(x.dtype))


def _order_reversing(x: Array) -> Array:
    """An array whose sort order is ``x``'s reversed: ``~x`` for bools and integers, ``-x`` else."""
    return lax.bitwise_not(x) if x.dtype == np.bool_ or dtypes.issubdtype(x.dtype, np.integer) else lax.neg(x)


def _partition_prep(name: str, a: ArrayLike, kth: int, axis: int) -> tuple[Array, int, int]:
    check_arraylike(name, a)
    x = ensure_array(a)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        raise NotImplementedError(f"jnp.{name} for complex dtype is not implemented.")
    ax = canonicalize_axis(axis, x.ndim)
    k = canonicalize_axis(kth, x.shape[ax])
    return jshape.swapaxes(x, ax, -1), ax, k


@jitted(static=('kth', 'axis'), inline=False)
def partition(a: ArrayLike, kth: int, axis: int = -1) -> Array:
    """``a`` with the ``kth`` element where a sort would put it, the ``kth + 1`` smallest before it
    (in descending order) and the rest after it (descending), as JAX's two ``top_k`` calls give."""
    x, ax, k = _partition_prep("partition", a, kth, axis)
    bottom = _order_reversing(lax_sort.top_k(_order_reversing(x), k + 1)[0])
    top = lax_sort.top_k(x, x.shape[-1] - k - 1)[0]
    return jshape.swapaxes(shape_assembly.concatenate([bottom, top], x.ndim - 1), -1, ax)


@jitted(static=('kth', 'axis'), inline=False)
def argpartition(a: ArrayLike, kth: int, axis: int = -1) -> Array:
    """The indices that would :func:`partition` ``a``: the ``kth + 1`` smallest first, then the
    others in their original order."""
    x, ax, k = _partition_prep("partition", a, kth, axis)
    bottom = lax_sort.top_k(_order_reversing(x), k + 1)[1]
    n = x.shape[-1]
    taken = (jshape.expand_dims(bottom, -1) == np.arange(n, dtype=bottom.dtype)).any(axis=-2)
    proxy = lax.select(taken, jshape.broadcast_to(np.float32(0), x.shape), jshape.broadcast_to(np.float32(1), x.shape))
    top = lax_sort.top_k(proxy, n - k - 1)[1]
    return jshape.swapaxes(shape_assembly.concatenate([bottom, top], x.ndim - 1), -1, ax)


@jitted(static=('axis', 'mode', 'sorted'), static_argnums=(1,), inline=False)
def top_k(a: ArrayLike, k: int, /, *, axis: int = -1, mode: str = "largest", sorted: bool = True) -> tuple[Array, Array]:
    """The ``k`` largest (``mode="smallest"``: smallest) entries along ``axis`` and their indices."""
    from jax_core._src.numpy.manipulation import moveaxis

    check_arraylike("top_k", a)
    x = ensure_array(a)
    if x.ndim == 0:
        raise TypeError("top_k operand must have >= 1 dimension, got ()")
    ax = canonicalize_axis(axis, x.ndim)
    x = moveaxis(x, ax, -1)
    if mode == "largest":
        vals, idx = lax_sort.top_k(x, k)
    elif mode == "smallest":
        n = x.shape[-1]
        iota = shape_assembly.broadcasted_iota(np.int32, x.shape, x.ndim - 1)
        v, i = lax_sort.sort((x, iota), x.ndim - 1, True, 1)
        vals = slicing.slice(v, (0,) * x.ndim, (*x.shape[:-1], k))
        idx = slicing.slice(i, (0,) * x.ndim, (*x.shape[:-1], k))
        del n
    else:
        raise ValueError(f"mode must be 'largest' or 'smallest'; got {mode!r}")
    return moveaxis(vals, -1, ax), moveaxis(idx, -1, ax)


@jitted(static=("side", "method"), inline=False)
def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter: ArrayLike | None = None, *, method: str = "scan") -> Array:
    """Indices where ``v`` would be inserted into the sorted 1-D ``a`` to keep it sorted."""
    check_arraylike("searchsorted", a, v)
    if side not in ("left", "right"):
        raise ValueError(f"{side!r} is an invalid value for keyword 'side'. Expected one of ['left', 'right'].")
    if method not in ("scan", "scan_unrolled", "sort", "compare_all"):
        raise ValueError(f"method={method!r} not recognized; expected one of 'scan', 'scan_unrolled', 'sort', 'compare_all'")
    arr = ensure_array(a)
    if arr.ndim != 1:
        raise ValueError("a should be 1-dimensional")
    if sorter is not None:
        from jax_core._src.numpy.indexing_funcs import take_traced as take

        arr = take(arr, sorter)
    x, q = (ensure_array(t) for t in promote_dtypes(arr, v))
    idt = dtypes.default_int_dtype()
    if x.shape[0] == 0:
        return jshape.broadcast_to(np.zeros((), idt), q.shape)
    # Binary search, unrolled: ceil(log2(n + 1)) halvings of [lo, hi).
    n = x.shape[0]
    lo = jshape.broadcast_to(np.zeros((), idt), q.shape)
    hi = jshape.broadcast_to(np.asarray(n, idt), q.shape)
    steps = int(np.ceil(np.log2(n + 1))) + 1
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    for _ in range(steps):
        mid = lax.div(lax.add(lo, hi), np.asarray(2, idt))
        val = take(x, lax.min(mid, np.asarray(n - 1, idt)), mode="clip")
        go_right = _less(val, q) if side == "left" else lax.bitwise_not(_less(q, val))
        active = lax.lt(lo, hi)
        lo = lax.select(lax.bitwise_and(active, go_right), lax.add(mid, np.ones((), idt)), lo)
        hi = lax.select(lax.bitwise_and(active, lax.bitwise_not(go_right)), mid, hi)
    return lo


def _less(x: Array, y: Array) -> Array:
    """``x < y`` in sort order (NaNs last; complex lexicographic)."""
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        xr, xi, yr, yi = lax.real(x), lax.imag(x), lax.real(y), lax.imag(y)
        return lax.bitwise_or(_less(xr, yr), lax.bitwise_and(lax.eq(xr, yr), _less(xi, yi)))
    if dtypes.issubdtype(x.dtype, np.floating):
        x_nan, y_nan = lax.ne(x, x), lax.ne(y, y)
        return lax.bitwise_or(lax.lt(x, y), lax.bitwise_and(lax.bitwise_not(x_nan), y_nan))
    if x.dtype == np.bool_:
        return lax.bitwise_and(lax.bitwise_not(x), y)
    return lax.lt(x, y)


@jitted(static=('right', 'method'), inline=False)
def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False, *, method: str | None = None) -> Array:
    """The index of the bin each ``x`` falls in (``bins`` monotonic, increasing or decreasing)."""
    check_arraylike("digitize", x, bins)
    b = ensure_array(bins)
    if b.ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got bins={bins}")
    if b.shape[0] == 0:
        return jshape.broadcast_to(np.zeros((), dtypes.default_int_dtype()), jshape.shape(x))
    side = "left" if right else "right"
    m = "scan" if method is None else method
    inc = searchsorted(b, x, side=side, method=m)
    dec = lax.sub(np.asarray(b.shape[0], inc.dtype), searchsorted(shape_assembly.rev(b, (0,)), x, side="left" if side == "right" else "right", method=m))
    increasing = lax.ge(b[-1], b[0])
    return lax.select(jshape.broadcast_to(increasing, inc.shape), inc, dec)
