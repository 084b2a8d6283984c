"""jax_core.scipy.signal: N-d convolve/correlate (and the 2-d variants) as one
``lax.conv_general_dilated``, as JAX's ``_convolve_nd``."""

from __future__ import annotations

from typing import Any

import jax_core.numpy as jnp
from jax_core._src.lax.conv.convolution import conv_general_dilated
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_dtypes_inexact
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["convolve", "convolve2d", "correlate", "correlate2d"]


def _convolve_nd(in1: Array, in2: Array, mode: str, precision: Any) -> Array:
    if mode not in ("full", "same", "valid"):
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    if in1.size == 0 or in2.size == 0:
        raise ValueError(
            f"zero-size arrays not supported in convolutions, got shapes {in1.shape} and {in2.shape}."
        )
    in1, in2 = (ensure_array(x) for x in promote_dtypes_inexact(in1, in2))
    no_swap = all(s1 >= s2 for s1, s2 in zip(in1.shape, in2.shape))
    swap = all(s1 <= s2 for s1, s2 in zip(in1.shape, in2.shape))
    if not (no_swap or swap):
        raise ValueError("One input must be smaller than the other in every dimension.")
    shape_o = in2.shape
    if swap:
        in1, in2 = in2, in1
    shape = in2.shape
    if mode == "valid":
        padding = [(0, 0) for _ in shape]
    elif mode == "same":
        padding = [(s - 1 - (o - 1) // 2, s - o + (o - 1) // 2) for s, o in zip(shape, shape_o)]
    else:
        padding = [(s - 1, s - 1) for s in shape]
    strides = (1,) * len(shape)
    out = conv_general_dilated(
        in1[None, None], jnp.flip(in2)[None, None], strides, padding, precision=precision
    )
    return out[0, 0]


def _check_method(method: str) -> None:
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"Got {method=}; expected 'auto', 'fft', or 'direct'.")


def convolve(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto", precision: Any = None
) -> Array:
    """Convolution of two N-d arrays with scipy.signal's ``mode`` ('full', 'same', 'valid').

    One input must be at least as large as the other in every dimension. Every ``method``
    ('auto', 'direct', 'fft') computes the direct convolution (``lax.conv_general_dilated``).
    """
    check_arraylike("convolve", in1, in2)
    _check_method(method)
    return _convolve_nd(jnp.asarray(in1), jnp.asarray(in2), mode, precision)


def correlate(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto", precision: Any = None
) -> Array:
    """Cross-correlation of two N-d arrays: ``convolve(in1, flip(conj(in2)))``."""
    check_arraylike("correlate", in1, in2)
    return convolve(in1, jnp.flip(jnp.conj(jnp.asarray(in2))), mode, method, precision)


def _check_2d(name: str, in1: ArrayLike, in2: ArrayLike, boundary: str, fillvalue: float) -> None:
    check_arraylike(name, in1, in2)
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name}() only supports boundary='fill', fillvalue=0")
    if jnp.ndim(in1) != 2 or jnp.ndim(in2) != 2:
        raise ValueError(f"{name}() only supports 2-dimensional inputs.")


def convolve2d(
    in1: ArrayLike,
    in2: ArrayLike,
    mode: str = "full",
    boundary: str = "fill",
    fillvalue: float = 0,
    precision: Any = None,
) -> Array:
    """Convolution of two 2-d arrays (only ``boundary='fill'`` with ``fillvalue=0``)."""
    _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return _convolve_nd(jnp.asarray(in1), jnp.asarray(in2), mode, precision)


def correlate2d(
    in1: ArrayLike,
    in2: ArrayLike,
    mode: str = "full",
    boundary: str = "fill",
    fillvalue: float = 0,
    precision: Any = None,
) -> Array:
    """Cross-correlation of two 2-d arrays (only ``boundary='fill'`` with ``fillvalue=0``),
    with scipy's orientation of the result when ``in2`` is the larger input."""
    _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    a, b = jnp.asarray(in1), jnp.asarray(in2)
    swap = all(s1 <= s2 for s1, s2 in zip(a.shape, b.shape))
    same_shape = a.shape == b.shape
    if mode in ("full", "valid") and swap and not (mode == "valid" and same_shape):
        out = _convolve_nd(jnp.flip(b), jnp.conj(a), mode, precision)
        return jnp.conj(out) if mode == "full" else out
    return jnp.flip(_convolve_nd(jnp.flip(a), jnp.conj(b), mode, precision))
