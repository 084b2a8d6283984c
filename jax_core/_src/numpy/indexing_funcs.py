"""Index-based functions: take, take_along_axis, put, nonzero/argwhere (with ``size=``),
select, piecewise, choose, compress, diagonals and triangles, index grids."""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable, Sequence
from typing import Any, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.reductions import cumulative as lax_red_cumulative
from jax_core._src.lax.reductions import reduce as lax_red_reduce
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    jitted,
    unstaged,
    promote_dtypes,
)
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

_INDEX = np.dtype(np.int32)


def _arr(name: str, a: ArrayLike) -> Array:
    check_arraylike(name, a)
    return ensure_array(a)


def _index_array(name: str, indices: ArrayLike) -> Array:
    check_arraylike(name, indices)
    idx = ensure_array(indices)
    if not dtypes.issubdtype(idx.dtype, np.integer):
        raise TypeError(f"{name} requires integer indices, got {idx.dtype}")
    return idx


def _wrap_negative(idx: Array, n: int) -> Array:
    zero = np.zeros((), idx.dtype)
    if dtypes.issubdtype(idx.dtype, np.unsignedinteger):
        return idx
    return lax.select(lax.lt(idx, zero), lax.add(idx, np.asarray(n, idx.dtype)), idx)


def take(
    a: ArrayLike,
    indices: ArrayLike,
    axis: int | None = None,
    out: None = None,
    mode: str | None = None,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    fill_value: ArrayLike | None = None,
) -> Array:
    """Elements of ``a`` at ``indices`` along ``axis`` (flattened ``a`` by default).

    ``mode``: ``"fill"`` (default: out-of-bounds reads give ``fill_value``, NaN for floats),
    ``"clip"`` or ``"wrap"``; ``"raise"`` is not supported (as in JAX).
    """
    return _take(a, indices, None if axis is None else operator.index(axis), out, mode, unique_indices, indices_are_sorted, fill_value)


@jitted(static=("axis", "mode", "unique_indices", "indices_are_sorted", "fill_value"), inline=False)
def _take(
    a: ArrayLike,
    indices: ArrayLike,
    axis: int | None = None,
    out: None = None,
    mode: str | None = None,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    fill_value: ArrayLike | None = None,
) -> Array:
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.take is not supported.")
    check_arraylike("take", a, indices)
    x = _arr("take", a)
    idx = _index_array("take", indices)
    if axis is None:
        x = jshape.ravel(x)
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    if mode == "wrap":
        idx = _mod(idx, builtins.max(n, 1))
        gmode = slicing.GatherScatterMode.CLIP
    elif mode == "clip":
        gmode = slicing.GatherScatterMode.CLIP
    elif mode in (None, "fill"):
        gmode = slicing.GatherScatterMode.FILL_OR_DROP
        if not dtypes.issubdtype(idx.dtype, np.unsignedinteger):
            from jax_core._src.numpy.where import where_jit as _where

            idx = _where(lax.lt(idx, np.zeros((), idx.dtype)), lax.add(idx, np.asarray(n, idx.dtype)), idx)
    else:
        raise ValueError(f"Invalid mode '{mode}' for np.take")
    fill_np = None if fill_value is None else np.asarray(fill_value)
    fill = None if fill_np is None else complex(fill_np) if fill_np.dtype.kind == "c" else float(fill_np)
    if x.size == 0 and n == 0 and idx.size:
        if gmode is not slicing.GatherScatterMode.FILL_OR_DROP:
            raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
    offset = tuple(range(ax)) + tuple(range(ax + idx.ndim, x.ndim - 1 + idx.ndim))
    dnums = slicing.GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=(ax,), start_index_map=(ax,))
    sizes = tuple(1 if i == ax else d for i, d in enumerate(x.shape))
    return slicing.gather(
        x,
        shape_dims.expand_dims(idx, (idx.ndim,)),
        dnums,
        sizes,
        mode=gmode,
        fill_value=fill,
        unique_indices=unique_indices,
        indices_are_sorted=indices_are_sorted,
    )


take_traced = unstaged(_take)
"""``take`` traced inline, for library code (JAX's own code gathers without a ``jit[name=_take]``)."""


def _mod(idx: Array, n: int) -> Array:
    r = lax.rem(idx, np.asarray(n, idx.dtype))
    if dtypes.issubdtype(idx.dtype, np.unsignedinteger):
        return r
    return lax.select(lax.lt(r, np.zeros((), idx.dtype)), lax.add(r, np.asarray(n, idx.dtype)), r)


@jitted(static=('axis', 'mode', 'fill_value', 'wrap_negative_indices'), inline=False)
def take_along_axis(
    arr: ArrayLike,
    indices: ArrayLike,
    axis: int | None = -1,
    mode: str | None = None,
    fill_value: ArrayLike | None = None,
    *,
    wrap_negative_indices: bool = True,
) -> Array:
    """Elements of ``arr`` picked by ``indices`` along ``axis`` (as ``numpy.take_along_axis``);
    negative indices count from the end unless ``wrap_negative_indices=False`` (then they are out
    of bounds, handled by ``mode``)."""
    x = _arr("take_along_axis", arr)
    idx = _index_array("take_along_axis", indices)
    if axis is None:
        if idx.ndim != 1:
            raise ValueError(f"when axis=None, `indices` must have a single dimension, got indices shape {idx.shape}")
        return take_traced(jshape.ravel(x), idx, 0, mode=mode, fill_value=fill_value)
    if idx.ndim != x.ndim:
        raise ValueError(f"indices and arr must have the same number of dimensions; {idx.ndim} vs. {x.ndim}")
    ax = canonicalize_axis(axis, x.ndim)
    shape = [builtins.max(s, i) if s == 1 or i == 1 else s for s, i in zip(x.shape, idx.shape)]
    for k, (s, i) in enumerate(zip(x.shape, idx.shape)):
        if k != ax and s != i and s != 1 and i != 1:
            raise ValueError(f"indices and arr have incompatible shapes {idx.shape} and {x.shape} along axis {k}")
    bshape_x = tuple(x.shape[k] if k == ax else shape[k] for k in range(x.ndim))
    bshape_i = tuple(idx.shape[k] if k == ax else shape[k] for k in range(x.ndim))
    x = jshape.broadcast_to(x, bshape_x)
    idx = jshape.broadcast_to(idx, bshape_i)
    n = x.shape[ax]
    gmode = slicing.GatherScatterMode.CLIP if mode == "clip" else slicing.GatherScatterMode.FILL_OR_DROP
    if mode not in (None, "fill", "clip"):
        raise ValueError(f"Invalid mode '{mode}' for take_along_axis")
    if wrap_negative_indices:
        idx = _wrap_negative(idx, n)
    batch = tuple(k for k in range(x.ndim) if k != ax)
    dnums = slicing.GatherDimensionNumbers(
        offset_dims=(),
        collapsed_slice_dims=(ax,),
        start_index_map=(ax,),
        operand_batching_dims=batch,
        start_indices_batching_dims=batch,
    )
    fill = None if fill_value is None else float(np.asarray(fill_value))
    return slicing.gather(x, shape_dims.expand_dims(idx, (idx.ndim,)), dnums, (1,) * x.ndim, mode=gmode, fill_value=fill)


_INPLACE_MSG = (
    "jax.numpy.{} cannot modify arrays in-place, because JAX arrays are immutable. "
    "Pass inplace=False to instead return an updated array."
)


def put(a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode: str | None = None, *, inplace: bool = True) -> Array:
    """A copy of ``a`` with the flat positions ``ind`` set to ``v`` (needs ``inplace=False``)."""
    if inplace:
        raise ValueError(_INPLACE_MSG.format("put"))
    x = _arr("put", a)
    idx = jshape.ravel(_index_array("put", ind))
    vals = jshape.ravel(ensure_array(v))
    if vals.size == 0 or idx.size == 0:
        return x
    if vals.size != idx.size:
        from jax_core._src.numpy.manipulation import resize

        vals = unstaged(resize)(vals, idx.shape)
    n = x.size
    if mode == "wrap":
        idx = _mod(idx, n)
    elif mode == "clip":
        idx = lax.max(lax.min(idx, np.asarray(n - 1, idx.dtype)), np.zeros((), idx.dtype))
    elif mode in (None, "fill", "drop"):
        idx = _wrap_negative(idx, n)
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got mode={mode!r}")
    flat = jshape.ravel(x).at[idx].set(vals, mode="drop")
    return jshape.reshape(flat, x.shape)


@jitted(static=('axis', 'inplace', 'mode'), inline=False)
def put_along_axis(
    arr: ArrayLike, indices: ArrayLike, values: ArrayLike, axis: int | None, inplace: bool = True, *, mode: str | None = None
) -> Array:
    """A copy of ``arr`` with ``values`` written at ``indices`` along ``axis`` (needs ``inplace=False``)."""
    if inplace:
        raise ValueError(_INPLACE_MSG.format("put_along_axis"))
    x = _arr("put_along_axis", arr)
    idx = _index_array("put_along_axis", indices)
    if axis is None:
        flat = jshape.ravel(x)
        updated: Array = flat.at[_wrap_negative(idx, flat.size)].set(values, mode=mode)
        return jshape.reshape(updated, x.shape)
    ax = canonicalize_axis(axis, x.ndim)
    if idx.ndim == x.ndim:  # indices broadcast along the other axes, as NumPy's and JAX's do
        idx = jshape.broadcast_to(idx, tuple(idx.shape[k] if k == ax else x.shape[k] for k in range(x.ndim)))
    grids = _broadcast_grids(x, idx, ax)
    out: Array = x.at[tuple(grids)].set(values, mode=mode)
    return out


def _broadcast_grids(x: Array, idx: Array, ax: int) -> list[Any]:
    out: list[Any] = []
    for k in range(x.ndim):
        if k == ax:
            out.append(_wrap_negative(idx, x.shape[ax]))
        else:
            shape = [1] * x.ndim
            shape[k] = idx.shape[k]
            out.append(np.arange(idx.shape[k], dtype=np.int32).reshape(shape))
    return out


# -- nonzero and friends ----------------------------------------------------------------


def nonzero(a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | Sequence[ArrayLike] | None = None) -> tuple[Array, ...]:
    """Indices of the nonzero elements, one array per dimension.

    Inside transformations ``size`` must be given: the result is padded with ``fill_value``
    (default 0) or truncated to ``size`` entries.
    """
    x = _arr("nonzero", a)
    if x.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() instead.")
    if size is None:
        if isinstance(x, Tracer):
            x.concretization_error(
                "The size argument of jnp.nonzero must be statically specified to use jnp.nonzero within JAX transformations."
            )
        host = np.nonzero(np.asarray(x))
        from jax_core._src.numpy.creation import asarray

        return tuple(asarray(h.astype(dtypes.default_int_dtype())) for h in host)
    size = int(size)
    mask = lax.as_bool(jshape.ravel(x))
    m = ensure_array(mask)
    if m.size == 0:
        positions = ensure_array(np.zeros((size,), dtypes.default_int_dtype()))
        found = ensure_array(np.zeros((size,), np.bool_))
    else:
        idt = dtypes.default_int_dtype()
        rank = lax.sub(lax_red_cumulative.cumsum(lax.convert_element_type(m, idt), 0), np.ones((), idt))
        target = lax.select(m, rank, jshape.broadcast_to(np.asarray(size, idt), rank.shape))
        from jax_core._src.numpy.creation import zeros

        positions = zeros((size,), idt).at[target].set(shape_assembly.iota(idt, m.size), mode="drop")
        count = lax_red_reduce.reduce_sum(lax.convert_element_type(m, idt), (0,))
        found = lax.lt(shape_assembly.iota(idt, size), count)
    coords = _unravel(positions, x.shape)
    fills: Sequence[Any]
    if fill_value is None:
        fills = [0] * x.ndim
    elif isinstance(fill_value, (tuple, list)):
        if len(fill_value) != x.ndim:
            raise ValueError(f"fill_value must be a scalar or a tuple of length {x.ndim}; got {fill_value}")
        fills = list(fill_value)
    else:
        if np.ndim(np.asarray(fill_value)) != 0:
            raise ValueError(f"fill_value must be a scalar or a tuple of length {x.ndim}; got {fill_value}")
        fills = [fill_value] * x.ndim
    out: list[Array] = []
    for c, f in zip(coords, fills):
        fv = lax.convert_element_type(ensure_array(f), c.dtype) if isinstance(f, Array) else np.asarray(f).astype(c.dtype)
        out.append(lax.select(found, c, jshape.broadcast_to(fv, c.shape)))
    return tuple(out)


def _unravel(flat: Array, shape: tuple[int, ...]) -> list[Array]:
    out: list[Array] = []
    stride = 1
    for d in reversed(shape):
        q = lax.div(flat, np.asarray(stride, flat.dtype)) if stride != 1 else flat
        out.append(lax.rem(q, np.asarray(builtins.max(d, 1), flat.dtype)))
        stride *= d
    return out[::-1]


def flatnonzero(a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """Indices of the nonzero elements of the flattened ``a``."""
    return nonzero(jshape.ravel(_arr("flatnonzero", a)), size=size, fill_value=fill_value)[0]


def argwhere(a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """Indices of the nonzero elements as an ``(N, ndim)`` array."""
    x = _arr("argwhere", a)
    if x.ndim == 0:
        x = jshape.reshape(x, (1,))
        result = nonzero(x, size=size, fill_value=fill_value)  # only its length is used
        return ensure_array(np.zeros((result[0].shape[0], 0), result[0].dtype))
    result = nonzero(x, size=size, fill_value=fill_value)
    return jshape.stack(result, axis=1) if result else ensure_array(np.zeros((0, 0), dtypes.default_int_dtype()))


@overload
def where(condition: ArrayLike, /, *, size: int | None = None, fill_value: Any = None) -> tuple[Array, ...]: ...
@overload
def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike, /, *, size: None = None, fill_value: None = None) -> Array: ...
def where(
    condition: ArrayLike, x: ArrayLike | None = None, y: ArrayLike | None = None, /, *, size: int | None = None, fill_value: Any = None
) -> Array | tuple[Array, ...]:
    """``x`` where ``condition`` else ``y``; with only ``condition``, ``nonzero(condition)``."""
    from jax_core._src.numpy.where import where as where3

    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise ValueError("Either both or neither of the x and y arguments should be provided to jax.numpy.where, got {} and {}.".format(x, y))
    if size is not None or fill_value is not None:
        raise ValueError("size and fill_value arguments cannot be used in three-term where function.")
    return where3(condition, x, y)


def extract(condition: ArrayLike, arr: ArrayLike, *, size: int | None = None, fill_value: ArrayLike = 0) -> Array:
    """The elements of ``arr`` where ``condition`` is true (flattened)."""
    cond = jshape.ravel(_arr("extract", condition))
    x = jshape.ravel(_arr("extract", arr))
    if cond.size != x.size:
        from jax_core._src.numpy.manipulation import resize

        cond = unstaged(resize)(cond, x.shape) if cond.size > x.size else _pad_false(cond, x.size)
    if size is None:
        (idx,) = nonzero(cond)
        return take_traced(x, idx)
    (idx,) = nonzero(cond, size=size, fill_value=x.size)
    return take_traced(x, idx, fill_value=fill_value, mode="fill")


def _pad_false(c: Array, n: int) -> Array:
    return shape_assembly.pad(lax.as_bool(c), np.bool_(False), [(0, n - c.size, 0)])


def compress(condition: ArrayLike, a: ArrayLike, axis: int | None = None, *, size: int | None = None, fill_value: ArrayLike = 0, out: None = None) -> Array:
    """The slices of ``a`` along ``axis`` where ``condition`` (1-D) is true."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
    cond = _arr("compress", condition)
    x = _arr("compress", a)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1D array")
    if axis is None:
        x = jshape.ravel(x)
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if cond.size > n:
        from jax_core._src.numpy.manipulation import slice_axis

        cond = slice_axis(cond, 0, 0, n)
    cb = ensure_array(lax.as_bool(cond))
    if size is None:
        (idx,) = nonzero(cb)
        return take_traced(x, idx, axis=ax)
    (idx,) = nonzero(cb, size=size, fill_value=n)
    return take_traced(x, idx, axis=ax, mode="fill", fill_value=fill_value)


def place(arr: ArrayLike, mask: ArrayLike, vals: ArrayLike, *, inplace: bool = True) -> Array:
    """A copy of ``arr`` with the masked positions set, in order, from ``vals`` (cycled)."""
    if inplace:
        raise ValueError(_INPLACE_MSG.format("place"))
    x = _arr("place", arr)
    m = jshape.ravel(_arr("place", mask))
    v = jshape.ravel(_arr("place", vals))
    if m.size != x.size:
        raise ValueError(f"place: arr and mask must be the same size; got {x.size} and {m.size}")
    if v.size == 0:
        return x
    idt = dtypes.default_int_dtype()
    mb = ensure_array(lax.as_bool(m))
    rank = lax.sub(lax_red_cumulative.cumsum(lax.convert_element_type(mb, idt), 0), np.ones((), idt))
    src = take_traced(v, _mod(rank, v.size))
    flat = lax.select(mb, lax.convert_element_type(src, x.dtype), jshape.ravel(x))
    return jshape.reshape(flat, x.shape)


def select(condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike], default: ArrayLike = 0) -> Array:
    """The element of the first choice whose condition holds, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})")
    if len(condlist) == 0:
        raise ValueError("condlist must be non-empty")
    check_arraylike("select", *condlist, *choicelist, default)
    conds = [ensure_array(c) for c in condlist]
    for c in conds:
        if c.dtype != np.bool_:
            raise TypeError(f"Condition arrays must have a boolean dtype, got {c.dtype}")
    choices = [ensure_array(c) for c in promote_dtypes(default, *choicelist)]
    shape = jshape.broadcast_shapes(*(c.shape for c in conds), *(c.shape for c in choices))
    out = jshape.broadcast_to(choices[0], shape)
    for c, ch in reversed(list(zip(conds, choices[1:]))):
        out = lax.select(jshape.broadcast_to(c, shape), jshape.broadcast_to(ch, shape), out)
    return out


def piecewise(x: ArrayLike, condlist: Array | Sequence[ArrayLike], funclist: Sequence[ArrayLike | Callable[..., Array]], *args: Any, **kw: Any) -> Array:
    """Piecewise-defined function: ``funclist[i]`` where ``condlist[i]`` (a constant or callable each)."""
    xa = _arr("piecewise", x)
    cond_items: list[Any]
    if isinstance(condlist, (list, tuple)):
        cond_items = list(condlist)
    else:
        c_arr = condlist if isinstance(condlist, Array) else ensure_array(np.asarray(condlist))
        cond_items = [c_arr[i] for i in range(c_arr.shape[0])] if c_arr.ndim > xa.ndim else [c_arr]
    conds = [ensure_array(c) for c in cond_items]
    nc, nf = len(conds), len(funclist)
    if nf == nc + 1:
        from jax_core._src.numpy.reductions import any as any_

        rest = ensure_array(lax.bitwise_not(any_(jshape.stack(conds), axis=0))) if conds else jshape.broadcast_to(np.bool_(True), xa.shape)
        conds = [*conds, rest]
    elif nf != nc:
        raise ValueError(f"with {nc} condition(s), either {nc} or {nc + 1} functions are expected; got {nf}")
    out = jshape.broadcast_to(np.zeros((), xa.dtype), xa.shape)
    for c, f in zip(conds, funclist):
        val = f(xa, *args, **kw) if callable(f) else f
        v = lax.convert_element_type(jshape.broadcast_to(ensure_array(val), xa.shape), xa.dtype)
        out = lax.select(jshape.broadcast_to(c, xa.shape), v, out)
    return out


def choose(a: ArrayLike, choices: Sequence[ArrayLike], out: None = None, mode: str = "raise") -> Array:
    """``choices[a[i]][i]`` elementwise (``mode`` ``"clip"`` or ``"wrap"``; ``"raise"`` needs concrete ``a``)."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.choose is not supported.")
    idx = _index_array("choose", a)
    check_arraylike("choose", *choices)
    chs = [ensure_array(c) for c in promote_dtypes(*choices)]
    n = len(chs)
    if mode == "raise":
        if isinstance(idx, Tracer):
            idx.concretization_error("The error occurred because jnp.choose was jit-compiled with mode='raise'. Use mode='wrap' or mode='clip' instead.")
        host = np.asarray(idx)
        if np.any((host < 0) | (host >= n)):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        idx = _mod(idx, n)
    elif mode == "clip":
        idx = lax.max(lax.min(idx, np.asarray(n - 1, idx.dtype)), np.zeros((), idx.dtype))
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    shape = jshape.broadcast_shapes(idx.shape, *(c.shape for c in chs))
    idx_b = lax.convert_element_type(jshape.broadcast_to(idx, shape), np.int32)
    return lax.select_n(idx_b, *(jshape.broadcast_to(c, shape) for c in chs))


# -- diagonals and triangles ------------------------------------------------------------


@jitted(static=('offset', 'axis1', 'axis2'), inline=False)
def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The diagonal (``offset`` above the main one) of the ``axis1``/``axis2`` planes, last."""
    x = _arr("diagonal", a)
    if x.ndim < 2:
        raise ValueError("diagonal requires an array of at least two dimensions.")
    a1, a2 = canonicalize_axis(axis1, x.ndim), canonicalize_axis(axis2, x.ndim)
    if a1 == a2:  # JAX's TypeError (its transpose permutation repeats an axis)
        raise TypeError(f"diagonal: axis1 and axis2 must differ, got axis1={axis1}, axis2={axis2}")
    from jax_core._src.numpy.manipulation import moveaxis

    x = moveaxis(x, (a1, a2), (-2, -1))
    n, m = x.shape[-2], x.shape[-1]
    offset = int(offset)
    i = np.arange(builtins.max(0, -offset), builtins.max(0, builtins.min(n, m - offset)))
    if i.size == 0:
        from jax_core._src.numpy.creation import zeros

        return zeros((*x.shape[:-2], 0), x.dtype)
    rows = i.astype(np.int32)
    cols = (i + offset).astype(np.int32)
    return x[(..., rows, cols)]


@jitted(static=('axis1', 'axis2', 'dtype'), inline=False)
def trace(a: ArrayLike, offset: int | ArrayLike = 0, axis1: int = 0, axis2: int = 1, dtype: DTypeLike | None = None, out: None = None) -> Array:
    """The sum along the diagonal (``offset`` may be traced: the diagonal is masked, not sliced)."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.trace is not supported.")
    from jax_core._src.numpy.creation import eye, zeros_like
    from jax_core._src.numpy.manipulation import moveaxis
    from jax_core._src.numpy.reductions import sum as sum_
    from jax_core._src.numpy.where import where_jit as _where

    x = _arr("trace", a)
    if canonicalize_axis(axis1, x.ndim) == canonicalize_axis(axis2, x.ndim):
        raise ValueError(f"axis1 and axis2 can not be same. axis1={axis1} and axis2={axis2}")
    moved = moveaxis(x, (axis1, axis2), (-2, -1))
    mask = eye(x.shape[axis1], x.shape[axis2], k=offset, dtype=bool)  # type: ignore[arg-type]
    return sum_(_where(mask, moved, zeros_like(moved)), axis=(-2, -1), dtype=dtype)


def diag(v: ArrayLike, k: int = 0) -> Array:
    """The ``k``-th diagonal of a 2-D array, or a 2-D array with a 1-D ``v`` on that diagonal."""
    x = _arr("diag", v)
    if isinstance(k, Tracer):
        k.concretization_error("The error arose for the 'k' argument of jnp.diag.")
    return _diag(x, operator.index(k))


@jitted(static=("k",), inline=False)
def _diag(v: Array, k: int) -> Array:
    if v.ndim == 1:
        from jax_core._src.numpy.creation import eye
        from jax_core._src.numpy.where import where_jit as _where

        n = v.shape[0] + builtins.abs(k)
        zero = np.zeros((), v.dtype)
        padded = shape_assembly.pad(v, zero, [(builtins.max(0, -k), builtins.max(0, k), 0)])
        return _where(eye(n, k=k, dtype=bool), shape_dims.expand_dims(padded, (1,)), zero)
    if v.ndim == 2:
        return diagonal(v, offset=k)
    raise ValueError("diag input must be 1d or 2d")


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    """A 2-D array with the flattened ``v`` on the ``k``-th diagonal."""
    return unstaged(_diag)(jshape.ravel(_arr("diagflat", v)), operator.index(k))


def _tri_bool(n: int, m: int, k: int) -> Array:
    """The ``n x m`` mask of the elements at and below the ``k``-th diagonal, staged as JAX's
    ``lax._tri`` builds it: ``iota(0) + k >= iota(1)`` in an integer type wide enough for the
    shape and for ``k`` (int64 under x64, whose default integer ``k`` becomes)."""
    big = builtins.max(int(n), int(m)) > np.iinfo(np.int32).max  # a float size fails in the iota
    wide = big or dtypes.default_int_dtype() == np.dtype(np.int64)
    it = np.dtype(np.int64) if wide else np.dtype(np.int32)
    shifted = lax.add(shape_assembly.broadcasted_iota(it, (n, m), 0), np.asarray(k).astype(it))
    return lax.ge(shifted, shape_assembly.broadcasted_iota(it, (n, m), 1))


def _tri_select(name: str, m: ArrayLike, k: int, lower: bool) -> Array:
    x = _arr(name, m)
    if x.ndim < 2:
        raise ValueError(f"Argument to jax.numpy.{name} must be at least 2D")
    mask = _tri_bool(x.shape[-2], x.shape[-1], k if lower else k - 1)
    which = shape_dims.broadcast(mask, x.shape[:-2])
    zeros = jshape.broadcast_to(np.zeros((), x.dtype), x.shape)
    return lax.select(which, x, zeros) if lower else lax.select(which, zeros, x)


@jitted(static=('k',), inline=False)
def tril(m: ArrayLike, k: int = 0) -> Array:
    """``m`` with the elements above the ``k``-th diagonal zeroed (last two axes)."""
    return _tri_select("tril", m, operator.index(k), lower=True)


@jitted(static=('k',), inline=False)
def triu(m: ArrayLike, k: int = 0) -> Array:
    """``m`` with the elements below the ``k``-th diagonal zeroed (last two axes)."""
    return _tri_select("triu", m, operator.index(k), lower=False)


def tri(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None) -> Array:
    """An ``N x M`` array with ones at and below the ``k``-th diagonal."""
    from jax_core._src.numpy.util import user_dtype

    dt = user_dtype(dtype, "tri") or dtypes.default_float_dtype()
    mask = _tri_bool(N, N if M is None else M, operator.index(k))
    return mask if dt == np.dtype(np.bool_) else lax.convert_element_type(mask, dt)


def _idx_pair(rows: np.ndarray[Any, Any], cols: np.ndarray[Any, Any]) -> tuple[Array, Array]:
    from jax_core._src.numpy.creation import asarray

    it = dtypes.default_int_dtype()
    return asarray(rows.astype(it)), asarray(cols.astype(it))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the lower triangle of an ``n x m`` array."""
    return _idx_pair(*np.tril_indices(int(n), int(k), None if m is None else int(m)))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the upper triangle of an ``n x m`` array."""
    return _idx_pair(*np.triu_indices(int(n), int(k), None if m is None else int(m)))


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """``tril_indices`` for the shape of a 2-D ``arr``."""
    s = jshape.shape(arr)
    if len(s) != 2:
        raise ValueError("Only 2-D inputs are accepted")
    return tril_indices(s[0], k, s[1])


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """``triu_indices`` for the shape of a 2-D ``arr``."""
    s = jshape.shape(arr)
    if len(s) != 2:
        raise ValueError("Only 2-D inputs are accepted")
    return triu_indices(s[0], k, s[1])


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """Indices of the main diagonal of an ``n x ... x n`` array (``ndim`` dimensions)."""
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    from jax_core._src.numpy.creation import asarray

    i = asarray(np.arange(int(n), dtype=dtypes.default_int_dtype()))
    return (i,) * int(ndim)


def diag_indices_from(arr: ArrayLike) -> tuple[Array, ...]:
    """``diag_indices`` for a square ``arr`` (all dimensions equal)."""
    s = jshape.shape(arr)
    if len(s) < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(s)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(s[0], len(s))


def mask_indices(n: int, mask_func: Callable[..., Any], k: int = 0, *, size: int | None = None) -> tuple[Array, Array]:
    """Indices where ``mask_func(ones((n, n)), k)`` is nonzero."""
    from jax_core._src.numpy.creation import ones

    mask = mask_func(ones((n, n), np.bool_), k)
    r = nonzero(mask, size=size)
    return r[0], r[1]


def fill_diagonal(a: ArrayLike, val: ArrayLike, wrap: bool = False, *, inplace: bool = True) -> Array:
    """A copy of ``a`` with its main diagonal set to ``val`` (needs ``inplace=False``)."""
    if inplace:
        raise ValueError("JAX arrays are immutable. Use jnp.fill_diagonal(..., inplace=False) instead of np.fill_diagonal")
    x = _arr("fill_diagonal", a)
    if x.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    if x.ndim == 2:
        n, m = x.shape
        step = m + 1
        end = n * m if wrap else builtins.min(n, m) * m
    else:
        n = x.shape[0]
        step = int(sum(x.shape[0] ** i for i in range(x.ndim)))
        end = x.size
    positions = np.arange(0, end, step)
    vals = jshape.ravel(ensure_array(val))
    if vals.size and positions.size:
        from jax_core._src.numpy.manipulation import resize

        vals = unstaged(resize)(vals, positions.shape) if vals.size != positions.size else vals
    flat = jshape.ravel(x).at[positions.astype(np.int32)].set(vals)
    return jshape.reshape(flat, x.shape)


# -- index grids --------------------------------------------------------------------------


def unravel_index(indices: ArrayLike, shape: Sequence[int]) -> tuple[Array, ...]:
    """The coordinates in ``shape`` of flat ``indices`` (out-of-range indices are clipped)."""
    dims = tuple(int(s) for s in shape)
    out: tuple[Array, ...] = _unravel_index(indices, dims)
    return out


@jitted(static=("dims",))
def _unravel_index(indices: ArrayLike, dims: tuple[int, ...]) -> tuple[Array, ...]:
    idx = _index_array("unravel_index", indices)
    total = int(np.prod(dims, dtype=np.int64))
    idx = lax.max(lax.min(_wrap_negative(idx, total), np.asarray(builtins.max(total - 1, 0), idx.dtype)), np.zeros((), idx.dtype))
    return tuple(_unravel(idx, dims)) if dims else ()


def ravel_multi_index(multi_index: Sequence[ArrayLike], dims: Sequence[int], mode: str = "raise", order: str = "C") -> Array:
    """Flat indices of coordinate arrays in an array of shape ``dims``."""
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    check_arraylike("ravel_multi_index", *multi_index)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    idxs = [ensure_array(i) for i in promote_dtypes(*multi_index)]
    for i in idxs:
        if not dtypes.issubdtype(i.dtype, np.integer):
            raise TypeError("only int indices permitted")
    if mode == "raise":
        for i, d in zip(idxs, dims):
            if isinstance(i, Tracer):
                i.concretization_error("The error occurred because ravel_multi_index was jit-compiled with mode='raise'. Use mode='wrap' or mode='clip' instead.")
            h = np.asarray(i)
            if np.any((h < 0) | (h >= d)):
                raise ValueError("invalid entry in coordinates array")
    elif mode == "wrap":
        idxs = [_mod(i, d) for i, d in zip(idxs, dims)]
    elif mode == "clip":
        idxs = [lax.max(lax.min(i, np.asarray(d - 1, i.dtype)), np.zeros((), i.dtype)) for i, d in zip(idxs, dims)]
    else:
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', or 'clip'")
    shape = jshape.broadcast_shapes(*(i.shape for i in idxs))
    pairs = list(zip(idxs, dims))
    if order == "F":
        pairs = pairs[::-1]
    total: Array = jshape.broadcast_to(np.zeros((), idxs[0].dtype), shape)
    stride = 1
    for i, d in reversed(pairs):
        total = lax.add(total, jshape.broadcast_to(lax.mul(i, np.asarray(stride, i.dtype)), shape))
        stride *= d
    return total


def ix_(*args: ArrayLike) -> tuple[Array, ...]:
    """Open mesh index arrays from 1-D sequences (``x[ix_(rows, cols)]`` selects a block)."""
    check_arraylike("ix_", *args)
    n = len(args)
    out: list[Array] = []
    for i, a in enumerate(args):
        x = ensure_array(a)
        if x.ndim != 1:
            raise ValueError(f"Arguments to jax.numpy.ix_ must be 1-dimensional, got shape {x.shape}")
        if x.dtype == np.bool_:
            raise NotImplementedError("Boolean arguments to jax.numpy.ix_ are not implemented")
        shape = [1] * n
        shape[i] = x.shape[0]
        out.append(jshape.reshape(x, tuple(shape)))
    return tuple(out)


def indices(dimensions: Sequence[int], dtype: DTypeLike | None = None, sparse: bool = False) -> Any:
    """A grid of index arrays for an array of shape ``dimensions`` (stacked, or a sparse tuple)."""
    from jax_core._src.numpy.util import user_dtype

    dt = user_dtype(dtype, "indices") or dtypes.default_int_dtype()
    dims = tuple(int(d) for d in dimensions)
    n = len(dims)
    grids: list[Array] = []
    for i, d in enumerate(dims):
        shape = [1] * n
        shape[i] = d
        g = jshape.reshape(shape_assembly.iota(dt, d), tuple(shape))
        grids.append(g if sparse else jshape.broadcast_to(g, dims))
    if sparse:
        return tuple(grids)
    if not grids:
        return ensure_array(np.zeros((0,), dt))
    return jshape.stack(grids, 0)
