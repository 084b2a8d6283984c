"""Slicing primitives: static and dynamic slices, dynamic update, gather and scatter.

Gather and scatter take XLA's dimension numbers (``GatherDimensionNumbers``,
``ScatterDimensionNumbers``) with the index vector always in the last dimension
of the indices, and a ``GatherScatterMode`` for out-of-bounds indices, as in JAX.
"""

from __future__ import annotations

import enum
import functools
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from jax_core._src import dtypes
from jax_core._src.basearray import Array
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import Jaxpr, JaxprEqn, Var
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lax import elementwise as _ew
from jax_core._src.lax.reductions import lower_reduce
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, ShapeLike


def _bind(prim: Primitive, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def _int_tuple(xs: Sequence[int]) -> tuple[int, ...]:
    return tuple(operator.index(x) for x in xs)


def _check_nonnegative(fun_name: str, arg_name: str, obj: tuple[int, ...]) -> None:
    if not all(d >= 0 for d in obj):
        raise TypeError(f"{fun_name} {arg_name} must have every element be nonnegative, got {obj}.")


# -- slice ------------------------------------------------------------------------------


def slice(
    operand: ArrayLike,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> Array:
    """The static slice ``operand[start:limit:stride]`` in every dimension (XLA's Slice)."""
    return _bind(
        slice_p,
        operand,
        start_indices=_int_tuple(start_indices),
        limit_indices=_int_tuple(limit_indices),
        strides=None if strides is None else _int_tuple(strides),
    )


slice_p = Primitive("slice")


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
    return hlo.slice(x, list(start_indices), list(limit_indices), steps)


slice_p.def_rules(Rules(abstract_eval=_slice_abstract_eval, lower=_slice_lower))


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
                raise ValueError(f"Index {k} is out of bounds for dimension {d} if allow_negative_indices=False")
            result.append(np.asarray(k + d if k < 0 else k, dt)[()])
        elif allow_negative:
            is_neg = _bind(_ew.lt_p, i, np.asarray(0, dt)[()])
            wrapped = _bind(_ew.add_p, i, np.asarray(d, dt)[()])
            result.append(_bind(_ew.select_n_p, is_neg, i, wrapped))
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
    starts = _dynamic_slice_indices(np.shape(operand), start_indices, allow_negative_indices)
    sizes = (operator.index(slice_sizes),) if isinstance(slice_sizes, (int, np.integer)) else _int_tuple(slice_sizes)
    return _bind(dynamic_slice_p, operand, *starts, slice_sizes=sizes)


dynamic_slice_p = Primitive("dynamic_slice")


def _check_index_dtypes(name: str, indices: Sequence[ShapedArray], sep: str) -> None:
    if any(i.dtype != indices[0].dtype or not dtypes.issubdtype(i.dtype, np.integer) for i in indices):
        raise TypeError(
            f"index arguments to {name} must be integers of the same type, got{sep}"
            f"{', '.join(i.dtype.name for i in indices)}"
        )


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
        raise TypeError(f"slice slice_sizes must be greater than or equal to zero, got slice_sizes of {slice_sizes}.")
    if any(i.ndim != 0 for i in start_indices):
        raise TypeError(f"start_indices arguments to dynamic_slice must be scalars,  got indices {start_indices}")
    _check_index_dtypes("dynamic_slice", start_indices, ": ")
    return ShapedArray(slice_sizes, operand.dtype, operand.weak_type)


def _dynamic_slice_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *start_indices: ir.Value[Any], slice_sizes: tuple[int, ...]
) -> ir.Value[Any]:
    return hlo.dynamic_slice(x, list(start_indices), list(slice_sizes))


dynamic_slice_p.def_rules(Rules(abstract_eval=_dynamic_slice_abstract_eval, lower=_dynamic_slice_lower))


# -- dynamic_update_slice ---------------------------------------------------------------


def dynamic_update_slice(
    operand: ArrayLike,
    update: ArrayLike,
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """``operand`` with ``update`` written at traced ``start_indices`` (clamped into range)."""
    starts = _dynamic_slice_indices(np.shape(operand), start_indices, allow_negative_indices)
    return _bind(dynamic_update_slice_p, operand, update, *starts)


dynamic_update_slice_p = Primitive("dynamic_update_slice")


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
        raise TypeError(f"start_indices arguments to dynamic_update_slice must be scalars, got indices {start_indices}")
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
    return hlo.dynamic_update_slice(x, update, list(start_indices))


dynamic_update_slice_p.def_rules(
    Rules(abstract_eval=_dynamic_update_slice_abstract_eval, lower=_dynamic_update_slice_lower)
)


# -- gather -----------------------------------------------------------------------------


class GatherDimensionNumbers(NamedTuple):
    """The dimension numbers of XLA's Gather (the index vector is the last indices dimension).

    ``offset_dims``: output dimensions that index into the gathered slices (sorted);
    ``collapsed_slice_dims``: operand dimensions of slice size 1 that are dropped (sorted);
    ``start_index_map``: for each index-vector entry, the operand dimension it starts;
    ``operand_batching_dims`` / ``start_indices_batching_dims``: paired batch dimensions.
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class GatherScatterMode(enum.Enum):
    """How gather and scatter treat out-of-bounds indices.

    ``CLIP``: indices are clamped so the whole window is in range.
    ``FILL_OR_DROP``: an out-of-bounds gathered window is filled with ``fill_value``;
    an out-of-bounds scattered window is dropped.
    ``PROMISE_IN_BOUNDS``: the caller promises indices are in bounds (XLA clamps
    gathers and drops scatters).
    """

    CLIP = enum.auto()
    FILL_OR_DROP = enum.auto()
    PROMISE_IN_BOUNDS = enum.auto()

    @staticmethod
    def from_any(s: str | GatherScatterMode | None) -> GatherScatterMode:
        """Parses ``"clip"``, ``"fill"``/``"drop"``/``None`` or ``"promise_in_bounds"``."""
        if isinstance(s, GatherScatterMode):
            return s
        if s == "clip":
            return GatherScatterMode.CLIP
        if s is None or s == "fill" or s == "drop":
            return GatherScatterMode.FILL_OR_DROP
        if s == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        raise ValueError(f'Unknown gather mode "{s}"')


def _default_fill_value(dtype: np.dtype[Any]) -> float | int | bool:
    if dtypes.issubdtype(dtype, np.inexact):
        return float("nan")
    if dtypes.issubdtype(dtype, np.signedinteger):
        return int(dtypes.iinfo(dtype).min)
    if dtypes.issubdtype(dtype, np.unsignedinteger):
        return int(dtypes.iinfo(dtype).max)
    return True


def gather(
    operand: ArrayLike,
    start_indices: ArrayLike,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: ShapeLike,
    *,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    mode: str | GatherScatterMode | None = None,
    fill_value: float | int | bool | None = None,
) -> Array:
    """XLA's Gather: slices of ``slice_sizes`` starting at each index vector of ``start_indices``.

    ``mode`` defaults to ``PROMISE_IN_BOUNDS``; with ``"fill"``, out-of-bounds windows
    are ``fill_value`` (NaN, the smallest signed or largest unsigned integer, or True).
    """
    parsed = GatherScatterMode.from_any(GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else mode)
    if parsed is GatherScatterMode.FILL_OR_DROP:
        if fill_value is None:
            fill_value = _default_fill_value(dtypes.dtype(operand, canonicalize=True))
    else:
        fill_value = None
    dnums = GatherDimensionNumbers(*(_int_tuple(d) for d in dimension_numbers))
    sizes = (operator.index(slice_sizes),) if isinstance(slice_sizes, (int, np.integer)) else _int_tuple(slice_sizes)
    return _bind(
        gather_p,
        operand,
        start_indices,
        dimension_numbers=dnums,
        slice_sizes=sizes,
        unique_indices=bool(unique_indices),
        indices_are_sorted=bool(indices_are_sorted),
        mode=parsed,
        fill_value=fill_value,
    )


gather_p = Primitive("gather")


def _is_sorted(dims: Sequence[int], op_name: str, name: str) -> None:
    if any(dims[i] < dims[i - 1] for i in range(1, len(dims))):
        raise TypeError(f"{name} in {op_name} op must be sorted; got {dims}")


def _dims_in_range(dims: Sequence[int], rank: int, op_name: str, name: str) -> None:
    for dim in dims:
        if dim < 0 or dim >= rank:
            raise TypeError(f"Invalid {name} set in {op_name} op; valid range is [0, {rank}); got: {dim}.")


def _no_duplicate_dims(dims: Sequence[int], op_name: str, name: str) -> None:
    if len(set(dims)) != len(dims):
        raise TypeError(f"{name} in {op_name} op must not repeat; got: {dims}.")


def _disjoint_dims(dims1: Sequence[int], dims2: Sequence[int], op_name: str, name1: str, name2: str) -> None:
    if not set(dims1).isdisjoint(dims2):
        raise TypeError(f"{name1} and {name2} in {op_name} op must be disjoint; got: {dims1} and {dims2}.")


def _gather_shape(operand: ShapedArray, indices: ShapedArray, dnums: GatherDimensionNumbers, slice_sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Validates gather's dimension numbers (XLA's ShapeInference::InferGatherShape)."""
    offset_dims, collapsed = dnums.offset_dims, dnums.collapsed_slice_dims
    operand_batching, indices_batching = dnums.operand_batching_dims, dnums.start_indices_batching_dims
    start_index_map = dnums.start_index_map
    index_vector_dim = indices.ndim - 1
    if index_vector_dim < 0:
        raise TypeError(
            "Gather index leaf dimension must be within [0, rank(indices) + 1). rank(indices) is "
            f"{indices.ndim} and gather index leaf dimension is {index_vector_dim}."
        )
    _is_sorted(offset_dims, "gather", "offset_dims")
    _no_duplicate_dims(offset_dims, "gather", "offset_dims")
    out_rank = len(offset_dims) + indices.ndim - 1
    for i, offset_dim in enumerate(offset_dims):
        if offset_dim < 0 or offset_dim >= out_rank:
            raise TypeError(
                f"Offset dimension {i} in gather op is out of bounds; got {offset_dim}, but should "
                f"have been in [0, {out_rank})"
            )
    if len(start_index_map) != indices.shape[index_vector_dim]:
        raise TypeError(
            f"Gather op has {len(start_index_map)} elements in start_index_map and the bound of "
            f"dimension index_vector_dim={index_vector_dim} of indices is "
            f"{indices.shape[index_vector_dim]}. These two numbers must be equal."
        )
    for i, d in enumerate(start_index_map):
        if d < 0 or d >= operand.ndim:
            raise TypeError(f"Invalid start_index_map; domain is [0, {operand.ndim}), got: {i}->{d}.")
    _no_duplicate_dims(start_index_map, "gather", "start_index_map")
    _is_sorted(collapsed, "gather", "collapsed_slice_dims")
    _dims_in_range(collapsed, operand.ndim, "gather", "collapsed_slice_dims")
    _no_duplicate_dims(collapsed, "gather", "collapsed_slice_dims")
    _no_duplicate_dims(operand_batching, "gather", "operand_batching_dims")
    _is_sorted(operand_batching, "gather", "operand_batching_dims")
    _dims_in_range(operand_batching, operand.ndim, "gather", "operand_batching_dims")
    _disjoint_dims(collapsed, operand_batching, "gather", "collapsed_slice_dims", "operand_batching_dims")
    _disjoint_dims(start_index_map, operand_batching, "gather", "start_index_map", "operand_batching_dims")
    _no_duplicate_dims(indices_batching, "gather", "start_indices_batching_dims")
    _dims_in_range(indices_batching, indices.ndim, "gather", "start_indices_batching_dims")
    if index_vector_dim in indices_batching:
        raise TypeError(
            f"Gather op cannot have the index vector dimension as a batching dimension; got {indices_batching}."
        )
    if len(operand_batching) != len(indices_batching):
        raise TypeError(
            "Gather op requires equal numbers of operand_batching_dims and "
            f"start_indices_batching_dims, got {operand_batching} and{indices_batching}."
        )
    operand_batch_shape = tuple(operand.shape[i] for i in operand_batching)
    indices_batch_shape = tuple(indices.shape[i] for i in indices_batching)
    if operand_batch_shape != indices_batch_shape:
        raise TypeError(
            "Gather op requires operand batching dimensions and indices batching dimensions to have "
            f"the same shape, got {operand_batch_shape} and {indices_batch_shape}."
        )
    if operand.ndim != len(slice_sizes):
        raise TypeError(
            "Gather op must have one slice size for every input dimension; got: "
            f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={operand.ndim}"
        )
    if len(slice_sizes) != len(offset_dims) + len(collapsed) + len(operand_batching):
        raise TypeError(
            "All components of the offset index in a gather op must either be a offset dimension "
            f"or explicitly collapsed/batching; got len(slice_sizes)={len(slice_sizes)}, "
            f"output_slice_sizes={offset_dims}, collapsed_slice_dims={collapsed}, "
            f"operand_batching_dims={operand_batching}."
        )
    if indices.size:
        for i, (size, dim) in enumerate(zip(slice_sizes, operand.shape)):
            if not 0 <= size <= dim:
                raise TypeError(
                    f"Slice size at index {i} in gather op is out of range, must be within "
                    f"[0, {dim} + 1), got {size}."
                )
    for i, d in enumerate(collapsed):
        if slice_sizes[d] != 1:
            raise TypeError(
                "Gather op can only collapse slice dims with bound 1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {i}."
            )
    for i, d in enumerate(operand_batching):
        if slice_sizes[d] > 1:
            raise TypeError(
                "Gather op can only have operand batching dims with bound 0/1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {i}."
            )
    batch_shape = iter(indices.shape[:-1])
    window = iter(s for i, s in enumerate(slice_sizes) if i not in collapsed and i not in operand_batching)
    return tuple(next(window) if i in offset_dims else next(batch_shape) for i in range(out_rank))


def _gather_abstract_eval(
    operand: ShapedArray,
    indices: ShapedArray,
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    unique_indices: bool,
    indices_are_sorted: bool,
    mode: GatherScatterMode,
    fill_value: float | int | bool | None,
) -> ShapedArray:
    shape = _gather_shape(operand, indices, dimension_numbers, slice_sizes)
    if not dtypes.issubdtype(indices.dtype, np.integer):
        raise ValueError("indices must have an integer type")
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _splat(value: Any, aval: ShapedArray) -> ir.Value[Any]:
    return hlo_util.broadcast_in_dim(hlo_util.constant(np.array(value, aval.dtype)), aval, ())


def _gather_in_bounds_mask(
    indices: ir.Value[Any], idx_aval: ShapedArray, operand_shape: tuple[int, ...], dnums: GatherDimensionNumbers, slice_sizes: tuple[int, ...]
) -> ir.Value[Any]:
    """For each index vector, whether its whole window lies inside the operand."""
    idx_dt = idx_aval.dtype
    top = int(dtypes.iinfo(idx_dt).max)
    bounds = np.array([min(operand_shape[d] - slice_sizes[d], top) for d in dnums.start_index_map], idx_dt)
    upper = hlo_util.broadcast_in_dim(hlo_util.constant(bounds), idx_aval, (idx_aval.ndim - 1,))
    ok = hlo_util.compare(indices, upper, "LE", idx_dt)
    if dtypes.issubdtype(idx_dt, np.signedinteger):
        ok = hlo.and_(ok, hlo_util.compare(indices, _splat(0, idx_aval), "GE", idx_dt))
    batch_aval = ShapedArray(idx_aval.shape[:-1], np.dtype(np.bool_))
    return lower_reduce(ok, np.array(True), (idx_aval.ndim - 1,), hlo.and_, batch_aval)


def _gather_lower(
    ctx: LoweringRuleContext,
    operand: ir.Value[Any],
    indices: ir.Value[Any],
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    unique_indices: bool,
    indices_are_sorted: bool,
    mode: GatherScatterMode,
    fill_value: float | int | bool | None,
) -> ir.Value[Any]:
    operand_aval, idx_aval = ctx.avals_in
    aval_out = ctx.avals_out[0]
    if aval_out.size == 0:
        return hlo_util.constant(np.zeros(aval_out.shape, aval_out.dtype))
    dn = dimension_numbers
    attr = hlo.GatherDimensionNumbers.get(
        offset_dims=list(dn.offset_dims),
        collapsed_slice_dims=list(dn.collapsed_slice_dims),
        operand_batching_dims=list(dn.operand_batching_dims),
        start_indices_batching_dims=list(dn.start_indices_batching_dims),
        start_index_map=list(dn.start_index_map),
        index_vector_dim=idx_aval.ndim - 1,
    )
    out = hlo.gather(operand, indices, attr, list(slice_sizes), indices_are_sorted=indices_are_sorted)
    if mode is not GatherScatterMode.FILL_OR_DROP:
        return out
    mask = _gather_in_bounds_mask(indices, idx_aval, operand_aval.shape, dn, slice_sizes)
    batch_dims = [d for d in range(aval_out.ndim) if d not in dn.offset_dims]
    mask = hlo_util.broadcast_in_dim(mask, ShapedArray(aval_out.shape, np.dtype(np.bool_)), batch_dims)
    return hlo.select(mask, out, _splat(fill_value, aval_out))


gather_p.def_rules(Rules(abstract_eval=_gather_abstract_eval, lower=_gather_lower))


# -- scatter ----------------------------------------------------------------------------


class ScatterDimensionNumbers(NamedTuple):
    """The dimension numbers of XLA's Scatter (the index vector is the last indices dimension).

    ``update_window_dims``: dimensions of ``updates`` that are window dimensions (sorted);
    ``inserted_window_dims``: size-1 operand window dimensions absent from ``updates``;
    ``scatter_dims_to_operand_dims``: for each index-vector entry, its operand dimension;
    ``operand_batching_dims`` / ``scatter_indices_batching_dims``: paired batch dimensions.
    """

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


@functools.lru_cache(maxsize=None)
def _update_jaxpr(combine: Primitive, dtype: np.dtype[Any]) -> Jaxpr:
    """``{ lambda ; a b. let c = combine a b in (c,) }`` on scalars (cached: a jit-cache key)."""
    aval = ShapedArray((), dtype)
    a, b, c = Var(aval), Var(aval), Var(aval)
    return Jaxpr([], [a, b], [c], [JaxprEqn([a, b], [c], combine, {}, None)])


def _scatter_bind(
    prim: Primitive,
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: str | GatherScatterMode | None,
    combine: Primitive | None,
) -> Array:
    jaxpr = None if combine is None else _update_jaxpr(combine, dtypes.dtype(operand, canonicalize=True))
    return _bind(
        prim,
        operand,
        scatter_indices,
        updates,
        update_jaxpr=jaxpr,
        update_consts=(),
        dimension_numbers=ScatterDimensionNumbers(*(_int_tuple(d) for d in dimension_numbers)),
        indices_are_sorted=bool(indices_are_sorted),
        unique_indices=bool(unique_indices),
        mode=GatherScatterMode.from_any(mode),
    )


def _scatter_shape(operand: ShapedArray, indices: ShapedArray, updates: ShapedArray, dnums: ScatterDimensionNumbers) -> None:
    """Validates scatter's dimension numbers (XLA's ShapeInference::InferScatterShape)."""
    window_dims, inserted = dnums.update_window_dims, dnums.inserted_window_dims
    operand_batching, indices_batching = dnums.operand_batching_dims, dnums.scatter_indices_batching_dims
    to_operand = dnums.scatter_dims_to_operand_dims
    index_vector_dim = indices.ndim - 1
    if index_vector_dim < 0:
        raise TypeError(
            "Scatter index leaf dimension must be within [0, rank(indices) + 1). rank(indices) is "
            f"{indices.ndim} and scatter index leaf dimension is {index_vector_dim}."
        )
    expected_rank = indices.ndim - 1 + len(window_dims)
    if updates.ndim != expected_rank:
        raise TypeError(f"Updates tensor must be of rank {expected_rank}; got {updates.ndim}.")
    _is_sorted(window_dims, "scatter", "update_window_dims")
    _no_duplicate_dims(window_dims, "scatter", "update_window_dims")
    _dims_in_range(window_dims, updates.ndim, "scatter", "update_window_dims")
    _is_sorted(inserted, "scatter", "inserted_window_dims")
    _no_duplicate_dims(inserted, "scatter", "inserted_window_dims")
    _dims_in_range(inserted, operand.ndim, "scatter", "inserted_window_dims")
    _is_sorted(operand_batching, "scatter", "operand_batching_dims")
    _no_duplicate_dims(operand_batching, "scatter", "operand_batching_dims")
    _dims_in_range(operand_batching, operand.ndim, "scatter", "operand_batching_dims")
    _disjoint_dims(inserted, operand_batching, "scatter", "inserted_window_dims", "operand_batching_dims")
    _disjoint_dims(to_operand, operand_batching, "scatter", "scatter_dims_to_operand_dims", "operand_batching_dims")
    _no_duplicate_dims(indices_batching, "scatter", "scatter_indices_batching_dims")
    _dims_in_range(indices_batching, indices.ndim, "scatter", "scatter_indices_batching_dims")
    if index_vector_dim in indices_batching:
        raise TypeError(
            f"Scatter op cannot have the index vector dimension as a batching dimension; got {indices_batching}."
        )
    if len(operand_batching) != len(indices_batching):
        raise TypeError(
            "Scatter op requires equal numbers of operand_batching_dims and "
            f"scatter_indices_batching_dims, got {operand_batching} and {indices_batching}."
        )
    operand_batch_shape = tuple(operand.shape[i] for i in operand_batching)
    indices_batch_shape = tuple(indices.shape[i] for i in indices_batching)
    if operand_batch_shape != indices_batch_shape:
        raise TypeError(
            "Scatter op requires operand batching dimensions and indices batching dimensions to "
            f"have the same shape, got {operand_batch_shape} and {indices_batch_shape}."
        )
    scatter_dims_in_updates: list[int | None] = list(range(index_vector_dim))
    for i in window_dims:
        scatter_dims_in_updates.insert(i, None)
    updates_batch_shape = tuple(updates.shape[scatter_dims_in_updates.index(i)] for i in indices_batching)
    if operand_batch_shape != updates_batch_shape:
        raise TypeError(
            "Scatter op requires operand batching dimensions and updates batching dimensions to "
            f"have the same shape, got {operand_batch_shape} and {updates_batch_shape}."
        )
    window_size = len(window_dims) + len(inserted) + len(operand_batching)
    if operand.ndim != window_size:
        raise TypeError(f"Scatter op has window of size {window_size}; doesn't match operand of rank {operand.ndim}.")
    if len(to_operand) != indices.shape[index_vector_dim]:
        raise TypeError(
            f"Scatter op has {len(to_operand)} elements in scatter_dims_to_operand_dims and the "
            f"bound of dimension index_vector_dim={index_vector_dim} of indices is "
            f"{indices.shape[index_vector_dim]}. These two numbers must be equal"
        )
    for i, d in enumerate(to_operand):
        if d < 0 or d >= operand.ndim:
            raise TypeError(f"Invalid scatter_dims_to_operand_dims mapping; domain is [0, {operand.ndim}), got: {i}->{d}.")
    _no_duplicate_dims(to_operand, "scatter", "scatter_dims_to_operand_dims")
    max_sizes = [d for i, d in enumerate(operand.shape) if i not in inserted and i not in operand_batching]
    for i, w in enumerate(window_dims):
        if max_sizes[i] < updates.shape[w]:
            raise TypeError(
                "Bounds of the window dimensions of updates must not exceed the bounds of the "
                f"corresponding dimensions of operand. For dimension {w}, updates bound is "
                f"{updates.shape[w]}, operand bound is {max_sizes[i]}."
            )
    seen = 0
    for i in (d for d in range(updates.ndim) if d not in window_dims):
        if seen == index_vector_dim:
            seen += 1
        if updates.shape[i] != indices.shape[seen]:
            raise TypeError(
                "Bounds of the scatter dimensions of updates must be the same as the bounds of the "
                f"corresponding dimensions of scatter indices. For scatter dimension {i}, updates "
                f"bound is {updates.shape[i]}, indices bound is {indices.shape[seen]}."
            )
        seen += 1


def _scatter_abstract_eval(
    operand: ShapedArray,
    indices: ShapedArray,
    updates: ShapedArray,
    *,
    update_jaxpr: Jaxpr | None,
    update_consts: tuple[Any, ...],
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
) -> ShapedArray:
    _scatter_shape(operand, indices, updates, dimension_numbers)
    if not dtypes.issubdtype(indices.dtype, np.integer):
        raise ValueError("indices must have an integer type")
    if operand.dtype != updates.dtype:
        raise TypeError(
            f"lax.scatter requires arguments to have the same dtypes, got {operand.dtype.name}, {updates.dtype.name}."
        )
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _clamp_scatter_indices(
    indices: ir.Value[Any], idx_aval: ShapedArray, operand_aval: ShapedArray, updates_aval: ShapedArray, dnums: ScatterDimensionNumbers
) -> ir.Value[Any]:
    """Clamps each index vector so its whole update window is in range (mode CLIP)."""
    window_sizes = iter(updates_aval.shape[d] for d in dnums.update_window_dims)
    sizes = [
        1 if i in dnums.inserted_window_dims or i in dnums.operand_batching_dims else next(window_sizes)
        for i in range(operand_aval.ndim)
    ]
    top = int(dtypes.iinfo(idx_aval.dtype).max)
    bounds = np.array([min(operand_aval.shape[d] - sizes[d], top) for d in dnums.scatter_dims_to_operand_dims], idx_aval.dtype)
    upper = hlo_util.broadcast_in_dim(hlo_util.constant(bounds), idx_aval, (idx_aval.ndim - 1,))
    return hlo.clamp(_splat(0, idx_aval), indices, upper)


def _scatter_lower(
    ctx: LoweringRuleContext,
    operand: ir.Value[Any],
    indices: ir.Value[Any],
    updates: ir.Value[Any],
    *,
    update_jaxpr: Jaxpr | None,
    update_consts: tuple[Any, ...],
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
) -> ir.Value[Any]:
    """A ``stablehlo.scatter`` whose update region applies ``update_jaxpr`` (or keeps the update)."""
    operand_aval, idx_aval, updates_aval = ctx.avals_in
    aval_out = ctx.avals_out[0]
    dn = dimension_numbers
    if mode is GatherScatterMode.CLIP:
        indices = _clamp_scatter_indices(indices, idx_aval, operand_aval, updates_aval, dn)
    attr = hlo.ScatterDimensionNumbers.get(
        update_window_dims=list(dn.update_window_dims),
        inserted_window_dims=list(dn.inserted_window_dims),
        input_batching_dims=list(dn.operand_batching_dims),
        scatter_indices_batching_dims=list(dn.scatter_indices_batching_dims),
        scattered_dims_to_operand_dims=list(dn.scatter_dims_to_operand_dims),
        index_vector_dim=idx_aval.ndim - 1,
    )
    op = hlo.ScatterOp(
        [aval_to_ir_type(aval_out)],
        [operand],
        indices,
        [updates],
        attr,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
    )
    scalar = aval_to_ir_type(ShapedArray((), aval_out.dtype))
    body = op.update_computation.blocks.append(scalar, scalar)
    with ir.InsertionPoint(body):
        args: list[ir.Value[Any]] = [body.arguments[0], body.arguments[1]]
        outs = [args[1]] if update_jaxpr is None else ctx.lower_jaxpr(update_jaxpr, update_consts, args)
        hlo.return_(outs)
    result: ir.Value[Any] = op.results[0]
    return result


def scatter(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """XLA's Scatter, overwriting: ``operand`` with windows of ``updates`` written at the indices.

    With repeated indices the winning update is unspecified. ``mode`` defaults to
    ``FILL_OR_DROP`` (out-of-bounds updates are dropped).
    """
    return _scatter_bind(scatter_p, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode, None)


scatter_p = Primitive("scatter")
scatter_p.def_rules(Rules(abstract_eval=_scatter_abstract_eval, lower=_scatter_lower))


def scatter_add(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """XLA's Scatter with addition: repeated indices accumulate."""
    return _scatter_bind(scatter_add_p, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode, _ew.add_p)


scatter_add_p = Primitive("scatter-add")
scatter_add_p.def_rules(Rules(abstract_eval=_scatter_abstract_eval, lower=_scatter_lower))


def scatter_mul(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """XLA's Scatter with multiplication: repeated indices multiply."""
    return _scatter_bind(scatter_mul_p, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode, _ew.mul_p)


scatter_mul_p = Primitive("scatter-mul")
scatter_mul_p.def_rules(Rules(abstract_eval=_scatter_abstract_eval, lower=_scatter_lower))


def scatter_min(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """XLA's Scatter with minimum: each element keeps the smallest of itself and its updates."""
    return _scatter_bind(scatter_min_p, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode, _ew.min_p)


scatter_min_p = Primitive("scatter-min")
scatter_min_p.def_rules(Rules(abstract_eval=_scatter_abstract_eval, lower=_scatter_lower))


def scatter_max(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """XLA's Scatter with maximum: each element keeps the largest of itself and its updates."""
    return _scatter_bind(scatter_max_p, operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode, _ew.max_p)


scatter_max_p = Primitive("scatter-max")
scatter_max_p.def_rules(Rules(abstract_eval=_scatter_abstract_eval, lower=_scatter_lower))
