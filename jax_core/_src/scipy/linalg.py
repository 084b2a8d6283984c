"""jax_core.scipy.linalg: SciPy's linalg signatures over the lax linalg primitives and jnp.linalg."""

from __future__ import annotations

from typing import Any, Literal, overload

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.lax.linalg import decompositions as lax_linalg
from jax_core._src.numpy import linalg as jnp_linalg
from jax_core._src.numpy.indexing_funcs import tril as jnp_tril
from jax_core._src.numpy.indexing_funcs import triu as jnp_triu
from jax_core._src.numpy.util import check_arraylike, jitted, promote_dtypes, unstaged
from jax_core._src.scipy.special import promote_arrays_inexact as promote_args_inexact
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["block_diag", "cho_factor", "cho_solve", "cholesky", "det", "eigh", "expm", "inv", "lu", "lu_factor",
           "lu_solve", "qr", "solve", "solve_triangular", "svd"]


def _square(name: str, a: Array) -> None:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected a square matrix (or a stack of them), got shape {a.shape}")


def cholesky(a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """Cholesky factor of a Hermitian positive-definite matrix (upper unless ``lower``)."""
    del overwrite_a, check_finite
    return _cholesky(a, lower)


@jitted(static=("lower",), inline=False)
def _cholesky(a: ArrayLike, lower: bool) -> Array:
    (aa,) = promote_args_inexact("cholesky", a)
    _square("cholesky", aa)
    return unstaged(jnp_linalg.cholesky)(aa, upper=not lower)


def cho_factor(a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, bool]:
    """``(c, lower)`` for ``cho_solve``; ``c`` holds the Cholesky factor in its triangle."""
    return cholesky(a, lower=lower, overwrite_a=overwrite_a, check_finite=check_finite), lower


def cho_solve(c_and_lower: tuple[ArrayLike, bool], b: ArrayLike, overwrite_b: bool = False, check_finite: bool = True) -> Array:
    """Solves ``A x = b`` given ``cho_factor(A)``."""
    del overwrite_b, check_finite
    c, lower = c_and_lower
    return _cho_solve(c, b, lower)


@jitted(static=("lower",), inline=False)
def _cho_solve(c: ArrayLike, b: ArrayLike, lower: bool) -> Array:
    ca, ba = promote_args_inexact("cho_solve", c, b)
    vec = ba.ndim == 1
    bm = ba[:, None] if vec else ba
    if lower:
        y = lax_linalg.triangular_solve(ca, bm, left_side=True, lower=True)
        x = lax_linalg.triangular_solve(ca, y, left_side=True, lower=True, transpose_a=True, conjugate_a=True)
    else:
        y = lax_linalg.triangular_solve(ca, bm, left_side=True, lower=False, transpose_a=True, conjugate_a=True)
        x = lax_linalg.triangular_solve(ca, y, left_side=True, lower=False)
    return x[:, 0] if vec else x


def solve_triangular(a: ArrayLike, b: ArrayLike, trans: int | str = 0, lower: bool = False, unit_diagonal: bool = False,
                     overwrite_b: bool = False, debug: Any = None, check_finite: bool = True) -> Array:
    """Solves ``op(a) x = b`` for triangular ``a``; ``trans`` is 0/'N', 1/'T' or 2/'C'."""
    del overwrite_b, debug, check_finite
    return _solve_triangular(a, b, trans, lower, unit_diagonal)


@jitted(static=("trans", "lower", "unit_diagonal"), inline=False)
def _solve_triangular(a: ArrayLike, b: ArrayLike, trans: int | str, lower: bool, unit_diagonal: bool) -> Array:
    if trans not in (0, 1, 2, "N", "T", "C"):
        raise ValueError(f"Invalid 'trans' value {trans!r}")
    aa, ba = promote_args_inexact("solve_triangular", a, b)
    vec = ba.ndim == aa.ndim - 1
    bm = ba[..., None] if vec else ba
    out = lax_linalg.triangular_solve(aa, bm, left_side=True, lower=lower, transpose_a=trans in (1, 2, "T", "C"),
                                      conjugate_a=trans in (2, "C"), unit_diagonal=unit_diagonal)
    return out[..., 0] if vec else out


def solve(a: ArrayLike, b: ArrayLike, lower: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
          debug: bool = False, check_finite: bool = True, assume_a: str = "gen") -> Array:
    """Solves ``a x = b`` (``assume_a='pos'`` uses Cholesky)."""
    del overwrite_a, overwrite_b, debug, check_finite
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ValueError(f"Expected assume_a to be one of ['gen', 'sym', 'her', 'pos']; got {assume_a!r}")
    return _solve(a, b, assume_a, lower)


@jitted(static=("assume_a", "lower"), inline=False)
def _solve(a: ArrayLike, b: ArrayLike, assume_a: str, lower: bool) -> Array:
    if assume_a == "pos":
        return unstaged(_cho_solve)(_cholesky(a, lower), b, lower)
    return jnp.linalg.solve(a, b)


def inv(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """Matrix inverse."""
    del overwrite_a, check_finite
    return jnp.linalg.inv(a)


def det(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """Matrix determinant."""
    del overwrite_a, check_finite
    return jnp.linalg.det(a)


@jitted(static=("overwrite_a", "check_finite"), inline=False)
def lu_factor(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array]:
    """Packed LU factorisation ``(lu, piv)`` with LAPACK-style row-swap pivots."""
    del overwrite_a, check_finite
    (aa,) = promote_args_inexact("lu_factor", a)
    lu_, piv, _ = lax_linalg.lu(aa)
    return lu_, piv


@jitted(static=("trans", "overwrite_b", "check_finite"), inline=False)
def lu_solve(lu_and_piv: tuple[Array, ArrayLike], b: ArrayLike, trans: int = 0, overwrite_b: bool = False,
             check_finite: bool = True) -> Array:
    """Solves ``a x = b`` (``trans=1``: ``a.T x = b``; 2: ``a.H x = b``) from ``lu_factor(a)``."""
    del overwrite_b, check_finite
    lu_, piv = lu_and_piv
    la, ba = promote_args_inexact("lu_solve", lu_, b)
    m = la.shape[0]
    perm = lax_linalg.lu_pivots_to_permutation(piv, m)
    vec = ba.ndim == 1
    bm = ba[:, None] if vec else ba
    if trans == 0:
        y = lax_linalg.triangular_solve(la, bm[perm], left_side=True, lower=True, unit_diagonal=True)
        x = lax_linalg.triangular_solve(la, y, left_side=True, lower=False)
    elif trans in (1, 2):
        conj = trans == 2
        y = lax_linalg.triangular_solve(la, bm, left_side=True, lower=False, transpose_a=True, conjugate_a=conj)
        z = lax_linalg.triangular_solve(la, y, left_side=True, lower=True, unit_diagonal=True, transpose_a=True, conjugate_a=conj)
        x = jnp.zeros_like(z).at[perm].set(z)
    else:
        raise ValueError(f"'trans' value must be 0, 1, or 2, got {trans}")
    return x[:, 0] if vec else x


@overload
def lu(a: ArrayLike, permute_l: Literal[False] = False, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array, Array]: ...
@overload
def lu(a: ArrayLike, permute_l: Literal[True], overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array]: ...
@overload
def lu(a: ArrayLike, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array] | tuple[Array, Array, Array]: ...
@jitted(static=("permute_l", "overwrite_a", "check_finite"), inline=False)
def lu(a: ArrayLike, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    """``(p, l, u)`` with ``a = p @ l @ u`` (``(p @ l, u)`` when ``permute_l``)."""
    del overwrite_a, check_finite
    return _lu(a, permute_l)


@jitted(static=("permute_l",), inline=False)
def _lu(a: ArrayLike, permute_l: bool) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    (aa,) = promote_args_inexact("lu", a)
    lu_, _, perm = lax_linalg.lu(aa)
    m, n = aa.shape[-2:]
    k = min(m, n)
    l_ = unstaged(jnp_tril)(lu_[..., :, :k], -1) + jnp.eye(m, k, dtype=lu_.dtype)
    u = unstaged(jnp_triu)(lu_[..., :k, :])
    p = jnp.swapaxes(jnp.eye(m, dtype=lu_.dtype)[perm], -1, -2)
    if permute_l:
        return jnp.matmul(p, l_), u
    return p, l_, u


def qr(a: ArrayLike, overwrite_a: bool = False, lwork: Any = None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True) -> tuple[Array] | tuple[Array, Array]:
    """QR decomposition; ``mode`` is 'full', 'economic' or 'r' (no pivoting)."""
    del overwrite_a, lwork, check_finite
    return _qr(a, mode, pivoting)


@jitted(static=("mode", "pivoting"), inline=False)
def _qr(a: ArrayLike, mode: str, pivoting: bool) -> tuple[Array] | tuple[Array, Array]:
    if pivoting:
        raise NotImplementedError("qr with pivoting=True is not implemented in jax_core")
    if mode not in ("full", "economic", "r"):
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    (aa,) = promote_args_inexact("qr", a)
    q, r = lax_linalg.qr(aa, full_matrices=mode != "economic")
    if mode == "r":
        return (r,)
    return q, r


def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd") -> Any:
    """Singular value decomposition ``(u, s, vh)`` (``s`` alone when ``compute_uv=False``)."""
    del overwrite_a, check_finite, lapack_driver
    return _svd(a, full_matrices, compute_uv)


@jitted(static=("full_matrices", "compute_uv"), inline=False)
def _svd(a: ArrayLike, full_matrices: bool, compute_uv: bool) -> Any:
    return unstaged(jnp_linalg.svd)(a, full_matrices=full_matrices, compute_uv=compute_uv)


def eigh(a: ArrayLike, b: ArrayLike | None = None, lower: bool = True, eigvals_only: bool = False, overwrite_a: bool = False,
         overwrite_b: bool = False, turbo: bool = True, eigvals: None = None, type: int = 1,
         check_finite: bool = True) -> Array | tuple[Array, Array]:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix (standard problem only)."""
    del overwrite_a, overwrite_b, turbo, check_finite
    return _eigh(a, b, lower, eigvals_only, eigvals, type)


@jitted(static=("lower", "eigvals_only", "eigvals", "type"), inline=False)
def _eigh(a: ArrayLike, b: ArrayLike | None, lower: bool, eigvals_only: bool, eigvals: None, type: int) -> Array | tuple[Array, Array]:
    if b is not None or eigvals is not None or type != 1:
        raise NotImplementedError("Only the b=None, eigvals=None, type=1 case of eigh is implemented.")
    (aa,) = promote_args_inexact("eigh", a)
    v, w = lax_linalg.eigh(aa, lower=lower)
    if eigvals_only:
        return w
    return w, v


@jitted(inline=False)
def block_diag(*arrs: ArrayLike) -> Array:
    """Block-diagonal matrix from the given (at most 2-D) arrays."""
    if not arrs:
        return jnp.zeros((1, 0))
    check_arraylike("block_diag", *arrs)
    promoted = promote_dtypes(*arrs)
    mats = [unstaged(jnp.atleast_2d)(jnp.asarray(x)) for x in promoted]
    if any(m.ndim != 2 for m in mats):
        raise ValueError("Arguments to jax_core.scipy.linalg.block_diag must have at most 2 dimensions")
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    out = jnp.zeros((rows, cols), dtype=mats[0].dtype)
    r = c = 0
    for m in mats:
        out = lax.dynamic_update_slice(out, m, (r, c))
        r += m.shape[0]
        c += m.shape[1]
    return out


_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0, 129060195264000.0,
           10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


@jitted(static=("upper_triangular", "max_squarings"), inline=False)
def expm(A: ArrayLike, *, upper_triangular: bool = False, max_squarings: int = 16) -> Array:
    """Matrix exponential by the degree-13 Padé approximant with scaling and squaring."""
    del upper_triangular
    (a,) = promote_args_inexact("expm", A)
    _square("expm", a)
    n = a.shape[-1]
    norm1 = jnp.max(jnp.sum(jnp.abs(a), axis=-2), axis=-1)
    s = jnp.clip(jnp.ceil(jnp.log2(jnp.maximum(norm1, 1e-30) / _THETA13)), 0, max_squarings)
    scaled = a / jnp.power(2.0, s).astype(a.dtype)[..., None, None]
    b = _PADE13
    ident = jnp.eye(n, dtype=a.dtype)
    a2 = scaled @ scaled
    a4 = a2 @ a2
    a6 = a4 @ a2
    u = scaled @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * ident)
    v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * ident
    r = jnp.linalg.solve(v - u, v + u)
    for i in range(max_squarings):
        r = jnp.where((i < s)[..., None, None], r @ r, r)
    return jnp.where(jnp.isfinite(norm1)[..., None, None], r, np.nan)
