"""jax_core.scipy.linalg against scipy.linalg (float32)."""

from __future__ import annotations

import numpy as np
import scipy.linalg as sl

import jax_core as jax
import jax_core.numpy as jnp
import jax_core.scipy.linalg as jsl

rng = np.random.default_rng(3)
A = rng.standard_normal((4, 4)).astype(np.float32)
SPD = (A @ A.T + 4 * np.eye(4)).astype(np.float32)
B = rng.standard_normal((4, 2)).astype(np.float32)
V = rng.standard_normal(4).astype(np.float32)


def _close(got: object, want: object, tol: float = 2e-4) -> None:
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=tol, atol=tol)


def test_cholesky_family() -> None:
    for lower in (False, True):
        _close(jsl.cholesky(SPD, lower=lower), sl.cholesky(SPD, lower=lower))
        cf = jsl.cho_factor(SPD, lower=lower)
        assert cf[1] is lower
        _close(jsl.cho_solve(cf, B), np.linalg.solve(SPD, B))
        _close(jsl.cho_solve(cf, V), np.linalg.solve(SPD, V))
    _close(jsl.solve(SPD, B, assume_a="pos"), np.linalg.solve(SPD, B))
    _close(jsl.solve(A, B), np.linalg.solve(A, B), 1e-3)


def test_triangular() -> None:
    t = np.triu(A) + 4 * np.eye(4, dtype=np.float32)
    for trans in (0, 1, "T"):
        for lower in (False, True):
            m = np.tril(t.T) if lower else t
            _close(jsl.solve_triangular(m, B, trans=trans, lower=lower), sl.solve_triangular(m, B, trans=trans, lower=lower))
    _close(jsl.solve_triangular(t, V), sl.solve_triangular(t, V))


def test_lu() -> None:
    p, l_, u = jsl.lu(A)
    _close(np.asarray(p) @ np.asarray(l_) @ np.asarray(u), A)
    wp, wl, wu = sl.lu(A)
    _close(p, wp)
    _close(l_, wl)
    _close(u, wu)
    pl, u2 = jsl.lu(A, permute_l=True)
    _close(np.asarray(pl) @ np.asarray(u2), A)
    tall = rng.standard_normal((5, 3)).astype(np.float32)
    p, l_, u = jsl.lu(tall)
    assert l_.shape == (5, 3) and u.shape == (3, 3)
    _close(np.asarray(p) @ np.asarray(l_) @ np.asarray(u), tall)
    lf = jsl.lu_factor(A)
    wlu, wpiv = sl.lu_factor(A)
    _close(lf[0], wlu)
    np.testing.assert_array_equal(np.asarray(lf[1]), wpiv)
    for trans in (0, 1, 2):
        _close(jsl.lu_solve(lf, B, trans=trans), sl.lu_solve((wlu, wpiv), B, trans=trans), 1e-3)
    _close(jsl.lu_solve(lf, V), np.linalg.solve(A, V), 1e-3)


def test_qr_svd_eigh() -> None:
    tall = rng.standard_normal((5, 3)).astype(np.float32)
    for mode in ("full", "economic"):
        q, r = jsl.qr(tall, mode=mode)  # type: ignore[misc]
        wq, wr = sl.qr(tall, mode=mode)
        assert q.shape == wq.shape and r.shape == wr.shape
        _close(np.asarray(q) @ np.asarray(r), tall)
    (r,) = jsl.qr(tall, mode="r")
    assert r.shape == (5, 3)
    s = jsl.svd(tall, compute_uv=False)
    _close(s, sl.svd(tall, compute_uv=False))
    w, v = jsl.eigh(SPD)
    _close(w, sl.eigh(SPD)[0], 1e-3)
    _close(np.asarray(v) @ np.diag(np.asarray(w)) @ np.asarray(v).T, SPD, 1e-3)
    _close(jsl.eigh(SPD, eigvals_only=True), sl.eigh(SPD, eigvals_only=True), 1e-3)


def test_block_diag_expm_det_inv() -> None:
    x = np.ones((2, 2), np.float32)
    y = np.arange(3, dtype=np.float32)
    _close(jsl.block_diag(x, y, np.float32(5)), sl.block_diag(x, y, 5))
    for scale in (0.01, 1.0, 30.0):
        m = (A * scale / 4).astype(np.float32)
        _close(jsl.expm(m), sl.expm(m.astype(np.float64)), 2e-3 * max(1.0, float(np.abs(sl.expm(m)).max())))
    _close(jax.jit(jsl.expm)(jnp.zeros((3, 3))), np.eye(3))
    _close(jsl.det(A), sl.det(A), 1e-3)
    _close(jsl.inv(SPD), sl.inv(SPD))
