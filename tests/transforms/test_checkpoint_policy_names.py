"""``jax_core.checkpoint_policies`` has JAX 0.12's policies, and each gives the gradient that no
checkpoint gives (what is saved changes, not the result)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import checkpoint_policies as cp

JAX_0_12_POLICIES = [
    "checkpoint_dots", "checkpoint_dots_with_no_batch_dims", "dots_saveable", "dots_with_no_batch_dims_saveable",
    "everything_saveable", "nothing_saveable", "offload_dot_with_no_batch_dims", "save_and_offload_only_these_names",
    "save_any_names_but_these", "save_anything_except_these_names", "save_from_both_policies", "save_only_these_names",
]  # fmt: skip


def test_the_policies_are_jax_s() -> None:
    assert sorted(n for n in dir(cp) if not n.startswith("_") and n != "annotations") == JAX_0_12_POLICIES


def _loss(w: jax.Array, x: jax.Array) -> jax.Array:
    h = jax.ad_checkpoint.checkpoint_name(jnp.tanh(x @ w), "h")
    return jnp.sum(jnp.sin(h @ w))


@pytest.mark.parametrize(
    "policy",
    [
        cp.dots_saveable,
        cp.checkpoint_dots_with_no_batch_dims,
        cp.save_anything_except_these_names("h"),
        cp.save_from_both_policies(cp.dots_saveable, cp.save_only_these_names("h")),
        cp.save_and_offload_only_these_names(
            names_which_can_be_saved=["h"], names_which_can_be_offloaded=[], offload_src="device", offload_dst="pinned_host"
        ),
    ],
)
def test_policies_give_the_plain_gradient(policy: Any) -> None:
    w = jnp.asarray(np.linspace(-1, 1, 9, dtype=np.float32).reshape(3, 3))
    x = jnp.asarray(np.linspace(0, 1, 6, dtype=np.float32).reshape(2, 3))
    expected = np.asarray(jax.grad(_loss)(w, x))
    np.testing.assert_allclose(np.asarray(jax.grad(jax.checkpoint(_loss, policy=policy))(w, x)), expected, rtol=1e-6)


def test_offloading_is_not_implemented_and_names_must_be_exclusive() -> None:
    w = jnp.ones((3, 3))
    with pytest.raises(NotImplementedError, match="Offloadable"):
        jax.grad(jax.checkpoint(_loss, policy=cp.offload_dot_with_no_batch_dims("device", "pinned_host")))(w, jnp.ones((2, 3)))
    with pytest.raises(ValueError, match="should be exclusive"):
        cp.save_and_offload_only_these_names(
            names_which_can_be_saved=["h"], names_which_can_be_offloaded=["h"], offload_src="device", offload_dst="pinned_host"
        )
