"""JAX 0.12's ``jax.extend.mlir`` (StableHLO portable artifacts) and, as the ``jax.extend`` design
asks, the lowering-rule API of ``jax_core.interpreters.mlir``.

Left out of JAX 0.12's names: ``lower_with_sharding_in_types`` (jax_core has no
sharding-in-types lowering mode).
"""

from jax_core._src.lib.mlir import deserialize_portable_artifact as deserialize_portable_artifact
from jax_core._src.lib.mlir import hlo_to_stablehlo as hlo_to_stablehlo
from jax_core._src.lib.mlir import refine_polymorphic_shapes as refine_polymorphic_shapes
from jax_core._src.lib.mlir import serialize_portable_artifact as serialize_portable_artifact
from jax_core.interpreters.mlir import LoweringRule as LoweringRule
from jax_core.interpreters.mlir import LoweringRuleContext as LoweringRuleContext
from jax_core.interpreters.mlir import aval_to_ir_type as aval_to_ir_type
from jax_core.interpreters.mlir import hlo as hlo
from jax_core.interpreters.mlir import ir as ir
from jax_core.interpreters.mlir import ir_constant as ir_constant
from jax_core.interpreters.mlir import lower_fun as lower_fun
from jax_core.interpreters.mlir import register_lowering as register_lowering
