"""LAPACK on CPU through jaxlib's FFI custom-call targets.

jaxlib ships the LAPACK kernels JAX uses (``lapack_spotrf_ffi``, ``lapack_dgesdd_ffi``...);
they are registered with XLA once, on first use, and called with ``stablehlo.custom_call``
exactly as JAX lowers them: column-major operand/result layouts for the matrices, leading
dimensions as batch dimensions, attributes in ``mhlo.backend_config`` and an ``info``
output that is nonzero where LAPACK failed (those results are replaced by NaNs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.once import once
from jax_core._src.lib import lapack as _lapack
from jax_core._src.lib import xla_client
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type

_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d", np.dtype(np.complex64): "c", np.dtype(np.complex128): "z"}


@once
def _register() -> None:
    entries: list[tuple[str, Any, int]] = _lapack.registrations()["cpu"]
    for name, fn, api_version in entries:
        xla_client.register_custom_call_target(name, fn, platform="cpu", api_version=api_version)


def target(fn_base: str, dtype: np.dtype[Any]) -> str:
    """The registered target name of LAPACK routine ``fn_base`` for ``dtype`` (``potrf_ffi`` -> ``lapack_spotrf_ffi``)."""
    _register()
    prefix = _PREFIX.get(np.dtype(dtype))
    if prefix is None:
        raise NotImplementedError(
            f"Unsupported dtype {dtype} for LAPACK operations. Supported dtypes are float32, float64, complex64, complex128. "
            "Please cast the input to a supported type."
        )
    init: Any = getattr(_lapack, "_lapack")
    init.initialize()
    return f"lapack_{prefix}{fn_base}"


def supported(dtype: np.dtype[Any]) -> bool:
    """Whether LAPACK handles ``dtype``."""
    return np.dtype(dtype) in _PREFIX


def char_attr(c: str) -> ir.Attribute:
    """A ``ui8`` attribute holding one character (LAPACK's ``uplo``/``trans``/``mode`` flags)."""
    return ir.IntegerAttr.get(ir.IntegerType.get_unsigned(8), ord(c))


def u8_attr(v: int) -> ir.Attribute:
    """A ``ui8`` attribute."""
    return ir.IntegerAttr.get(ir.IntegerType.get_unsigned(8), int(v))


def _layout(ndim: int, column_major: bool) -> tuple[int, ...]:
    if column_major:
        return (ndim - 2, ndim - 1) + tuple(range(ndim - 3, -1, -1))
    return tuple(range(ndim - 1, -1, -1))


def _index_attr(layout: Sequence[int]) -> ir.Attribute:
    return ir.DenseIntElementsAttr.get(np.atleast_1d(np.asarray(layout, dtype=np.int64)), type=ir.IndexType.get())


def ffi_call(
    name: str,
    operands: Sequence[ir.Value[Any]],
    avals_in: Sequence[ShapedArray],
    avals_out: Sequence[ShapedArray],
    attrs: Mapping[str, ir.Attribute],
    *,
    aliases: Mapping[int, int] | None = None,
    num_non_batch_dims: int = 2,
) -> list[ir.Value[Any]]:
    """One ``stablehlo.custom_call`` of the FFI target ``name`` (matrices column-major)."""
    max_nd = max(a.ndim for a in avals_in)
    op_layouts = [_layout(a.ndim, a.ndim == max_nd) for a in avals_in]
    res_layouts = [_layout(a.ndim, a.ndim == max_nd) for a in avals_out]
    result_types: list[ir.Type] = [aval_to_ir_type(a) for a in avals_out]
    attributes: dict[str, ir.Attribute] = {
        "call_target_name": ir.StringAttr.get(name),
        "has_side_effect": ir.BoolAttr.get(False),
        "backend_config": ir.StringAttr.get(""),
        "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 1),
        "called_computations": ir.ArrayAttr.get([]),
        "operand_layouts": ir.ArrayAttr.get([_index_attr(lay) for lay in op_layouts]),
        "result_layouts": ir.ArrayAttr.get([_index_attr(lay) for lay in res_layouts]),
        "mhlo.frontend_attributes": ir.DictAttr.get({"num_batch_dims": ir.StringAttr.get(str(max_nd - num_non_batch_dims))}),
    }
    if aliases:
        attributes["output_operand_aliases"] = ir.ArrayAttr.get(
            [
                hlo.OutputOperandAlias.get(
                    output_tuple_indices=[out] if len(result_types) > 1 else [], operand_index=inp, operand_tuple_indices=[]
                )
                for inp, out in aliases.items()
            ]
        )
    op: Any = hlo.CustomCallOp.build_generic(results=result_types, operands=list(operands), attributes=attributes)
    op.operation.attributes["mhlo.backend_config"] = ir.DictAttr.get(dict(attrs))
    return list(op.results)


def info_ok(info: ir.Value[Any], batch_dims: tuple[int, ...], direction: str = "EQ") -> ir.Value[Any]:
    """``info == 0`` (or ``>= 0`` with ``direction="GE"``) per batch element."""
    aval = ShapedArray(batch_dims, np.dtype(np.int32))
    zero = hlo_util.broadcast_in_dim(hlo_util.constant(np.zeros((), np.int32)), aval, ())
    return hlo_util.compare(info, zero, direction, np.dtype(np.int32))


def nan_where_not_ok(ok: ir.Value[Any], batch_dims: tuple[int, ...], x: ir.Value[Any], aval: ShapedArray) -> ir.Value[Any]:
    """``x`` with the batch elements whose ``ok`` is false replaced by NaN."""
    pred = hlo_util.broadcast_in_dim(ok, ShapedArray(aval.shape, np.dtype(np.bool_)), range(len(batch_dims)))
    fill = complex(np.nan, np.nan) if np.dtype(aval.dtype).kind == "c" else np.nan
    nan = hlo_util.broadcast_in_dim(hlo_util.constant(np.full((), fill, aval.dtype)), aval, ())
    out: ir.Value[Any] = hlo.select(pred, x, nan)
    return out


def tri_mask(shape: tuple[int, ...], k: int = 0, *, lower: bool = True) -> ir.Value[Any]:
    """A bool mask of ``shape``: true at and below (``lower``) or above the ``k``-th diagonal of the last two dims."""
    i32 = ShapedArray(shape, np.dtype(np.int32))
    rows: ir.Value[Any] = hlo.iota(aval_to_ir_type(i32), len(shape) - 2)
    cols: ir.Value[Any] = hlo.iota(aval_to_ir_type(i32), len(shape) - 1)
    shift = hlo_util.broadcast_in_dim(hlo_util.constant(np.asarray(k, np.int32)), i32, ())
    rows_k: ir.Value[Any] = hlo.add(rows, shift)
    return hlo_util.compare(rows_k, cols, "GE" if lower else "LE", np.dtype(np.int32))
