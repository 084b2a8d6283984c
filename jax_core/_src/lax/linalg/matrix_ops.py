"""The matrix helpers the decompositions' derivative rules compute with, in lax operations.

``matmul`` (batch dimensions broadcast), ``eye``, ``tril``/``triu``, ``diagonal``, ``pad`` (with
zeros), ``reshape``, ``broadcast_to``, ``arange``, ``swapaxes``, ``take_rows`` (a batched row
permutation): the few NumPy-style functions the rules need, so lax
never imports ``jax_core.numpy`` (which sits above it). Masks select rather than multiply, so
infinities and NaNs off the selected part do not leak in.
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Sequence

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import zeros_like_aval
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.indexing.dimension_numbers import GatherDimensionNumbers
from jax_core._src.lax.indexing.gather import gather
from jax_core._src.lax.indexing.slicing import slice as lax_slice
from jax_core._src.lax.linalg.dot import dot_general
from jax_core._src.lax.reductions.reduce import reduce_sum
from jax_core._src.lax.shape.assembly import broadcasted_iota, iota
from jax_core._src.lax.shape.assembly import pad as lax_pad
from jax_core._src.lax.shape.compositions import as_array
from jax_core._src.lax.shape.dimensions import broadcast_in_dim, shape_of, transpose
from jax_core._src.lax.shape.dimensions import reshape as lax_reshape
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


def conj(x: ArrayLike) -> Array:
    """The complex conjugate (real ``x`` as it is, as NumPy's)."""
    return ew.conj(x) if get_aval(x).dtype.kind == "c" else as_array(x)


def real(x: ArrayLike) -> Array:
    """The real part (real ``x`` as it is, as NumPy's)."""
    return ew.real(x) if get_aval(x).dtype.kind == "c" else as_array(x)



def swapaxes(x: ArrayLike, a: int, b: int) -> Array:
    """``x`` with axes ``a`` and ``b`` exchanged."""
    nd = len(shape_of(x))
    perm = list(range(nd))
    perm[a % nd], perm[b % nd] = perm[b % nd], perm[a % nd]
    return transpose(x, tuple(perm))


def broadcast_to(x: ArrayLike, shape: Sequence[int]) -> Array:
    """``x`` broadcast NumPy-style (new leading dimensions, size-1 dimensions stretched)."""
    nd = len(shape_of(x))
    return broadcast_in_dim(x, tuple(shape), tuple(range(len(shape) - nd, len(shape))))


def matmul(a: ArrayLike, b: ArrayLike) -> Array:
    """Matrix products over the last two dimensions; batch dimensions broadcast, dtypes promote."""
    sa, sb = shape_of(a), shape_of(b)
    batch = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
    dt = dtypes.result_type(a, b)
    a = broadcast_to(ew.convert_element_type(a, dt), (*batch, *sa[-2:]))
    b = broadcast_to(ew.convert_element_type(b, dt), (*batch, *sb[-2:]))
    nb = len(batch)
    dims = tuple(range(nb))
    return dot_general(a, b, (((nb + 1,), (nb,)), (dims, dims)))


def _tri_mask(shape: tuple[int, ...], k: int, lower: bool) -> Array:
    m, n = shape[-2:]
    rows = broadcasted_iota(np.int32, (m, n), 0)
    cols = broadcasted_iota(np.int32, (m, n), 1)
    shifted = ew.add(rows, np.int32(k))
    mask = ew.le(cols, shifted) if lower else ew.ge(cols, shifted)
    return broadcast_in_dim(mask, shape, (len(shape) - 2, len(shape) - 1))



def tril(x: ArrayLike, k: int = 0) -> Array:
    """``x`` with the entries above the ``k``-th diagonal set to zero."""
    return ew.select(_tri_mask(shape_of(x), k, lower=True), x, zeros_like_aval(get_aval(x)))


def triu(x: ArrayLike, k: int = 0) -> Array:
    """``x`` with the entries below the ``k``-th diagonal set to zero."""
    return ew.select(_tri_mask(shape_of(x), k, lower=False), x, zeros_like_aval(get_aval(x)))


def eye(n: int, dtype: DTypeLike) -> Array:
    """The ``n`` by ``n`` identity matrix."""
    rows = broadcasted_iota(np.int32, (n, n), 0)
    cols = broadcasted_iota(np.int32, (n, n), 1)
    return ew.convert_element_type(ew.eq(rows, cols), dtype)


def diagonal(x: ArrayLike, offset: int = 0, axis1: int = -2, axis2: int = -1) -> Array:
    """The main diagonal over the last two dimensions (the only form the rules use)."""
    shape = shape_of(x)
    if offset != 0 or axis1 % len(shape) != len(shape) - 2 or axis2 % len(shape) != len(shape) - 1:
        raise NotImplementedError("diagonal: only the main diagonal of the last two axes")
    k = builtins.min(shape[-2:])
    square = lax_slice(x, (0,) * len(shape), (*shape[:-2], k, k))
    on_diagonal = _tri_mask((*shape[:-2], k, k), 0, lower=True)
    on_diagonal = ew.bitwise_and(on_diagonal, _tri_mask((*shape[:-2], k, k), 0, lower=False))
    return reduce_sum(ew.select(on_diagonal, square, zeros_like_aval(get_aval(square))), (len(shape) - 1,))


def pad(x: ArrayLike, pad_width: Sequence[tuple[int, int]]) -> Array:
    """``x`` padded with zeros: ``(before, after)`` per dimension."""
    zero = np.zeros((), get_aval(x).dtype)
    return lax_pad(x, zero, [(lo, hi, 0) for lo, hi in pad_width])


def reshape(x: ArrayLike, shape: Sequence[int]) -> Array:
    """``x`` reshaped (one ``-1`` entry is inferred)."""
    size = math.prod(shape_of(x))
    known = math.prod(d for d in shape if d != -1)
    resolved = tuple(size // known if d == -1 and known else d for d in shape)
    return lax_reshape(x, resolved)


def arange(n: int, dtype: DTypeLike | None = None) -> Array:
    """``0, 1, ..., n - 1`` (the default integer dtype unless ``dtype`` is given)."""
    return iota(dtypes.default_int_dtype() if dtype is None else dtype, n)


def take_rows(x: ArrayLike, perm: ArrayLike) -> Array:
    """``x[..., perm[..., i], :]`` for each row ``i``: a row permutation batched over the leading
    dimensions (``perm`` has ``x``'s batch shape plus one dimension of row indices)."""
    shape = shape_of(x)
    nb = len(shape) - 2
    batch = tuple(range(nb))
    indices = broadcast_in_dim(perm, (*shape_of(perm), 1), tuple(range(nb + 1)))
    dnums = GatherDimensionNumbers(
        offset_dims=(nb + 1,),
        collapsed_slice_dims=(nb,),
        start_index_map=(nb,),
        operand_batching_dims=batch,
        start_indices_batching_dims=batch,
    )
    return gather(x, indices, dnums, (1,) * nb + (1, shape[-1]), mode="promise_in_bounds")

