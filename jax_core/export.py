"""``jax.export``: exporting jitted functions to portable StableHLO artifacts, serializing them in
JAX's flatbuffer format, and calling them (see docs/export.md).

Not provided (JAX 0.12 has them): shape polymorphism (``symbolic_shape``, ``symbolic_args_specs``,
``is_symbolic_dim``, ``symbolic_dim_bounds``, ``SymbolicScope``), a separate issue.
"""

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
    "default_export_platform",
    "deserialize",
    "export",
    "maximum_supported_calling_convention_version",
    "minimum_supported_calling_convention_version",
    "register_namedtuple_serialization",
    "register_pytree_node_serialization",
]
