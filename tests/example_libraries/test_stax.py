"""jax_core.example_libraries.stax against real JAX: every layer and combinator, initialized with
the same key (parameters and output shapes bit for bit), applied eagerly and under ``jit`` and
``vmap`` (bit for bit), and differentiated (to a tolerance: the transposed ``dot`` of a dense
layer's gradient may round its last bit differently), plus the errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core
import jax_core.numpy as jnp
from jax_core.example_libraries import stax
from tests.oracle.client import (
    Call,
    Outcome,
    assert_same,
    evaluate,
    here,
    live_fixture,
    program_call,
)

PROGRAM = """
S = jax.example_libraries.stax
key = jax.random.PRNGKey(0)
def build(layer, shape):
    init, apply = layer
    out_shape, params = init(key, shape)
    x = jax.random.normal(jax.random.PRNGKey(1), shape)
    return apply, out_shape, params, x
def init_of(layer, shape):
    out_shape, params = build(layer, shape)[1:3]
    return [int(d) for d in np.ravel(out_shape)] if not isinstance(out_shape, list) else out_shape, params
def forward(layer, shape, use_jit=False):
    apply, _, params, x = build(layer, shape)
    f = lambda p, x: apply(p, x, rng=jax.random.PRNGKey(2))
    return (jax.jit(f) if use_jit else f)(params, x)
def gradient(layer, shape):
    apply, _, params, x = build(layer, shape)
    return jax.grad(lambda p: jnp.sum(apply(p, x, rng=jax.random.PRNGKey(2)) ** 2))(params)
def batched(layer, shape):
    apply, _, params, x = build(layer, shape)
    return jax.vmap(lambda x: apply(params, x))(jnp.stack([x, 2 * x]))
"""
LAYERS = {
    "mlp": ("S.serial(S.Dense(8), S.Relu, S.Dense(4), S.LogSoftmax)", "(3, 5)"),
    "conv": (
        (
            "S.serial(S.Conv(4, (3, 3), padding='SAME'), S.BatchNorm(), S.Relu, S.MaxPool((2, 2)), "
            "S.Conv(3, (2, 2), strides=(2, 2)), S.AvgPool((2, 2), padding='SAME'), "
            "S.SumPool((1, 1)), S.Flatten, S.Dense(2), S.Softmax)"
        ),
        "(2, 8, 8, 3)",
    ),
    "general_conv": (
        (
            "S.serial(S.GeneralConv(('NCHW', 'OIHW', 'NHWC'), 3, (2, 2), strides=(1, 2), "
            "padding=((1, 0), (0, 1))), S.MaxPool((2, 1), strides=(1, 1), spec='NHWC'))"
        ),
        "(2, 3, 5, 6)",
    ),
    "conv_transpose": (
        (
            "S.serial(S.ConvTranspose(2, (3, 3), strides=(2, 2)), S.Tanh, S.Elu, S.Gelu, S.Selu, "
            "S.Softplus, S.Sigmoid, S.LeakyRelu, S.Exp)"
        ),
        "(1, 4, 4, 3)",
    ),
    "conv1d_transpose": (
        "S.serial(S.Conv1DTranspose(2, (3,), padding='SAME'), S.Identity)",
        "(2, 5, 3)",
    ),
    "general_conv_transpose": (
        "S.GeneralConvTranspose(('NCH', 'OIH', 'NCH'), 2, (2,), strides=(2,))",
        "(2, 3, 4)",
    ),
    "residual": ("S.serial(S.FanOut(2), S.parallel(S.Dense(4), S.Identity), S.FanInSum)", "(3, 4)"),
    "concat": (
        "S.serial(S.FanOut(3), S.parallel(S.Dense(2), S.Dense(3), S.Identity), S.FanInConcat())",
        "(3, 4)",
    ),
    "concat_axis0": ("S.serial(S.FanOut(2), S.FanInConcat(0))", "(3, 4)"),
    "shape_dependent": ("S.shape_dependent(lambda s: S.Dense(s[-1]))", "(2, 3)"),
    "batch_norm": (
        (
            "S.serial(S.BatchNorm(axis=0, center=False), S.BatchNorm(axis=(0,), scale=False), "
            "S.BatchNorm(axis=0, center=False, scale=False))"
        ),
        "(4, 3)",
    ),
    "avg_pool_spec": ("S.AvgPool((2,), spec='NCH')", "(2, 3, 5)"),
    "dropout": ("S.serial(S.Dense(5), S.Dropout(0.7))", "(2, 3)"),
    "dropout_test": ("S.serial(S.Dense(5), S.Dropout(0.7, mode='test'))", "(2, 3)"),
    "dense_init": (
        "S.Dense(3, W_init=jax.nn.initializers.ones, b_init=jax.nn.initializers.zeros)",
        "(2, 2)",
    ),
    "elementwise": ("S.elementwise(jnp.clip, min=-0.5, max=0.5)", "(2, 3)"),
}
BATCHABLE = ("mlp", "residual", "shape_dependent", "elementwise", "dense_init")
EXACT = [
    *(f"init_of({layer}, {shape})" for layer, shape in LAYERS.values()),
    *(f"forward({layer}, {shape})" for layer, shape in LAYERS.values()),
    *(f"forward({layer}, {shape}, use_jit=True)" for layer, shape in LAYERS.values()),
    *(f"batched({LAYERS[n][0]}, {LAYERS[n][1]})" for n in BATCHABLE),
    # aliases and module-level functions
    "(S.glorot is S.glorot_normal, S.randn is S.normal, S.logsoftmax is S.log_softmax)",
    "S.relu(jnp.array([-1.0, 2.0]))",
    "S.standardize(jnp.arange(4.0))",
    "S.FanOut(2)[0](key, (3,))",
    "list(S.parallel(S.Dense(2), S.Identity)[0](key, [(1, 3), (1, 4)]))[0]",
    # errors
    "forward(S.Dropout(0.5), (2,))[0] if False else S.Dropout(0.5)[1]((), jnp.ones(2))",
    "S.serial(S.Dense(2))[1]([(jnp.ones((3, 2)), jnp.ones(2))], jnp.ones((1, 4)))",
]
GRADS = [f"gradient({layer}, {shape})" for layer, shape in LAYERS.values()]
CALLS = [program_call(PROGRAM, c) for c in EXACT]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=EXACT)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr, messages=live[call.expr].error is not None)


GRAD_CALLS = [program_call(PROGRAM, c) for c in GRADS]
live_grads = live_fixture(GRAD_CALLS)


@pytest.mark.parametrize("call", GRAD_CALLS, ids=GRADS)
def test_gradients_match_jax(call: Call, live_grads: dict[str, Outcome]) -> None:
    ours, theirs = here(call), live_grads[call.expr]
    assert ours.leaves is not None and theirs.leaves is not None, (
        ours.describe(),
        theirs.describe(),
    )
    assert len(ours.leaves) == len(theirs.leaves)
    for a, b in zip(ours.leaves, theirs.leaves):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-6)


def test_layers_are_pairs_and_typed() -> None:
    init, apply = stax.serial(stax.Dense(3), stax.Relu)
    out_shape, params = init(jax_core.random.PRNGKey(0), (2, 4))
    assert tuple(out_shape) == (2, 3)
    y: Any = apply(params, jnp.ones((2, 4)))
    assert y.shape == (2, 3)
    assert isinstance(stax.Flatten, tuple) and isinstance(stax.Identity, tuple)


def test_dropout_message() -> None:
    with pytest.raises(ValueError, match="requires apply_fun to be called with a PRNG key"):
        stax.Dropout(0.5)[1]((), jnp.ones(2))


_ = evaluate  # (the module-level fixtures batch every oracle call)
