"""The rest of ``jax_core.scipy.linalg`` against real JAX (live oracle): the special-matrix
constructors bit for bit, the Schur-based functions and solvers within a tolerance (same LAPACK
kernels, possibly other fusion), and JAX's exceptions."""

from __future__ import annotations

import numpy as np
import pytest

from tests._live_cases import live_case_tests

S = "jsp.linalg"
A = "jnp.array([[1., 2., 0.5, -1.], [-3., 1., 2., 0.], [0., 4., -1., 2.], [2., 1., 1., 3.]])"
SPD = f"({A} @ {A}.T + jnp.eye(4))"
B3 = "jnp.array([[2., 1., 0.], [1., 3., 1.], [0., -1., 4.]])"
C43 = "jnp.array([[1., 0., 2.], [0., 1., -1.], [3., 1., 0.], [1., 1., 1.]])"
D, E = "jnp.array([1., -2., 3., 0.5, 2.])", "jnp.array([0.5, 1., -1., 2.])"

EXACT = [
    f"{S}.toeplitz(jnp.array([1, 2, 3]))", f"{S}.toeplitz(jnp.array([1, 2, 3]), jnp.array([1, -2, -3, 4]))",
    f"{S}.toeplitz(jnp.array([1+1j, 2, 3]))", f"{S}.toeplitz(jnp.arange(6.).reshape(2, 3))", f"{S}.toeplitz(jnp.array([]))",
    f"{S}.hankel(jnp.array([1, 2, 3]))", f"{S}.hankel(jnp.array([1, 2, 3]), jnp.array([3, 4, 5, 6.]))",
    f"{S}.circulant(jnp.array([1, 2, 3]))", f"{S}.circulant(jnp.arange(6).reshape(2, 3))",
    f"{S}.leslie(jnp.array([0.1, 2, 1, 0.1]), jnp.array([0.2, 0.8, 0.7]))", f"{S}.companion(jnp.array([1, -10, 31, -30]))",
    f"{S}.fiedler(jnp.array([1, 4, 12, 45, 77]))", f"{S}.fiedler_companion(jnp.array([1., -16, 86, -176, 105]))",
    f"{S}.fiedler_companion(jnp.array([2., 3.]))", f"{S}.convolution_matrix(jnp.array([-1, 4, -2]), 5)",
    f"{S}.convolution_matrix(jnp.array([-1, 4, -2]), 5, mode='same')", f"{S}.convolution_matrix(jnp.array([-1., 4, -2]), 4, mode='valid')",
    f"{S}.hilbert(4)", f"{S}.invhilbert(4)", f"{S}.pascal(4)", f"{S}.pascal(3, 'upper')", f"{S}.pascal(3, kind='lower')",
    f"{S}.invpascal(4)", f"{S}.invpascal(3, 'lower')", f"{S}.helmert(4)", f"{S}.helmert(3, full=True)", f"{S}.hadamard(4)",
    f"{S}.hadamard(2, dtype=jnp.float32)", f"{S}.dft(3)", f"{S}.dft(4, 'sqrtn')", f"{S}.dft(2, 'n', dtype=jnp.complex64)",
    f"jax.jit({S}.toeplitz)(jnp.array([1., 2.]), jnp.array([1., 3., 4.]))",
    f"jax.vmap({S}.circulant)(jnp.arange(6.).reshape(2, 3))",
    f"jax.grad(lambda c: {S}.toeplitz(c).sum())(jnp.array([1., 2., 3.]))",
    f"{S}.schur({A})", f"{S}.schur({A}, output='complex')", f"{S}.hessenberg({A})", f"{S}.hessenberg({A}, calc_q=True)",
    f"{S}.hessenberg(jnp.zeros((0, 0)), calc_q=True)", f"{S}.qr_multiply({C43}, jnp.ones((2, 4)))",
    f"{S}.qr_multiply({C43}, jnp.ones((3, 2)), mode='left')", f"{S}.qr_multiply({C43}, jnp.ones(4), conjugate=True)",
    f"{S}.qr_multiply({C43}, jnp.ones((2, 4)), pivoting=True)",
]
CLOSE = [
    f"{S}.sqrtm({SPD})", f"{S}.sqrtm({A})", f"{S}.funm({A}, jnp.sin)", f"{S}.funm({B3}, jnp.exp, disp=False)",
    f"{S}.rsf2csf(*{S}.schur({A}))", f"{S}.polar({A})", f"{S}.polar({C43})",
    f"{S}.polar({A}, method='svd')", f"{S}.polar({C43}, method='svd', side='left')", f"{S}.polar(jnp.stack([{A}, 2 * {A}]))",
    f"{S}.expm_frechet(0.3 * {A}, jnp.eye(4))", f"{S}.expm_frechet(0.3 * {A}, jnp.eye(4), compute_expm=False)",
    f"{S}.solve_sylvester({A}, {B3}, {C43})", f"{S}.solve_sylvester({A}, {B3}, {C43}, method='eigen')",
    f"{S}.solve_sylvester({A}, -{A}, {A})",
    f"{S}.eigh_tridiagonal({D}, {E}, eigvals_only=True)", f"{S}.eigh_tridiagonal({D}, {E}, eigvals_only=True, select='i', select_range=(1, 3))",
    f"{S}.eigh_tridiagonal({D}[:1], {E}[:0])",
]
ERRORS = [
    f"{S}.polar({A}, side='left')",
    f"{S}.toeplitz([1, 2])", f"{S}.hankel(1)", f"{S}.hankel(jnp.ones(2), 3.0)", f"{S}.leslie(jnp.ones(1), jnp.ones(0))",
    f"{S}.leslie(jnp.ones(3), jnp.ones(3))", f"{S}.companion(jnp.ones(1))", f"{S}.fiedler_companion(jnp.ones(0))",
    f"{S}.convolution_matrix(jnp.ones(3), 0)", f"{S}.convolution_matrix(jnp.ones(3), 2, mode='x')",
    f"{S}.convolution_matrix(1.0, 2)", f"{S}.pascal(3, 'x')", f"{S}.invpascal(3, 'x')", f"{S}.helmert(0)", f"{S}.hadamard(3)",
    f"{S}.dft(2, 'x')", f"{S}.dft(2, dtype=jnp.float32)", f"{S}.schur({A}, output='x')", f"{S}.sqrtm({A}, blocksize=2)",
    f"{S}.funm(jnp.ones(3), jnp.sin)", f"{S}.rsf2csf(jnp.ones((2, 3)), jnp.ones((2, 2)))",
    f"{S}.rsf2csf(jnp.ones((2, 2)), jnp.ones((3, 3)))", f"{S}.polar(jnp.ones(3))", f"{S}.polar({A}, side='x')",
    f"{S}.polar({C43}.T)", f"{S}.polar({A}, method='x')", f"{S}.qr_multiply({C43}, jnp.ones((2, 3)))",
    f"{S}.qr_multiply({C43}, jnp.ones((4, 2)), mode='left')", f"{S}.qr_multiply({C43}, jnp.ones((2, 4)), mode='x')",
    f"{S}.expm_frechet({A}, {B3})", f"{S}.solve_sylvester({A}, {B3}, {C43}.T)", f"{S}.solve_sylvester({A}, {B3}, {C43}, method='x')",
    f"{S}.eigh_tridiagonal({D}, {E}.astype(jnp.int32))", f"{S}.eigh_tridiagonal({D}.astype(jnp.int32), {E}.astype(jnp.int32))",
]

live, test_bit_identical, test_close, test_errors = live_case_tests(EXACT, CLOSE, ERRORS, tolerance=1e-4)


def test_eigh_tridiagonal_vectors() -> None:
    import jax_core.scipy.linalg as jsl

    d = np.array([1.0, -2.0, 3.0, 0.5, 2.0], np.float32)
    e = np.array([0.5, 1.0, -1.0, 2.0], np.float32)
    w, v = jsl.eigh_tridiagonal(d, e)
    t = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    np.testing.assert_allclose(t @ np.asarray(v), np.asarray(v) * np.asarray(w), atol=1e-5)
    np.testing.assert_allclose(np.asarray(w), np.linalg.eigvalsh(t), atol=1e-5)
    with pytest.raises(NotImplementedError, match="select='v'"):
        jsl.eigh_tridiagonal(d, e, select="v", select_range=(0.0, 1.0))
