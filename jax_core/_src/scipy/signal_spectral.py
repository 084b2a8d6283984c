"""jax_core.scipy.signal's spectral analysis: ``stft``, ``istft``, ``csd`` and ``welch``, built
as JAX builds them (windowed segments by ``vmap`` of ``dynamic_slice_in_dim``, ``rfft``/``fft``,
overlap-add for the inverse)."""

from __future__ import annotations

import importlib
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.lax.indexing.slicing import dynamic_slice_in_dim, slice_in_dim
from jax_core._src.lax.shape.dimensions import expand_dims
from jax_core._src.numpy.util import canonicalize_axis, check_arraylike, ensure_array, promote_dtypes_inexact
from jax_core._src.scipy.signal import detrend_function
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = ["csd", "istft", "stft", "welch"]

DetrendLike = str | bool | Callable[[Array], Array]


def _concrete_int(value: int | Array, context: str) -> int:
    """``int(value)`` (JAX's ``core.concrete_or_error(int, value, context)``: a tracer raises
    ``ConcretizationTypeError``)."""
    del context
    return int(value)


def _to_complex(x: Array) -> Array:
    return x if jnp.iscomplexobj(x) else x.astype(dtypes.to_complex_dtype(x.dtype))


def _hann(n: int) -> Array:
    if n == 1:
        return jnp.array([1.0])
    return jnp.sin(jnp.linspace(0, np.pi, n, endpoint=False)) ** 2


def _named_window(window: str | tuple[Any, ...], n: int) -> Array:
    if isinstance(window, str) and window == "hann":
        return _hann(n)
    try:
        scipy_signal = importlib.import_module("scipy.signal")
    except ImportError as err:  # pragma: no cover - scipy is a test dependency
        raise ImportError(f"scipy must be available to use window={window!r}") from err
    return jnp.asarray(np.asarray(scipy_signal.get_window(window, n)))


def _triage_segments(
    window: ArrayLike | str | tuple[Any, ...], nperseg: int | None, input_length: int, dtype: DTypeLike
) -> tuple[Array, int]:
    """The window as an array and the segment length (scipy's ``_triage_segments``)."""
    if isinstance(window, (str, tuple)):
        n = input_length if nperseg is None else int(nperseg)
        if n > input_length:
            warnings.warn(f"nperseg={n} is greater than input_length={input_length}, using nperseg={input_length}")
            n = input_length
        return jnp.array(_named_window(window, n), dtype=dtype), n
    win = jnp.asarray(window, dtype=dtype)
    n = win.size if nperseg is None else int(nperseg)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if input_length < win.size:
        raise ValueError("window is longer than input signal")
    if n != win.size:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, n


def _median_bias(n: int) -> Array:
    ii_2 = jnp.arange(2.0, n, 2)
    return 1 + jnp.sum(1.0 / (ii_2 + 1) - 1.0 / ii_2)


def _fft_helper(
    x: Array, win: Array, detrend_func: Callable[[Array], Array], nperseg: int, noverlap: int, nfft: int, sides: str
) -> Array:
    if x.dtype.kind == "i":
        x = x.astype(win.dtype)
    *batch_shape, signal_length = x.shape
    if nperseg == 1 and noverlap == 0:
        result = x[..., np.newaxis]
    else:
        starts = jnp.arange(0, signal_length - nperseg + 1, nperseg - noverlap)

        def segment(start: Array) -> Array:
            return dynamic_slice_in_dim(x, start, nperseg, -1)

        result = vmap(segment, out_axes=-2)(starts)
    result = detrend_func(result)
    if jnp.iscomplexobj(win):
        result = _to_complex(result)
    result = win.reshape((1,) * len(batch_shape) + (1, nperseg)) * result
    if sides == "twosided":
        return jnp.fft.fft(result, n=nfft)
    return jnp.fft.rfft(result.real, n=nfft)


def _odd_ext(x: Array, n: int, axis: int = -1) -> Array:
    if n < 1:
        return x
    if n > x.shape[axis] - 1:
        raise ValueError(
            f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, which is {x.shape[axis] - 1}."
        )
    left_end = slice_in_dim(x, 0, 1, axis=axis)
    left_ext = jnp.flip(slice_in_dim(x, 1, n + 1, axis=axis), axis=axis)
    right_end = slice_in_dim(x, -1, None, axis=axis)
    right_ext = jnp.flip(slice_in_dim(x, -(n + 1), -1, axis=axis), axis=axis)
    return jnp.concatenate((2 * left_end - left_ext, x, 2 * right_end - right_ext), axis=axis)


def _pad_with(mode: str, **kwargs: Any) -> Callable[[Array, int, int], Array]:
    def pad(x: Array, n: int, axis: int = -1) -> Array:
        width = [(0, 0) for _ in range(x.ndim)]
        width[axis] = (n, n)
        return jnp.pad(x, width, mode, **kwargs)

    return pad


_BOUNDARIES: dict[str | None, Callable[[Array, int, int], Array] | None] = {
    "even": _pad_with("reflect"),
    "odd": _odd_ext,
    "constant": _pad_with("edge"),
    "zeros": _pad_with("constant", constant_values=0.0),
    None: None,
}


def _delete(shape: tuple[int, ...], axis: int) -> tuple[int, ...]:
    return shape[:axis] + shape[axis + 1 :]


def _zero_pad(x: Array, n: int) -> Array:
    """``x`` with ``n`` zeros appended along its last axis."""
    return jnp.concatenate((x, jnp.zeros_like(x, shape=(*x.shape[:-1], n))), axis=-1)


def _spectral_helper(
    x: ArrayLike,
    y: ArrayLike | None,
    fs: ArrayLike = 1.0,
    window: str | tuple[Any, ...] | ArrayLike = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend_type: DetrendLike = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    mode: str = "psd",
    boundary: str | None = None,
    padded: bool = False,
) -> tuple[Array, Array, Array]:
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: ('psd', 'stft')")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES.keys())}")
    check_arraylike("spectral_helper", *((x,) if y is None else (x, y)))
    axis = _concrete_int(axis, "axis of windowed-FFT")
    axis = canonicalize_axis(axis, jnp.ndim(x))
    if y is None:
        xa = ensure_array(promote_dtypes_inexact(x)[0])
        ya = xa
        outershape = _delete(xa.shape, axis)
    else:
        if mode != "psd":
            raise ValueError("two-argument mode is available only when mode=='psd'")
        xa, ya = (ensure_array(a) for a in promote_dtypes_inexact(x, y))
        if xa.ndim != ya.ndim:
            raise ValueError("two-arguments must have the same rank ({x.ndim} vs {y.ndim}).")
        try:
            outershape = jnp.broadcast_shapes(_delete(xa.shape, axis), _delete(ya.shape, axis))
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err

    result_dtype = dtypes.to_complex_dtype(xa.dtype)
    freq_dtype = np.finfo(result_dtype).dtype
    nperseg_int: int | None = None
    if nperseg is not None:
        nperseg_int = _concrete_int(nperseg, "nperseg of windowed-FFT")
        if nperseg_int < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nseg = _triage_segments(window, nperseg_int, input_length=xa.shape[axis], dtype=xa.dtype)
    nover = nseg // 2 if noverlap is None else _concrete_int(noverlap, "noverlap of windowed-FFT")
    nfft_int = nseg if nfft is None else _concrete_int(nfft, "nfft of windowed-FFT")

    if y is None:
        if xa.size == 0:
            return jnp.zeros(xa.shape, freq_dtype), jnp.zeros(xa.shape, freq_dtype), jnp.zeros(xa.shape, result_dtype)
    elif xa.size == 0 or ya.size == 0:
        shape = outershape[:axis] + (min(xa.shape[axis], ya.shape[axis]),) + outershape[axis:]
        return jnp.zeros(shape, freq_dtype), jnp.zeros(shape, freq_dtype), jnp.zeros(shape, result_dtype)

    xa = jnp.moveaxis(xa, axis, -1)
    if y is not None and ya.ndim > 1:
        ya = jnp.moveaxis(ya, axis, -1)
    if y is not None and xa.shape[-1] != ya.shape[-1]:
        if xa.shape[-1] < ya.shape[-1]:
            xa = _zero_pad(xa, ya.shape[-1] - xa.shape[-1])
        else:
            ya = _zero_pad(ya, xa.shape[-1] - ya.shape[-1])

    if nfft_int < nseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if nover >= nseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nseg - nover

    ext = _BOUNDARIES[boundary]
    if ext is not None:
        xa = ext(xa, nseg // 2, -1)
        if y is not None:
            ya = ext(ya, nseg // 2, -1)
    if padded:
        nadd = (-(xa.shape[-1] - nseg) % nstep) % nseg
        xa = _zero_pad(xa, nadd)
        if y is not None:
            ya = _zero_pad(ya, nadd)

    detrend_func = detrend_function(detrend_type, axis)
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    elif scaling == "spectrum":
        scale = 1.0 / win.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling}")
    if mode == "stft":
        scale = jnp.sqrt(scale)
    scale = _to_complex(jnp.asarray(scale))

    if return_onesided:
        sides = "onesided"
        if jnp.iscomplexobj(xa) or jnp.iscomplexobj(y):
            sides = "twosided"
            warnings.warn("Input data is complex, switching to return_onesided=False")
    else:
        sides = "twosided"
    if sides == "twosided":
        freqs = jnp.fft.fftfreq(nfft_int, 1 / fs, dtype=freq_dtype)
    else:
        freqs = jnp.fft.rfftfreq(nfft_int, 1 / fs, dtype=freq_dtype)

    result = _fft_helper(xa, win, detrend_func, nseg, nover, nfft_int, sides)
    if y is not None:
        result = jnp.conjugate(result) * _fft_helper(ya, win, detrend_func, nseg, nover, nfft_int, sides)
    elif mode == "psd":
        result = jnp.conjugate(result) * result
    result = result * scale
    if sides == "onesided" and mode == "psd":
        end = None if nfft_int % 2 else -1
        result = result.at[..., 1:end].mul(2)

    time = jnp.arange(nseg / 2, xa.shape[-1] - nseg / 2 + 1, nseg - nover, dtype=freq_dtype) / fs
    if boundary is not None:
        time = time - (nseg / 2) / fs
    result = result.astype(result_dtype)
    if y is None and mode != "stft":
        result = result.real
    return freqs, time, jnp.moveaxis(result, -1, axis)


def stft(
    x: ArrayLike,
    fs: ArrayLike = 1.0,
    window: str | tuple[Any, ...] | ArrayLike = "hann",
    nperseg: int = 256,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: DetrendLike = False,
    return_onesided: bool = True,
    boundary: str | None = "zeros",
    padded: bool = True,
    axis: int = -1,
) -> tuple[Array, Array, Array]:
    """Short-time Fourier transform, as ``scipy.signal.stft``: ``(freqs, times, Zxx)``."""
    return _spectral_helper(
        x, None, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
        scaling="spectrum", axis=axis, mode="stft", boundary=boundary, padded=padded,
    )  # fmt: skip


def csd(
    x: ArrayLike,
    y: ArrayLike | None,
    fs: ArrayLike = 1.0,
    window: str | tuple[Any, ...] | ArrayLike = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: DetrendLike = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[Array, Array]:
    """Cross power spectral density by Welch's method, as ``scipy.signal.csd``: ``(freqs, Pxy)``
    (``y=None`` gives the power spectral density of ``x``)."""
    freqs, _, pxy = _spectral_helper(
        x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis, mode="psd"
    )
    if y is not None:
        pxy = pxy + 0j
    if pxy.ndim >= 2 and pxy.size > 0:
        if pxy.shape[-1] > 1:
            if average == "median":
                bias = _median_bias(pxy.shape[-1]).astype(pxy.dtype)
                if jnp.iscomplexobj(pxy):
                    pxy = jnp.median(jnp.real(pxy), axis=-1) + 1j * jnp.median(jnp.imag(pxy), axis=-1)
                else:
                    pxy = jnp.median(pxy, axis=-1)
                pxy = pxy / bias
            elif average == "mean":
                pxy = pxy.mean(axis=-1)
            else:
                raise ValueError(f'average must be "median" or "mean", got {average}')
        else:
            pxy = jnp.reshape(pxy, pxy.shape[:-1])
    return freqs, pxy


def welch(
    x: ArrayLike,
    fs: ArrayLike = 1.0,
    window: str | tuple[Any, ...] | ArrayLike = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: DetrendLike = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[Array, Array]:
    """Power spectral density by Welch's method, as ``scipy.signal.welch``: ``(freqs, Pxx)``."""
    freqs, pxx = csd(
        x, None, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft, detrend=detrend,
        return_onesided=return_onesided, scaling=scaling, axis=axis, average=average,
    )  # fmt: skip
    return freqs, pxx.real


def _greater(x: Array, threshold: float) -> Array:
    """``x > threshold``, lexicographically (real part, then imaginary) for complex ``x``, as
    ``jnp.greater`` orders complex numbers in JAX."""
    if not jnp.iscomplexobj(x):
        return x > threshold
    t = jnp.asarray(threshold, dtype=x.dtype)
    return jnp.where(x.real == t.real, x.imag > t.imag, x.real > t.real)


def _overlap_and_add(x: Array, step_size: int) -> Array:
    if x.ndim < 2:
        raise ValueError("Input must have (..., frames, frame_length) shape.")
    *batch_shape, nframes, segment_len = x.shape
    batch = math.prod(batch_shape)
    x = x.reshape((batch, nframes, segment_len))
    output_size = step_size * (nframes - 1) + segment_len
    nstep_per_segment = 1 + (segment_len - 1) // step_size
    padded_len = nstep_per_segment * step_size
    x = jnp.pad(x, ((0, 0), (0, 0), (0, padded_len - segment_len)))
    x = x.reshape((batch, nframes, nstep_per_segment, step_size))
    x = x.transpose((0, 2, 1, 3))
    x = jnp.pad(x, ((0, 0), (0, 0), (0, nframes), (0, 0)))
    shrunken = x.shape[2] - 1
    x = x.reshape((batch, -1))[:, : nstep_per_segment * shrunken * step_size]
    x = x.reshape((batch, nstep_per_segment, shrunken * step_size))
    x = x.sum(axis=1)[:, :output_size]
    return x.reshape((*batch_shape, -1))


def istft(
    Zxx: ArrayLike,
    fs: ArrayLike = 1.0,
    window: str | tuple[Any, ...] | ArrayLike = "hann",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    input_onesided: bool = True,
    boundary: bool = True,
    time_axis: int = -1,
    freq_axis: int = -2,
) -> tuple[Array, Array]:
    """Inverse short-time Fourier transform, as ``scipy.signal.istft``: ``(times, x)``."""
    check_arraylike("istft", Zxx)
    z = jnp.asarray(Zxx)
    if z.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    freq_axis = canonicalize_axis(freq_axis, z.ndim)
    time_axis = canonicalize_axis(time_axis, z.ndim)
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    z = jnp.asarray(z, dtype=dtypes.to_complex_dtype(z.dtype))
    n_default = 2 * (z.shape[freq_axis] - 1) if input_onesided else z.shape[freq_axis]
    nseg = _concrete_int(nperseg or n_default, "nperseg: segment length of STFT")
    if nseg < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft_int = n_default
        if input_onesided and nseg == n_default + 1:
            nfft_int += 1
    else:
        nfft_int = _concrete_int(nfft, "nfft of STFT")
    if nfft_int < nseg:
        raise ValueError(f"FFT length ({nfft_int}) must be longer than nperseg ({nseg}).")
    nover = _concrete_int(noverlap or nseg // 2, "noverlap of STFT")
    if nover >= nseg:
        raise ValueError("noverlap must be less than nperseg.")
    nstep = nseg - nover
    if time_axis != z.ndim - 1 or freq_axis != z.ndim - 2:
        outer = tuple(i for i in range(z.ndim) if i not in {time_axis, freq_axis})
        z = jnp.transpose(z, outer + (freq_axis, time_axis))
    if input_onesided:
        xsubs = jnp.fft.irfft(z, axis=-2, n=nfft)[..., :nseg, :]
    else:
        xsubs = jnp.fft.ifft(z, axis=-2, n=nfft)[..., :nseg, :]
    if isinstance(window, (str, tuple)):
        win = _named_window(window, nseg).astype(xsubs.dtype)
    else:
        win = jnp.asarray(window)
        if len(win.shape) != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nseg:
            raise ValueError(f"window must have length of {nseg}")
    xsubs = xsubs * win.sum()
    win = expand_dims(win, (*range(xsubs.ndim - 2), -1))
    x = _overlap_and_add((xsubs * win).swapaxes(-2, -1), nstep)
    win_squared = jnp.repeat(win * win, xsubs.shape[-1], axis=-1)
    norm = _overlap_and_add(win_squared.swapaxes(-2, -1), nstep)
    if boundary:
        x = x[..., nseg // 2 : -(nseg // 2)]
        norm = norm[..., nseg // 2 : -(nseg // 2)]
    x = x / jnp.where(_greater(norm, 1e-10), norm, 1.0)
    if x.ndim > 1 and time_axis != z.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = jnp.moveaxis(x, -1, time_axis)
    time = jnp.arange(x.shape[0], dtype=np.finfo(x.dtype).dtype) / fs
    return time, x
