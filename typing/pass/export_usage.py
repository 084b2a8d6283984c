"""Exporting, serializing, deserializing and calling, as docs/export.md shows them."""

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import export
from jax_core.sharding import NamedSharding


def f(x: jax.Array) -> jax.Array:
    return 2 * x * x


exported: export.Exported = export.export(jax.jit(f))(jax.ShapeDtypeStruct((), np.float32))
name: str = exported.fun_name
text: str = exported.mlir_module()
serialized: bytearray = exported.serialize()
again: bytearray = exported.serialize(vjp_order=2)
rehydrated: export.Exported = export.deserialize(serialized)
from_bytes: export.Exported = export.deserialize(bytes(serialized))
kept: tuple[int, ...] = rehydrated.module_kept_var_idx
platforms: tuple[str, ...] = rehydrated.platforms
devices: int = rehydrated.nr_devices
version: int = rehydrated.calling_convention_version
lowest: int = export.minimum_supported_calling_convention_version
payload: bytes = rehydrated.mlir_module_serialized
has: bool = rehydrated.has_vjp()
vjp: export.Exported = exported.vjp()
shardings: Sequence[NamedSharding | None] = exported.in_shardings_jax()


def callee(y: jax.Array) -> jax.Array:
    out: jax.Array = 3.0 * rehydrated.call(y * 4.0)
    return out


callee(jnp.ones(()))
multi = export.export(jax.jit(jnp.cos), platforms=["cpu", "cuda", "tpu"])(1.0)
unsafe = export.export(
    jax.jit(jnp.cos),
    platforms=("tpu",),
    disabled_checks=[export.DisabledSafetyCheck.platform(), export.DisabledSafetyCheck.custom_call("my_target")],
)(1.0)
target: str | None = export.DisabledSafetyCheck.custom_call("t").is_custom_call()
default: str = export.default_export_platform()


class Pair(NamedTuple):
    a: jax.Array
    b: jax.Array


registered: type[Pair] = export.register_namedtuple_serialization(Pair, serialized_name="my.Pair")


class Box:
    def __init__(self, v: jax.Array) -> None:
        self.v = v


jax.tree_util.register_pytree_node(Box, lambda b: ((b.v,), None), lambda _, c: Box(c[0]))
boxed: type[Box] = export.register_pytree_node_serialization(
    Box,
    serialized_name="my.Box",
    serialize_auxdata=lambda aux: b"",
    deserialize_auxdata=lambda data: None,
)
