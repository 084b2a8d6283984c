"""Schur-based matrix functions and factorizations, as ``jax.scipy.linalg``: ``schur``,
``hessenberg``, ``rsf2csf``, ``sqrtm``, ``funm`` and ``polar``.

``sqrtm`` takes the complex Schur form and solves for the upper-triangular square root column by
column (Björck and Hammarling); ``funm`` applies Parlett's recurrence (Golub and Van Loan,
Algorithm 11.1.1) to the complex Schur form; ``rsf2csf`` turns a real Schur form into the complex
one with Givens rotations on each 2x2 block; ``polar`` is QDWH (or the SVD). LAPACK's Schur and
Hessenberg kernels exist on CPU only, as in JAX.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Literal, overload

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.lax.linalg.householder import householder_product
from jax_core._src.lax.linalg.interface import svd as lax_svd
from jax_core._src.lax.linalg.qdwh import qdwh
from jax_core._src.lax.linalg.schur import hessenberg as lax_hessenberg
from jax_core._src.lax.linalg.schur import schur as lax_schur
from jax_core._src.numpy import linalg as jnp_linalg
from jax_core._src.numpy.util import check_arraylike, jitted, promote_dtypes
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["funm", "hessenberg", "polar", "rsf2csf", "schur", "sqrtm"]


def _ensure(name: str, a: ArrayLike) -> Array:
    check_arraylike(name, a)
    return jnp.asarray(a)


# -- schur / hessenberg ---------------------------------------------------------------------------


@jitted(static=("output",), inline=False)
def _schur(a: Array, output: str) -> tuple[Array, Array]:
    if output == "complex":
        a = a.astype(dtypes.to_complex_dtype(a.dtype))
    t, z = lax_schur(a)
    return t, z


def schur(a: ArrayLike, output: str = "real") -> tuple[Array, Array]:
    """The Schur decomposition ``a = Z T Z^H``: ``(T, Z)``, ``T`` quasi-upper-triangular
    (``output='real'``, 2x2 blocks for complex eigenvalue pairs) or upper-triangular ('complex')."""
    if output not in ("real", "complex"):
        raise ValueError(f"Expected 'output' to be either 'real' or 'complex', got output={output!r}.")
    return _schur(_ensure("scipy.schur", a), output)


@overload
def hessenberg(a: ArrayLike, *, calc_q: Literal[False], overwrite_a: bool = False, check_finite: bool = True) -> Array: ...
@overload
def hessenberg(a: ArrayLike, *, calc_q: Literal[True], overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array]: ...
@overload
def hessenberg(a: ArrayLike, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Array | tuple[Array, Array]: ...
@jitted(static=("calc_q", "check_finite", "overwrite_a"), inline=False)
def hessenberg(a: ArrayLike, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Array | tuple[Array, Array]:
    """The upper Hessenberg form ``H`` of square ``a`` (and, with ``calc_q``, the unitary ``Q``
    with ``a = Q H Q^H``)."""
    del overwrite_a, check_finite
    arr = jnp.asarray(a)
    n = arr.shape[-1]
    if n == 0:
        return (jnp.zeros_like(arr), jnp.zeros_like(arr)) if calc_q else jnp.zeros_like(arr)
    packed, taus = lax_hessenberg(arr)
    h = jnp.triu(packed, -1)
    if not calc_q:
        return h
    q = householder_product(packed[..., 1:, :-1], taus)
    batch = packed.shape[:-2]
    dt = packed.dtype
    q = jnp.block([[jnp.ones((*batch, 1, 1), dtype=dt), jnp.zeros((*batch, 1, n - 1), dtype=dt)],
                   [jnp.zeros((*batch, n - 1, 1), dtype=dt), q]])  # fmt: skip
    return h, q


# -- rsf2csf --------------------------------------------------------------------------------------


def _rsf2csf_2d(t: Array, z: Array) -> tuple[Array, Array]:
    tc, zc = (jnp.asarray(x) for x in promote_dtypes(t, z))
    if not dtypes.issubdtype(tc.dtype, np.complexfloating):
        tc, zc = tc.astype(dtypes.to_complex_dtype(tc.dtype)), zc.astype(dtypes.to_complex_dtype(zc.dtype))
    eps = dtypes.finfo(tc.dtype).eps
    n = tc.shape[0]
    if n == 1:
        return tc, zc

    def rotate(m: Array, t: Array, z: Array) -> tuple[Array, Array]:
        mu = jnp_linalg.eigvals(lax.dynamic_slice(t, (m - 1, m - 1), (2, 2))) - t[m, m]
        r = jnp_linalg.norm(jnp.stack([mu[0], t[m, m - 1]])).astype(t.dtype)
        c = mu[0] / r
        s = t[m, m - 1] / r
        g = jnp.stack([jnp.stack([c.conj(), s]), jnp.stack([-s, c])]).astype(t.dtype)
        rows = lax.dynamic_slice_in_dim(t, m - 1, 2, axis=0)
        col_mask = jnp.arange(n) >= m - 1
        rows = jnp.where(~col_mask, rows, g @ jnp.where(col_mask, rows, 0))
        t = lax.dynamic_update_slice_in_dim(t, rows, m - 1, axis=0)
        cols = lax.dynamic_slice_in_dim(t, m - 1, 2, axis=1)
        row_mask = jnp.arange(n)[:, None] < m + 1
        cols = jnp.where(~row_mask, cols, jnp.where(row_mask, cols, 0) @ g.conj().T)
        t = lax.dynamic_update_slice_in_dim(t, cols, m - 1, axis=1)
        zcols = lax.dynamic_slice_in_dim(z, m - 1, 2, axis=1)
        z = lax.dynamic_update_slice_in_dim(z, zcols @ g.conj().T, m - 1, axis=1)
        return t, z

    def keep(m: Array, t: Array, z: Array) -> tuple[Array, Array]:
        return t, z

    def step(i: Array, tz: tuple[Array, Array]) -> tuple[Array, Array]:
        m = n - i
        t, z = tz
        big = jnp.abs(t[m, m - 1]) > eps * (jnp.abs(t[m - 1, m - 1]) + jnp.abs(t[m, m]))
        t, z = lax.cond(big, rotate, keep, m, t, z)
        return t.at[m, m - 1].set(0.0), z

    out: tuple[Array, Array] = lax.fori_loop(1, n, step, (tc, zc))
    return out


_rsf2csf_2d_jit = jitted(inline=False)(_rsf2csf_2d)


@jitted(static=("check_finite",), inline=False)
def rsf2csf(T: ArrayLike, Z: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:
    """Converts a real Schur form ``(T, Z)`` to the complex Schur form (``T`` upper-triangular)."""
    del check_finite
    t, z = jnp.asarray(T), jnp.asarray(Z)
    if t.ndim < 2 or t.shape[-1] != t.shape[-2]:
        raise ValueError("Input 'T' must be square.")
    if z.ndim < 2 or z.shape[-1] != z.shape[-2]:
        raise ValueError("Input 'Z' must be square.")
    if t.shape[-1] != z.shape[-1]:
        raise ValueError(f"Input array shapes must match: Z: {z.shape} vs. T: {t.shape}")
    out: tuple[Array, Array] = jnp.vectorize(_rsf2csf_2d_jit, signature="(n,n),(n,n)->(n,n),(n,n)")(t, z)
    return out


# -- sqrtm ----------------------------------------------------------------------------------------


@jitted(inline=False)
def _sqrtm_triu(T: Array) -> Array:
    diag = jnp.sqrt(jnp.diag(T))
    n = diag.size
    u0 = jnp.diag(diag)

    def i_loop(l: Array, data: tuple[Array, Array]) -> tuple[Array, Array]:
        j, u = data
        i = j - 1 - l
        def k_loop(k: Array, val: Array) -> Array:
            return val + u[i, k] * u[k, j]

        s = lax.fori_loop(i + 1, j, k_loop, jnp.asarray(0.0))
        value = jnp.where(T[i, j] == s, 0.0, (T[i, j] - s) / (diag[i] + diag[j]))
        return j, u.at[i, j].set(value)

    def j_loop(j: Array, u: Array) -> Array:
        _, u = lax.fori_loop(0, j, i_loop, (j, u))
        return u

    out: Array = lax.fori_loop(0, n, j_loop, u0)
    return out


@jitted(inline=False)
def _sqrtm(A: Array) -> Array:
    t, z = schur(A, output="complex")
    root = _sqrtm_triu(t)
    return jnp.matmul(jnp.matmul(z, root, precision=lax.Precision.HIGHEST), jnp.conj(z.T), precision=lax.Precision.HIGHEST)


def sqrtm(A: ArrayLike, blocksize: int = 1) -> Array:
    """The principal square root of square ``A`` (complex), through its complex Schur form."""
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    return _sqrtm(_ensure("scipy.sqrtm", A))


# -- funm -----------------------------------------------------------------------------------------


@jitted(inline=False)
def _algorithm_11_1_1(F: Array, T: Array) -> tuple[Array, Array]:
    n = T.shape[0]
    minden = jnp.abs(T[0, 0])

    def inner(i: Array, state: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
        p, f, md = state
        j = i + p
        s = T[i - 1, j - 1] * (f[j - 1, j - 1] - f[i - 1, i - 1])
        between = (jnp.arange(n) >= i) & (jnp.arange(n) < j - 1)
        val = jnp.where(between, T[i - 1], 0) @ jnp.where(between, f[:, j - 1], 0) - jnp.where(between, f[i - 1], 0) @ jnp.where(
            between, T[:, j - 1], 0
        )
        s = s + val
        den = T[j - 1, j - 1] - T[i - 1, i - 1]
        s = jnp.where(den != 0, s / den, s)
        return p, f.at[i - 1, j - 1].set(s), jnp.minimum(md, jnp.abs(den))

    def outer(p: Array, state: tuple[Array, Array]) -> tuple[Array, Array]:
        _, f, md = lax.fori_loop(1, n - p + 1, inner, (p, *state))
        return f, md

    out: tuple[Array, Array] = lax.fori_loop(1, n, outer, (F, minden))
    return out


def funm(A: ArrayLike, func: Callable[[Array], Array], disp: bool = True) -> Array | tuple[Array, Array]:
    """The matrix function ``func(A)`` of square ``A`` (complex), from ``func`` on the eigenvalues
    (the diagonal of the complex Schur form) by Parlett's recurrence; with ``disp=False`` also an
    estimate of the relative error."""
    arr = jnp.asarray(A)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError("expected square array_like input")
    t, z = schur(arr)
    t, z = rsf2csf(t, z)
    f = jnp.diag(func(jnp.diag(t))).astype(t.dtype)
    f, minden = _algorithm_11_1_1(f, t)
    f = z @ f @ z.conj().T
    if disp:
        return f
    char = f.dtype.char.lower()
    tol = float(dtypes.finfo(np.float32 if char == "f" else np.float64).eps)
    minden = jnp.where(minden == 0.0, tol, minden)
    err = jnp.where(
        jnp.any(jnp.isinf(f)), np.inf, jnp.minimum(1, jnp.maximum(tol, (tol / minden) * jnp_linalg.norm(jnp.triu(t, 1), 1)))
    )
    return f, err


# -- polar ----------------------------------------------------------------------------------------


def _polar_2d(a: Array, side: str, method: str, eps: float | None) -> tuple[Array, Array]:
    m, n = a.shape
    if method == "qdwh":
        if m >= n and side == "right":
            unitary, posdef, _, _ = qdwh(a, is_hermitian=False, eps=eps)
        elif m < n and side == "left":
            unitary, posdef, _, _ = qdwh(a.T.conj(), is_hermitian=False, eps=eps)
            posdef, unitary = posdef.T.conj(), unitary.T.conj()
        else:
            raise NotImplementedError(
                "method='qdwh' only supports mxn matrices where m < n where side='right' and m >= n side='left', "
                f"got {a.shape} with side={side!r}"
            )
    elif method == "svd":
        u, s, vh = lax_svd(a, full_matrices=False)
        s = s.astype(u.dtype)
        unitary = u @ vh
        posdef = (vh.T.conj() * s[None, :]) @ vh if side == "right" else (u * s[None, :]) @ u.T.conj()
    else:
        raise ValueError(f"Unknown polar decomposition method {method}.")
    return unitary, posdef


@jitted(static=("side", "method", "eps", "max_iterations"), inline=False)
def polar(
    a: ArrayLike, side: str = "right", *, method: str = "qdwh", eps: float | None = None, max_iterations: int | None = None
) -> tuple[Array, Array]:
    """The polar decomposition ``a = U P`` (``side='right'``) or ``a = P U`` ('left'): ``(U, P)``
    with ``U`` unitary and ``P`` Hermitian positive semidefinite, by QDWH (``method='qdwh'``,
    tolerance ``eps``) or the SVD (``'svd'``). ``max_iterations`` is accepted and unused, as in JAX."""
    del max_iterations
    arr = jnp.asarray(a)
    if arr.ndim < 2:
        raise ValueError("The input `a` must be at least a 2-D array.")
    if side not in ["right", "left"]:
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    sig = "(m,n)->(m,n),(n,n)" if side == "right" else "(m,n)->(m,n),(m,m)"
    fn: Any = partial(_polar_2d, side=side, method=method, eps=eps)
    out: tuple[Array, Array] = jnp.vectorize(fn, signature=sig)(arr)
    return out
