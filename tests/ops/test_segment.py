"""jax_core.ops' segment reductions against real JAX (live oracle): values bit for bit, dtypes,
empty segments' identities, out-of-range ids per ``mode``, buckets, errors, jit, grad and vmap."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.core.errors import ConcretizationTypeError
from jax_core._src.ops.segment import segment_max, segment_min, segment_prod, segment_sum
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

rng = np.random.default_rng(11)
INPUTS = {
    "d": rng.standard_normal((6, 3)).astype(np.float32),
    "s": np.array([0, 2, 0, 3, 2, 2], np.int32),
    "n": np.array([4, -1, 0, 7, 2, 2], np.int32),  # out-of-range ids
}
OPS = ("segment_sum", "segment_prod", "segment_max", "segment_min")

EXPRS = [
    *(f"jax.ops.{op}(d, s)" for op in OPS),
    *(f"jax.ops.{op}(d, s, 5)" for op in OPS),  # segments 1 and 4 are empty: identities
    *(f"jax.ops.{op}(d, n, 5)" for op in OPS),  # -1 and 7 dropped
    *(f"jax.ops.{op}(d, n, 5, mode='clip')" for op in OPS),
    *(f"jax.ops.{op}(d, s, 4, bucket_size=4)" for op in OPS),
    *(f"jax.ops.{op}(d[:, 0], s, 4, bucket_size=2)" for op in OPS),
    *(f"jax.ops.{op}(d.astype(dt), s, 5)" for op in OPS for dt in ("jnp.float16", "jnp.bfloat16")),
    *(f"jax.ops.{op}(jnp.arange(6, dtype=dt), s, 5)" for op in OPS for dt in ("jnp.int8", "jnp.uint8", "jnp.int32")),
    *(f"jax.ops.{op}(jnp.arange(6) % 2 == 0, s, 5)" for op in OPS),
    "jax.ops.segment_sum(d, n, 5, mode='promise_in_bounds')",
    "jax.ops.segment_sum(d, n, 5, mode=lax.GatherScatterMode.FILL_OR_DROP)",
    "jax.ops.segment_sum(d, s, 4, indices_are_sorted=True, unique_indices=True)",
    "jax.ops.segment_sum(d, s.astype(np.uint8), 4)",
    "jax.ops.segment_sum(d, s.astype(np.int8), 4, bucket_size=5)",
    "jax.ops.segment_sum(d, np.array([0, 1, 255, 2, 3, 3], np.uint8), 4)",
    "jax.ops.segment_sum(d, s, np.int32(4))",
    "jax.ops.segment_sum(d, s, jnp.int32(4))",
    "jax.ops.segment_sum(d, s, 0)",
    "jax.ops.segment_sum(2.5, s, 5)",
    "jax.ops.segment_sum(d[:, 0], s.reshape(2, 3), 4)",
    "jax.ops.segment_sum(jnp.ones((0, 3)), jnp.zeros(0, jnp.int32), 3)",
    "jax.ops.segment_max(jnp.ones((0, 3)), jnp.zeros(0, jnp.int32), 3, bucket_size=2)",
    # jit (num_segments static), vmap, grad
    "jax.jit(jax.ops.segment_sum, static_argnums=2)(d, s, 4)",
    "jax.jit(lambda x, i: jax.ops.segment_max(x, i, 4, bucket_size=2))(d, s)",
    "jax.vmap(lambda x: jax.ops.segment_sum(x, s, 4))(d.T)",
    "jax.vmap(lambda i: jax.ops.segment_min(d, i, 4))(np.stack([s, s[::-1]]))",
    "jax.vmap(lambda x, i: jax.ops.segment_prod(x, i, 4), in_axes=(1, None))(d, s)",
    *(f"jax.grad(lambda x: jax.ops.{op}(x, s, 4).sum())(d)" for op in ("segment_sum", "segment_max", "segment_min")),
    "jax.grad(lambda x: jax.ops.segment_max(x, s, 4, bucket_size=2).sum())(d)",
    "jax.grad(lambda x: jax.ops.segment_prod(x, np.arange(6), 6, unique_indices=True).sum())(d)",
    "jax.grad(lambda x: jax.ops.segment_sum(x, n, 5, mode='clip').sum())(d)",
    # bad input: JAX's exception class and message
    "jax.ops.segment_sum(d, s, -1)",
    "jax.ops.segment_sum(d, s, 3.0)",
    "jax.ops.segment_sum(d, s, mode='bad')",
    "jax.ops.segment_sum(d, s.astype(np.float32))",
    "jax.ops.segment_sum(d, s.astype(np.float32), 3)",
    "jax.ops.segment_sum([1.0, 2.0], s)",
    "jax.ops.segment_sum(d, [0, 1])",
    "jax.ops.segment_sum(d, jnp.zeros(0, jnp.int32))",
    "jax.ops.segment_sum(d, s, 4, bucket_size=0)",
    "jax.grad(lambda x: jax.ops.segment_prod(x, s, 4).sum())(d)",
]
CALLS = [Call(e, INPUTS) for e in EXPRS]
X64_CALLS = [
    Call(e, INPUTS, x64=True)
    for e in (
        "jax.ops.segment_sum(d.astype(np.float64), s.astype(np.int64), 4)",
        "jax.ops.segment_max(jnp.arange(6, dtype=jnp.int64), s, 5)",
        "jax.ops.segment_min(d, s.astype(np.uint64), 5, bucket_size=2)",
    )
]
# Tracer errors name the file of the function: compared by class only.
CLASS_ONLY = [Call(e, INPUTS) for e in ("jax.jit(jax.ops.segment_sum)(d, s)", "jax.jit(jax.ops.segment_sum)(d, s, 4)")]
ALL = CALLS + X64_CALLS + CLASS_ONLY
live = live_fixture(ALL)


@pytest.mark.parametrize("call", CALLS + X64_CALLS, ids=[c.expr + (" x64" if c.x64 else "") for c in CALLS + X64_CALLS])
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    # lax's "Accepted dtypes ... are subtypes of ..." lists a set of kinds: JAX's order varies
    # from process to process, so those messages are compared by class only.
    ordered = theirs.error is not None and "Accepted dtypes" not in (theirs.message or "")
    assert_same(here(call), theirs, call.expr, messages=ordered)


@pytest.mark.parametrize("call", CLASS_ONLY, ids=[c.expr for c in CLASS_ONLY])
def test_tracer_errors(call: Call, live: dict[str, Outcome]) -> None:
    ours = here(call)
    assert ours.error == live[call.expr].error == "ConcretizationTypeError"
    assert ours.message is not None and "segment_sum() `num_segments` argument." in ours.message


def test_identities_and_dtypes() -> None:
    ids = np.array([0, 0, 2])
    assert segment_max(np.array([1.0, 2.0, 3.0], np.float32), ids, 4).tolist() == [2.0, -np.inf, 3.0, -np.inf]
    assert segment_min(np.array([1, 2, 3], np.int8), ids, 4).tolist() == [1, 127, 3, 127]
    assert segment_prod(np.array([2, 3, 4], np.uint8), ids, 4).tolist() == [6, 1, 4, 1]
    assert segment_sum(np.ones(3, np.float16), ids, 4).dtype == np.float16


def test_num_segments_under_jit() -> None:
    with pytest.raises(ConcretizationTypeError):
        jax.jit(segment_sum)(jnp.ones(3), jnp.array([0, 1, 1]))
    out = jax.jit(segment_sum, static_argnums=2)(jnp.ones(3), jnp.array([0, 1, 1]), 3)
    assert out.tolist() == [1.0, 2.0, 0.0]


def test_out_sharding_is_refused() -> None:
    from jax_core._src.sharding.partition_spec import PartitionSpec

    with pytest.raises(NotImplementedError, match="out_sharding"):
        segment_sum(jnp.ones(3), jnp.array([0, 1, 1]), 2, out_sharding=PartitionSpec())
