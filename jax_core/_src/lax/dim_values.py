"""``dimension_as_value``: a symbolic dimension used as a value (``x * x.shape[0]``).

Under shape polymorphism a dimension such as ``b`` or ``2*b`` is known only when the exported
module runs. Used where a value is expected (``jnp`` arithmetic, ``jnp.asarray``), it becomes
``dim_as_value_p``, an operation without operands whose result, a scalar of the dimension dtype
(``int32``, or ``int64`` with x64), the lowering computes from the module's dimension variables,
as JAX's ``dim_as_value`` does.
"""

from __future__ import annotations

from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.shape_poly import DimSize, is_symbolic_dim, register_dimension_as_value
from jax_core._src.lax.standard_rules import no_batch, no_jvp
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, module_context
from jax_core._src.typing.basearray import Array


def dimension_as_value(d: DimSize) -> Array | int:
    """A dimension as a value: a constant stays an ``int``; a symbolic one is a traced scalar."""
    if not is_symbolic_dim(d):
        return int(d)
    out: Array = dim_as_value_p.bind(dim=d)
    return out


dim_as_value_p: Primitive = Primitive("dim_as_value")


def _abstract_eval(*, dim: DimSize) -> ShapedArray:
    return ShapedArray((), dynamic_shapes.dim_dtype(), weak_type=True)


def _lower(ctx: LoweringRuleContext, *, dim: DimSize) -> ir.Value[Any]:
    values = module_context().dim_var_values
    if values is None:
        raise ValueError(f"The symbolic dimension '{dim}' is used as a value outside a shape-polymorphic export.")
    return dynamic_shapes.dim_value(dim, values)


dim_as_value_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        # No operands: transformations never see it with a tracer input.
        jvp=no_jvp("dim_as_value"),
        batch=no_batch("dim_as_value"),
    )
)
register_dimension_as_value(dimension_as_value)
