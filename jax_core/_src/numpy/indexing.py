"""NumPy indexing (``x[idx]``) and functional updates (``x.at[idx].set(v)``).

Reading: basic indices (ints, slices, ``None``, ``...``) become slices, reversals,
squeezes and dynamic slices; advanced indices (integer arrays, boolean masks) become
one ``gather``. Updating: ``x.at[idx]`` indexes an ``iota`` of ``x``'s flat positions
with the same index to find which elements it selects, then scatters into the
flattened ``x`` — one mechanism for every index form, with NumPy's semantics.
"""

from __future__ import annotations

from collections.abc import Callable
from types import EllipsisType
from typing import Any, TypeAlias

import operator
import warnings

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import config, dtypes
from jax_core._src.core.errors import InconclusiveDimensionOperation, NonConcreteBooleanIndexError
from jax_core._src.core.shape_poly import is_symbolic_dim, max_dim, min_dim
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import ensure_array, promote_dtypes
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_ArrayIndex: TypeAlias = Array | np.ndarray[Any, Any]
_IndexItem: TypeAlias = slice | int | np.integer[Any] | _ArrayIndex | None
"""One entry of a normalized index: no ``Ellipsis``, one entry per indexed dimension or ``None``."""


def _is_tuple(idx: object) -> TypeIs[tuple[Any, ...]]:
    return isinstance(idx, tuple)


def _is_array_index(i: object) -> TypeIs[_ArrayIndex]:
    return isinstance(i, (Array, np.ndarray))


def _is_scalar_index(i: object) -> TypeIs[slice | int | np.integer[Any] | EllipsisType | None]:
    return i is None or isinstance(i, (slice, int, np.integer, EllipsisType))


def _normalize_index(arr: Array, idx: Any) -> list[_IndexItem]:
    if isinstance(idx, list):
        raise TypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
            "`arr[array(seq)]` instead of `arr[seq]`. See https://github.com/jax-ml/jax/issues/4564 for more information."
        )
    index: tuple[object, ...] = idx if _is_tuple(idx) else (idx,)
    items: list[_IndexItem | EllipsisType] = []
    for item in index:
        # a list inside a tuple index is an index array (as JAX converts it)
        i: object = _list_index(item) if isinstance(item, list) else item  # pyright: ignore[reportUnknownArgumentType]
        if isinstance(i, (bool, np.bool_)):
            raise TypeError("Boolean scalar indices are not supported; use a boolean array mask instead.")
        if _is_array_index(i) and ensure_dtype(i) == np.bool_:
            if isinstance(i, Tracer):
                raise NonConcreteBooleanIndexError(
                    f"Array boolean indices must be concrete; got {i.aval.strip_weak_type()}\n{i.provenance()}"
                )
            mask = np.asarray(i)
            items.extend(np.nonzero(mask))
            continue
        if _is_array_index(i) and not dtypes.issubdtype(ensure_dtype(i), np.integer):
            raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {ensure_dtype(i)} at position {len(items)}, indexer value {i}")
        if isinstance(i, (float, complex, np.inexact)):
            kind = dtypes.dtype(i)
            raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {kind}")
        if not (_is_scalar_index(i) or _is_array_index(i)):
            raise TypeError(f"Indexer must be an integer, slice, None, Ellipsis or array, got {i!r} of type {type(i)}")
        items.append(i)
    n_ellipsis = sum(1 for i in items if isinstance(i, EllipsisType))
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for i in items if i is not None and not isinstance(i, EllipsisType))
    if used > arr.ndim:
        raise IndexError(f"Too many indices: array is {arr.ndim}-dimensional, but {used} were indexed")
    fill: list[_IndexItem] = [slice(None)] * (arr.ndim - used)
    out: list[_IndexItem] = []
    for i in items:
        if isinstance(i, EllipsisType):
            out.extend(fill)
        else:
            out.append(i)
    if not n_ellipsis:
        out.extend(fill)
    return out


def _list_index(seq: object) -> Array | np.ndarray[Any, Any]:
    """A (nested) list of indices as an index array: NumPy's when it holds only constants (an
    empty list is an empty integer index), a jax array when it holds traced values."""
    from jax_core._src.tree.tree_util import tree_leaves

    if any(isinstance(leaf, (Array, Tracer)) for leaf in tree_leaves(seq)):
        from jax_core._src.numpy.creation import asarray

        return asarray(seq)
    out = np.asarray(seq)
    return out.astype(np.int32) if out.size == 0 else out


def ensure_dtype(i: Array | np.ndarray[Any, Any]) -> np.dtype[Any]:
    """The dtype of an index array."""
    return np.dtype(i.dtype)


def _scalar_int(i: Any) -> bool:
    return isinstance(i, (int, np.integer)) or (isinstance(i, Array) and i.ndim == 0)


def getitem(arr: ArrayLike, idx: Any) -> Array:
    """``arr[idx]`` with NumPy semantics (out-of-bounds array indices are clamped, as in JAX)."""
    return _getitem(arr, idx, _PROMISE)


_CLAMP: Any = object()
"""``oob_fill`` meaning: clamp out-of-bounds array indices (``mode="clip"``)."""
_PROMISE: Any = object()
"""``oob_fill`` meaning: indices promised in bounds (JAX's default for ``x[idx]``): XLA clamps the
read, and the gradient's scatter-add drops out-of-bounds positions."""


def _getitem(arr: ArrayLike, idx: Any, oob_fill: Any) -> Array:
    """``arr[idx]``; out-of-bounds array indices read ``oob_fill`` (``None``: the dtype's default
    fill, NaN for floats) unless it is ``_CLAMP``, which clamps them."""
    x = ensure_array(arr)
    items = _normalize_index(x, idx)
    advanced = any(isinstance(i, (Array, np.ndarray)) and i.ndim > 0 for i in items)
    if oob_fill is not _CLAMP and oob_fill is not _PROMISE and any(_scalar_int(i) for i in items):
        # Reads that fill (and the positions of updates, which drop) out of bounds: integer indices,
        # static or traced, go through the gather too (a slice would clamp them).
        advanced = True
    # Pass 1: basic indices. Each item maps to an output "slot"; advanced ones keep their dim.
    adv: list[tuple[int, Any]] = []
    slot_of_adv: list[int] = []
    d = 0
    out_slot = 0
    for i in items:
        if i is None:
            x = shape_dims.expand_dims(x, (d,))
            d += 1
            out_slot += 1
        elif isinstance(i, slice):
            x = _apply_slice(x, d, i)
            d += 1
            out_slot += 1
        elif advanced and (_scalar_int(i) or isinstance(i, (Array, np.ndarray))):
            adv.append((d, i))
            slot_of_adv.append(out_slot)
            d += 1
        else:
            x = _apply_int(x, d, i)
    if not adv:
        return x
    return _gather_advanced(x, adv, slot_of_adv, oob_fill)


def _apply_slice(x: Array, dim: int, s: slice) -> Array:
    n = x.shape[dim]
    for v in (s.start, s.stop, s.step):
        if isinstance(v, Tracer):
            v.concretization_error("Array slice indices must have static start/stop/step to be used with NumPy indexing syntax.")
    if is_symbolic_dim(n) or any(is_symbolic_dim(v) for v in (s.start, s.stop, s.step)):
        return _apply_symbolic_slice(x, dim, s)
    start, stop, step = s.indices(n)
    if step == 1 and (start, stop) == (0, n):
        return x
    if step > 0:
        size = max(0, (stop - start + step - 1) // step)
        lo = [0] * x.ndim
        hi = list(x.shape)
        st = [1] * x.ndim
        lo[dim], hi[dim], st[dim] = start, start + max(size - 1, 0) * step + (1 if size else 0), step
        out = slicing.slice(x, tuple(lo), tuple(hi), tuple(st) if step != 1 else None)
        return out
    rev = shape_assembly.rev(x, (dim,))
    return _apply_slice(rev, dim, slice(n - 1 - start, n - 1 - stop if stop >= 0 else None, -step))


def _apply_symbolic_slice(x: Array, dim: int, s: slice) -> Array:
    """``x[..., s]`` along ``dim`` when its size or the bounds are symbolic (shape polymorphism):
    whether the step and each bound are negative must be decided statically, as in JAX."""
    n: Any = x.shape[dim]
    step: Any = 1 if s.step is None else (s.step if is_symbolic_dim(s.step) else operator.index(s.step))
    try:
        if step == 0:
            raise ValueError("slice step cannot be zero")
        forward = bool(step > 0)
    except InconclusiveDimensionOperation as e:
        raise InconclusiveDimensionOperation(
            f"In slice with non-constant elements the step ({step}) must be resolved statically if it is > 0 or < 0.\nDetails: {e}"
        ) from None

    def clamp(i: Any, which: str) -> Any:
        i = i if is_symbolic_dim(i) else operator.index(i)
        try:
            non_negative = bool(i >= 0)
        except InconclusiveDimensionOperation as e:
            raise InconclusiveDimensionOperation(
                f"In slice with non-constant elements the {which} ({i}) must be resolved statically if it is >= 0.\nDetails: {e}"
            ) from None
        if non_negative:
            return min_dim(n, i) if forward else min_dim(n - 1, i)
        return max_dim(0, n + i) if forward else max_dim(-1, n + i)

    start = (0 if forward else n - 1) if s.start is None else clamp(s.start, "start")
    stop = (n if forward else -1) if s.stop is None else clamp(s.stop, "stop")
    if not forward:  # the reversed axis, sliced forward
        rev = shape_assembly.rev(x, (dim,))
        return _apply_symbolic_slice(rev, dim, slice(n - 1 - start, n - 1 - stop, -step))
    if step == 1 and start == 0 and stop == n:
        return x
    lo: list[Any] = [0] * x.ndim
    hi: list[Any] = list(x.shape)
    st: list[Any] = [1] * x.ndim
    lo[dim], hi[dim], st[dim] = start, max_dim(start, stop), step
    return slicing.slice(x, tuple(lo), tuple(hi), tuple(st) if step != 1 else None)


def _apply_int(x: Array, dim: int, i: int | np.integer[Any] | _ArrayIndex) -> Array:
    n = x.shape[dim]
    if isinstance(i, (int, np.integer)):
        k = int(i)
        if n == 0:
            raise IndexError(f"index {k} is out of bounds for axis {dim} with size 0")
        # Out-of-bounds static indices are clamped, as in JAX.
        k = min(max(k + n if k < 0 else k, 0), n - 1)
        lo = [0] * x.ndim
        hi = list(x.shape)
        lo[dim], hi[dim] = k, k + 1
        return shape_dims.squeeze(slicing.slice(x, tuple(lo), tuple(hi)), (dim,))
    # A traced scalar index: a dynamic slice, which counts a negative index from the end once and
    # clamps (as JAX's reads do; wrapping it here as well read x[8] for x[-12] of 10 elements).
    idx = ensure_array(i)
    idx_t = idx.dtype
    starts: list[Any] = [np.zeros((), idx_t)] * x.ndim
    starts[dim] = idx
    sizes = list(x.shape)
    sizes[dim] = 1
    return shape_dims.squeeze(slicing.dynamic_slice(x, starts, tuple(sizes)), (dim,))


def _gather_advanced(x: Array, adv: list[tuple[int, Any]], slots: list[int], oob_fill: Any) -> Array:
    dims = [d for d, _ in adv]
    index_arrays = [ensure_array(np.asarray(i) if not isinstance(i, Array) else i) for _, i in adv]
    index_arrays = [ensure_array(a) for a in promote_dtypes(*index_arrays)] if len(index_arrays) > 1 else index_arrays
    bshape = jshape.broadcast_shapes(*(a.shape for a in index_arrays))
    idx_dtype = index_arrays[0].dtype
    normalized: list[Array] = []
    for d, a in zip(dims, index_arrays):
        n = lax.to_dtype(x.shape[d], idx_dtype, False)
        zero = lax.to_dtype(0, idx_dtype, False)
        a = lax.select(lax.lt(a, zero), lax.add(a, n), a)
        normalized.append(jshape.broadcast_to(a, bshape))
    rest = [k for k in range(x.ndim) if k not in dims]
    xt = jshape.transpose(x, dims + rest)
    indices = jshape.stack(normalized, axis=-1)
    k = len(dims)
    nb = len(bshape)
    dnums = slicing.GatherDimensionNumbers(
        offset_dims=tuple(range(nb, nb + len(rest))),
        collapsed_slice_dims=tuple(range(k)),
        start_index_map=tuple(range(k)),
    )
    slice_sizes = (1,) * k + tuple(x.shape[r] for r in rest)
    if oob_fill is _CLAMP or oob_fill is _PROMISE:
        mode = slicing.GatherScatterMode.CLIP if oob_fill is _CLAMP else slicing.GatherScatterMode.PROMISE_IN_BOUNDS
        out = slicing.gather(xt, indices, dnums, slice_sizes, mode=mode)
    else:
        out = slicing.gather(xt, indices, dnums, slice_sizes, mode=slicing.GatherScatterMode.FILL_OR_DROP, fill_value=oob_fill)
    contiguous = all(b - a == 1 for a, b in zip(dims, dims[1:]))
    if contiguous and dims[0] > 0:
        first = slots[0]
        perm = list(range(nb, nb + first)) + list(range(nb)) + list(range(nb + first, out.ndim))
        out = jshape.transpose(out, perm)
    return out


# -- functional updates ----------------------------------------------------------------


_INT32_MAX = int(np.iinfo(np.int32).max)


def _check_positions_fit(x: Array, idx: Any) -> None:
    """Without x64, flat positions are int32: an update that can reach a position past 2**31 - 1
    raises JAX's ``OverflowError`` instead of landing somewhere else.

    Static indices (ints, slices) are checked exactly, with ``range`` arithmetic (no array is
    built); an index array may reach any position of its dimension (a negative value counts from
    the end), so it is counted as the dimension's last position.
    """
    if x.size - 1 <= _INT32_MAX or config.enable_x64.value:
        return
    items = [i for i in _normalize_index(x, idx) if i is not None]
    strides: list[int] = np.cumprod((1, *x.shape[:0:-1]))[::-1].tolist()
    furthest = 0
    for item, n, stride in zip(items, x.shape, strides, strict=True):
        if isinstance(item, slice):
            picked = range(n)[item]
            furthest += max(picked[0], picked[-1]) * stride if len(picked) else 0
        elif isinstance(item, (int, np.integer)):  # out of bounds it is dropped, or clipped (counted so)
            i = int(item)
            furthest += min(max(i + n if i < 0 else i, 0), n - 1) * stride
        else:  # an index array: any position of its dimension
            furthest += (n - 1) * stride
    if furthest > _INT32_MAX:
        raise OverflowError(
            "An overflow was encountered while computing the positions of an indexed update: the "
            f"index reaches flat position {furthest} of an array of shape {x.shape}, past int32. "
            "Enable 64-bit indices with jax_core.config.update('jax_enable_x64', True) (or "
            "JAX_ENABLE_X64=1) to update arrays of more than 2**31 - 1 elements."
        )


def _flat_positions(x: Array, idx: Any, clamp: bool = False) -> Array:
    """The flat positions in ``x`` that ``x[idx]`` selects, shaped like ``x[idx]``; out-of-bounds
    array indices give -1 (dropped by the scatter), or are clamped with ``clamp``."""
    _check_positions_fit(x, idx)  # so that without x64 the int32 positions below never wrap
    positions = shape_assembly.iota(dtypes.default_int_dtype(), x.size)
    return _getitem(jshape.reshape(positions, x.shape), idx, _CLAMP if clamp else -1)


_SCATTERS: dict[str, Callable[..., Array]] = {
    "set": slicing.scatter, "add": slicing.scatter_add, "multiply": slicing.scatter_mul,
    "min": slicing.scatter_min, "max": slicing.scatter_max,
}  # fmt: skip
"""The scatter of each ``x.at[idx]`` update kind."""


def _scatter(
    x: Array, idx: Any, values: ArrayLike, kind: str, mode: str | None,
    indices_are_sorted: bool = False, unique_indices: bool = False,
) -> Array:
    slicing.GatherScatterMode.from_any(mode)  # JAX's ValueError for an unknown mode
    out_dtype, out_weak = x.dtype, dtypes.is_weakly_typed(x)
    if dtypes.result_type(values, x) != x.dtype:
        # As JAX's: a value that does not cast safely warns, and the scatter runs in the promoted
        # type (the result is cast back): bool x with an int update adds as integers.
        warnings.warn(
            "scatter inputs have incompatible types: cannot safely cast value from "
            f"dtype={dtypes.dtype(values, canonicalize=True)} to dtype={x.dtype} with "
            "jax_numpy_dtype_promotion=standard. In future JAX releases this will result in an error.",
            FutureWarning,
            stacklevel=3,
        )
        x, vals = (ensure_array(v) for v in promote_dtypes(x, values))
        return lax.to_dtype(_scatter(x, idx, vals, kind, mode, indices_are_sorted, unique_indices), out_dtype, out_weak)  # type: ignore[return-value]
    (vals,) = [ensure_array(v) for v in [values]]
    vals = lax.convert_element_type(vals, x.dtype) if vals.dtype != x.dtype else vals
    windowed = _scatter_windows(x, idx, vals, kind, mode)
    if windowed is not None:
        return windowed
    positions = _flat_positions(x, idx, clamp=_scatter_mode(mode) is slicing.GatherScatterMode.CLIP)
    vals = jshape.broadcast_to(vals, positions.shape)
    flat = jshape.ravel(x)
    pos = jshape.reshape(positions, (positions.size, 1))
    upd = jshape.ravel(vals)
    dnums = slicing.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    scatter = _SCATTERS[kind]
    out = scatter(flat, pos, upd, dnums, mode=_scatter_mode(mode),
                  indices_are_sorted=indices_are_sorted, unique_indices=unique_indices)  # fmt: skip
    return jshape.reshape(out, x.shape)


def _scatter_windows(x: Array, idx: Any, vals: Array, kind: str, mode: str | None) -> Array | None:
    """An update at integer indices (static or traced scalars) along some dimensions and whole
    slices along the others (``x.at[k].set(v)``, ``h.at[k, :].add(r)``): one window scatter at
    the indices, as JAX lowers it, rather than one scatter per element. ``None`` for any other
    index (the general path)."""
    try:
        items = _normalize_index(x, idx)
    except (TypeError, IndexError):
        return None
    _check_positions_fit(x, idx)  # JAX's OverflowError for positions past int32 without x64
    dims: list[int] = []
    starts: list[Array] = []
    for d, i in enumerate(items):
        if isinstance(i, slice) and i == slice(None):
            continue
        if isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_)):
            n = x.shape[d]
            if is_symbolic_dim(n):
                return None
            k = int(i)
            starts.append(ensure_array(np.asarray(k + n if k < 0 else k, dtypes.default_int_dtype())))
        elif isinstance(i, Array) and i.ndim == 0 and dtypes.issubdtype(i.dtype, np.integer) and not is_symbolic_dim(x.shape[d]):
            n_i = lax.to_dtype(x.shape[d], i.dtype, False)
            starts.append(lax.select(lax.lt(i, lax.to_dtype(0, i.dtype, False)), lax.add(i, n_i), i))
        else:
            return None
        dims.append(d)
    if not dims or any(d is None for d in items):
        return None
    if len({a.dtype for a in starts}) > 1:
        starts = [ensure_array(a) for a in promote_dtypes(*starts)]
    window = tuple(n for d, n in enumerate(x.shape) if d not in dims)
    if not _broadcasts_to(vals.shape, window):
        return None
    pieces = [shape_dims.expand_dims(a, (0,)) for a in starts]
    indices = pieces[0] if len(pieces) == 1 else shape_assembly.concatenate(pieces, 0)
    vals = jshape.broadcast_to(vals, window)
    dnums = slicing.ScatterDimensionNumbers(
        update_window_dims=tuple(range(len(window))), inserted_window_dims=tuple(dims), scatter_dims_to_operand_dims=tuple(dims)
    )
    scatter = _SCATTERS[kind]
    # Scalar indices select one window: sorted and unique (as JAX marks them).
    return scatter(x, indices, vals, dnums, mode=_scatter_mode(mode), indices_are_sorted=True, unique_indices=True)


def _broadcasts_to(shape: tuple[Any, ...], target: tuple[Any, ...]) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` (NumPy's rule, without a copy)."""
    if len(shape) > len(target):
        return False
    return all(a == 1 or a == b for a, b in zip(shape[::-1], target[::-1]))


def _scatter_mode(mode: str | None) -> slicing.GatherScatterMode:
    """Updates drop out-of-bounds indices unless ``mode="clip"`` (``"promise_in_bounds"`` too:
    XLA's scatter skips them, as in JAX)."""
    clip = slicing.GatherScatterMode.from_any(mode) is slicing.GatherScatterMode.CLIP
    return slicing.GatherScatterMode.CLIP if clip else slicing.GatherScatterMode.FILL_OR_DROP


def _scatter_apply(
    x: Array, idx: Any, func: Callable[[Array], Array], mode: str | None,
    indices_are_sorted: bool = False, unique_indices: bool = False,
) -> Array:
    """``x.at[idx].apply(func)``: ``func`` applied at each selected position, once per occurrence
    (a position selected twice gets ``func(func(x))``, as JAX's ``lax.scatter_apply``)."""
    from jax_core._src.lax.indexing.compositions import scatter_apply

    slicing.GatherScatterMode.from_any(mode)  # JAX's ValueError for an unknown mode
    positions = _flat_positions(x, idx, clamp=_scatter_mode(mode) is slicing.GatherScatterMode.CLIP)
    pos = jshape.reshape(positions, (positions.size, 1))
    dnums = slicing.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
    out = scatter_apply(jshape.ravel(x), pos, func, dnums, update_shape=(positions.size,), mode=_scatter_mode(mode), indices_are_sorted=indices_are_sorted, unique_indices=unique_indices)
    return jshape.reshape(out, x.shape)


class _IndexUpdateRef:
    """``x.at[idx]``: the update methods for the elements ``idx`` selects."""

    __slots__ = ("_array", "_index")

    def __init__(self, array: Array, index: Any) -> None:
        self._array = array
        self._index = index

    def get(
        self, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None, fill_value: ArrayLike | None = None
    ) -> Array:
        """``x[idx]``; with ``mode="fill"`` out-of-bounds reads give ``fill_value`` (NaN for floats)."""
        parsed = slicing.GatherScatterMode.from_any(mode)
        if parsed is slicing.GatherScatterMode.CLIP:
            return _getitem(self._array, self._index, _CLAMP)
        if mode is None or parsed is not slicing.GatherScatterMode.FILL_OR_DROP:
            return getitem(self._array, self._index)
        fill = None if fill_value is None else complex(np.asarray(fill_value)) if np.iscomplexobj(np.asarray(fill_value)) else float(np.asarray(fill_value))
        return _getitem(self._array, self._index, fill)

    def power(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] **= values`` (repeated indices compose: ``x ** (v1 * v2)``)."""
        x = self._array
        ones = jshape.broadcast_to(np.ones((), x.dtype), x.shape)
        exponents = _scatter(ones, self._index, values, "multiply", mode, indices_are_sorted, unique_indices)
        touched = _scatter(ensure_array(np.zeros(x.shape, np.bool_)), self._index, np.bool_(True), "set", mode, indices_are_sorted, unique_indices)
        from jax_core._src.numpy.ufuncs import power

        return lax.select(touched, power(x, exponents), x)

    def set(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] = values``."""
        return _scatter(self._array, self._index, values, "set", mode, indices_are_sorted, unique_indices)

    def add(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] += values`` (repeated indices accumulate)."""
        return _scatter(self._array, self._index, values, "add", mode, indices_are_sorted, unique_indices)

    def subtract(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] -= values``."""
        return _scatter(self._array, self._index, lax.neg(ensure_array(values)), "add", mode, indices_are_sorted, unique_indices)

    def multiply(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] *= values``."""
        return _scatter(self._array, self._index, values, "multiply", mode, indices_are_sorted, unique_indices)

    mul = multiply

    def divide(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] /= values``."""
        one = lax.to_dtype(1, self._array.dtype, False)
        return _scatter(self._array, self._index, lax.div(ensure_array(one), lax.convert_element_type(ensure_array(values), self._array.dtype)), "multiply", mode, indices_are_sorted, unique_indices)

    def min(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] = minimum(x[idx], values)``."""
        return _scatter(self._array, self._index, values, "min", mode, indices_are_sorted, unique_indices)

    def max(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] = maximum(x[idx], values)``."""
        return _scatter(self._array, self._index, values, "max", mode, indices_are_sorted, unique_indices)

    def apply(self, func: Callable[[Array], Array], *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> Array:
        """A copy of ``x`` with ``x[idx] = func(x[idx])`` (``func`` elementwise)."""
        return _scatter_apply(self._array, self._index, func, mode, indices_are_sorted, unique_indices)

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self._array!r}, {self._index!r})"


class IndexUpdateHelper:
    """``x.at``: index it (``x.at[idx]``) to get the update methods."""

    __slots__ = ("_array",)

    def __init__(self, array: Array) -> None:
        self._array = array

    def __getitem__(self, index: Any) -> _IndexUpdateRef:
        return _IndexUpdateRef(self._array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self._array!r})"
