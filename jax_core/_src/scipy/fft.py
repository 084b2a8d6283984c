"""jax_core.scipy.fft: type-II discrete cosine transforms (dct/idct/dctn/idctn) as cosine-matrix products."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core._src.scipy.special import promote_arrays_inexact as promote_args_inexact
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["dct", "dctn", "idct", "idctn"]


def _check(type: int, norm: str | None) -> None:
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm not in (None, "backward", "ortho"):
        raise ValueError(f"jax_core.scipy.fft: norm must be None, 'backward' or 'ortho', got {norm!r}")


def _resize(x: Array, n: int | None, axis: int) -> Array:
    if n is None or n == x.shape[axis]:
        return x
    if n < 1:
        raise ValueError(f"invalid number of data points ({n}) specified")
    if n < x.shape[axis]:
        return jnp.take(x, jnp.arange(n), axis=axis)
    pads = [(0, 0)] * x.ndim
    pads[axis] = (0, n - x.shape[axis])
    return jnp.pad(x, pads)


def _cos_matrix(n: int, dtype: np.dtype[Any]) -> Array:
    k = np.arange(n)[:, None]
    m = np.arange(n)[None, :]
    return jnp.asarray(np.cos(np.pi * k * (2 * m + 1) / (2 * n)), dtype=dtype)


def dct(x: ArrayLike, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Discrete cosine transform (type II) along ``axis``, zero-padded or truncated to ``n``."""
    _check(type, norm)
    (xa,) = promote_args_inexact("dct", x)
    xa = jnp.moveaxis(_resize(xa, n, axis), axis, -1)
    size = xa.shape[-1]
    y = 2 * jnp.matmul(xa, _cos_matrix(size, xa.dtype).T)
    if norm == "ortho":
        scale = np.full(size, math.sqrt(1 / (2 * size)))
        scale[0] = math.sqrt(1 / (4 * size))
        y = y * jnp.asarray(scale, dtype=y.dtype)
    return jnp.moveaxis(y, -1, axis)


def idct(x: ArrayLike, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Inverse of ``dct`` (type II) along ``axis``."""
    _check(type, norm)
    (xa,) = promote_args_inexact("idct", x)
    xa = jnp.moveaxis(_resize(xa, n, axis), axis, -1)
    size = xa.shape[-1]
    if norm == "ortho":
        w = np.full(size, math.sqrt(1 / (2 * size)))
        w[0] = math.sqrt(1 / (4 * size))
        w = 2 * w
    else:
        w = np.full(size, 1 / size)
        w[0] = 1 / (2 * size)
    y = jnp.matmul(xa * jnp.asarray(w, dtype=xa.dtype), _cos_matrix(size, xa.dtype))
    return jnp.moveaxis(y, -1, axis)


def _axes(x: Array, s: Sequence[int] | None, axes: Sequence[int] | None) -> list[tuple[int, int | None]]:
    if axes is None:
        axes = list(range(x.ndim)) if s is None else list(range(x.ndim - len(s), x.ndim))
    sizes: list[int | None] = list(s) if s is not None else [None] * len(axes)
    if len(sizes) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    return list(zip(axes, sizes))


def dctn(x: ArrayLike, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
         norm: str | None = None) -> Array:
    """Multidimensional type-II DCT over ``axes`` (all by default)."""
    (xa,) = promote_args_inexact("dctn", x)
    for ax, size in _axes(xa, s, axes):
        xa = dct(xa, type=type, n=size, axis=ax, norm=norm)
    return xa


def idctn(x: ArrayLike, type: int = 2, s: Sequence[int] | None = None, axes: Sequence[int] | None = None,
          norm: str | None = None) -> Array:
    """Multidimensional inverse type-II DCT over ``axes`` (all by default)."""
    (xa,) = promote_args_inexact("idctn", x)
    for ax, size in _axes(xa, s, axes):
        xa = idct(xa, type=type, n=size, axis=ax, norm=norm)
    return xa
