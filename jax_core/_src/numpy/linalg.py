"""``jax_core.numpy.linalg``: NumPy's linear algebra on the LAPACK-backed lax primitives.

Decompositions (``cholesky``, ``qr``, ``eigh``, ``svd``, ``eig``) and LU-based ``solve``,
``inv``, ``det``, ``slogdet`` are differentiable (the primitives' jvps) and batched over
leading dimensions; eigenvector derivatives of ``eig`` are not implemented, as in JAX.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax.linalg import decompositions as lax_linalg
from jax_core._src.lax.linalg import dot as lax_dot
from jax_core._src.numpy import indexing_funcs, manipulation, products, reductions
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    jitted,
    promote_dtypes_inexact,
)
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


class EighResult(NamedTuple):
    """``eigh``'s result: ascending eigenvalues and the eigenvectors (columns)."""

    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    """``eig``'s result: complex eigenvalues and right eigenvectors (columns)."""

    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """``qr``'s result."""

    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    """``slogdet``'s result: the sign (or phase) and the log of the absolute determinant."""

    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    """``svd``'s result: ``a = U @ diag(S) @ Vh``."""

    U: Array
    S: Array
    Vh: Array


def _inexact(name: str, a: ArrayLike, *, upcast: bool = False) -> Array:
    """``a`` promoted to an inexact dtype. Half precision stays as it is (as in JAX, whose linalg
    primitives then refuse it with a TypeError); ``upcast`` computes it in float32 instead."""
    check_arraylike(name, a)
    x = ensure_array(promote_dtypes_inexact(a)[0])
    if upcast and x.dtype not in (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128)):
        x = x.astype(np.float32)
    return x


_SQUARE_NAMES = {"cholesky": "linalg.cholesky"}


def _square(name: str, x: Array) -> None:
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"Argument to {_SQUARE_NAMES.get(name, name)} must have shape [..., n, n], got {x.shape}.")


def _H(x: Array) -> Array:
    from jax_core._src.numpy.ufuncs import conj

    return conj(jshape.swapaxes(x, -1, -2))


def _symmetrize(x: Array) -> Array:
    return (x + _H(x)) / 2


@jitted(static=('upper', 'symmetrize_input'), inline=False)
def cholesky(a: ArrayLike, *, upper: bool = False, symmetrize_input: bool = True) -> Array:
    """The Cholesky factor of Hermitian positive-definite ``a`` (lower, or upper with ``upper=True``); NaN if not PD."""
    x = _inexact("cholesky", a)
    _square("cholesky", x)
    L = lax_linalg.cholesky(_symmetrize(x) if symmetrize_input else x)
    return _H(L) if upper else L


@jitted(static=('mode',), inline=False)
def qr(a: ArrayLike, mode: str = "reduced") -> Any:
    """QR decomposition; ``mode`` ``"reduced"``, ``"complete"`` or ``"r"`` (``"raw"`` is not supported)."""
    x = _inexact("qr", a)
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    q, r = lax_linalg.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


@jitted(static=('UPLO', 'symmetrize_input'), inline=False)
def eigh(a: ArrayLike, UPLO: str | None = None, symmetrize_input: bool = True) -> EighResult:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix."""
    x = _inexact("eigh", a)
    _square("eigh", x)
    if UPLO not in (None, "L", "U"):
        raise ValueError(f"UPLO must be one of None, 'L', or 'U', got {UPLO}")
    v, w = lax_linalg.eigh(_symmetrize(x) if symmetrize_input else x, lower=UPLO != "U")
    return EighResult(w, v)


@jitted(static=('UPLO', 'symmetrize_input'), inline=False)
def eigvalsh(a: ArrayLike, UPLO: str | None = "L", *, symmetrize_input: bool = True) -> Array:
    """Eigenvalues (ascending) of a Hermitian matrix."""
    return eigh(a, UPLO, symmetrize_input).eigenvalues


@jitted(static=())
def eig(a: ArrayLike) -> EigResult:
    """Eigenvalues and right eigenvectors of a general square matrix (complex)."""
    x = _inexact("eig", a)
    _square("eig", x)
    w, v = lax_linalg.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=True)
    return EigResult(w, v)


@jitted(static=(), inline=False)
def eigvals(a: ArrayLike) -> Array:
    """Eigenvalues of a general square matrix (complex)."""
    x = _inexact("eigvals", a)
    _square("eigvals", x)
    (w,) = lax_linalg.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False)
    out: Array = w
    return out


@jitted(static=('full_matrices', 'compute_uv', 'hermitian', 'subset_by_index'), inline=False)
def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False, subset_by_index: tuple[int, int] | None = None) -> Any:
    """Singular value decomposition (``SVDResult(U, S, Vh)``, or the singular values)."""
    x = _inexact("svd", a)
    if subset_by_index is not None and subset_by_index != (0, builtins.min(x.shape[-2:])):
        raise NotImplementedError("svd with subset_by_index is not implemented on CPU")
    if hermitian:
        w, v = lax_linalg.eigh(x)
        s = jshape.reshape(abs(w), w.shape)
        order = indexing_funcs.take_along_axis(s, _argsort_desc(s), axis=-1)
        if not compute_uv:
            return order
        idx = _argsort_desc(s)
        sign = (w >= 0).astype(w.dtype) * 2 - 1
        vs = indexing_funcs.take_along_axis(v, jshape.broadcast_to(idx[..., None, :], v.shape), axis=-1)
        signs = indexing_funcs.take_along_axis(sign, idx, axis=-1)
        return SVDResult(vs, order, _H(vs * signs[..., None, :].astype(vs.dtype)))
    if not compute_uv:
        out: Array = lax_linalg.svd(x, full_matrices=full_matrices, compute_uv=False)
        return out
    s, u, vt = lax_linalg.svd(x, full_matrices=full_matrices, compute_uv=True)
    return SVDResult(u, s, vt)


def _argsort_desc(s: Array) -> Array:
    from jax_core._src.numpy.sorting import argsort

    return argsort(s, axis=-1, descending=True)


def svdvals(x: ArrayLike, /) -> Array:
    """The singular values, descending."""
    out: Array = svd(x, compute_uv=False)
    return out


def _lu_solve(lu: Array, perm: Array, b: Array) -> Array:
    """Solves ``a @ x = b`` for ``b`` of shape ``(..., n, k)`` from ``a``'s LU factors."""
    x = indexing_funcs.take_along_axis(b, jshape.broadcast_to(perm[..., :, None], (*perm.shape, b.shape[-1])), axis=-2)
    x = lax_linalg.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
    return lax_linalg.triangular_solve(lu, x, left_side=True, lower=False)


@jitted(static=(), inline=False)
def solve(a: ArrayLike, b: ArrayLike) -> Array:
    """The solution of ``a @ x = b`` (``b`` a vector if 1-D, else a stack of matrices)."""
    check_arraylike("solve", a, b)
    x, y = (ensure_array(v) for v in promote_dtypes_inexact(a, b))
    _square("solve", x)
    if y.ndim == 1:
        if y.shape[0] != x.shape[-1]:
            raise ValueError(f"solve: b has shape {y.shape}, incompatible with a of shape {x.shape}")
        y2 = jshape.broadcast_to(y[:, None], (*x.shape[:-2], y.shape[0], 1))
        return _solve_mat(x, y2)[..., 0]
    if y.shape[-2] != x.shape[-1]:
        raise ValueError(f"solve: incompatible shapes {x.shape} and {y.shape}")
    batch = jshape.broadcast_shapes(x.shape[:-2], y.shape[:-2])
    x = jshape.broadcast_to(x, (*batch, *x.shape[-2:]))
    y = jshape.broadcast_to(y, (*batch, *y.shape[-2:]))
    return _solve_mat(x, y)


def _solve_mat(a: Array, b: Array) -> Array:
    lu, _, perm = lax_linalg.lu(a)
    return _lu_solve(lu, perm, b)


@jitted(static=(), inline=False)
def inv(a: ArrayLike) -> Array:
    """The inverse of a square matrix (NaN/inf where singular)."""
    x = _inexact("inv", a)
    _square("inv", x)
    from jax_core._src.numpy.creation import eye

    return solve(x, jshape.broadcast_to(eye(x.shape[-1], dtype=x.dtype), x.shape))


def _lu_parity(piv: Array, dtype: np.dtype[Any]) -> Array:
    k = piv.shape[-1]
    from jax_core._src.lax.shape import assembly as shape_assembly

    swaps = reductions.count_nonzero(piv != shape_assembly.broadcasted_iota(piv.dtype, piv.shape, piv.ndim - 1), axis=-1)
    return (1 - 2 * (swaps % 2)).astype(dtype) if k else jshape.broadcast_to(np.ones((), dtype), piv.shape[:-1])


@jitted(static=('method',), inline=False)
def slogdet(a: ArrayLike, *, method: str | None = None) -> SlogdetResult:
    """Sign (phase) and natural log of the absolute determinant, via LU."""
    x = _inexact("slogdet", a, upcast=True)
    _square("slogdet", x)
    if method not in (None, "lu", "qr"):
        raise ValueError(f"Unknown slogdet method '{method}'. Supported methods are 'lu' (`None`), and 'qr'.")
    if method == "qr":
        if dtypes.issubdtype(x.dtype, np.complexfloating):
            raise NotImplementedError("slogdet method='qr' not implemented for complex inputs")
        sign_qr, logdet_qr = _slogdet_qr()(x)
        return SlogdetResult(sign_qr, logdet_qr)
    from jax_core._src.numpy import math as jmath
    from jax_core._src.numpy import ufuncs

    n = x.shape[-1]
    if n == 0:
        return SlogdetResult(jshape.broadcast_to(np.ones((), x.dtype), x.shape[:-2]), jshape.broadcast_to(np.zeros((), _real_dtype(x.dtype)), x.shape[:-2]))
    lu, piv, _ = lax_linalg.lu(x)
    diag = indexing_funcs.diagonal(lu, axis1=-2, axis2=-1)
    is_zero = reductions.any(diag == 0, axis=-1)
    parity = _lu_parity(piv, x.dtype)
    absd = ufuncs.abs(diag)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        sign = parity * reductions.prod(diag / absd.astype(x.dtype), axis=-1)
    else:
        sign = parity * reductions.prod(ufuncs.sign(diag), axis=-1)
    logdet = reductions.sum(ufuncs.log(absd), axis=-1)
    sign = jmath.nan_to_num(indexing_funcs.where(is_zero, np.zeros((), sign.dtype), sign))
    logdet = indexing_funcs.where(is_zero, np.array(-np.inf, logdet.dtype), logdet)
    return SlogdetResult(sign, logdet)


@functools.cache
def _slogdet_qr() -> Any:
    """slogdet of a real matrix from its Householder QR: the diagonal of ``r`` gives the magnitude
    and a sign, each reflector actually applied (``tau != 0``) flips the sign; the derivative is
    ``trace(solve(a, da))`` (LAPACK's QR has none)."""
    from jax_core._src.numpy import ufuncs
    from jax_core._src.transforms.custom_derivatives import custom_jvp

    def value(x: Array) -> tuple[Array, Array]:
        n = x.shape[-1]
        a, taus = lax_linalg.geqrf(x)
        diag = indexing_funcs.diagonal(a, axis1=-2, axis2=-1)
        logdet = reductions.sum(ufuncs.log(ufuncs.abs(diag)), axis=-1)
        flips = reductions.sum((taus[..., : n - 1] != 0).astype(np.int32), axis=-1)
        sign = reductions.prod(ufuncs.sign(diag), axis=-1) * (1 - 2 * (flips % 2)).astype(x.dtype)
        return sign, logdet

    f = custom_jvp(value)

    def jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Any, Any]:
        (x,), (dx,) = primals, tangents
        sign, logdet = f(x)
        dlogdet = indexing_funcs.trace(solve(x, dx), axis1=-2, axis2=-1)
        return (sign, logdet), (jshape.broadcast_to(np.zeros((), sign.dtype), sign.shape), dlogdet)

    f.defjvp(jvp)
    return f


def _real_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64) if dt == np.complex128 else dt


@jitted(static=(), inline=False)
def det(a: ArrayLike) -> Array:
    """The determinant, as the product of the LU diagonal and the permutation parity."""
    x = _inexact("det", a, upcast=True)
    _square("det", x)
    n = x.shape[-1]
    if n == 0:
        return jshape.broadcast_to(np.ones((), x.dtype), x.shape[:-2])
    if n == 1:
        return x[..., 0, 0]
    if n == 2:
        return x[..., 0, 0] * x[..., 1, 1] - x[..., 0, 1] * x[..., 1, 0]
    lu, piv, _ = lax_linalg.lu(x)
    return _lu_parity(piv, x.dtype) * reductions.prod(indexing_funcs.diagonal(lu, axis1=-2, axis2=-1), axis=-1)


@jitted(static=('n',), inline=False)
def matrix_power(a: ArrayLike, n: int) -> Array:
    """``a`` raised to the integer power ``n`` by repeated squaring (negative ``n`` inverts)."""
    x = _inexact("matrix_power", a) if int(n) < 0 else ensure_array(a)
    _square("matrix_power", x)
    n = int(n)
    from jax_core._src.numpy.creation import eye

    if n == 0:
        return jshape.broadcast_to(eye(x.shape[-1], dtype=x.dtype), x.shape)
    if n < 0:
        x = inv(x)
        n = -n
    result: Array | None = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else products.matmul(result, base)
        n >>= 1
        if n:
            base = products.matmul(base, base)
    assert result is not None
    return result


@jitted(static=('hermitian',), inline=False)
def matrix_rank(M: ArrayLike, rtol: ArrayLike | None = None, *, hermitian: bool = False, tol: ArrayLike | None = None) -> Array:
    """The number of singular values above a threshold: by default ``max(s) * max(m, n) * eps``;
    a given ``rtol`` (or ``tol``) is the threshold itself, as JAX 0.12 compares it."""
    x = _inexact("matrix_rank", M)
    if tol is not None:
        if rtol is not None:
            raise ValueError("matrix_rank: only one of tol or rtol may be specified.")
        rtol = tol
    if x.ndim < 2:
        return reductions.any(x != 0).astype(np.int32)
    s = svdvals(x)
    if rtol is None:
        rtol_v: Any = s.max(axis=-1) * np.asarray(builtins.max(x.shape[-2:]), s.dtype) * np.asarray(dtypes.finfo(s.dtype).eps, s.dtype)
    else:
        rtol_v = ensure_array(rtol)
    rtol_v = jshape.expand_dims(rtol_v, np.ndim(rtol_v))
    return reductions.sum(s > rtol_v, axis=-1)


@jitted(static=('hermitian',))
def pinv(a: ArrayLike, rtol: ArrayLike | None = None, hermitian: bool = False, *, rcond: ArrayLike | None = None) -> Array:
    """The Moore-Penrose pseudo-inverse, from the SVD (singular values below ``rtol * max(s)`` dropped)."""
    x = _inexact("pinv", a)
    if rcond is not None:
        rtol = rcond
    m, n = x.shape[-2:]
    if m == 0 or n == 0:
        return ensure_array(np.zeros((*x.shape[:-2], n, m), x.dtype))
    u, s, vh = svd(x, full_matrices=False, hermitian=hermitian)
    if rtol is None:
        cutoff_rel: Any = 10.0 * builtins.max(m, n) * float(dtypes.finfo(s.dtype).eps)
    else:
        cutoff_rel = ensure_array(rtol)[..., None]
    cutoff = cutoff_rel * s.max(axis=-1, keepdims=True)
    s_inv = indexing_funcs.where(s > cutoff, 1 / indexing_funcs.where(s > cutoff, s, np.ones((), s.dtype)), np.zeros((), s.dtype))
    return products.matmul(_H(vh) * s_inv[..., None, :].astype(x.dtype), _H(u))


def lstsq(a: ArrayLike, b: ArrayLike, rcond: float | None = None, *, numpy_resid: bool = False) -> tuple[Array, Array, Array, Array]:
    """Least-squares solution of ``a @ x = b``: ``(x, residuals, rank, singular values)``.

    As JAX's: singular values below ``rcond * s[0]`` (and zeros) are dropped; the residuals are
    ``norm(b - a @ x, axis=0) ** 2`` (one per column of ``b``, so shape ``(1,)`` for a vector),
    or, with ``numpy_resid``, empty where NumPy gives none (that needs the rank's value, so only
    the default is compiled as one ``jit[name=_lstsq]``, as in JAX).
    """
    if numpy_resid:
        return _lstsq(a, b, rcond, numpy_resid=True)
    out: tuple[Array, Array, Array, Array] = _lstsq_jit(a, b, rcond)
    return out


def _lstsq(a: ArrayLike, b: ArrayLike, rcond: float | Array | None, *, numpy_resid: bool = False) -> tuple[Array, Array, Array, Array]:
    check_arraylike("lstsq", a, b)
    x, y = (ensure_array(v) for v in promote_dtypes_inexact(a, b))
    if x.shape[0] != y.shape[0]:
        raise ValueError("Leading dimensions of input arrays must match")
    vec = y.ndim == 1
    yy = y[:, None] if vec else y
    if x.ndim != 2:
        raise TypeError(f"{x.ndim}-dimensional array given. Array must be two-dimensional")
    if yy.ndim != 2:
        raise TypeError(f"{yy.ndim}-dimensional array given. Array must be one or two-dimensional")
    m, n = x.shape
    hi = lax_dot.Precision.HIGHEST
    if x.size == 0:
        s = ensure_array(np.zeros((0,), x.dtype))
        rank = ensure_array(np.asarray(0, dtypes.default_int_dtype()))
        sol = ensure_array(np.zeros((n, *yy.shape[1:]), x.dtype))
    else:
        eps = float(dtypes.finfo(x.dtype).eps)
        rc: Any = eps * builtins.max(n, m) if rcond is None else indexing_funcs.where(ensure_array(rcond) < 0, eps, rcond)
        u, s, vh = svd(x, full_matrices=False)
        mask = (s > 0) & (s >= _as_dtype(rc, s.dtype) * s[0])
        rank = reductions.sum(mask)
        safe_s = indexing_funcs.where(mask, s, 1).astype(x.dtype)
        s_inv = indexing_funcs.where(mask, 1 / safe_s, 0)[:, None]
        uTb = products.matmul(_H(u), yy, precision=hi)
        sol = products.matmul(_H(vh), s_inv * uTb, precision=hi)
    if numpy_resid and (int(np.asarray(rank)) < n or m <= n):
        resid = ensure_array(np.zeros((0,), x.dtype))
    else:
        resid = norm(yy - products.matmul(x, sol, precision=hi), axis=0) ** 2
    if vec:
        sol = jshape.ravel(sol)
    return sol, resid, rank, s


def _lstsq_default(a: ArrayLike, b: ArrayLike, rcond: float | Array | None) -> tuple[Array, Array, Array, Array]:
    return _lstsq(a, b, rcond)


_lstsq_default.__name__ = _lstsq_default.__qualname__ = "_lstsq"
_lstsq_jit = jitted(inline=False)(_lstsq_default)


def _as_dtype(v: Any, dtype: np.dtype[Any]) -> Array:
    return ensure_array(v).astype(dtype)


@jitted(static=('ord', 'axis', 'keepdims'), inline=False)
def norm(x: ArrayLike, ord: int | str | float | None = None, axis: None | tuple[int, ...] | int = None, keepdims: bool = False) -> Array:
    """Vector or matrix norm (NumPy's ``ord`` values: None/'fro', 'nuc', inf, -inf, 0, 1, -1, 2, -2, p)."""
    from jax_core._src.numpy import ufuncs

    check_arraylike("jnp.linalg.norm", x)
    a = ensure_array(promote_dtypes_inexact(x)[0])
    if axis is None:
        if ord is None:
            return ufuncs.sqrt(reductions.sum(ufuncs.real(a * ufuncs.conj(a)), keepdims=keepdims))
        axis = tuple(range(a.ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    axes = tuple(canonicalize_axis(ax, a.ndim) for ax in axes)
    if len(axes) == 1:
        return vector_norm(a, axis=axes, keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) == 2:
        return _matrix_norm(a, axes, keepdims, ord)
    raise ValueError(
        f"Improper number of axes for norm: axis={axis!r}. Pass one axis to compute a vector-norm, "
        "or two axes to compute a matrix-norm."
    )


def vector_norm(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, ord: int | str | float = 2) -> Array:
    """The ``ord``-norm of vectors along ``axis`` (all elements by default), in ``x``'s dtype
    (integers are not promoted first: the square root or power promotes them, as in JAX)."""
    from jax_core._src.numpy import ufuncs

    check_arraylike("jnp.linalg.vector_norm", x)
    a = ensure_array(x)
    if ord == 2 or ord is None:  # pyright: ignore[reportUnnecessaryComparison]  # JAX takes None
        return ufuncs.sqrt(reductions.sum(ufuncs.real(a * ufuncs.conj(a)), axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return reductions.max(ufuncs.abs(a), axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return reductions.min(ufuncs.abs(a), axis=axis, keepdims=keepdims)
    if ord == 0:
        return reductions.sum(a != 0, dtype=dtypes.finfo(a.dtype).dtype, axis=axis, keepdims=keepdims)
    if ord == 1:
        return reductions.sum(ufuncs.abs(a), axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        hint = {"inf": "Use 'jax.numpy.inf' instead.", "-inf": "Use '-jax.numpy.inf' instead."}.get(ord, "")
        raise ValueError(f"Invalid order '{ord}' for vector norm.{hint}")
    absx = ufuncs.abs(a)
    p = np.asarray(ord, absx.dtype)
    total = reductions.sum(ufuncs.power(absx, p), axis=axis, keepdims=keepdims)
    return ufuncs.power(total, np.asarray(1.0 / p, absx.dtype))


def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: str | int = "fro") -> Array:
    """The ``ord``-norm of the matrices in the last two axes."""
    return norm(x, ord=ord, keepdims=keepdims, axis=(-2, -1))


def _matrix_norm(a: Array, axes: tuple[int, ...], keepdims: bool, ord: Any) -> Array:
    from jax_core._src.numpy import ufuncs

    r, c = axes
    if ord is None or ord in ("f", "fro"):
        return ufuncs.sqrt(reductions.sum(ufuncs.real(a * ufuncs.conj(a)), axis=axes, keepdims=keepdims))
    if ord in (1, -1, np.inf, -np.inf):
        inner, outer = (r, c) if ord in (1, -1) else (c, r)
        if not keepdims and outer > inner:
            outer -= 1
        sums = reductions.sum(ufuncs.abs(a), axis=inner, keepdims=keepdims)
        if ord in (1, np.inf):
            return reductions.max(sums, axis=outer, keepdims=keepdims, initial=0)
        return reductions.min(sums, axis=outer, keepdims=keepdims)
    if ord in ("nuc", 2, -2):
        sv = svdvals(manipulation.moveaxis(a, (r, c), (-2, -1)))
        out = (reductions.max(sv, axis=-1, initial=0) if ord == 2
               else reductions.min(sv, axis=-1) if ord == -2 else reductions.sum(sv, axis=-1))  # fmt: skip
        return jshape.expand_dims(out, (r, c)) if keepdims else out
    raise ValueError(f"Invalid order '{ord}' for matrix norm.")


@jitted(static=('p',), inline=False)
def cond(x: ArrayLike, p: int | str | float | None = None) -> Array:
    """The condition number of ``x`` in the ``p``-norm (2-norm from singular values by default)."""
    a = _inexact("cond", x)
    if p is None or p == 2 or p == -2:
        s = svdvals(a)
        return s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    return _matrix_norm(a, (a.ndim - 2, a.ndim - 1), False, p) * _matrix_norm(inv(a), (a.ndim - 2, a.ndim - 1), False, p)


def multi_dot(arrays: Sequence[ArrayLike], *, precision: Any = None) -> Array:
    """The product of a chain of matrices, in the cheapest order (1-D ends are vectors)."""
    check_arraylike("multi_dot", *arrays)
    arrs = [ensure_array(a) for a in arrays]
    if len(arrs) < 2:
        raise ValueError("Expecting at least two arrays.")
    from jax_core._src.numpy.einsum import einsum

    letters = "abcdefghijklmnopqrstuvwxyz"
    terms: list[str] = []
    for i, a in enumerate(arrs):
        if a.ndim == 1:
            terms.append(letters[i])
        elif a.ndim == 2:
            terms.append(letters[i] + letters[i + 1])
        else:
            raise ValueError(f"multi_dot: arrays must be 1- or 2-dimensional, got shape {a.shape}")
    if arrs[0].ndim == 1:
        terms[0] = letters[1]
    out_terms = ("" if arrs[0].ndim == 1 else letters[0]) + ("" if arrs[-1].ndim == 1 else letters[len(arrs)])
    spec = ",".join(terms) + "->" + out_terms
    return einsum(spec, *arrs, optimize="optimal", precision=precision)


def tensorinv(a: ArrayLike, ind: int = 2) -> Array:
    """The inverse of ``a`` viewed as a linear map from its first ``ind`` axes."""
    x = _inexact("tensorinv", a)
    ind = int(ind)
    if ind <= 0:
        raise ValueError(f"ind must be a positive integer; got {ind=}")
    out_shape = x.shape[ind:] + x.shape[:ind]
    rows = int(np.prod(x.shape[:ind]))
    cols = int(np.prod(x.shape[ind:]))
    if rows != cols:
        raise ValueError(f"tensorinv is only possible when the product of the first {ind} axes matches the remaining axes.")
    return jshape.reshape(inv(jshape.reshape(x, (rows, cols))), out_shape)


def tensorsolve(a: ArrayLike, b: ArrayLike, axes: tuple[int, ...] | None = None) -> Array:
    """Solves ``tensordot(a, x, axes=x.ndim) = b`` for ``x``."""
    check_arraylike("tensorsolve", a, b)
    x, y = (ensure_array(v) for v in promote_dtypes_inexact(a, b))
    if axes is not None:
        x = manipulation.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim)))
    out_shape = x.shape[y.ndim :]
    n = int(np.prod(out_shape))
    return jshape.reshape(solve(jshape.reshape(x, (y.size, n)), jshape.ravel(y)), out_shape)


def matmul(x1: ArrayLike, x2: ArrayLike, /, *, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Matrix product (as ``jnp.matmul``)."""
    return products.matmul(x1, x2, precision=precision, preferred_element_type=preferred_element_type)


def outer(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Outer product of two 1-D arrays."""
    check_arraylike("outer", x1, x2)
    if jshape.ndim(x1) != 1 or jshape.ndim(x2) != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={jshape.ndim(x1)} and x2.ndim={jshape.ndim(x2)}")
    return products.outer(x1, x2)


def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> Array:
    """Cross product of 3-vectors along ``axis``."""
    check_arraylike("cross", x1, x2)
    if jshape.shape(x1)[axis] != 3 or jshape.shape(x2)[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they have shapes {} and {}".format(jshape.shape(x1), jshape.shape(x2)))
    return products.cross(x1, x2, axis=axis)


def diagonal(x: ArrayLike, /, *, offset: int = 0) -> Array:
    """The diagonals of the matrices in the last two axes."""
    return indexing_funcs.diagonal(x, offset, -2, -1)


def trace(x: ArrayLike, /, *, offset: int = 0, dtype: DTypeLike | None = None) -> Array:
    """The traces of the matrices in the last two axes."""
    return indexing_funcs.trace(x, offset, -2, -1, dtype)


def matrix_transpose(x: ArrayLike, /) -> Array:
    """Swaps the last two axes."""
    return manipulation.matrix_transpose(x)


def tensordot(
    x1: ArrayLike, x2: ArrayLike, /, *, axes: int | tuple[Sequence[int], Sequence[int]] = 2, precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """``jnp.tensordot`` with the array API's keyword-only ``axes``."""
    return products.tensordot(x1, x2, axes, precision=precision, preferred_element_type=preferred_element_type)


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
    """Conjugated dot product along ``axis``."""
    return products.vecdot(x1, x2, axis=axis, precision=precision, preferred_element_type=preferred_element_type)
