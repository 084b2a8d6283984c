"""``export`` takes a jitted function; ``Exported``'s fields and methods have JAX's types."""

import numpy as np

import jax_core as jax
from jax_core import export


def f(x: jax.Array) -> jax.Array:
    return x * 2


export.export(f)  # E:
exp = export.export(jax.jit(f))(jax.ShapeDtypeStruct((3,), np.float32))
blob: str = exp.serialize()  # E:
export.deserialize("blob")  # E:
exp.serialize(vjp_order="2")  # E:
name: int = exp.fun_name  # E:
version: str = exp.calling_convention_version  # E:
export.export(jax.jit(f), disabled_checks=["platform"])  # E:
