"""``convert_element_type``: dtype conversion, including the weak-type flag."""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext


def _convert_element_type_abstract_eval(x: ShapedArray, *, new_dtype: np.dtype[Any], weak_type: bool) -> ShapedArray:
    return ShapedArray(x.shape, new_dtype, weak_type)


def _convert_element_type_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, new_dtype: np.dtype[Any], weak_type: bool
) -> ir.Value[Any]:
    return hlo_util.convert(x, ctx.avals_in[0], ctx.avals_out[0])


convert_element_type_p = Primitive("convert_element_type")
convert_element_type_p.def_rules(
    Rules(abstract_eval=_convert_element_type_abstract_eval, lower=_convert_element_type_lower)
)
