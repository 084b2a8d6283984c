"""stax layers and optimizers, ravel_pytree, dlpack, the profiler and monitoring, as typed code
uses them."""

from collections.abc import Callable
from typing import Any, assert_type

import numpy as np

import jax_core
import jax_core.numpy as jnp
import jax_core.dlpack as dlpack
import jax_core.monitoring as monitoring
import jax_core.profiler as profiler
from jax_core import Array
from jax_core.example_libraries import optimizers, stax
from jax_core.flatten_util import ravel_pytree

# stax: layers are (init_fun, apply_fun) pairs
init_fun, apply_fun = stax.serial(stax.Dense(16), stax.Relu, stax.Dense(2), stax.LogSoftmax)
layer: stax.Layer = stax.parallel(stax.Dense(4), stax.Identity)
assert_type(stax.Conv(8, (3, 3), padding="SAME"), tuple[stax.InitFun, stax.ApplyFun])
pool = stax.MaxPool((2, 2), strides=(2, 2))
out_shape, params = init_fun(jax_core.random.PRNGKey(0), (-1, 8))
logits = apply_fun(params, jnp.ones((3, 8)))

# optimizers: the decorated makers keep their parameters
opt = optimizers.adam(1e-3, b1=0.8)
assert_type(opt, optimizers.Optimizer)
opt_init, opt_update, get_params = optimizers.momentum(0.1, mass=0.9)
state = opt_init({"w": jnp.ones(3)})
assert_type(state, optimizers.OptimizerState)
state = opt_update(0, {"w": jnp.ones(3)}, state)
schedule = optimizers.exponential_decay(0.1, 100, 0.5)
assert_type(schedule, Callable[[int], float])
norm = optimizers.l2_norm({"w": jnp.ones(3)})

# ravel_pytree
flat, unravel = ravel_pytree({"a": jnp.ones(2), "b": 1.0})
assert_type(flat, Array)
assert_type(unravel, Callable[[Array], Any])

# dlpack
imported = dlpack.from_dlpack(np.ones(3, np.float32), copy=None)
assert_type(imported, Array)
assert_type(dlpack.is_supported_dtype(jnp.float32), bool)

# profiler
with profiler.trace() as session:
    assert_type(session, profiler.ProfileSession)
    with profiler.TraceAnnotation("step"), profiler.StepTraceAnnotation("train", step_num=1):
        pass
data = session.profile_data
if data is not None:
    names = [e.name for p in data.planes for line in p.lines for e in line.events]
    assert_type(names, list[str])


@profiler.annotate_function
def scaled(x: Array, k: float = 2.0) -> Array:
    return x * k


assert_type(scaled(jnp.ones(2)), Array)
assert_type(profiler.device_memory_profile(), bytes)


# monitoring
def on_event(event: str, **kwargs: str | int) -> None:
    pass


monitoring.register_event_listener(on_event)
monitoring.record_event("/app/step", step=1)
monitoring.unregister_event_listener(on_event)
