"""Sharding as published JAX code writes it: shard_map (a call, ``@partial(shard_map, ...)``,
``@jax.shard_map(...)``) under jit, grad and vmap; meshes, NamedSharding, PartitionSpec,
device_put, jit's in_shardings/out_shardings, with_sharding_constraint, pmap and collectives.

JAX issue #35101: ``shard_map`` must keep the function's signature, so a checker sees the
arguments and the result of the mapped function. The corpus runs on one device, so every mesh
has size 1 (each block is the whole array); the code is what runs on many devices unchanged.
The meshes are ``Auto`` (as ``Mesh(...)`` makes them): on ``make_mesh``'s default ``Explicit``
axes, JAX wants arguments already sharded as ``in_specs`` says.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.sharding import AxisType, Mesh, NamedSharding, PartitionSpec
from jax_core.sharding import PartitionSpec as P

with warnings.catch_warnings():  # the deprecated spelling still in use in older code
    warnings.simplefilter("ignore", DeprecationWarning)
    from jax_core.experimental.shard_map import shard_map as legacy_shard_map

# 1. Meshes: make_mesh, Mesh over a device array, their shapes and names.
mesh = jax.make_mesh((1,), ("i",), axis_types=(AxisType.Auto,))
grid = Mesh(np.array(jax.devices()[:1]).reshape(1, 1), ("data", "model"))
explicit = jax.make_mesh((1,), ("batch",))  # AxisType.Explicit, as in JAX
n_shards: int = mesh.shape["i"]
assert n_shards == 1 and grid.axis_names == ("data", "model") and grid.size == 1
assert explicit.axis_types == (AxisType.Explicit,)
n_hosts: int = jax.process_count()
host: int = jax.process_index()
assert 0 <= host < n_hosts


# 2. shard_map as a call: the result is called like the function it maps.
def partial_dot(x: Array, y: Array) -> Array:
    return lax.psum(jnp.sum(x * y), "i")


sharded_dot = jax.shard_map(partial_dot, mesh=mesh, in_specs=(P("i"), P("i")), out_specs=P())
d: Array = sharded_dot(jnp.ones(8), jnp.arange(8.0))
assert float(d) == 28.0
dot_fn: Callable[[Array, Array], Array] = sharded_dot


# 3. @partial(shard_map, ...): the most common spelling in libraries.
@partial(jax.shard_map, mesh=mesh, in_specs=(P("i", None), P()), out_specs=P("i", None))
def matmul_rows(a: Array, b: Array) -> Array:
    return a @ b


rows = matmul_rows(jnp.ones((4, 3)), jnp.ones((3, 2)))
assert rows.shape == (4, 2)


# 4. @jax.shard_map(...) used as a decorator factory, with collectives inside.
@jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"))
def normalize(x: Array) -> Array:
    peak = lax.pmax(jnp.max(jnp.abs(x)), "i")
    return x / peak


@jax.shard_map(mesh=mesh, in_specs=P("i"), out_specs=P("i"), check_vma=False)
def centered(x: Array) -> Array:
    mean = lax.pmean(jnp.mean(x), "i")
    low = lax.pmin(jnp.min(x), "i")
    shard = lax.axis_index("i")
    return x - mean + 0 * low + 0 * shard + 0 * lax.axis_size("i")


assert normalize(jnp.arange(4.0)).shape == (4,)
assert centered(jnp.arange(4.0)).shape == (4,)


# 5. Pytrees of specs, a replicated argument made varying, axis_names.
def apply_layer(params: dict[str, Array], x: Array) -> Array:
    w = lax.pcast(params["w"], "i", to="varying")
    return jnp.tanh(x @ w + params["b"])


layer = jax.shard_map(
    apply_layer, mesh=mesh, in_specs=({"w": P(), "b": P()}, P("i")), out_specs=P("i"), axis_names={"i"}
)
params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
assert layer(params, jnp.ones((4, 3))).shape == (4, 2)


# 6. shard_map under jit, grad and vmap.
@jax.jit
def loss(w: Array, x: Array) -> Array:
    return jnp.mean(matmul_rows(x, w) ** 2)


g: Array = jax.grad(loss)(jnp.ones((3, 2)), jnp.ones((4, 3)))
assert g.shape == (3, 2)
batched: Array = jax.vmap(normalize)(jnp.ones((2, 4)))
assert batched.shape == (2, 4)
jit_dot = jax.jit(jax.shard_map(partial_dot, mesh=mesh, in_specs=P("i"), out_specs=P()))
assert float(jit_dot(jnp.ones(4), jnp.ones(4))) == 4.0


# 7. Arrays placed on a mesh; jit with in/out shardings; with_sharding_constraint.
row_sharding = NamedSharding(mesh, P("i", None))
replicated = NamedSharding(mesh, PartitionSpec())
xs = jax.device_put(np.ones((4, 3), np.float32), row_sharding)
assert xs.sharding.is_fully_replicated  # one device holds everything
on_device: Array = jax.device_put(jnp.ones(3), jax.devices()[0])
tree = jax.device_put({"w": np.ones(3)}, replicated)


@partial(jax.jit, in_shardings=(row_sharding, replicated), out_shardings=row_sharding)
def project(x: Array, w: Array) -> Array:
    y = x @ w
    return lax.with_sharding_constraint(y, NamedSharding(mesh, P("i", None)))


assert project(xs, jnp.ones((3, 2))).shape == (4, 2)


def twice(v: Array) -> Array:
    return v * 2


double = jax.jit(twice, out_shardings=replicated)
assert double(xs).shape == (4, 3)
spec_for_rows = row_sharding.spec
assert spec_for_rows == P("i", None) and row_sharding.mesh == mesh


# 8. pmap with collectives (one device: a leading axis of size 1).
def all_mean(x: Array) -> Array:
    return lax.pmean(x, "devices")


averaged = jax.pmap(all_mean, axis_name="devices")(jnp.ones((1, 3)))
summed = jax.pmap(partial(lax.psum, axis_name="devices"), axis_name="devices")(jnp.ones((1, 3)))
assert averaged.shape == (1, 3)


# 9. The deprecated jax.experimental.shard_map spelling (positional mesh and specs, check_rep).
old_style = legacy_shard_map(partial_dot, mesh, (P("i"), P("i")), P(), check_rep=False)
assert float(old_style(jnp.ones(4), jnp.ones(4))) == 4.0
