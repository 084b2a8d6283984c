"""Shardy (``sdy``) annotations: the mesh of a module, shardings of its values, manual regions.

A module that runs on several devices declares its mesh once (``sdy.mesh @mesh = <["x"=2,
"y"=4]>``); ``main``'s parameters and results carry ``#sdy.sharding<@mesh, [{"x"}, {}]>``
attributes (one ``{...}`` per dimension: the mesh axes it is split over, major first; ``{?}``
leaves a dimension to the partitioner), ``with_sharding_constraint`` is
``sdy.sharding_constraint`` and ``shard_map`` is ``sdy.manual_computation``. XLA's Shardy
partitioner (the one JAX 0.12 uses by default) propagates the rest. The attributes are written
as MLIR text, which is the dialect's stable surface.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from jax_core._src.lib.mlir import ir
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.jaxlib_types import AxisName

MESH_NAME = "mesh"
"""The symbol every sharding of a module refers to (one mesh per module)."""

MeshShape = tuple[tuple[AxisName, int], ...]


def _quote(name: AxisName) -> str:
    return '"' + str(name).replace("\\", "\\\\").replace('"', '\\"') + '"'


def mesh_text(mesh_shape: MeshShape) -> str:
    """``<["x"=2, "y"=4]>``: the mesh's axes and sizes as Shardy writes them."""
    return "<[" + ", ".join(f"{_quote(n)}={s}" for n, s in mesh_shape) + "]>"


def add_mesh(module: ir.Module, mesh_shape: MeshShape) -> None:
    """Declares ``@mesh`` first in ``module``'s body (inside an MLIR context)."""
    op = ir.Operation.parse(f"sdy.mesh @{MESH_NAME} = {mesh_text(mesh_shape)}")
    ir.InsertionPoint.at_block_begin(module.body).insert(op)


def dims_text(spec: PartitionSpec, ndim: int, *, open_rest: bool = False) -> str:
    """``[{"x"}, {}, {?}]``: the axes of each of ``ndim`` dimensions under ``spec``."""
    parts: list[str] = []
    for d in range(ndim):
        entry = spec[d] if d < len(spec) else None
        if entry is PartitionSpec.UNCONSTRAINED:
            parts.append("{?}")
        elif entry is None:
            parts.append("{?}" if open_rest and d >= len(spec) else "{}")
        else:
            names: Sequence[AxisName] = cast("tuple[AxisName, ...]", entry) if isinstance(entry, tuple) else (entry,)
            parts.append("{" + ", ".join(_quote(n) for n in names) + "}")
    return "[" + ", ".join(parts) + "]"


def sharding_text(spec: PartitionSpec, ndim: int, mesh_name: str = MESH_NAME) -> str:
    """``<@mesh, [{"x"}, {}]>``: a value's sharding on the module's mesh (or on ``mesh_name``)."""
    return f"<@{mesh_name}, {dims_text(spec, ndim)}>"


def sharding_attr(spec: PartitionSpec, ndim: int) -> ir.Attribute:
    """``#sdy.sharding<@mesh, ...>`` for a parameter or result attribute."""
    return ir.Attribute.parse(f"#sdy.sharding{sharding_text(spec, ndim)}")


def sharding_constraint(
    value: ir.Value[ir.Type], spec: PartitionSpec, ndim: int, mesh_name: str = MESH_NAME
) -> ir.Value[ir.Type]:
    """``sdy.sharding_constraint value <@mesh, ...>``: ``value`` laid out as ``spec`` here (over
    the module's mesh, or the mesh ``mesh_name``)."""
    from jax_core._src.lib.mlir import sdy

    op = sdy.ShardingConstraintOp(value, ir.Attribute.parse(f"#sdy.sharding{sharding_text(spec, ndim, mesh_name)}"))
    out: ir.Value[ir.Type] = op.result
    return out


def manual_computation(
    args: Sequence[ir.Value[ir.Type]],
    result_types: Sequence[ir.Type],
    local_types: Sequence[ir.Type],
    in_specs: Sequence[tuple[PartitionSpec, int]],
    out_specs: Sequence[tuple[PartitionSpec, int]],
    manual_axes: Sequence[AxisName],
) -> tuple[Any, ir.Block]:
    """``sdy.manual_computation``: a region run per device on blocks of ``args`` (laid out as
    ``in_specs``: (spec, rank) pairs) whose results are the blocks of the op's results
    (``out_specs``); the caller fills the returned block and ends it with ``sdy.ReturnOp``."""
    from jax_core._src.lib.mlir import sdy as sdy_dialect

    def per_value(specs: Sequence[tuple[PartitionSpec, int]]) -> ir.Attribute:
        return ir.Attribute.parse("#sdy.sharding_per_value<[" + ", ".join(sharding_text(s, n) for s, n in specs) + "]>")

    axes = ir.Attribute.parse("#sdy<manual_axes{" + ", ".join(_quote(a) for a in manual_axes) + "}>")
    op = sdy_dialect.ManualComputationOp(list(result_types), list(args), per_value(in_specs), per_value(out_specs), axes)
    block = op.body.blocks.append(*local_types)
    return op, block


def return_values(values: Sequence[ir.Value[ir.Type]]) -> None:
    """``sdy.return``: ends a manual computation's region with its per-device results."""
    from jax_core._src.lib.mlir import sdy as sdy_dialect

    sdy_dialect.ReturnOp(list(values))
