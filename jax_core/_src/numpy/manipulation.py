"""Array manipulation: axes moves, flips, rolls, tiling, padding, splitting and joining."""

from __future__ import annotations

import builtins
import operator
from collections.abc import Sequence
from typing import Any, cast, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axes,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    hashable,
    jitted,
    promote_dtypes,
)
from jax_core._src.typing import ArrayLike, ShapeLike, shape_entries
from jax_core._src.typing.basearray import Array


def _arr(name: str, a: ArrayLike) -> Array:
    check_arraylike(name, a)
    return ensure_array(a)


def slice_axis(x: Array, axis: int, start: int, stop: int, step: int = 1) -> Array:
    lo = [0] * x.ndim
    hi = list(x.shape)
    st = [1] * x.ndim
    lo[axis], hi[axis], st[axis] = start, stop, step
    return slicing.slice(x, tuple(lo), tuple(hi), tuple(st) if step != 1 else None)


# -- axes -------------------------------------------------------------------------------


def moveaxis(a: ArrayLike, source: int | Sequence[int], destination: int | Sequence[int]) -> Array:
    """``a`` with axes ``source`` moved to positions ``destination``."""
    src = (source,) if isinstance(source, (int, np.integer)) else tuple(source)
    dst = (destination,) if isinstance(destination, (int, np.integer)) else tuple(destination)
    return _moveaxis(a, src, dst) if hashable(src, dst) else _moveaxis_body(a, src, dst)


def _moveaxis_body(a: ArrayLike, src: tuple[int, ...], dst: tuple[int, ...]) -> Array:
    x = _arr("moveaxis", a)
    if len(src) != len(dst):
        raise ValueError("Inconsistent number of elements: {} vs {}".format(len(src), len(dst)))
    src_c = [canonicalize_axis(int(s), x.ndim) for s in src]
    dst_c = [canonicalize_axis(int(d), x.ndim) for d in dst]
    perm = [i for i in range(x.ndim) if i not in src_c]
    for d, s in sorted(zip(dst_c, src_c)):
        perm.insert(d, s)
    return jshape.transpose(x, perm)


@jitted(static=('axis', 'start'), inline=False)
def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> Array:
    """Rolls ``axis`` backwards until it lies before ``start`` (prefer ``moveaxis``)."""
    x = _arr("rollaxis", a)
    axis = canonicalize_axis(axis, x.ndim)
    if not -x.ndim <= start <= x.ndim:
        raise ValueError(f"start={start} must satisfy {-x.ndim}<=start<={x.ndim}")
    start = start % (x.ndim + 1) if start < 0 else start
    if axis < start:
        start -= 1
    if axis == start:
        return x
    return moveaxis(x, axis, start)


def permute_dims(a: ArrayLike, /, axes: tuple[int, ...]) -> Array:
    """``a`` with its axes permuted (array API name of ``transpose``)."""
    return jshape.transpose(_arr("permute_dims", a), axes)


def matrix_transpose(x: ArrayLike, /) -> Array:
    """Swaps the last two axes (needs ``ndim >= 2``)."""
    a = _arr("matrix_transpose", x)
    if a.ndim < 2:
        raise ValueError(f"x must be at least two-dimensional for matrix_transpose; got ndim={a.ndim}")
    return jshape.swapaxes(a, -1, -2)


# -- flips and rolls ----------------------------------------------------------------------


def flip(m: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    """``m`` with the order of elements reversed along ``axis`` (all axes by default)."""
    from jax_core._src.numpy.reductions import static_axes

    return _flip(_arr("flip", m), static_axes(axis))


@jitted(static=("axis",), inline=False)
def _flip(m: Array, axis: int | tuple[int, ...] | None = None) -> Array:
    axes = canonicalize_axes(axis, m.ndim)
    return shape_assembly.rev(m, axes) if axes else m


def fliplr(m: ArrayLike) -> Array:
    """Reverses axis 1."""
    return _flip(_arr("fliplr", m), 1)


def flipud(m: ArrayLike) -> Array:
    """Reverses axis 0."""
    return _flip(_arr("flipud", m), 0)


def _index_tuple(v: Any) -> tuple[int, ...]:
    """``v`` as a tuple of Python ints (``TypeError`` for traced or non-integer values)."""
    if isinstance(v, Tracer):
        raise TypeError("traced")
    if isinstance(v, (Array, np.ndarray)):
        arr: np.ndarray[Any, Any] = np.asarray(cast(Any, v))
        if not dtypes.issubdtype(arr.dtype, np.integer):
            raise TypeError("not integer")
        flat: np.ndarray[Any, Any] = np.ravel(arr)
        return tuple(int(e) for e in flat)
    try:
        return (operator.index(v),)
    except TypeError:
        return tuple(operator.index(e) for e in v)


@jitted(static_argnums=(1, 2), inline=False)
def _roll_static(a: Array, shift: tuple[int, ...], axis: tuple[int, ...]) -> Array:
    for ax, s in zip(*np.broadcast_arrays(np.asarray(axis), np.asarray(shift)), strict=True):
        ax, n = int(ax), a.shape[int(ax)]
        if n == 0:
            continue
        i = (-int(s)) % n
        a = jshape.concatenate([slice_axis(a, ax, i, n), slice_axis(a, ax, 0, i)], ax)
    return a


@jitted(static_argnums=(2,), inline=False)
def _roll_dynamic(a: Array, shift: Array, axis: tuple[int, ...]) -> Array:
    bshape = np.broadcast_shapes(shift.shape, np.shape(axis))
    if len(bshape) != 1:
        raise ValueError("'shift' and 'axis' arguments to roll must be scalars or 1D arrays")
    shifts = jshape.broadcast_to(shift, bshape)
    for k, ax in enumerate(np.broadcast_to(np.asarray(axis), bshape)):
        ax = int(ax)
        n = a.shape[ax]
        doubled = jshape.concatenate([a, a], ax)
        size = np.int32(builtins.max(n, 1))
        sh = lax.rem(lax.convert_element_type(shifts[k], np.int32), size)
        sh = lax.select(lax.lt(sh, np.int32(0)), lax.add(sh, size), sh)
        starts: list[Any] = [np.int32(0)] * a.ndim
        starts[ax] = lax.sub(np.int32(n), sh)
        a = slicing.dynamic_slice(doubled, starts, a.shape)
    return a


def roll(a: ArrayLike, shift: ArrayLike | Sequence[int], axis: int | Sequence[int] | None = None) -> Array:
    """Elements shifted by ``shift`` along ``axis`` (of the flattened array by default), wrapping
    around; a traced shift rolls with a dynamic slice (``jit[name=_roll_dynamic]``)."""
    x = _arr("roll", a)
    if axis is None:
        return jshape.reshape(roll(jshape.ravel(x), shift, 0), x.shape)
    axes = tuple(canonicalize_axis(int(ax), x.ndim) for ax in ((axis,) if isinstance(axis, (int, np.integer)) else axis))
    try:
        shifts = _index_tuple(shift)
    except TypeError:
        return _roll_dynamic(x, ensure_array(cast("ArrayLike", shift)), axes)
    return _roll_static(x, shifts, axes)


@jitted(static=('k', 'axes'), inline=False)
def rot90(m: ArrayLike, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Array:
    """``m`` rotated by 90 degrees ``k`` times in the plane of ``axes``."""
    x = _arr("rot90", m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if x.ndim < 2:
        raise ValueError(f"rot90 requires its first argument to have ndim at least two, but got first argument of shape {x.shape}, which has ndim {x.ndim}")
    a0, a1 = canonicalize_axis(axes[0], x.ndim), canonicalize_axis(axes[1], x.ndim)
    if a0 == a1:
        raise ValueError("Axes must be different")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return flip(flip(x, a0), a1)
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return jshape.transpose(flip(x, a1), perm)
    return flip(jshape.transpose(x, perm), a1)


# -- tiling and repetition ----------------------------------------------------------------


_moveaxis_body.__name__ = _moveaxis_body.__qualname__ = "_moveaxis"
_moveaxis = jitted(static=("src", "dst"))(_moveaxis_body)


def tile(A: ArrayLike, reps: int | Sequence[int]) -> Array:
    """``A`` repeated ``reps`` times along each axis."""
    key = reps if isinstance(reps, (int, np.integer)) else tuple(reps)
    return _tile(A, key) if hashable(key) else _tile_body(A, reps)


def _tile_body(A: ArrayLike, reps: int | Sequence[int]) -> Array:
    x = _arr("tile", A)
    r = (int(reps),) if isinstance(reps, (int, np.integer)) else tuple(int(v) for v in reps)
    nd = builtins.max(len(r), x.ndim)
    r = (1,) * (nd - len(r)) + r
    x = jshape.reshape(x, (1,) * (nd - x.ndim) + x.shape)
    # Broadcast to (r0, s0, r1, s1, ...) then merge each pair.
    inter = tuple(v for pair in zip(r, x.shape) for v in pair)
    b = shape_dims.broadcast_in_dim(x, inter, tuple(range(1, 2 * nd, 2)))
    return jshape.reshape(b, tuple(rv * s for rv, s in zip(r, x.shape)))


_tile = jitted(static=("reps",))(_tile_body)


def repeat(a: ArrayLike, repeats: ArrayLike, axis: int | None = None, *, total_repeat_length: int | None = None) -> Array:
    """Each element repeated ``repeats`` times along ``axis`` (flattened by default).

    Array ``repeats`` must be concrete unless ``total_repeat_length`` gives the output size.
    """
    x = _arr("repeat", a)
    check_arraylike("repeat", repeats)
    if axis is None:
        x = jshape.ravel(x)
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if jshape.ndim(repeats) == 0 and not isinstance(repeats, Tracer):
        r = int(np.asarray(repeats))
        if r < 0:
            raise ValueError("repeats may not contain negative values.")
        out_len = n * r
        if total_repeat_length is not None and total_repeat_length != out_len:
            reps = np.full((n,), r)
            return _repeat_indices(x, ax, np.repeat(np.arange(n), reps), total_repeat_length)
        shape = list(x.shape)
        b = shape_dims.broadcast_in_dim(x, (*x.shape[: ax + 1], r, *x.shape[ax + 1 :]), tuple(i if i <= ax else i + 1 for i in range(x.ndim)))
        shape[ax] = out_len
        return jshape.reshape(b, tuple(shape))
    if isinstance(repeats, Tracer):
        if total_repeat_length is None:
            repeats.concretization_error(
                "jnp.repeat with a non-constant `repeats` is supported only when `total_repeat_length` is specified."
            )
        reps_arr = jshape.broadcast_to(repeats, (n,))
        return _repeat_traced(x, ax, reps_arr, total_repeat_length)
    reps_np = np.broadcast_to(np.asarray(repeats), (n,))
    idx = np.repeat(np.arange(n), reps_np)
    return _repeat_indices(x, ax, idx, total_repeat_length)


def _repeat_indices(x: Array, ax: int, idx: np.ndarray[Any, Any], total: int | None) -> Array:
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    if total is not None:
        idx = np.concatenate([idx, np.full((builtins.max(total - idx.size, 0),), idx[-1] if idx.size else 0)])[:total]
    return take(x, np.asarray(idx, np.int32), axis=ax)


def _repeat_traced(x: Array, ax: int, reps: Array, total: int | None) -> Array:
    from jax_core._src.lax.reductions.cumulative import cumsum
    from jax_core._src.numpy.creation import zeros
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    assert total is not None
    ends = cumsum(lax.convert_element_type(reps, np.int32), 0)
    marks = zeros((total + 1,), np.int32).at[ends].add(np.int32(1), mode="drop")
    idx = slice_axis(cumsum(marks, 0), 0, 0, total)
    idx = lax.min(idx, np.int32(builtins.max(x.shape[ax] - 1, 0)))
    return take(x, idx, axis=ax)


# -- joining --------------------------------------------------------------------------------


@overload
def atleast_1d(arys: ArrayLike, /) -> Array: ...
@overload
def atleast_1d(arys0: ArrayLike, arys1: ArrayLike, /, *arys: ArrayLike) -> list[Array]: ...
@jitted(inline=False)
def atleast_1d(*arys: ArrayLike) -> Array | list[Array]:
    """Each input with at least one dimension (a list if several are given)."""
    out = [_atleast(a, 1, "atleast_1d") for a in arys]
    return out[0] if len(out) == 1 else out


@overload
def atleast_2d(arys: ArrayLike, /) -> Array: ...
@overload
def atleast_2d(arys0: ArrayLike, arys1: ArrayLike, /, *arys: ArrayLike) -> list[Array]: ...
@jitted(inline=False)
def atleast_2d(*arys: ArrayLike) -> Array | list[Array]:
    """Each input with at least two dimensions (a list if several are given)."""
    out = [_atleast(a, 2, "atleast_2d") for a in arys]
    return out[0] if len(out) == 1 else out


@overload
def atleast_3d(arys: ArrayLike, /) -> Array: ...
@overload
def atleast_3d(arys0: ArrayLike, arys1: ArrayLike, /, *arys: ArrayLike) -> list[Array]: ...
@jitted(inline=False)
def atleast_3d(*arys: ArrayLike) -> Array | list[Array]:
    """Each input with at least three dimensions (a list if several are given)."""
    out = [_atleast(a, 3, "atleast_3d") for a in arys]
    return out[0] if len(out) == 1 else out


def _atleast(a: ArrayLike, n: int, name: str) -> Array:
    x = _arr(name, a)
    if x.ndim >= n:
        return x
    if n == 1:
        return jshape.reshape(x, (1,))
    if n == 2:
        return jshape.reshape(x, (1,) * (2 - x.ndim) + x.shape)
    if x.ndim == 0:
        return jshape.reshape(x, (1, 1, 1))
    if x.ndim == 1:
        return jshape.reshape(x, (1, x.shape[0], 1))
    return jshape.reshape(x, (*x.shape, 1))


def _seq(name: str, tup: Sequence[ArrayLike] | ArrayLike) -> list[ArrayLike]:
    if isinstance(tup, (Array, np.ndarray)):
        return [tup[i] for i in range(len(tup))]
    if not isinstance(tup, (list, tuple)):
        raise TypeError(f"{name} requires a sequence of arrays")
    return list(tup)


def hstack(tup: Sequence[ArrayLike] | ArrayLike, dtype: Any = None) -> Array:
    """Joins arrays column-wise (axis 1; axis 0 for 1-D inputs)."""
    arrs = [atleast_1d(a) for a in _seq("hstack", tup)]
    out = jshape.concatenate(arrs, 0 if arrs and arrs[0].ndim == 1 else 1)
    return out if dtype is None else lax.convert_element_type(out, dtype)


def vstack(tup: Sequence[ArrayLike] | ArrayLike, dtype: Any = None) -> Array:
    """Joins arrays row-wise (axis 0, after making them at least 2-D)."""
    out = jshape.concatenate([atleast_2d(a) for a in _seq("vstack", tup)], 0)
    return out if dtype is None else lax.convert_element_type(out, dtype)


row_stack = vstack


def dstack(tup: Sequence[ArrayLike] | ArrayLike, dtype: Any = None) -> Array:
    """Joins arrays along the third axis (after making them at least 3-D)."""
    out = jshape.concatenate([atleast_3d(a) for a in _seq("dstack", tup)], 2)
    return out if dtype is None else lax.convert_element_type(out, dtype)


def column_stack(tup: Sequence[ArrayLike] | ArrayLike) -> Array:
    """Stacks 1-D arrays as columns of a 2-D array (2-D inputs are joined as is)."""
    arrs: list[Array] = []
    for a in _seq("column_stack", tup):
        x = _arr("column_stack", a)
        arrs.append(jshape.reshape(x, (x.size, 1)) if x.ndim < 2 else x)
    return jshape.concatenate(arrs, 1)


def concat(arrays: Sequence[ArrayLike], /, *, axis: int | None = 0) -> Array:
    """Array API name of ``concatenate``."""
    return jshape.concatenate(arrays, axis)


@jitted(static=('axis',), inline=True)
def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, as a tuple."""
    a = _arr("unstack", x)
    if a.ndim == 0:
        raise ValueError("Unstack requires arrays with rank > 0, however a scalar array was passed.")
    ax = canonicalize_axis(axis, a.ndim)
    return tuple(shape_dims.squeeze(slice_axis(a, ax, i, i + 1), (ax,)) for i in range(a.shape[ax]))


@jitted(inline=False)
def block(arrays: Any) -> Array:
    """Assembles an array from nested lists of blocks (as ``numpy.block``)."""

    def depth(x: Any) -> int:
        return 1 + depth(x[0]) if isinstance(x, list) and x else (1 if isinstance(x, list) else 0)

    if isinstance(arrays, tuple):
        raise TypeError(f"jax.numpy.block does not allow tuples, got {arrays!r}")
    d = depth(arrays)

    def rec(x: Any, level: int, result_ndim: int) -> Array:
        if isinstance(x, list):
            items: list[Any] = x  # pyright: ignore[reportUnknownVariableType]
            if not items:
                raise ValueError("Lists cannot be empty")
            parts = [rec(e, level + 1, result_ndim) for e in items]
            return jshape.concatenate(parts, axis=-(d - level))
        if isinstance(x, tuple):
            raise TypeError("jax.numpy.block does not allow tuples")
        a = _arr("block", x)
        return jshape.reshape(a, (1,) * (result_ndim - a.ndim) + a.shape) if a.ndim < result_ndim else a

    leaves: list[Array] = []

    def collect(x: Any) -> None:
        if isinstance(x, list):
            items: list[Any] = x  # pyright: ignore[reportUnknownVariableType]
            for e in items:
                collect(e)
        else:
            leaves.append(_arr("block", x))

    collect(arrays)
    nd = builtins.max([d] + [leaf.ndim for leaf in leaves])
    if not isinstance(arrays, list):
        return _arr("block", arrays)
    return rec(arrays, 0, nd)


def broadcast_arrays(*args: ArrayLike) -> list[Array]:
    """The arguments broadcast to their common shape."""
    check_arraylike("broadcast_arrays", *args)
    shape = jshape.broadcast_shapes(*(jshape.shape(a) for a in args))
    return [jshape.broadcast_to(a, shape) for a in args]


@jitted(static=('axis',), inline=False)
def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` appended to ``arr`` along ``axis`` (both flattened by default)."""
    check_arraylike("append", arr, values)
    if axis is None:
        return jshape.concatenate([jshape.ravel(arr), jshape.ravel(values)], 0)
    return jshape.concatenate([arr, values], axis)


# -- splitting ------------------------------------------------------------------------------


def _split(name: str, ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int, strict: bool) -> list[Array]:
    given: Any = indices_or_sections
    ios: Any = given
    if isinstance(given, np.ndarray) and given.ndim == 1:
        ios = tuple(cast(list[Any], given.tolist()))
    elif isinstance(given, (list, tuple)):
        ios = tuple(cast(Sequence[Any], given))
    if hashable(ios, axis) and not isinstance(ios, Array):
        out: list[Array] = _split_staged(name, ary, ios, axis, strict)
        return out
    return _split_body(name, ary, indices_or_sections, axis, strict)


def _split_body(name: str, ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int, strict: bool) -> list[Array]:
    x = _arr(name, ary)
    if x.ndim == 0:  # JAX indexes the shape: an IndexError
        raise IndexError(f"jnp.{name} needs an array of at least one dimension, got a 0-d array")
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    if isinstance(indices_or_sections, Tracer):
        indices_or_sections.concretization_error(f"jnp.{name} requires concrete indices_or_sections")
    ios = np.asarray(indices_or_sections)
    if ios.ndim == 0:
        sections = int(ios)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        if strict and n % sections:
            raise ValueError(f"array split does not result in an equal division: rest is {n % sections}")
        q, r = builtins.divmod(n, sections)
        sizes = [q + 1] * r + [q] * (sections - r)
        bounds = np.cumsum([0] + sizes)
    else:
        bounds = np.concatenate([[0], ios.astype(np.int64), [n]])
    out: list[Array] = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        lo_c = int(np.clip(lo if lo >= 0 else lo + n, 0, n))
        hi_c = int(np.clip(hi if hi >= 0 else hi + n, 0, n))
        out.append(slice_axis(x, ax, lo_c, builtins.max(lo_c, hi_c)))
    return out


_split_staged = jitted(static=("name", "indices_or_sections", "axis", "strict"))(_split_body)


def split(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int = 0) -> list[Array]:
    """Splits into equal sections (an error if they are not equal) or at the given indices."""
    return _split("split", ary, indices_or_sections, axis, True)


def array_split(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int = 0) -> list[Array]:
    """Splits into sections that may differ in size by one, or at the given indices."""
    return _split("array_split", ary, indices_or_sections, axis, False)


def hsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    """``split`` along axis 1 (axis 0 for 1-D arrays)."""
    x = _arr("hsplit", ary)
    return _split("hsplit", x, indices_or_sections, 0 if x.ndim == 1 else 1, True)


def vsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    """``split`` along axis 0 (needs ``ndim >= 2``)."""
    x = _arr("vsplit", ary)
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split("vsplit", x, indices_or_sections, 0, True)


def dsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    """``split`` along axis 2 (needs ``ndim >= 3``)."""
    x = _arr("dsplit", ary)
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split("dsplit", x, indices_or_sections, 2, True)


# -- insert / delete / resize / trim ----------------------------------------------------------


def _concrete_indices(name: str, obj: Any, n: int) -> np.ndarray[Any, Any]:
    if isinstance(obj, Tracer):
        obj.concretization_error(f"jnp.{name} requires concrete indices (obj).")
    if isinstance(obj, slice):
        return np.arange(n)[obj]
    return np.asarray(obj)


def delete(arr: ArrayLike, obj: ArrayLike | slice | Sequence[int], axis: int | None = None, *, assume_unique_indices: bool = False) -> Array:
    """``arr`` without the entries ``obj`` along ``axis`` (flattened by default); ``obj`` concrete."""
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    x = _arr("delete", arr)
    if isinstance(obj, (list, tuple)):
        raise TypeError(f"delete requires ndarray or scalar arguments, got {type(obj)} at position 1.")
    if axis is None:
        x = jshape.ravel(x)
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    idx = _concrete_indices("delete", obj, n)
    if idx.dtype == np.bool_:
        if idx.shape != (n,):
            raise ValueError("np.delete(arr, obj): for boolean indices, obj must be one-dimensional with length matching specified axis.")
        keep = ~idx
    else:
        if not np.issubdtype(idx.dtype, np.integer) and idx.size:
            raise ValueError("np.delete(arr, obj): obj must be integer or boolean.")
        keep = np.ones(n, bool)
        flat = idx.astype(np.int64).ravel()
        if np.any((flat < -n) | (flat >= n)):
            raise IndexError(f"index out of bounds for axis {ax} with size {n}")
        keep[flat] = False
    return take(x, np.nonzero(keep)[0].astype(np.int32), axis=ax)


def insert(arr: ArrayLike, obj: ArrayLike | slice | Sequence[int], values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` inserted into ``arr`` before the indices ``obj`` along ``axis`` (``obj`` concrete)."""
    from jax_core._src.numpy.creation import array as make_array
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    x = _arr("insert", arr)
    if isinstance(obj, (list, tuple)):
        raise TypeError(f"insert requires ndarray or scalar arguments, got {type(obj)} at position 1.")
    check_arraylike("insert", values)
    if axis is None:
        x = jshape.ravel(x)
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    n = x.shape[ax]
    idx = _concrete_indices("insert", obj, n)
    if idx.ndim > 1:
        raise ValueError(f"jnp.insert(): obj must be a slice, a one-dimensional array, or a scalar; got {obj}")
    if not np.issubdtype(idx.dtype, np.integer):
        if idx.size == 0:
            idx = idx.astype(np.int64)
        else:
            raise ValueError(f"jnp.insert(): index array must be integer typed; got {obj}")
    vals = make_array(values, dtype=x.dtype, ndmin=x.ndim)
    if idx.size == 1:
        if idx.ndim == 0:
            vals = moveaxis(vals, 0, ax)
        idx = np.full((vals.shape[ax],), int(idx.ravel()[0]))
    m = jshape.broadcast_shapes(idx.shape, (vals.shape[ax],))[0]
    idx = np.broadcast_to(idx, (m,)).astype(np.int64)
    vshape = list(x.shape)
    vshape[ax] = m
    v = jshape.broadcast_to(vals, tuple(vshape))
    idx = np.clip(np.where(idx < 0, idx + n, idx), 0, n)
    order = np.argsort(idx, kind="stable")
    positions = np.empty(m, np.int64)
    positions[order] = idx[order] + np.arange(m)
    is_new = np.zeros(n + m, bool)
    is_new[positions] = True
    src = np.empty(n + m, np.int64)
    src[~is_new] = np.arange(n)
    src[positions] = n + np.arange(m)
    return take(jshape.concatenate([x, v], ax), src.astype(np.int32), axis=ax)


@jitted(static=('new_shape',), inline=False)
def resize(a: ArrayLike, new_shape: ShapeLike) -> Array:
    """``a`` repeated (flattened, cyclically) to fill ``new_shape``."""
    x = _arr("resize", a)
    shape = tuple(operator.index(s) for s in shape_entries(new_shape))
    if builtins.any(s < 0 for s in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = int(np.prod(shape, dtype=np.int64))
    flat = jshape.ravel(x)
    if size == 0 or flat.size == 0:
        from jax_core._src.numpy.creation import zeros

        return zeros(shape, x.dtype)
    reps = -(-size // flat.size)
    return jshape.reshape(slice_axis(tile(flat, reps), 0, 0, size), shape)


def trim_zeros(filt: ArrayLike, trim: str = "fb") -> Array:
    """``filt`` (1-D, concrete) without leading (``'f'``) and/or trailing (``'b'``) zeros."""
    x = _arr("trim_zeros", filt)
    if x.ndim != 1:
        raise TypeError(f"'filt' must be 1-D array, but received {x.ndim}-D array.")
    if isinstance(x, Tracer):
        x.concretization_error("jnp.trim_zeros needs a concrete input.")
    nz = np.nonzero(np.asarray(x))[0]
    if nz.size == 0:
        return slice_axis(x, 0, 0, 0)
    start = int(nz[0]) if "f" in trim.lower() else 0
    stop = int(nz[-1]) + 1 if "b" in trim.lower() else x.shape[0]
    return slice_axis(x, 0, start, stop)


@jitted(static=("axis",))
def _promoted_concat(arrays: Sequence[ArrayLike], axis: int) -> Array:
    return jshape.concatenate([ensure_array(a) for a in promote_dtypes(*arrays)], axis)
