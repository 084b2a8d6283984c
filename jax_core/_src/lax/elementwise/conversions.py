"""Dtype conversions: ``convert_element_type`` (with the weak-type flag) and ``to_dtype``,
``reduce_precision`` and ``bitcast_convert_type``.
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import array_ops
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    is_undefined_primal,
    is_zero,
    tangent_aval,
    tangent_dtype,
    zero_jvp,
)
from jax_core._src.interpreters.batching_util import (
    moveaxis,
    vectorized_batcher,
)
from jax_core._src.lax.standard_rules import (
    bind_one,
    is_real_float,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

_PY_SCALARS = (bool, int, float, builtins.complex)
_PY_SCALAR_FOR_KIND: dict[str, type[Any]] = {
    "b": bool,
    "i": int,
    "u": int,
    "f": float,
    "c": builtins.complex,
}


# -- convert_element_type ----------------------------------------------------------------------
def to_dtype(operand: ArrayLike, new_dtype: DTypeLike | None, weak_type: bool = False) -> ArrayLike:
    """Converts ``operand`` to ``new_dtype`` (the operand's own if ``None``) and ``weak_type``.

    Python and NumPy constants are converted on the host where possible (so under a trace
    they stay jaxpr literals); other operands go through ``convert_element_type``.
    """
    if isinstance(operand, _PY_SCALARS) or isinstance(operand, (np.ndarray, np.generic)):
        dtype = (
            dtypes.canonicalize_dtype(new_dtype)
            if new_dtype is not None
            else dtypes.dtype(operand, canonicalize=True)
        )
        if isinstance(operand, _PY_SCALARS):
            py_type = _PY_SCALAR_FOR_KIND.get(dtype.kind)
            if (
                weak_type
                and py_type is not None
                and dtypes.dtype(py_type(0), canonicalize=True) == dtype
            ):
                scalar: bool | int | float | builtins.complex = py_type(
                    operand.real
                    if isinstance(operand, builtins.complex) and py_type is not builtins.complex
                    else operand
                )
                return scalar
        if not weak_type:
            # A NumPy array is cast by NumPy, as JAX's convert_element_type does (out-of-range
            # floats to integers then give what NumPy gives on this machine); scalars as XLA would.
            host = np.asarray(operand)
            cast = host.astype(dtype) if isinstance(operand, np.ndarray) else _host_cast(host, dtype)
            return cast[()] if np.ndim(operand) == 0 else cast
    aval = get_aval(operand)
    dtype = aval.dtype if new_dtype is None else dtypes.canonicalize_dtype(new_dtype)
    if isinstance(operand, Array) and aval.dtype == dtype and aval.weak_type == weak_type:
        return operand
    return bind_one(convert_element_type_p, operand, new_dtype=dtype, weak_type=bool(weak_type))


def _host_cast(x: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """NumPy's ``astype`` with XLA's float-to-integer semantics, as a device conversion gives: the
    value truncated and saturated to the integer type's range, NaN to 0 (NumPy's cast wraps)."""
    if x.dtype.kind not in "fcV" or dtype.kind not in "iu":
        return x.astype(dtype)
    real = np.real(x).astype(np.float64)
    info = np.iinfo(dtype)
    with np.errstate(invalid="ignore"):
        clipped = np.clip(np.trunc(np.nan_to_num(real, nan=0.0)), info.min, info.max)
        out = clipped.astype(dtype)
    # float64 cannot hold int64/uint64's maximum: the saturated value is rounded up past it
    top = clipped >= float(info.max)
    return np.where(top, dtype.type(info.max), out) if top.any() else out


def convert_element_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """Converts ``operand`` to ``new_dtype`` elementwise (like a C cast; to bool compares with 0)."""
    out = to_dtype(operand, new_dtype, False)
    return (
        out
        if isinstance(out, Array)
        else bind_one(
            convert_element_type_p,
            out,
            new_dtype=dtypes.canonicalize_dtype(new_dtype),
            weak_type=False,
        )
    )


def _convert_element_type_abstract_eval(
    x: ShapedArray, *, new_dtype: np.dtype[Any], weak_type: bool
) -> ShapedArray:
    return ShapedArray(x.shape, new_dtype, weak_type)


def _convert_element_type_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, new_dtype: np.dtype[Any], weak_type: bool
) -> ir.Value[Any]:
    return hlo_util.convert(x, ctx.avals_in[0], ctx.avals_out[0])


def _convert_element_type_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, new_dtype: np.dtype[Any], weak_type: bool
) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type)
    new_tangent_dtype = tangent_dtype(new_dtype)
    # Conversions to integers/bools (and from them: their tangent is float0) have zero tangents.
    if is_zero(t) or new_tangent_dtype == dtypes.float0 or get_aval(t).dtype == dtypes.float0:
        return out, Zero.from_primal_value(out)
    return out, convert_element_type_p.bind(t, new_dtype=new_tangent_dtype, weak_type=weak_type)


def _convert_element_type_transpose(
    ct: Any, x: UndefinedPrimal, *, new_dtype: np.dtype[Any], weak_type: bool
) -> list[Any]:
    """Converts the cotangent back to the operand's dtype (complex to real keeps the real part)."""
    old = x.aval
    if tangent_dtype(old.dtype) == dtypes.float0:
        return [Zero(tangent_aval(old))]
    return [convert_element_type_p.bind(ct, new_dtype=old.dtype, weak_type=old.weak_type)]


def _convert_element_type_forward(
    x: ShapedArray, *, new_dtype: np.dtype[Any], weak_type: bool
) -> list[int | None]:
    """Staging: a conversion to the operand's own type is the operand (JAX's forwarding rule)."""
    same = x.dtype == new_dtype and x.weak_type == weak_type and not dtypes.is_extended_dtype(new_dtype)
    return [0 if same else None]


def _convert_element_type_fold(
    consts: Sequence[Any], avals_out: Sequence[ShapedArray], *, new_dtype: np.dtype[Any], weak_type: bool
) -> list[Any] | None:
    """Staging: a scalar literal is converted now, so the result is a literal too (JAX's
    ``_convert_elt_type_folding_rule``)."""
    (c,), (out,) = consts, avals_out
    if c is None or out.shape or dtypes.is_extended_dtype(new_dtype):
        return None
    value = np.asarray(c)
    if dtypes.issubdtype(value.dtype, np.complexfloating) and not dtypes.issubdtype(new_dtype, np.complexfloating):
        value = value.real
    return [value.astype(new_dtype)[()]]


convert_element_type_p: Primitive = Primitive("convert_element_type")
convert_element_type_p.def_rules(
    Rules(
        abstract_eval=_convert_element_type_abstract_eval,
        lower=_convert_element_type_lower,
        jvp=_convert_element_type_jvp,
        transpose=_convert_element_type_transpose,
        batch=vectorized_batcher(convert_element_type_p),
        forward=_convert_element_type_forward,
        const_fold=_convert_element_type_fold,
    )
)


# -- reduce_precision -----------------------------------------------------------------------------
def reduce_precision(operand: float | ArrayLike, exponent_bits: int, mantissa_bits: int) -> Array:
    """Rounds ``operand`` to a float format with ``exponent_bits`` and ``mantissa_bits`` (XLA's
    ReducePrecision), keeping its dtype."""
    out: Array = reduce_precision_p.bind(
        operand,
        exponent_bits=operator.index(exponent_bits),
        mantissa_bits=operator.index(mantissa_bits),
    )
    return out


_reduce_precision_dtypes = unop_abstract_eval("reduce_precision", is_real_float)


def _reduce_precision_abstract_eval(
    x: ShapedArray, *, exponent_bits: int, mantissa_bits: int
) -> ShapedArray:
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {exponent_bits}")
    if mantissa_bits < 0:
        raise ValueError(
            f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}"
        )
    return _reduce_precision_dtypes(x)


def _reduce_precision_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, exponent_bits: int, mantissa_bits: int
) -> ir.Value[Any]:
    i32 = ir.IntegerType.get_signless(32)
    out: ir.Value[Any] = hlo.reduce_precision(
        x, ir.IntegerAttr.get(i32, exponent_bits), ir.IntegerAttr.get(i32, mantissa_bits)
    )
    return out


def _reduce_precision_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], **params: Any
) -> tuple[Any, Any]:
    out = reduce_precision_p.bind(*primals, **params)
    (t,) = tangents
    return out, t if isinstance(t, Zero) else reduce_precision_p.bind(t, **params)


def _reduce_precision_transpose(ct: Any, x: Any, **params: Any) -> list[Any]:
    assert is_undefined_primal(x)
    return [reduce_precision_p.bind(instantiate_zeros(ct), **params)]


reduce_precision_p: Primitive = Primitive("reduce_precision")
reduce_precision_p.def_rules(
    Rules(
        abstract_eval=_reduce_precision_abstract_eval,
        lower=_reduce_precision_lower,
        jvp=_reduce_precision_jvp,
        transpose=_reduce_precision_transpose,
        batch=vectorized_batcher(reduce_precision_p),
    )
)


# -- bitcast_convert_type ----------------------------------------------------------------------
def bitcast_convert_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """The bits of ``operand`` reinterpreted as ``new_dtype`` (as ``lax.bitcast_convert_type``)."""
    out: Array = bitcast_convert_type_p.bind(
        operand, new_dtype=dtypes.canonicalize_dtype(new_dtype)
    )
    return out


def _bits(dt: np.dtype[Any]) -> int:
    return dtypes.itemsize_bits(dt)


def _bitcast_abstract_eval(x: ShapedArray, *, new_dtype: np.dtype[Any]) -> ShapedArray:
    old, new = _bits(x.dtype), _bits(new_dtype)
    # JAX checks the shape (ValueError) before the dtypes (TypeError)
    if old == new:
        shape = x.shape
    elif old > new:
        shape = (*x.shape, old // new)
    else:
        last = x.shape[-1] if x.shape else 1
        if last * old != new:
            raise ValueError(
                f"Attempting to convert array of shape {x.shape} from {x.dtype} of size {old} bits "
                f"to {new_dtype} of size {new}, bits but {last} * {old} != {new}"
            )
        shape = x.shape[:-1]
    special = (np.bool_, np.complexfloating)
    if any(dtypes.issubdtype(d, k) for d in (x.dtype, new_dtype) for k in special) and x.dtype != new_dtype:
        raise TypeError(
            "lax.bitcast_convert_type does not support bool or complex values unless the operand "
            f"and destination types match. Got operand dtype={x.dtype}, new_dtype={new_dtype!r}. "
            "Consider using the arr.view() method instead."
        )
    return ShapedArray(shape, new_dtype)


def _bitcast_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, new_dtype: np.dtype[Any]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.bitcast_convert(aval_to_ir_type(ctx.avals_out[0]), x)
    return out


def _bitcast_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, new_dtype: np.dtype[Any]
) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    if d is None:
        return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), None
    # The trailing dimension may change: keep the batch axis in front.
    x = moveaxis(x, d, 0)
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), 0


bitcast_convert_type_p: Primitive = Primitive("bitcast_convert_type")
bitcast_convert_type_p.def_rules(
    Rules(
        abstract_eval=_bitcast_abstract_eval,
        lower=_bitcast_lower,
        jvp=zero_jvp(bitcast_convert_type_p),
        batch=_bitcast_batch,
    )
)


# The interpreters (autodiff, batching) build values with this; see interpreters/array_ops.py.
array_ops.register("to_dtype", to_dtype)
