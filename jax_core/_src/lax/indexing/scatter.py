"""The scatter family: ``scatter`` (overwrite), ``scatter_add``, ``scatter_mul``, ``scatter_min``,
``scatter_max`` (XLA's general indexed write), with JAX's rules.

A scatter-add transposes to a gather; the non-additive scatters differentiate with JAX's tricks
(overwriting ``scatter`` through an id-tagged scatter, ``scatter_mul`` through the updates' product,
``scatter_min``/``max`` through the positions that won). All batch by adding the batch axis to the
dimension numbers."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypedDict, Unpack

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import Jaxpr, JaxprEqn, Var
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.ad_util import JvpRule
from jax_core._src.interpreters.batching_util import BatchRule, axis_size, bdim_at_front, moveaxis
from jax_core._src.lax import elementwise as _ew
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing.dimension_numbers import (
    GatherDimensionNumbers,
    GatherScatterMode,
    ScatterDimensionNumbers,
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
from jax_core._src.lax.shape.assembly import iota
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, reshape
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- scatter ----------------------------------------------------------------------------




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
    combine.abstract_eval(aval, aval)  # its dtype errors, as JAX's traced combiner raises them
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
    check_dims("scatter", "update_window_dims", window_dims, updates.ndim, "sur")
    check_dims("scatter", "inserted_window_dims", inserted, operand.ndim, "sur")
    check_dims("scatter", "operand_batching_dims", batching, operand.ndim, "sur")
    check_disjoint("scatter", "inserted_window_dims", inserted, "operand_batching_dims", batching)
    to_operand = dnums.scatter_dims_to_operand_dims
    check_disjoint(
        "scatter", "scatter_dims_to_operand_dims", to_operand, "operand_batching_dims", batching
    )
    batch_shape = check_batching(
        "scatter", operand, indices, (tuple(batching), tuple(dnums.scatter_indices_batching_dims))
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
    check_index_map("scatter", "scatter_dims_to_operand_dims", to_operand, operand, indices)
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
    return bind_one(
        prim,
        *args,
        update_jaxpr=jaxpr,
        update_consts=(),
        dimension_numbers=ScatterDimensionNumbers(*(int_tuple(d) for d in dnums)),
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
        upper = index_upper_bounds(
            idx_aval, operand_aval.shape, sizes, dn.scatter_dims_to_operand_dims
        )
        indices = hlo.clamp(splat(0, idx_aval), indices, upper)
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


def scatter_batch(prim: Primitive) -> BatchRule:
    """JAX's scatter batching for ``prim``: the operand and updates get the batch axis first;
    unbatched indices make it a new window dimension, batched indices a batching dimension."""

    def rule(
        args: Sequence[Any],
        dims: Sequence[int | None],
        *,
        dimension_numbers: ScatterDimensionNumbers,
        **params: Any,
    ) -> tuple[Any, int]:
        from jax_core._src.lax.indexing.dimension_numbers import ScatterDimensionNumbers

        (operand, indices, updates), (od, idd, ud) = args, dims
        size = axis_size(args, dims)
        operand, updates = bdim_at_front(operand, od, size), bdim_at_front(updates, ud, size)
        dn = dimension_numbers
        if idd is None:
            dnums = ScatterDimensionNumbers(
                update_window_dims=(0, *shift_dims(dn.update_window_dims)),
                inserted_window_dims=shift_dims(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=shift_dims(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=shift_dims(dn.operand_batching_dims),
                scatter_indices_batching_dims=dn.scatter_indices_batching_dims,
            )
        else:
            indices = moveaxis(indices, idd, 0)
            dnums = ScatterDimensionNumbers(
                update_window_dims=shift_dims(dn.update_window_dims),
                inserted_window_dims=shift_dims(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=shift_dims(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=(0, *shift_dims(dn.operand_batching_dims)),
                scatter_indices_batching_dims=(0, *shift_dims(dn.scatter_indices_batching_dims)),
            )
        return prim.bind(operand, indices, updates, dimension_numbers=dnums, **params), 0

    return rule


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
            batch=scatter_batch(prim),
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


def _inverse_gather(
    dnums: ScatterDimensionNumbers, operand_ndim: int, updates_shape: tuple[int, ...]
) -> tuple[GatherDimensionNumbers, tuple[int, ...]]:
    """The gather (dimension numbers, slice sizes) reading back the windows a scatter writes."""
    from jax_core._src.lax.indexing.dimension_numbers import GatherDimensionNumbers

    gdnums = GatherDimensionNumbers(
        offset_dims=tuple(dnums.update_window_dims),
        collapsed_slice_dims=tuple(dnums.inserted_window_dims),
        start_index_map=tuple(dnums.scatter_dims_to_operand_dims),
        operand_batching_dims=tuple(dnums.operand_batching_dims),
        start_indices_batching_dims=tuple(dnums.scatter_indices_batching_dims),
    )
    unit = {*dnums.inserted_window_dims, *dnums.operand_batching_dims}
    windows = iter(updates_shape[d] for d in dnums.update_window_dims)
    return gdnums, tuple(1 if i in unit else next(windows) for i in range(operand_ndim))


def scatter_jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    """JAX's jvp of the overwriting scatter. With unique indices, scatter the tangents alike.
    Otherwise which update wins a position is unspecified, so: scatter ids of the updates,
    gather them back to see which update won where, mask the losers (and the overwritten
    operand elements) out, and scatter-add the rest, for the primal and tangent alike.
    """
    from jax_core._src.lax.indexing.gather import gather

    if params["update_jaxpr"] is not None:  # scatter_apply: the function's derivative is not known
        raise NotImplementedError("scatter_apply JVP not implemented")
    operand, indices, updates = primals
    t_operand, _, t_updates = tangents
    if ad_util.is_zero(t_operand) and ad_util.is_zero(t_updates):
        out = scatter_p.bind(operand, indices, updates, **params)
        return out, ad_util.Zero.from_primal_value(out)
    t_operand, t_updates = map(ad_util.instantiate_zeros, (t_operand, t_updates))
    if params["unique_indices"]:
        out = scatter_p.bind(operand, indices, updates, **params)
        return out, scatter_p.bind(t_operand, indices, t_updates, **params)

    dn: ScatterDimensionNumbers = params["dimension_numbers"]
    opts: dict[str, Any] = {k: params[k] for k in ("indices_are_sorted", "unique_indices", "mode")}
    op_aval, up_aval = get_aval(operand), get_aval(updates)
    ids_shape = tuple(1 if i in dn.update_window_dims else d for i, d in enumerate(up_aval.shape))
    id_dtype = np.dtype(np.uint32 if math.prod(ids_shape) < 2**32 - 1 else np.uint64)
    ids = lax.add(reshape(iota(id_dtype, math.prod(ids_shape)), ids_shape), np.ones((), id_dtype))
    update_ids = broadcast_in_dim(ids, up_aval.shape, tuple(range(up_aval.ndim)))
    scattered_ids = scatter(zeros_array(op_aval.shape, id_dtype), indices, update_ids, dn, **opts)
    gdnums, sizes = _inverse_gather(dn, op_aval.ndim, up_aval.shape)
    won = lax.eq(update_ids, gather(scattered_ids, indices, gdnums, sizes, mode=params["mode"]))
    kept = lax.eq(scattered_ids, np.zeros((), id_dtype))
    zeros_op, zeros_u = zeros_array(op_aval.shape, op_aval.dtype), zeros_array(up_aval.shape, up_aval.dtype)

    def masked_scatter(x: Any, u: Any) -> Any:
        return scatter_add(
            lax.select(kept, x, zeros_op), indices, lax.select(won, u, zeros_u), dn, **opts
        )

    return masked_scatter(operand, updates), masked_scatter(t_operand, t_updates)


def scatter_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
    **params: Any,
) -> list[Any]:
    """The overwriting scatter's transpose (unique indices only, as JAX): the cotangent with
    the overwritten positions zeroed for the operand, its gathered windows for the updates."""
    from jax_core._src.lax.indexing.gather import gather

    if not unique_indices:
        raise NotImplementedError("scatter transpose is only implemented where unique_indices=True")
    ct_aval = get_aval(ct)
    u_aval = updates.aval if ad_util.is_undefined_primal(updates) else get_aval(updates)
    operand_t = updates_t = None
    if ad_util.is_undefined_primal(operand):
        operand_t = scatter(
            ct,
            indices,
            zeros_array(u_aval.shape, ct_aval.dtype),
            dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=True,
            mode=mode,
        )
    if ad_util.is_undefined_primal(updates):
        gdnums, sizes = _inverse_gather(dimension_numbers, ct_aval.ndim, u_aval.shape)
        updates_t = gather(ct, indices, gdnums, sizes, mode=mode, fill_value=0)
    return [operand_t, None, updates_t]


scatter_p: Primitive = _scatter_primitive("scatter", lambda _: scatter_jvp, scatter_transpose)


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


def scatter_linear_jvp(prim: Primitive) -> JvpRule:
    """The jvp of a scatter linear in its operand and updates (scatter-add): apply it to
    the tangents, with the same indices."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        operand, indices, updates = primals
        out = prim.bind(operand, indices, updates, **params)
        t_operand, _, t_updates = tangents
        if ad_util.is_zero(t_operand) and ad_util.is_zero(t_updates):
            return out, ad_util.Zero.from_primal_value(out)
        t_operand, t_updates = map(ad_util.instantiate_zeros, (t_operand, t_updates))
        return out, prim.bind(t_operand, indices, t_updates, **params)

    return rule


def scatter_add_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    mode: GatherScatterMode,
    **params: Any,
) -> list[Any]:
    """A scatter-add's transpose: the cotangent for the operand, its gathered windows for
    the updates."""
    from jax_core._src.lax.indexing.gather import gather

    operand_t = ct if ad_util.is_undefined_primal(operand) else None
    updates_t = None
    if ad_util.is_undefined_primal(updates):
        ct_aval = get_aval(ct)
        gdnums, sizes = _inverse_gather(dimension_numbers, ct_aval.ndim, updates.aval.shape)
        updates_t = gather(ct, indices, gdnums, sizes, mode=mode, fill_value=0)
    return [operand_t, None, updates_t]


scatter_add_p: Primitive = _scatter_primitive(
    "scatter-add", scatter_linear_jvp, scatter_add_transpose
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


def _require_unique(unique_indices: bool) -> None:
    if not unique_indices:
        raise NotImplementedError(
            "scatter_mul gradients are only implemented if `unique_indices=True`"
        )


def scatter_mul_jvp_operand(prim: Primitive) -> ad_util.DerivativeFn:
    """The operand's contribution to a scatter-mul's tangent: its tangent scaled alike."""

    def fn(g: Any, operand: Any, indices: Any, updates: Any, **params: Any) -> Any:
        return prim.bind(g, indices, updates, **params)

    return fn


def scatter_mul_jvp_updates(
    g: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
    **params: Any,
) -> Any:
    """The updates' contribution to a scatter-mul's tangent (unique indices only, as JAX)."""

    _require_unique(unique_indices)
    aval = get_aval(operand)
    placed = scatter_add(
        zeros_array(aval.shape, aval.dtype),
        indices,
        g,
        dimension_numbers,
        indices_are_sorted=indices_are_sorted,
        unique_indices=unique_indices,
        mode=mode,
    )
    return lax.mul(operand, placed)


def scatter_mul_transpose(
    ct: Any,
    operand: Any,
    indices: Any,
    updates: Any,
    *,
    dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool,
    unique_indices: bool,
    mode: GatherScatterMode,
    **params: Any,
) -> list[Any]:
    """A scatter-mul's transpose in whichever of operand and updates is linear."""
    from jax_core._src.lax.indexing.gather import gather

    operand_t = updates_t = None
    if ad_util.is_undefined_primal(operand):
        operand_t = scatter_mul(
            ct,
            indices,
            updates,
            dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices,
            mode=mode,
        )
    elif ad_util.is_undefined_primal(updates):  # (scatter-mul is linear in one at a time)
        _require_unique(unique_indices)
        ct_aval = get_aval(ct)
        gdnums, sizes = _inverse_gather(dimension_numbers, ct_aval.ndim, updates.aval.shape)
        updates_t = gather(lax.mul(ct, operand), indices, gdnums, sizes, mode=mode, fill_value=0)
    return [operand_t, None, updates_t]


scatter_mul_p: Primitive = _scatter_primitive(
    "scatter-mul",
    lambda p: ad_util.per_arg_jvp(
        p, scatter_mul_jvp_operand(p), None, scatter_mul_jvp_updates
    ),
    scatter_mul_transpose,
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


def _full(shape: tuple[int, ...], value: Any, dtype: np.dtype[Any]) -> Any:
    return broadcast_in_dim(np.array(value, dtype), shape, ())


def scatter_extremal_jvp(prim: Primitive) -> JvpRule:
    """JAX's jvp of scatter-min/-max: each output position takes the tangent of the value
    that won it; tied winners (updates, and the operand if it was retained) share it equally.
    """

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        from jax_core._src.lax.indexing.gather import gather

        operand, indices, updates = primals
        out = prim.bind(operand, indices, updates, **params)
        t_operand, _, t_updates = tangents
        if ad_util.is_zero(t_operand) and ad_util.is_zero(t_updates):
            return out, ad_util.Zero.from_primal_value(out)
        t_operand, t_updates = map(ad_util.instantiate_zeros, (t_operand, t_updates))
        dn: ScatterDimensionNumbers = params["dimension_numbers"]
        opts: dict[str, Any] = {
            k: params[k] for k in ("indices_are_sorted", "unique_indices", "mode")
        }
        op_aval, up_aval = get_aval(operand), get_aval(updates)
        gdnums, sizes = _inverse_gather(dn, op_aval.ndim, up_aval.shape)

        def gather_(x: Any) -> Any:
            return gather(x, indices, gdnums, sizes, **opts)

        def count(u: Any) -> Any:  # per update: how many updates of ``u`` hit its position
            return gather_(
                scatter_add(zeros_array(op_aval.shape, op_aval.dtype), indices, u, dn, **opts)
            )

        zeros_u = zeros_array(up_aval.shape, up_aval.dtype)
        ones_u = _full(up_aval.shape, 1, up_aval.dtype)
        one = np.ones((), up_aval.dtype)
        target = gather_(out)
        successful = lax.eq(updates, target)
        retained = lax.eq(gather_(operand), target)
        num_updates = count(lax.select(successful, ones_u, zeros_u))
        num_refs = count(ones_u)
        shared = lax.div(one, lax.add(num_updates, one))
        updates_coef = lax.select(
            successful, lax.select(retained, shared, lax.div(one, num_updates)), zeros_u
        )
        operand_coef = lax.div(lax.sub(lax.select(retained, shared, zeros_u), one), num_refs)
        tangent_updates = lax.add(
            lax.mul(gather_(t_operand), operand_coef), lax.mul(t_updates, updates_coef)
        )
        return out, scatter_add(t_operand, indices, tangent_updates, dn, **opts)

    return rule


scatter_min_p: Primitive = _scatter_primitive("scatter-min", scatter_extremal_jvp)


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


scatter_max_p: Primitive = _scatter_primitive("scatter-max", scatter_extremal_jvp)


def scatter_sub(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    **options: Unpack[ScatterOptions],
) -> Array:
    """XLA's Scatter with subtraction: each update is subtracted (repeated indices accumulate)."""
    return _scatter_bind(
        scatter_sub_p, _ew.sub_p, (operand, scatter_indices, updates), dimension_numbers, options
    )


def _scatter_sub_transpose(ct: Any, operand: Any, indices: Any, updates: Any, **params: Any) -> list[Any]:
    operand_t, _, updates_t = scatter_add_transpose(ct, operand, indices, updates, **params)
    return [operand_t, None, None if updates_t is None else _ew.neg(updates_t)]


scatter_sub_p: Primitive = _scatter_primitive("scatter-sub", scatter_linear_jvp, _scatter_sub_transpose)
