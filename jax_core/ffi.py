"""``jax.ffi``: calling foreign (C++) functions registered with XLA's FFI from JAX code."""

from jax_core._src.core.tokens import abstract_token as abstract_token
from jax_core._src.ffi.call import ffi_call as ffi_call
from jax_core._src.ffi.lowering import build_ffi_lowering_function as build_ffi_lowering_function
from jax_core._src.ffi.lowering import ffi_lowering as ffi_lowering
from jax_core._src.ffi.targets import include_dir as include_dir
from jax_core._src.ffi.targets import pycapsule as pycapsule
from jax_core._src.ffi.targets import register_ffi_target as register_ffi_target
from jax_core._src.ffi.targets import (
    register_ffi_target_as_batch_partitionable as register_ffi_target_as_batch_partitionable,
)
from jax_core._src.ffi.targets import register_ffi_type as register_ffi_type
from jax_core._src.ffi.targets import register_ffi_type_id as register_ffi_type_id

__all__ = [
    "abstract_token",
    "build_ffi_lowering_function",
    "ffi_call",
    "ffi_lowering",
    "include_dir",
    "pycapsule",
    "register_ffi_target",
    "register_ffi_target_as_batch_partitionable",
    "register_ffi_type",
    "register_ffi_type_id",
]
