"""The minimal jax_core.numpy layer against NumPy: promotion, creation, reductions, shapes, indexing."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jax_core as jax
import jax_core.numpy as jnp

UNARY = ["sin", "cos", "tan", "exp", "log1p", "tanh", "sqrt", "arctan", "sinh", "expm1", "floor", "ceil", "negative", "sign", "abs", "square"]
BINARY = ["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "arctan2", "floor_divide", "remainder", "equal", "less", "greater_equal"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_against_numpy(name: str) -> None:
    x = np.linspace(0.1, 0.9, 7, dtype=np.float32)
    got = getattr(jnp, name)(jnp.asarray(x))
    want = getattr(np, name)(x)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("name", BINARY)
def test_binary_against_numpy(name: str) -> None:
    x = np.array([1.5, -2.0, 3.25, 4.0], np.float32)
    y = np.array([0.5, 3.0, -1.5, 2.0], np.float32)
    got = getattr(jnp, name)(jnp.asarray(x), jnp.asarray(y))
    want = getattr(np, name)(x, y)
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6)


def test_integer_floor_divide_and_remainder_round_toward_minus_infinity() -> None:
    x = np.array([7, -7, 7, -7], np.int32)
    y = np.array([2, 2, -2, -2], np.int32)
    np.testing.assert_array_equal(np.asarray(jnp.floor_divide(x, y)), np.floor_divide(x, y))
    np.testing.assert_array_equal(np.asarray(jnp.remainder(x, y)), np.remainder(x, y))
    np.testing.assert_array_equal(np.asarray(jnp.asarray(x) // 3), x // 3)


def test_weak_type_promotion() -> None:
    x16 = jnp.ones(3, jnp.float16)
    assert (x16 * 2.0).dtype == np.float16  # a Python scalar does not widen
    assert (jnp.ones(3, jnp.int8) + 1).dtype == np.int8
    assert (jnp.ones(3, jnp.int32) * 1.5).dtype == np.float32
    assert (jnp.ones(3, jnp.int32) + jnp.ones(3, jnp.float16)).dtype == np.float16
    assert (jnp.ones(3, jnp.uint8) + jnp.ones(3, jnp.int8)).dtype == np.int16
    assert jnp.add(1, 2.0).weak_type and jnp.add(1, 2.0).dtype == np.float32
    assert jnp.sin(1).dtype == np.float32


def test_broadcasting() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(jnp.asarray(a) + b), a + b)
    np.testing.assert_array_equal(np.asarray(jnp.asarray(a)[:, :1] * b), a[:, :1] * b)
    with pytest.raises(TypeError, match="incompatible shapes for broadcasting"):
        jnp.add(jnp.ones(3), jnp.ones(4))


def test_creation() -> None:
    assert jnp.zeros((2, 3)).shape == (2, 3) and jnp.zeros(3).dtype == np.float32
    assert jnp.ones(2, jnp.int32).dtype == np.int32
    np.testing.assert_array_equal(np.asarray(jnp.full((2,), 7)), [7, 7])
    np.testing.assert_array_equal(np.asarray(jnp.arange(5)), np.arange(5))
    np.testing.assert_array_equal(np.asarray(jnp.arange(1, 7, 2)), [1, 3, 5])
    np.testing.assert_allclose(np.asarray(jnp.arange(0.0, 1.0, 0.25)), [0, 0.25, 0.5, 0.75])
    assert jnp.array([1, 2]).dtype == np.int32 and jnp.array([1.0, 2]).dtype == np.float32
    assert jnp.zeros_like(jnp.ones(3, jnp.int32)).dtype == np.int32
    x = jnp.array([jnp.ones(2), jnp.zeros(2)])
    assert x.shape == (2, 2)
    with pytest.raises(TypeError):
        jnp.zeros("3")  # type: ignore[arg-type]


def test_reductions() -> None:
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = jnp.asarray(a)
    np.testing.assert_allclose(np.asarray(jnp.sum(x)), a.sum())
    np.testing.assert_allclose(np.asarray(x.sum(axis=0)), a.sum(axis=0))
    np.testing.assert_allclose(np.asarray(x.max(axis=1, keepdims=True)), a.max(axis=1, keepdims=True))
    np.testing.assert_allclose(np.asarray(jnp.mean(x, axis=(0, 1))), a.mean())
    np.testing.assert_allclose(np.asarray(jnp.prod(x[0] + 1)), np.prod(a[0] + 1))
    assert int(jnp.argmax(x)) == 11 and int(jnp.argmin(x[:, 1])) == 0
    assert bool(jnp.any(x > 10)) and not bool(jnp.all(x > 0))
    assert jnp.sum(jnp.ones(3, jnp.bool_)).dtype == np.int32
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):
        jnp.sum(x, axis=2)


def test_shapes_and_products() -> None:
    a = np.arange(6, dtype=np.float32)
    x = jnp.asarray(a)
    np.testing.assert_array_equal(np.asarray(x.reshape(2, 3)), a.reshape(2, 3))
    np.testing.assert_array_equal(np.asarray(x.reshape(-1, 2).T), a.reshape(-1, 2).T)
    np.testing.assert_array_equal(np.asarray(jnp.concatenate([x, x])), np.concatenate([a, a]))
    np.testing.assert_array_equal(np.asarray(jnp.stack([x, x], axis=1)), np.stack([a, a], axis=1))
    np.testing.assert_array_equal(np.asarray(jnp.expand_dims(x, 0)), a[None])
    np.testing.assert_array_equal(np.asarray(jnp.broadcast_to(x, (2, 6))), np.broadcast_to(a, (2, 6)))
    m = a.reshape(2, 3)
    np.testing.assert_allclose(np.asarray(jnp.asarray(m) @ jnp.asarray(m.T)), m @ m.T)
    np.testing.assert_allclose(np.asarray(jnp.dot(x, x)), a @ a)
    np.testing.assert_allclose(np.asarray(jnp.matmul(jnp.ones((4, 2, 3)), jnp.ones((3, 5)))), np.ones((4, 2, 3)) @ np.ones((3, 5)))
    with pytest.raises(TypeError, match="cannot reshape"):
        x.reshape(4, 2)
    with pytest.raises(TypeError):
        jnp.ones((2, 3)) @ jnp.ones((2, 3))


def test_basic_indexing() -> None:
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    x = jnp.asarray(a)
    for idx in [0, -1, (1, 2), (slice(None), 1), (Ellipsis, 2), (0, slice(None, None, -1)), (None, 1), (slice(1, None), slice(0, 3, 2), -1), (1, None, slice(None, 2))]:
        np.testing.assert_array_equal(np.asarray(x[idx]), a[idx], err_msg=str(idx))
    np.testing.assert_array_equal(np.asarray(x[5]), a[-1])  # out-of-bounds static indices clamp, as in JAX
    with pytest.raises(IndexError, match="Too many indices"):
        x[0, 0, 0, 0]


def test_advanced_indexing() -> None:
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    x = jnp.asarray(a)
    i = np.array([0, 2, -1])
    for idx in [(i,), (i, i), (slice(None), i), (i, 1), (np.array([[0], [3]]), np.array([1, 2])), (a > 10,)]:
        np.testing.assert_array_equal(np.asarray(x[idx]), a[idx], err_msg=str(idx))
    np.testing.assert_array_equal(np.asarray(x[jnp.array([1, 3])]), a[[1, 3]])
    with pytest.raises(TypeError, match="non-tuple sequence"):
        x[[0, 1]]


def test_traced_indices_under_jit() -> None:
    a = np.arange(10, dtype=np.float32)
    f = jax.jit(lambda x, i: x[i])
    assert float(f(jnp.asarray(a), 3)) == 3.0
    assert float(f(jnp.asarray(a), -1)) == 9.0
    g = jax.jit(lambda x, idx: x[idx])
    np.testing.assert_array_equal(np.asarray(g(jnp.asarray(a), jnp.array([1, 5]))), [1.0, 5.0])
    with pytest.raises(jax.errors.NonConcreteBooleanIndexError):
        jax.jit(lambda x: x[x > 3])(jnp.asarray(a))


def test_at_updates() -> None:
    a = np.zeros((3, 4), np.float32)
    x = jnp.asarray(a)
    b = a.copy()
    b[1] = 5
    np.testing.assert_array_equal(np.asarray(x.at[1].set(5)), b)
    b = a.copy()
    np.add.at(b, ([0, 0, 2], [1, 1, 3]), 1.0)
    np.testing.assert_array_equal(np.asarray(x.at[jnp.array([0, 0, 2]), jnp.array([1, 1, 3])].add(1.0)), b)
    y = jnp.arange(5.0)
    np.testing.assert_array_equal(np.asarray(y.at[::2].multiply(10)), [0, 1, 20, 3, 40])
    np.testing.assert_array_equal(np.asarray(y.at[1:3].min(0.5)), [0, 0.5, 0.5, 3, 4])
    np.testing.assert_array_equal(np.asarray(y.at[-1].max(10)), [0, 1, 2, 3, 10])
    np.testing.assert_array_equal(np.asarray(y.at[2].get()), 2.0)
    np.testing.assert_array_equal(np.asarray(y.at[jnp.array([9])].set(7.0)), [0, 1, 2, 3, 4])  # dropped
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda v: v.at[0].add(1))(y)), [1, 1, 2, 3, 4])


def test_where() -> None:
    x = jnp.array([-1.0, 2.0, -3.0])
    np.testing.assert_array_equal(np.asarray(jnp.where(x > 0, x, 0)), [0.0, 2.0, 0.0])


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=3), st.sampled_from([np.float32, np.int32]))
def test_sum_matches_numpy_for_any_shape(shape: list[int], dtype: type) -> None:
    a = (np.arange(int(np.prod(shape)), dtype=dtype) % 7).reshape(shape)
    np.testing.assert_allclose(np.asarray(jnp.sum(jnp.asarray(a), axis=None)), a.sum(dtype=dtype))
