"""``jax.lax.linalg``'s entry points for the decompositions of ``decompositions.py``, with JAX's
signatures: keyword-only options, ``symmetrize_input``, the implementation and algorithm enums,
``(u, s, vh)`` from ``svd``, ``(v, w)`` from ``eigh``, a list from ``eig``, column pivoting in
``qr``. Options JAX accepts but cannot honour on CPU raise JAX's ``NotImplementedError``.
"""

from __future__ import annotations

import enum
import warnings
from typing import Literal, overload

import numpy as np

from jax_core._src.lax.linalg import decompositions as dec
from jax_core._src.lax.linalg import matrix_ops as mx
from jax_core._src.lax.linalg.householder import geqp3, householder_product
from jax_core._src.lax.shape.compositions import as_array, full
from jax_core._src.lax.shape.dimensions import expand_dims
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


class EigImplementation(enum.Enum):
    """Enum for eigendecomposition algorithm."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


class EighImplementation(enum.Enum):
    """Implementation for symmetric/Hermitian eigendecomposition."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class SvdAlgorithm(enum.Enum):
    """Enum for SVD algorithm."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


def symmetrize(x: Array) -> Array:
    """``(x + x^H) / 2``."""
    out: Array = (x + mx.conj(mx.swapaxes(x, -1, -2))) / 2
    return out


def _square_or_raise(name: str, x: Array) -> None:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to linalg.{name} must have shape [..., n, n], got shape {x.shape}")


def cholesky(x: ArrayLike, *, symmetrize_input: bool = True) -> Array:
    """The lower Cholesky factor ``L`` of Hermitian positive-definite ``x`` (``x = L L^H``); NaN
    where it fails. ``symmetrize_input`` uses ``(x + x^H) / 2``, else only the lower triangle."""
    xa = as_array(x)
    _square_or_raise("cholesky", xa)
    if symmetrize_input:
        xa = symmetrize(xa)
    return mx.tril(dec.cholesky_p.bind(xa))


def eig(
    x: ArrayLike, *, compute_left_eigenvectors: bool = True, compute_right_eigenvectors: bool = True,
    enable_eigvec_derivs: bool = False, implementation: EigImplementation | None = None, use_magma: bool | None = None,
) -> list[Array]:
    """Eigenvalues ``w`` (complex) and, as requested, left ``vl`` and right ``vr`` eigenvectors of
    general square matrices, as the list ``[w, vl, vr]``. Only LAPACK (CPU) is available."""
    if use_magma is not None:
        warnings.warn(
            "use_magma is deprecated, please use implementation=EigImplementation.MAGMA instead.", DeprecationWarning, stacklevel=2
        )
        implementation = EigImplementation.MAGMA if use_magma else EigImplementation.LAPACK
    if implementation and implementation != EigImplementation.LAPACK:
        raise ValueError("Only the lapack implementation is supported on CPU.")
    if enable_eigvec_derivs:
        raise NotImplementedError(
            "jax_core does not implement eigenvector derivatives (enable_eigvec_derivs=True); "
            "differentiate the eigenvalues only, or pass enable_eigvec_derivs=False."
        )
    return list(dec.eig(x, compute_left_eigenvectors=compute_left_eigenvectors, compute_right_eigenvectors=compute_right_eigenvectors))


def eigh(
    x: ArrayLike, *, lower: bool = True, symmetrize_input: bool = True, sort_eigenvalues: bool = True,
    subset_by_index: tuple[int, int] | None = None, implementation: EighImplementation | None = None,
) -> tuple[Array, Array]:
    """Eigenvectors ``v`` and ascending real eigenvalues ``w`` of Hermitian ``x``: ``(v, w)``.
    On CPU the eigenvalues are always sorted and ``subset_by_index`` must cover all of them."""
    del sort_eigenvalues  # LAPACK always sorts
    xa = as_array(x)
    _square_or_raise("eigh", xa)
    if symmetrize_input:
        xa = symmetrize(xa)
    n = xa.shape[-1]
    if subset_by_index is not None and tuple(subset_by_index) != (0, n):
        raise NotImplementedError("subset_by_index not supported on CPU and GPU")
    if implementation == EighImplementation.QDWH:
        raise NotImplementedError("QDWH implementation is only supported on TPU")
    if implementation == EighImplementation.JACOBI:
        raise NotImplementedError("Jacobi implementation is not supported on CPU")
    return dec.eigh(xa, lower=lower)


def lu(x: ArrayLike) -> tuple[Array, Array, Array]:
    """LU decomposition with partial pivoting ``P A = L U``: ``(lu, pivots, permutation)``."""
    return dec.lu(x)


@overload
def qr(x: ArrayLike, *, pivoting: Literal[False] = False, full_matrices: bool = True, use_magma: bool | None = None) -> tuple[Array, Array]: ...
@overload
def qr(x: ArrayLike, *, pivoting: Literal[True], full_matrices: bool = True, use_magma: bool | None = None) -> tuple[Array, Array, Array]: ...
@overload
def qr(
    x: ArrayLike, *, pivoting: bool = False, full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Array, Array] | tuple[Array, Array, Array]: ...
def qr(
    x: ArrayLike, *, pivoting: bool = False, full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    """QR decomposition ``A = Q R`` (``(q, r)``); with ``pivoting``, ``A[:, p] = Q R`` with the
    diagonal of ``R`` non-increasing (``(q, r, p)``)."""
    if not pivoting:
        return dec.qr(x, full_matrices=full_matrices)
    a = as_array(x)
    *batch, m, n = a.shape
    if m == 0 or n == 0:
        k = m if full_matrices else min(m, n)
        q = mx.broadcast_to(mx.eye(m, a.dtype)[:, :k], (*batch, m, k))
        return q, full((*batch, k, n), 0, a.dtype), full((*batch, n), 0, np.int32)
    r, p, taus = geqp3(a, full((*batch, n), 0, np.int32), use_magma=use_magma)
    p = p - 1
    if m < n:
        q = householder_product(r[..., :m, :m], taus)
    elif full_matrices:
        q = householder_product(mx.pad(r, [(0, 0)] * (len(batch) + 1) + [(0, m - n)]), taus)
    else:
        q = householder_product(r, taus)
        r = r[..., :n, :n]
    return q, mx.triu(r), p


@overload
def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: Literal[True], subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> tuple[Array, Array, Array]: ...
@overload
def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: Literal[False], subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> Array: ...
@overload
def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True, subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> Array | tuple[Array, Array, Array]: ...
def svd(
    x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True, subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> Array | tuple[Array, Array, Array]:
    """Singular value decomposition: ``(u, s, vh)``, or the (descending) singular values ``s``
    alone without ``compute_uv``. On CPU ``algorithm`` may be ``DEFAULT``, ``QR`` or
    ``DIVIDE_AND_CONQUER`` (all computed by LAPACK's divide and conquer ``gesdd``)."""
    a = as_array(x)
    if a.ndim < 2:
        raise TypeError(f"Input 0 to svd must have rank at least 2, but got shape={a.shape}")
    *batch, m, n = a.shape
    rank = min(m, n)
    if subset_by_index is not None:
        if full_matrices and tuple(subset_by_index) != (0, rank):
            raise ValueError("full_matrices and subset_by_index cannot both be set")
        if tuple(subset_by_index) != (0, rank):
            raise NotImplementedError("subset_by_index not implemented for CPU and GPU")
    if algorithm in (SvdAlgorithm.JACOBI, SvdAlgorithm.POLAR):
        raise NotImplementedError("The SVD Jacobi and Polar algorithms are not implemented on CPU.")
    if m == 0 or n == 0:
        from jax_core._src.lax.linalg.operand_checks import real_dtype

        s0 = full((*batch, 0), 0, real_dtype(a.dtype))
        if not compute_uv:
            return s0
        if full_matrices:
            return mx.broadcast_to(mx.eye(m, a.dtype), (*batch, m, m)), s0, mx.broadcast_to(mx.eye(n, a.dtype), (*batch, n, n))
        return full((*batch, m, 0), 0, a.dtype), s0, full((*batch, 0, n), 0, a.dtype)
    if not compute_uv:
        s: Array = dec.svd(a, full_matrices=full_matrices, compute_uv=False)
        return s
    s, u, vt = dec.svd(a, full_matrices=full_matrices, compute_uv=True)
    return u, s, vt


def triangular_solve(
    a: ArrayLike, b: ArrayLike, *, left_side: bool = False, lower: bool = False, transpose_a: bool = False,
    conjugate_a: bool = False, unit_diagonal: bool = False,
) -> Array:
    """Solves ``op(a) @ x = b`` (``left_side``) or ``x @ op(a) = b`` for triangular ``a``;
    ``op`` transposes (``transpose_a``) and/or conjugates (``conjugate_a``). A ``b`` of one rank
    less than ``a`` is a single vector."""
    aa, ba = as_array(a), as_array(b)
    conjugate_a = conjugate_a and aa.dtype.kind == "c"
    singleton = ba.ndim == aa.ndim - 1
    if singleton:
        ba = expand_dims(ba, (ba.ndim if left_side else ba.ndim - 1,))
    out = dec.triangular_solve(
        aa, ba, left_side=left_side, lower=lower, transpose_a=transpose_a, conjugate_a=conjugate_a, unit_diagonal=unit_diagonal
    )
    if singleton:
        out = out[..., 0] if left_side else out[..., 0, :]
    return out
