"""``convert_element_type``: dtype conversion, including the weak-type flag."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    is_undefined_primal,
    is_zero,
    tangent_aval,
    tangent_dtype,
)
from jax_core._src.interpreters.batching_util import (
    vectorized_batcher,
)
from jax_core._src.lax.standard_rules import (
    is_real_float,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def _convert_element_type_abstract_eval(x: ShapedArray, *, new_dtype: np.dtype[Any], weak_type: bool) -> ShapedArray:
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


convert_element_type_p = Primitive("convert_element_type")
convert_element_type_p.def_rules(
    Rules(
        abstract_eval=_convert_element_type_abstract_eval,
        lower=_convert_element_type_lower,
        jvp=_convert_element_type_jvp,
        transpose=_convert_element_type_transpose,
        batch=vectorized_batcher(convert_element_type_p),
    )
)


# -- reduce_precision -----------------------------------------------------------------------------
def reduce_precision(operand: float | ArrayLike, exponent_bits: int, mantissa_bits: int) -> Array:
    """Rounds ``operand`` to a float format with ``exponent_bits`` and ``mantissa_bits`` (XLA's
    ReducePrecision), keeping its dtype."""
    out: Array = reduce_precision_p.bind(
        operand, exponent_bits=operator.index(exponent_bits), mantissa_bits=operator.index(mantissa_bits)
    )
    return out


_reduce_precision_dtypes = unop_abstract_eval("reduce_precision", is_real_float)


def _reduce_precision_abstract_eval(x: ShapedArray, *, exponent_bits: int, mantissa_bits: int) -> ShapedArray:
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {exponent_bits}")
    if mantissa_bits < 0:
        raise ValueError(f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}")
    return _reduce_precision_dtypes(x)


def _reduce_precision_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, exponent_bits: int, mantissa_bits: int) -> ir.Value[Any]:
    i32 = ir.IntegerType.get_signless(32)
    out: ir.Value[Any] = hlo.reduce_precision(x, ir.IntegerAttr.get(i32, exponent_bits), ir.IntegerAttr.get(i32, mantissa_bits))
    return out


def _reduce_precision_jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    out = reduce_precision_p.bind(*primals, **params)
    (t,) = tangents
    return out, t if isinstance(t, Zero) else reduce_precision_p.bind(t, **params)


def _reduce_precision_transpose(ct: Any, x: Any, **params: Any) -> list[Any]:
    assert is_undefined_primal(x)
    return [reduce_precision_p.bind(instantiate_zeros(ct), **params)]


reduce_precision_p = Primitive("reduce_precision")
reduce_precision_p.def_rules(
    Rules(
        abstract_eval=_reduce_precision_abstract_eval,
        lower=_reduce_precision_lower,
        jvp=_reduce_precision_jvp,
        transpose=_reduce_precision_transpose,
        batch=vectorized_batcher(reduce_precision_p),
    )
)
