"""jax_core.scipy.signal's FFT convolution, detrending and spectral analysis (stft, istft, csd,
welch) against live JAX: bit-identical values (the same XLA ops in the same order), the same
exception classes and messages, and the same results under jit, grad and vmap."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import scipy.signal as ssig

import jax_core.scipy.signal as jsig
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

rng = np.random.default_rng(11)
INPUTS: dict[str, Any] = {
    "x": rng.standard_normal((2, 300)).astype(np.float32),
    "y": rng.standard_normal((2, 300)).astype(np.float32),
    "z": (rng.standard_normal(128) + 1j * rng.standard_normal(128)).astype(np.complex64),
    "i": rng.integers(-5, 5, 100).astype(np.int32),
}
S = "jsp.signal"

VALUES = [
    # fftconvolve: modes, axes, complex, integer promotion, size-1 broadcasting
    f"{S}.fftconvolve(x, y[:, :20])",
    f"{S}.fftconvolve(x, y[:, :20], mode='same')",
    f"{S}.fftconvolve(x[:, :20], y, mode='valid')",
    f"{S}.fftconvolve(x, y[:, :7], mode='valid', axes=1)",
    f"{S}.fftconvolve(x, y[:, :7], mode='full', axes=[-1])",
    f"{S}.fftconvolve(z, z[:9])",
    f"{S}.fftconvolve(i, i[:5])",
    f"{S}.fftconvolve(x[:1], y[:, :1])",
    # detrend
    f"{S}.detrend(x)",
    f"{S}.detrend(x, axis=0, type='constant')",
    f"{S}.detrend(x, bp=[100, 200])",
    f"{S}.detrend(x.T, axis=0, bp=np.array([50]))",
    f"{S}.detrend(i)",
    # stft
    f"{S}.stft(x, nperseg=64)",
    f"{S}.stft(x, fs=10.0, nperseg=64, boundary='even', detrend='linear')",
    f"{S}.stft(x, nperseg=33, noverlap=10, nfft=40, boundary='odd', padded=False, return_onesided=False)",
    f"{S}.stft(x, nperseg=32, boundary='constant', window='hamming')",
    f"{S}.stft(x, nperseg=32, boundary=None, window=jnp.ones(32))",
    f"{S}.stft(x.T, nperseg=64, axis=0)",
    f"{S}.stft(x, nperseg=1, noverlap=0)",
    f"{S}.stft(z, nperseg=16, return_onesided=False)",
    # welch / csd
    f"{S}.welch(x, nperseg=64)",
    f"{S}.welch(x, fs=100.0, nperseg=64, average='median', scaling='spectrum')",
    f"{S}.welch(x.T, nperseg=64, axis=0, detrend='linear', window=('tukey', 0.25))",
    f"{S}.welch(x, nperseg=64, detrend=False, nfft=100)",
    f"{S}.welch(x, nperseg=64, detrend=lambda d: d - d.mean(axis=-1, keepdims=True))",
    f"{S}.welch(i, nperseg=32)",
    f"{S}.csd(x, y, nperseg=50, window='hamming')",
    f"{S}.csd(x, y[:, :200], nperseg=50, average='median')",
    f"{S}.csd(x[:1], y, nperseg=64)",
    f"{S}.csd(x, None, nperseg=64)",
    f"{S}.csd(x[:, :64], y[:, :64], nperseg=64)",
    # istft
    f"{S}.istft({S}.stft(x, nperseg=64)[2], nperseg=64)",
    f"{S}.istft({S}.stft(x, nperseg=33, noverlap=20)[2], nperseg=33, noverlap=20)",
    f"{S}.istft({S}.stft(x, nperseg=32, return_onesided=False)[2], input_onesided=False)",
    f"{S}.istft({S}.stft(x, nperseg=32)[2], boundary=False, window='hamming')",
    f"{S}.istft({S}.stft(x, nperseg=32)[2].transpose(2, 0, 1), time_axis=0, freq_axis=-1)",
    f"{S}.istft({S}.stft(x, nperseg=32)[2], nperseg=32, window=np.hanning(32))",
    f"{S}.istft({S}.stft(x, nperseg=32)[2], fs=4.0, nfft=40)",
    # transformations
    f"jax.jit(lambda a: {S}.welch(a, nperseg=64))(x)",
    f"jax.jit(lambda a, b: {S}.fftconvolve(a, b, mode='same'))(x, y[:, :9])",
    f"jax.grad(lambda a: jnp.sum({S}.detrend(a, bp=[10]) ** 2))(x[0, :40])",
    f"jax.vmap(lambda a: {S}.stft(a, nperseg=32)[2])(x)",
    f"jax.vmap(lambda a: {S}.detrend(a))(x)",
]
# derivatives and a batched cross spectrum: jax_core's transpose and batching rules order a
# few floating-point sums differently from JAX's (about one ulp)
CLOSE = [
    f"jax.grad(lambda a: jnp.sum({S}.welch(a, nperseg=64)[1]))(x)",
    f"jax.grad(lambda a: jnp.sum(jnp.abs({S}.stft(a, nperseg=32)[2])))(x[0])",
    f"jax.grad(lambda a: jnp.sum({S}.fftconvolve(a, y[0, :5]) ** 2))(x[0])",
    f"jax.vmap(lambda a, b: {S}.csd(a, b, nperseg=32)[1])(x, y)",
]
X64 = [  # (welch and csd are stft's spectral helper followed by an average: float64 through stft)
    f"{S}.stft(x.astype(np.float64), nperseg=64)[2]",
    f"{S}.fftconvolve(x.astype(np.float64), y[:, :9])",
    f"{S}.detrend(i.astype(np.int64))",
]
ERRORS = [
    f"{S}.fftconvolve(x, y[0])",
    f"{S}.fftconvolve(x, y, mode='bad')",
    f"{S}.fftconvolve(x[:, :9], y[:1], mode='valid')",
    f"{S}.fftconvolve(x, y[:1], axes=1)",
    f"{S}.fftconvolve([1.0], y)",
    f"{S}.detrend(x, type='quadratic')",
    f"{S}.detrend(x, bp=[400])",
    f"{S}.detrend(x, bp=[-3])",
    f"{S}.detrend(x, overwrite_data=True)",
    f"{S}.stft(x, nperseg=64, boundary='wrap')",
    f"{S}.stft(x, nperseg=64, noverlap=64)",
    f"{S}.stft(x, nperseg=64, nfft=32)",
    f"{S}.stft(x, nperseg=0)",
    f"{S}.stft(x, nperseg=16, window=jnp.ones((4, 4)))",
    f"{S}.stft(x, window=jnp.ones(400))",
    f"{S}.stft(x, nperseg=16, window=jnp.ones(8))",
    f"{S}.stft(x, nperseg=8, detrend=3)",
    f"{S}.welch(x, nperseg=64, scaling='power')",
    f"{S}.welch(x, nperseg=64, average='mode')",
    f"{S}.csd(x, y[0], nperseg=16)",
    f"{S}.csd(x, y[:1].repeat(3, 0).reshape(3, 1, 300)[0:2, 0, :][:, None, :], nperseg=16)",
    f"{S}.csd(x[:2], y[:1].repeat(3, 0), nperseg=16)",
    f"{S}.istft(x[0])",
    f"{S}.istft(x, time_axis=0, freq_axis=-2)",
    f"{S}.istft(x, nperseg=16, nfft=8)",
    f"{S}.istft(x, nperseg=16, noverlap=16)",
    f"{S}.istft(x, nperseg=16, window=jnp.ones((2, 8)))",
    f"{S}.istft(x, nperseg=16, window=jnp.ones(8))",
]

CALLS = (
    [Call(e, INPUTS) for e in VALUES + CLOSE + ERRORS]
    + [Call(e, INPUTS, x64=True) for e in X64]
)
live = live_fixture(CALLS)


@pytest.mark.parametrize("expr", VALUES)
def test_values_bit_identical(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS)), live[expr], expr)


@pytest.mark.parametrize("expr", CLOSE)
def test_values_close(expr: str, live: dict[str, Outcome]) -> None:
    ours, theirs = here(Call(expr, INPUTS)), live[expr]
    assert ours.leaves is not None and theirs.leaves is not None, (ours.describe(), theirs.describe())
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("expr", X64)
def test_values_x64(expr: str, live: dict[str, Outcome]) -> None:
    assert_same(here(Call(expr, INPUTS, x64=True)), live[expr], expr)


@pytest.mark.parametrize("expr", ERRORS)
def test_errors_as_jax(expr: str, live: dict[str, Outcome]) -> None:
    theirs = live[expr]
    assert theirs.error is not None, f"JAX did not raise for {expr}"
    assert_same(here(Call(expr, INPUTS)), theirs, expr, messages=True)


def test_against_scipy() -> None:
    x = INPUTS["x"].astype(np.float64)
    f, p = jsig.welch(x.astype(np.float32), nperseg=64)
    f_ref, p_ref = ssig.welch(x, nperseg=64)
    np.testing.assert_allclose(np.asarray(f), f_ref, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(p), p_ref, rtol=2e-4, atol=1e-6)
    _, _, zxx = jsig.stft(x.astype(np.float32), nperseg=64)
    _, _, zxx_ref = ssig.stft(x, nperseg=64)
    np.testing.assert_allclose(np.asarray(zxx), zxx_ref, rtol=1e-4, atol=1e-5)
    _, back = jsig.istft(zxx, nperseg=64)
    np.testing.assert_allclose(np.asarray(back)[:, :300], x, atol=1e-5)


def test_list_input_rejected() -> None:
    # JAX reads ``x.ndim`` first and raises AttributeError for a list; jax_core says what to pass
    with pytest.raises(TypeError, match="^spectral_helper requires ndarray or scalar arguments"):
        jsig.welch([1.0, 2.0])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_warnings_as_jax() -> None:
    with pytest.warns(UserWarning, match="^nperseg=512 is greater than input_length=300, using nperseg=300$"):
        jsig.welch(INPUTS["x"], nperseg=512)
    with pytest.warns(UserWarning, match="^Input data is complex, switching to return_onesided=False$"):
        jsig.welch(INPUTS["z"], nperseg=16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jsig.welch(INPUTS["x"], nperseg=64)
