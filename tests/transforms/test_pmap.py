"""pmap on this runtime: the values of JAX's pmap (checked against vmap and NumPy), collectives
over ``axis_name``, static broadcast arguments, differentiation, and the device-count limit."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax

N = len(jax.local_devices())


def test_pmap_maps_the_leading_axis() -> None:
    x = np.arange(N * 3, dtype=np.float32).reshape(N, 3)
    out = jax.pmap(lambda v: jnp.sin(v) * 2)(x)
    assert isinstance(out, jax.Array) and out.shape == (N, 3)
    np.testing.assert_allclose(out, np.sin(x) * 2, rtol=1e-6)


def test_pmap_binds_axis_name_for_collectives() -> None:
    x = np.arange(N * 2, dtype=np.float32).reshape(N, 2)
    out = jax.pmap(lambda v: lax.psum(v, "i"), axis_name="i")(x)
    np.testing.assert_allclose(out, np.broadcast_to(x.sum(0), x.shape))
    idx = jax.pmap(lambda v: lax.axis_index("i") + 0 * v, axis_name="i")(np.zeros(N, np.int32))
    np.testing.assert_array_equal(idx, np.arange(N))


def test_static_broadcasted_argnums_and_in_axes() -> None:
    x = np.ones((N, 2), np.float32)
    g = jax.pmap(lambda v, n: v * n, static_broadcasted_argnums=1)
    np.testing.assert_allclose(g(x, 3), 3 * x)
    h = jax.pmap(lambda v, w: v + w, in_axes=(0, None))
    np.testing.assert_allclose(h(x, np.full(2, 5.0, np.float32)), x + 5)
    np.testing.assert_allclose(jax.pmap(lambda v: v, in_axes=1, out_axes=1)(x.T), x.T)


def test_pmap_differentiates_and_lowers() -> None:
    x = np.linspace(0.1, 1.0, 2 * N, dtype=np.float32).reshape(N, 2)
    g = jax.grad(lambda v: jax.pmap(jnp.sin)(v).sum())(x)
    np.testing.assert_allclose(g, np.cos(x), rtol=1e-5)
    text = jax.pmap(jnp.sin).lower(x).as_text()
    assert "sine" in text


def test_mapped_axis_longer_than_the_devices_is_a_value_error() -> None:
    # As JAX 0.12 (pmap is jit of shard_map over the devices): a mapped size the devices divide
    # fails in the body (each device gets more than one slice), another one at the split.
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has size not equal to one"):
        jax.pmap(jnp.sin)(np.ones((N + 1, 2), np.float32))


def test_unknown_backend_is_not_implemented() -> None:
    with pytest.raises(NotImplementedError, match="backend='tpu'"):
        jax.pmap(jnp.sin, backend="tpu")
