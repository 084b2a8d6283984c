"""lax's compositions (``shape/compositions.py``, the ``*_in_dim`` helpers of ``indexing/slicing.py``,
``indexing/compositions.py``, ``batch_matmul``, ``reciprocal``, ``fft``) against NumPy, with JAX 0.12's
results, weak types and error messages (recorded from ``.venv-jax``), and jit/grad/vmap
through a few of them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax

rng = np.random.default_rng(0)
DN = lax.ScatterDimensionNumbers(
    update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)


def _weak(x: Any) -> bool:
    return bool(x.weak_type)


# -- slicing in one dimension -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("start", "limit", "stride", "axis"),
    [(1, 3, 1, 0), (None, None, 1, 1), (-4, None, 2, 1), (None, -1, 1, 0), (0, 5, 3, -1)],
)
def test_slice_in_dim(start: int | None, limit: int | None, stride: int, axis: int) -> None:
    x = np.arange(30).reshape(5, 6)
    idx: list[Any] = [slice(None)] * 2
    idx[axis] = slice(start, limit, stride)
    np.testing.assert_array_equal(lax.slice_in_dim(x, start, limit, stride, axis), x[tuple(idx)])


@pytest.mark.parametrize(
    ("index", "axis", "keepdims"), [(2, 0, True), (-1, 1, False), (0, -1, True), (-3, 0, False)]
)
def test_index_in_dim(index: int, axis: int, keepdims: bool) -> None:
    x = np.arange(12).reshape(3, 4)
    want = np.take(x, [index], axis=axis) if keepdims else np.take(x, index, axis=axis)
    got = lax.index_in_dim(x, index, axis, keepdims)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("index", [4, -5])
def test_index_in_dim_out_of_bounds(index: int) -> None:
    with pytest.raises(IndexError, match=f"index {index} is out of bounds for axis 0 with size 4"):
        lax.index_in_dim(np.arange(4), index)


def test_dynamic_slice_in_dim() -> None:
    x = jnp.arange(5)
    np.testing.assert_array_equal(lax.dynamic_slice_in_dim(x, 1, 3), [1, 2, 3])
    np.testing.assert_array_equal(lax.dynamic_slice_in_dim(x, 4, 3), [2, 3, 4])  # clamped
    np.testing.assert_array_equal(lax.dynamic_slice_in_dim(x, -2, 2), [3, 4])
    np.testing.assert_array_equal(
        lax.dynamic_slice_in_dim(x, 4, 3, allow_negative_indices=False), [2, 3, 4]
    )
    y = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(lax.dynamic_slice_in_dim(y, 1, 2, axis=1), y[:, 1:3])


def test_dynamic_index_in_dim() -> None:
    y = np.arange(12).reshape(3, 4)
    np.testing.assert_array_equal(lax.dynamic_index_in_dim(y, 1), y[1:2])
    np.testing.assert_array_equal(lax.dynamic_index_in_dim(y, 1, axis=1, keepdims=False), y[:, 1])
    np.testing.assert_array_equal(lax.dynamic_index_in_dim(np.arange(5), -1, keepdims=False), 4)


def test_dynamic_update_slice_in_dim() -> None:
    x, y = np.zeros(6, np.float32), np.ones(3, np.float32)
    np.testing.assert_array_equal(
        lax.dynamic_update_slice_in_dim(x, y, 2, axis=0), [0, 0, 1, 1, 1, 0]
    )
    np.testing.assert_array_equal(
        lax.dynamic_update_slice_in_dim(x, y, 5, axis=0), [0, 0, 0, 1, 1, 1]
    )
    np.testing.assert_array_equal(
        lax.dynamic_update_slice_in_dim(x, y, -2, axis=0), [0, 0, 0, 1, 1, 1]
    )
    want = np.zeros((4, 4), np.float32)
    want[1:3, :3] = 1
    got = lax.dynamic_update_slice_in_dim(
        np.zeros((4, 4), np.float32), np.ones((2, 3), np.float32), 1, axis=0
    )
    np.testing.assert_array_equal(got, want)


def test_dynamic_update_index_in_dim() -> None:
    x = np.zeros(6, np.float32)
    np.testing.assert_array_equal(
        lax.dynamic_update_index_in_dim(x, 1.0, 2, axis=0), [0, 0, 1, 0, 0, 0]
    )
    np.testing.assert_array_equal(
        lax.dynamic_update_index_in_dim(x, np.ones(1, np.float32), 10, 0), [0, 0, 0, 0, 0, 1]
    )
    got = lax.dynamic_update_index_in_dim(
        np.zeros((3, 2), np.float32), np.ones(2, np.float32), 1, 0
    )
    np.testing.assert_array_equal(got, [[0, 0], [1, 1], [0, 0]])


# -- creation -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fill", "dtype", "want_dtype", "weak"),
    [
        (3, None, "int32", True),
        (3.0, None, "float32", True),
        (np.float32(3), None, "float32", False),
        (3, "float32", "float32", False),
        (True, None, "bool", False),
    ],
)
def test_full(fill: Any, dtype: Any, want_dtype: str, weak: bool) -> None:
    got = lax.full((2, 3), fill, dtype)
    np.testing.assert_array_equal(got, np.full((2, 3), fill, want_dtype))
    assert got.dtype == np.dtype(want_dtype) and _weak(got) is weak
    assert lax.full(2, fill).shape == (2,)


def test_full_nonscalar() -> None:
    with pytest.raises(
        TypeError,
        match=r"full must be called with scalar fill_value, got fill_value.shape \(2,\)\.",
    ):
        lax.full((2,), np.ones(2))


def test_full_like() -> None:
    got = lax.full_like(jnp.ones(2, jnp.int32), 2.5)
    np.testing.assert_array_equal(got, [2, 2])
    assert got.dtype == np.int32 and not _weak(got)
    weak = lax.full_like(2.0, 1)
    assert weak.shape == () and weak.dtype == np.float32 and _weak(weak)
    assert lax.full_like(np.ones(2, np.float32), 1, shape=(3,)).shape == (3,)
    assert lax.full_like(np.ones(2, np.float32), 1, jnp.int32).dtype == np.int32


def test_empty() -> None:
    assert lax.empty(3, jnp.float32).shape == (3,)
    e = lax.empty((2, 3), jnp.int32)
    assert e.shape == (2, 3) and e.dtype == np.int32


def test_dtype() -> None:
    assert lax.dtype(1.0) == np.float32
    assert lax.dtype(np.ones(2)) == np.float32  # canonicalized as in JAX (x64 off)
    assert lax.dtype(np.int8) == np.int8
    with pytest.warns(UserWarning):
        assert lax.dtype("int64") == np.int32


# -- shapes -------------------------------------------------------------------------------------
def test_broadcast_shapes() -> None:
    assert lax.broadcast_shapes((3, 1), (1, 4), (5, 1, 1)) == (5, 3, 4)
    assert lax.broadcast_shapes((1,), (4,)) == (4,)
    assert lax.broadcast_shapes((2, 3)) == (2, 3)
    with pytest.raises(
        ValueError, match=r"Incompatible shapes for broadcasting: shapes=\[\(3, 1\), \(4, 1\)\]"
    ):
        lax.broadcast_shapes((3, 1), (4, 1))


@pytest.mark.parametrize(
    ("start", "stop", "want"),
    [(1, None, (2, 12)), (0, 2, (6, 4)), (-2, -1, (2, 3, 4)), (1, 1, (2, 1, 3, 4))],
)
def test_collapse(start: int, stop: int | None, want: tuple[int, ...]) -> None:
    x = np.arange(24).reshape(2, 3, 4)
    got = lax.collapse(x, start, stop)
    np.testing.assert_array_equal(got, x.reshape(want))


def test_collapse_error() -> None:
    with pytest.raises(
        ValueError, match=r"Invalid dimension range passed to collapse: \(2, 3, 4\)\[2:1\]"
    ):
        lax.collapse(np.ones((2, 3, 4)), 2, 1)


@pytest.mark.parametrize(
    ("shape", "reps"),
    [((2, 2), (2, 3)), ((3,), (2,)), ((2, 1), (1, 3)), ((2, 2), (0, 3)), ((), ())],
)
def test_tile(shape: tuple[int, ...], reps: tuple[int, ...]) -> None:
    x = rng.standard_normal(shape).astype(np.float32)
    np.testing.assert_array_equal(lax.tile(x, reps), np.tile(x, reps))


def test_tile_error() -> None:
    with pytest.raises(
        TypeError,
        match=r"reps length must be equal to the ndim of x, got len\(reps\)=1 and x.ndim=2\.",
    ):
        lax.tile(np.ones((2, 2)), (2,))


@pytest.mark.parametrize(("sizes", "axis"), [((2, 4), 0), ((6,), -1), ((0, 1, 5), 1), ((), 0)])
def test_split(sizes: tuple[int, ...], axis: int) -> None:
    x = np.arange(36).reshape(6, 6)
    got = lax.split(x, sizes, axis) if sizes else []
    want = np.split(x, np.cumsum(sizes)[:-1], axis=axis) if sizes else []
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_split_errors() -> None:
    with pytest.raises(
        ValueError, match=r"Sum of sizes 5 must be equal to dimension 0 of the operand shape \[6\]"
    ):
        lax.split(np.arange(6), (2, 3))
    with pytest.raises(
        ValueError, match=r"Sizes passed to split must be nonnegative, got \[-1, 7\]"
    ):
        lax.split(np.arange(6), (-1, 7))
    with pytest.raises(ValueError, match="axis 2 is out of bounds for array of dimension 2"):
        lax.split(np.ones((2, 6)), (6,), axis=2)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack_stack(axis: int) -> None:
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    parts = lax.unstack(x, axis)
    assert isinstance(parts, tuple) and len(parts) == x.shape[axis]
    for i, p in enumerate(parts):
        np.testing.assert_array_equal(p, np.take(x, i, axis=axis))
    np.testing.assert_array_equal(lax.stack(parts, axis), x)
    np.testing.assert_array_equal(lax.stack(list(x), axis), np.stack(list(x), axis))


def test_stack_unstack_edge_cases() -> None:
    assert lax.unstack(np.ones((0, 3))) == ()
    s = lax.stack([1.0, 2.0])
    assert s.dtype == np.float32 and _weak(s)
    with pytest.raises(ValueError, match="axis 0 is out of bounds for array of dimension 0"):
        lax.unstack(1.0)
    with pytest.raises(
        ValueError, match=r"All input arrays must have the same shape. Got \(2,\), \(3,\)\."
    ):
        lax.stack([jnp.ones(2), jnp.ones(3)])
    with pytest.raises(
        TypeError, match="lax.stack requires arguments to have the same dtypes, got float32, int32."
    ):
        lax.stack([jnp.ones(2), jnp.ones(2, jnp.int32)])


# -- arithmetic ---------------------------------------------------------------------------------
def test_batch_matmul() -> None:
    a = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = rng.standard_normal((2, 3, 5, 2)).astype(np.float32)
    np.testing.assert_allclose(lax.batch_matmul(a, b), a @ b, rtol=1e-5, atol=1e-5)
    with pytest.raises(ValueError, match="Arguments to batch_matmul must be at least 2D, got 1, 2"):
        lax.batch_matmul(jnp.ones(2), jnp.ones((2, 2)))
    with pytest.raises(ValueError, match="Arguments to batch_matmul must have same ndim, got 3, 2"):
        lax.batch_matmul(jnp.ones((2, 2, 2)), jnp.ones((2, 2)))


def test_reciprocal() -> None:
    x = rng.uniform(0.5, 2.0, (3, 4)).astype(np.float32)
    np.testing.assert_allclose(lax.reciprocal(x), 1 / x, rtol=1e-6)
    r = lax.reciprocal(2.0)
    assert float(r) == 0.5 and _weak(r)
    with pytest.raises(
        TypeError,
        match=r"Integers cannot be raised to negative powers, got integer_pow\(int32\[\], -1\)",
    ):
        lax.reciprocal(jnp.int32(2))
    with pytest.raises(TypeError, match=r"got integer_pow\(~int32\[\], -1\)"):
        lax.reciprocal(2)


# -- scatter ------------------------------------------------------------------------------------
def test_scatter_sub() -> None:
    idx = np.array([[1], [1], [3]])
    got = lax.scatter_sub(np.zeros(4, np.float32), idx, np.ones(3, np.float32), DN)
    np.testing.assert_array_equal(got, [0, -2, 0, -1])
    want = np.zeros(4, np.int32)
    np.subtract.at(want, idx[:, 0], np.array([1, 2, 3], np.int32))
    got_i = lax.scatter_sub(np.zeros(4, np.int32), idx, np.array([1, 2, 3], np.int32), DN)
    np.testing.assert_array_equal(got_i, want)


def test_scatter_apply() -> None:
    idx = np.array([[1], [1], [3]])
    got = lax.scatter_apply(jnp.arange(4.0), idx, lambda x: x * 2, DN, update_shape=(3,))
    np.testing.assert_array_equal(got, [0, 4, 2, 6])  # index 1 twice: doubled twice
    got_i = lax.scatter_apply(
        jnp.arange(4), np.array([[1], [3]]), lambda x: x + 10, DN, update_shape=(2,)
    )
    np.testing.assert_array_equal(got_i, [0, 11, 2, 13])
    oob = np.array([[1], [5]])
    dropped = jax.jit(lambda o: lax.scatter_apply(o, oob, jnp.sin, DN, update_shape=(2,)))(
        jnp.arange(4.0)
    )
    np.testing.assert_allclose(dropped, [0, np.sin(1), 2, 3], rtol=1e-6)
    clipped = lax.scatter_apply(jnp.arange(4.0), oob, jnp.sin, DN, update_shape=(2,), mode="clip")
    np.testing.assert_allclose(clipped, [0, np.sin(1), 2, np.sin(3)], rtol=1e-6)
    with pytest.raises(TypeError, match="Updates tensor must be of rank 1; got 0."):
        lax.scatter_apply(jnp.arange(4.0), idx, jnp.sin, DN)


# -- bitcast and FFT ----------------------------------------------------------------------------
def test_bitcast_convert_type() -> None:
    assert int(lax.bitcast_convert_type(np.float32(1.0), jnp.int32)) == 1065353216
    np.testing.assert_array_equal(
        lax.bitcast_convert_type(np.float32(1.0), jnp.uint8), [0, 0, 128, 63]
    )


def test_fft() -> None:
    x = rng.standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(
        lax.fft(x, lax.FftType.FFT, (4,)), np.fft.fft(x), rtol=1e-5, atol=1e-5
    )
    np.testing.assert_allclose(lax.fft(x, "fft", (3, 4)), np.fft.fft2(x), rtol=1e-5, atol=1e-5)
    r = lax.fft(x, "RFFT", (4,))
    np.testing.assert_allclose(r, np.fft.rfft(x), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(lax.fft(r, lax.FftType.IRFFT, (4,)), x, rtol=1e-5, atol=1e-5)
    c = np.fft.fft(x).astype(np.complex64)
    np.testing.assert_allclose(lax.fft(c, "ifft", (4,)), x, rtol=1e-5, atol=1e-5)
    i = lax.fft(jnp.arange(4), lax.FftType.FFT, (4,))  # integers are converted to complex64
    assert i.dtype == np.complex64
    np.testing.assert_allclose(i, np.fft.fft(np.arange(4)), atol=1e-5)
    assert lax.fft(jnp.arange(4), lax.FftType.RFFT, (4,)).dtype == np.complex64
    e = lax.fft(jnp.ones(4), lax.FftType.FFT, ())
    assert e.dtype == np.complex64
    np.testing.assert_array_equal(e, np.ones(4))


@pytest.mark.parametrize(
    ("x", "typ", "exc", "msg"),
    [
        (np.ones(4), 3.5, TypeError, "Unknown FFT type value '3.5'"),
        (np.ones(4), 0, TypeError, "Unknown FFT type value '0'"),
        (np.ones(4), "foo", ValueError, "Unknown FFT type 'foo'"),
        (
            np.ones(4, np.complex64),
            lax.FftType.RFFT,
            ValueError,
            "only real valued inputs supported for rfft",
        ),
    ],
)
def test_fft_errors(x: Any, typ: Any, exc: type[Exception], msg: str) -> None:
    with pytest.raises(exc, match=msg):
        lax.fft(x, typ, (4,))


# -- transformations ----------------------------------------------------------------------------
def test_jit() -> None:
    f = jax.jit(lambda v: lax.full((2,), v))
    out = f(3.0)
    np.testing.assert_array_equal(out, [3.0, 3.0])
    assert _weak(out)
    g = jax.jit(
        lambda x, i: lax.dynamic_update_index_in_dim(
            x, lax.index_in_dim(x, 0, keepdims=False), i, 0
        )
    )
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    np.testing.assert_array_equal(g(x, 2), [[0, 1], [2, 3], [0, 1]])
    h = jax.jit(lambda x: lax.stack(lax.split(x, (2, 2))[::-1]))
    np.testing.assert_array_equal(h(np.arange(4.0, dtype=np.float32)), [[2, 3], [0, 1]])


def test_grad() -> None:
    x = jnp.arange(3.0)
    np.testing.assert_array_equal(
        jax.grad(lambda x: (lax.split(x, (1, 2))[1] ** 2).sum())(x), [0, 2, 4]
    )
    np.testing.assert_array_equal(
        jax.grad(lambda x: (lax.tile(x, (3,)) * jnp.arange(6.0)).sum())(jnp.arange(2.0)), [6, 9]
    )
    np.testing.assert_array_equal(
        jax.grad(lambda x: (lax.stack([x, 2 * x], 1) ** 2).sum())(jnp.arange(2.0)), [0, 10]
    )
    np.testing.assert_array_equal(
        jax.grad(lambda x: lax.unstack(x)[1].sum())(jnp.ones((2, 2))), [[0, 0], [1, 1]]
    )
    assert float(jax.grad(lax.reciprocal)(2.0)) == -0.25
    np.testing.assert_allclose(
        jax.grad(lambda x: lax.fft(x, "rfft", (4,)).real.sum())(jnp.arange(4.0)), [3, 0, 1, 0]
    )
    u = jax.grad(
        lambda u: lax.scatter_sub(jnp.zeros(4), np.array([[1], [1], [3]]), u, DN).sum() * 2
    )(jnp.ones(3))
    np.testing.assert_array_equal(u, [-2, -2, -2])


def test_vmap() -> None:
    x = jnp.arange(6.0).reshape(2, 3)
    got = jax.vmap(lambda x, i: lax.dynamic_index_in_dim(x, i, keepdims=False))(
        x, jnp.array([0, 2])
    )
    np.testing.assert_array_equal(got, [0, 5])
    upd = jax.vmap(lambda x, i: lax.dynamic_update_index_in_dim(x, 9.0, i, 0))(
        jnp.zeros((2, 3)), jnp.array([0, 2])
    )
    np.testing.assert_array_equal(upd, [[9, 0, 0], [0, 0, 9]])
    a = rng.standard_normal((2, 3, 4, 5)).astype(np.float32)
    b = rng.standard_normal((2, 3, 5, 2)).astype(np.float32)
    np.testing.assert_allclose(jax.vmap(lax.batch_matmul)(a, b), a @ b, rtol=1e-5, atol=1e-5)
    t = jax.vmap(lambda r: lax.tile(r, (2,)))(x)
    np.testing.assert_array_equal(t, np.tile(np.asarray(x), (1, 2)))
