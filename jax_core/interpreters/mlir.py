"""JAX's ``jax.interpreters.mlir``: lowering rules (``Rules.lower``) and the MLIR helpers they are
written with. ``hlo`` (the StableHLO dialect's op builders) is here too, as the ``jax.extend``
design's example uses it.

Left out of JAX 0.12's names: module-level lowering internals (``lower_jaxpr_to_module``,
``lower_jaxpr_to_fun``, ``jaxpr_subcomp``, ``LoweringParameters``, ``LoweringResult``,
``AxisContext``/``ShardingContext``/``SPMDAxisContext``, ``ShapePolyLoweringState``,
``TokenSet``, ``merge_mlir_modules``, ``core_call_lowering``), constant handlers
(``register_constant_handler``, ``ConstantHandler``, ``ir_type_handlers``, ``ir_tree_registry``),
``emit_python_callback`` (use ``jax_core.pure_callback``), ``shape_tensor`` (shape polymorphism),
the host-transfer channel types ``DEVICE_TO_DEVICE_TYPE``/``SEND_TO_HOST_TYPE``/``RECV_FROM_HOST_TYPE``,
``lowerable_effects`` (every effect jax_core knows lowers) and ``Mesh``/``MeshAxisName``/``Token``.
"""

from typing import TYPE_CHECKING, TypeAlias

from jax_core._src.extend.lowering_rules import IrValues as IrValues
from jax_core._src.extend.lowering_rules import LoweringRule as LoweringRule
from jax_core._src.extend.lowering_rules import aval_to_ir_type as aval_to_ir_type
from jax_core._src.extend.lowering_rules import aval_to_ir_types as aval_to_ir_types
from jax_core._src.extend.lowering_rules import dense_int_array as dense_int_array
from jax_core._src.extend.lowering_rules import dense_int_elements as dense_int_elements
from jax_core._src.extend.lowering_rules import dtype_to_ir_type as dtype_to_ir_type
from jax_core._src.extend.lowering_rules import flatten_ir_types as flatten_ir_types
from jax_core._src.extend.lowering_rules import flatten_ir_values as flatten_ir_values
from jax_core._src.extend.lowering_rules import hlo as hlo
from jax_core._src.extend.lowering_rules import i32_attr as i32_attr
from jax_core._src.extend.lowering_rules import i64_attr as i64_attr
from jax_core._src.extend.lowering_rules import ir_constant as ir_constant
from jax_core._src.extend.lowering_rules import ir_constants as ir_constants
from jax_core._src.extend.lowering_rules import lower_fun as lower_fun
from jax_core._src.extend.lowering_rules import make_ir_context as make_ir_context
from jax_core._src.extend.lowering_rules import module_to_bytecode as module_to_bytecode
from jax_core._src.extend.lowering_rules import module_to_string as module_to_string
from jax_core._src.extend.lowering_rules import register_lowering as register_lowering
from jax_core._src.extend.lowering_rules import token_type as token_type
from jax_core._src.extend.lowering_rules import unflatten_ir_values_like_types as unflatten_ir_values_like_types
from jax_core._src.ffi.attributes import ir_attribute as ir_attribute
from jax_core._src.lib.mlir import ir as ir
from jax_core._src.lowering.custom_call import custom_call as custom_call
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext as LoweringRuleContext
from jax_core._src.lowering.lower_jaxpr import ModuleContext as ModuleContext

if TYPE_CHECKING:
    Value: TypeAlias = ir.Value[ir.Type]
    """An MLIR SSA value (what lowering rules take and return)."""
else:
    Value = ir.Value
