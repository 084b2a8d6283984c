"""The device array surface: JAX's repr, conversions, immutability, NumPy interop."""

import pickle

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp


def test_repr_matches_jax() -> None:
    # Recorded from real JAX 0.12.
    assert repr(jnp.array([1.0, 2.0])) == "Array([1., 2.], dtype=float32)"
    assert repr(jnp.array(1)) == "Array(1, dtype=int32, weak_type=True)"
    assert repr(jnp.array([True])) == "Array([ True], dtype=bool)"
    assert repr(jnp.zeros((2, 0))) == "Array([], shape=(2, 0), dtype=float32)"
    assert repr(jnp.arange(12).reshape(3, 4)) == (
        "Array([[ 0,  1,  2,  3],\n       [ 4,  5,  6,  7],\n       [ 8,  9, 10, 11]], dtype=int32)"
    )
    assert str(jnp.array([1.0, 2.0])) == "[1. 2.]"


def test_basic_properties() -> None:
    x = jnp.ones((2, 3), jnp.int32)
    assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6 and x.dtype == np.int32
    assert x.itemsize == 4 and x.nbytes == 24 and len(x) == 2
    assert not x.weak_type and jnp.array(2.0).weak_type
    assert x.devices() == {jax.devices()[0]}
    assert x.block_until_ready() is x
    assert isinstance(x, jax.Array)


def test_scalar_conversions() -> None:
    assert bool(jnp.array(True)) is True
    assert int(jnp.array(3)) == 3
    assert float(jnp.array(2.5)) == 2.5
    assert complex(jnp.array(1.0)) == 1 + 0j
    assert [10, 20, 30][jnp.array(1)] == 20
    assert jnp.array(4).item() == 4
    assert jnp.array([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert f"{jnp.array(1.5):.2f}" == "1.50"
    with pytest.raises(ValueError, match="ambiguous"):
        bool(jnp.ones(2))
    with pytest.raises(TypeError, match="only integer scalar arrays"):
        [1, 2][jnp.array(1.0)]


def test_unhashable_and_immutable() -> None:
    x = jnp.ones(3)
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    with pytest.raises(TypeError, match="JAX arrays are immutable"):
        x[0] = 2.0  # type: ignore[index]


def test_numpy_interop() -> None:
    x = jnp.arange(4.0)
    host = np.asarray(x)
    assert isinstance(host, np.ndarray) and host.dtype == np.float32
    np.testing.assert_array_equal(host, [0, 1, 2, 3])
    assert not host.flags.writeable
    np.testing.assert_allclose(np.sin(x), np.sin(np.arange(4.0, dtype=np.float32)))
    assert np.asarray(x, dtype=np.int64).dtype == np.int64
    y = x + np.ones(4, np.float32)
    assert isinstance(y, jax.Array)
    z = np.ones(4, np.float32) + x
    assert isinstance(z, jax.Array)


def test_jax_array_protocol_inputs() -> None:
    class Wrapper:
        def __init__(self, v: float) -> None:
            self.v = v

        def __jax_array__(self) -> jax.Array:
            return jnp.array([self.v, self.v])

    np.testing.assert_allclose(np.asarray(jnp.sin(Wrapper(0.5))), np.sin([0.5, 0.5]), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jax.jit(lambda w: w * 2)(Wrapper(1.0))), [2.0, 2.0])


def test_iteration_and_pickle() -> None:
    x = jnp.arange(3)
    assert [int(v) for v in x] == [0, 1, 2]
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, jax.Array)
    np.testing.assert_array_equal(np.asarray(y), [0, 1, 2])
    w = pickle.loads(pickle.dumps(jnp.array(1.0)))
    assert w.weak_type


def test_device_put_and_get() -> None:
    x = jax.device_put(np.arange(3, dtype=np.float32))
    assert isinstance(x, jax.Array)
    got = jax.device_get({"a": x, "b": [x, 1]})
    assert isinstance(got["a"], np.ndarray)
    np.testing.assert_array_equal(got["b"][0], [0, 1, 2])
    host = np.arange(3, dtype=np.float32)
    y = jax.device_put(host)
    host[0] = 100.0
    assert float(y[0]) == 0.0  # device_put copies: later host writes do not leak in
