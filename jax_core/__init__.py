"""jax_core: a JAX-compatible array runtime on jaxlib, whose whole public surface is typed.

Use it as ``import jax_core as jax`` and ``import jax_core.numpy as jnp``.
"""

# Public names are re-exported with ``import x as x`` (PEP 484's explicit re-export).
from jax_core import ad_checkpoint as ad_checkpoint
from jax_core import custom_batching as custom_batching
from jax_core import custom_derivatives as custom_derivatives
from jax_core import debug as debug
from jax_core import distributed as distributed
from jax_core import dlpack as dlpack
from jax_core import dtypes as dtypes
from jax_core import errors as errors
from jax_core import experimental as experimental
from jax_core import export as export
from jax_core import ffi as ffi
from jax_core import flatten_util as flatten_util
from jax_core import image as image
from jax_core import interpreters as interpreters
from jax_core import lax as lax
from jax_core import monitoring as monitoring
from jax_core import nn as nn
from jax_core import numpy as numpy
from jax_core import ops as ops
from jax_core import profiler as profiler
from jax_core import random as random
from jax_core import scipy as scipy
from jax_core import sharding as sharding
from jax_core import stages as stages
from jax_core import tree as tree
from jax_core import tree_util as tree_util
from jax_core import typing as typing
from jax_core._src.backend.client import default_device as _default_device
from jax_core._src.backend.client import device_count as device_count
from jax_core._src.backend.client import devices as devices
from jax_core._src.backend.client import local_devices as local_devices
from jax_core._src.config import allow_f16_reductions as allow_f16_reductions
from jax_core._src.config import array_garbage_collection_guard as array_garbage_collection_guard
from jax_core._src.config import check_tracer_leaks as check_tracer_leaks
from jax_core._src.config import checking_leaks as checking_leaks
from jax_core._src.config import config as config
from jax_core._src.config import debug_infs as debug_infs
from jax_core._src.config import debug_key_reuse as debug_key_reuse
from jax_core._src.config import debug_nans as debug_nans
from jax_core._src.config import default_device as default_device
from jax_core._src.config import default_matmul_precision as default_matmul_precision
from jax_core._src.config import default_prng_impl as default_prng_impl
from jax_core._src.config import enable_checks as enable_checks
from jax_core._src.config import enable_custom_prng as enable_custom_prng
from jax_core._src.config import enable_x64 as enable_x64
from jax_core._src.config import explain_cache_misses as explain_cache_misses
from jax_core._src.config import legacy_prng_key as legacy_prng_key
from jax_core._src.config import log_compiles as log_compiles
from jax_core._src.config import make_user_context as make_user_context
from jax_core._src.config import no_execution as no_execution
from jax_core._src.config import no_tracing as no_tracing
from jax_core._src.config import numpy_dtype_promotion as numpy_dtype_promotion
from jax_core._src.config import numpy_rank_promotion as numpy_rank_promotion
from jax_core._src.config import softmax_custom_jvp as softmax_custom_jvp
from jax_core._src.config import threefry_partitionable as threefry_partitionable
from jax_core._src.config import transfer_guard as transfer_guard
from jax_core._src.config import transfer_guard_device_to_device as transfer_guard_device_to_device
from jax_core._src.config import transfer_guard_device_to_host as transfer_guard_device_to_host
from jax_core._src.config import transfer_guard_host_to_device as transfer_guard_host_to_device
from jax_core._src.core.source_info import named_scope as named_scope
from jax_core._src.core.trace import typeof as typeof
from jax_core._src.core.avals import ShapeDtypeStruct as ShapeDtypeStruct
from jax_core._src.core.trace import ensure_compile_time_eval as ensure_compile_time_eval
from jax_core._src.dtypes import float0 as float0
from jax_core._src.lib import JAXLIB_VERSION as _JAXLIB_VERSION  # checks the jaxlib contract
from jax_core._src.lib.devices import Device as Device
from jax_core._src.numpy import array_methods as _array_methods  # installs Array methods
from jax_core._src.runtime import dispatch as _dispatch  # installs eager evaluation
from jax_core._src.runtime.compile import CompilerEffortLevel as CompilerEffortLevel
from jax_core._src.runtime.environment import copy_to_host_async as copy_to_host_async
from jax_core._src.runtime.environment import default_backend as default_backend
from jax_core._src.runtime.environment import live_arrays as live_arrays
from jax_core._src.runtime.environment import local_device_count as local_device_count
from jax_core._src.runtime.environment import process_count as process_count
from jax_core._src.runtime.environment import process_index as process_index
from jax_core._src.runtime.environment import process_indices as process_indices
from jax_core._src.runtime.environment import print_environment_info as print_environment_info
from jax_core._src.runtime.transfer import device_get as device_get
from jax_core._src.runtime.transfer import device_put as device_put
from jax_core._src.callbacks.pure import pure_callback as pure_callback
from jax_core._src.runtime.tokens import effects_barrier as effects_barrier
from jax_core._src.transforms.ad_api import closure_convert as closure_convert
from jax_core._src.transforms.ad_api import jvp as jvp
from jax_core._src.transforms.ad_api import linear_transpose as linear_transpose
from jax_core._src.transforms.ad_api import linearize as linearize
from jax_core._src.transforms.ad_api import vjp as vjp
from jax_core._src.transforms.ad_signatures import grad as grad
from jax_core._src.transforms.ad_signatures import hessian as hessian
from jax_core._src.transforms.ad_signatures import jacfwd as jacfwd
from jax_core._src.transforms.ad_signatures import jacobian as jacobian
from jax_core._src.transforms.ad_signatures import jacrev as jacrev
from jax_core._src.transforms.ad_signatures import value_and_grad as value_and_grad
from jax_core._src.transforms.api import block_until_ready as block_until_ready
from jax_core._src.transforms.api import disable_jit as disable_jit
from jax_core._src.transforms.api import eval_shape as eval_shape
from jax_core._src.transforms.api import fwd_and_bwd as fwd_and_bwd
from jax_core._src.transforms.api import jit as jit
from jax_core._src.transforms.api import make_jaxpr as make_jaxpr
from jax_core._src.transforms.api import named_call as named_call
from jax_core._src.transforms.checkpoint import checkpoint as checkpoint
from jax_core._src.transforms.checkpoint import checkpoint_policies as checkpoint_policies
from jax_core._src.transforms.checkpoint import remat as remat
from jax_core._src.transforms.custom_derivatives import custom_jvp as custom_jvp
from jax_core._src.transforms.custom_derivatives import custom_vjp as custom_vjp
from jax_core._src.transforms.custom_gradient import custom_gradient as custom_gradient
from jax_core._src.transforms.jit import Inline as Inline
from jax_core._src.transforms.jit import clear_caches as clear_caches
from jax_core._src.transforms.pmap_api import pmap as pmap
from jax_core._src.shard_map.api import shard_map as shard_map
from jax_core._src.lax.sharding_ops import reshard as reshard
from jax_core._src.sharding.mesh import make_mesh as make_mesh
from jax_core._src.runtime.assembly import make_array_from_callback as make_array_from_callback
from jax_core._src.runtime.assembly import make_array_from_single_device_arrays as make_array_from_single_device_arrays
from jax_core._src.runtime.process_local import make_array_from_process_local_data as make_array_from_process_local_data
from jax_core._src.sharding.mesh_context import get_abstract_mesh as get_abstract_mesh
from jax_core._src.sharding.mesh_context import get_mesh as get_mesh
from jax_core._src.sharding.mesh_context import set_mesh as set_mesh
from jax_core._src.sharding.mesh_context import use_abstract_mesh as use_abstract_mesh
from jax_core._src.sharding.partition_spec import PartitionSpec as _PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding as NamedSharding
from jax_core._src.numpy.array_methods import Shard as Shard
from jax_core._src.transforms.vmap_api import vmap as vmap
from jax_core._src.typing.basearray import Array as Array
from jax_core.version import __version__ as __version__

del _JAXLIB_VERSION, _dispatch, _array_methods, _default_device

P = _PartitionSpec
"""``jax.P``: short for ``jax.sharding.PartitionSpec``."""
