"""Set operations with JAX's ``size=``/``fill_value=`` semantics: unique, union1d,
intersect1d, setdiff1d, setxor1d, isin.

Outside transformations the output size is read from the data; inside them ``size``
must be given, and results are padded with ``fill_value`` (default: the smallest
unique value) or truncated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax import sorting as lax_sort
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
    promote_dtypes,
)
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


class UniqueAllResult(NamedTuple):
    """``unique_all``'s result: values, first indices, inverse indices and counts."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """``unique_counts``'s result: values and counts."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """``unique_inverse``'s result: values and inverse indices (shaped like the input)."""

    values: Array
    inverse_indices: Array


def _concrete_size(name: str, x: Array, count: Callable[[np.ndarray[Any, Any]], int]) -> int:
    if isinstance(x, Tracer):
        x.concretization_error(
            f"The error arose for the first argument of jnp.{name}(). To make jnp.{name}() compatible with JIT and other "
            "transforms, you can specify a concrete value for the size argument, which will determine the output size."
        )
    return int(count(np.asarray(x)))


def _neq(a: Array, b: Array, equal_nan: bool) -> Array:
    ne = lax.ne(a, b)
    if equal_nan and dtypes.issubdtype(a.dtype, np.inexact):
        both_nan = lax.bitwise_and(lax.ne(a, a), lax.ne(b, b))
        ne = lax.bitwise_and(ne, lax.bitwise_not(both_nan))
    return ne


def _unique_1d(x: Array, size: int | None, fill_value: ArrayLike | None, equal_nan: bool, name: str) -> tuple[Array, Array, Array, Array]:
    """(values, first indices, inverse (flat), counts), each of length ``size``."""
    if size is None:
        size = _concrete_size(name, x, lambda h: np.unique(h, equal_nan=equal_nan).size)
    return _unique_sized(x, fill_value, size=int(size), equal_nan=equal_nan)


@jitted(static=("size", "equal_nan"))
def _unique_sized(x: Array, fill_value: ArrayLike | None, *, size: int, equal_nan: bool) -> tuple[Array, Array, Array, Array]:
    idt = dtypes.default_int_dtype()
    n = x.shape[0]
    if n == 0:
        z = ensure_array(np.zeros((size,), x.dtype))
        zi = ensure_array(np.zeros((size,), idt))
        return z, zi, ensure_array(np.zeros((0,), idt)), zi
    iota = shape_assembly.iota(idt, n)
    sx, perm = lax_sort.sort((x, iota), 0, True, 1)
    first = ensure_array(np.ones((1,), np.bool_))
    mask = jshape.concatenate([first, _neq(sx[1:], sx[:-1], equal_nan)], 0) if n > 1 else first
    from jax_core._src.numpy.indexing_funcs import nonzero, take_traced as take

    (pos,) = nonzero(mask, size=size, fill_value=n)
    count = lax_red_reduce.reduce_sum(lax.convert_element_type(mask, idt), (0,))
    valid = lax.lt(shape_assembly.iota(idt, size), count)
    vals = take(sx, pos, mode="clip")
    fill = sx[0] if fill_value is None else lax.convert_element_type(ensure_array(fill_value), x.dtype)
    vals = lax.select(valid, vals, jshape.broadcast_to(fill, vals.shape))
    first_idx = take(perm, pos, mode="clip")
    # padding repeats the first unique value's index, as JAX's
    first_idx = lax.select(valid, first_idx, jshape.broadcast_to(perm[0], first_idx.shape))
    group = lax.sub(lax_red_cumulative.cumsum(lax.convert_element_type(mask, idt), 0), np.ones((), idt))
    inverse = ensure_array(np.zeros((n,), idt)).at[perm].set(group)
    ends = jshape.concatenate([pos[1:], ensure_array(np.full((1,), n, idt))], 0) if size > 0 else pos
    ends = lax.select(lax.lt(shape_assembly.iota(idt, size), lax.sub(count, np.ones((), idt))), ends, jshape.broadcast_to(np.asarray(n, idt), ends.shape))
    counts = lax.select(valid, lax.sub(ends, pos), jshape.broadcast_to(np.zeros((), idt), pos.shape))
    return vals, first_idx, inverse, counts


def _unique_axis(x: Array, axis: int, size: int | None, fill_value: ArrayLike | None, name: str) -> tuple[Array, Array, Array, Array]:
    from jax_core._src.numpy.indexing_funcs import nonzero, take_traced as take
    from jax_core._src.numpy.manipulation import moveaxis

    idt = dtypes.default_int_dtype()
    ax = canonicalize_axis(axis, x.ndim)
    moved = moveaxis(x, ax, 0)
    n = moved.shape[0]
    rows = jshape.reshape(moved, (n, -1))
    m = rows.shape[1]
    if size is None:
        size = _concrete_size(name, x, lambda h: np.unique(h, axis=ax).shape[ax])
    iota = shape_assembly.iota(idt, n)
    cols = [rows[:, j] for j in range(m)]
    out = lax_sort.sort((*cols, iota), 0, True, builtins_max(m, 1)) if m else (iota,)
    perm = out[-1]
    srows = take(rows, perm, axis=0)
    if n > 1 and m:
        from jax_core._src.numpy.reductions import any as any_

        diff = any_(lax.ne(srows[1:], srows[:-1]), axis=1)
        mask = jshape.concatenate([ensure_array(np.ones((1,), np.bool_)), diff], 0)
    else:
        mask = jshape.concatenate([ensure_array(np.ones((1,), np.bool_)), ensure_array(np.zeros((builtins_max(n - 1, 0),), np.bool_))], 0)
    (pos,) = nonzero(mask, size=size, fill_value=n)
    count = lax_red_reduce.reduce_sum(lax.convert_element_type(mask, idt), (0,))
    valid = lax.lt(shape_assembly.iota(idt, size), count)
    vals = take(srows, pos, axis=0, mode="clip")
    fill_row = srows[0] if fill_value is None else jshape.broadcast_to(lax.convert_element_type(ensure_array(fill_value), x.dtype), (m,))
    vals = lax.select(jshape.broadcast_to(jshape.reshape(valid, (size, 1)), vals.shape), vals, jshape.broadcast_to(fill_row, vals.shape))
    vals = moveaxis(jshape.reshape(vals, (size, *moved.shape[1:])), 0, ax)
    first_idx = lax.select(valid, take(perm, pos, mode="clip"), jshape.broadcast_to(perm[0], (size,)))
    group = lax.sub(lax_red_cumulative.cumsum(lax.convert_element_type(mask, idt), 0), np.ones((), idt))
    inverse = ensure_array(np.zeros((n,), idt)).at[perm].set(group)
    ends = jshape.concatenate([pos[1:], ensure_array(np.full((1,), n, idt))], 0)
    ends = lax.select(lax.lt(shape_assembly.iota(idt, size), lax.sub(count, np.ones((), idt))), ends, jshape.broadcast_to(np.asarray(n, idt), (size,)))
    counts = lax.select(valid, lax.sub(ends, pos), jshape.broadcast_to(np.zeros((), idt), (size,)))
    return vals, first_idx, inverse, counts


def builtins_max(a: int, b: int) -> int:
    """``max`` of two ints (the module shadows no builtin, but keeps this explicit)."""
    return a if a > b else b


@overload
def unique(
    ar: ArrayLike,
    return_index: Literal[False] = False,
    return_inverse: Literal[False] = False,
    return_counts: Literal[False] = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
    sorted: bool = True,
) -> Array: ...
@overload
def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
    sorted: bool = True,
) -> Array | tuple[Array, ...]: ...
def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
    sorted: bool = True,
) -> Array | tuple[Array, ...]:
    """The sorted unique elements (and optionally first indices, inverse indices, counts)."""
    check_arraylike("unique", ar)
    x = ensure_array(ar)
    if axis is None:
        vals, idx, inv, counts = _unique_1d(jshape.ravel(x), size, fill_value, equal_nan, "unique")
        inv_out = jshape.reshape(inv, x.shape) if x.ndim else inv
    else:
        vals, idx, inv, counts = _unique_axis(x, axis, size, fill_value, "unique")
        inv_out = inv
    out: list[Array] = [vals]
    if return_index:
        out.append(idx)
    if return_inverse:
        out.append(inv_out)
    if return_counts:
        out.append(counts)
    return out[0] if len(out) == 1 else tuple(out)


def unique_all(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> UniqueAllResult:
    """Unique values with their first indices, inverse indices (shaped like ``x``) and counts."""
    check_arraylike("unique_all", x)
    a = ensure_array(x)
    vals, idx, inv, counts = _unique_1d(jshape.ravel(a), size, fill_value, False, "unique_all")
    return UniqueAllResult(vals, idx, jshape.reshape(inv, a.shape), counts)


def unique_counts(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> UniqueCountsResult:
    """Unique values and their counts."""
    check_arraylike("unique_counts", x)
    vals, _, _, counts = _unique_1d(jshape.ravel(ensure_array(x)), size, fill_value, False, "unique_counts")
    return UniqueCountsResult(vals, counts)


def unique_inverse(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> UniqueInverseResult:
    """Unique values and the inverse indices (shaped like ``x``) that rebuild ``x``."""
    check_arraylike("unique_inverse", x)
    a = ensure_array(x)
    vals, _, inv, _ = _unique_1d(jshape.ravel(a), size, fill_value, False, "unique_inverse")
    return UniqueInverseResult(vals, jshape.reshape(inv, a.shape))


def unique_values(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """The sorted unique values of ``x``."""
    check_arraylike("unique_values", x)
    return _unique_1d(jshape.ravel(ensure_array(x)), size, fill_value, False, "unique_values")[0]


def _flat_pair(name: str, ar1: ArrayLike, ar2: ArrayLike) -> tuple[Array, Array]:
    check_arraylike(name, ar1, ar2)
    a, b = (jshape.ravel(ensure_array(t)) for t in promote_dtypes(ar1, ar2))
    return a, b


def union1d(ar1: ArrayLike, ar2: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """The sorted unique values in either array."""
    a, b = _flat_pair("union1d", ar1, ar2)
    return _unique_1d(jshape.concatenate([a, b], 0), size, fill_value, True, "union1d")[0]


def isin(element: ArrayLike, test_elements: ArrayLike, assume_unique: bool = False, invert: bool = False, *, method: str = "auto") -> Array:
    """Whether each element of ``element`` is in ``test_elements`` (shaped like ``element``)."""
    check_arraylike("isin", element, test_elements)
    flat = _in1d(element, test_elements, assume_unique=assume_unique, invert=invert, method=method)
    return jshape.reshape(flat, jshape.shape(element))


@jitted(static=("assume_unique", "invert", "method"), inline=False)
def _in1d(ar1: ArrayLike, ar2: ArrayLike, invert: bool, method: str = "auto", assume_unique: bool = False) -> Array:
    """``isin`` of the flattened arrays: every element compared with every test element (the
    answer of each of JAX's methods)."""
    check_arraylike("in1d", ar1, ar2)
    e, t = (jshape.ravel(ensure_array(v)) for v in promote_dtypes(ar1, ar2))
    if e.size == 0 or t.size == 0:
        return jshape.broadcast_to(np.bool_(invert), e.shape)
    if method not in ("auto", "compare_all", "binary_search", "sort"):
        raise ValueError(f"{method=} is not implemented; options are 'compare_all', 'binary_search', 'sort', and 'auto'")
    eq = lax.eq(shape_dims.expand_dims(e, (1,)), shape_dims.expand_dims(t, (0,)))  # lax stretches the size-1 dimensions
    out = lax_red_reduce.reduce_or(eq, (1,))
    return lax.bitwise_not(out) if invert else out


def _compact(name: str, vals: Array, keep: Array, size: int | None, fill_value: ArrayLike | None) -> Array:
    if size is None:
        size = _concrete_size(name, keep, lambda h: int(np.sum(h)))
    return _compact_sized(vals, keep, fill_value, size=int(size))


@jitted(static=("size",))
def _compact_sized(vals: Array, keep: Array, fill_value: ArrayLike | None, *, size: int) -> Array:
    from jax_core._src.numpy.indexing_funcs import nonzero, take_traced as take

    n = vals.shape[0]
    if size == 0:  # nothing kept: an empty result (no element to fill with)
        return jshape.broadcast_to(np.zeros((), vals.dtype), (0,))
    (pos,) = nonzero(keep, size=size, fill_value=n)
    out = take(vals, pos, mode="clip")
    if n == 0:
        return jshape.broadcast_to(np.zeros((), vals.dtype), (size,))
    count = lax_red_reduce.reduce_sum(lax.convert_element_type(keep, np.int32), (0,))
    valid = lax.lt(shape_assembly.iota(np.int32, size), count)
    # by default the smallest value kept, or 0 when nothing is (as JAX's)
    first = lax.select(lax.gt(count, np.int32(0)), out[0], np.zeros((), vals.dtype))
    fill = first if fill_value is None else lax.convert_element_type(ensure_array(fill_value), vals.dtype)
    return lax.select(valid, out, jshape.broadcast_to(fill, out.shape))


def _valid_prefix(vals: Array, counts: Array) -> Array:
    return lax.gt(counts, np.zeros((), counts.dtype))


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """The sorted unique values of ``ar1`` that are not in ``ar2``."""
    a, b = _flat_pair("setdiff1d", ar1, ar2)
    if a.size == 0:
        return _compact("setdiff1d", a, ensure_array(np.zeros((0,), np.bool_)), size, fill_value)
    ua, _, _, ca = _unique_1d(a, a.shape[0], None, True, "setdiff1d")
    keep = lax.bitwise_and(_valid_prefix(ua, ca), isin(ua, b, invert=True))
    return _compact("setdiff1d", ua, keep, size, 0 if fill_value is None else fill_value)  # JAX pads with 0


def intersect1d(
    ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, return_indices: bool = False, *, size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> Any:
    """The sorted unique values in both arrays (with their first indices if ``return_indices``)."""
    a, b = _flat_pair("intersect1d", ar1, ar2)
    if a.size == 0 or b.size == 0:
        empty = _compact("intersect1d", a[:0] if a.size else a, ensure_array(np.zeros((0,), np.bool_)), size, fill_value)
        if return_indices:
            zi = ensure_array(np.zeros(empty.shape, dtypes.default_int_dtype()))
            return empty, zi, zi
        return empty
    ua, ia, _, ca = _unique_1d(a, a.shape[0], None, True, "intersect1d")
    keep = lax.bitwise_and(_valid_prefix(ua, ca), isin(ua, b))
    vals = _compact("intersect1d", ua, keep, size, fill_value)
    if not return_indices:
        return vals
    idx1 = _compact("intersect1d", ia, keep, size, a.shape[0])  # padding: len(ar1), as JAX's
    from jax_core._src.numpy.reductions import argmax

    hits = lax.eq(jshape.reshape(vals, (vals.shape[0], 1)), jshape.broadcast_to(b, (vals.shape[0], b.shape[0])))
    found = lax.lt(shape_assembly.iota(np.int32, vals.shape[0]), lax_red_reduce.reduce_sum(lax.convert_element_type(keep, np.int32), (0,)))
    idx2 = argmax(hits, axis=1)
    idx2 = lax.select(found, idx2, jshape.broadcast_to(np.asarray(b.shape[0], idx2.dtype), idx2.shape))
    return vals, idx1, idx2


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """The sorted unique values in exactly one of the arrays."""
    a, b = _flat_pair("setxor1d", ar1, ar2)
    both = jshape.concatenate([a, b], 0)
    if both.size == 0:
        return _compact("setxor1d", both, ensure_array(np.zeros((0,), np.bool_)), size, fill_value)
    u, _, _, c = _unique_1d(both, both.shape[0], None, True, "setxor1d")
    in_a = isin(u, a)
    in_b = isin(u, b)
    keep = lax.bitwise_and(_valid_prefix(u, c), lax.bitwise_xor(in_a, in_b))
    return _compact("setxor1d", u, keep, size, fill_value)
