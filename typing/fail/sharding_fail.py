"""shard_map keeps the mapped function's signature, so its callers are checked (JAX issue
#35101); meshes, partition specs and shardings check their arguments."""

from functools import partial

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.experimental.shard_map import shard_map as legacy_shard_map
from jax_core.sharding import Mesh, NamedSharding
from jax_core.sharding import PartitionSpec as P

mesh = jax.make_mesh((1,), ("i",))
x = jnp.ones(4)


def dot(x: Array, y: Array) -> Array:
    return lax.psum(jnp.sum(x * y), "i")


def scale(x: Array, n: int) -> Array:
    return x * n


sm = jax.shard_map(dot, mesh=mesh, in_specs=(P("i"), P("i")), out_specs=P())
sm(x, "y")  # E: "Array"
sm(x)  # E[mypy]: Too few arguments  # E[pyright]: "y"  # E[pyrefly,ty]: [missing-argument]
s: str = sm(x, x)  # E: "str"
jax.shard_map(scale, mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"))(x, 2.5)  # E: "int"
legacy_shard_map(scale, mesh, (P("i"), P()), P("i"))(x, "2")  # E: "int"


@jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"))
def normalize(x: Array) -> Array:
    return x / lax.pmax(jnp.max(x), "i")


normalize(x, x)  # E[mypy]: Too many arguments  # E[pyright]: Expected 1 positional  # E[pyrefly]: [bad-argument-count]  # E[ty]: [too-many-positional-arguments]
t: tuple[Array, Array] = normalize(x)  # E: tuple


# shard_map's own arguments: the mesh is a Mesh, out_specs is required, the options are keywords
# (check_rep is the deprecated spelling's)
jax.shard_map(dot, mesh="i", in_specs=P("i"), out_specs=P())  # E: overload
jax.shard_map(dot, mesh=mesh, in_specs=P("i"))  # E: overload
jax.shard_map(dot, mesh, P("i"), P())  # E: overload
jax.shard_map(dot, mesh=mesh, in_specs=P("i"), out_specs=P(), check_rep=False)  # E: overload
legacy_shard_map(dot, "i", P("i"), P())  # E: "Mesh"

# partition specs, shardings, meshes
P("i", reduce={"i"})  # E: "reduce"
P("i", unreduced="i")  # E: frozenset
NamedSharding(mesh, P("i"), memory="device")  # E: "memory"
NamedSharding(mesh, ("i",))  # E: "PartitionSpec"
NamedSharding("i", P("i"))  # E: "Mesh"
jax.make_mesh(("1",), ("i",))  # E: Sequence[int]
Mesh(jax.devices(), ("i",), axis_types="auto")  # E: AxisType |
n: str = mesh.shape["i"]  # E: "int"
lax.pcast(x, "i", to=1)  # E: "str"


@partial(jax.shard_map, mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"))
def scale2(x: Array, n: int) -> Array:
    return x * n


scale2(x, "2")  # E[pyright,ty]: "int"
