"""Products with ``Q``, matrix equations and tridiagonal spectra, as ``jax.scipy.linalg``:
``qr_multiply`` (``Q c`` or ``c Q`` without forming ``Q``), ``expm_frechet`` (the Fréchet
derivative of ``expm``, as its jvp), ``solve_sylvester`` (``A X + X B = C`` by Bartels-Stewart
on complex Schur forms, or by eigendecomposition) and ``eigh_tridiagonal``.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal, overload

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.lax.linalg.decompositions import eigh as lax_eigh
from jax_core._src.lax.linalg.decompositions import geqrf
from jax_core._src.lax.linalg.householder import geqp3, ormqr
from jax_core._src.numpy.util import jitted, promote_dtypes_inexact
from jax_core._src.scipy.linalg import expm
from jax_core._src.scipy.linalg_functions import schur
from jax_core._src.transforms.ad_api import jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["eigh_tridiagonal", "expm_frechet", "qr_multiply", "solve_sylvester"]


@overload
def qr_multiply(a: ArrayLike, c: ArrayLike, mode: str = "right", pivoting: Literal[False] = False, conjugate: bool = False,
                overwrite_a: bool = False, overwrite_c: bool = False) -> tuple[Array, Array]: ...  # fmt: skip
@overload
def qr_multiply(a: ArrayLike, c: ArrayLike, mode: str = "right", *, pivoting: Literal[True], conjugate: bool = False,
                overwrite_a: bool = False, overwrite_c: bool = False) -> tuple[Array, Array, Array]: ...  # fmt: skip
@overload
def qr_multiply(a: ArrayLike, c: ArrayLike, mode: str = "right", pivoting: bool = False, conjugate: bool = False,
                overwrite_a: bool = False, overwrite_c: bool = False) -> tuple[Array, Array] | tuple[Array, Array, Array]: ...  # fmt: skip
def qr_multiply(
    a: ArrayLike, c: ArrayLike, mode: str = "right", pivoting: bool = False, conjugate: bool = False,
    overwrite_a: bool = False, overwrite_c: bool = False,
) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    """``(Q @ c, r)`` (``mode='left'``) or ``(c @ Q, r)`` ('right') for the QR factorization of
    ``a``, without forming ``Q``; ``conjugate`` uses ``Q^H``; ``pivoting`` adds the permutation."""
    del overwrite_a, overwrite_c
    aa, ca = (jnp.asarray(x) for x in promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(c)))
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    onedim = ca.ndim == 1
    if onedim:
        ca = ca[:, None] if mode == "left" else ca[None, :]
    m, n = aa.shape[-2:]
    k = min(m, n)
    if mode == "left" and ca.shape[-2] != k:
        raise ValueError(
            f"Array shapes are not compatible for Q @ c operation: a has shape {tuple(aa.shape)} so Q has {k} columns, "
            f"but c has {ca.shape[-2]} rows (expected {k})."
        )
    if mode == "right" and ca.shape[-1] != m:
        raise ValueError(
            f"Array shapes are not compatible for c @ Q operation: a has shape {tuple(aa.shape)} so Q has {m} rows, "
            f"but c has {ca.shape[-1]} columns (expected {m})."
        )
    batch = jnp.broadcast_shapes(aa.shape[:-2], ca.shape[:-2])
    aa = jnp.broadcast_to(aa, batch + aa.shape[-2:])
    ca = jnp.broadcast_to(ca, batch + ca.shape[-2:])
    p: Array | None = None
    if pivoting:
        r, p, taus = geqp3(aa, jnp.zeros(aa.shape[:-2] + (n,), dtype=jnp.int32))
        p = p - 1
    else:
        r, taus = geqrf(aa)
    if m > n and mode == "left":
        ca = jnp.concatenate([ca, jnp.zeros(ca.shape[:-2] + (m - k,) + ca.shape[-1:], dtype=ca.dtype)], axis=-2)
    if conjugate:
        ca = ca.swapaxes(-1, -2)
    cq = ormqr(r, taus, ca, left=(mode == "left") != conjugate, transpose=conjugate)
    if conjugate:
        cq = cq.swapaxes(-1, -2)
    if mode == "right":
        cq = cq[..., :k]
    if onedim:
        cq = cq.ravel()
    r = jnp.triu(r[..., :k, :])
    if p is not None:
        return cq, r, p
    return cq, r


@overload
def expm_frechet(A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: Literal[True] = True) -> tuple[Array, Array]: ...
@overload
def expm_frechet(A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: Literal[False]) -> Array: ...
@overload
def expm_frechet(A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: bool = True) -> Array | tuple[Array, Array]: ...
@jitted(static=("method", "compute_expm"), inline=False)
def expm_frechet(A: ArrayLike, E: ArrayLike, *, method: str | None = None, compute_expm: bool = True) -> Array | tuple[Array, Array]:
    """The Fréchet derivative of ``expm`` at ``A`` in the direction ``E`` (with ``expm(A)`` first
    when ``compute_expm``); ``method`` is ignored."""
    del method
    a, e = jnp.asarray(A), jnp.asarray(E)
    if a.ndim < 2 or a.shape[-2] != a.shape[1]:
        raise ValueError(f"expected A to be a (batched) square matrix, got A.shape={a.shape}")
    if e.ndim < 2 or e.shape[-2] != e.shape[-1]:
        raise ValueError(f"expected E to be a (batched) square matrix, got E.shape={e.shape}")
    if a.shape != e.shape:
        raise ValueError(f"expected A and E to be the same shape, got A.shape={a.shape} E.shape={e.shape}")
    fun: Any = partial(expm, upper_triangular=False, max_squarings=16)
    expm_a, frechet = jvp(fun, (a,), (e,))
    return (expm_a, frechet) if compute_expm else frechet


def _sylvester_triangular(R: Array, S: Array, F: Array) -> Array:
    """``Y`` with ``R Y + Y S^T = F`` for upper-triangular ``R``, ``S``, from the bottom-right."""
    m, n = F.shape
    order = jnp.arange(m * n - 1, -1, -1)

    def step(flat: Array, idx: Array) -> tuple[Array, None]:
        i, j = idx // n, idx % n
        y = flat.reshape((m, n))
        row = jnp.sum(jnp.where(jnp.arange(m) > i, R[i, :] * y[:, j], 0.0))
        col = jnp.sum(jnp.where(jnp.arange(n) > j, y[i, :] * S[:, j], 0.0))
        val = (F[i, j] - (row + col)) / (R[i, i] + S[j, j])
        return flat.at[i * n + j].set(val), None

    out, _ = lax.scan(step, jnp.zeros((m * n,), dtype=F.dtype), order)
    return out.reshape((m, n))


@jitted(static=("method",), inline=False)
def _solve_sylvester_2d(A: Array, B: Array, C: Array, *, method: str, tol: float) -> Array:
    m, n = C.shape[-2:]
    if method == "schur":
        r, u = schur(A, output="complex")
        s, v = schur(B.conj().T, output="complex")
        f = u.conj().T @ C.astype(r.dtype) @ v
        x = u @ _sylvester_triangular(r, s.conj().T, f) @ v.conj().T
    elif method == "eigen":
        ra, ua = jnp.linalg.eig(A)
        rb, ub = jnp.linalg.eig(B)
        f = jnp.linalg.solve(ua, C.astype(ra.dtype) @ ub)
        y = f / (ra[:, None] + rb[None, :])
        x = ua[:m, :m] @ y[:m, :n] @ jnp.linalg.inv(ub)[:n, :n]
    else:
        raise ValueError(f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".')
    if not dtypes.issubdtype(C.dtype, np.complexfloating):
        x = x.real
    bad = jnp.any(jnp.abs(jnp.linalg.eigvals(A)[:, None] + jnp.linalg.eigvals(B)[None, :]) < tol)
    return jnp.where(bad, jnp.zeros_like(x) * np.nan, x)


@jitted(static=("method",), inline=False)
def solve_sylvester(A: ArrayLike, B: ArrayLike, C: ArrayLike, *, method: str = "schur", tol: float = 1e-8) -> Array:
    """``X`` with ``A X + X B = C`` (batch dimensions broadcast), by Bartels-Stewart
    (``method='schur'``) or eigendecomposition ('eigen'); NaN where an eigenvalue sum of ``A``
    and ``B`` is within ``tol`` of zero."""
    a, b, c = (jnp.asarray(x) for x in promote_dtypes_inexact(jnp.asarray(A), jnp.asarray(B), jnp.asarray(C)))
    m, n = c.shape[-2:]
    if a.shape[-2:] != (m, m) or b.shape[-2:] != (n, n):
        raise ValueError(f"Incompatible shapes for Sylvester equation:\nA: {a.shape}\nB: {b.shape}\nC: {c.shape}")
    fn: Any = partial(_solve_sylvester_2d, method=method, tol=tol)
    out: Array = jnp.vectorize(fn, signature="(m,m),(n,n),(m,n)->(m,n)")(a, b, c)
    return out


@jitted(static=("eigvals_only", "select", "select_range"), inline=False)
def eigh_tridiagonal(
    d: ArrayLike, e: ArrayLike, *, eigvals_only: bool = False, select: str = "a", select_range: tuple[float, float] | None = None,
    tol: float | None = None, key: Array | None = None,
) -> Array | tuple[Array, Array]:
    """Eigenvalues (ascending) and, unless ``eigvals_only``, eigenvectors of the Hermitian
    tridiagonal matrix with diagonal ``d`` and off-diagonal ``e``. ``select='a'`` gives all of
    them, ``'i'`` those with indices in ``select_range``. jax_core computes them with LAPACK's
    dense ``syevd``/``heevd``, so ``tol`` and ``key`` (JAX's bisection and inverse-iteration
    settings) have no effect."""
    del tol, key
    alpha, beta = jnp.asarray(d), jnp.asarray(e)
    supported = tuple(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))
    if alpha.dtype != beta.dtype:
        raise TypeError(f"diagonal and off-diagonal values must have same dtype, got {alpha.dtype} and {beta.dtype}")
    if alpha.dtype not in supported or beta.dtype not in supported:
        raise TypeError(
            "Only float32 and float64 inputs are supported as inputs to jax.scipy.linalg.eigh_tridiagonal, "
            f"got {alpha.dtype} and {beta.dtype}"
        )
    n = alpha.shape[0]
    if n <= 1:
        return jnp.real(alpha) if eigvals_only else (jnp.real(alpha), jnp.eye(n, dtype=alpha.dtype))
    if select == "a":
        lo, hi = 0, n
    elif select == "i":
        if select_range is None:
            raise ValueError("select_range must be given for select='i'")
        lo, hi = int(select_range[0]), int(select_range[1]) + 1
    elif select == "v":
        raise NotImplementedError(
            "eigh_tridiagonal with select='v' is not implemented in jax_core (its result size depends on the values); "
            "use select='a' and mask the eigenvalues in the range."
        )
    else:
        raise ValueError("'select must be either 'a', 'i' or 'v'.")
    if not 0 <= lo < hi <= n:
        raise ValueError(f"select_range {select_range} is out of bounds for a matrix of size {n}")
    matrix = jnp.diag(jnp.real(alpha).astype(alpha.dtype)) + jnp.diag(beta, -1) + jnp.diag(jnp.conj(beta), 1)
    v, w = lax_eigh(matrix, lower=True)
    w, v = w[lo:hi], v[:, lo:hi]
    return w if eigvals_only else (w, v)
