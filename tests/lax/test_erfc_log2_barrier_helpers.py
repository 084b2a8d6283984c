"""``lax.erfc``, ``lax.log2``, ``lax.optimization_barrier``, ``lax.broadcast_like``,
``lax.index_take`` and ``lax.reduce_window_shape_tuple``: values against NumPy/SciPy, JAX's
error messages (recorded from JAX 0.12), and the primitives' rules (``check_grads`` in float64,
``vmap`` against a Python loop)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
import scipy.special

import jax_core as jax
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

COVERED: frozenset[str] = frozenset({"erfc", "log2", "optimization_barrier"})

rng = np.random.default_rng(0)


@pytest.fixture
def x64() -> Iterator[None]:
    with enable_x64(True):
        yield


# -- erfc / log2 ----------------------------------------------------------------------------------
def test_erfc_values() -> None:
    x = np.linspace(-4, 10, 57, dtype=np.float32)
    out = lax.erfc(x)
    assert out.dtype == np.float32 and out.shape == x.shape
    np.testing.assert_allclose(np.asarray(out), scipy.special.erfc(x), rtol=2e-6, atol=1e-30)
    assert float(lax.erfc(np.float32(9.0))) > 0  # no cancellation, unlike 1 - erf


def test_erfc_x64_values(x64: None) -> None:
    x = np.linspace(-5, 25, 61)
    np.testing.assert_allclose(
        np.asarray(lax.erfc(x)), scipy.special.erfc(x), rtol=1e-13, atol=1e-300
    )


def test_log2_values(x64: None) -> None:
    x = rng.uniform(0.01, 100, (3, 5))
    np.testing.assert_allclose(np.asarray(lax.log2(x)), np.log2(x), rtol=1e-14)
    np.testing.assert_allclose(
        np.asarray(lax.log2(np.float32([1, 2, 8, 0.5]))), [0, 1, 3, -1], rtol=1e-6
    )
    z = (rng.normal(size=4) + 1j * rng.normal(size=4)).astype(np.complex128)
    np.testing.assert_allclose(np.asarray(lax.log2(z)), np.log2(z), rtol=1e-13)


@pytest.mark.parametrize(
    "fn, arg, msg",
    [
        (
            lax.erfc,
            np.int32(1),
            "erfc does not accept dtype int32. Accepted dtypes are subtypes of floating.",
        ),
        (
            lax.erfc,
            np.complex64(1),
            "erfc does not accept dtype complex64. Accepted dtypes are subtypes of floating.",
        ),
        (
            lax.log2,
            np.int32(1),
            "log2 does not accept dtype int32. Accepted dtypes are subtypes of floating, complexfloating.",
        ),
    ],
)
def test_dtype_errors_match_jax(fn: object, arg: object, msg: str) -> None:
    with pytest.raises(TypeError) as e:
        fn(arg)  # type: ignore[operator]
    assert str(e.value) == msg


def test_jaxpr_text() -> None:
    x = np.zeros(7, np.float32)
    assert (
        str(jax.make_jaxpr(lax.erfc)(x)) == "{ lambda ; a:f32[7]. let b:f32[7] = erfc a in (b,) }"
    )
    assert (
        str(jax.make_jaxpr(lax.log2)(x)) == "{ lambda ; a:f32[7]. let b:f32[7] = log2 a in (b,) }"
    )


def test_erfc_log2_grads(x64: None) -> None:
    x = rng.uniform(-2, 2, (2, 3))
    check_grads(lax.erfc, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lax.log2, (np.abs(x) + 0.5,), order=2, modes=("fwd", "rev"))
    g = jax.grad(lambda v: lax.erfc(v))(0.5)
    np.testing.assert_allclose(float(g), -2 / np.sqrt(np.pi) * np.exp(-0.25), rtol=1e-14)


@pytest.mark.parametrize("axis", [0, 1])
def test_erfc_log2_vmap(x64: None, axis: int) -> None:
    x = rng.uniform(0.1, 3, (3, 4))
    for fn in (lax.erfc, lax.log2):
        want = np.stack([np.asarray(fn(np.take(x, i, axis))) for i in range(x.shape[axis])])
        np.testing.assert_allclose(np.asarray(jax.vmap(fn, in_axes=axis)(x)), want, rtol=1e-14)


# -- optimization_barrier -------------------------------------------------------------------------
def test_optimization_barrier_pytree_and_jaxpr() -> None:
    x = np.arange(7, dtype=np.float32)
    out = lax.optimization_barrier({"a": x, "b": (x * 2, np.int32(3))})
    assert sorted(out) == ["a", "b"]
    np.testing.assert_array_equal(np.asarray(out["a"]), x)
    np.testing.assert_array_equal(np.asarray(out["b"][0]), x * 2)
    assert int(out["b"][1]) == 3
    assert all(isinstance(v, jax.Array) for v in (out["a"], *out["b"]))  # as JAX: device arrays out
    text = str(jax.make_jaxpr(lambda v: lax.optimization_barrier((v, v * 2)))(x))
    assert text == (  # recorded from JAX 0.12
        "{ lambda ; a:f32[7]. let\n    b:f32[7] = mul a 2.0:f32[]\n"
        "    c:f32[7] d:f32[7] = optimization_barrier a b\n  in (c, d) }"
    )
    assert lax.optimization_barrier(()) == ()


def test_optimization_barrier_lowers_to_stablehlo() -> None:
    x = np.zeros(3, np.float32)
    text = jax.jit(lambda v: lax.optimization_barrier((v, v + 1))[1]).lower(x).as_text()
    assert "stablehlo.optimization_barrier" in text
    np.testing.assert_array_equal(
        np.asarray(jax.jit(lambda v: lax.optimization_barrier((v, v + 1))[1])(x)), x + 1
    )


def test_optimization_barrier_grads(x64: None) -> None:
    x, y = rng.normal(size=(2, 3)), rng.normal(size=3)

    def f(a: jax.Array, b: jax.Array) -> jax.Array:
        p, q = lax.optimization_barrier((lax.sin(a), b * b))
        return p * q

    check_grads(f, (x, y), order=2, modes=("fwd", "rev"))
    check_grads(jax.jit(f), (x, y), order=2, modes=("fwd", "rev"))
    g = jax.grad(lambda v: (lax.optimization_barrier(lax.sin(v)) * 2).sum())(x)
    np.testing.assert_allclose(np.asarray(g), 2 * np.cos(x), rtol=1e-14)
    # a barrier with one operand not differentiated (integer): its tangent stays symbolic
    h = jax.grad(lambda v: lax.optimization_barrier((v * v, np.int32(1)))[0].sum())(x)
    np.testing.assert_allclose(np.asarray(h), 2 * x, rtol=1e-14)


@pytest.mark.parametrize("axes", [(0, 1), (1, None), (None, 0)])
def test_optimization_barrier_vmap(x64: None, axes: tuple[int | None, int | None]) -> None:
    x, y = rng.normal(size=(3, 4)), rng.normal(size=(4, 3))

    def f(a: jax.Array, b: jax.Array) -> tuple[jax.Array, jax.Array]:
        p, q = lax.optimization_barrier((a, b * 2))
        return p, q

    got = jax.vmap(f, in_axes=axes)(x, y)
    n = 3 if axes[0] == 0 else 4  # x is (3, 4), y is (4, 3)
    for i in range(n):
        a = np.take(x, i, axes[0]) if axes[0] is not None else x
        b = np.take(y, i, axes[1]) if axes[1] is not None else y
        np.testing.assert_array_equal(np.asarray(got[0][i]), a)
        np.testing.assert_array_equal(np.asarray(got[1][i]), b * 2)


# -- compositions ---------------------------------------------------------------------------------
def test_broadcast_like() -> None:
    out = lax.broadcast_like(np.array([1, 2, 3], np.int32), np.zeros((2, 3)))
    np.testing.assert_array_equal(np.asarray(out), [[1, 2, 3], [1, 2, 3]])
    assert out.dtype == np.int32
    out = lax.broadcast_like(np.ones((3, 1), np.float32), np.zeros((2, 3, 4)))
    assert out.shape == (2, 3, 4)
    same = np.arange(4.0, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(lax.broadcast_like(same, same)), same)


def test_broadcast_like_errors_match_jax() -> None:
    with pytest.raises(ValueError) as e:
        lax.broadcast_like(np.zeros(3, np.float32), np.zeros((2, 4)))
    assert (
        str(e.value)
        == "Incompatible types for broadcasting: input type=float32[3] and requested type=float32[2,4]"
    )
    with pytest.raises(ValueError) as e:
        lax.broadcast_like(np.zeros((2, 3)), np.zeros((3,)))
    assert (
        str(e.value)
        == "Cannot broadcast to shape with fewer dimensions: arr_shape=(2, 3) shape=(3,)"
    )


def test_index_take() -> None:
    src = np.arange(24.0, dtype=np.float32).reshape(3, 4, 2)
    i0, i1 = np.array([0, -1, 4], np.int32), np.array([1, 5, -2], np.int32)
    out = lax.index_take(src, [i0, i1], (0, 1))
    np.testing.assert_array_equal(np.asarray(out), src[i0 % 3, i1 % 4])
    out = lax.index_take(src, [i1], (1,))
    np.testing.assert_array_equal(np.asarray(out), np.moveaxis(src[:, i1 % 4], 1, 0))
    # recorded from JAX 0.12: lax.index_take(arange(12.).reshape(3, 4), [[0, -1], [1, 5]], (0, 1))
    got = lax.index_take(
        np.arange(12.0, dtype=np.float32).reshape(3, 4),
        [np.array([0, -1]), np.array([1, 5])],
        (0, 1),
    )
    np.testing.assert_array_equal(np.asarray(got), [1.0, 9.0])


def test_reduce_window_shape_tuple() -> None:
    # recorded from JAX 0.12
    assert lax.reduce_window_shape_tuple(
        (10, 10), (3, 3), (2, 1), ((1, 1), (0, 0)), (1, 1), (2, 2)
    ) == (4, 6)
    assert lax.reduce_window_shape_tuple((5,), (2,), (1,), ((0, 0),)) == (4,)
    assert lax.reduce_window_shape_tuple((2,), (5,), (1,), ((0, 0),)) == (0,)
    assert lax.reduce_window_shape_tuple(
        (4, 4), (2, 2), (2, 2), ((0, 0), (0, 0)), base_dilation=(2, 1)
    ) == (3, 2)
    with pytest.raises(TypeError, match=r"All dilations must be positive, got \(0,\)."):
        lax.reduce_window_shape_tuple((4,), (2,), (1,), ((0, 0),), window_dilation=(0,))
