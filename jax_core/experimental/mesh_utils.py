"""``jax.experimental.mesh_utils``: arranging devices into arrays for ``jax_core.sharding.Mesh``.

Example::

    import jax_core as jax
    from jax_core.experimental import mesh_utils
    from jax_core.sharding import Mesh

    mesh = Mesh(mesh_utils.create_device_mesh((2, 4)), ("x", "y"))
"""

from jax_core._src.sharding.device_mesh import create_device_mesh as create_device_mesh
from jax_core._src.sharding.device_mesh import (
    create_hybrid_device_mesh as create_hybrid_device_mesh,
)
from jax_core._src.sharding.device_mesh import device_kind_handler_dict as device_kind_handler_dict

__all__ = ["create_device_mesh", "create_hybrid_device_mesh", "device_kind_handler_dict"]
