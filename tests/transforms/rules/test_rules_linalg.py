"""Rules of the LAPACK-backed linear-algebra primitives: jvp (numerical gradients in float64),
the transpose of triangular_solve in its right-hand side, and batching against a loop."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from jax_core._src.lax.linalg import decompositions as L
from jax_core.test_util import check_grads

COVERED = {"cholesky", "triangular_solve", "lu", "qr", "eigh", "svd", "eig", "geqrf"}

rng = np.random.default_rng(1)
A = rng.standard_normal((3, 3))
SPD = A @ A.T + 3 * np.eye(3)
TALL = rng.standard_normal((4, 3))


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


CASES: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("cholesky", lambda m: L.cholesky((m + m.T) / 2), (SPD,)),
    ("triangular_solve_a", lambda t: L.triangular_solve(jnp.tril(t) + 3 * jnp.eye(3), A, left_side=True, lower=True), (A,)),
    ("triangular_solve_b", lambda b: L.triangular_solve(jnp.tril(SPD), b, left_side=False, lower=True, transpose_a=True), (A,)),
    ("lu", lambda m: L.lu(m)[0], (A,)),
    ("qr_q", lambda m: L.qr(m, full_matrices=False)[0], (TALL,)),
    ("qr_r", lambda m: L.qr(m, full_matrices=False)[1], (A,)),
    ("eigh_w", lambda m: L.eigh((m + m.T) / 2)[1], (SPD,)),
    ("eigh_v_abs", lambda m: jnp.abs(L.eigh((m + m.T) / 2)[0]), (SPD,)),
    ("svd_s", lambda m: L.svd(m, compute_uv=False), (TALL,)),
    ("svd_u_abs", lambda m: jnp.abs(L.svd(m, full_matrices=False)[1]), (TALL,)),
]


@pytest.mark.parametrize("name,fn,args", CASES, ids=[c[0] for c in CASES])
def test_grads(name: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    check_grads(fn, args, order=1, modes=["fwd", "rev"], atol=1e-4, rtol=1e-4)


def test_eig_eigenvalue_jvp() -> None:
    check_grads(lambda m: L.eig(m, compute_right_eigenvectors=False)[0], (SPD,), order=1, modes=["fwd"])
    with pytest.raises(NotImplementedError, match="derivatives of eigenvectors"):
        jax.jvp(lambda m: L.eig(m)[1], (A,), (A,))


def test_geqrf_holds_qr_and_has_no_derivative() -> None:
    a, taus = L.geqrf(TALL)
    assert a.shape == (4, 3) and taus.shape == (3,)
    np.testing.assert_allclose(np.triu(np.asarray(a))[:3], np.asarray(L.qr(TALL, full_matrices=False)[1]), rtol=1e-12)
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'geqrf'"):
        jax.jvp(lambda m: L.geqrf(m)[0], (A,), (A,))


def test_triangular_solve_transpose_is_the_adjoint() -> None:
    tri = np.tril(SPD)
    f = lambda b: L.triangular_solve(tri, b, left_side=True, lower=True)  # noqa: E731
    ct = rng.standard_normal((3, 3))
    (g,) = jax.vjp(f, A)[1](ct)
    np.testing.assert_allclose(np.asarray(g), np.linalg.solve(tri.T, ct), rtol=1e-10)


@pytest.mark.parametrize(
    "fn",
    [
        lambda m: L.cholesky(m @ m.T + 3 * jnp.eye(3)),
        lambda m: L.lu(m)[0],
        lambda m: L.qr(m)[1],
        lambda m: L.geqrf(m)[0],
        lambda m: L.geqrf(m)[1],
        lambda m: L.eigh(m + m.T)[1],
        lambda m: L.svd(m, compute_uv=False),
        lambda m: jnp.sort(jnp.real(L.eig(m, compute_right_eigenvectors=False)[0])),
        lambda m: L.triangular_solve(jnp.tril(m) + 4 * jnp.eye(3), jnp.ones((3, 2)), left_side=True, lower=True),
    ],
)
def test_vmap_matches_loop(fn: Callable[..., Any]) -> None:
    xs = rng.standard_normal((3, 3, 2))
    got = jax.vmap(fn, in_axes=2)(xs)
    want = np.stack([np.asarray(fn(jnp.asarray(xs[..., i]))) for i in range(2)])
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-8, atol=1e-10)
