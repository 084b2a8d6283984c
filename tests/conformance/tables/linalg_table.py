"""``lax.linalg`` (the whole module) and the rest of ``scipy.linalg``: the special matrices, the
Schur-based functions and the solvers. Register as
``("lax.linalg", "lax.linalg", LAX_LINALG, {})`` and ``("scipy.linalg", "jsp.linalg", SCIPY_LINALG_MORE, {})``."""

LAX_LINALG = """
cholesky(s[3, 3] @ s[3, 3].T + 3 * jnp.eye(3)|c[3, 3], symmetrize_input=_|False)  ~64
cholesky_update(jnp.triu(s[3, 3]) + 3 * jnp.eye(3), s[3])  ~64 -grad -vmap
eig(s[3, 3], compute_left_eigenvectors=_|False, compute_right_eigenvectors=_|False)  ~256 -grad
eigh(s[3, 3] + s[3, 3].T|c[3, 3], lower=_|False, symmetrize_input=_|False)  ~256 -grad
hessenberg(s[4, 4]|c[3, 3])  ~64 -grad
householder_product(s[4, 3], s[3]|s[2])  ~64 -grad
lu(s[3, 3]|s[3, 4]|c[3, 3])  ~64
lu_pivots_to_permutation(jnp.array([2, 2, 3], jnp.int32), 4|5)
ormqr(s[4, 3], s[3], s[4, 2], transpose=_|True)  ~64 -grad
ormqr(s[4, 3], s[3], s[2, 4], left=False)  ~64 -grad
qdwh(s[4, 3] + jnp.eye(4, 3), max_iterations=_|3)  ~256 -grad -vmap
qr(s[4, 3]|c[3, 3], full_matrices=_|False, pivoting=_|True)  ~256 -grad
schur(s[3, 3]|c[3, 3], compute_schur_vectors=_|False)  ~256 -grad
svd(s[4, 3], full_matrices=_|False, compute_uv=_|False)  ~256 -grad
symmetric_product(s[3, 2], s[3, 3], alpha=_|2.0, beta=_|0.5, symmetrize_output=_|True)  ~16 -grad
triangular_solve(jnp.triu(s[3, 3]) + 3 * jnp.eye(3), s[3, 2]|s[3], left_side=_|True, lower=_|True, transpose_a=_|True)  ~64
tridiagonal(s[3, 3] + s[3, 3].T|c[3, 3], lower=_|False)  ~64 -grad
tridiagonal_solve(s[4], s[4] + 5, s[4], s[4, 2], perturb_singular=_|True)  ~64
"""

SCIPY_LINALG_MORE = """
circulant(a[3]|a[2, 3])
companion(f[4])  ~4
convolution_matrix(n[3], 4, mode=_|'same'|'valid')
dft(3|4, scale=_|'sqrtn'|'n')  ~4
eigh_tridiagonal(s[5], s[4], eigvals_only=True, select=_|'i', select_range=_|(1, 3))  ~256 -grad -vmap
expm_frechet(s[3, 3] / 4, s[3, 3], compute_expm=_|False)  ~256
fiedler(n[4])  ~
fiedler_companion(s[5])  ~4
funm(s[3, 3], jnp.sin)  ~256 -grad -vmap
hadamard(4|8, dtype=_|jnp.float32)
hankel(a[3], a[4]|a[2])
helmert(3|4, full=_|True)  ~4
hessenberg(s[4, 4], calc_q=_|True)  ~64 -grad
hilbert(3|5)
invhilbert(3|4)  ~16
invpascal(3|4, kind=_|'lower'|'upper')  ~16
leslie(s[4], s[3])
pascal(3|4, kind=_|'lower'|'upper')  ~16
polar(s[4, 3], method=_|'svd')  ~256 -grad
qr_multiply(s[4, 3], s[2, 4], conjugate=_|True)  ~64 -grad
rsf2csf(jnp.triu(s[3, 3]), jnp.eye(3))  ~64 -grad
schur(s[3, 3], output=_|'complex')  ~256 -grad
solve_sylvester(s[3, 3] + 4 * jnp.eye(3), s[2, 2] + 4 * jnp.eye(2), s[3, 2], method=_|'eigen')  ~256 -grad
sqrtm(s[3, 3] @ s[3, 3].T + jnp.eye(3))  ~256 -grad
toeplitz(a[3], a[4]|a[2])
toeplitz(c[3])
"""
