"""Autodiff and batching rules of ``gather`` and the scatter family, following JAX's
(``jax/_src/lax/slicing.py``); they are registered where the primitives are defined
(``gather_scatter``).

A gather is transposed by a scatter-add and a scatter-add by a gather; both batch by
adding the batch axis to the dimension numbers (as an offset/window dimension when only
the operand is batched, as a paired operand/indices batching dimension when the indices
are). The non-additive scatters differentiate with JAX's tricks: overwriting ``scatter``
marks which update won each position with a scatter of update ids, ``scatter-min``/``-max``
share the tangent among tied winners.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.ad_util import JvpRule
from jax_core._src.interpreters.batching_util import BatchRule, axis_size, bdim_at_front, moveaxis
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.shape.assembly import iota
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, reshape

if TYPE_CHECKING:
    from jax_core._src.lax.indexing.gather_scatter import (
        GatherDimensionNumbers,
        GatherScatterMode,
        ScatterDimensionNumbers,
    )


def _zeros(shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    return ad_util.zeros_like_aval(ShapedArray(shape, dtype))


def _full(shape: tuple[int, ...], value: Any, dtype: np.dtype[Any]) -> Any:
    return broadcast_in_dim(np.array(value, dtype), shape, ())


def _shift(dims: Sequence[int]) -> tuple[int, ...]:
    return tuple(d + 1 for d in dims)


def _inverse_gather(
    dnums: ScatterDimensionNumbers, operand_ndim: int, updates_shape: tuple[int, ...]
) -> tuple[GatherDimensionNumbers, tuple[int, ...]]:
    """The gather (dimension numbers, slice sizes) reading back the windows a scatter writes."""
    from jax_core._src.lax.indexing.gather_scatter import GatherDimensionNumbers

    gdnums = GatherDimensionNumbers(
        offset_dims=dnums.update_window_dims,
        collapsed_slice_dims=dnums.inserted_window_dims,
        start_index_map=dnums.scatter_dims_to_operand_dims,
        operand_batching_dims=dnums.operand_batching_dims,
        start_indices_batching_dims=dnums.scatter_indices_batching_dims,
    )
    unit = {*dnums.inserted_window_dims, *dnums.operand_batching_dims}
    windows = iter(updates_shape[d] for d in dnums.update_window_dims)
    return gdnums, tuple(1 if i in unit else next(windows) for i in range(operand_ndim))


# -- gather -----------------------------------------------------------------------------


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
    from jax_core._src.lax.indexing.gather_scatter import gather

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
    from jax_core._src.lax.indexing.gather_scatter import ScatterDimensionNumbers, scatter_add

    dn = dimension_numbers
    sdnums = ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims,
        inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map,
        operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims,
    )
    zeros = _zeros(operand.aval.shape, get_aval(ct).dtype)
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
    from jax_core._src.lax.indexing.gather_scatter import GatherDimensionNumbers, gather

    (operand, indices), (od, idd) = args, dims
    dn = dimension_numbers
    if idd is None:
        assert od is not None
        operand = moveaxis(operand, od, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=(0, *_shift(dn.offset_dims)),
            collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
            start_index_map=_shift(dn.start_index_map),
            operand_batching_dims=_shift(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims,
        )
        sizes = (get_aval(operand).shape[0], *slice_sizes)
    elif od is None:
        indices = moveaxis(indices, idd, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=_shift(dn.offset_dims),
            collapsed_slice_dims=dn.collapsed_slice_dims,
            start_index_map=dn.start_index_map,
            operand_batching_dims=dn.operand_batching_dims,
            start_indices_batching_dims=_shift(dn.start_indices_batching_dims),
        )
        sizes = slice_sizes
        # Different batch elements may gather the same positions.
        unique_indices = indices_are_sorted = False
    else:
        operand, indices = moveaxis(operand, od, 0), moveaxis(indices, idd, 0)
        dnums = GatherDimensionNumbers(
            offset_dims=_shift(dn.offset_dims),
            collapsed_slice_dims=_shift(dn.collapsed_slice_dims),
            start_index_map=_shift(dn.start_index_map),
            operand_batching_dims=(0, *_shift(dn.operand_batching_dims)),
            start_indices_batching_dims=(0, *_shift(dn.start_indices_batching_dims)),
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


# -- scatter: batching (shared) ---------------------------------------------------------


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
        from jax_core._src.lax.indexing.gather_scatter import ScatterDimensionNumbers

        (operand, indices, updates), (od, idd, ud) = args, dims
        size = axis_size(args, dims)
        operand, updates = bdim_at_front(operand, od, size), bdim_at_front(updates, ud, size)
        dn = dimension_numbers
        if idd is None:
            dnums = ScatterDimensionNumbers(
                update_window_dims=(0, *_shift(dn.update_window_dims)),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=_shift(dn.operand_batching_dims),
                scatter_indices_batching_dims=dn.scatter_indices_batching_dims,
            )
        else:
            indices = moveaxis(indices, idd, 0)
            dnums = ScatterDimensionNumbers(
                update_window_dims=_shift(dn.update_window_dims),
                inserted_window_dims=_shift(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_shift(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=(0, *_shift(dn.operand_batching_dims)),
                scatter_indices_batching_dims=(0, *_shift(dn.scatter_indices_batching_dims)),
            )
        return prim.bind(operand, indices, updates, dimension_numbers=dnums, **params), 0

    return rule


# -- scatter-add ------------------------------------------------------------------------


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
    from jax_core._src.lax.indexing.gather_scatter import gather

    operand_t = ct if ad_util.is_undefined_primal(operand) else None
    updates_t = None
    if ad_util.is_undefined_primal(updates):
        ct_aval = get_aval(ct)
        gdnums, sizes = _inverse_gather(dimension_numbers, ct_aval.ndim, updates.aval.shape)
        updates_t = gather(ct, indices, gdnums, sizes, mode=mode, fill_value=0)
    return [operand_t, None, updates_t]


# -- scatter-mul ------------------------------------------------------------------------


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
    from jax_core._src.lax.indexing.gather_scatter import scatter_add

    _require_unique(unique_indices)
    aval = get_aval(operand)
    placed = scatter_add(
        _zeros(aval.shape, aval.dtype),
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
    from jax_core._src.lax.indexing.gather_scatter import gather, scatter_mul

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


# -- scatter-min / scatter-max ----------------------------------------------------------


def scatter_extremal_jvp(prim: Primitive) -> JvpRule:
    """JAX's jvp of scatter-min/-max: each output position takes the tangent of the value
    that won it; tied winners (updates, and the operand if it was retained) share it equally.
    """

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        from jax_core._src.lax.indexing.gather_scatter import gather, scatter_add

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
                scatter_add(_zeros(op_aval.shape, op_aval.dtype), indices, u, dn, **opts)
            )

        zeros_u = _zeros(up_aval.shape, up_aval.dtype)
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


# -- scatter (overwrite) ----------------------------------------------------------------


def scatter_jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    """JAX's jvp of the overwriting scatter. With unique indices, scatter the tangents alike.
    Otherwise which update wins a position is unspecified, so: scatter ids of the updates,
    gather them back to see which update won where, mask the losers (and the overwritten
    operand elements) out, and scatter-add the rest, for the primal and tangent alike.
    """
    from jax_core._src.lax.indexing.gather_scatter import gather, scatter, scatter_add, scatter_p

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
    scattered_ids = scatter(_zeros(op_aval.shape, id_dtype), indices, update_ids, dn, **opts)
    gdnums, sizes = _inverse_gather(dn, op_aval.ndim, up_aval.shape)
    won = lax.eq(update_ids, gather(scattered_ids, indices, gdnums, sizes, mode=params["mode"]))
    kept = lax.eq(scattered_ids, np.zeros((), id_dtype))
    zeros_op, zeros_u = _zeros(op_aval.shape, op_aval.dtype), _zeros(up_aval.shape, up_aval.dtype)

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
    from jax_core._src.lax.indexing.gather_scatter import gather, scatter

    if not unique_indices:
        raise NotImplementedError("scatter transpose is only implemented where unique_indices=True")
    ct_aval = get_aval(ct)
    u_aval = updates.aval if ad_util.is_undefined_primal(updates) else get_aval(updates)
    operand_t = updates_t = None
    if ad_util.is_undefined_primal(operand):
        operand_t = scatter(
            ct,
            indices,
            _zeros(u_aval.shape, ct_aval.dtype),
            dimension_numbers,
            indices_are_sorted=indices_are_sorted,
            unique_indices=True,
            mode=mode,
        )
    if ad_util.is_undefined_primal(updates):
        gdnums, sizes = _inverse_gather(dimension_numbers, ct_aval.ndim, u_aval.shape)
        updates_t = gather(ct, indices, gdnums, sizes, mode=mode, fill_value=0)
    return [operand_t, None, updates_t]
