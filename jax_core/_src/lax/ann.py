"""Approximate top-k: ``approx_max_k``, ``approx_min_k`` (the ``approx_top_k`` primitive).

Lowered as JAX lowers it, to XLA's ``ApproxTopK`` custom call with a comparator function; off TPU
the call is marked ``is_fallback`` and XLA computes the exact top-k (a sort), so on CPU the
results are exact. ``recall_target``, ``reduction_input_size_override`` and
``aggregate_to_topk=False`` (whose output size XLA's TPU algorithm chooses) follow JAX.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import Zero, tangent_aval
from jax_core._src.lax.sorting import gather_along
from jax_core._src.lib import jax_ext
from jax_core._src.lib.mlir import func, hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type, dtype_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def approx_max_k(
    operand: ArrayLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> list[Array]:
    """The ``k`` largest values of ``operand`` along ``reduction_dimension`` and their (int32)
    indices, found approximately on TPU with the expected recall ``recall_target`` (exactly
    elsewhere). With ``aggregate_to_topk=False`` the TPU's unsorted candidates are returned.
    ``operand`` must be floating. As in JAX, the result is the primitive's list of outputs."""
    out: list[Array] = approx_top_k_p.bind(
        operand,
        k=k,
        reduction_dimension=reduction_dimension,
        recall_target=recall_target,
        is_max_k=True,
        reduction_input_size_override=reduction_input_size_override,
        aggregate_to_topk=aggregate_to_topk,
    )
    return out


def approx_min_k(
    operand: ArrayLike,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
) -> list[Array]:
    """As ``approx_max_k``, for the ``k`` smallest values."""
    out: list[Array] = approx_top_k_p.bind(
        operand,
        k=k,
        reduction_dimension=reduction_dimension,
        recall_target=recall_target,
        is_max_k=False,
        reduction_input_size_override=reduction_input_size_override,
        aggregate_to_topk=aggregate_to_topk,
    )
    return out


def _abstract_eval(
    operand: ShapedArray,
    *,
    k: int,
    reduction_dimension: int,
    recall_target: float,
    is_max_k: bool,
    reduction_input_size_override: int,
    aggregate_to_topk: bool,
) -> list[ShapedArray]:
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    if operand.ndim == 0:
        raise TypeError(f"approx_top_k operand must have >= 1 dimension, got {operand.shape}")
    dims = list(operand.shape)
    if dims[reduction_dimension] < k:
        raise ValueError(
            f"k must be smaller than the size of reduction_dim {dims[reduction_dimension]}, got {k}"
        )
    if not dtypes.issubdtype(operand.dtype, np.floating):
        raise ValueError("operand must be a floating type")
    size = dims[reduction_dimension]
    if aggregate_to_topk:
        dims[reduction_dimension] = k
    else:
        out_size: tuple[int, int] = jax_ext.approx_top_k_reduction_output_size(
            size, len(dims), k, recall_target, aggregate_to_topk, reduction_input_size_override
        )
        dims[reduction_dimension] = out_size[0]
    return [
        ShapedArray(tuple(dims), operand.dtype, operand.weak_type),
        ShapedArray(tuple(dims), np.dtype(np.int32)),
    ]


def _module_of_insertion_point() -> ir.Operation:
    op: ir.Operation | None = ir.InsertionPoint.current.block.owner.operation
    while op is not None and op.name != "builtin.module":
        op = op.parent
    assert op is not None
    return op


def _comparator(op_type: ir.Type, is_max_k: bool) -> str:
    """A ``(x, y, i, j) -> x > y`` (``<`` for min-k) function in the module; its symbol name."""
    scalar = ir.RankedTensorType.get([], op_type)
    index = ir.RankedTensorType.get([], ir.IntegerType.get_signless(32))
    pred = ir.RankedTensorType.get([], ir.IntegerType.get_signless(1))
    module = _module_of_insertion_point()
    region: ir.Region = next(iter(module.regions))
    body: ir.Block = next(iter(region.blocks))
    with ir.InsertionPoint.at_block_begin(body):
        fn = func.FuncOp(
            f"top_k_{'gt' if is_max_k else 'lt'}_{op_type}_comparator",
            ir.FunctionType.get([scalar, scalar, index, index], [pred]),
        )
    ir.SymbolTable(module).insert(fn)  # renames on a clash
    block = fn.add_entry_block()
    with ir.InsertionPoint(block):
        p0, p1 = block.arguments[0], block.arguments[1]
        direction = hlo.ComparisonDirectionAttr.get("GT" if is_max_k else "LT")
        func.ReturnOp([hlo.compare(p0, p1, comparison_direction=direction)])
    name: str = ir.StringAttr(fn.attributes["sym_name"]).value
    return name


def _lower(
    ctx: LoweringRuleContext,
    operand: ir.Value[Any],
    *,
    k: int,
    reduction_dimension: int,
    recall_target: float,
    is_max_k: bool,
    reduction_input_size_override: int,
    aggregate_to_topk: bool,
) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    dim = reduction_dimension % aval.ndim
    comparator = _comparator(dtype_to_ir_type(aval.dtype), is_max_k)
    iota_aval = ShapedArray(aval.shape, np.dtype(np.int32))
    iota: ir.Value[Any] = hlo.iota(aval_to_ir_type(iota_aval), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), dim))
    init_val = hlo_util.constant(np.array(-np.inf if is_max_k else np.inf, aval.dtype))
    init_arg = hlo_util.constant(np.array(-1, np.int32))
    i64 = ir.IntegerType.get_signless(64)
    config: dict[str, ir.Attribute] = {
        "reduction_dim": ir.IntegerAttr.get(i64, dim),
        "recall_target": ir.FloatAttr.get(ir.F32Type.get(), recall_target),
        "aggregate_to_topk": ir.BoolAttr.get(aggregate_to_topk),
        "reduction_input_size_override": ir.IntegerAttr.get(i64, reduction_input_size_override),
        "is_fallback": ir.BoolAttr.get(True),
        "top_k": ir.IntegerAttr.get(i64, k),
    }
    attributes: dict[str, ir.Attribute] = {
        "call_target_name": ir.StringAttr.get("ApproxTopK"),
        "has_side_effect": ir.BoolAttr.get(False),
        "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 4),
        "called_computations": ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(comparator)]),
        "backend_config": ir.DictAttr.get(config),
    }
    op: Any = hlo.CustomCallOp.build_generic(
        results=[aval_to_ir_type(a) for a in ctx.avals_out],
        operands=[operand, iota, init_val, init_arg],
        attributes=attributes,
    )
    return list(op.results)


def _jvp(
    primals: Sequence[Any], tangents: Sequence[Any], **params: Any
) -> tuple[list[Any], list[Any]]:
    (operand,), (tangent,) = primals, tangents
    vals, idx = approx_top_k_p.bind(operand, **params)
    idx_zero = Zero(tangent_aval(get_aval(idx)))
    if isinstance(tangent, Zero):
        return [vals, idx], [Zero(tangent_aval(get_aval(vals))), idx_zero]
    dim = params["reduction_dimension"] % get_aval(idx).ndim
    return [vals, idx], [gather_along(tangent, idx, dim), idx_zero]


def _batch(
    args: Sequence[Any], dims: Sequence[int | None], *, reduction_dimension: int, **params: Any
) -> tuple[list[Any], list[int | None]]:
    (operand,), (bdim,) = args, dims
    assert bdim is not None
    ndim = get_aval(operand).ndim
    dim_map = [d for d in range(ndim) if d != bdim]
    outs = approx_top_k_p.bind(operand, reduction_dimension=dim_map[reduction_dimension], **params)
    return list(outs), [bdim, bdim]


approx_top_k_p: Primitive = Primitive("approx_top_k", multiple_results=True)
approx_top_k_p.def_rules(Rules(abstract_eval=_abstract_eval, lower=_lower, jvp=_jvp, batch=_batch))
