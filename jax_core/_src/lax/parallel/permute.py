"""Collectives that send each member's value to other members of named axes: ``ppermute``
(``pshuffle``, its other spelling) and ``pbroadcast``.

Under ``vmap(..., axis_name=...)`` a permutation of the vmapped axis is a reordering of the batch
dimension (slices of it, zeros where a member receives nothing) and a broadcast from a source
is that source's slice, the same for every member. Over several axes among which the vmapped
one is, both run per element on the values all-gathered over the axes (see ``gather.py``).
Inside ``shard_map`` they lower among the devices ``groups.axis_groups`` gives, to
``stablehlo.collective_permute`` and (XLA:CPU having no ``collective_broadcast``) to an
``all_gather`` of which each device keeps the source's block.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np

from jax_core._src import config
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import linear_jvp
from jax_core._src.interpreters.batching_util import broadcast_batch
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.indexing.slicing import dynamic_index_in_dim, index_in_dim, slice_in_dim
from jax_core._src.lax.parallel.gather import (
    AxisName,
    all_gather_p,
    axes_of,
    batch_frame,
    collective_vma,
    device_groups,
    frame_groups,
    gather_in_groups,
    linear_position,
    per_element,
    size_of,
    vary_over,
)
from jax_core._src.lax.parallel.groups import channel_attr, groups_attr
from jax_core._src.lax.parallel.reductions import psum
from jax_core._src.lax.shape.assembly import concatenate
from jax_core._src.lax.shape.compositions import full
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_map

T = TypeVar("T")
Perm = tuple[tuple[int, int], ...]


# -- ppermute -----------------------------------------------------------------------------------
def _checked_perm(perm: Perm, size: int) -> list[tuple[int, int]]:
    """``perm``'s pairs as positions along an axis of ``size`` (taken modulo ``size``, as JAX's
    lowering does); ``ValueError`` if a source or a destination repeats."""
    pairs = [(src % size, dst % size) for src, dst in perm]
    srcs, dsts = [s for s, _ in pairs], [t for _, t in pairs]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    return pairs


def _sources(pairs: Sequence[tuple[int, int]], size: int) -> list[int | None]:
    """For each position, the position it receives from (``None``: nothing, it gets zeros)."""
    sources: list[int | None] = [None] * size
    for src, dst in pairs:
        sources[dst] = src
    return sources


def _take_static(x: Any, d: int, sources: Sequence[int | None]) -> Any:
    """``x`` with position ``i`` along ``d`` taken from position ``sources[i]`` (zeros for
    ``None``): one slice per run of consecutive sources, so a shift is two slices."""
    aval = get_aval(x)
    pieces: list[Any] = []
    i = 0
    while i < len(sources):
        first, j = sources[i], i + 1
        if first is None:
            while j < len(sources) and sources[j] is None:
                j += 1
            shape = list(aval.shape)
            shape[d] = j - i
            pieces.append(full(shape, 0, aval.dtype))
        else:
            while j < len(sources) and sources[j] == first + (j - i):
                j += 1
            pieces.append(slice_in_dim(x, first, first + j - i, 1, d))
        i = j
    return pieces[0] if len(pieces) == 1 else concatenate(pieces, d)


def _permute_in_groups(x: Any, axes: tuple[AxisName, ...], name: AxisName, pairs: Sequence[tuple[int, int]]) -> Any:
    """A permutation over several axes, per element: every member's value gathered, then each
    member picks its source's (zeros if it has none)."""
    everyone = gather_in_groups(all_gather_p, x, frame_groups(axes, name), 0, False)
    sources = _sources(pairs, get_aval(everyone).shape[0])
    me = linear_position(axes)
    table = np.asarray([0 if s is None else s for s in sources], np.int32)
    out = dynamic_index_in_dim(everyone, dynamic_index_in_dim(table, me, 0, False), 0, False)
    if None in sources:
        receives = dynamic_index_in_dim(np.asarray([s is not None for s in sources]), me, 0, False)
        out = ew.select(receives, out, full(get_aval(out).shape, 0, get_aval(out).dtype))
    return out


def _ppermute_abstract_eval(x: ShapedArray, *, axes: tuple[AxisName, ...], perm: Perm) -> ShapedArray:
    size_of(axes, "ppermute")
    return x


def _ppermute_batch(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...], perm: Perm) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    name, size = batch_frame()
    if name not in axes:
        return ppermute_p.bind(x, axes=axes, perm=perm), d
    pairs = _checked_perm(perm, size_of(axes))
    if len(axes) > 1:
        return per_element(lambda xe: _permute_in_groups(xe, axes, name, pairs), x, d, True)
    sources = _sources(pairs, size)
    if d is None:
        if None not in sources:  # every member receives some member's (equal) value
            return x, None
        x, d = broadcast_batch(x, size, 0), 0
    return _take_static(x, d, sources), d


def _ppermute_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, axes: tuple[AxisName, ...], perm: Perm) -> ir.Value[ir.Type]:
    groups = device_groups(axes, None, "ppermute")
    pairs = _checked_perm(perm, len(groups[0]))
    if config.config.jax_raise_on_ppermute_sort_diff and any(sorted(g) != g for g in groups):
        raise RuntimeError(
            "Make sure that the axis_name passed to jax.lax.ppermute is in the same order as the "
            "axis_names declared on the mesh. If you want to allow different order, you can "
            "disable the check via `with jax.raise_on_ppermute_sort_diff(False):` context manager."
        )
    table = np.asarray([[g[src], g[dst]] for g in groups for src, dst in pairs], np.int64).reshape(-1, 2)
    op = hlo.CollectivePermuteOp(x, ir.DenseIntElementsAttr.get(table), channel_handle=channel_attr())
    out: ir.Value[ir.Type] = op.result
    return out


def _ppermute_transpose(ct: Any, x: Any, *, axes: tuple[AxisName, ...], perm: Perm) -> list[Any]:
    return [ppermute_p.bind(ct, axes=axes, perm=tuple((dst, src) for src, dst in perm))]


ppermute_p: Primitive = Primitive("ppermute")
ppermute_p.def_rules(
    Rules(
        abstract_eval=_ppermute_abstract_eval,
        lower=_ppermute_lower,
        jvp=linear_jvp(ppermute_p),
        transpose=_ppermute_transpose,
        batch=_ppermute_batch,
        pp=lambda params: [("axis_name", params["axes"]), ("perm", params["perm"])],
        vma=collective_vma("ppermute"),
    )
)


def ppermute(x: T, axis_name: AxisName | Sequence[AxisName], perm: Sequence[tuple[int, int]]) -> T:
    """Sends each member's ``x`` (a pytree) along the named axis (axes) by ``perm``, pairs
    ``(source, destination)`` of positions along it; a member that is no destination gets zeros."""
    axes = axes_of(axis_name)
    if not isinstance(perm, (list, tuple)):
        raise TypeError(f"`perm` passed to `jax.lax.ppermute` must be a list or a tuple. Got perm of type {type(perm)}")
    pairs: Perm = tuple((src, dst) for src, dst in perm)

    def bind(leaf: Any) -> Any:
        return ppermute_p.bind(vary_over(leaf, axes), axes=axes, perm=pairs)

    out: T = tree_map(bind, x)
    return out


def pshuffle(x: T, axis_name: AxisName | Sequence[AxisName], perm: Sequence[int]) -> T:
    """``ppermute`` with the permutation given by sources: position ``i`` of the named axis gets
    the value of position ``perm[i]``."""
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, list(zip(perm, range(len(perm)))))


# -- pbroadcast ---------------------------------------------------------------------------------
def _check_source(source: int, size: int) -> None:
    if not 0 <= source < size:
        raise AssertionError("collective broadcast doesn't fit in the axis size!")


def _pbroadcast_abstract_eval(x: ShapedArray, *, axes: tuple[AxisName, ...], source: int) -> ShapedArray:
    size_of(axes, "ppermute")  # JAX's check names ppermute here too
    return x


def _pbroadcast_batch(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...], source: int) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    name, _ = batch_frame()
    if name not in axes:
        return pbroadcast_p.bind(x, axes=axes, source=source), d
    _check_source(source, size_of(axes))
    if len(axes) > 1:
        return per_element(lambda xe: index_in_dim(gather_in_groups(all_gather_p, xe, frame_groups(axes, name), 0, False), source, 0, False), x, d, False)
    return (x if d is None else index_in_dim(x, source, d, False)), None


def _pbroadcast_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, axes: tuple[AxisName, ...], source: int) -> ir.Value[ir.Type]:
    # XLA:CPU has no collective-broadcast (it rejects the op as UNIMPLEMENTED): every member
    # gathers the values of its group and keeps the source's, bit for bit.
    aval = ctx.avals_in[0]
    groups = device_groups(axes, None, "pbroadcast")
    n = len(groups[0])
    _check_source(source, n)
    unit = hlo.reshape(aval_to_ir_type(aval.update(shape=(1, *aval.shape))), x)
    everyone = hlo.AllGatherOp(
        [aval_to_ir_type(aval.update(shape=(n, *aval.shape)))],
        [unit],
        0,
        groups_attr(groups),
        channel_handle=channel_attr(),
        use_global_device_ids=True,
    )
    picked = hlo.slice(everyone.results[0], [source] + [0] * aval.ndim, [source + 1, *aval.shape], [1] * (aval.ndim + 1))
    out: ir.Value[ir.Type] = hlo.reshape(aval_to_ir_type(aval), picked)
    return out


def _pbroadcast_transpose(ct: Any, x: Any, *, axes: tuple[AxisName, ...], source: int) -> list[Any]:
    # The source's operand reached every member: it gets the sum of their cotangents.
    aval = get_aval(ct)
    is_source = ew.eq(linear_position(axes), np.int32(source))
    return [ew.select(is_source, psum(ct, axes), full(aval.shape, 0, aval.dtype))]


pbroadcast_p: Primitive = Primitive("pbroadcast")
pbroadcast_p.def_rules(
    Rules(
        abstract_eval=_pbroadcast_abstract_eval,
        lower=_pbroadcast_lower,
        jvp=linear_jvp(pbroadcast_p),
        transpose=_pbroadcast_transpose,
        batch=_pbroadcast_batch,
        pp=lambda params: [("axis_name", params["axes"][0] if len(params["axes"]) == 1 else params["axes"]), ("source", params["source"])],
        vma=collective_vma("ppermute"),
    )
)


def _pbroadcast_dynamic(x: Any, axes: tuple[AxisName, ...], source: Any) -> Any:
    """A broadcast from a traced source: every member's value masked but the source's, summed."""
    aval = get_aval(source)
    if aval.dtype != np.dtype(np.int32):
        raise TypeError(f"pbroadcast dynamic source must be an i32 array, got {aval.dtype}")
    if aval.shape != ():
        raise ValueError(f"pbroadcast dynamic source must be a scalar, got shape {aval.shape}")
    size_of(axes, "pbroadcast")
    x_aval = get_aval(x)
    masked = ew.select(ew.eq(linear_position(axes), source), x, full(x_aval.shape, 0, x_aval.dtype))
    out = psum(masked, axes)
    if get_aval(out).dtype != x_aval.dtype:  # psum sums booleans as int32
        out = ew.convert_element_type(out, x_aval.dtype)
    return vary_over(out, axes)  # varying, as the operand


def pbroadcast(x: T, axis_name: AxisName | Sequence[AxisName], source: Any) -> T:
    """Every member of the named axis (axes) gets the value of ``x`` (a pytree) of the member at
    position ``source`` (an int, or a traced int32 scalar)."""
    axes = axes_of(axis_name)
    if isinstance(source, int):
        out: T = tree_map(lambda leaf: pbroadcast_p.bind(leaf, axes=axes, source=source), x)
    else:
        out = tree_map(lambda leaf: _pbroadcast_dynamic(leaf, axes, source), x)
    return out
