"""jax_core.example_libraries.optimizers against real JAX: every optimizer and schedule, a few
steps under ``jit`` and eagerly (bit for bit), the pytree state, the serialization helpers, and
the errors."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core
import jax_core.numpy as jnp
from jax_core.example_libraries import optimizers
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture, program_call

PROGRAM = """
O = jax.example_libraries.optimizers
params = {"w": jnp.arange(6.0).reshape(2, 3) / 7, "b": (jnp.array([0.5, -0.25, 1.0]), jnp.float32(0.3))}
def loss(p):
    return jnp.sum(jnp.tanh(p["w"] @ p["b"][0]) ** 2) + jnp.sum(p["b"][0] ** 3) + p["b"][1] ** 2
def run(opt, steps=5, use_jit=True):
    init, update, get = opt
    state = init(params)
    def step(i, s):
        return update(i, jax.grad(loss)(get(s)), s)
    stepper = jax.jit(step) if use_jit else step
    for i in range(steps):
        state = stepper(i, state)
    return get(state)
"""
OPTIMIZERS = [
    "O.sgd(0.1)",
    "O.momentum(0.1, 0.9)",
    "O.nesterov(0.1, mass=0.5)",
    "O.adagrad(0.1)",
    "O.adagrad(0.1, momentum=0.5)",
    "O.rmsprop(0.1)",
    "O.rmsprop(0.05, gamma=0.5, eps=1e-4)",
    "O.rmsprop_momentum(0.1)",
    "O.adam(0.1)",
    "O.adam(0.01, b1=0.5, b2=0.9, eps=1e-3)",
    "O.adamax(0.1)",
    "O.adam(O.exponential_decay(0.1, 10, 0.5))",
    "O.adamax(O.inverse_time_decay(0.1, 3, 0.5, staircase=True))",
    "O.sgd(O.inverse_time_decay(0.1, 3, 0.5))",
    "O.momentum(O.polynomial_decay(0.1, 3, 0.01, power=2.0), 0.9)",
    "O.sgd(O.piecewise_constant([2, 4], [0.1, 0.05, 0.01]))",
    "O.sgd(O.constant(0.2))",
    "O.sgd(lambda i: 0.1 / (i + 1))",
]
CASES = [f"run({o})" for o in OPTIMIZERS] + [
    "run(O.sgd(0.1), use_jit=False)",
    "run(O.adam(0.1), use_jit=False)",
    "run(O.sm3(0.1), use_jit=False)",  # its state holds the shape: not jittable, in JAX too
    "run(O.sm3(O.exponential_decay(0.1, 2, 0.5), momentum=0.5), use_jit=False)",
    # state as a pytree, and its serialization
    "jax.tree_util.tree_leaves(O.adam(0.1)[0](params))",
    "str(jax.tree_util.tree_structure(O.momentum(0.1, 0.9)[0](params)))",
    "type(O.unpack_optimizer_state(O.adam(0.1)[0](params))['w']).__name__",
    "jax.tree_util.tree_leaves(O.pack_optimizer_state(O.unpack_optimizer_state(O.adam(0.1)[0](params))))",
    "O.pack_optimizer_state(O.unpack_optimizer_state(O.adam(0.1)[0](params))) == O.adam(0.1)[0](params)",
    "O.adam(0.1)[0](params)._fields",
    # vmap over a batch of parameter vectors
    "jax.vmap(lambda x: O.adam(0.1)[1](0, x * 2, O.adam(0.1)[0](x)).packed_state)(jnp.ones((3, 2)))",
    # utilities and schedules
    "O.l2_norm(params)",
    "O.clip_grads(params, 1.0)",
    "O.clip_grads(params, 100.0)",
    "[O.exponential_decay(0.1, 10, 0.5)(i) for i in (0, 5, 10)]",
    "[O.polynomial_decay(1.0, 4, 0.0)(i) for i in range(6)]",
    "[O.piecewise_constant([2, 4], [1.0, 0.5, 0.25])(i) for i in range(6)]",
    "[O.inverse_time_decay(1.0, 2, 1.0, staircase=True)(i) for i in range(5)]",
    "O.make_schedule(0.5)(3)",
    "O.make_schedule(np.float32(0.5))(3)",
    "O.Optimizer._fields",
    # errors
    "O.make_schedule(np.ones(2))",
    "O.piecewise_constant([1, 2], [1.0])",
    "O.piecewise_constant(1.0, [1.0])",
    "O.sgd(0.1)[1](0, [1.0], O.sgd(0.1)[0](params))",
    "O.momentum(0.1, 0.9)[1](0, params, O.sgd(0.1)[0](params))",
    "O.pack_optimizer_state({'a': 1.0})",
    "O.safe_map(lambda a, b: a, [1, 2], [1])",
    "O.safe_zip([1, 2], [1])",
    "O.unzip2([(1, 2), (3, 4)])",
]
CALLS = [program_call(PROGRAM, c) for c in CASES]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=CASES)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    # JAX's pack_optimizer_state asserts without a message; jax_core's says what it wants
    messages = theirs.error is not None and theirs.error != "AssertionError"
    assert_same(here(call), theirs, call.expr, messages=messages)


def test_optimizer_triple_is_a_named_tuple() -> None:
    opt = optimizers.adam(0.1)
    assert isinstance(opt, optimizers.Optimizer)
    assert opt.init_fn is opt[0] and opt.params_fn is opt[2]
    assert optimizers.adam.__name__ == "adam"
    state = opt.init_fn({"x": jnp.ones(2)})
    assert isinstance(state, optimizers.OptimizerState)
    # the state passes through jit as a pytree
    out = jax_core.jit(lambda s: opt.update_fn(0, {"x": jnp.ones(2)}, s))(state)
    assert isinstance(out, optimizers.OptimizerState)
    np.testing.assert_allclose(np.asarray(opt.params_fn(out)["x"]), np.full(2, 0.9), rtol=1e-5)


def test_module_names_are_jax_s() -> None:
    assert optimizers.map is optimizers.safe_map and optimizers.zip is optimizers.safe_zip
    assert optimizers.Step is int
    with pytest.raises(ValueError, match="shorter"):
        optimizers.map(lambda a, b: a, [1, 2], [1])
