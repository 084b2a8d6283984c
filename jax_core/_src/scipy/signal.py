"""jax_core.scipy.signal: N-d convolve/correlate (and the 2-d variants) as one
``lax.conv_general_dilated``, as JAX's ``_convolve_nd``; ``fftconvolve`` and ``detrend``.
The spectral functions (stft, istft, csd, welch) are in ``signal_spectral.py``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core._src.lax.indexing.slicing import dynamic_slice
from jax_core._src.lax.linalg.dot import Precision
from jax_core._src.numpy.util import canonicalize_axis
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.lax.conv.convolution import conv_general_dilated
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_dtypes_inexact
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["convolve", "convolve2d", "correlate", "correlate2d", "detrend", "fftconvolve"]


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


def fftconvolve(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", axes: Sequence[int] | None = None
) -> Array:
    """Convolution of two N-d arrays through the FFT (``rfftn``/``irfftn``, or ``fftn``/``ifftn``
    for complex inputs), as ``scipy.signal.fftconvolve``; ``axes`` restricts the convolution to
    those axes (the others must agree in size and are mapped over)."""
    check_arraylike("fftconvolve", in1, in2)
    a, b = (ensure_array(x) for x in promote_dtypes_inexact(in1, in2))
    if a.ndim != b.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in ["same", "full", "valid"]:
        raise ValueError("mode must be one of ['same', 'full', 'valid']")

    def conv(x: Array, y: Array) -> Array:
        return _fftconvolve_unbatched(x, y, mode)

    if axes is None:
        return conv(a, b)
    axes_t = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    axes_t = tuple(canonicalize_axis(int(ax), a.ndim) for ax in axes_t)
    mapped_axes = set(range(a.ndim)) - set(axes_t)
    if any(a.shape[i] != b.shape[i] for i in mapped_axes):
        raise ValueError(f"mapped axes must have same shape; got in1.shape={a.shape} in2.shape={b.shape} axes={axes_t}")
    for ax in sorted(mapped_axes):
        conv = vmap(conv, in_axes=ax, out_axes=ax)
    return conv(a, b)


def _fftconvolve_unbatched(in1: Array, in2: Array, mode: str) -> Array:
    full_shape = tuple(s1 + s2 - 1 for s1, s2 in zip(in1.shape, in2.shape))
    if mode == "valid":
        no_swap = all(s1 >= s2 for s1, s2 in zip(in1.shape, in2.shape))
        swap = all(s1 <= s2 for s1, s2 in zip(in1.shape, in2.shape))
        if not (no_swap or swap):
            raise ValueError("For 'valid' mode, One input must be at least as large as the other in every dimension.")
        if swap:
            in1, in2 = in2, in1
    if all(s1 == 1 or s2 == 1 for s1, s2 in zip(in1.shape, in2.shape)):
        conv = in1 * in2
    elif jnp.iscomplexobj(in1):
        conv = jnp.fft.ifftn(jnp.fft.fftn(in1, full_shape) * jnp.fft.fftn(in2, full_shape), full_shape)
    else:
        conv = jnp.fft.irfftn(jnp.fft.rfftn(in1, full_shape) * jnp.fft.rfftn(in2, full_shape), full_shape)
    if mode == "full":
        out_shape = full_shape
    elif mode == "same":
        out_shape = in1.shape
    else:
        out_shape = tuple(s1 - s2 + 1 for s1, s2 in zip(in1.shape, in2.shape))
    start = tuple((f - o) // 2 for f, o in zip(full_shape, out_shape))
    return dynamic_slice(conv, start, out_shape)


def detrend(
    data: ArrayLike,
    axis: int = -1,
    type: str = "linear",
    bp: int | Sequence[int] | np.ndarray[Any, Any] = 0,
    overwrite_data: None = None,
) -> Array:
    """Removes the mean (``type='constant'``) or a least-squares line per segment between the
    breakpoints ``bp`` (``type='linear'``) along ``axis``, as ``scipy.signal.detrend``."""
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ["constant", "linear"]:
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    (arr,) = (ensure_array(x) for x in promote_dtypes_inexact(jnp.asarray(data)))
    if type == "constant":
        return arr - arr.mean(axis, keepdims=True)
    n = arr.shape[axis]
    bp_arr = np.sort(np.unique(np.r_[0, bp, n]))
    if bp_arr[0] < 0 or bp_arr[-1] > n:
        raise ValueError("Breakpoints must be non-negative and less than length of data along given axis.")
    arr = jnp.moveaxis(arr, axis, 0)
    shape = arr.shape
    arr = arr.reshape(n, -1)
    for m in range(len(bp_arr) - 1):
        npts = bp_arr[m + 1] - bp_arr[m]
        design = jnp.vstack(
            [jnp.ones(int(npts), dtype=arr.dtype), jnp.arange(1, npts + 1, dtype=arr.dtype) / npts.astype(arr.dtype)]
        ).T
        sl = slice(int(bp_arr[m]), int(bp_arr[m + 1]))
        coef = jnp.linalg.lstsq(design, arr[sl])[0]
        arr = arr.at[sl].add(-jnp.matmul(design, coef, precision=Precision.HIGHEST))
    return jnp.moveaxis(arr.reshape(shape), 0, axis)


def detrend_function(kind: str | bool | Callable[[Array], Array], axis: int) -> Callable[[Array], Array]:
    """The per-segment detrending of the spectral functions (a ``detrend`` type, a function, or
    ``False`` for none)."""
    if isinstance(kind, str):
        type_ = kind

        def by_type(d: Array) -> Array:
            return detrend(d, axis=-1, type=type_)

        return by_type
    if callable(kind):
        user = kind
        if axis != -1:

            def moved(d: Array) -> Array:
                return jnp.moveaxis(user(jnp.moveaxis(d, axis, -1)), -1, axis)

            return moved
        return user
    if not kind:
        return lambda d: d
    raise ValueError(f"Unsupported detrend type: {kind}")
