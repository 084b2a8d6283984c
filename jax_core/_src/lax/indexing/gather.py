"""``gather``: XLA's general indexed read, as JAX has it, with its rules.

NumPy's advanced indexing lowers to it. Its jvp gathers the tangent, its transpose is a
scatter-add, and it batches by adding the batch axis to the dimension numbers (as an offset
dimension when only the operand is batched, as a paired operand/indices batching dimension when
the indices are)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypedDict, Unpack

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.batching_util import moveaxis
from jax_core._src.lax.indexing.dimension_numbers import (
    GatherDimensionNumbers,
    GatherScatterMode,
    check_batching,
    check_dims,
    check_disjoint,
    check_index_map,
    index_upper_bounds,
    int_tuple,
    shift_dims,
    splat,
    zeros_array,
)
from jax_core._src.lax.reductions.reduce import lower_reduce
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, ShapeLike, shape_entries
from jax_core._src.typing.basearray import Array

# -- gather -----------------------------------------------------------------------------








class _GatherParams(TypedDict):
    dimension_numbers: GatherDimensionNumbers
    slice_sizes: tuple[int, ...]
    unique_indices: bool
    indices_are_sorted: bool
    mode: GatherScatterMode
    fill_value: complex | None


def _default_fill_value(dtype: np.dtype[Any]) -> float:
    if dtypes.issubdtype(dtype, np.inexact):
        return math.nan
    if dtypes.issubdtype(dtype, np.signedinteger):
        return int(dtypes.iinfo(dtype).min)
    if dtypes.issubdtype(dtype, np.unsignedinteger):
        return int(dtypes.iinfo(dtype).max)
    return True










def _gather_shape(
    operand: ShapedArray,
    indices: ShapedArray,
    dnums: GatherDimensionNumbers,
    sizes: tuple[int, ...],
) -> tuple[int, ...]:
    """Validates gather's dimension numbers (XLA's ShapeInference::InferGatherShape)."""
    offset_dims, collapsed, batching = (
        dnums.offset_dims,
        dnums.collapsed_slice_dims,
        dnums.operand_batching_dims,
    )
    if indices.ndim < 1:
        raise TypeError(
            "Gather index leaf dimension must be within [0, rank(indices) + 1). rank(indices) is "
            f"{indices.ndim} and gather index leaf dimension is {indices.ndim - 1}."
        )
    out_rank = len(offset_dims) + indices.ndim - 1
    check_dims("gather", "offset_dims", offset_dims, out_rank, "su")
    for i, d in enumerate(offset_dims):
        if not 0 <= d < out_rank:
            raise TypeError(
                f"Offset dimension {i} in gather op is out of bounds; got {d}, but should have "
                f"been in [0, {out_rank})"
            )
    check_index_map("gather", "start_index_map", dnums.start_index_map, operand, indices)
    check_dims("gather", "collapsed_slice_dims", collapsed, operand.ndim, "sru")
    check_dims("gather", "operand_batching_dims", batching, operand.ndim, "usr")
    check_disjoint("gather", "collapsed_slice_dims", collapsed, "operand_batching_dims", batching)
    check_disjoint(
        "gather", "start_index_map", dnums.start_index_map, "operand_batching_dims", batching
    )
    check_batching("gather", operand, indices, (batching, dnums.start_indices_batching_dims))
    if operand.ndim != len(sizes):
        raise TypeError(
            "Gather op must have one slice size for every input dimension; got: "
            f"len(slice_sizes)={len(sizes)}, input_shape.rank={operand.ndim}"
        )
    if len(sizes) != len(offset_dims) + len(collapsed) + len(batching):
        raise TypeError(
            "All components of the offset index in a gather op must either be a offset dimension "
            f"or explicitly collapsed/batching; got len(slice_sizes)={len(sizes)}, "
            f"output_slice_sizes={offset_dims}, collapsed_slice_dims={collapsed}, "
            f"operand_batching_dims={batching}."
        )
    for i, (size, dim) in enumerate(zip(sizes, operand.shape)):
        if indices.size and not 0 <= size <= dim:
            raise TypeError(
                f"Slice size at index {i} in gather op is out of range, must be within [0, {dim} + "
                f"1), got {size}."
            )
    for kind, dims, bound in (
        ("collapse slice dims with bound 1", collapsed, 1),
        ("have operand batching dims with bound 0/1", batching, 0),
    ):
        for i, d in enumerate(dims):
            if sizes[d] > 1 or sizes[d] < bound:
                raise TypeError(
                    f"Gather op can only {kind}, but bound is {sizes[d]} for index {d} at position "
                    f"{i}."
                )
    batch_shape = iter(indices.shape[:-1])
    window = iter(s for i, s in enumerate(sizes) if i not in collapsed and i not in batching)
    return tuple(next(window) if i in offset_dims else next(batch_shape) for i in range(out_rank))






def gather(
    operand: ArrayLike,
    start_indices: ArrayLike,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: ShapeLike,
    *,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    mode: str | GatherScatterMode | None = None,
    fill_value: complex | None = None,
) -> Array:
    """XLA's Gather: slices of ``slice_sizes`` starting at each index vector of ``start_indices``.

    ``mode`` defaults to ``PROMISE_IN_BOUNDS``; with ``"fill"``, out-of-bounds windows
    are ``fill_value`` (NaN, the smallest signed or largest unsigned integer, or True).
    """
    parsed = GatherScatterMode.from_any(
        GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else mode
    )
    if parsed is not GatherScatterMode.FILL_OR_DROP:
        fill_value = None
    elif fill_value is None:
        fill_value = _default_fill_value(dtypes.dtype(operand, canonicalize=True))
    return bind_one(
        gather_p,
        operand,
        start_indices,
        dimension_numbers=GatherDimensionNumbers(*(int_tuple(d) for d in dimension_numbers)),
        slice_sizes=int_tuple(shape_entries(slice_sizes)),
        unique_indices=bool(unique_indices),
        indices_are_sorted=bool(indices_are_sorted),
        mode=parsed,
        fill_value=fill_value,
    )


gather_p: Primitive = Primitive("gather")


def _gather_abstract_eval(
    operand: ShapedArray, indices: ShapedArray, **params: Unpack[_GatherParams]
) -> ShapedArray:
    shape = _gather_shape(operand, indices, params["dimension_numbers"], params["slice_sizes"])
    if not dtypes.issubdtype(indices.dtype, np.integer):
        raise ValueError("indices must have an integer type")
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _gather_lower(
    ctx: LoweringRuleContext,
    operand: ir.Value[Any],
    indices: ir.Value[Any],
    **params: Unpack[_GatherParams],
) -> ir.Value[Any]:
    """``stablehlo.gather``; FILL_OR_DROP replaces windows not wholly in bounds by the fill."""
    operand_aval, idx_aval = ctx.avals_in
    aval_out = ctx.avals_out[0]
    if aval_out.size == 0:
        return hlo_util.constant(np.zeros(aval_out.shape, aval_out.dtype))
    dn, sizes = params["dimension_numbers"], params["slice_sizes"]
    attr = hlo.GatherDimensionNumbers.get(
        offset_dims=list(dn.offset_dims),
        collapsed_slice_dims=list(dn.collapsed_slice_dims),
        operand_batching_dims=list(dn.operand_batching_dims),
        start_indices_batching_dims=list(dn.start_indices_batching_dims),
        start_index_map=list(dn.start_index_map),
        index_vector_dim=idx_aval.ndim - 1,
    )
    out: ir.Value[Any] = hlo.gather(
        operand, indices, attr, list(sizes), indices_are_sorted=params["indices_are_sorted"]
    )
    if params["mode"] is not GatherScatterMode.FILL_OR_DROP:
        return out
    idx_dt = idx_aval.dtype
    upper = index_upper_bounds(idx_aval, operand_aval.shape, sizes, dn.start_index_map)
    ok = hlo_util.compare(indices, upper, "LE", idx_dt)
    if dtypes.issubdtype(idx_dt, np.signedinteger):
        ok = hlo.and_(ok, hlo_util.compare(indices, splat(0, idx_aval), "GE", idx_dt))
    batch_aval = ShapedArray(idx_aval.shape[:-1], np.dtype(np.bool_))
    mask = lower_reduce(ok, np.array(True), (idx_aval.ndim - 1,), hlo.and_, batch_aval)
    batch_dims = [d for d in range(aval_out.ndim) if d not in dn.offset_dims]
    mask = hlo_util.broadcast_in_dim(
        mask, ShapedArray(aval_out.shape, np.dtype(np.bool_)), batch_dims
    )
    filled: ir.Value[Any] = hlo.select(mask, out, splat(params["fill_value"], aval_out))
    return filled






def gather_jvp_operand(
    g: Any,
    operand: Any,
    indices: Any,
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    unique_indices: bool,
    indices_are_sorted: bool,
    mode: GatherScatterMode,
    fill_value: complex | None,
) -> Any:
    """The tangent of a gather: the same gather of the operand's tangent (filling with 0)."""

    return gather(
        g,
        indices,
        dimension_numbers,
        slice_sizes,
        unique_indices=unique_indices,
        indices_are_sorted=indices_are_sorted,
        mode=mode,
        fill_value=0,
    )


def gather_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    unique_indices: bool,
    indices_are_sorted: bool,
    mode: GatherScatterMode,
    fill_value: complex | None,
) -> list[Any]:
    """A gather's transpose: scatter-add the cotangent windows into zeros."""
    from jax_core._src.lax.indexing.dimension_numbers import ScatterDimensionNumbers
    from jax_core._src.lax.indexing.scatter import scatter_add

    dn = dimension_numbers
    sdnums = ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims,
    )
    zeros = zeros_array(operand.aval.shape, get_aval(ct).dtype)
    out = scatter_add(
        zeros,
        indices,
        ct,
        sdnums,
        unique_indices=unique_indices,
        indices_are_sorted=indices_are_sorted,
        mode=mode,
    )
    return [out, None]


def gather_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: tuple[int, ...],
    unique_indices: bool,
    indices_are_sorted: bool,
    mode: GatherScatterMode,
    fill_value: complex | None,
) -> tuple[Any, int]:
    """JAX's gather batching: a batched operand gains an offset dimension, batched indices
    a batch dimension, and both batched pair up as operand/indices batching dimensions."""
    from jax_core._src.lax.indexing.dimension_numbers import GatherDimensionNumbers

    (operand, indices), (od, idd) = args, dims
    dn = dimension_numbers
    if idd is None:
        assert od is not None
        operand = moveaxis(operand, od, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=(0, *shift_dims(dn.offset_dims)),
            collapsed_slice_dims=shift_dims(dn.collapsed_slice_dims),
            start_index_map=shift_dims(dn.start_index_map),
            operand_batching_dims=shift_dims(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims,
        )
        sizes = (get_aval(operand).shape[0], *slice_sizes)
    elif od is None:
        indices = moveaxis(indices, idd, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=shift_dims(dn.offset_dims),
            collapsed_slice_dims=dn.collapsed_slice_dims,
            start_index_map=dn.start_index_map,
            operand_batching_dims=dn.operand_batching_dims,
            start_indices_batching_dims=shift_dims(dn.start_indices_batching_dims),
        )
        sizes = slice_sizes
        # Different batch elements may gather the same positions.
        unique_indices = indices_are_sorted = False
    else:
        operand, indices = moveaxis(operand, od, 0), moveaxis(indices, idd, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=shift_dims(dn.offset_dims),
            collapsed_slice_dims=shift_dims(dn.collapsed_slice_dims),
            start_index_map=shift_dims(dn.start_index_map),
            operand_batching_dims=(0, *shift_dims(dn.operand_batching_dims)),
            start_indices_batching_dims=(0, *shift_dims(dn.start_indices_batching_dims)),
        )
        sizes = (0 if get_aval(operand).shape[0] == 0 else 1, *slice_sizes)
    out = gather(
        operand,
        indices,
        dnums,
        sizes,
        unique_indices=unique_indices,
        indices_are_sorted=indices_are_sorted,
        mode=mode,
        fill_value=fill_value,
    )
    return out, 0


gather_p.def_rules(
    Rules(
        abstract_eval=_gather_abstract_eval,
        lower=_gather_lower,
        jvp=ad_util.per_arg_jvp(gather_p, gather_jvp_operand, None),
        transpose=gather_transpose,
        batch=gather_batch,
    )
)
