"""Small StableHLO builders shared by lowering rules (constants, broadcasts, converts)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering.ir_types import aval_to_ir_type, dtype_to_ir_type

_BITCAST_AS_UINT = {
    np.dtype(ml_dtypes.bfloat16): np.dtype(np.uint16),
    **{
        np.dtype(getattr(ml_dtypes, name)): np.dtype(np.uint8)
        for name in (
            "float8_e4m3fn", "float8_e5m2", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fnuz",
            "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn",
        )
    },
}


def _dense_attr(val: np.ndarray[Any, Any]) -> ir.DenseElementsAttr:
    elt = dtype_to_ir_type(val.dtype)
    shape = list(val.shape)
    if val.dtype == np.bool_:
        # jaxlib's bindings take a bool buffer for i1 directly (bit-packed buffers fail for
        # non-uniform arrays).
        return ir.DenseElementsAttr.get(np.ascontiguousarray(val), type=elt, shape=shape)
    as_uint = _BITCAST_AS_UINT.get(val.dtype)
    if as_uint is not None:
        val = np.ascontiguousarray(val).view(as_uint)
    return ir.DenseElementsAttr.get(np.ascontiguousarray(val), type=elt, shape=shape)


def constant(val: Any, dtype: np.dtype[Any] | None = None) -> ir.Value[ir.Type]:
    """A StableHLO constant; a uniform array is a scalar constant broadcast to its shape.

    A value of an extended dtype (a PRNG key array) is the constant of its data.
    """
    ext = getattr(val, "dtype", None)
    if dtypes.is_extended_dtype(ext):
        val = ext._rules.physical_const(val)  # pyright: ignore[reportPrivateUsage]
    arr = np.asarray(val, dtype=dtype)
    if arr.dtype == dtypes.float0:  # no data: the zeros of its ``i1`` type
        arr = np.zeros(arr.shape, np.bool_)
    if arr.ndim > 0 and arr.size > 1:
        first = arr.reshape(-1)[:1]
        if bool(np.all(arr == first[0])) and not np.isnan(first.astype(np.complex128)).any():
            scalar = constant(first.reshape(()))
            return broadcast_in_dim(scalar, ShapedArray(arr.shape, arr.dtype), ())
    out: ir.Value[ir.Type] = hlo.constant(_dense_attr(arr))
    return out


def broadcast_in_dim(
    x: ir.Value[ir.Type], aval_out: ShapedArray, dims: Sequence[int]
) -> ir.Value[ir.Type]:
    """``stablehlo.broadcast_in_dim`` of ``x`` to ``aval_out``'s shape (dynamic for a symbolic one)."""
    return dynamic_shapes.broadcast_in_dim(aval_to_ir_type(aval_out), x, dims, aval_out.shape)


def convert(
    x: ir.Value[ir.Type], aval_in: ShapedArray, aval_out: ShapedArray
) -> ir.Value[ir.Type]:
    """Converts element type; bool targets compare with zero (XLA's convert truncates)."""
    if aval_in.dtype == aval_out.dtype:
        return x
    if aval_out.dtype == np.bool_ and aval_in.dtype != np.bool_:
        zero = broadcast_in_dim(constant(np.zeros((), aval_in.dtype)), aval_in, ())
        direction = "NE"
        return compare(x, zero, direction, aval_in.dtype)
    if np.issubdtype(aval_in.dtype, np.complexfloating) and not np.issubdtype(aval_out.dtype, np.complexfloating):
        x = hlo.real(x)
    out: ir.Value[ir.Type] = hlo.convert(aval_to_ir_type(aval_out), x)
    return out


def compare(
    x: ir.Value[ir.Type], y: ir.Value[ir.Type], direction: str, operand_dtype: np.dtype[Any]
) -> ir.Value[ir.Type]:
    """``stablehlo.compare`` with the comparison type chosen from the operand dtype."""
    if np.issubdtype(operand_dtype, np.inexact) or operand_dtype in _BITCAST_AS_UINT:
        kind = "FLOAT" if not np.issubdtype(operand_dtype, np.complexfloating) else "FLOAT"
    elif operand_dtype == np.bool_ or np.issubdtype(operand_dtype, np.unsignedinteger):
        kind = "UNSIGNED"
    else:
        kind = "SIGNED"
    out: ir.Value[ir.Type] = hlo.compare(
        x,
        y,
        hlo.ComparisonDirectionAttr.get(direction),
        compare_type=hlo.ComparisonTypeAttr.get(kind),
    )
    return out


def i64_list(values: Sequence[int]) -> ir.DenseI64ArrayAttr:
    """A dense i64 array attribute."""
    return ir.DenseI64ArrayAttr.get(list(values))


def token_type() -> ir.Type:
    """XLA's token type (``!stablehlo.token``)."""
    token: ir.Type = hlo.TokenType.get()
    return token


def select_int32(index: ir.Value[ir.Type], values: Sequence[int]) -> ir.Value[ir.Type]:
    """``values[index]`` as an ``i32`` scalar, for a scalar integer ``index`` in range (a
    ``stablehlo.case`` whose branches return constants: how a platform index is mapped)."""
    i32 = ir.RankedTensorType.get([], ir.IntegerType.get_signless(32))
    if ir.RankedTensorType(index.type).element_type != i32.element_type:
        index = hlo.convert(i32, index)
    case = hlo.CaseOp([i32], index, len(values))
    for region, value in zip(case.regions, values, strict=True):
        with ir.InsertionPoint(region.blocks.append()):
            hlo.return_([constant(np.int32(value))])
    result: ir.Value[ir.Type] = case.result
    return result
