"""``scaled_matmul``, ``scaled_dot_general`` and ``get_scaled_dot_general_config`` against real
JAX on CPU: block-scaled products of float8/float4 operands, the MX/NV quantization with its
straight-through gradient, ``jit``/``vmap``, and JAX's errors."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core.nn
import jax_core.numpy as jnp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

RNG = np.random.default_rng(2)
X = {
    "a": RNG.standard_normal((2, 4, 64)).astype(np.float32),
    "b": RNG.standard_normal((2, 3, 64)).astype(np.float32),
    "sa": (RNG.uniform(0.5, 2.0, (2, 4, 2))).astype(np.float32),
    "sb": (RNG.uniform(0.5, 2.0, (2, 3, 2))).astype(np.float32),
    "l": RNG.standard_normal((2, 32, 64)).astype(np.float32),
    "r": RNG.standard_normal((2, 32, 64)).astype(np.float32),
    "l2": RNG.standard_normal((32, 64)).astype(np.float32),
    "r2": RNG.standard_normal((64, 32)).astype(np.float32),
}
SM = "jax.nn.scaled_matmul"
SDG = "jax.nn.scaled_dot_general"
CFG = "jax.nn.get_scaled_dot_general_config"
DN = "(((2,), (2,)), ((0,), (0,)))"
F8 = "a.astype(jnp.float8_e4m3fn), b.astype(jnp.float8_e4m3fn), sa.astype(jnp.float8_e8m0fnu), sb.astype(jnp.float8_e8m0fnu)"
EXPRS = [
    (
        f"{SM}(jnp.array([1, 2, 3]).reshape((1, 1, 3)), jnp.array([4, 5, 6]).reshape((1, 1, 3)), "
        "jnp.array([0.5]).reshape((1, 1, 1)), jnp.array([0.5]).reshape((1, 1, 1)))"
    ),
    f"{SM}(jnp.asarray(a), jnp.asarray(b), jnp.asarray(sa), jnp.asarray(sb))",
    f"{SM}({F8})",
    f"{SM}({F8}, preferred_element_type=jnp.bfloat16)",
    f"{SM}(a.astype(jnp.float4_e2m1fn), b.astype(jnp.float4_e2m1fn), sa.astype(jnp.float8_e4m3fn), sb.astype(jnp.float8_e4m3fn))",
    f"jax.jit({SM})({F8})",
    f"jax.vmap({SM})(jnp.asarray(a)[None], jnp.asarray(b)[None], jnp.asarray(sa)[None], jnp.asarray(sb)[None])",
    f"jax.vmap({SM}, in_axes=(0, None, 0, None))(jnp.stack([a, a]), jnp.asarray(b), jnp.stack([sa, sa]), jnp.asarray(sb))",
    f"{SM}(jnp.asarray(a)[0], jnp.asarray(b), jnp.asarray(sa), jnp.asarray(sb))",
    f"{SM}(jnp.asarray(a), jnp.asarray(b)[:, :, :32], jnp.asarray(sa), jnp.asarray(sb))",
    f"{SM}(jnp.asarray(a), jnp.asarray(b), jnp.asarray(sa), jnp.asarray(sb)[:, :, :1])",
    f"{SM}(jnp.asarray(a), jnp.asarray(b), jnp.asarray(sa)[:, :2], jnp.asarray(sb))",
    f"{SM}(jnp.asarray(a), jnp.asarray(b), jnp.asarray(sa), jnp.asarray(sb), preferred_element_type='float31')",
    # configs
    f"str({CFG}('mxfp8'))",
    f"str({CFG}('mxfp4'))",
    f"str({CFG}('nvfp4'))",
    f"str({CFG}('nvfp4', jnp.array([0.5], jnp.float32)))",
    f"{CFG}('mxfp4', jnp.array([0.5], jnp.float32))",
    f"{CFG}('fp8')",
    # scaled_dot_general
    f"{SDG}(l, r, {DN})",
    f"{SDG}(l2, r2, (((1,), (0,)), ((), ())), preferred_element_type=jnp.bfloat16)",
    f"{SDG}(l, r, {DN}, configs=[{CFG}('mxfp8')] * 3)",
    f"{SDG}(l, r, {DN}, configs=[{CFG}('mxfp4')] * 3)",
    f"{SDG}(l, r, {DN}, configs=[{CFG}('nvfp4')] * 3)",
    f"{SDG}(l, r, {DN}, configs=[{CFG}('nvfp4', jnp.array([0.25], jnp.float32))] * 3)",
    f"{SDG}(l, r, {DN}, preferred_element_type=jnp.bfloat16, configs=[{CFG}('mxfp8')] * 3)",
    f"{SDG}(l.astype(jnp.bfloat16), r.astype(jnp.bfloat16), {DN}, jnp.bfloat16, [{CFG}('mxfp4')] * 3)",
    f"{SDG}(jnp.asarray(l2), jnp.asarray(r2).T, (((1,), (1,)), ((), ())), configs=[{CFG}('mxfp8')] * 3)",
    f"{SDG}(l.transpose(0, 2, 1), r, (((1,), (2,)), ((0,), (0,))), configs=[{CFG}('mxfp8')] * 3)",
    f"{SDG}([1.0], r, {DN}, preferred_element_type=jnp.int32, configs=[{CFG}('mxfp8')] * 3)",
    f"jax.jit(lambda x, y: {SDG}(x, y, {DN}, configs=[{CFG}('mxfp8')] * 3))(l, r)",
    f"jax.grad(lambda x, y: {SDG}(x, y, {DN}, configs=[{CFG}('mxfp8')] * 3).sum(), argnums=(0, 1))(l, r)",
    f"jax.grad(lambda x, y: ({SDG}(x, y, {DN}, configs=[{CFG}('mxfp4')] * 3) ** 2).sum(), argnums=(0, 1))(l, r)",
    f"jax.grad(lambda x: {SDG}(x, r, {DN}, configs=[{CFG}('nvfp4')] * 3).sum())(l * 1e3)",
    f"jax.grad(lambda x: {SDG}(x, jnp.asarray(r2).T, (((1,), (1,)), ((), ())), configs=[{CFG}('mxfp8')] * 3).sum())(l2)",
    f"jax.vmap(lambda x, y: {SDG}(x, y, (((1,), (1,)), ((), ())), configs=[{CFG}('mxfp8')] * 3))(l, r)",
]
CALLS = [Call(e, X) for e in EXPRS]
live = live_fixture(CALLS)
# JAX's message is a format string it forgot to format ("but got {preferred_element_type}").
OWN_MESSAGE = {e for e in EXPRS if "preferred_element_type=jnp.int32" in e}


@pytest.mark.parametrize("call", CALLS, ids=EXPRS)
def test_same_as_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None and call.expr not in OWN_MESSAGE)


def test_implementation_is_deprecated() -> None:
    lhs, rhs = jnp.ones((2, 3)), jnp.ones((3, 2))
    with pytest.warns(DeprecationWarning, match="Backend selector, now ignored"):
        out = jax_core.nn.scaled_dot_general(lhs, rhs, (((1,), (0,)), ((), ())), implementation="cudnn")
    np.testing.assert_array_equal(np.asarray(out), np.full((2, 2), 3.0, np.float32))
    assert jax_core.nn.get_scaled_dot_general_config("mxfp8").block_size == 32
