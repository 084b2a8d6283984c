"""Shardings: how arrays are laid out across devices (``jax.sharding``).

Example::

    import numpy as np
    import jax_core as jax
    from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P

    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
    x = jax.device_put(np.arange(64.0).reshape(8, 8), NamedSharding(mesh, P("x", "y")))
    x.sharding.shard_shape(x.shape)  # (4, 2)

    with jax.sharding.set_mesh(mesh):
        jax.sharding.get_abstract_mesh()  # AbstractMesh('x': 2, 'y': 4, ...)
"""

from jax_core._src.lax.sharding_ops import reshard as reshard
from jax_core._src.sharding.mesh import AbstractDevice as AbstractDevice
from jax_core._src.sharding.mesh import AbstractMesh as AbstractMesh
from jax_core._src.sharding.mesh_context import get_abstract_mesh as get_abstract_mesh
from jax_core._src.sharding.mesh_context import get_mesh as get_mesh
from jax_core._src.sharding.mesh_context import set_mesh as set_mesh
from jax_core._src.sharding.mesh_context import use_abstract_mesh as use_abstract_mesh
from jax_core._src.sharding.shardings import AxisType as AxisType
from jax_core._src.sharding.shardings import Mesh as Mesh
from jax_core._src.sharding.shardings import NamedSharding as NamedSharding
from jax_core._src.sharding.shardings import PartitionSpec as PartitionSpec
from jax_core._src.sharding.shardings import Sharding as Sharding
from jax_core._src.sharding.shardings import SingleDeviceSharding as SingleDeviceSharding

__all__ = [
    "AbstractDevice",
    "AbstractMesh",
    "AxisType",
    "Mesh",
    "NamedSharding",
    "PartitionSpec",
    "Sharding",
    "SingleDeviceSharding",
    "get_abstract_mesh",
    "get_mesh",
    "reshard",
    "set_mesh",
    "use_abstract_mesh",
]
