"""jnp.linalg and jnp.fft: every name against NumPy (float32; decompositions up to sign/phase)."""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp

ROOT = pathlib.Path(__file__).resolve().parents[2]
rng = np.random.default_rng(2)
A = rng.standard_normal((4, 4)).astype(np.float32)
SPD = (A @ A.T + 4 * np.eye(4)).astype(np.float32)
TALL = rng.standard_normal((5, 3)).astype(np.float32)
BATCH = rng.standard_normal((2, 3, 3)).astype(np.float32)
VEC = rng.standard_normal(4).astype(np.float32)
CPLX = (A + 1j * SPD).astype(np.complex64)


def _close(got: Any, want: Any, tol: float = 2e-4) -> None:
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            _close(g, w, tol)
        return
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol)


def _recon_qr(res: Any, a: Any) -> None:
    q, r = res
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, rtol=1e-4, atol=1e-4)


LINALG: dict[str, Callable[[], None]] = {
    "cholesky": lambda: _close(jnp.linalg.cholesky(SPD), np.linalg.cholesky(SPD)),
    "cond": lambda: _close(jnp.linalg.cond(A), np.linalg.cond(A), 1e-3),
    "cross": lambda: _close(jnp.linalg.cross(A[:, :3], SPD[:, :3]), np.linalg.cross(A[:, :3], SPD[:, :3])),
    "det": lambda: _close(jnp.linalg.det(BATCH), np.linalg.det(BATCH)),
    "diagonal": lambda: _close(jnp.linalg.diagonal(BATCH), np.linalg.diagonal(BATCH)),
    "eig": lambda: _close(np.sort_complex(np.asarray(jnp.linalg.eig(A).eigenvalues)), np.sort_complex(np.linalg.eig(A).eigenvalues)),
    "eigh": lambda: _close(jnp.linalg.eigh(SPD).eigenvalues, np.linalg.eigh(SPD).eigenvalues, 1e-3),
    "eigvals": lambda: _close(np.sort_complex(np.asarray(jnp.linalg.eigvals(A))), np.sort_complex(np.linalg.eigvals(A))),
    "eigvalsh": lambda: _close(jnp.linalg.eigvalsh(CPLX + CPLX.conj().T), np.linalg.eigvalsh(CPLX + CPLX.conj().T), 1e-3),
    "inv": lambda: _close(jnp.linalg.inv(BATCH), np.linalg.inv(BATCH), 1e-3),
    "lstsq": lambda: _close(jnp.linalg.lstsq(TALL, TALL[:, 0] + 1)[0], np.linalg.lstsq(TALL, TALL[:, 0] + 1, rcond=None)[0]),
    "matmul": lambda: _close(jnp.linalg.matmul(BATCH, BATCH), np.linalg.matmul(BATCH, BATCH)),
    "matrix_norm": lambda: _close(jnp.linalg.matrix_norm(BATCH, ord="nuc"), np.linalg.matrix_norm(BATCH, ord="nuc")),
    "matrix_power": lambda: _close(jnp.linalg.matrix_power(A, 3), np.linalg.matrix_power(A, 3), 1e-3),
    "matrix_rank": lambda: _close(jnp.linalg.matrix_rank(TALL @ TALL.T), np.linalg.matrix_rank(TALL @ TALL.T)),
    "matrix_transpose": lambda: _close(jnp.linalg.matrix_transpose(BATCH), np.linalg.matrix_transpose(BATCH)),
    "multi_dot": lambda: _close(jnp.linalg.multi_dot([VEC, A, SPD, VEC]), np.linalg.multi_dot([VEC, A, SPD, VEC]), 1e-2),
    "norm": lambda: _close(jnp.linalg.norm(A, 2), np.linalg.norm(A, 2)),
    "outer": lambda: _close(jnp.linalg.outer(VEC, VEC), np.linalg.outer(VEC, VEC)),
    "pinv": lambda: _close(jnp.linalg.pinv(TALL), np.linalg.pinv(TALL)),
    "qr": lambda: _recon_qr(jnp.linalg.qr(TALL), TALL),
    "slogdet": lambda: _close(tuple(jnp.linalg.slogdet(A)), tuple(np.linalg.slogdet(A))),
    "solve": lambda: _close(jnp.linalg.solve(A, VEC), np.linalg.solve(A, VEC), 1e-3),
    "svd": lambda: _close(jnp.linalg.svd(TALL).S, np.linalg.svd(TALL).S),
    "svdvals": lambda: _close(jnp.linalg.svdvals(TALL), np.linalg.svdvals(TALL)),
    "tensordot": lambda: _close(jnp.linalg.tensordot(A, SPD, axes=1), np.linalg.tensordot(A, SPD, axes=1), 1e-3),
    "tensorinv": lambda: _close(jnp.linalg.tensorinv(A.reshape(2, 2, 4)), np.linalg.tensorinv(A.reshape(2, 2, 4)), 1e-3),
    "tensorsolve": lambda: _close(jnp.linalg.tensorsolve(A.reshape(2, 2, 4), VEC.reshape(2, 2)), np.linalg.tensorsolve(A.reshape(2, 2, 4), VEC.reshape(2, 2)), 1e-3),
    "trace": lambda: _close(jnp.linalg.trace(BATCH), np.linalg.trace(BATCH)),
    "vecdot": lambda: _close(jnp.linalg.vecdot(A, SPD), np.linalg.vecdot(A, SPD), 1e-3),
    "vector_norm": lambda: _close(jnp.linalg.vector_norm(A, ord=3), np.linalg.vector_norm(A, ord=3)),
}

X = rng.standard_normal((4, 6)).astype(np.float32)
XC = (X + 1j * rng.standard_normal((4, 6))).astype(np.complex64)
FFT: dict[str, Callable[[], None]] = {
    "fft": lambda: _close(jnp.fft.fft(XC, n=8), np.fft.fft(XC, n=8)),
    "ifft": lambda: _close(jnp.fft.ifft(XC, axis=0, norm="ortho"), np.fft.ifft(XC, axis=0, norm="ortho")),
    "rfft": lambda: _close(jnp.fft.rfft(X, n=5), np.fft.rfft(X, n=5)),
    "irfft": lambda: _close(jnp.fft.irfft(XC, n=7), np.fft.irfft(XC, n=7)),
    "fft2": lambda: _close(jnp.fft.fft2(XC), np.fft.fft2(XC)),
    "ifft2": lambda: _close(jnp.fft.ifft2(XC, s=(3, 4)), np.fft.ifft2(XC, s=(3, 4), axes=(-2, -1))),
    "rfft2": lambda: _close(jnp.fft.rfft2(X, norm="forward"), np.fft.rfft2(X, norm="forward")),
    "irfft2": lambda: _close(jnp.fft.irfft2(XC), np.fft.irfft2(XC)),
    "fftn": lambda: _close(jnp.fft.fftn(XC[None].repeat(2, 0)), np.fft.fftn(XC[None].repeat(2, 0)), 1e-3),
    "ifftn": lambda: _close(jnp.fft.ifftn(XC, axes=(1,)), np.fft.ifftn(XC, axes=(1,))),
    "rfftn": lambda: _close(jnp.fft.rfftn(X), np.fft.rfftn(X), 1e-3),
    "irfftn": lambda: _close(jnp.fft.irfftn(XC, s=(4, 8), axes=(0, 1)), np.fft.irfftn(XC, s=(4, 8), axes=(0, 1))),
    "hfft": lambda: _close(jnp.fft.hfft(XC[0]), np.fft.hfft(XC[0]), 1e-3),
    "ihfft": lambda: _close(jnp.fft.ihfft(X[0]), np.fft.ihfft(X[0])),
    "fftfreq": lambda: _close(jnp.fft.fftfreq(7, 0.5), np.fft.fftfreq(7, 0.5)),
    "rfftfreq": lambda: _close(jnp.fft.rfftfreq(8), np.fft.rfftfreq(8)),
    "fftshift": lambda: _close(jnp.fft.fftshift(X), np.fft.fftshift(X)),
    "ifftshift": lambda: _close(jnp.fft.ifftshift(X, axes=1), np.fft.ifftshift(X, axes=1)),
}


@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg(name: str) -> None:
    LINALG[name]()


@pytest.mark.parametrize("name", sorted(FFT))
def test_fft(name: str) -> None:
    FFT[name]()


def test_every_reference_name_has_a_case() -> None:
    ref = [line.split() for line in (ROOT / "api" / "jnp_reference.txt").read_text().splitlines() if line and not line.startswith("#")]
    assert {n for m, n in ref if m == "jax.numpy.linalg"} <= set(LINALG)
    assert {n for m, n in ref if m == "jax.numpy.fft"} <= set(FFT)


def test_linalg_under_jit_grad_and_vmap() -> None:
    f = jax.jit(lambda m: jnp.linalg.slogdet(m).logabsdet)
    np.testing.assert_allclose(np.asarray(jax.vmap(f)(BATCH)), np.linalg.slogdet(BATCH).logabsdet, rtol=1e-4)
    g = jax.grad(lambda m: jnp.linalg.norm(jnp.linalg.inv(m)))(A)
    assert g.shape == A.shape and np.isfinite(np.asarray(g)).all()


def test_fft_grad_and_x64() -> None:
    from jax_core._src.config import enable_x64

    # Parseval: sum |fft(x)|^2 = n * sum x^2, so the gradient is 2 n x.
    g = jax.grad(lambda x: jnp.sum(jnp.abs(jnp.fft.fft(x)) ** 2))(X[0])
    np.testing.assert_allclose(np.asarray(g), 2 * 6 * X[0], rtol=1e-4)
    with enable_x64(True):
        out = jnp.fft.fft(X.astype(np.float64))
        assert out.dtype == np.complex128
        np.testing.assert_allclose(np.asarray(out), np.fft.fft(X.astype(np.float64)), rtol=1e-10, atol=1e-10)
