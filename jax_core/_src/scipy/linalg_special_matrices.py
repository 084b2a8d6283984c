"""SciPy's special-matrix constructors, as ``jax.scipy.linalg``: Toeplitz, Hankel, circulant,
Leslie, companion, Fiedler, convolution, Hilbert and Pascal matrices (and inverses), Helmert,
Hadamard and DFT matrices. Vector arguments may carry leading batch dimensions (a batch of
matrices comes back); sizes are static. The binomial coefficients of the Pascal and inverse
Hilbert matrices are computed in floating point (``exact=True`` is not offered, as in JAX).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.numpy.util import check_arraylike, jitted, promote_dtypes
from jax_core._src.scipy.special import comb
from jax_core._src.scipy.special import promote_arrays_inexact as promote_args_inexact
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = ["circulant", "companion", "convolution_matrix", "dft", "fiedler", "fiedler_companion", "hadamard", "hankel",
           "helmert", "hilbert", "invhilbert", "invpascal", "leslie", "pascal", "toeplitz"]  # fmt: skip


def _windows(v: Array, ncols: int) -> Array:
    """Row ``i`` is ``v[i:i + ncols]`` (sliding windows as one convolution-patches op)."""
    nelems = v.shape[0]
    return lax.conv_general_dilated_patches(
        v.reshape((1, nelems, 1)), (ncols,), (1,), "VALID", dimension_numbers=("NTC", "IOT", "NTC"),
        precision=lax.Precision.HIGHEST,
    )[0]


def toeplitz(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Toeplitz matrix ``A[i, j] = c[i - j]`` (``i >= j``), ``r[j - i]`` (``i < j``), of shape
    ``(..., N, M)``; ``r`` defaults to ``conj(c)`` (a Hermitian matrix when ``c[0]`` is real)."""
    if r is None:
        check_arraylike("toeplitz", c)
        r = jnp.conjugate(jnp.asarray(c))
    else:
        check_arraylike("toeplitz", c, r)
    return _toeplitz(jnp.atleast_1d(jnp.asarray(c)), jnp.atleast_1d(jnp.asarray(r)))


def _toeplitz_2d(c: Array, r: Array) -> Array:
    (ncols,), (nrows,) = c.shape, r.shape
    if ncols == 0 or nrows == 0:
        return jnp.empty((ncols, nrows), dtype=jnp.promote_types(c.dtype, r.dtype))
    return jnp.flip(_windows(jnp.concatenate((c[::-1], r[1:])), nrows), axis=0)


_toeplitz: Callable[..., Array] = jnp.vectorize(_toeplitz_2d, signature="(m),(n)->(m,n)")


def hankel(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Hankel matrix ``H[i, j] = v[i + j]`` with ``v = concatenate([c, r[1:]])``, of shape
    ``(..., N, M)``; ``r`` (the last row) defaults to zeros."""
    if r is None:
        check_arraylike("hankel", c)
        ca = jnp.asarray(c)
        ra = jnp.zeros_like(ca)
    else:
        check_arraylike("hankel", c, r)
        ca, ra = jnp.asarray(c), jnp.asarray(r)
    if ca.ndim == 0:
        raise ValueError("hankel: c must be at least 1-dimensional, got a scalar.")
    if ra.ndim == 0:
        raise ValueError("hankel: r must be at least 1-dimensional, got a scalar.")
    if ca.ndim < ra.ndim:
        ca = lax.expand_dims(ca, range(ra.ndim - ca.ndim))
    elif ra.ndim < ca.ndim:
        ra = lax.expand_dims(ra, range(ca.ndim - ra.ndim))
    return _hankel(ca, ra)


def _hankel_2d(c: Array, r: Array) -> Array:
    (ncols,), (nrows,) = c.shape, r.shape
    if ncols == 0 or nrows == 0:
        return jnp.empty((ncols, nrows), dtype=jnp.result_type(c, r))
    return _windows(jnp.concatenate((c, r[1:])), nrows)


_hankel: Callable[..., Array] = jnp.vectorize(_hankel_2d, signature="(m),(n)->(m,n)")


def circulant(c: ArrayLike) -> Array:
    """The circulant matrix ``A[i, j] = c[(i - j) % N]`` of shape ``(..., N, N)``."""
    check_arraylike("circulant", c)
    return _circulant(jnp.atleast_1d(jnp.asarray(c)))


def _circulant_2d(c: Array) -> Array:
    (n,) = c.shape
    return c[(jnp.arange(n)[:, None] - jnp.arange(n)[None, :]) % n]


_circulant: Callable[..., Array] = jnp.vectorize(_circulant_2d, signature="(n)->(n,n)")


def leslie(f: ArrayLike, s: ArrayLike) -> Array:
    """The Leslie matrix: fecundities ``f`` (``(..., N)``, ``N >= 2``) as the first row, survival
    rates ``s`` (``(..., N - 1)``) on the first subdiagonal."""
    check_arraylike("leslie", f, s)
    fa, sa = jnp.atleast_1d(f), jnp.atleast_1d(s)
    if fa.shape[-1] < 2:
        raise ValueError(f"The length of f along the last axis must be at least 2; got shape {fa.shape}.")
    if sa.shape[-1] != fa.shape[-1] - 1:
        raise ValueError(
            "Incorrect lengths for f and s. The length of s along the last axis must be one less than the length of f; "
            f"got f shape {fa.shape} and s shape {sa.shape}."
        )
    return _leslie(fa, sa)


def _leslie_2d(f: Array, s: Array) -> Array:
    fp, sp = promote_dtypes(f, s)
    return jnp.diag(sp, k=-1).at[0].set(fp)


_leslie: Callable[..., Array] = jnp.vectorize(_leslie_2d, signature="(n),(m)->(n,n)")


def companion(a: ArrayLike) -> Array:
    """The companion matrix of the polynomial coefficients ``a`` (``(..., N)``, ``N >= 2``):
    first row ``-a[1:] / a[0]``, ones on the first subdiagonal."""
    (aa,) = promote_args_inexact("companion", a)
    aa = jnp.atleast_1d(aa)
    if aa.shape[-1] < 2:
        raise ValueError(f"The length of `a` along the last axis must be at least 2; got shape {aa.shape}.")
    return _companion(aa)


def _companion_2d(a: Array) -> Array:
    first_row = -a[1:] / a[0]
    m = a.shape[0] - 1
    return jnp.eye(m, m, k=-1, dtype=first_row.dtype).at[0].set(first_row)


_companion: Callable[..., Array] = jnp.vectorize(_companion_2d, signature="(n)->(m,m)")


def fiedler(a: ArrayLike) -> Array:
    """The symmetric Fiedler matrix ``F[i, j] = |a[i] - a[j]|``."""
    check_arraylike("fiedler", a)
    arr = jnp.atleast_1d(a)
    return jnp.abs(arr[..., None] - arr[..., None, :])


def fiedler_companion(a: ArrayLike) -> Array:
    """The Fiedler companion matrix (pentadiagonal, with the polynomial's roots as eigenvalues) of
    the coefficients ``a`` (``(..., N)``, highest degree first): shape ``(..., N - 1, N - 1)``."""
    (aa,) = promote_args_inexact("fiedler_companion", a)
    aa = jnp.atleast_1d(aa)
    if aa.shape[-1] == 0:
        raise ValueError(
            f"fiedler_companion requires the last axis of 'a' to have nonzero length, but got an array of shape {aa.shape}."
        )
    return _fiedler_companion(aa)


def _fiedler_companion_2d(a: Array) -> Array:
    n = a.shape[0] - 1
    if n == 0:
        return jnp.empty_like(a, shape=(0, 0))
    a = a / a[0]
    if n == 1:
        return -a[1:].reshape(1, 1)
    i = jnp.arange(n)[:, None]
    j = jnp.arange(n)[None, :]
    above = -a[jnp.minimum(i + 2, n)]
    below = -a[jnp.minimum(i + 1, n)]
    even, odd = i % 2 == 0, i % 2 == 1
    one, zero = jnp.array(1, dtype=a.dtype), jnp.array(0, dtype=a.dtype)
    where = [(i == 0) & (j == 0), (i == 1) & (j == 0), (j == i + 1) & even, (j == i + 2) & even,
             (j == i - 1) & even & (i >= 2), (j == i - 2) & odd & (i >= 3)]  # fmt: skip
    return jnp.select(where, [-a[1], one, above, one, below, one], default=zero)


_fiedler_companion: Callable[..., Array] = jnp.vectorize(_fiedler_companion_2d, signature="(n)->(m,m)")


@jitted(static=("n", "mode"), inline=False)
def convolution_matrix(a: ArrayLike, n: int, mode: str = "full") -> Array:
    """The Toeplitz matrix ``A`` with ``A @ v == jnp.convolve(a, v, mode)`` for ``v`` of length
    ``n``: ``(..., k, n)`` with ``k`` ``m + n - 1`` (full), ``max(m, n)`` (same) or
    ``max(m, n) - min(m, n) + 1`` (valid)."""
    n = operator.index(n)
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    check_arraylike("convolution_matrix", a)
    arr = jnp.asarray(a)
    if arr.ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    m = arr.shape[-1]
    if m < 1:
        raise ValueError(f"len(a) must be at least 1; got shape {arr.shape}.")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    widths = [(0, 0)] * (arr.ndim - 1) + [(0, n - 1)]
    padded = jnp.pad(arr, widths)
    flipped = jnp.pad(jnp.flip(arr, axis=-1), widths)
    total = m + n - 1
    if mode == "same":
        trim = min(n, m) - 1
        head, tail = trim // 2, trim - trim // 2
    elif mode == "valid":
        head = tail = min(n, m) - 1
    else:
        head = tail = 0
    col0 = lax.slice_in_dim(padded, head, total - tail, axis=-1)
    row0 = lax.slice_in_dim(flipped, total - n - head, total - head, axis=-1)
    return toeplitz(col0, row0)


@jitted(static=("n",), inline=False)
def hilbert(n: int) -> Array:
    """The ``n x n`` Hilbert matrix ``H[i, j] = 1 / (i + j + 1)``."""
    a = lax.broadcasted_iota(float, (n, 1), 0)
    return 1 / (a + a.T + 1)


@jitted(static=("n",), inline=False)
def invhilbert(n: int) -> Array:
    """The inverse of the ``n x n`` Hilbert matrix, from its closed form in binomial coefficients."""
    a = jnp.arange(n, dtype=dtypes.default_float_dtype())
    i, j = a[:, None], a[None, :]
    s = i + j
    return (-1.0) ** s * (s + 1.0) * comb(n + i, n - j - 1) * comb(n + j, n - i - 1) * comb(s, i) ** 2


@jitted(inline=False)
def _binom(n: Array, k: Array) -> Array:
    return lax.exp(lax.lgamma(n + 1.0) - lax.lgamma(n - k + 1.0) - lax.lgamma(k + 1.0))


@jitted(static=("n", "kind"), inline=False)
def pascal(n: int, kind: str | None = None) -> Array:
    """The ``n x n`` Pascal matrix (``kind``: 'symmetric' (default), 'lower' or 'upper'), its
    binomial coefficients computed in floating point."""
    kind = "symmetric" if kind is None else kind
    valid = ["symmetric", "lower", "upper"]
    if kind not in valid:
        raise ValueError(f"Expected kind to be on of: {valid}; got {kind}")
    a = jnp.arange(n, dtype=np.float32)
    lower = _binom(a[:, None], a[None, :])
    if kind == "lower":
        return lower
    if kind == "upper":
        return lower.T
    return jnp.dot(lower, lower.T)


@jitted(static=("n", "kind"), inline=False)
def invpascal(n: int, kind: str | None = None) -> Array:
    """The inverse of the ``n x n`` Pascal matrix of ``kind`` (see ``pascal``)."""
    kind = "symmetric" if kind is None else kind
    valid = ["symmetric", "lower", "upper"]
    if kind not in valid:
        raise ValueError(f"Expected kind to be one of: {valid}; got {kind}")
    a = jnp.arange(n, dtype=dtypes.default_float_dtype())
    i, j = a[:, None], a[None, :]
    lower_inv = ((-1.0) ** (i - j)) * _binom(i, j)
    if kind == "lower":
        return lower_inv
    if kind == "upper":
        return lower_inv.T
    return jnp.dot(lower_inv.T, lower_inv)


@jitted(static=("n", "full"), inline=False)
def helmert(n: int, full: bool = False) -> Array:
    """The Helmert matrix: the ``(n - 1, n)`` orthonormal contrasts, with the row ``1 / sqrt(n)``
    first when ``full``."""
    if n < 1:
        raise ValueError(f"n must be a positive integer; got {n}.")
    i = jnp.arange(n - 1)[:, None]
    j = jnp.arange(n)[None, :]
    k = i + 1
    kf = k.astype(dtypes.default_float_dtype())
    denom = jnp.sqrt(kf * (kf + 1))
    h = jnp.where(j <= i, 1.0 / denom, jnp.where(j == k, -kf / denom, jnp.zeros_like(denom)))
    if full:
        h = jnp.concatenate([jnp.full((1, n), 1.0 / jnp.sqrt(n), dtype=h.dtype), h], axis=0)
    return h


@jitted(static=("n", "dtype"), inline=False)
def hadamard(n: int, dtype: DTypeLike = int) -> Array:
    """The ``n x n`` Hadamard matrix of Sylvester's construction (``n`` a power of 2)."""
    if n < 1 or not math.log2(n).is_integer():
        raise ValueError(f"n must be a positive power of 2; got {n}.")
    h = jnp.ones((1, 1), dtype=dtype)
    for _ in range(int(math.log2(n))):
        h = jnp.block([[h, h], [h, -h]])
    return h


@jitted(static=("n", "scale", "dtype"), inline=False)
def dft(n: int, scale: str | None = None, *, dtype: DTypeLike | None = None) -> Array:
    """The ``n x n`` DFT matrix ``W[i, j] = exp(-2 pi i ij / n)``, scaled by ``1/sqrt(n)``
    (``scale='sqrtn'``) or ``1/n`` (``'n'``), of a complex ``dtype``."""
    if scale is not None and scale not in ("sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; got {scale!r}.")
    if dtype is None:
        dt = dtypes.default_complex_dtype()
    else:
        dt = dtypes.check_and_canonicalize_user_dtype(dtype, "dft")
        if not dtypes.issubdtype(dt, np.complexfloating):
            raise ValueError(f"dtype must be a complex floating-point type; got {dt}.")
    a = jnp.arange(n, dtype=dt)
    omegas = jnp.exp(-2j * np.pi * a[:, None] * a[None, :] / n)
    if scale == "sqrtn":
        omegas = omegas / jnp.sqrt(n)
    elif scale == "n":
        omegas = omegas / n
    return omegas
