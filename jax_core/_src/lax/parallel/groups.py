"""Lowering collectives inside ``shard_map``: which devices talk to each other.

Inside a ``shard_map`` body (an ``sdy.manual_computation``) each device runs the body on its own
block; a collective over mesh axes ``axes`` communicates among the devices whose coordinates
differ only along those axes. Devices are named by their position in the module's mesh (the
partition id: the row-major index into the mesh's device array), which is what
``use_global_device_ids`` replica groups and ``partition_id`` mean for a one-replica SPMD
program. Outside a mesh (``vmap(axis_name=...)``) collectives never reach lowering: batching
rewrites them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import value_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, module_context

AxisName = Any


def mesh_shape(what: str) -> tuple[tuple[AxisName, int], ...]:
    """The mesh of the module being lowered; ``NotImplementedError`` outside one."""
    shape = module_context().mesh_shape
    if shape is None:
        raise NotImplementedError(
            f"{what} over a named axis is lowered inside shard_map (or pmap) only; under "
            "vmap(axis_name=...) it is computed by the batching rule."
        )
    return shape


def device_grid(what: str) -> tuple[np.ndarray[Any, np.dtype[np.int64]], list[AxisName]]:
    """The partition ids laid out as the mesh (one array dimension per mesh axis), and the axis
    names in order."""
    shape = mesh_shape(what)
    names = [n for n, _ in shape]
    ids = np.arange(int(np.prod([s for _, s in shape], dtype=np.int64)), dtype=np.int64)
    return ids.reshape([s for _, s in shape]), names


def axis_groups(axes: Sequence[AxisName], what: str) -> list[list[int]]:
    """The groups of partition ids a collective over ``axes`` runs among: each group holds the
    devices that differ only along ``axes``, ordered by their (row-major, in ``axes`` order)
    index along them."""
    grid, names = device_grid(what)
    for a in axes:
        if a not in names:
            raise NameError(f"unbound axis name: {a}. The mesh's axes are {names}")
    positions = [names.index(a) for a in axes]
    rest = [i for i in range(len(names)) if i not in positions]
    moved = np.transpose(grid, [*rest, *positions])
    size = int(np.prod([grid.shape[p] for p in positions], dtype=np.int64))
    return moved.reshape(-1, size).tolist()


def groups_attr(groups: Sequence[Sequence[int]]) -> ir.Attribute:
    """``replica_groups`` as StableHLO takes them: a dense i64 matrix."""
    return ir.DenseIntElementsAttr.get(np.asarray(groups, dtype=np.int64))


def channel_attr() -> ir.Attribute:
    """A fresh device-to-device channel handle (each cross-device collective needs its own)."""
    handle: ir.Attribute = hlo.ChannelHandle.get(module_context().next_channel(), 1)
    return handle


def all_reduce(
    ctx: LoweringRuleContext,
    x: ir.Value[ir.Type],
    axes: Sequence[AxisName],
    combine: Callable[[ir.Value[ir.Type], ir.Value[ir.Type]], ir.Value[ir.Type]],
    what: str,
    aval: ShapedArray | None = None,
) -> ir.Value[ir.Type]:
    """``stablehlo.all_reduce`` of ``x`` over ``axes`` with the scalar ``combine`` (``hlo.add``,
    ``hlo.maximum``, ...)."""
    aval = ctx.avals_in[0] if aval is None else aval
    op = hlo.AllReduceOp(
        [value_ir_type(aval)],
        [x],
        groups_attr(axis_groups(axes, what)),
        channel_handle=channel_attr(),
        use_global_device_ids=ir.UnitAttr.get(),
    )
    scalar = value_ir_type(ShapedArray((), aval.dtype))
    block = op.regions[0].blocks.append(scalar, scalar)
    with ir.InsertionPoint(block):
        hlo.return_([combine(block.arguments[0], block.arguments[1])])
    out: ir.Value[ir.Type] = op.results[0]
    return out


def axis_position(axes: Sequence[AxisName], what: str) -> ir.Value[ir.Type]:
    """This device's (row-major) index along ``axes``, an int32 scalar: computed from
    ``partition_id`` and the mesh's strides."""
    grid, names = device_grid(what)
    u32 = ir.IntegerType.get_unsigned(32)
    pid: ir.Value[ir.Type] = hlo.partition_id()
    total: ir.Value[ir.Type] | None = None
    for a in axes:
        i = names.index(a)
        stride = int(np.prod(grid.shape[i + 1 :], dtype=np.int64))
        size = int(grid.shape[i])
        coord = hlo.remainder(
            hlo.divide(pid, hlo.constant(ir.DenseElementsAttr.get(np.array(stride, np.uint32), type=u32))),
            hlo.constant(ir.DenseElementsAttr.get(np.array(size, np.uint32), type=u32)),
        )
        if total is None:
            total = coord
        else:
            scaled = hlo.multiply(total, hlo.constant(ir.DenseElementsAttr.get(np.array(size, np.uint32), type=u32)))
            total = hlo.add(scaled, coord)
    assert total is not None
    out: ir.Value[ir.Type] = hlo.convert(ir.RankedTensorType.get([], ir.IntegerType.get_signless(32)), total)
    return out
