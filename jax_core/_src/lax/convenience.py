"""lax's convenience functions: thin compositions of existing primitives, as in JAX 0.12.

Slicing in one dimension (``slice_in_dim``, ``index_in_dim`` and their dynamic and update
forms), array creation (``full``, ``full_like``, ``empty``), shape helpers (``collapse``,
``tile``, ``split``, ``stack``, ``unstack``, ``broadcast_shapes``), ``batch_matmul``,
``reciprocal``, ``scatter_sub``, ``scatter_apply``, ``dtype`` and the public ``fft``.
JAX implements ``tile``, ``split``, ``stack`` and ``unstack`` as primitives of their own;
here they are built from slices, broadcasts, reshapes and concatenations, with the same
results, errors and derivatives.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable, Sequence
from typing import Any, Unpack, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import api as _lax
from jax_core._src.lax import base as _base
from jax_core._src.lax import dot as _dot
from jax_core._src.lax import fft as _fft
from jax_core._src.lax import gather_scatter as _gs
from jax_core._src.lax import shape_ops as _shape
from jax_core._src.lax import slicing as _slicing
from jax_core._src.lax.dot import PrecisionLike
from jax_core._src.lax.gather_scatter import (
    GatherScatterMode,
    ScatterDimensionNumbers,
    ScatterOptions,
)
from jax_core._src.typing import ArrayLike, DType, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

FftType = _fft.FftType


def _as_array(x: ArrayLike) -> Array:
    out = _lax.to_dtype(x, None, dtypes.is_weakly_typed(x))
    return out if isinstance(out, Array) else _shape.broadcast(out, ())


def _shape_of(x: ArrayLike) -> tuple[int, ...]:
    return _shape.shape_of(x)


# -- slicing in one dimension -----------------------------------------------------------------
def slice_in_dim(
    operand: ArrayLike,
    start_index: int | None,
    limit_index: int | None,
    stride: int = 1,
    axis: int = 0,
) -> Array:
    """``operand[..., start_index:limit_index:stride]`` along ``axis`` (a ``lax.slice``).

    ``None`` means the start (or the end) of the axis; negative indices count from the end.
    """
    shape = _shape_of(operand)
    axis = int(axis)
    starts = [0] * len(shape)
    limits = list(shape)
    strides = [1] * len(shape)
    size = shape[axis]
    start = 0 if start_index is None else int(start_index)
    limit = size if limit_index is None else int(limit_index)
    starts[axis] = start + size if start < 0 else start
    limits[axis] = limit + size if limit < 0 else limit
    strides[axis] = int(stride)
    return _slicing.slice(operand, starts, limits, strides)


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    """``operand[..., index]`` along ``axis``; ``keepdims`` keeps the axis with size 1.

    Raises ``IndexError`` when ``index`` is out of bounds (negative indices count from the end).
    """
    index, axis = int(index), int(axis)
    size = _shape_of(operand)[axis]
    wrapped = index + size if index < 0 else index
    if not 0 <= wrapped < size:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
    result = slice_in_dim(operand, wrapped, wrapped + 1, 1, axis)
    return result if keepdims else _shape.squeeze(result, (axis,))


def _zero_like_index(index: ArrayLike) -> ArrayLike:
    dt = dtypes.dtype(index, canonicalize=True)
    return np.zeros((), dt) if not dtypes.is_weakly_typed(index) else 0


def dynamic_slice_in_dim(
    operand: ArrayLike,
    start_index: ArrayLike,
    slice_size: int,
    axis: int = 0,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``operand[..., start_index:start_index + slice_size]`` along ``axis``, with a traced start.

    As in ``lax.dynamic_slice``, the start is clamped so that the slice stays in bounds.
    """
    shape = _shape_of(operand)
    axis = int(axis)
    starts: list[ArrayLike] = [_zero_like_index(start_index)] * len(shape)
    sizes = list(shape)
    allow = [False] * len(shape)
    allow[axis] = allow_negative_indices
    starts[axis] = start_index
    sizes[axis] = int(slice_size)
    return _slicing.dynamic_slice(operand, starts, sizes, allow_negative_indices=allow)


def dynamic_index_in_dim(
    operand: ArrayLike,
    index: ArrayLike,
    axis: int = 0,
    keepdims: bool = True,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``operand[..., index]`` along ``axis``, with a traced (clamped) ``index``."""
    result = dynamic_slice_in_dim(
        operand, index, 1, axis, allow_negative_indices=allow_negative_indices
    )
    return result if keepdims else _shape.squeeze(result, (axis,))


def dynamic_update_slice_in_dim(
    operand: ArrayLike,
    update: ArrayLike,
    start_index: ArrayLike,
    axis: int,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``operand`` with ``update`` written at ``start_index`` along ``axis`` (0 in the others).

    As in ``lax.dynamic_update_slice``, the start is clamped so that the update fits.
    """
    ndim = len(_shape_of(operand))
    axis = int(axis)
    starts: list[ArrayLike] = [_zero_like_index(start_index)] * ndim
    starts[axis] = start_index
    allow = [False] * ndim
    allow[axis] = allow_negative_indices
    return _slicing.dynamic_update_slice(operand, update, starts, allow_negative_indices=allow)


def dynamic_update_index_in_dim(
    operand: ArrayLike,
    update: ArrayLike,
    index: ArrayLike,
    axis: int,
    *,
    allow_negative_indices: bool = True,
) -> Array:
    """``operand`` with ``update`` written at ``index`` along ``axis``.

    ``update`` may lack the ``axis`` dimension (it is then inserted with size 1).
    """
    axis = int(axis)
    if len(_shape_of(update)) != len(_shape_of(operand)):
        assert len(_shape_of(update)) + 1 == len(_shape_of(operand))
        update = _shape.expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(
        operand, update, index, axis, allow_negative_indices=allow_negative_indices
    )


# -- creation -----------------------------------------------------------------------------------
def full(shape: ShapeLike, fill_value: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    """An array of ``shape`` filled with the scalar ``fill_value`` (cast to ``dtype`` if given).

    Without ``dtype`` the result has ``fill_value``'s dtype and weak type (``full((2,), 3)``
    is a weakly typed int32 array). JAX's ``sharding`` keyword is not supported.
    """
    dims = _shape.canonicalize_shape(shape)
    if _shape_of(fill_value):
        raise TypeError(
            f"full must be called with scalar fill_value, got fill_value.shape {_shape_of(fill_value)}."
        )
    if dtype is None:
        weak = dtypes.is_weakly_typed(fill_value)
        fill_dtype = dtypes.dtype(fill_value, canonicalize=True)
    else:
        weak = False
        fill_dtype = dtypes.canonicalize_dtype(dtype)
    return _shape.broadcast(_lax.to_dtype(fill_value, fill_dtype, weak), dims)


def full_like(
    x: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
) -> Array:
    """An array like ``x`` (its shape and dtype, unless ``shape``/``dtype`` are given) filled
    with ``fill_value``; weakly typed when ``x`` is and ``dtype`` is ``None``.

    JAX's ``sharding`` argument is not supported.
    """
    fill_shape = _shape_of(x) if shape is None else _shape.canonicalize_shape(shape)
    weak = dtype is None and dtypes.is_weakly_typed(x)
    dt = (
        dtypes.canonicalize_dtype(dtype)
        if dtype is not None
        else dtypes.dtype(x, canonicalize=True)
    )
    return full(fill_shape, _lax.to_dtype(fill_value, dt, weak))


def empty(shape: ShapeLike, dtype: DTypeLike) -> Array:
    """An array of ``shape`` and ``dtype`` whose values are unspecified (zeros here).

    JAX's ``out_sharding`` keyword is not supported.
    """
    return full(shape, 0, dtype)


# -- shapes -------------------------------------------------------------------------------------
def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to under NumPy's rules.

    Raises ``ValueError`` for incompatible shapes. One shape is returned as given.
    """
    if len(shapes) == 1:
        only: Any = shapes[0]
        return only  # type: ignore[no-any-return]  # JAX returns a single shape unchanged
    if not shapes:
        raise ValueError("broadcast_shapes requires at least one shape")
    tuples = [tuple(int(d) for d in s) for s in shapes]
    try:
        return _base.broadcast_shapes("broadcast_shapes", *tuples)
    except TypeError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={tuples}") from None


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """``operand`` with dimensions ``[start_dimension, stop_dimension)`` merged into one.

    ``stop_dimension=None`` collapses through the last dimension; negative values count from
    the end, as in a Python slice.
    """
    shape = _shape_of(operand)
    lo, hi, _ = builtins.slice(start_dimension, stop_dimension).indices(len(shape))
    if hi < lo:
        raise ValueError(
            f"Invalid dimension range passed to collapse: {shape}[{start_dimension}:{stop_dimension}]"
        )
    new_shape = (*shape[:lo], math.prod(shape[lo:hi]), *shape[hi:])
    return _shape.reshape(operand, new_shape)


def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along each dimension ``i`` (``len(reps) == ndim``)."""
    shape = _shape_of(operand)
    reps_t = tuple(int(r) for r in reps)
    if len(reps_t) != len(shape):
        raise TypeError(
            f"reps length must be equal to the ndim of x, got len(reps)={len(reps_t)} and x.ndim={len(shape)}."
        )
    if any(r < 0 for r in reps_t):
        raise ValueError(f"reps must be nonnegative, got {reps_t}")
    interleaved = tuple(d for pair in zip(reps_t, shape) for d in pair)
    dims = tuple(range(1, 2 * len(shape), 2))
    expanded = _shape.broadcast_in_dim(operand, interleaved, dims)
    return _shape.reshape(expanded, tuple(r * d for r, d in zip(reps_t, shape)))


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """``operand`` cut along ``axis`` into consecutive pieces of ``sizes`` (which must sum to
    the size of that axis)."""
    shape = _shape_of(operand)
    axis = _shape.canonicalize_axis(axis, len(shape))
    sizes_t = [int(s) for s in sizes]
    if any(s < 0 for s in sizes_t):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {sizes_t}")
    if sum(sizes_t) != shape[axis]:
        raise ValueError(
            f"Sum of sizes {sum(sizes_t)} must be equal to dimension {axis} of the operand shape {list(shape)}"
        )
    starts = np.cumsum([0, *sizes_t]).tolist()
    return [slice_in_dim(operand, s, s + n, 1, axis) for s, n in zip(starts, sizes_t)]


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, each without that axis."""
    shape = _shape_of(x)
    axis = _shape.canonicalize_axis(axis, len(shape))
    return tuple(index_in_dim(x, i, axis, keepdims=False) for i in range(shape[axis]))


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """``operands`` (same shape and dtype) joined along a new axis ``axis``."""
    arrays = [_as_array(op) for op in operands]
    axis = _shape.canonicalize_axis(axis, arrays[0].ndim + 1)
    if any(a.shape != arrays[0].shape for a in arrays[1:]):
        got = ", ".join(str(a.shape) for a in arrays)
        raise ValueError(f"All input arrays must have the same shape. Got {got}.")
    if any(a.dtype != arrays[0].dtype for a in arrays[1:]):
        got = ", ".join(a.dtype.name for a in arrays)
        raise TypeError(f"lax.stack requires arguments to have the same dtypes, got {got}.")
    return _shape.concatenate([_shape.expand_dims(a, (axis,)) for a in arrays], axis)


# -- arithmetic ---------------------------------------------------------------------------------
def batch_matmul(lhs: ArrayLike, rhs: ArrayLike, precision: PrecisionLike = None) -> Array:
    """Matrix products over the last two dimensions, batched over the leading ones (same rank)."""
    lnd, rnd = len(_shape_of(lhs)), len(_shape_of(rhs))
    if builtins.min(lnd, rnd) < 2:
        raise ValueError(f"Arguments to batch_matmul must be at least 2D, got {lnd}, {rnd}")
    if lnd != rnd:
        raise ValueError(f"Arguments to batch_matmul must have same ndim, got {lnd}, {rnd}")
    batch = tuple(range(lnd - 2))
    return _dot.dot_general(
        lhs, rhs, (((lnd - 1,), (rnd - 2,)), (batch, batch)), precision=precision
    )


def reciprocal(x: ArrayLike) -> Array:
    """Elementwise ``1 / x`` (``integer_pow(x, -1)``; integers are rejected with ``TypeError``)."""
    aval = get_aval(x)
    if dtypes.issubdtype(aval.dtype, np.integer):
        short = (
            f"{'~' if aval.weak_type else ''}{aval.dtype.name}[{','.join(map(str, aval.shape))}]"
        )
        raise TypeError(
            f"Integers cannot be raised to negative powers, got integer_pow({short}, -1)"
        )
    return _lax.integer_pow(x, -1)


# -- scatter ------------------------------------------------------------------------------------
def scatter_sub(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter with subtraction: each update is subtracted (repeated indices accumulate).

    Built as ``scatter_add`` of the negated updates (JAX has a ``scatter_sub`` primitive).
    """
    return _gs.scatter_add(
        operand, scatter_indices, _lax.neg(updates), dimension_numbers, **options
    )


def scatter_apply(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    func: Callable[[Array], Array],
    dimension_numbers: ScatterDimensionNumbers,
    *,
    update_shape: ShapeLike = (),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with each scattered element ``x`` replaced by ``func(x)``; repeated indices
    apply ``func`` repeatedly. ``update_shape`` is the shape the updates would have.

    As in JAX, not differentiable: its jvp raises ``NotImplementedError``.
    """
    aval = get_aval(operand)
    unused = full(update_shape, 0, aval.dtype)
    scalar = ShapedArray((), aval.dtype)

    def apply(x: Any, _: Any) -> list[Any]:
        return [func(x)]

    closed = trace_to_jaxpr(apply, [scalar, scalar], DebugInfo("scatter_apply", func))
    dn = ScatterDimensionNumbers(*(tuple(int(i) for i in d) for d in dimension_numbers))
    out: Array = _gs.scatter_p.bind(
        operand,
        scatter_indices,
        unused,
        update_jaxpr=closed.jaxpr,
        update_consts=tuple(closed.consts),
        dimension_numbers=dn,
        indices_are_sorted=bool(indices_are_sorted),
        unique_indices=bool(unique_indices),
        mode=GatherScatterMode.from_any(mode),
    )
    return out


# -- dtypes and FFT -----------------------------------------------------------------------------
def dtype(x: Any) -> DType:
    """The canonical dtype of ``x`` (a value, a type or a dtype name), as ``jax.lax.dtype``.

    64-bit types become 32-bit ones unless x64 is enabled.
    """
    return dtypes.dtype(x, canonicalize=True)


_FFT_NAMES = {**{t.name.lower(): t for t in FftType}, **{t.name: t for t in FftType}}


def _complex_of(dt: DType) -> DType:
    if dtypes.issubdtype(dt, np.complexfloating):
        return dt
    if dt == np.float64:
        return np.dtype(np.complex128)
    if dtypes.issubdtype(dt, np.floating):
        return np.dtype(np.complex64)
    return dtypes.canonicalize_dtype(np.complex128)


def fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    """The ``fft_type`` transform (FFT, IFFT, RFFT, IRFFT) of the trailing ``len(fft_lengths)``
    dimensions of ``x``.

    ``x`` is converted to the complex (or, for RFFT, real inexact) dtype first; empty
    ``fft_lengths`` returns the converted ``x``. ``fft_type`` is a ``FftType`` or one of
    ``"fft"``, ``"ifft"``, ``"rfft"``, ``"irfft"`` (either case).
    """
    kind = cast(object, fft_type)  # checked at run time, as in JAX
    if isinstance(kind, str):
        found = _FFT_NAMES.get(kind)
        if found is None:
            raise ValueError(f"Unknown FFT type '{fft_type}'")
        typ = found
    elif isinstance(kind, FftType):
        typ = kind
    else:
        raise TypeError(f"Unknown FFT type value '{fft_type}'")
    dt = dtypes.dtype(x, canonicalize=True)
    if typ == FftType.RFFT:
        if dtypes.issubdtype(dt, np.complexfloating):
            raise ValueError("only real valued inputs supported for rfft")
        target = dt if dtypes.issubdtype(dt, np.inexact) else dtypes.canonicalize_dtype(np.float64)
    else:
        target = _complex_of(dt)
    converted = _lax.convert_element_type(x, target)
    if len(fft_lengths) == 0:
        return converted
    return _fft.fft(converted, typ, tuple(int(n) for n in fft_lengths))
