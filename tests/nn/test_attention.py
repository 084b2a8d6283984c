"""``jax_core.nn.dot_product_attention`` against real JAX: multi-head, grouped-query and
multi-query layouts, 3-D inputs, bias, masks, causal and local windows, padding by sequence
lengths, the logsumexp residual, half types, ``jit``/``grad``/``vmap``, and JAX's errors."""

from __future__ import annotations

import numpy as np
import pytest

from tests.nn.tolerance import close
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

RNG = np.random.default_rng(1)


def _normal(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


X = {
    "q": _normal(2, 3, 4, 8),  # B T N H
    "k": _normal(2, 5, 4, 8),  # B S N H
    "v": _normal(2, 5, 4, 8),
    "kg": _normal(2, 5, 2, 8),  # K = 2 groups of 2 query heads
    "vg": _normal(2, 5, 2, 8),
    "k1": _normal(2, 5, 1, 8),  # multi-query
    "v1": _normal(2, 5, 1, 8),
    "bias": _normal(2, 4, 3, 5),
    "bias1": _normal(1, 1, 3, 5),
    "biasn": _normal(2, 1, 3, 5),
    "mask": RNG.standard_normal((2, 4, 3, 5)) > -0.5,
    "mask1": RNG.standard_normal((3, 5)) > -0.5,
    "ql": np.array([2, 3], np.int32),
    "kl": np.array([4, 1], np.int32),
}
DPA = "jax.nn.dot_product_attention"
EXPRS = [
    f"{DPA}(q, k, v)",
    f"{DPA}(q, kg, vg)",
    f"{DPA}(q, k1, v1)",
    f"{DPA}(q[0], k[0], v[0])",
    f"{DPA}(q, k, v, bias)",
    f"{DPA}(q, kg, vg, bias)",
    f"{DPA}(q, kg, vg, biasn)",
    f"{DPA}(q, k, v, bias1)",
    f"{DPA}(q, k, v, mask=mask)",
    f"{DPA}(q, kg, vg, bias, mask)",
    f"{DPA}(q, k, v, mask=mask1)",
    f"{DPA}(q[0], k[0], v[0], bias=bias[0], mask=mask[0])",
    f"{DPA}(q, k, v, is_causal=True)",
    f"{DPA}(q, kg, vg, is_causal=True, local_window_size=1)",
    f"{DPA}(q, k, v, local_window_size=(2, 0))",
    f"{DPA}(q, k, v, query_seq_lengths=ql)",
    f"{DPA}(q, k, v, key_value_seq_lengths=kl)",
    f"{DPA}(q, k, v, mask=mask, is_causal=True, query_seq_lengths=ql, key_value_seq_lengths=kl)",
    f"{DPA}(q, k, v, scale=0.5)",
    f"{DPA}(q, k, v, implementation='xla')",
    f"{DPA}(q, k, v, return_residual=True)",
    f"{DPA}(q, kg, vg, bias, is_causal=True, query_seq_lengths=ql, return_residual=True)",
    f"{DPA}(q[0], k[0], v[0], return_residual=True)",
    f"{DPA}(q.astype(jnp.bfloat16), k.astype(jnp.bfloat16), v.astype(jnp.bfloat16))",
    f"{DPA}(q.astype(jnp.float16), kg.astype(jnp.float16), vg.astype(jnp.float16), bias)",
    f"{DPA}(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), is_causal=True)",
    f"jax.jit({DPA})(q, kg, vg, bias)",
    f"jax.jit({DPA}, static_argnames='is_causal')(q, k, v, is_causal=True)",
    f"jax.jit({DPA})(q.astype(jnp.float16), k.astype(jnp.float16), v.astype(jnp.float16))",
    f"jax.grad(lambda a: {DPA}(a, kg, vg, bias).sum())(q)",
    f"jax.grad(lambda a, b, c: ({DPA}(a, b, c, is_causal=True) ** 2).sum(), argnums=(0, 1, 2))(q, k, v)",
    f"jax.grad(lambda bb: {DPA}(q, k, v, bb, mask).sum())(bias)",
    f"jax.vmap({DPA})(q, k, v)",
    f"jax.vmap(lambda a: {DPA}(a, k[0], v[0], is_causal=True))(q)",
    # errors
    f"{DPA}(q, k[..., :4], v)",
    f"{DPA}(q, k, v.astype(jnp.float16))",
    f"{DPA}(q[..., :4], k, v)",
    f"{DPA}(q[:, :, :3], kg, vg)",
    f"{DPA}(q, k, v, mask=bias)",
    f"{DPA}(q, k, v, bias=bias[0, 0, 0])",
    f"{DPA}(q, k, v, query_seq_lengths=ql.astype(np.int64))",
    f"{DPA}(q, k, v, key_value_seq_lengths=kl[:1])",
    f"{DPA}(q, k, v, implementation='cudnn')",
    f"{DPA}(q, k, v, local_window_size=(1, 1), implementation='cudnn')",
    f"{DPA}(q, k, v, local_window_size=(1, 1), is_causal=True, implementation='cudnn')",
    f"{DPA}(q, k, v, implementation='flash')",
]
# The float16 logits ask for F16_F16_F32, which CPU refuses: eagerly JAX falls back to the
# default precision; under jit the refusal surfaces when lowering (a ValueError in both).
CALLS = [Call(e, X) for e in EXPRS] + [Call(f"{DPA}(q, k, v, bias, is_causal=True) + 0", X, x64=True)]
live = live_fixture(CALLS)
# Gradients: the backward pass sums the softmax's cotangents in another order than JAX's, so
# elements that cancel differ in their last bits (compared within 16 ulps of the largest).
TOLERATED = {e for e in EXPRS if e.startswith("jax.grad(")}


@pytest.mark.parametrize("call", CALLS, ids=[c.expr + (" x64" if c.x64 else "") for c in CALLS])
def test_same_as_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    if call.expr in TOLERATED:
        close(here(call), theirs, call.expr)
        return
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)
