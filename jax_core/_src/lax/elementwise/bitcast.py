"""``bitcast_convert_type``: reinterprets the bits of each element as another dtype.

Same-width dtypes keep the shape; a narrower target adds a trailing dimension
(``float32 -> uint8`` gives ``(..., 4)``) and a wider one removes it, as in JAX.
Not differentiable (zero tangents); batching applies the primitive as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import zero_jvp
from jax_core._src.interpreters.batching_util import moveaxis
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


def bitcast_convert_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """The bits of ``operand`` reinterpreted as ``new_dtype`` (as ``lax.bitcast_convert_type``)."""
    out: Array = bitcast_convert_type_p.bind(operand, new_dtype=dtypes.canonicalize_dtype(new_dtype))
    return out


def _bits(dt: np.dtype[Any]) -> int:
    return dtypes.itemsize_bits(dt)


def _abstract_eval(x: ShapedArray, *, new_dtype: np.dtype[Any]) -> ShapedArray:
    old, new = _bits(x.dtype), _bits(new_dtype)
    if (x.dtype == np.bool_) != (new_dtype == np.bool_):
        raise TypeError("`bool` dtypes cannot be bitcast to or from other dtypes.")
    if x.dtype.kind == "c" or new_dtype.kind == "c":
        raise TypeError("bitcast_convert_type does not support complex dtypes.")
    if old == new:
        return ShapedArray(x.shape, new_dtype)
    if old > new:
        if old % new:
            raise TypeError(f"Attempting to convert array of type {x.dtype} to {new_dtype}: bit widths must divide.")
        return ShapedArray((*x.shape, old // new), new_dtype)
    if not x.shape or x.shape[-1] != new // old:
        raise TypeError(
            f"Attempting to convert array of shape {x.shape} from a type of size {old} to a type of size {new}. "
            f"The last dimension of the array must be {new // old}."
        )
    return ShapedArray(x.shape[:-1], new_dtype)


def _lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, new_dtype: np.dtype[Any]) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.bitcast_convert(aval_to_ir_type(ctx.avals_out[0]), x)
    return out


def _batch(args: Sequence[Any], dims: Sequence[int | None], *, new_dtype: np.dtype[Any]) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    if d is None:
        return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), None
    # The trailing dimension may change: keep the batch axis in front.
    x = moveaxis(x, d, 0)
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), 0


bitcast_convert_type_p = Primitive("bitcast_convert_type")
bitcast_convert_type_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        jvp=zero_jvp(bitcast_convert_type_p),
        batch=_batch,
    )
)
