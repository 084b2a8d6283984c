"""The operand checks JAX's linear-algebra primitives share (its ``linalg_primitive`` rules).

Each primitive states, per operand, the rank of its matrix (or vector) part and the dtypes it
accepts; the leading dimensions are batch dimensions and must agree in number. The messages are
JAX's: a rank error is a ``TypeError`` naming the input, a dtype error names the position and the
accepted dtypes, and operands of different dtypes are refused where JAX requires one dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray

FLOAT: tuple[np.dtype[Any], ...] = (np.dtype(np.float32), np.dtype(np.float64))
INEXACT: tuple[np.dtype[Any], ...] = (np.dtype(np.float32), np.dtype(np.complex128), np.dtype(np.complex64), np.dtype(np.float64))
INT32: tuple[np.dtype[Any], ...] = (np.dtype(np.int32),)


def split_batch(
    name: str, avals: Sequence[ShapedArray], ranks: Sequence[int], *, batching: bool = True
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """The common batch dimensions and each operand's trailing ``rank`` dimensions."""
    batches: list[tuple[int, ...]] = []
    cores: list[tuple[int, ...]] = []
    for i, (rank, aval) in enumerate(zip(ranks, avals, strict=True)):
        shape = tuple(aval.shape)
        if len(shape) < rank:
            raise TypeError(f"Input {i} to {name} must have rank at least {rank}, but got shape={shape}")
        if not batching and len(shape) != rank:
            raise TypeError(f"Input {i} to {name} must have a rank of exactly {rank}, but got shape={shape}")
        batches.append(shape[: len(shape) - rank])
        cores.append(shape[len(shape) - rank :])
    if any(len(b) != len(batches[0]) for b in batches):
        raise TypeError(
            f"All inputs to {name} must have the same number of batch dimensions, but got "
            f"{[len(b) for b in batches]} batch dimensions for the inputs."
        )
    return batches[0], cores


def check_dtypes(
    name: str, avals: Sequence[ShapedArray], accepted: Sequence[Sequence[np.dtype[Any]]], *, same: bool = True
) -> np.dtype[Any]:
    """Each operand's dtype against its accepted set, then (``same``) one dtype for all."""
    for i, (aval, ok) in enumerate(zip(avals, accepted, strict=True)):
        if aval.dtype not in ok:
            names = ", ".join(str(d) for d in ok)
            raise TypeError(
                f"{name} does not accept dtype {aval.dtype} at position {i}. "
                f"Accepted dtypes at position {i} are subtypes of {names}."
            )
    if same and len({a.dtype for a in avals}) > 1:
        raise TypeError(f"lax.{name} requires arguments to have the same dtypes, got {', '.join(str(a.dtype) for a in avals)}.")
    return avals[0].dtype


def real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The real counterpart of an inexact dtype."""
    return np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64) if dtype == np.complex128 else dtype
