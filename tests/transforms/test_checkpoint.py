"""checkpoint/remat (seed 000): what each policy saves as a residual, rematerialisation of
values that do not depend on the arguments, static_argnums, and gradients that stay right."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.ad_checkpoint import checkpoint_name, saved_residuals
from jax_core.test_util import check_grads

COVERED = frozenset({"checkpoint", "name"})

W = np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(4, 4)
X = np.linspace(0.1, 0.9, 4, dtype=np.float32)


def layer(w: Any, x: Any) -> Any:
    return jnp.sin(jnp.dot(w, x))


def net(w: Any, x: Any) -> Any:
    return jnp.sum(layer(w, layer(w, x)))


def residual_sources(fun: Any, *args: Any) -> list[str]:
    return [what.split(" from ")[0] for _, what in saved_residuals(fun, *args)]


def test_without_checkpoint_intermediates_are_saved() -> None:
    sources = residual_sources(net, W, X)
    assert "output of dot_general" in sources or "output of cos" in sources
    assert len(sources) > 2


def test_default_policy_saves_only_the_inputs() -> None:
    sources = residual_sources(jax.checkpoint(net), W, X)
    assert sources and all(s.startswith("from the argument") for s in sources), sources


def test_everything_saveable_saves_intermediates() -> None:
    f = jax.checkpoint(net, policy=jax.checkpoint_policies.everything_saveable)
    sources = residual_sources(f, W, X)
    assert any(s.startswith("output of") for s in sources), sources


def test_checkpoint_dots_saves_only_matmul_results() -> None:
    f = jax.checkpoint(net, policy=jax.checkpoint_policies.checkpoint_dots)
    computed = [s for s in residual_sources(f, W, X) if s.startswith("output of")]
    assert computed and set(computed) == {"output of dot_general"}, computed


def test_dots_with_no_batch_dims_saveable() -> None:
    f = jax.checkpoint(net, policy=jax.checkpoint_policies.dots_with_no_batch_dims_saveable)
    assert "output of dot_general" in residual_sources(f, W, X)


def test_save_only_these_names() -> None:
    def named(w: Any, x: Any) -> Any:
        h = checkpoint_name(jnp.sin(jnp.dot(w, x)), "hidden")
        g = checkpoint_name(jnp.cos(h), "other")
        return jnp.sum(jnp.sin(g) * h)

    only = jax.checkpoint(named, policy=jax.checkpoint_policies.save_only_these_names("hidden"))
    assert [s for s in residual_sources(only, W, X) if not s.startswith("from")] == ["named 'hidden'"]
    but = jax.checkpoint(named, policy=jax.checkpoint_policies.save_any_names_but_these("hidden"))
    assert [s for s in residual_sources(but, W, X) if not s.startswith("from")] == ["named 'other'"]
    np.testing.assert_allclose(jax.grad(only)(W, X), jax.grad(named)(W, X), rtol=1e-5)


def test_values_independent_of_the_arguments_are_recomputed_not_saved() -> None:
    # Seed 000: `a = f(jnp.arange(n))` inside a checkpoint is rematerialised, not saved.
    n = 100_000

    @jax.checkpoint
    def f(x: Any) -> Any:
        a = jnp.sin(jnp.arange(n, dtype=jnp.float32))
        return jnp.sum(a * x)

    for aval, what in saved_residuals(f, np.float32(2.0)):
        assert aval.shape != (n,), what
    jaxpr = str(jax.make_jaxpr(jax.grad(f))(np.float32(2.0)))
    assert jaxpr.count("iota") == 2  # once forward, once inside the staged checkpoint
    np.testing.assert_allclose(jax.grad(f)(np.float32(2.0)), np.sin(np.arange(n, dtype=np.float32)).sum(), rtol=1e-3)
    unchecked = lambda x: jnp.sum(jnp.sin(jnp.arange(n, dtype=jnp.float32)) * x)  # noqa: E731
    assert any(a.shape == (n,) for a, _ in saved_residuals(unchecked, np.float32(2.0)))


def test_gradients_are_unchanged_by_checkpointing() -> None:
    expected = jax.grad(net)(W, X)
    for policy in (None, jax.checkpoint_policies.everything_saveable, jax.checkpoint_policies.checkpoint_dots):
        np.testing.assert_allclose(jax.grad(jax.checkpoint(net, policy=policy))(W, X), expected, rtol=1e-5)
    np.testing.assert_allclose(jax.jit(jax.grad(jax.remat(net)))(W, X), expected, rtol=1e-5)
    np.testing.assert_allclose(jax.vmap(jax.grad(jax.checkpoint(net)), in_axes=(None, 0))(W, np.stack([X, X])), np.stack([expected, expected]), rtol=1e-5)


def test_checkpoint_check_grads_second_order() -> None:
    from jax_core._src.config import enable_x64

    with enable_x64(True):
        check_grads(jax.checkpoint(lambda x: jnp.sum(jnp.sin(x) ** 2)), (np.array([0.2, 0.5]),), order=2)


def test_static_argnums() -> None:
    @partial(jax.checkpoint, static_argnums=(1,))
    def f(x: Any, training: bool) -> Any:
        return jnp.sin(x) if training else jnp.cos(x)

    np.testing.assert_allclose(jax.grad(f)(0.3, True), np.cos(0.3), rtol=1e-6)
    np.testing.assert_allclose(jax.grad(f)(0.3, False), -np.sin(0.3), rtol=1e-6)


def test_checkpoint_staged_equation_and_prevent_cse_barrier() -> None:
    text = str(jax.make_jaxpr(jax.checkpoint(jnp.sin))(1.0))
    assert "checkpoint[" in text and "prevent_cse=True" in text
    hlo = jax.jit(jax.grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x))))).lower(1.0).as_text()
    assert "optimization_barrier" in hlo
    hlo_no = jax.jit(jax.grad(jax.checkpoint(lambda x: jnp.sin(jnp.sin(x)), prevent_cse=False))).lower(1.0).as_text()
    assert "optimization_barrier" not in hlo_no


def test_static_argnums_out_of_range() -> None:
    with pytest.raises(ValueError, match="static_argnums"):
        jax.checkpoint(lambda x: x, static_argnums=(3,))(1.0)
