"""MLIR types for dtypes and avals; the MLIR context every lowering runs in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.once import once
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.tokens import AbstractToken
from jax_core._src.lib.mlir import chlo, hlo, ir, mhlo, register_dialects, sdy


@once
def _dialect_registry() -> ir.DialectRegistry:
    registry = ir.DialectRegistry()
    register_dialects(registry)
    return registry


def make_ir_context() -> ir.Context:
    """A fresh MLIR context with the dialects StableHLO lowering needs.

    Only those dialects are loaded (loading every registered dialect costs ~1.5 ms
    per lowering); the registry is built once.
    """
    ctx = ir.Context()
    ctx.append_dialect_registry(_dialect_registry())
    hlo.register_dialect(ctx)
    chlo.register_dialect(ctx)
    sdy.register_dialect(ctx)
    mhlo.register_mhlo_dialect(ctx)
    ctx.dialects["func"]
    return ctx


def _float_types() -> dict[np.dtype[Any], Callable[[], ir.Type]]:
    return {
        np.dtype(np.float16): ir.F16Type.get,
        np.dtype(np.float32): ir.F32Type.get,
        np.dtype(np.float64): ir.F64Type.get,
        np.dtype(ml_dtypes.bfloat16): ir.BF16Type.get,
        np.dtype(ml_dtypes.float8_e4m3fn): ir.Float8E4M3FNType.get,
        np.dtype(ml_dtypes.float8_e5m2): ir.Float8E5M2Type.get,
        np.dtype(ml_dtypes.float8_e3m4): ir.Float8E3M4Type.get,
        np.dtype(ml_dtypes.float8_e4m3): ir.Float8E4M3Type.get,
        np.dtype(ml_dtypes.float8_e4m3b11fnuz): ir.Float8E4M3B11FNUZType.get,
        np.dtype(ml_dtypes.float8_e4m3fnuz): ir.Float8E4M3FNUZType.get,
        np.dtype(ml_dtypes.float8_e5m2fnuz): ir.Float8E5M2FNUZType.get,
        np.dtype(ml_dtypes.float8_e8m0fnu): ir.Float8E8M0FNUType.get,
        np.dtype(ml_dtypes.float6_e2m3fn): ir.Float6E2M3FNType.get,
        np.dtype(ml_dtypes.float6_e3m2fn): ir.Float6E3M2FNType.get,
        np.dtype(ml_dtypes.float4_e2m1fn): ir.Float4E2M1FNType.get,
    }


_SUB_BYTE_INTS: dict[np.dtype[Any], tuple[int, bool]] = {
    np.dtype(t): (bits, signed)
    # uint1 is left out: XLA rejects ui1 tensors (JAX crashes inside XLA; we raise NotImplementedError).
    for name, bits, signed in (("int1", 1, True), ("int2", 2, True), ("int4", 4, True), ("uint2", 2, False), ("uint4", 4, False))
    if (t := getattr(ml_dtypes, name, None)) is not None
}


def dtype_to_ir_type(dtype: np.dtype[Any]) -> ir.Type:
    """The MLIR element type of a dtype (must be called inside a context); ``float0`` (the
    tangent of integers, which holds no data) is ``i1``, as in JAX."""
    if dtype == np.bool_ or dtype == dtypes.float0:
        return ir.IntegerType.get_signless(1)
    if dtype.kind == "i":
        return ir.IntegerType.get_signless(dtype.itemsize * 8)
    if dtype.kind == "u":
        return ir.IntegerType.get_unsigned(dtype.itemsize * 8)
    sub_byte = _SUB_BYTE_INTS.get(dtype)
    if sub_byte is not None:
        bits, signed = sub_byte
        return ir.IntegerType.get_signless(bits) if signed else ir.IntegerType.get_unsigned(bits)
    if dtype.kind == "c":
        part = np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64)
        return ir.ComplexType.get(dtype_to_ir_type(part))
    make = _float_types().get(dtype)
    if make is None:
        raise NotImplementedError(f"dtype {dtype} is not supported by jax_core's lowering yet")
    return make()


def aval_to_ir_type(aval: ShapedArray) -> ir.RankedTensorType:
    """The tensor type of an aval (an extended dtype's, e.g. a PRNG key's, is its data's)."""
    if dtypes.is_extended_dtype(aval.dtype):
        aval = aval.dtype._rules.physical_aval(aval)  # pyright: ignore[reportPrivateUsage]
    dynamic = ir.ShapedType.get_dynamic_size()
    dims = [dynamic if is_symbolic_dim(d) else d for d in aval.shape]  # a symbolic dimension is dynamic
    return ir.RankedTensorType.get(dims, dtype_to_ir_type(aval.dtype))


def value_ir_type(aval: ShapedArray) -> ir.Type:
    """The IR type of a value of ``aval`` at a function boundary: ``!stablehlo.token`` for the
    token aval, the tensor type of ``aval_to_ir_type`` otherwise."""
    if isinstance(aval, AbstractToken):
        token_type: ir.Type = hlo.TokenType.get()
        return token_type
    return aval_to_ir_type(aval)
