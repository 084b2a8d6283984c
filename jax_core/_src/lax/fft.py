"""``fft``: XLA's FFT over the trailing 1-3 dimensions (complex FFT/IFFT, real RFFT/IRFFT).

Linear: the jvp applies the same transform to the tangent; the transposes are JAX's
(FFT and IFFT are their own transposes, RFFT's pads and takes the real part of an FFT,
IRFFT's is a scaled, conjugated RFFT). Batching moves the batch axis to the front.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import linear_jvp
from jax_core._src.interpreters.batching_util import moveaxis
from jax_core._src.lax import elementwise as _lax
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DType
from jax_core._src.typing.basearray import Array


class FftType(enum.IntEnum):
    """The kind of transform: complex forward/inverse, real-to-complex, complex-to-real."""

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


def _complex_of(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.complex128) if dt == np.float64 else np.dtype(np.complex64)


def _real_of(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float64) if dt == np.complex128 else np.dtype(np.float32)


def _abstract_eval(x: ShapedArray, *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> ShapedArray:
    k = len(fft_lengths)
    if not 1 <= k <= 3:
        raise ValueError(f"fft_lengths must have 1 to 3 entries, got {fft_lengths}")
    if x.ndim < k:
        raise ValueError(f"FFT input shape {x.shape} must have at least as many input dimensions as fft_lengths {fft_lengths}.")
    if fft_type == FftType.RFFT:
        if x.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")
        if x.shape[-k:] != fft_lengths:
            raise ValueError(f"RFFT input shape {x.shape} minor dimensions must be equal to fft_lengths {fft_lengths}")
        return ShapedArray((*x.shape[:-1], fft_lengths[-1] // 2 + 1), _complex_of(x.dtype))
    if x.dtype not in (np.dtype(np.complex64), np.dtype(np.complex128)):
        raise ValueError(f"{'IRFFT' if fft_type == FftType.IRFFT else 'FFT'} input must be complex64 or complex128, got {x.dtype}")
    if fft_type == FftType.IRFFT:
        if x.shape[-k:-1] != fft_lengths[:-1] or x.shape[-1] != fft_lengths[-1] // 2 + 1:
            raise ValueError(f"IRFFT input shape {x.shape} must match fft_lengths {fft_lengths} (last dimension n // 2 + 1)")
        return ShapedArray((*x.shape[:-1], fft_lengths[-1]), _real_of(x.dtype))
    if x.shape[-k:] != fft_lengths:
        raise ValueError(f"FFT input shape {x.shape} minor dimensions must be equal to fft_lengths {fft_lengths}")
    return ShapedArray(x.shape, x.dtype)


def _lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.fft(
        x, hlo.FftTypeAttr.get(fft_type.name), list(fft_lengths), results=[aval_to_ir_type(ctx.avals_out[0])]
    )
    return out


def _transpose(ct: Any, x: Any, *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> list[Any]:
    from jax_core._src.lax import elementwise as lax
    from jax_core._src.lax.shape import assembly as shape_assembly

    if fft_type == FftType.RFFT:
        n = fft_lengths[-1]
        from jax_core._src.core.trace import get_aval

        aval = get_aval(ct)
        pad = [(0, 0, 0)] * (aval.ndim - 1) + [(0, n - aval.shape[-1], 0)]
        full = shape_assembly.pad(ct, np.zeros((), aval.dtype), pad)
        return [lax.real(fft(full, FftType.FFT, fft_lengths))]
    if fft_type == FftType.IRFFT:
        y = fft(ct, FftType.RFFT, fft_lengths)
        m = y.shape[-1]
        odd = fft_lengths[-1] % 2
        mask = np.concatenate([np.ones(1), np.full(m - 2 + odd, 2.0), np.ones(1 - odd)])[:m].astype(y.dtype)
        scale = np.asarray(1.0 / math.prod(fft_lengths), y.dtype)
        return [lax.conj(lax.mul(lax.mul(y, np.broadcast_to(mask, y.shape)), scale))]
    return [fft(ct, fft_type, fft_lengths)]


def _batch(args: Sequence[Any], dims: Sequence[int | None], *, fft_type: FftType, fft_lengths: tuple[int, ...]) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    x = moveaxis(x, d, 0)
    return fft(x, fft_type, fft_lengths), 0


fft_p: Primitive = Primitive("fft")
fft_p.def_rules(Rules(abstract_eval=_abstract_eval, lower=_lower, jvp=linear_jvp(fft_p), transpose=_transpose, batch=_batch))


# -- dtypes and FFT -----------------------------------------------------------------------------
def dtype(x: Any) -> DType:
    """The canonical dtype of ``x`` (a value, a type or a dtype name), as ``jax.lax.dtype``.

    64-bit types become 32-bit ones unless x64 is enabled.
    """
    return dtypes.dtype(x, canonicalize=True)


_FFT_NAMES = {**{t.name.lower(): t for t in FftType}, **{t.name: t for t in FftType}}


def _input_complex_dtype(dt: DType) -> DType:
    if dtypes.issubdtype(dt, np.complexfloating):
        return dt
    if dt == np.float64:
        return np.dtype(np.complex128)
    if dtypes.issubdtype(dt, np.floating):
        return np.dtype(np.complex64)
    return dtypes.canonicalize_dtype(np.complex128)


def fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    """The ``fft_type`` transform (FFT, IFFT, RFFT, IRFFT) of the trailing ``len(fft_lengths)``
    dimensions of ``x``.

    ``x`` is converted to the complex (or, for RFFT, real inexact) dtype first; empty
    ``fft_lengths`` returns the converted ``x``. ``fft_type`` is a ``FftType`` or one of
    ``"fft"``, ``"ifft"``, ``"rfft"``, ``"irfft"`` (either case).
    """
    kind = cast(object, fft_type)  # checked at run time, as in JAX
    if isinstance(kind, str):
        found = _FFT_NAMES.get(kind)
        if found is None:
            raise ValueError(f"Unknown FFT type '{fft_type}'")
        typ = found
    elif isinstance(kind, FftType):
        typ = kind
    else:
        raise TypeError(f"Unknown FFT type value '{fft_type}'")
    dt = dtypes.dtype(x, canonicalize=True)
    if typ == FftType.RFFT:
        if dtypes.issubdtype(dt, np.complexfloating):
            raise ValueError("only real valued inputs supported for rfft")
        target = dt if dtypes.issubdtype(dt, np.inexact) else dtypes.canonicalize_dtype(np.float64)
    else:
        target = _input_complex_dtype(dt)
    converted = _lax.convert_element_type(x, target)
    if len(fft_lengths) == 0:
        return converted
    out: Array = fft_p.bind(converted, fft_type=typ, fft_lengths=tuple(int(n) for n in fft_lengths))
    return out
