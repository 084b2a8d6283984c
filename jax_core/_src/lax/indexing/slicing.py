"""Slicing primitives: static slices, dynamic slices and dynamic updates.

Gather and scatter (the general indexed read and write) live in ``gather`` and ``scatter``;
they are re-exported here, where JAX defines them (``jax._src.lax.slicing``).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, SupportsIndex, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front, moveaxis
from jax_core._src.lax import elementwise as _ew
from jax_core._src.lax.indexing import gather as _gs_gather
from jax_core._src.lax.indexing import scatter as _gs_scatter
from jax_core._src.lax.indexing.dimension_numbers import (
    GatherDimensionNumbers as GatherDimensionNumbers,
)
from jax_core._src.lax.indexing.dimension_numbers import GatherScatterMode as GatherScatterMode
from jax_core._src.lax.indexing.dimension_numbers import (
    ScatterDimensionNumbers as ScatterDimensionNumbers,
)
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.lax.dim_values import dimension_as_value
from jax_core._src.lax.indexing.gather import gather as gather
from jax_core._src.lax.indexing.scatter import scatter as scatter
from jax_core._src.lax.indexing.scatter import scatter_add as scatter_add
from jax_core._src.lax.indexing.scatter import scatter_max as scatter_max
from jax_core._src.lax.indexing.scatter import scatter_min as scatter_min
from jax_core._src.lax.indexing.scatter import scatter_mul as scatter_mul
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.shape.assembly import concatenate, pad
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, shape_of
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, ShapeLike, shape_entries
from jax_core._src.typing.basearray import Array


def _int_tuple(xs: Sequence[SupportsIndex]) -> tuple[int, ...]:
    return tuple(cast(int, x) if is_symbolic_dim(x) else operator.index(x) for x in xs)


def _shape_tuple(sizes: ShapeLike) -> tuple[int, ...]:
    return _int_tuple(shape_entries(sizes))


def _check_nonnegative(fun_name: str, arg_name: str, obj: tuple[int, ...]) -> None:
    if not all(d >= 0 for d in obj):
        raise TypeError(f"{fun_name} {arg_name} must have every element be nonnegative, got {obj}.")


def _check_index_dtypes(name: str, indices: Sequence[ShapedArray], sep: str) -> None:
    if any(
        i.dtype != indices[0].dtype or not dtypes.issubdtype(i.dtype, np.integer) for i in indices
    ):
        raise TypeError(
            f"index arguments to {name} must be integers of the same type, got{sep}"
            f"{', '.join(i.dtype.name for i in indices)}"
        )


# -- slice ------------------------------------------------------------------------------


def slice(
    operand: ArrayLike,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> Array:
    """The static slice ``operand[start:limit:stride]`` in every dimension (XLA's Slice)."""
    return bind_one(
        slice_p,
        operand,
        start_indices=_int_tuple(start_indices),
        limit_indices=_int_tuple(limit_indices),
        strides=None if strides is None else _int_tuple(strides),
    )


slice_p: Primitive = Primitive("slice")


def _slice_abstract_eval(
    operand: ShapedArray,
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> ShapedArray:
    _check_nonnegative("slice", "start_indices", start_indices)
    _check_nonnegative("slice", "limit_indices", limit_indices)
    if operand.ndim != len(start_indices):
        raise TypeError(
            "slice start_indices must have length equal to the number of dimensions of the "
            f"operand, got indices {start_indices} for operand shape {operand.shape}."
        )
    if len(start_indices) != len(limit_indices):
        raise TypeError(
            "slice limit_indices must have the same length as start_indices, got "
            f"start_indices {start_indices} and limit_indices {limit_indices}."
        )
    if not all(d >= lim for d, lim in zip(operand.shape, limit_indices)):
        raise TypeError(
            "slice limit_indices must be less than or equal to operand shape, got "
            f"limit_indices {limit_indices} for operand shape {operand.shape}."
        )
    if not all(lim >= s for lim, s in zip(limit_indices, start_indices)):
        raise TypeError(
            "slice limit_indices must be greater than or equal to start_indices, got "
            f"start_indices {start_indices} and limit_indices {limit_indices}."
        )
    diff = tuple(lim - s for lim, s in zip(limit_indices, start_indices))
    if strides is None or strides == (1,) * operand.ndim:
        return ShapedArray(diff, operand.dtype, operand.weak_type)
    _check_nonnegative("slice", "strides", strides)
    if len(strides) != operand.ndim:
        raise TypeError(
            "slice strides must have length equal to the number of dimensions of the operand, "
            f"got strides {strides} for operand shape {operand.shape}."
        )
    if not all(s > 0 for s in strides):
        raise TypeError(f"slice strides must be positive, got {strides}")
    shape = tuple(0 if d == 0 else (d - 1) // s + 1 for d, s in zip(diff, strides))
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _slice_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> ir.Value[Any]:
    steps = list(strides) if strides is not None else [1] * len(start_indices)
    return dynamic_shapes.slice_op(aval_to_ir_type(ctx.avals_out[0]), x, start_indices, limit_indices, steps)


def _slice_transpose(
    ct: Any,
    operand: Any,
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> list[Any]:
    shape, aval = operand.aval.shape, get_aval(ct)
    if strides is None or all(s == 1 for s in strides):
        pads = tuple((lo, d - hi, 0) for lo, d, hi in zip(start_indices, shape, limit_indices))
    else:  # the last element read is at start + (n - 1) * stride
        ends = (
            lo + (0 if n == 0 else (n - 1) * s + 1)
            for lo, n, s in zip(start_indices, aval.shape, strides)
        )
        pads = tuple((lo, d - e, s - 1) for lo, d, e, s in zip(start_indices, shape, ends, strides))
    return [pad(ct, np.zeros((), aval.dtype), pads)]


def _slice_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None

    def ins(t: tuple[int, ...], v: int) -> tuple[int, ...]:
        return (*t[:d], v, *t[d:])

    new_strides = None if strides is None else ins(strides, 1)
    return slice(x, ins(start_indices, 0), ins(limit_indices, get_aval(x).shape[d]), new_strides), d


slice_p.def_rules(
    Rules(
        abstract_eval=_slice_abstract_eval,
        lower=_slice_lower,
        jvp=ad_util.linear_jvp(slice_p),
        transpose=_slice_transpose,
        batch=_slice_batch,
    )
)


# -- dynamic_slice ----------------------------------------------------------------------


def _dynamic_slice_indices(
    operand_shape: tuple[int, ...],
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    allow_negative_indices: bool | Sequence[bool],
) -> list[ArrayLike]:
    """Start indices with negative values wrapped around (``i + d`` where ``i < 0``)."""
    if len(start_indices) != len(operand_shape):
        raise ValueError(
            "Length of slice indices must match number of operand dimensions "
            f"({len(start_indices)} vs {operand_shape})"
        )
    if isinstance(start_indices, (Array, np.ndarray)):
        if start_indices.ndim != 1:
            raise ValueError(f"Slice indices must be a 1D sequence, got {start_indices.shape}")
        indices: list[ArrayLike] = [start_indices[k] for k in range(len(operand_shape))]
    else:
        indices = list(start_indices)
    allow = (
        [allow_negative_indices] * len(indices)
        if isinstance(allow_negative_indices, bool)
        else list(allow_negative_indices)
    )
    result: list[ArrayLike] = []
    for i, d, allow_negative in zip(indices, operand_shape, allow):
        dt = dtypes.dtype(i, canonicalize=True)
        if dtypes.issubdtype(dt, np.unsignedinteger):
            result.append(i)
        elif isinstance(i, (int, np.integer)):
            k = int(i)
            if k < 0 and not allow_negative:
                raise ValueError(
                    f"Index {k} is out of bounds for dimension {d} if allow_negative_indices=False"
                )
            if k < 0 and is_symbolic_dim(d):  # counted from a symbolic end (shape polymorphism)
                result.append(bind_one(_ew.add_p, np.asarray(k, dt)[()], _ew.convert_element_type(dimension_as_value(d), dt)))
            else:
                result.append(np.asarray(k + d if k < 0 else k, dt)[()])
        elif allow_negative:
            is_neg = bind_one(_ew.lt_p, i, np.asarray(0, dt)[()])
            end = _ew.convert_element_type(dimension_as_value(d), dt) if is_symbolic_dim(d) else np.asarray(d, dt)[()]
            wrapped = bind_one(_ew.add_p, i, end)
            result.append(bind_one(_ew.select_n_p, is_neg, i, wrapped))
        else:
            result.append(i)
    return result


def dynamic_slice(
    operand: ArrayLike,
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    slice_sizes: ShapeLike,
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """The slice of size ``slice_sizes`` at traced ``start_indices`` (clamped into range)."""
    starts = _dynamic_slice_indices(shape_of(operand), start_indices, allow_negative_indices)
    return bind_one(dynamic_slice_p, operand, *starts, slice_sizes=_shape_tuple(slice_sizes))


dynamic_slice_p: Primitive = Primitive("dynamic_slice")


def _dynamic_slice_abstract_eval(
    operand: ShapedArray, *start_indices: ShapedArray, slice_sizes: tuple[int, ...]
) -> ShapedArray:
    if len(start_indices) != operand.ndim or len(slice_sizes) != operand.ndim:
        raise TypeError(
            "dynamic_slice start_indices and slice_sizes must have length equal to the rank of "
            f"operand, got {len(start_indices)} indices and slice_sizes {slice_sizes} for operand "
            f"shape {operand.shape}."
        )
    if not all(d >= s for d, s in zip(operand.shape, slice_sizes)):
        raise TypeError(
            "slice slice_sizes must be less than or equal to operand shape, got "
            f"slice_sizes {slice_sizes} for operand shape {operand.shape}."
        )
    if not all(s >= 0 for s in slice_sizes):
        raise TypeError(
            "slice slice_sizes must be greater than or equal to zero, got slice_sizes of "
            f"{slice_sizes}."
        )
    if any(i.ndim != 0 for i in start_indices):
        raise TypeError(
            "start_indices arguments to dynamic_slice must be scalars,  got indices "
            f"{start_indices}"
        )
    _check_index_dtypes("dynamic_slice", start_indices, ": ")
    return ShapedArray(slice_sizes, operand.dtype, operand.weak_type)


def _dynamic_slice_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    *start_indices: ir.Value[Any],
    slice_sizes: tuple[int, ...],
) -> ir.Value[Any]:
    return dynamic_shapes.dynamic_slice(aval_to_ir_type(ctx.avals_out[0]), x, start_indices, slice_sizes)


def _dynamic_slice_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, slice_sizes: tuple[int, ...]
) -> tuple[Any, Any]:
    x, *starts = primals
    out = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    if ad_util.is_zero(tangents[0]):
        return out, ad_util.Zero.from_primal_value(out)
    return out, dynamic_slice_p.bind(tangents[0], *starts, slice_sizes=slice_sizes)


def _dynamic_slice_transpose(
    ct: Any, operand: Any, *starts: Any, slice_sizes: tuple[int, ...]
) -> list[Any]:
    zeros = ad_util.zeros_like_aval(ShapedArray(operand.aval.shape, get_aval(ct).dtype))
    return [dynamic_update_slice_p.bind(zeros, ct, *starts), *(None for _ in starts)]


def _batched_start_indices(starts: Sequence[Any], dims: Sequence[int | None], size: int) -> Array:
    """Scalar start indices, some batched, as one ``(size, len(starts))`` index array."""
    cols = [broadcast_in_dim(i, (size, 1), () if d is None else (0,)) for i, d in zip(starts, dims)]
    return concatenate(cols, 1)


def _leading_zero_index(starts: Sequence[Any]) -> Any:
    return np.zeros((), get_aval(starts[0]).dtype if starts else np.int32)


def _dynamic_slice_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, slice_sizes: tuple[int, ...]
) -> tuple[Any, int]:
    (x, *starts), (xd, *sds) = args, dims
    size = axis_size(args, dims)
    if all(d is None for d in sds):
        x = moveaxis(x, xd, 0) if xd is not None else x
        zero = _leading_zero_index(starts)
        return dynamic_slice_p.bind(x, zero, *starts, slice_sizes=(size, *slice_sizes)), 0
    # Batched start indices make this a gather (as in JAX): one index vector per element.
    nd = len(slice_sizes)
    dnums = GatherDimensionNumbers(
        offset_dims=tuple(range(nd)), collapsed_slice_dims=(), start_index_map=tuple(range(nd))
    )
    out: tuple[Any, int] = _gs_gather.gather_p.rule("batch")(
        [x, _batched_start_indices(starts, sds, size)],
        [xd, 0],
        dimension_numbers=dnums,
        slice_sizes=slice_sizes,
        unique_indices=True,
        indices_are_sorted=True,
        mode=GatherScatterMode.CLIP,
        fill_value=None,
    )
    return out


dynamic_slice_p.def_rules(
    Rules(
        abstract_eval=_dynamic_slice_abstract_eval,
        lower=_dynamic_slice_lower,
        jvp=_dynamic_slice_jvp,
        transpose=_dynamic_slice_transpose,
        batch=_dynamic_slice_batch,
    )
)


# -- dynamic_update_slice ---------------------------------------------------------------


def dynamic_update_slice(
    operand: ArrayLike,
    update: ArrayLike,
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """``operand`` with ``update`` written at traced ``start_indices`` (clamped into range)."""
    starts = _dynamic_slice_indices(shape_of(operand), start_indices, allow_negative_indices)
    return bind_one(dynamic_update_slice_p, operand, update, *starts)


dynamic_update_slice_p: Primitive = Primitive("dynamic_update_slice")


def _dynamic_update_slice_abstract_eval(
    operand: ShapedArray, update: ShapedArray, *start_indices: ShapedArray
) -> ShapedArray:
    if operand.ndim != update.ndim:
        raise TypeError(
            "dynamic_update_slice update must have the same rank as operand, got update shape "
            f"{update.shape} for operand shape {operand.shape}."
        )
    if operand.ndim != len(start_indices):
        raise TypeError(
            "dynamic_update_slice start_indices must have length equal to the rank of operand, "
            f"got indices {start_indices} for operand shape {operand.shape}."
        )
    if not all(d >= u for d, u in zip(operand.shape, update.shape)):
        raise TypeError(
            "dynamic_update_slice update shape must be smaller than operand shape, got update "
            f"shape {update.shape} for operand shape {operand.shape}."
        )
    if any(i.ndim != 0 for i in start_indices):
        raise TypeError(
            "start_indices arguments to dynamic_update_slice must be scalars, got indices "
            f"{start_indices}"
        )
    if operand.dtype != update.dtype:
        raise TypeError(
            "lax.dynamic_update_slice requires arguments to have the same dtypes, got "
            f"{operand.dtype.name}, {update.dtype.name}."
        )
    _check_index_dtypes("dynamic_update_slice", start_indices, " ")
    weak = operand.weak_type and update.weak_type and all(i.weak_type for i in start_indices)
    return ShapedArray(operand.shape, operand.dtype, weak)


def _dynamic_update_slice_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], update: ir.Value[Any], *start_indices: ir.Value[Any]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.dynamic_update_slice(x, update, list(start_indices))
    return out


def _dynamic_update_slice_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    x, u, *starts = primals
    out = dynamic_update_slice_p.bind(x, u, *starts)
    tx, tu = tangents[:2]
    if ad_util.is_zero(tx) and ad_util.is_zero(tu):
        return out, ad_util.Zero.from_primal_value(out)
    tx, tu = ad_util.instantiate_zeros(tx), ad_util.instantiate_zeros(tu)
    return out, dynamic_update_slice_p.bind(tx, tu, *starts)


def _dynamic_update_slice_transpose(ct: Any, operand: Any, update: Any, *starts: Any) -> list[Any]:
    u_aval = update.aval if ad_util.is_undefined_primal(update) else get_aval(update)
    operand_t = update_t = None
    if ad_util.is_undefined_primal(operand):
        zeros = ad_util.zeros_like_aval(ShapedArray(u_aval.shape, get_aval(ct).dtype))
        operand_t = dynamic_update_slice_p.bind(ct, zeros, *starts)
    if ad_util.is_undefined_primal(update):
        update_t = dynamic_slice_p.bind(ct, *starts, slice_sizes=u_aval.shape)
    return [operand_t, update_t, *(None for _ in starts)]


def _dynamic_update_slice_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    (x, u, *starts), (xd, ud, *sds) = args, dims
    size = axis_size(args, dims)
    x, u = bdim_at_front(x, xd, size), bdim_at_front(u, ud, size)
    if all(d is None for d in sds):
        return dynamic_update_slice_p.bind(x, u, _leading_zero_index(starts), *starts), 0
    # Batched start indices make this a scatter (as in JAX): one index vector per element.
    nd = len(starts)
    dnums = ScatterDimensionNumbers(
        update_window_dims=tuple(range(nd)),
        inserted_window_dims=(),
        scatter_dims_to_operand_dims=tuple(range(nd)),
    )
    out: tuple[Any, int] = _gs_scatter.scatter_p.rule("batch")(
        [x, _batched_start_indices(starts, sds, size), u],
        [0, 0, 0],
        update_jaxpr=None,
        update_consts=(),
        dimension_numbers=dnums,
        indices_are_sorted=True,
        unique_indices=True,
        mode=GatherScatterMode.CLIP,
    )
    return out


dynamic_update_slice_p.def_rules(
    Rules(
        abstract_eval=_dynamic_update_slice_abstract_eval,
        lower=_dynamic_update_slice_lower,
        jvp=_dynamic_update_slice_jvp,
        transpose=_dynamic_update_slice_transpose,
        batch=_dynamic_update_slice_batch,
    )
)


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
    shape = shape_dims.shape_of(operand)
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
    return slice(operand, starts, limits, strides)


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    """``operand[..., index]`` along ``axis``; ``keepdims`` keeps the axis with size 1.

    Raises ``IndexError`` when ``index`` is out of bounds (negative indices count from the end).
    """
    index, axis = int(index), int(axis)
    size = shape_dims.shape_of(operand)[axis]
    wrapped = index + size if index < 0 else index
    if not 0 <= wrapped < size:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
    result = slice_in_dim(operand, wrapped, wrapped + 1, 1, axis)
    return result if keepdims else shape_dims.squeeze(result, (axis,))


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
    shape = shape_dims.shape_of(operand)
    axis = int(axis)
    starts: list[ArrayLike] = [_zero_like_index(start_index)] * len(shape)
    sizes = list(shape)
    allow = [False] * len(shape)
    allow[axis] = allow_negative_indices
    starts[axis] = start_index
    sizes[axis] = int(slice_size)
    return dynamic_slice(operand, starts, sizes, allow_negative_indices=allow)


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
    return result if keepdims else shape_dims.squeeze(result, (axis,))


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
    ndim = len(shape_dims.shape_of(operand))
    axis = int(axis)
    starts: list[ArrayLike] = [_zero_like_index(start_index)] * ndim
    starts[axis] = start_index
    allow = [False] * ndim
    allow[axis] = allow_negative_indices
    return dynamic_update_slice(operand, update, starts, allow_negative_indices=allow)


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
    if len(shape_dims.shape_of(update)) != len(shape_dims.shape_of(operand)):
        assert len(shape_dims.shape_of(update)) + 1 == len(shape_dims.shape_of(operand))
        update = shape_dims.expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(
        operand, update, index, axis, allow_negative_indices=allow_negative_indices
    )
