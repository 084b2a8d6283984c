"""Calling Python from compiled code: jaxlib's CPU FFI callback custom call.

The module's callables are handed to the compiler (``compile_and_load(..., host_callbacks)``);
a ``stablehlo.custom_call @xla_ffi_python_cpu_callback`` names one by its index. The callable
receives read-only NumPy arrays (``None`` for a token operand) and must return one value per
result. XLA checks nothing about those values, so the wrapper here checks their number, shapes and
dtypes and raises JAX's ``RuntimeError`` otherwise (the caller sees it, with the traceback text,
as a ``JaxRuntimeError``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import value_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

CPU_CALLBACK_TARGET = "xla_ffi_python_cpu_callback"


def checked_results(callback: Callable[..., Sequence[Any]], result_avals: Sequence[ShapedArray]) -> Callable[..., tuple[Any, ...]]:
    """``callback`` with its results checked against ``result_avals`` (as NumPy arrays)."""

    def wrapped(*args: Any) -> tuple[Any, ...]:
        out_vals = callback(*args)
        if len(out_vals) != len(result_avals):
            raise RuntimeError(
                f"Mismatched number of outputs from callback. Expected: {len(result_avals)}, Actual: {len(out_vals)}"
            )
        arrays = tuple(np.asarray(v, dtypes.canonicalize_dtype(np.asarray(v).dtype)) for v in out_vals)
        for i, (val, aval) in enumerate(zip(arrays, result_avals)):
            if val.shape != aval.shape:
                raise RuntimeError(f"Incorrect output shape for return value #{i}: Expected: {aval.shape}, Actual: {val.shape}")
            if val.dtype != aval.dtype:
                raise RuntimeError(f"Incorrect output dtype for return value #{i}: Expected: {aval.dtype}, Actual: {val.dtype}")
        return arrays

    return wrapped


def _layout(ndim: int) -> ir.Attribute:
    # Row-major: minor-to-major is the dimensions reversed.
    layout = np.array(list(reversed(range(ndim))), np.int64)
    index = ir.IndexType.get()
    return ir.DenseElementsAttr.get(layout, type=index, shape=[ndim]) if ndim else ir.DenseElementsAttr.get(
        np.zeros((0,), np.int64), type=index
    )


def emit_python_callback(
    ctx: LoweringRuleContext,
    callback: Callable[..., Sequence[Any]],
    token: ir.Value[ir.Type] | None,
    operands: Sequence[ir.Value[ir.Type]],
    operand_avals: Sequence[ShapedArray],
    result_avals: Sequence[ShapedArray],
    *,
    has_side_effect: bool,
) -> tuple[list[ir.Value[ir.Type]], ir.Value[ir.Type] | None]:
    """Emits a call of ``callback`` on ``operands``; returns its results and, when ``token`` is
    given (an ordered effect), the token that comes after it."""
    host = checked_results(callback, result_avals)
    if token is not None:
        untokened = host

        def host(tok: Any, *args: Any) -> tuple[Any, ...]:
            return (tok, *untokened(*args))

    index = ctx.add_host_callback(host)
    token_layout = _layout(0)
    ins = [*([token] if token is not None else []), *operands]
    in_layouts = [*([token_layout] if token is not None else []), *(_layout(a.ndim) for a in operand_avals)]
    result_types = [*([hlo_util.token_type()] if token is not None else []), *(value_ir_type(a) for a in result_avals)]
    out_layouts = [*([token_layout] if token is not None else []), *(_layout(a.ndim) for a in result_avals)]
    attributes: dict[str, ir.Attribute] = {
        "call_target_name": ir.StringAttr.get(CPU_CALLBACK_TARGET),
        "backend_config": ir.StringAttr.get(""),
        "operand_layouts": ir.ArrayAttr.get(in_layouts),
        "result_layouts": ir.ArrayAttr.get(out_layouts),
    }
    if has_side_effect:
        attributes["has_side_effect"] = ir.BoolAttr.get(True)
    op: Any = hlo.CustomCallOp.build_generic(results=result_types, operands=ins, attributes=attributes)
    op.operation.attributes["mhlo.backend_config"] = ir.DictAttr.get(
        {"index": ir.IntegerAttr.get(ir.IntegerType.get_unsigned(64), index)}
    )
    results: list[ir.Value[ir.Type]] = list(op.results)
    if token is not None:
        return results[1:], results[0]
    return results, None
