"""``jax_core.numpy.fft``: NumPy's FFT API on the ``fft`` primitive.

``n``/``s`` crop or zero-pad the transformed axes, ``norm`` is ``"backward"`` (default),
``"ortho"`` or ``"forward"``; integer and real inputs promote to complex (float32 ->
complex64 unless x64 is on).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.fft import FftType
from jax_core._src.lax.fft import fft as _lax_fft
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.numpy.util import canonicalize_axis, check_arraylike, ensure_array, jitted
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array



def _fft_call(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    return _lax_fft(x, fft_type, fft_lengths)


_fft_call.__name__ = _fft_call.__qualname__ = "fft"
_staged_fft = jitted(static_argnums=(1, 2), inline=False)(_fft_call)


def lax_fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    """``lax.fft`` staged as JAX's is (one ``jit[name=fft]`` per transform)."""
    return _staged_fft(x, fft_type, tuple(int(n) for n in fft_lengths))


def _resize(x: Array, axis: int, n: int) -> Array:
    cur = x.shape[axis]
    if cur == n:
        return x
    if cur > n:
        hi = list(x.shape)
        hi[axis] = n
        return slicing.slice(x, (0,) * x.ndim, tuple(hi))
    cfg = [(0, 0, 0)] * x.ndim
    cfg[axis] = (0, n - cur, 0)
    return shape_assembly.pad(x, np.zeros((), x.dtype), cfg)


def _scale(x: Array, lengths: Sequence[int], norm: str | None, inverse: bool) -> Array:
    # XLA's inverse transforms already divide by n ("backward" normalisation).
    n = float(np.prod(lengths))
    if norm is None or norm == "backward":
        factor = 1.0
    elif norm == "ortho":
        factor = float(np.sqrt(n)) if inverse else 1.0 / float(np.sqrt(n))
    elif norm == "forward":
        factor = n if inverse else 1.0 / n
    else:
        raise ValueError(f'Invalid norm value {norm}; should be "backward", "ortho" or "forward".')
    if factor == 1.0:
        return x
    real = dtypes.finfo(x.dtype).dtype if dtypes.issubdtype(x.dtype, np.complexfloating) else x.dtype
    return lax.mul(x, np.asarray(factor, real).astype(x.dtype))


def _fftn(name: str, a: ArrayLike, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None, kind: FftType) -> Array:
    """The transform, eagerly one executable per signature (an inline jit: traces see the
    operations), unless ``s``/``axes`` hold values a jit cannot key on (the errors then come
    from the body)."""
    s_t = None if s is None else tuple(s)
    axes_t = None if axes is None else tuple(axes)
    try:
        hash((s_t, axes_t, norm))
    except TypeError:
        return _fftn_body(name, a, s, axes, norm, kind)
    return _fftn_staged(name, a, s_t, axes_t, norm, kind)


def _fftn_body(name: str, a: ArrayLike, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None, kind: FftType) -> Array:
    from jax_core._src.numpy.manipulation import moveaxis

    check_arraylike(name, a)
    x = ensure_array(a)
    if axes is None:
        axes_t = tuple(range(x.ndim - len(s), x.ndim)) if s is not None else tuple(range(x.ndim))
    else:
        axes_t = tuple(canonicalize_axis(int(ax), x.ndim) for ax in axes)
    if len(set(axes_t)) != len(axes_t):
        raise ValueError(f"{name} does not support repeated axes. Got axes {axes_t}.")
    if s is not None and len(s) != len(axes_t):
        raise ValueError("Shape and axes have different lengths.")
    if not axes_t:
        return lax.convert_element_type(x, dtypes.to_complex_dtype(x.dtype)) if kind in (FftType.FFT, FftType.IFFT) else x
    # the conversion to the transform's dtype happens in lax.fft (inside its jit), as in JAX
    lengths = [x.shape[ax] if s is None else int(s[i]) for i, ax in enumerate(axes_t)]
    if kind == FftType.IRFFT and s is None:
        lengths[-1] = 2 * (x.shape[axes_t[-1]] - 1)
    if s is not None:  # as JAX: slice what is too long, then one jnp.pad of everything too short
        target = list(x.shape)
        for i, ax in enumerate(axes_t):
            target[ax] = lengths[i]
        if kind == FftType.IRFFT:
            target[axes_t[-1]] = lengths[-1] // 2 + 1
        if any(n < 1 for n in lengths):
            raise ValueError("Shape should be positive.")
        for ax, t in enumerate(target):
            if x.shape[ax] > t:
                x = _resize(x, ax, t)
        from jax_core._src.numpy.padding import pad

        x = pad(x, [(0, t - d) for t, d in zip(target, x.shape, strict=True)])
    elif kind == FftType.IRFFT:
        x = _resize(x, axes_t[-1], lengths[-1] // 2 + 1)
    for n in lengths:
        if n < 1:
            raise ValueError(f"Invalid number of data points ({n}) specified")
    k = len(axes_t)
    x = moveaxis(x, axes_t, tuple(range(x.ndim - k, x.ndim)))
    # XLA transforms up to 3 trailing dims at a time: do the leading axes first (complex).
    done = 0
    if kind in (FftType.FFT, FftType.IFFT):
        while done < k:
            chunk = min(3, k - done)
            sub = tuple(range(x.ndim - k + done, x.ndim - k + done + chunk))
            y = moveaxis(x, sub, tuple(range(x.ndim - chunk, x.ndim)))
            y = lax_fft(y, kind, lengths[done : done + chunk])
            x = moveaxis(y, tuple(range(x.ndim - chunk, x.ndim)), sub)
            done += chunk
    elif kind == FftType.RFFT:
        last = min(3, k)
        x = lax_fft(x, FftType.RFFT, lengths[k - last :])
        rest = k - last
        if rest:
            x = _complex_axes(x, tuple(range(x.ndim - k, x.ndim - last)), lengths[:rest], FftType.FFT)
    else:
        last = min(3, k)
        rest = k - last
        if rest:
            x = _complex_axes(x, tuple(range(x.ndim - k, x.ndim - last)), lengths[:rest], FftType.IFFT)
        x = lax_fft(x, FftType.IRFFT, lengths[k - last :])
    out = moveaxis(x, tuple(range(x.ndim - k, x.ndim)), axes_t)
    inverse = kind in (FftType.IFFT, FftType.IRFFT)
    return _scale(out, lengths, norm, inverse)


_fftn_staged = jitted(static=("name", "s", "axes", "norm", "kind"))(_fftn_body)


def _complex_axes(x: Array, axes: tuple[int, ...], lengths: Sequence[int], kind: FftType) -> Array:
    from jax_core._src.numpy.manipulation import moveaxis

    done = 0
    while done < len(axes):
        chunk = min(3, len(axes) - done)
        sub = axes[done : done + chunk]
        y = moveaxis(x, sub, tuple(range(x.ndim - chunk, x.ndim)))
        y = lax_fft(y, kind, lengths[done : done + chunk])
        x = moveaxis(y, tuple(range(x.ndim - chunk, x.ndim)), sub)
        done += chunk
    return x


def _one(name: str, a: ArrayLike, n: int | None, axis: int, norm: str | None, kind: FftType) -> Array:
    return _fftn(name, a, None if n is None else [n], [axis], norm, kind)


def fft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """One-dimensional discrete Fourier transform along ``axis``."""
    return _one("fft", a, n, axis, norm, FftType.FFT)


def ifft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """One-dimensional inverse discrete Fourier transform along ``axis``."""
    return _one("ifft", a, n, axis, norm, FftType.IFFT)


def rfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """One-dimensional FFT of real input (``n // 2 + 1`` output frequencies)."""
    return _one("rfft", a, n, axis, norm, FftType.RFFT)


def irfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Inverse of ``rfft`` (real output of length ``n``, default ``2 * (m - 1)``)."""
    return _one("irfft", a, n, axis, norm, FftType.IRFFT)


def hfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """FFT of a Hermitian-symmetric signal given by its first half (real output)."""
    check_arraylike("hfft", a)
    x = ensure_array(a)
    x = lax.conj(lax.convert_element_type(x, dtypes.to_complex_dtype(x.dtype)))
    nn = 2 * (x.shape[axis] - 1) if n is None else n
    swapped = {"backward": "forward", "forward": "backward", "ortho": "ortho", None: "forward"}[norm]
    return irfft(x, nn, axis, swapped)


def ihfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """Inverse of ``hfft``."""
    check_arraylike("ihfft", a)
    x = ensure_array(a)
    nn = x.shape[axis] if n is None else n
    if norm in (None, "backward", "ortho"):  # conj(rfft) scaled after the conjugation, as JAX (+0 imaginary parts)
        out = lax.conj(rfft(x, n, axis))
        return lax.mul(out, np.asarray(1 / nn if norm != "ortho" else 1 / np.sqrt(nn), out.dtype))
    swapped = {"forward": "backward", "ortho": "ortho"}.get(norm, norm)
    return lax.conj(rfft(x, nn, axis, swapped))


def fftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """N-dimensional FFT over ``axes`` (all by default)."""
    return _fftn("fftn", a, s, axes, norm, FftType.FFT)


def ifftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """N-dimensional inverse FFT over ``axes``."""
    return _fftn("ifftn", a, s, axes, norm, FftType.IFFT)


def rfftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """N-dimensional FFT of real input (the last axis halved)."""
    return _fftn("rfftn", a, s, axes, norm, FftType.RFFT)


def irfftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """Inverse of ``rfftn``."""
    return _fftn("irfftn", a, s, axes, norm, FftType.IRFFT)


def _two(axes: Sequence[int]) -> Sequence[int]:
    if len(axes) != 2:
        raise ValueError(f"jax.numpy.fft 2-D transforms only support 2 axes. Got axes = {list(axes)}.")
    return axes


def fft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """2-D FFT over ``axes``."""
    return fftn(a, s, _two(axes), norm)


def ifft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """2-D inverse FFT over ``axes``."""
    return ifftn(a, s, _two(axes), norm)


def rfft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """2-D FFT of real input."""
    return rfftn(a, s, _two(axes), norm)


def irfft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """Inverse of ``rfft2``."""
    return irfftn(a, s, _two(axes), norm)


def fftfreq(n: int, d: ArrayLike = 1.0, *, dtype: Any = None, device: Any = None) -> Array:
    """Sample frequencies of ``fft`` for ``n`` points with spacing ``d``."""
    from jax_core._src.numpy.creation import asarray

    dt = dtypes.canonicalize_dtype(dtype) if dtype is not None else dtypes.default_float_dtype()
    n = int(n)
    k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)]).astype(dt)
    return lax.div(asarray(k), lax.mul(lax.convert_element_type(d, dt), np.asarray(n, dt)))


def rfftfreq(n: int, d: ArrayLike = 1.0, *, dtype: Any = None, device: Any = None) -> Array:
    """Sample frequencies of ``rfft`` for ``n`` points with spacing ``d``."""
    from jax_core._src.numpy.creation import asarray

    dt = dtypes.canonicalize_dtype(dtype) if dtype is not None else dtypes.default_float_dtype()
    n = int(n)
    k = np.arange(0, n // 2 + 1).astype(dt)
    return lax.div(asarray(k), lax.mul(lax.convert_element_type(d, dt), np.asarray(n, dt)))


def _shift(x: ArrayLike, axes: int | Sequence[int] | None, inverse: bool, name: str) -> Array:
    from jax_core._src.numpy.manipulation import roll

    check_arraylike(name, x)
    a = ensure_array(x)
    ax = tuple(range(a.ndim)) if axes is None else ((axes,) if isinstance(axes, int) else tuple(axes))
    shifts = [(-(a.shape[i] // 2)) if inverse else a.shape[i] // 2 for i in ax]
    return roll(a, shifts, ax) if ax else a


def fftshift(x: ArrayLike, axes: int | Sequence[int] | None = None) -> Array:
    """Shifts the zero frequency to the centre."""
    return _shift(x, axes, False, "fftshift")


def ifftshift(x: ArrayLike, axes: int | Sequence[int] | None = None) -> Array:
    """Inverse of ``fftshift``."""
    return _shift(x, axes, True, "ifftshift")

