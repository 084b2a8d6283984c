"""Gather and scatter: XLA's general indexed reads and writes.

They take XLA's dimension numbers (``GatherDimensionNumbers``, ``ScatterDimensionNumbers``)
with the index vector always in the last dimension of the indices, and a
``GatherScatterMode`` for out-of-bounds indices, as in JAX. NumPy's advanced indexing
and ``.at[]`` updates lower to these.
"""

from __future__ import annotations

import enum
import functools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypedDict, Unpack

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import Jaxpr, JaxprEqn, Var
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters import ad_util
from jax_core._src.lax import elementwise as _ew
from jax_core._src.lax.indexing import gather_scatter_rules as _rules
from jax_core._src.lax.reductions.reduce import lower_reduce
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, ShapeLike
from jax_core._src.typing.basearray import Array


def _bind(prim: Primitive, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def _int_tuple(xs: Sequence[int]) -> tuple[int, ...]:
    return tuple(operator.index(x) for x in xs)


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
        if s not in _MODE_NAMES:
            raise ValueError(f'Unknown gather mode "{s}"')
        return GatherScatterMode[_MODE_NAMES[s]]


_MODE_NAMES: dict[str | None, str] = {
    "clip": "CLIP",
    "fill": "FILL_OR_DROP",
    "drop": "FILL_OR_DROP",
    None: "FILL_OR_DROP",
    "promise_in_bounds": "PROMISE_IN_BOUNDS",
}


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


def _check_dims(op: str, name: str, dims: Sequence[int], rank: int, checks: str) -> None:
    """XLA's dimension-number checks, in the order given: ``s`` sorted, ``u`` unique,
    ``r`` in ``[0, rank)`` for a sorted list (reports an end), ``R`` in range (any list)."""
    for check in checks:
        if check == "s" and any(dims[i] < dims[i - 1] for i in range(1, len(dims))):
            raise TypeError(f"{name} in {op} op must be sorted; got {dims}")
        if check == "u" and len(set(dims)) != len(dims):
            raise TypeError(f"{name} in {op} op must not repeat; got: {dims}.")
        if check == "r":
            bad = [d for d in dims[:1] if d < 0] or [d for d in dims[-1:] if d >= rank]
        elif check == "R":
            bad = [d for d in dims if not 0 <= d < rank]
        else:
            continue
        if bad:
            raise TypeError(
                f"Invalid {name} set in {op} op; valid range is [0, {rank}); got: {bad[0]}."
            )


def _check_disjoint(
    op: str, name1: str, dims1: Sequence[int], name2: str, dims2: Sequence[int]
) -> None:
    if not set(dims1).isdisjoint(dims2):
        raise TypeError(
            f"{name1} and {name2} in {op} op must be disjoint; got: {dims1} and {dims2}."
        )


def _check_batching(
    op: str,
    operand: ShapedArray,
    indices: ShapedArray,
    batching: tuple[tuple[int, ...], tuple[int, ...]],
) -> tuple[int, ...]:
    """Checks paired operand/indices batching dimensions; returns the operand's batch shape."""
    operand_dims, indices_dims = batching
    indices_name = "start_indices" if op == "gather" else "scatter_indices"
    op_title = op.capitalize()
    _check_dims(op, f"{indices_name}_batching_dims", indices_dims, indices.ndim, "uR")
    if indices.ndim - 1 in indices_dims:
        raise TypeError(
            f"{op_title} op cannot have the index vector dimension as a batching dimension; got "
            f"{indices_dims}."
        )
    if len(operand_dims) != len(indices_dims):
        sep = "" if op == "gather" else " "  # sic: JAX's gather message lacks the space
        raise TypeError(
            f"{op_title} op requires equal numbers of operand_batching_dims and "
            f"{indices_name}_batching_dims, got {operand_dims} and{sep}{indices_dims}."
        )
    operand_shape = tuple(operand.shape[i] for i in operand_dims)
    indices_shape = tuple(indices.shape[i] for i in indices_dims)
    if operand_shape != indices_shape:
        raise TypeError(
            f"{op_title} op requires operand batching dimensions and indices batching dimensions "
            f"to have the same shape, got {operand_shape} and {indices_shape}."
        )
    return operand_shape


def _check_index_map(
    op: str, name: str, index_map: Sequence[int], operand: ShapedArray, indices: ShapedArray
) -> None:
    """Checks that ``index_map`` has one in-range, distinct operand dimension per index entry."""
    vdim = indices.ndim - 1
    if len(index_map) != indices.shape[vdim]:
        end = "." if op == "gather" else ""
        raise TypeError(
            f"{op.capitalize()} op has {len(index_map)} elements in {name} and the bound of "
            f"dimension index_vector_dim={vdim} of indices is {indices.shape[vdim]}. These two "
            f"numbers must be equal{end}"
        )
    for i, d in enumerate(index_map):
        if not 0 <= d < operand.ndim:
            what = "start_index_map" if op == "gather" else "scatter_dims_to_operand_dims mapping"
            raise TypeError(f"Invalid {what}; domain is [0, {operand.ndim}), got: {i}->{d}.")
    _check_dims(op, name, index_map, operand.ndim, "u")


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
    _check_dims("gather", "offset_dims", offset_dims, out_rank, "su")
    for i, d in enumerate(offset_dims):
        if not 0 <= d < out_rank:
            raise TypeError(
                f"Offset dimension {i} in gather op is out of bounds; got {d}, but should have "
                f"been in [0, {out_rank})"
            )
    _check_index_map("gather", "start_index_map", dnums.start_index_map, operand, indices)
    _check_dims("gather", "collapsed_slice_dims", collapsed, operand.ndim, "sru")
    _check_dims("gather", "operand_batching_dims", batching, operand.ndim, "usr")
    _check_disjoint("gather", "collapsed_slice_dims", collapsed, "operand_batching_dims", batching)
    _check_disjoint(
        "gather", "start_index_map", dnums.start_index_map, "operand_batching_dims", batching
    )
    _check_batching("gather", operand, indices, (batching, dnums.start_indices_batching_dims))
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


def _splat(value: Any, aval: ShapedArray) -> ir.Value[Any]:
    return hlo_util.broadcast_in_dim(hlo_util.constant(np.array(value, aval.dtype)), aval, ())


def _index_upper_bounds(
    idx_aval: ShapedArray, operand_shape: tuple[int, ...], sizes: Sequence[int], dims: Sequence[int]
) -> ir.Value[Any]:
    """The largest in-bounds start index per index-vector entry, broadcast to the indices' shape."""
    top = int(dtypes.iinfo(idx_aval.dtype).max)
    bounds = np.array([min(operand_shape[d] - sizes[d], top) for d in dims], idx_aval.dtype)
    return hlo_util.broadcast_in_dim(hlo_util.constant(bounds), idx_aval, (idx_aval.ndim - 1,))


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
    return _bind(
        gather_p,
        operand,
        start_indices,
        dimension_numbers=GatherDimensionNumbers(*(_int_tuple(d) for d in dimension_numbers)),
        slice_sizes=(operator.index(slice_sizes),)
        if isinstance(slice_sizes, (int, np.integer))
        else _int_tuple(slice_sizes),
        unique_indices=bool(unique_indices),
        indices_are_sorted=bool(indices_are_sorted),
        mode=parsed,
        fill_value=fill_value,
    )


gather_p = Primitive("gather")


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
    upper = _index_upper_bounds(idx_aval, operand_aval.shape, sizes, dn.start_index_map)
    ok = hlo_util.compare(indices, upper, "LE", idx_dt)
    if dtypes.issubdtype(idx_dt, np.signedinteger):
        ok = hlo.and_(ok, hlo_util.compare(indices, _splat(0, idx_aval), "GE", idx_dt))
    batch_aval = ShapedArray(idx_aval.shape[:-1], np.dtype(np.bool_))
    mask = lower_reduce(ok, np.array(True), (idx_aval.ndim - 1,), hlo.and_, batch_aval)
    batch_dims = [d for d in range(aval_out.ndim) if d not in dn.offset_dims]
    mask = hlo_util.broadcast_in_dim(
        mask, ShapedArray(aval_out.shape, np.dtype(np.bool_)), batch_dims
    )
    filled: ir.Value[Any] = hlo.select(mask, out, _splat(params["fill_value"], aval_out))
    return filled


gather_p.def_rules(
    Rules(
        abstract_eval=_gather_abstract_eval,
        lower=_gather_lower,
        jvp=ad_util.per_arg_jvp(gather_p, _rules.gather_jvp_operand, None),
        transpose=_rules.gather_transpose,
        batch=_rules.gather_batch,
    )
)


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


class ScatterOptions(TypedDict, total=False):
    """The keyword options of the scatter functions."""

    indices_are_sorted: bool
    """The indices are sorted (an optimization hint)."""
    unique_indices: bool
    """No index repeats (an optimization hint)."""
    mode: str | GatherScatterMode | None
    """Out-of-bounds handling; ``None`` means ``FILL_OR_DROP`` (drop the update)."""


class _ScatterParams(TypedDict):
    update_jaxpr: Jaxpr | None
    update_consts: tuple[Any, ...]
    dimension_numbers: ScatterDimensionNumbers
    indices_are_sorted: bool
    unique_indices: bool
    mode: GatherScatterMode


@functools.cache
def _update_jaxpr(combine: Primitive, dtype: np.dtype[Any]) -> Jaxpr:
    """``{ lambda ; a b. let c = combine a b in (c,) }`` on scalars (cached: a jit-cache key)."""
    aval = ShapedArray((), dtype)
    a, b, c = Var(aval), Var(aval), Var(aval)
    return Jaxpr([], [a, b], [c], [JaxprEqn([a, b], [c], combine, {}, None)])


def _scatter_shape(
    operand: ShapedArray, indices: ShapedArray, updates: ShapedArray, dnums: ScatterDimensionNumbers
) -> None:
    """Validates scatter's dimension numbers (XLA's ShapeInference::InferScatterShape)."""
    window_dims, inserted, batching = (
        dnums.update_window_dims,
        dnums.inserted_window_dims,
        dnums.operand_batching_dims,
    )
    vdim = indices.ndim - 1
    if vdim < 0:
        raise TypeError(
            "Scatter index leaf dimension must be within [0, rank(indices) + 1). rank(indices) is "
            f"{indices.ndim} and scatter index leaf dimension is {vdim}."
        )
    if updates.ndim != vdim + len(window_dims):
        raise TypeError(
            f"Updates tensor must be of rank {vdim + len(window_dims)}; got {updates.ndim}."
        )
    _check_dims("scatter", "update_window_dims", window_dims, updates.ndim, "sur")
    _check_dims("scatter", "inserted_window_dims", inserted, operand.ndim, "sur")
    _check_dims("scatter", "operand_batching_dims", batching, operand.ndim, "sur")
    _check_disjoint("scatter", "inserted_window_dims", inserted, "operand_batching_dims", batching)
    to_operand = dnums.scatter_dims_to_operand_dims
    _check_disjoint(
        "scatter", "scatter_dims_to_operand_dims", to_operand, "operand_batching_dims", batching
    )
    batch_shape = _check_batching(
        "scatter", operand, indices, (batching, dnums.scatter_indices_batching_dims)
    )
    scatter_dims_in_updates: list[int | None] = list(range(vdim))
    for i in window_dims:
        scatter_dims_in_updates.insert(i, None)
    updates_batch = tuple(
        updates.shape[scatter_dims_in_updates.index(i)] for i in dnums.scatter_indices_batching_dims
    )
    if batch_shape != updates_batch:
        raise TypeError(
            "Scatter op requires operand batching dimensions and updates batching dimensions to "
            f"have the same shape, got {batch_shape} and {updates_batch}."
        )
    window_size = len(window_dims) + len(inserted) + len(batching)
    if operand.ndim != window_size:
        raise TypeError(
            f"Scatter op has window of size {window_size}; doesn't match operand of rank "
            f"{operand.ndim}."
        )
    _check_index_map("scatter", "scatter_dims_to_operand_dims", to_operand, operand, indices)
    max_sizes = [d for i, d in enumerate(operand.shape) if i not in inserted and i not in batching]
    for i, w in enumerate(window_dims):
        if max_sizes[i] < updates.shape[w]:
            raise TypeError(
                "Bounds of the window dimensions of updates must not exceed the bounds of the "
                f"corresponding dimensions of operand. For dimension {w}, updates bound is "
                f"{updates.shape[w]}, operand bound is {max_sizes[i]}."
            )
    scatter_dims = (d for d in range(updates.ndim) if d not in window_dims)
    for i, bound in zip(scatter_dims, indices.shape[:-1]):
        if updates.shape[i] != bound:
            raise TypeError(
                "Bounds of the scatter dimensions of updates must be the same as the bounds of the "
                f"corresponding dimensions of scatter indices. For scatter dimension {i}, updates "
                f"bound is {updates.shape[i]}, indices bound is {bound}."
            )


def _scatter_bind(
    prim: Primitive,
    combine: Primitive | None,
    args: tuple[ArrayLike, ArrayLike, ArrayLike],
    dnums: ScatterDimensionNumbers,
    options: ScatterOptions,
) -> Array:
    jaxpr = (
        None
        if combine is None
        else _update_jaxpr(combine, dtypes.dtype(args[0], canonicalize=True))
    )
    return _bind(
        prim,
        *args,
        update_jaxpr=jaxpr,
        update_consts=(),
        dimension_numbers=ScatterDimensionNumbers(*(_int_tuple(d) for d in dnums)),
        indices_are_sorted=bool(options.get("indices_are_sorted", False)),
        unique_indices=bool(options.get("unique_indices", False)),
        mode=GatherScatterMode.from_any(options.get("mode")),
    )


def _scatter_abstract_eval(
    operand: ShapedArray,
    indices: ShapedArray,
    updates: ShapedArray,
    **params: Unpack[_ScatterParams],
) -> ShapedArray:
    _scatter_shape(operand, indices, updates, params["dimension_numbers"])
    if not dtypes.issubdtype(indices.dtype, np.integer):
        raise ValueError("indices must have an integer type")
    if operand.dtype != updates.dtype:
        raise TypeError(
            f"lax.scatter requires arguments to have the same dtypes, got {operand.dtype.name}, "
            f"{updates.dtype.name}."
        )
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _scatter_lower(
    ctx: LoweringRuleContext,
    operand: ir.Value[Any],
    indices: ir.Value[Any],
    updates: ir.Value[Any],
    **params: Unpack[_ScatterParams],
) -> ir.Value[Any]:
    """``stablehlo.scatter`` whose update region applies ``update_jaxpr`` (or keeps the update)."""
    operand_aval, idx_aval, updates_aval = ctx.avals_in
    aval_out = ctx.avals_out[0]
    dn = params["dimension_numbers"]
    if params["mode"] is GatherScatterMode.CLIP:  # clamp so each whole window is in range
        windows = iter(updates_aval.shape[d] for d in dn.update_window_dims)
        unit = (*dn.inserted_window_dims, *dn.operand_batching_dims)
        sizes = [1 if i in unit else next(windows) for i in range(operand_aval.ndim)]
        upper = _index_upper_bounds(
            idx_aval, operand_aval.shape, sizes, dn.scatter_dims_to_operand_dims
        )
        indices = hlo.clamp(_splat(0, idx_aval), indices, upper)
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
        indices_are_sorted=params["indices_are_sorted"],
        unique_indices=params["unique_indices"],
    )
    scalar = aval_to_ir_type(ShapedArray((), aval_out.dtype))
    body = op.update_computation.blocks.append(scalar, scalar)
    with ir.InsertionPoint(body):
        args: list[ir.Value[Any]] = [body.arguments[0], body.arguments[1]]
        jaxpr = params["update_jaxpr"]
        outs = [args[1]] if jaxpr is None else ctx.lower_jaxpr(jaxpr, params["update_consts"], args)
        hlo.return_(outs)
    result: ir.Value[Any] = op.results[0]
    return result


def _scatter_primitive(
    name: str,
    jvp: Callable[[Primitive], ad_util.JvpRule],
    transpose: ad_util.TransposeRule | None = None,
) -> Primitive:
    """A scatter primitive; all of them share one abstract eval, one lowering and one
    batching rule. ``jvp`` makes the primitive's jvp rule from the primitive."""
    prim = Primitive(name)
    prim.def_rules(
        Rules(
            abstract_eval=_scatter_abstract_eval,
            lower=_scatter_lower,
            jvp=jvp(prim),
            transpose=transpose,
            batch=_rules.scatter_batch(prim),
        )
    )
    return prim


def scatter(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter, overwriting: ``operand`` with windows of ``updates`` written at the indices.

    With repeated indices the winning update is unspecified; out-of-bounds updates are
    dropped unless ``mode="clip"``.
    """
    return _scatter_bind(
        scatter_p, None, (operand, scatter_indices, updates), dimension_numbers, options
    )


scatter_p = _scatter_primitive("scatter", lambda _: _rules.scatter_jvp, _rules.scatter_transpose)


def scatter_add(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter with addition: repeated indices accumulate."""
    return _scatter_bind(
        scatter_add_p, _ew.add_p, (operand, scatter_indices, updates), dimension_numbers, options
    )


scatter_add_p = _scatter_primitive(
    "scatter-add", _rules.scatter_linear_jvp, _rules.scatter_add_transpose
)


def scatter_mul(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter with multiplication: repeated indices multiply."""
    return _scatter_bind(
        scatter_mul_p, _ew.mul_p, (operand, scatter_indices, updates), dimension_numbers, options
    )


scatter_mul_p = _scatter_primitive(
    "scatter-mul",
    lambda p: ad_util.per_arg_jvp(
        p, _rules.scatter_mul_jvp_operand(p), None, _rules.scatter_mul_jvp_updates
    ),
    _rules.scatter_mul_transpose,
)


def scatter_min(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter with minimum: each element keeps the smallest of itself and its updates."""
    return _scatter_bind(
        scatter_min_p, _ew.min_p, (operand, scatter_indices, updates), dimension_numbers, options
    )


scatter_min_p = _scatter_primitive("scatter-min", _rules.scatter_extremal_jvp)


def scatter_max(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter with maximum: each element keeps the largest of itself and its updates."""
    return _scatter_bind(
        scatter_max_p, _ew.max_p, (operand, scatter_indices, updates), dimension_numbers, options
    )


scatter_max_p = _scatter_primitive("scatter-max", _rules.scatter_extremal_jvp)
