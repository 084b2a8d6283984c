"""``jax.export``: exporting jitted functions to portable StableHLO artifacts, serializing them in
JAX's flatbuffer format, and calling them (see docs/export.md); shape polymorphism: exports
whose argument shapes have symbolic dimensions (see docs/shape-polymorphism.md).
"""

from jax_core._src.core.shape_poly import SymbolicScope as SymbolicScope
from jax_core._src.core.shape_poly import is_symbolic_dim as is_symbolic_dim
from jax_core._src.core.shape_poly import symbolic_dim_bounds as symbolic_dim_bounds
from jax_core._src.core.shape_poly import symbolic_shape as symbolic_shape
from jax_core._src.export.symbolic import symbolic_args_specs as symbolic_args_specs

from jax_core._src.export.exported import DisabledSafetyCheck as DisabledSafetyCheck
from jax_core._src.export.exported import Exported as Exported
from jax_core._src.export.exported import (
    maximum_supported_calling_convention_version as maximum_supported_calling_convention_version,
)
from jax_core._src.export.exported import (
    minimum_supported_calling_convention_version as minimum_supported_calling_convention_version,
)
from jax_core._src.export.export import default_export_platform as default_export_platform
from jax_core._src.export.export import export as export
from jax_core._src.export.pytree_serialization import (
    register_namedtuple_serialization as register_namedtuple_serialization,
)
from jax_core._src.export.pytree_serialization import (
    register_pytree_node_serialization as register_pytree_node_serialization,
)
from jax_core._src.export.serialization import deserialize as deserialize

__all__ = [
    "DisabledSafetyCheck",
    "Exported",
    "SymbolicScope",
    "default_export_platform",
    "deserialize",
    "export",
    "is_symbolic_dim",
    "maximum_supported_calling_convention_version",
    "minimum_supported_calling_convention_version",
    "register_namedtuple_serialization",
    "register_pytree_node_serialization",
    "symbolic_args_specs",
    "symbolic_dim_bounds",
    "symbolic_shape",
]
