"""shard_map keeps the mapped function's signature in every spelling (JAX issue #35101); the
types of meshes, partition specs, shardings and device_put."""

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import Any, assert_type

import warnings

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.sharding import AxisType, Mesh, NamedSharding, PartitionSpec, Sharding
from jax_core.sharding import PartitionSpec as P

with warnings.catch_warnings():  # deprecated, as in JAX
    warnings.simplefilter("ignore", DeprecationWarning)
    from jax_core.experimental.shard_map import shard_map as legacy_shard_map

mesh = jax.make_mesh((1,), ("i",), axis_types=(AxisType.Auto,))
x = jnp.ones(4)


def dot(x: Array, y: Array, /) -> Array:
    return lax.psum(jnp.sum(x * y), "i")


def mul(x: Array, y: Array, /) -> Array:
    return x * y


def split(x: Array, n: int) -> tuple[Array, Array]:
    return x * n, x


# shard_map as a call: Callable[P, R] -> Callable[P, R]
sm = jax.shard_map(dot, mesh=mesh, in_specs=(P("i"), P("i")), out_specs=P())
assert_type(sm, Callable[[Array, Array], Array])
assert_type(sm(x, x), Array)
sm2 = jax.shard_map(split, mesh=mesh, in_specs=(P("i"), P()), out_specs=(P("i"), P("i")))
assert_type(sm2(x, 2), tuple[Array, Array])
explicit = jax.make_mesh((1,), ("i",))  # in_specs inferred from the arguments (Explicit axes)
assert_type(jax.shard_map(mul, out_specs=P(), mesh=explicit)(x, x), Array)
assert_type(legacy_shard_map(dot, mesh, P("i"), P())(x, x), Array)


# the decorator forms: the factory applied to a function, and the decorator syntax
smap = jax.shard_map(mesh=mesh, in_specs=(P("i"), P("i")), out_specs=P())
assert_type(smap(dot), Callable[[Array, Array], Array])
assert_type(smap(dot)(x, x), Array)


@jax.shard_map(mesh=mesh, in_specs=(P("i"), P("i")), out_specs=P())
def dot2(x: Array, y: Array, /) -> Array:
    return lax.psum(jnp.sum(x * y), "i")


@jax.shard_map(mesh=mesh, in_specs=(P("i"), P()), out_specs=(P("i"), P("i")))
def split2(x: Array, n: int) -> tuple[Array, Array]:
    return x * n, x


dot2_fn: Callable[[Array, Array], Array] = dot2
assert_type(dot2(x, x), Array)
assert_type(split2(x, 2), tuple[Array, Array])

# under transformations
assert_type(jax.jit(sm)(x, x), Array)
assert_type(jax.vmap(sm)(jnp.ones((2, 4)), jnp.ones((2, 4))), Array)
assert_type(jax.grad(sm)(x, x), Array)

# partition specs, meshes, shardings
spec = P("i", None)
assert_type(spec, PartitionSpec)
assert_type(jax.P(("i", "j")), PartitionSpec)
assert_type(len(spec), int)
assert_type(mesh, Mesh)
assert_type(mesh.shape, OrderedDict[Hashable, int])
assert_type(mesh.shape["i"], int)
assert_type(mesh.axis_names, tuple[Hashable, ...])
assert_type(mesh.size, int)
ns = NamedSharding(mesh, spec)
assert_type(ns, NamedSharding)
assert_type(ns.spec, PartitionSpec)
assert_type(ns.mesh, Mesh)
rows = NamedSharding(mesh, P("i"))

# device_put: arrays stay arrays, pytrees are Any
assert_type(jax.device_put(x, rows), Array)
assert_type(jax.device_put(np.ones(3), jax.devices()[0]), Array)
assert_type(jax.device_put(1.0), Array)
assert_type(jax.device_put({"w": x}, rows), Any)
assert_type(jax.device_put(x, rows).sharding, Sharding)

# jit with shardings, with_sharding_constraint, pmap, collectives
assert_type(jax.jit(mul, in_shardings=(rows, rows), out_shardings=rows)(x, x), Array)
assert_type(lax.with_sharding_constraint(x, rows), Array)
assert_type(lax.with_sharding_constraint((x, x), (rows, rows)), tuple[Array, Array])


def collectives(v: Array) -> Array:
    assert_type(lax.psum(v, "i"), Array)
    assert_type(lax.psum((v, {"a": v}), "i"), tuple[Array, dict[str, Array]])
    assert_type(lax.pmean(v, ("i",)), Array)
    assert_type(lax.pcast(lax.psum(v, "i"), "i", to="varying"), Array)
    assert_type(lax.axis_index("i"), Array)
    assert_type(lax.axis_size("i"), int)
    return v


assert_type(jax.shard_map(collectives, mesh=mesh, in_specs=P("i"), out_specs=P("i"))(x), Array)
assert_type(jax.pmap(dot, axis_name="i")(jnp.ones((1, 4)), jnp.ones((1, 4))), Array)
assert_type(jax.process_index(), int)


@partial(jax.shard_map, mesh=mesh, in_specs=(P("i"), P("i")), out_specs=P())
def dot3(x: Array, y: Array) -> Array:
    return lax.psum(jnp.sum(x * y), "i")


assert_type(dot3(x, x), Array)  # E[mypy]: "Any"  # E[pyrefly]: Unknown
assert_type(dot2, Callable[[Array, Array], Array])  # E[ty]: does not match asserted type
