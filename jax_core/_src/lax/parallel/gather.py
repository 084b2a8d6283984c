"""Collectives that move blocks between the members of named axes: ``all_gather`` (and its
invariant-result form), ``psum_scatter`` (the ``reduce_scatter`` primitive), ``all_to_all`` and
``pswapaxes``; with the helpers ``permute.py`` shares.

Under ``vmap(..., axis_name=...)`` a collective over the vmapped axis is computed by its batching
rule with array ops over the batch dimension (a transpose and a reshape for ``all_gather``, a sum
for ``psum_scatter``, ...); over another axis it is bound again with its dimensions shifted past
the batch dimension. A collective over several axes among which the vmapped one is runs, per
element, as one collective per group of axes (the axes before the vmapped one, the vmapped one,
the axes after it: positions along a tuple of axes are row-major), so every combination of
names works, also where JAX raises. Inside ``shard_map`` each lowers to its StableHLO collective
among the devices ``groups.axis_groups`` gives.

Primitive params are JAX's but for the axis names, held as ``axes`` (a tuple, what ``vmap``'s
trace looks for) and printed as ``axis_name`` where JAX prints it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.axis_env import axis_size as bound_axis_size
from jax_core._src.core.axis_env import checked_manual_axes
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import linear_jvp
from jax_core._src.interpreters.batching import current_batch_axis, vmap_flat
from jax_core._src.interpreters.batching_util import moveaxis
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.indexing.slicing import dynamic_slice_in_dim
from jax_core._src.lax.parallel.axis import axis_index_p
from jax_core._src.lax.parallel.groups import axis_groups, channel_attr, groups_attr
from jax_core._src.lax.parallel.reductions import pvary_p
from jax_core._src.lax.reductions.reduce import reduce_sum
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, canonicalize_axis, expand_dims, reshape, squeeze, transpose
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_map

T = TypeVar("T")
AxisName = Hashable
Groups = tuple[tuple[int, ...], ...] | None


# -- Helpers shared with permute.py --------------------------------------------------------------
def axes_of(axis_name: AxisName | Sequence[AxisName]) -> tuple[AxisName, ...]:
    """The axis names as a tuple (one name, or a tuple or list of names)."""
    if isinstance(axis_name, (tuple, list)):
        return tuple(cast("Sequence[AxisName]", axis_name))
    return (axis_name,)


def size_of(axes: Sequence[AxisName], what: str | None = None) -> int:
    """The number of members along ``axes`` (the product of their sizes). An unbound name raises
    ``NameError`` with JAX's message: the wrappers' (``what=None``) or the primitive ``what``'s."""
    n = 1
    for name in axes:
        try:
            n *= bound_axis_size(name)
        except NameError:
            msg = (
                f"unbound axis name: {name}"
                if what is None
                else f"Found an unbound axis name: {name}. To fix this, please call {what} under `jax.shard_map`."
            )
            raise NameError(msg) from None
    return n


def canonical_groups(axis_index_groups: Sequence[Sequence[int]] | None) -> Groups:
    """``axis_index_groups`` as a hashable tuple of tuples."""
    return None if axis_index_groups is None else tuple(tuple(g) for g in axis_index_groups)


def group_size(axes: Sequence[AxisName], groups: Groups) -> int:
    """How many members each collective among ``axes`` (or among each of ``groups``) has; the
    groups must cover the indices exactly once, as JAX checks."""
    if groups is None:
        return size_of(axes)
    if {i for g in groups for i in g} != set(range(sum(len(g) for g in groups))):
        raise ValueError("axis_index_groups must cover all indices exactly once")
    return len(groups[0])


def vary_over(x: Any, axes: Sequence[AxisName]) -> Any:
    """``x`` cast (``pvary``) to vary over the checked mesh axes among ``axes`` it does not vary
    over yet: a collective's operand must vary over its axes (JAX's ``insert_collective_pvary``)."""
    manual = checked_manual_axes()
    if not manual:
        return x
    vma = get_aval(x).vma
    missing = tuple(a for a in axes if a in manual and a not in vma)
    return pvary_p.bind(x, axes=missing) if missing else x


def collective_vma(what: str) -> Callable[..., list[frozenset[Any]]]:
    """The vma rule of a collective whose result varies as its operand, which must vary over the
    checked mesh axes it names (JAX's ``collective_vma_rule``)."""

    def rule(x: ShapedArray, *, axes: tuple[AxisName, ...], **params: Any) -> list[frozenset[Any]]:
        manual = checked_manual_axes()
        if any(a in manual and a not in x.vma for a in axes):
            raise ValueError(
                f"Collective {what} must be applied to a device-varying  type, but got {x.vma} for "
                f"collective acting over axis name {axes}. Please open an issue at "
                "https://github.com/jax-ml/jax/issues and as a temporary workaround pass the "
                "check_vma=False argument to `jax.shard_map`"
            )
        return [x.vma]

    return rule


def device_groups(axes: Sequence[AxisName], axis_index_groups: Groups, what: str) -> list[list[int]]:
    """The partition ids of each collective (inside ``shard_map``): the groups along ``axes``,
    each split further by ``axis_index_groups`` (indices along the axes)."""
    groups = axis_groups(axes, what)
    if axis_index_groups is None:
        return groups
    return [[g[i] for i in sub] for g in groups for sub in axis_index_groups]


def batch_frame() -> tuple[AxisName, int]:
    """``(name, size)`` of the ``vmap`` axis whose batching rule is running."""
    frame = current_batch_axis()
    assert frame is not None
    return frame


def frame_groups(axes: tuple[AxisName, ...], name: AxisName) -> list[tuple[AxisName, ...]]:
    """``axes`` split around the vmapped axis ``name``: the axes before it, it, the axes after
    it (the non-empty ones); positions along ``axes`` are row-major over these groups."""
    i = axes.index(name)
    return [g for g in (axes[:i], (name,), axes[i + 1 :]) if g]


def per_element(fn: Callable[[Any], Any], x: Any, d: int | None, batched: bool) -> tuple[Any, int | None]:
    """``fn`` (a collective written per element, with one collective per group of axes) applied
    under a fresh ``vmap`` of the running frame's axis, so that its collective over that axis is
    batched by the single-axis rule; the result has its batch axis first, or none if not
    ``batched``."""
    name, size = batch_frame()
    out_dim = 0 if batched else None

    def body(xe: Any) -> list[Any]:
        return [fn(xe)]

    outs = vmap_flat(body, [x], [d], lambda n: [out_dim] * n, size, axis_name=name)
    return outs[0], out_dim


def element_shape(x: Any, d: int | None) -> tuple[int, ...]:
    """The shape of one batch element of ``x`` (batched along ``d``)."""
    shape = get_aval(x).shape
    return shape if d is None else shape[:d] + shape[d + 1 :]


def linear_position(axes: tuple[AxisName, ...]) -> Any:
    """This member's row-major position along ``axes`` (an int32 scalar), composed from one
    ``axis_index`` per axis."""
    pos: Any = axis_index_p.bind(axes=axes[:1])
    for name in axes[1:]:
        pos = ew.add(ew.mul(pos, np.int32(size_of((name,)))), axis_index_p.bind(axes=(name,)))
    return pos


def fold(x: Any, axis: int) -> Any:
    """``x`` with dimensions ``axis`` and ``axis + 1`` merged (row-major)."""
    shape = get_aval(x).shape
    return reshape(x, (*shape[:axis], shape[axis] * shape[axis + 1], *shape[axis + 2 :]))


def split_dim(x: Any, axis: int, parts: int) -> Any:
    """``x`` with dimension ``axis`` split into ``(parts, size // parts)``."""
    shape = get_aval(x).shape
    return reshape(x, (*shape[:axis], parts, shape[axis] // parts, *shape[axis + 1 :]))


def _groups_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("axis_index_groups", params["axis_index_groups"])] if "axis_index_groups" in params else []


# -- all_gather (and all_gather_invariant: the same, with a result invariant over its axes) ------
def _gathered_shape(shape: tuple[int, ...], dim: int, size: int, tiled: bool) -> tuple[int, ...]:
    out = list(shape)
    if tiled:
        out[dim] *= size
    else:
        out.insert(dim, size)
    return tuple(out)


def _gather_abstract_eval(what: str) -> Callable[..., ShapedArray]:
    def rule(x: ShapedArray, *, all_gather_dimension: int, axes: tuple[AxisName, ...], axis_size: int, tiled: bool, **groups: Any) -> ShapedArray:
        size_of(axes, what)
        return x.update(shape=_gathered_shape(x.shape, all_gather_dimension, axis_size, tiled))

    return rule


def _gather_params(prim: Primitive, dim: int, axes: tuple[AxisName, ...], size: int, tiled: bool, groups: Groups) -> dict[str, Any]:
    params: dict[str, Any] = {"all_gather_dimension": dim, "axes": axes, "axis_size": size, "tiled": tiled}
    if prim is all_gather_p:
        params["axis_index_groups"] = groups
    return params


def gather_in_groups(prim: Primitive, x: Any, groups: Sequence[tuple[AxisName, ...]], dim: int, tiled: bool) -> Any:
    """``prim`` (an all-gather) over the concatenation of ``groups``, one group at a time (the
    last first, so that the gathered dimensions come out major to minor), then merged."""
    for group in reversed(groups):
        x = prim.bind(x, **_gather_params(prim, dim, group, size_of(group), False, None))
    shape = get_aval(x).shape
    stop = dim + len(groups) + tiled
    return reshape(x, (*shape[:dim], math.prod(shape[dim:stop]), *shape[stop:]))


def _gather_batch(prim: Primitive) -> Callable[..., tuple[Any, int | None]]:
    def rule(args: Sequence[Any], dims: Sequence[int | None], *, all_gather_dimension: int, axes: tuple[AxisName, ...], axis_size: int, tiled: bool, **groups: Any) -> tuple[Any, int | None]:
        (x,), (d,) = args, dims
        dim = all_gather_dimension
        name, size = batch_frame()
        if name not in axes:
            if d is not None:
                if d <= dim:
                    dim += 1
                elif not tiled:
                    d += 1
            return prim.bind(x, all_gather_dimension=dim, axes=axes, axis_size=axis_size, tiled=tiled, **groups), d
        if groups.get("axis_index_groups") is not None:
            raise NotImplementedError("axis_index_groups not supported in vmap")
        if len(axes) > 1:
            return per_element(lambda xe: gather_in_groups(prim, xe, frame_groups(axes, name), dim, tiled), x, d, False)
        if d is None:
            shape = list(get_aval(x).shape)
            shape.insert(dim, size)
            y = broadcast_in_dim(x, shape, [i for i in range(len(shape)) if i != dim])
        else:
            y = moveaxis(x, d, dim)
        return (fold(y, dim) if tiled else y), None

    return rule


def _gather_lower(what: str) -> Callable[..., ir.Value[ir.Type]]:
    def rule(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, all_gather_dimension: int, axes: tuple[AxisName, ...], axis_size: int, tiled: bool, axis_index_groups: Groups = None) -> ir.Value[ir.Type]:
        x_aval, out_aval = ctx.avals_in[0], ctx.avals_out[0]
        dim = all_gather_dimension
        if not tiled:  # a unit dimension to gather along
            shape = list(x_aval.shape)
            shape.insert(dim, 1)
            x = hlo.broadcast_in_dim(aval_to_ir_type(x_aval.update(shape=tuple(shape))), x, [i for i in range(len(shape)) if i != dim])
        op = hlo.AllGatherOp(
            [aval_to_ir_type(out_aval)],
            [x],
            dim,
            groups_attr(device_groups(axes, axis_index_groups, what)),
            channel_handle=channel_attr(),
            use_global_device_ids=True,
        )
        out: ir.Value[ir.Type] = op.results[0]
        return out

    return rule


def _all_gather_transpose(ct: Any, x: Any, *, all_gather_dimension: int, axes: tuple[AxisName, ...], axis_size: int, tiled: bool, axis_index_groups: Groups) -> list[Any]:
    return [psum_scatter(ct, axes, scatter_dimension=all_gather_dimension, axis_index_groups=axis_index_groups, tiled=tiled)]


def _all_gather_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        ("all_gather_dimension", params["all_gather_dimension"]),
        *_groups_pp(params),
        ("axis_name", params["axes"]),
        ("axis_size", params["axis_size"]),
        ("tiled", params["tiled"]),
    ]


all_gather_p: Primitive = Primitive("all_gather")
all_gather_p.def_rules(
    Rules(
        abstract_eval=_gather_abstract_eval("all_gather"),
        lower=_gather_lower("all_gather"),
        jvp=linear_jvp(all_gather_p),
        transpose=_all_gather_transpose,
        batch=_gather_batch(all_gather_p),
        pp=_all_gather_pp,
        vma=collective_vma("all_gather"),
    )
)


def _all_gather_invariant_transpose(ct: Any, x: Any, *, all_gather_dimension: int, axes: tuple[AxisName, ...], axis_size: int, tiled: bool) -> list[Any]:
    # Every member holds the whole result: each one's operand gets its own block of it.
    dim = all_gather_dimension
    block = get_aval(ct).shape[dim] // axis_size
    start = ew.mul(axis_index_p.bind(axes=axes), ew.to_dtype(block, np.dtype(np.int32)))
    out = dynamic_slice_in_dim(ct, start, block, dim)
    return [out if tiled else squeeze(out, (dim,))]


def _all_gather_invariant_vma(x: ShapedArray, *, axes: tuple[AxisName, ...], **params: Any) -> list[frozenset[Any]]:
    return [x.vma - frozenset(axes)]


all_gather_invariant_p: Primitive = Primitive("all_gather_invariant")
all_gather_invariant_p.def_rules(
    Rules(
        abstract_eval=_gather_abstract_eval("all_gather_invariant"),
        lower=_gather_lower("all_gather_invariant"),
        jvp=linear_jvp(all_gather_invariant_p),
        transpose=_all_gather_invariant_transpose,
        batch=_gather_batch(all_gather_invariant_p),
        pp=_all_gather_pp,
        vma=_all_gather_invariant_vma,
    )
)


def all_gather(
    x: T,
    axis_name: AxisName | Sequence[AxisName],
    *,
    axis_index_groups: Sequence[Sequence[int]] | None = None,
    axis: int = 0,
    tiled: bool = False,
    to: str = "varying",
) -> T:
    """The values of ``x`` (a pytree) of every member of the named axis (axes), stacked along a new
    dimension ``axis`` (``tiled=False``) or concatenated along dimension ``axis`` (``tiled=True``).
    ``to="invarying"`` (inside ``shard_map`` with ``check_vma``) types the result invariant over
    the axes."""
    allowed = {"varying", "reduced", "invarying"}
    if to not in allowed:
        raise ValueError(f"Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: {allowed}")
    axes = axes_of(axis_name)
    if not axes:
        return x
    prim = all_gather_p
    if to != "varying" and checked_manual_axes():
        if to == "reduced":
            raise NotImplementedError("jax_core does not implement all_gather(to='reduced') (reduced types) yet")
        if axis_index_groups is not None:
            raise NotImplementedError
        prim = all_gather_invariant_p
    groups = canonical_groups(axis_index_groups)
    size = group_size(axes, groups)

    def bind(leaf: Any) -> Any:
        leaf = vary_over(leaf, axes)
        ndim = get_aval(leaf).ndim
        dim = canonicalize_axis(axis, ndim if tiled else ndim + 1)
        return prim.bind(leaf, **_gather_params(prim, dim, axes, size, tiled, groups))

    out: T = tree_map(bind, x)
    return out


# -- psum_scatter: the reduce_scatter primitive -----------------------------------------------
def _scattered_shape(shape: tuple[int, ...], dim: int, size: int, tiled: bool) -> tuple[int, ...]:
    n = shape[dim]
    out = list(shape)
    if tiled:
        if n % size:
            raise ValueError(f"tiled reduce_scatter operand scatter dimension size {n} must be divisible by shard_count {size}")
        out[dim] = n // size
    else:
        if n != size:
            raise ValueError(f"reduce_scatter operand scatter dimension size {n} must match shard count {size}")
        del out[dim]
    return tuple(out)


def _reduce_scatter_abstract_eval(x: ShapedArray, *, scatter_dimension: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, axis_size: int, tiled: bool) -> ShapedArray:
    size_of(axes, "reduce_scatter")
    return x.update(shape=_scattered_shape(x.shape, scatter_dimension, axis_size, tiled))


def scatter_in_groups(x: Any, groups: Sequence[tuple[AxisName, ...]], dim: int, tiled: bool) -> Any:
    """A reduce-scatter over the concatenation of ``groups``: dimension ``dim`` split into one
    dimension per group (major to minor), each scattered over its group."""
    sizes = [size_of(g) for g in groups]
    shape = get_aval(x).shape
    parts = [*sizes, shape[dim] // math.prod(sizes)] if tiled else sizes
    x = reshape(x, (*shape[:dim], *parts, *shape[dim + 1 :]))
    for i in reversed(range(len(groups))):
        x = reduce_scatter_p.bind(x, scatter_dimension=dim + i, axes=groups[i], axis_index_groups=None, axis_size=sizes[i], tiled=False)
    return x


def _reduce_scatter_batch(args: Sequence[Any], dims: Sequence[int | None], *, scatter_dimension: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, axis_size: int, tiled: bool) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    dim = scatter_dimension
    name, size = batch_frame()
    if name not in axes:
        if d is not None:
            if d <= dim:
                dim += 1
            elif not tiled:  # the scattered dimension goes away
                d -= 1
        return reduce_scatter_p.bind(x, scatter_dimension=dim, axes=axes, axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled), d
    if axis_index_groups is not None:
        raise NotImplementedError("axis_index_groups not supported in vmap")
    _scattered_shape(element_shape(x, d), dim, axis_size, tiled)
    if len(axes) > 1:
        return per_element(lambda xe: scatter_in_groups(xe, frame_groups(axes, name), dim, tiled), x, d, True)
    y = ew.mul(x, ew.to_dtype(size, get_aval(x).dtype)) if d is None else reduce_sum(x, (d,))
    return (split_dim(y, dim, size) if tiled else y), dim


def _reduce_scatter_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, scatter_dimension: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, axis_size: int, tiled: bool) -> ir.Value[ir.Type]:
    x_aval, out_aval = ctx.avals_in[0], ctx.avals_out[0]
    shape = list(x_aval.shape)
    shape[scatter_dimension] //= axis_size
    op = hlo.ReduceScatterOp(
        aval_to_ir_type(x_aval.update(shape=tuple(shape))),
        x,
        scatter_dimension,
        groups_attr(device_groups(axes, axis_index_groups, "psum_scatter")),
        channel_handle=channel_attr(),
        use_global_device_ids=True,
    )
    scalar = aval_to_ir_type(ShapedArray((), x_aval.dtype))
    block = op.regions[0].blocks.append(scalar, scalar)
    combine = hlo.or_ if x_aval.dtype == bool else hlo.add
    with ir.InsertionPoint(block):
        hlo.return_([combine(block.arguments[0], block.arguments[1])])
    out: ir.Value[ir.Type] = op.result if tiled else hlo.reshape(aval_to_ir_type(out_aval), op.result)
    return out


def _reduce_scatter_transpose(ct: Any, x: Any, *, scatter_dimension: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, axis_size: int, tiled: bool) -> list[Any]:
    return [all_gather(ct, axes, axis_index_groups=axis_index_groups, axis=scatter_dimension, tiled=tiled)]


def _reduce_scatter_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        ("axis_index_groups", params["axis_index_groups"]),
        ("axis_name", params["axes"]),
        ("axis_size", params["axis_size"]),
        ("scatter_dimension", params["scatter_dimension"]),
        ("tiled", params["tiled"]),
    ]


reduce_scatter_p: Primitive = Primitive("reduce_scatter")
reduce_scatter_p.def_rules(
    Rules(
        abstract_eval=_reduce_scatter_abstract_eval,
        lower=_reduce_scatter_lower,
        jvp=linear_jvp(reduce_scatter_p),
        transpose=_reduce_scatter_transpose,
        batch=_reduce_scatter_batch,
        pp=_reduce_scatter_pp,
        vma=collective_vma("reduce_scatter"),
    )
)


def psum_scatter(
    x: T,
    axis_name: AxisName | Sequence[AxisName],
    *,
    scatter_dimension: int = 0,
    axis_index_groups: Sequence[Sequence[int]] | None = None,
    tiled: bool = False,
) -> T:
    """The sum of ``x`` (a pytree) over the named axis (axes), of which each member keeps its block
    along ``scatter_dimension``: that dimension (of the axis' size) is dropped (``tiled=False``)
    or divided by the axis' size (``tiled=True``)."""
    axes = axes_of(axis_name)
    if not axes:
        return x
    groups = canonical_groups(axis_index_groups)
    size = group_size(axes, groups)

    def bind(leaf: Any) -> Any:
        aval = get_aval(leaf)
        states = {"varying" if a in aval.vma else "invarying" for a in axes} if checked_manual_axes() else set[str]()
        if len(states) > 1:
            raise ValueError(
                "jax.lax.psum_scatter can only accept axis_name which corresponds to one of varying, unreduced, "
                f"reduced or invarying state of the input. Got input type: {aval}, axes: {axes} and input state: {states}"
            )
        leaf = vary_over(leaf, axes)
        dim = canonicalize_axis(scatter_dimension, aval.ndim)
        return reduce_scatter_p.bind(leaf, scatter_dimension=dim, axes=axes, axis_index_groups=groups, axis_size=size, tiled=tiled)

    out: T = tree_map(bind, x)
    return out


# -- all_to_all ---------------------------------------------------------------------------------
def _all_to_all_abstract_eval(x: ShapedArray, *, split_axis: int, concat_axis: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, tiled: bool) -> ShapedArray:
    size = size_of(axes, "all_to_all")
    size = size if axis_index_groups is None else len(axis_index_groups[0])
    shape = list(x.shape)
    assert shape[split_axis] % size == 0, (shape[split_axis], size)
    shape[split_axis] //= size
    shape[concat_axis] *= size
    return ShapedArray(tuple(shape), x.dtype)


def all_to_all_in_groups(x: Any, groups: Sequence[tuple[AxisName, ...]], split: int, concat: int, tiled: bool) -> Any:
    """An all-to-all over the concatenation of ``groups``, one group at a time: the split
    dimension split into one dimension per group (major to minor) and a unit dimension per group
    placed before the concat dimension; each group's all-to-all moves its chunks from the one
    to the other, and the received dimensions are merged into the concat dimension."""
    sizes = [size_of(g) for g in groups]
    m = len(groups)
    shape = get_aval(x).shape
    x = reshape(x, (*shape[:split], *sizes, shape[split] // math.prod(sizes), *shape[split + 1 :]))
    target = split + m if concat == split else concat + m if concat > split else concat
    x = expand_dims(x, tuple(range(target, target + m)))
    first = split + m if target <= split else split
    for i, group in enumerate(groups):
        x = all_to_all_p.bind(x, split_axis=first + i, concat_axis=target + i, axes=group, axis_index_groups=None, tiled=tiled)
    x = squeeze(x, tuple(range(first, first + m)))
    target -= m if first < target else 0
    shape = get_aval(x).shape
    return reshape(x, (*shape[:target], math.prod(shape[target : target + m + 1]), *shape[target + m + 1 :]))


def _all_to_all_batch(args: Sequence[Any], dims: Sequence[int | None], *, split_axis: int, concat_axis: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, tiled: bool) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    name, size = batch_frame()
    params: dict[str, Any] = {"axes": axes, "axis_index_groups": axis_index_groups, "tiled": tiled}
    if name not in axes:
        if d is None:
            return all_to_all_p.bind(x, split_axis=split_axis, concat_axis=concat_axis, **params), None
        return all_to_all_p.bind(x, split_axis=split_axis + (d <= split_axis), concat_axis=concat_axis + (d <= concat_axis), **params), d
    if axis_index_groups is not None:
        raise NotImplementedError("Please open a feature request!")
    if len(axes) > 1:
        return per_element(lambda xe: all_to_all_in_groups(xe, frame_groups(axes, name), split_axis, concat_axis, tiled), x, d, True)
    if d is None:
        shape = get_aval(x).shape
        x = broadcast_in_dim(x, (size, *shape), tuple(range(1, len(shape) + 1)))
        d = 0
    if split_axis == concat_axis:
        # Chunk j of member i goes to member j, at position i: swap the batch and chunk indices.
        axis = split_axis + (d <= split_axis)
        out_dim = d
        x = split_dim(x, axis, size)
        d += axis <= d
        perm = list(range(get_aval(x).ndim))
        perm[d], perm[axis] = axis, d
        return fold(transpose(x, perm), axis), out_dim
    x = fold(moveaxis(x, d, concat_axis), concat_axis)
    return split_dim(x, split_axis, size), split_axis


def _all_to_all_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, split_axis: int, concat_axis: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, tiled: bool) -> ir.Value[ir.Type]:
    groups = device_groups(axes, axis_index_groups, "all_to_all")
    if len(groups[0]) == 1:
        return x
    op = hlo.AllToAllOp([x], split_axis, concat_axis, len(groups[0]), groups_attr(groups), channel_handle=channel_attr())
    out: ir.Value[ir.Type] = op.results[0]
    return out


def _all_to_all_transpose(ct: Any, x: Any, *, split_axis: int, concat_axis: int, axes: tuple[AxisName, ...], axis_index_groups: Groups, tiled: bool) -> list[Any]:
    return [all_to_all_p.bind(ct, split_axis=concat_axis, concat_axis=split_axis, axes=axes, axis_index_groups=axis_index_groups, tiled=tiled)]


def _all_to_all_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    axes = params["axes"]
    return [
        ("axis_index_groups", params["axis_index_groups"]),
        ("axis_name", axes[0] if len(axes) == 1 else axes),
        ("concat_axis", params["concat_axis"]),
        ("split_axis", params["split_axis"]),
        ("tiled", params["tiled"]),
    ]


all_to_all_p: Primitive = Primitive("all_to_all")
all_to_all_p.def_rules(
    Rules(
        abstract_eval=_all_to_all_abstract_eval,
        lower=_all_to_all_lower,
        jvp=linear_jvp(all_to_all_p),
        transpose=_all_to_all_transpose,
        batch=_all_to_all_batch,
        pp=_all_to_all_pp,
        vma=collective_vma("all_to_all"),
    )
)


def all_to_all(
    x: T,
    axis_name: AxisName | Sequence[AxisName],
    split_axis: int,
    concat_axis: int,
    *,
    axis_index_groups: Sequence[Sequence[int]] | None = None,
    tiled: bool = False,
) -> T:
    """Each member of the named axis splits ``x`` (a pytree) along ``split_axis`` into one chunk
    per member and sends chunk ``j`` to member ``j``, which assembles the chunks it receives, in
    the senders' order, along ``concat_axis``: a new dimension (``tiled=False``; ``split_axis``,
    of the axis' size, goes away) or an existing one (``tiled=True``)."""
    axes = axes_of(axis_name)
    groups = canonical_groups(axis_index_groups)

    def bind(leaf: Any) -> Any:
        ndim = get_aval(leaf).ndim
        split, concat = canonicalize_axis(split_axis, ndim), canonicalize_axis(concat_axis, ndim)
        size = group_size(axes, groups)
        n = get_aval(leaf).shape[split]
        if tiled:
            if n % size:
                raise ValueError(f"The size of all_to_all split_axis ({n}) has to be divisible by the size of the named axis {axis_name} ({size})")
        else:
            if size != n:
                raise ValueError(f"all_to_all requires the size of the mapped axis axis_name to equal x.shape[split_axis], but they are {size} and {n} respectively.")
            if split < concat:
                concat += 1  # a position after split_axis is removed
                leaf = expand_dims(leaf, (concat,))
            elif concat < split:
                leaf = expand_dims(leaf, (concat,))
                split += 1
        leaf = vary_over(leaf, axes)
        out = all_to_all_p.bind(leaf, split_axis=split, concat_axis=concat, axes=axes, axis_index_groups=groups, tiled=tiled)
        return out if tiled or split == concat else squeeze(out, (split,))

    out: T = tree_map(bind, x)
    return out


def pswapaxes(x: T, axis_name: AxisName | Sequence[AxisName], axis: int, *, axis_index_groups: Sequence[Sequence[int]] | None = None) -> T:
    """Swaps the named axis with dimension ``axis`` of ``x`` (a pytree), whose size must be the
    axis' size: ``all_to_all(x, axis_name, axis, axis)``."""
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)
