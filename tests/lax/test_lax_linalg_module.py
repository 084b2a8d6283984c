"""``jax_core.lax.linalg`` against real JAX (live oracle): values (bit-identical where jax_core
runs JAX's LAPACK calls and lax programs, within a tolerance where the order of operations may
differ), JAX's exceptions and messages, and ``jit``/``vmap``/``grad`` where JAX supports them."""

from __future__ import annotations

import numpy as np
import pytest

from tests._live_cases import live_case_tests

COVERED = {
    "schur", "hessenberg", "householder_product", "ormqr", "geqp3", "tridiagonal", "tridiagonal_solve",
    "cholesky_update", "symmetric_product", "lu_pivots_to_permutation",
}  # fmt: skip

L = "jax.lax.linalg"
A = "jnp.array([[4., 1., -2., 0.5], [1., 3., 0., 1.], [-2., 0., 5., 2.], [0.5, 1., 2., 6.]])"  # symmetric positive definite
G = "jnp.array([[1., 2., 0.5], [-3., 1., 2.], [0., 4., -1.], [2., 1., 1.]])"  # 4 x 3
C = "jnp.array([[1+1j, 2, 0], [0.5j, -1, 3], [2, 1j, 1]], dtype=jnp.complex64)"
DL, D, DU = "jnp.array([0., 1., 2., 3.])", "jnp.array([4., 5., 6., 7.])", "jnp.array([1., -1., 1., 0.])"
B = "jnp.arange(8.).reshape(4, 2)"

EXACT = [
    f"{L}.cholesky({A})", f"{L}.cholesky({A}, symmetrize_input=False)", f"{L}.cholesky(jnp.eye(3, dtype=jnp.int32))",
    f"{L}.eigh({A})", f"{L}.eigh({A}, lower=False, symmetrize_input=False)", f"{L}.eigh({C} + {C}.conj().T)",
    f"{L}.eig({A})", f"{L}.eig({A}, compute_left_eigenvectors=False)", f"{L}.eig({C}, compute_right_eigenvectors=False)",
    f"{L}.lu({G})", f"{L}.lu({C})", f"{L}.lu_pivots_to_permutation(jnp.array([2, 2, 3], jnp.int32), 5)",
    f"{L}.lu_pivots_to_permutation(jnp.array([[1, 1], [0, 1]], jnp.int32), 2)",
    f"{L}.qr({G})", f"{L}.qr({G}, full_matrices=False)", f"{L}.qr({G}, pivoting=True)", f"{L}.qr({G}.T, pivoting=True)",
    f"{L}.qr({G}, pivoting=True, full_matrices=False)", f"{L}.qr(jnp.zeros((0, 3)), pivoting=True)",
    f"{L}.svd({G})", f"{L}.svd({G}, full_matrices=False)", f"{L}.svd({G}, compute_uv=False)", f"{L}.svd({C}, compute_uv=False)",
    f"{L}.svd(jnp.zeros((0, 3)))", f"{L}.svd(jnp.zeros((3, 0)), full_matrices=False)",
    f"{L}.svd({G}, full_matrices=False, subset_by_index=(0, 3))",
    f"{L}.triangular_solve({A}, {B}, left_side=True, lower=True)", f"{L}.triangular_solve({A}, jnp.ones(4), left_side=True)",
    f"{L}.triangular_solve({A}, jnp.ones(4), transpose_a=True)", f"{L}.triangular_solve({C}, jnp.ones((2, 3), jnp.complex64), conjugate_a=True)",
    f"{L}.schur({A})", f"{L}.schur({G}[:3])", f"{L}.schur({C})", f"{L}.schur({G}[:3], compute_schur_vectors=False)",
    f"{L}.hessenberg({A})", f"{L}.hessenberg({C})", f"{L}.hessenberg(jnp.stack([{A}, 2 * {A}]))",
    f"{L}.householder_product({G}, jnp.array([1.2, 0.5, 1.0]))",
    f"{L}.householder_product({G}, jnp.array([1.2, 0.5]))",
    f"{L}.ormqr({G}, jnp.array([1.2, 0.5, 1.0]), jnp.eye(4))", f"{L}.ormqr({G}, jnp.array([1.2, 0.5, 1.0]), {B}.T, left=False, transpose=True)",
    f"{L}.tridiagonal({A})", f"{L}.tridiagonal({A}, lower=False)", f"{L}.tridiagonal({C} + {C}.conj().T)",
    f"{L}.tridiagonal_solve({DL}, {D}, {DU}, {B})", f"{L}.tridiagonal_solve({DL}, {D}, {DU}, {B}, perturb_singular=True)",
    f"{L}.tridiagonal_solve({DL}, jnp.zeros(4), {DU}, {B}, perturb_singular=True)",
    f"{L}.symmetric_product({G}, {A}, alpha=2.0, beta=0.5)", f"{L}.symmetric_product({G}, {A}, symmetrize_output=True)",
    # transformations
    f"jax.jit({L}.schur)({A})", f"jax.vmap({L}.hessenberg)(jnp.stack([{A}, -{A}]))",
    f"jax.vmap(lambda d: {L}.tridiagonal_solve({DL}, d, {DU}, {B}))(jnp.stack([{D}, 2 * {D}]))",
    f"jax.vmap(lambda b: {L}.tridiagonal_solve({DL}, {D}, {DU}, b))(jnp.stack([{B}, -{B}]))",
    f"jax.vmap(lambda p: {L}.lu_pivots_to_permutation(p, 3))(jnp.array([[2, 2], [1, 2]], jnp.int32))",
    f"jax.vmap({L}.symmetric_product)(jnp.stack([{G}, {G}]), jnp.stack([{A}, {A}]))",

]
CLOSE = [
    f"jax.jit({L}.cholesky_update)(jnp.linalg.cholesky({A}).T, jnp.array([1., 0.5, -1., 2.]))",
    f"{L}.qdwh({A})", f"{L}.qdwh({G})", f"{L}.qdwh({G}, max_iterations=2)", f"{L}.qdwh({G}, dynamic_shape=(3, 2))",
    f"{L}.cholesky_update(jnp.linalg.cholesky({A}).T, jnp.array([1., 0.5, -1., 2.]))",
    f"jax.grad(lambda d: {L}.tridiagonal_solve({DL}, d, {DU}, {B}).sum())({D})",
    f"jax.grad(lambda b: {L}.tridiagonal_solve({DL}, {D}, {DU}, b).sum())({B})",
    f"jax.jvp(lambda dl, du: {L}.tridiagonal_solve(dl, {D}, du, {B}), ({DL}, {DU}), ({DU}, {DL}))",
    f"jax.grad(lambda x: {L}.eigh(x)[1].sum())({A})", f"jax.grad(lambda x: {L}.cholesky(x).sum())({A})",
    f"jax.grad(lambda x: {L}.svd(x, compute_uv=False).sum())({G})",
]
ERRORS = [
    f"{L}.schur(jnp.ones((3, 3), jnp.int32))", f"{L}.schur(jnp.ones(3))", f"{L}.schur(jnp.ones((3, 4)))",
    f"{L}.schur({A}, sort_eig_vals=True)", f"{L}.hessenberg(jnp.ones((3, 4)))", f"{L}.hessenberg(jnp.ones((3, 3), jnp.float16))",
    f"{L}.householder_product(jnp.ones((3, 4)), jnp.ones(2))", f"{L}.householder_product(jnp.ones((4, 3)), jnp.ones(4))",
    f"{L}.householder_product(jnp.ones((4, 3)), jnp.ones(2, jnp.complex64))",
    f"{L}.ormqr(jnp.ones((3, 2)), jnp.ones(2), jnp.ones((4, 2)))", f"{L}.ormqr(jnp.ones((3, 2)), jnp.ones(2), jnp.ones((4, 2)), left=False)",
    f"{L}.tridiagonal(jnp.ones((3, 4)))", f"{L}.tridiagonal(jnp.ones((0, 0)))",
    f"{L}.tridiagonal_solve(jnp.ones(3), jnp.ones(3), jnp.ones(2), jnp.ones((3, 1)))",
    f"{L}.tridiagonal_solve(jnp.ones(3), jnp.ones(3), jnp.ones(3), jnp.ones((4, 1)))",
    f"{L}.tridiagonal_solve(jnp.ones(3), jnp.ones(3), jnp.ones(3), jnp.ones((3, 1), jnp.float16))",
    f"{L}.cholesky_update(jnp.ones((3, 3)), jnp.ones(2))", f"{L}.cholesky_update(jnp.ones((2, 3, 3)), jnp.ones((2, 3)))",
    f"{L}.cholesky_update(jnp.ones((3, 3), jnp.complex64), jnp.ones(3, jnp.complex64))",
    f"{L}.symmetric_product(jnp.ones((3, 2)), jnp.ones((2, 2)))", f"{L}.symmetric_product(jnp.ones((3, 3), jnp.int32), jnp.ones((3, 3), jnp.int32))",
    f"{L}.lu_pivots_to_permutation(jnp.ones(3, jnp.int32), 2)", f"{L}.lu_pivots_to_permutation(jnp.ones(3), 4)",
    f"{L}.cholesky(jnp.ones((3, 2)))", f"{L}.eigh(jnp.ones((3, 2)))", f"{L}.eigh(jnp.eye(3), subset_by_index=(0, 2))",
    f"{L}.eigh(jnp.eye(3), implementation={L}.EighImplementation.JACOBI)",
    f"{L}.svd(jnp.eye(3), full_matrices=False, subset_by_index=(0, 2))", f"{L}.svd(jnp.eye(3), subset_by_index=(0, 2))",
    f"{L}.svd(jnp.eye(3), algorithm={L}.SvdAlgorithm.JACOBI)", f"{L}.eig(jnp.eye(2), implementation={L}.EigImplementation.MAGMA)",
    f"{L}.qdwh(jnp.ones((2, 3)))",
    f"jax.jvp({L}.schur, (jnp.eye(3),), (jnp.eye(3),))", f"jax.jvp({L}.hessenberg, (jnp.eye(3),), (jnp.eye(3),))",
    f"jax.jvp(lambda a: {L}.householder_product(a, jnp.ones(2)), (jnp.eye(3),), (jnp.eye(3),))",
    f"jax.jvp({L}.tridiagonal, (jnp.eye(3),), (jnp.eye(3),))",
    f"jax.jvp({L}.cholesky_update, (jnp.eye(3), jnp.ones(3)), (jnp.eye(3), jnp.ones(3)))",
    f"jax.jvp({L}.symmetric_product, (jnp.eye(3), jnp.eye(3)), (jnp.eye(3), jnp.eye(3)))",
    f"jax.jvp(lambda a: {L}.ormqr(a, jnp.ones(2), jnp.eye(3)), (jnp.eye(3),), (jnp.eye(3),))",
    f"jax.vmap({L}.cholesky_update)(jnp.ones((2, 3, 3)), jnp.ones((2, 3)))",
]

live, test_bit_identical, test_close, test_errors = live_case_tests(EXACT, CLOSE, ERRORS, tolerance=2e-5)


def test_eig_use_magma_warns() -> None:
    import jax_core.lax.linalg as lax_linalg

    with pytest.warns(DeprecationWarning, match="use_magma is deprecated"):
        lax_linalg.eig(np.eye(2, dtype=np.float32), use_magma=False)


def test_enums() -> None:
    import jax_core.lax.linalg as lax_linalg

    assert [e.value for e in lax_linalg.SvdAlgorithm] == ["default", "QR", "Jacobi", "polar", "divide_and_conquer"]
    assert [e.value for e in lax_linalg.EighImplementation] == ["qr", "jacobi", "qdwh"]
    assert [e.value for e in lax_linalg.EigImplementation] == ["cusolver", "magma", "lapack"]
