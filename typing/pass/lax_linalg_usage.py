"""Typed use of ``jax_core.lax.linalg`` and the newer ``jax_core.scipy.linalg`` functions."""

from typing import assert_type

import jax_core.numpy as jnp
import jax_core.scipy.linalg as jsl
from jax_core import Array
from jax_core.lax import linalg as lax_linalg

x = jnp.eye(3)
assert_type(lax_linalg.cholesky(x, symmetrize_input=False), Array)
assert_type(lax_linalg.eigh(x, sort_eigenvalues=True), tuple[Array, Array])
assert_type(lax_linalg.eig(x, compute_left_eigenvectors=False), list[Array])
assert_type(lax_linalg.lu(x), tuple[Array, Array, Array])
assert_type(lax_linalg.lu_pivots_to_permutation(jnp.zeros(3, jnp.int32), 3), Array)
assert_type(lax_linalg.qr(x), tuple[Array, Array])
assert_type(lax_linalg.qr(x, pivoting=True), tuple[Array, Array, Array])
assert_type(lax_linalg.svd(x, compute_uv=False), Array)
assert_type(lax_linalg.svd(x, compute_uv=True, algorithm=lax_linalg.SvdAlgorithm.DEFAULT), tuple[Array, Array, Array])
assert_type(lax_linalg.triangular_solve(x, x, left_side=True), Array)
assert_type(lax_linalg.schur(x), tuple[Array, Array])
assert_type(lax_linalg.hessenberg(x), tuple[Array, Array])
assert_type(lax_linalg.householder_product(x, jnp.ones(2)), Array)
assert_type(lax_linalg.ormqr(x, jnp.ones(2), x, left=False), Array)
assert_type(lax_linalg.tridiagonal(x), tuple[Array, Array, Array, Array])
assert_type(lax_linalg.tridiagonal_solve(jnp.ones(3), jnp.ones(3), jnp.ones(3), x), Array)
assert_type(lax_linalg.cholesky_update(x, jnp.ones(3)), Array)
assert_type(lax_linalg.symmetric_product(x, x, alpha=2.0), Array)
assert_type(lax_linalg.qdwh(x), tuple[Array, Array, Array, Array])
impl: lax_linalg.EighImplementation = lax_linalg.EighImplementation.QR
eig_impl: lax_linalg.EigImplementation = lax_linalg.EigImplementation.LAPACK

assert_type(jsl.toeplitz(jnp.ones(3)), Array)
assert_type(jsl.hankel(jnp.ones(3), jnp.ones(2)), Array)
assert_type(jsl.circulant(jnp.ones(3)), Array)
assert_type(jsl.hadamard(4), Array)
assert_type(jsl.dft(4, "n"), Array)
assert_type(jsl.schur(x, output="complex"), tuple[Array, Array])
assert_type(jsl.hessenberg(x, calc_q=True), tuple[Array, Array])
assert_type(jsl.hessenberg(x, calc_q=False), Array)
assert_type(jsl.sqrtm(x), Array)
assert_type(jsl.polar(x, method="svd"), tuple[Array, Array])
assert_type(jsl.rsf2csf(x, x), tuple[Array, Array])
assert_type(jsl.expm_frechet(x, x, compute_expm=False), Array)
assert_type(jsl.solve_sylvester(x, x, x), Array)
assert_type(jsl.qr_multiply(x, x), tuple[Array, Array])
