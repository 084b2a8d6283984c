"""Optimizers as ``(init_fun, update_fun, get_params)`` triples (``jax.example_libraries.optimizers``).

You likely want Optax for real work; these are JAX's examples, value for value.
"""

from __future__ import annotations

from collections import namedtuple as namedtuple
from functools import partial as partial

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.example_libraries.optimizers import Any as Any
from jax_core._src.example_libraries.optimizers import Array as Array
from jax_core._src.example_libraries.optimizers import Callable as Callable
from jax_core._src.example_libraries.optimizers import InitFn as InitFn
from jax_core._src.example_libraries.optimizers import JoinPoint as JoinPoint
from jax_core._src.example_libraries.optimizers import NamedTuple as NamedTuple
from jax_core._src.example_libraries.optimizers import Optimizer as Optimizer
from jax_core._src.example_libraries.optimizers import OptimizerState as OptimizerState
from jax_core._src.example_libraries.optimizers import Params as Params
from jax_core._src.example_libraries.optimizers import ParamsFn as ParamsFn
from jax_core._src.example_libraries.optimizers import Schedule as Schedule
from jax_core._src.example_libraries.optimizers import State as State
from jax_core._src.example_libraries.optimizers import Step as Step
from jax_core._src.example_libraries.optimizers import UpdateFn as UpdateFn
from jax_core._src.example_libraries.optimizers import Updates as Updates
from jax_core._src.example_libraries.optimizers import adagrad as adagrad
from jax_core._src.example_libraries.optimizers import adam as adam
from jax_core._src.example_libraries.optimizers import adamax as adamax
from jax_core._src.example_libraries.optimizers import clip_grads as clip_grads
from jax_core._src.example_libraries.optimizers import constant as constant
from jax_core._src.example_libraries.optimizers import exponential_decay as exponential_decay
from jax_core._src.example_libraries.optimizers import inverse_time_decay as inverse_time_decay
from jax_core._src.example_libraries.optimizers import l2_norm as l2_norm
from jax_core._src.example_libraries.optimizers import make_schedule as make_schedule
from jax_core._src.example_libraries.optimizers import map as map
from jax_core._src.example_libraries.optimizers import momentum as momentum
from jax_core._src.example_libraries.optimizers import nesterov as nesterov
from jax_core._src.example_libraries.optimizers import optimizer as optimizer
from jax_core._src.example_libraries.optimizers import pack_optimizer_state as pack_optimizer_state
from jax_core._src.example_libraries.optimizers import piecewise_constant as piecewise_constant
from jax_core._src.example_libraries.optimizers import polynomial_decay as polynomial_decay
from jax_core._src.example_libraries.optimizers import rmsprop as rmsprop
from jax_core._src.example_libraries.optimizers import rmsprop_momentum as rmsprop_momentum
from jax_core._src.example_libraries.optimizers import safe_map as safe_map
from jax_core._src.example_libraries.optimizers import safe_zip as safe_zip
from jax_core._src.example_libraries.optimizers import sgd as sgd
from jax_core._src.example_libraries.optimizers import sm3 as sm3
from jax_core._src.example_libraries.optimizers import (
    unpack_optimizer_state as unpack_optimizer_state,
)
from jax_core._src.example_libraries.optimizers import unzip2 as unzip2
from jax_core._src.example_libraries.optimizers import zip as zip
