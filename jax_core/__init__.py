"""jax_core: a JAX-compatible array runtime on jaxlib, whose whole public surface is typed.

Use it as ``import jax_core as jax`` and ``import jax_core.numpy as jnp``.
"""

# Public names are re-exported with ``import x as x`` (PEP 484's explicit re-export).
from jax_core import ad_checkpoint as ad_checkpoint
from jax_core import dtypes as dtypes
from jax_core import errors as errors
from jax_core import lax as lax
from jax_core import numpy as numpy
from jax_core import random as random
from jax_core import scipy as scipy
from jax_core import sharding as sharding
from jax_core import tree as tree
from jax_core import tree_util as tree_util
from jax_core import typing as typing
from jax_core._src.backend.client import default_device as _default_device
from jax_core._src.backend.client import device_count as device_count
from jax_core._src.backend.client import devices as devices
from jax_core._src.backend.client import local_devices as local_devices
from jax_core._src.config import config as config
from jax_core._src.core.avals import ShapeDtypeStruct as ShapeDtypeStruct
from jax_core._src.core.trace import ensure_compile_time_eval as ensure_compile_time_eval
from jax_core._src.lib import JAXLIB_VERSION as _JAXLIB_VERSION  # checks the jaxlib contract
from jax_core._src.numpy import array_methods as _array_methods  # installs Array methods
from jax_core._src.runtime import dispatch as _dispatch  # installs eager evaluation
from jax_core._src.runtime.transfer import device_get as device_get
from jax_core._src.runtime.transfer import device_put as device_put
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
from jax_core._src.transforms.api import jit as jit
from jax_core._src.transforms.api import make_jaxpr as make_jaxpr
from jax_core._src.transforms.checkpoint import checkpoint as checkpoint
from jax_core._src.transforms.checkpoint import checkpoint_policies as checkpoint_policies
from jax_core._src.transforms.checkpoint import remat as remat
from jax_core._src.transforms.custom_derivatives import custom_jvp as custom_jvp
from jax_core._src.transforms.custom_derivatives import custom_vjp as custom_vjp
from jax_core._src.transforms.jit import clear_caches as clear_caches
from jax_core._src.transforms.pmap_api import pmap as pmap
from jax_core._src.transforms.vmap_api import vmap as vmap
from jax_core._src.typing.basearray import Array as Array
from jax_core.version import __version__ as __version__

del _JAXLIB_VERSION, _dispatch, _array_methods, _default_device
