"""jax_core.scipy.signal: convolve/correlate (1-D through jnp.convolve/jnp.correlate)."""

from __future__ import annotations

from typing import Any

from jax_core._src.basearray import Array
from jax_core._src.numpy.util import check_arraylike
from jax_core._src.typing import ArrayLike
import jax_core.numpy as jnp

__all__ = ["convolve", "correlate"]


def _check(name: str, in1: ArrayLike, in2: ArrayLike, mode: str, method: str) -> tuple[Array, Array]:
    check_arraylike(name, in1, in2)
    a, b = jnp.asarray(in1), jnp.asarray(in2)
    if mode not in ("full", "same", "valid"):
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"Unrecognized method={method!r}. Must be one of ['auto', 'direct', 'fft']")
    if a.ndim != b.ndim:
        raise ValueError(f"{name}: in1 and in2 should have the same dimensionality, got {a.ndim} and {b.ndim}")
    if a.ndim != 1:
        raise NotImplementedError(f"jax_core.scipy.signal.{name} supports 1-D inputs only; got {a.ndim}-D "
                                  "(N-D convolution is not implemented yet: use jax_core.lax.conv_general_dilated).")
    return a, b


def convolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto", precision: Any = None) -> Array:
    """Convolution of two 1-D arrays with scipy.signal's ``mode`` ('full', 'same', 'valid')."""
    a, b = _check("convolve", in1, in2, mode, method)
    if mode == "valid" and a.shape[0] < b.shape[0]:
        a, b = b, a
    if mode == "same":
        full = jnp.convolve(a, b, mode="full", precision=precision)
        start = (b.shape[0] - 1) // 2
        return full[start:start + a.shape[0]]
    return jnp.convolve(a, b, mode=mode, precision=precision)


def correlate(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto", precision: Any = None) -> Array:
    """Cross-correlation of two 1-D arrays, ``convolve(in1, conj(in2[::-1]))``."""
    a, b = _check("correlate", in1, in2, mode, method)
    return convolve(a, jnp.conj(b[::-1]), mode=mode, method=method, precision=precision)
