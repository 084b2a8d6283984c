"""``jax_core.nn``'s activations, softmax family, ``one_hot`` and ``standardize``, compared bit for
bit with real JAX (the live oracle): values eagerly, under ``jit``, ``grad`` and ``vmap``, in
float32, the half types and float64 (x64), and the errors for bad arguments."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.nn
import jax_core.numpy as jnp
from tests.nn.tolerance import close
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

ACTIVATIONS = [
    "celu", "elu", "gelu", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "identity",
    "leaky_relu", "log1mexp", "log_sigmoid", "mish", "relu", "relu6", "selu", "sigmoid", "silu",
    "soft_sign", "softplus", "sparse_plus", "sparse_sigmoid", "squareplus", "swish", "tanh",
]  # fmt: skip
SPECIAL = np.array([-7.0, -3.0, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 2.0, 6.0, 9.0, np.inf, -np.inf, np.nan], np.float32)
RNG = np.random.default_rng(0)
X = {
    "x": SPECIAL,
    "r": (RNG.standard_normal((3, 8)) * 3).astype(np.float32),
    "ih": np.array([-2, 0, 1, 3], np.int32),
    "m": RNG.standard_normal((3, 8)) > -0.3,
}

CALLS: list[Call] = []
for name in ACTIVATIONS:
    CALLS += [
        Call(f"jax.nn.{name}(x)", X),
        Call(f"jax.nn.{name}(r)", X),
        Call(f"jax.nn.{name}(x.astype(jnp.float16))", X),
        Call(f"jax.nn.{name}(x.astype(jnp.bfloat16))", X),
        Call(f"jax.nn.{name}(x.astype(np.float64))", X, x64=True),
        Call(f"jax.nn.{name}(2.5)"),
        Call(f"jax.jit(jax.nn.{name})(r)", X),
        Call(f"jax.vmap(jax.nn.{name})(r)", X),
        Call(f"jax.vmap(jax.grad(jax.nn.{name}))(x)", X),
        Call(f"jax.jit(jax.vmap(jax.grad(jax.nn.{name})))(r[0])", X),
        Call(f"jax.nn.{name}([1.0, 2.0])"),
    ]
CALLS += [
    Call("jax.nn.relu(ih)", X),
    Call("jax.nn.relu6(ih)", X),
    Call("jax.nn.gelu(x, approximate=False)", X),
    Call("jax.nn.gelu(x.astype(jnp.bfloat16), False)", X),
    Call("jax.nn.gelu(ih)", X),
    Call("jax.vmap(jax.grad(lambda v: jax.nn.gelu(v, approximate=False)))(x)", X),
    Call("jax.nn.elu(x, 0.5)", X),
    Call("jax.nn.elu(r, alpha=r)", X),
    Call("jax.nn.celu(x, alpha=2.0)", X),
    Call("jax.nn.leaky_relu(x, negative_slope=0.2)", X),
    Call("jax.nn.squareplus(x, b=0.5)", X),
    Call("jax.nn.squareplus(x, 1)", X),
    Call("jax.nn.glu(r)", X),
    Call("jax.nn.glu(r.T, axis=0)", X),
    Call("jax.nn.glu(r, axis=0)", X),
    Call("jax.grad(lambda v: jax.nn.glu(v).sum())(r)", X),
    Call("jax.grad(jax.nn.relu)(0.0)"),
    Call("jax.grad(jax.nn.relu6)(6.0)"),
    Call("jax.make_jaxpr(jax.nn.relu)(1.0).jaxpr.eqns[0].primitive.name"),
    # softmax family
    Call("jax.nn.softmax(r)", X),
    Call("jax.nn.softmax(r, axis=0)", X),
    Call("jax.nn.softmax(r, axis=None)", X),
    Call("jax.nn.softmax(r, axis=(0, 1))", X),
    Call("jax.nn.softmax(x)", X),
    Call("jax.nn.softmax(r, where=m)", X),
    Call("jax.nn.softmax(r.astype(jnp.bfloat16))", X),
    Call("jax.nn.softmax(ih)", X),
    Call("jax.nn.softmax(r.astype(np.float64), axis=0)", X, x64=True),
    Call("jax.grad(lambda v: jax.nn.softmax(v)[:, 0].sum())(r)", X),
    Call("jax.grad(lambda v: (jax.nn.softmax(v, where=m) * v).sum())(r)", X),
    Call("jax.vmap(jax.nn.softmax)(r)", X),
    Call("jax.jit(jax.nn.softmax, static_argnames='axis')(r, axis=0)", X),
    Call("jax.nn.log_softmax(r)", X),
    Call("jax.nn.log_softmax(r, axis=0)", X),
    Call("jax.nn.log_softmax(r, axis=None, where=m)", X),
    Call("jax.nn.log_softmax(x)", X),
    Call("jax.nn.log_softmax(r.astype(jnp.float16))", X),
    Call("jax.grad(lambda v: jax.nn.log_softmax(v)[:, 1].sum())(r)", X),
    Call("jax.vmap(jax.nn.log_softmax, in_axes=1)(r)", X),
    Call("jax.nn.log_softmax([1.0, 2.0])"),
    Call("jax.nn.logsumexp(r)", X),
    Call("jax.nn.logsumexp(r, axis=1, keepdims=True)", X),
    Call("jax.nn.logsumexp(r, axis=0, b=r, return_sign=True)", X),
    Call("jax.nn.logsumexp(r, where=m)", X),
    Call("jax.nn.logmeanexp(r)", X),
    Call("jax.nn.logmeanexp(r, axis=1)", X),
    Call("jax.nn.logmeanexp(r, axis=(0, 1), keepdims=True)", X),
    Call("jax.nn.logmeanexp(r, axis=0, where=m)", X),
    Call("jax.nn.logmeanexp(ih)", X),
    Call("jax.grad(lambda v: jax.nn.logmeanexp(v, axis=1).sum())(r)", X),
    # standardize
    Call("jax.nn.standardize(r)", X),
    Call("jax.nn.standardize(r, axis=0)", X),
    Call("jax.nn.standardize(r, axis=None, epsilon=0.1)", X),
    Call("jax.nn.standardize(r, mean=0.5, variance=2.0)", X),
    Call("jax.nn.standardize(r, where=m)", X),
    Call("jax.nn.standardize(r, algorithm='stable')", X),
    Call("jax.nn.standardize(r, 0, None, None, 1e-5, m, algorithm='stable')", X),
    Call("jax.nn.standardize(ih)", X),
    Call("jax.nn.standardize(r.astype(jnp.bfloat16))", X),
    Call("jax.nn.standardize(r, algorithm='slow')", X),
    Call("jax.nn.standardize([1.0, 2.0])"),
    Call("jax.nn.standardize(r, mean=[1.0])", X),
    Call("jax.grad(lambda v: jax.nn.standardize(v)[0, 0])(r)", X),
    Call("jax.vmap(jax.nn.standardize)(r)", X),
    # one_hot
    Call("jax.nn.one_hot(ih, 3)", X),
    Call("jax.nn.one_hot(ih, 4, axis=0)", X),
    Call("jax.nn.one_hot(ih.reshape(2, 2), 4, axis=1, dtype=jnp.int8)", X),
    Call("jax.nn.one_hot(ih.reshape(2, 2), 4, axis=-2, dtype=jnp.bool_)", X),
    Call("jax.nn.one_hot(ih, np.int64(3), axis=np.int32(0))", X),
    Call("jax.nn.one_hot(ih.astype(jnp.uint8), 5)", X),
    Call("jax.nn.one_hot(2, 3)"),
    Call("jax.nn.one_hot([0, 2], 3)"),
    Call("jax.nn.one_hot(ih, 3, dtype=jnp.float16)", X),
    Call("jax.nn.one_hot(ih.astype(np.int64), 3)", X, x64=True),
    Call("jax.nn.one_hot(ih, 3, axis=2)", X),
    Call("jax.nn.one_hot(ih, 3, axis=-3)", X),
    Call("jax.nn.one_hot(ih, 3.5)", X),
    Call("jax.jit(lambda n: jax.nn.one_hot(ih, n))(3)", X),
    Call("jax.jit(lambda v: jax.nn.one_hot(v, 3))(ih)", X),
    Call("jax.vmap(lambda v: jax.nn.one_hot(v, 3))(ih)", X),
    Call("jax.vmap(lambda i: jax.nn.one_hot(i, 3, axis='i'), axis_name='i')(jnp.array([0, 1, 2]))"),
    Call("jax.vmap(lambda i: jax.nn.one_hot(i, 4, axis='i'), axis_name='i')(jnp.array([0, 1, 2]))"),
    Call("jax.nn.one_hot(ih, 3, out_sharding=jax.sharding.PartitionSpec())", X),
    Call("jax.nn.one_hot(ih, 3, out_sharding=3)", X),
]  # fmt: skip
live = live_fixture(CALLS)

# Where jax_core's lower layers (not jax_core.nn) differ from JAX 0.12 in the last bits or in a
# message's wording: compared within ``close`` (16 ulps) or by exception class, with the reason.
_LOGISTIC = "lax.logistic lowers to HLO logistic; JAX's CPU lowering is 1 / (1 + exp(-x)) (bfloat16 differs)"
_LIST_ARG = "lax's message for a list argument differs from JAX's 'Error interpreting argument to logistic'"
TOLERATED = {
    "jax.nn.sigmoid(x.astype(jnp.bfloat16))": _LOGISTIC,
    "jax.nn.silu(x.astype(jnp.bfloat16))": _LOGISTIC,
    "jax.nn.swish(x.astype(jnp.bfloat16))": _LOGISTIC,
    "jax.nn.sigmoid([1.0, 2.0])": _LIST_ARG,
    "jax.vmap(jax.grad(lambda v: jax.nn.gelu(v, approximate=False)))(x)":
        "erfc's jvp: JAX 0.12 computes exp(-x**2) by a split square (exp_neg_sq), lax by exp(neg(square))",
    "jax.grad(lambda v: (jax.nn.softmax(v, where=m) * v).sum())(r)":
        "the backward pass adds the two cotangents of v in another order (1 ulp)",
    "jax.jit(lambda n: jax.nn.one_hot(ih, n))(3)":
        "core's ConcretizationTypeError prints the weak type (~int32[]) and no blank line before the link",
}  # fmt: skip


@pytest.mark.parametrize("call", CALLS, ids=[c.expr + (" x64" if c.x64 else "") for c in CALLS])
def test_same_as_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    if call.expr in TOLERATED:
        close(here(call), theirs, f"{call.expr} ({TOLERATED[call.expr]})")
        return
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


def test_one_hot_float_input_warns() -> None:
    with pytest.warns(DeprecationWarning, match="jax.nn.one_hot input should be integer-typed; got dtype=float32"):
        out = jax_core.nn.one_hot(jnp.array([0.0, 1.0]), 2)
    np.testing.assert_array_equal(np.asarray(out), np.eye(2, dtype=np.float32))


def test_relu_is_custom_jvp() -> None:
    assert isinstance(jax_core.nn.relu, jax.custom_jvp)
    assert isinstance(jax_core.nn.relu6, jax.custom_jvp)
    assert isinstance(jax_core.nn.log1mexp, jax.custom_jvp)
    assert jax_core.nn.swish is jax_core.nn.silu and jax_core.nn.hard_swish is jax_core.nn.hard_silu
