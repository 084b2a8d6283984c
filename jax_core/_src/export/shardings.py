"""The shardings of an exported function's arguments and results, moved to the mesh of a call."""

from __future__ import annotations

from jax_core._src.sharding.mesh import AbstractMesh, Mesh
from jax_core._src.sharding.shardings import NamedSharding


def on_mesh(sharding: NamedSharding | None, mesh: Mesh | AbstractMesh | None) -> NamedSharding | None:
    """``sharding`` with its mesh replaced by ``mesh`` (same axis names and sizes; ``None``:
    unchanged); ``ValueError`` (JAX's message) when the meshes differ."""
    if sharding is None or mesh is None:
        return sharding
    if mesh.shape_tuple != sharding.mesh.shape_tuple:
        raise ValueError(f"NamedSharding new mesh {mesh} does not match the mesh used for export {sharding.mesh.abstract_mesh}.")
    if not isinstance(mesh, Mesh):
        raise NotImplementedError(
            "jax_core's NamedSharding needs a concrete Mesh: pass the Mesh of devices the exported function will run on."
        )
    return NamedSharding(mesh, sharding.spec, memory_kind=sharding.memory_kind)
