"""Rules of the primitives the numpy layer added: sort (multi-operand), fft, bitcast_convert_type.

Gradients are checked numerically (``check_grads``, float64); the FFT transposes are checked
against the explicit adjoints (JAX's conventions for real <-> complex transforms); ``vmap``
against a Python loop with the batch axis at different positions.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from jax_core._src.lax.elementwise import bitcast_convert_type
from jax_core._src.lax.fft import fft
from jax_core._src.lax.sorting import sort, top_k
from jax_core.test_util import check_grads

COVERED = {"sort", "fft", "bitcast_convert_type"}


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


rng = np.random.default_rng(0)


def test_sort_values_and_nan_order() -> None:
    x = np.array([3.0, np.nan, -0.0, 0.0, -1.0, -np.inf, 2.0])
    np.testing.assert_array_equal(np.asarray(sort(x)), np.sort(x))
    keys = np.array([2, 1, 2, 1])
    vals = np.array([1.0, 2.0, 3.0, 4.0])
    k, v = sort((keys, vals), num_keys=1)
    np.testing.assert_array_equal(np.asarray(v), [2.0, 4.0, 1.0, 3.0])  # stable
    c = np.array([1 + 2j, 1 + 1j, 0 + 5j])
    np.testing.assert_array_equal(np.asarray(sort(c)), np.sort(c))


def test_sort_grads_and_multiple_operands() -> None:
    x = rng.permutation(12).reshape(3, 4).astype(np.float64) + rng.uniform(0, 0.1, (3, 4))
    check_grads(lambda v: sort(v, 1), (x,), order=2)
    check_grads(lambda v: sort(v, 0), (x,), order=1)
    check_grads(lambda a, b: sort((a, b), 1, True, 1)[1], (x, x * 2.0), order=1)
    check_grads(lambda v: top_k(v, 2)[0], (x,), order=1)


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_sort_vmap(axis: int) -> None:
    x = rng.standard_normal((3, 4, 5))
    got = jax.vmap(lambda v: sort(v, 0), in_axes=axis)(x)
    want = np.stack([np.sort(np.take(x, i, axis=axis), axis=0) for i in range(x.shape[axis])])
    np.testing.assert_allclose(np.asarray(got), want)
    # A batched key with an unbatched payload: the payload is broadcast, then permuted.
    payload = np.arange(x.shape[1 if axis == 0 else 0], dtype=np.float64)
    k, v = jax.vmap(lambda a: sort((a[:, 0] if a.ndim == 2 else a, payload), 0), in_axes=axis)(x)
    assert k.shape == v.shape


def test_fft_jvp_and_transposes_match_adjoints() -> None:
    x = rng.standard_normal((2, 6))
    xc = x + 1j * rng.standard_normal((2, 6))
    check_grads(lambda v: fft(v, "fft", (6,)), (xc,), order=2)
    check_grads(lambda v: fft(v, "ifft", (2, 6)), (xc,), order=2)
    # Real <-> complex: the vjp is real(adjoint applied to the cotangent), JAX's convention.
    ct = rng.standard_normal((2, 4)) + 1j * rng.standard_normal((2, 4))
    _, vjp = jax.vjp(lambda v: fft(v, "rfft", (6,)), x)
    full = np.concatenate([ct, np.zeros((2, 2))], axis=1)
    np.testing.assert_allclose(np.asarray(vjp(ct)[0]), np.real(np.fft.fft(full)), atol=1e-12)
    out, tangent = jax.jvp(lambda v: fft(v, "irfft", (6,)), (np.fft.rfft(x),), (np.fft.rfft(x),))
    np.testing.assert_allclose(np.asarray(tangent), np.fft.irfft(np.fft.rfft(x), 6), atol=1e-12)
    np.testing.assert_allclose(np.asarray(out), x, atol=1e-12)
    ct_r = rng.standard_normal((2, 7))
    _, vjp2 = jax.vjp(lambda v: fft(v, "irfft", (7,)), np.fft.rfft(rng.standard_normal((2, 7))))
    y = np.fft.rfft(ct_r) / 7
    y[:, 1:] *= 2
    np.testing.assert_allclose(np.asarray(vjp2(ct_r)[0]), np.conj(y), atol=1e-12)


def test_fft_vmap() -> None:
    x = rng.standard_normal((3, 4, 8))
    got = jax.vmap(lambda v: fft(v, "rfft", (8,)), in_axes=1)(x)
    want = np.stack([np.fft.rfft(x[:, i], axis=-1) for i in range(4)])
    np.testing.assert_allclose(np.asarray(got), want, atol=1e-10)


def test_bitcast_rules() -> None:
    x = np.array([1.0, -2.0])
    np.testing.assert_array_equal(np.asarray(bitcast_convert_type(x, np.int64)), x.view(np.int64))
    assert bitcast_convert_type(np.float32(1), np.uint8).shape == (4,)
    _, t = jax.jvp(lambda v: bitcast_convert_type(v, np.int64), (x,), (x,))
    assert np.asarray(t).dtype == jax.dtypes.float0
    got = jax.vmap(lambda v: bitcast_convert_type(v, np.uint16), in_axes=1)(np.ones((2, 3), np.float32))
    assert got.shape == (3, 2, 2)
    assert jnp.signbit(jnp.array([-0.0, 0.0])).tolist() == [True, False]
