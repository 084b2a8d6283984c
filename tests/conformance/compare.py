"""What counts as the same outcome, and the kinds of mismatch."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.conformance.runner import Result
from tests.conformance.spec import ULPS

KINDS = ("raises-here", "raises-there", "error-class", "structure", "shape", "dtype", "weak", "value", "crash")


def _ordered(bits: np.ndarray[Any, Any], width: int) -> np.ndarray[Any, Any]:
    """Float bit patterns mapped to integers that are monotonic in the float's value."""
    b = bits.astype(np.int64)
    sign = np.int64(1) << (width - 1)
    return np.where(b & sign, -(b & (sign - 1)), b)


def ulp_distance(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Per element, how many representable values lie between a and b (floats of one dtype)."""
    width = a.dtype.itemsize * 8
    ints = {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
    ia = _ordered(a.view(ints), width)
    ib = _ordered(b.view(ints), width)
    return np.abs(ia - ib)


def _floats_equal(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], ulps: int) -> bool:
    if a.dtype.kind == "c":
        return _floats_equal(a.real.copy(), b.real.copy(), ulps) and _floats_equal(a.imag.copy(), b.imag.copy(), ulps)
    an, bn = np.isnan(a.astype(np.float64)), np.isnan(b.astype(np.float64))
    if not np.array_equal(an, bn):
        return False
    a, b = a[~an], b[~bn]
    if ulps == 0:
        return a.tobytes() == b.tobytes()
    allowed = ULPS.get(a.dtype.name, 8) * ulps
    if a.dtype.itemsize == 8:  # int64 arithmetic on the ordered patterns overflows: compare close
        return bool(np.all((a == b) | (np.abs(a - b) <= allowed * np.spacing(np.abs(b)))))
    return bool(np.all(ulp_distance(a, b) <= allowed))


RECORDED_RTOL = {"float16": 4e-3, "bfloat16": 3e-2, "float32": 2e-5, "complex64": 2e-5,
                 "float64": 1e-12, "complex128": 1e-12}  # fmt: skip
"""Relative tolerance (times a ``~`` line's factor) for floats recorded from JAX on another CPU."""


def _close(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], ulps: int) -> bool:
    rtol = RECORDED_RTOL.get(a.dtype.name, 2e-5) * max(ulps, 1)
    x, y = a.astype(np.complex128), b.astype(np.complex128)
    return bool(np.allclose(x, y, rtol=rtol, atol=rtol * 1e-3, equal_nan=True))


def mismatch(ours: Result, theirs: Result, ulps: int, *, recorded: bool = False) -> str | None:
    """The kind of difference between jax_core's and JAX's outcome, or None when they agree
    (``recorded``: JAX's outcome came from another machine, so floats agree within a tolerance)."""
    if ours.error in ("crash", "hang"):
        return "crash"
    if theirs.leaves is None:
        if ours.leaves is not None:
            return "raises-there"
        return None if ours.error == theirs.error else "error-class"
    if ours.leaves is None:
        return "raises-here"
    if len(ours.leaves) != len(theirs.leaves):
        return "structure"
    for a, b, wa, wb in zip(ours.leaves, theirs.leaves, ours.weak, theirs.weak, strict=True):
        if a.shape != b.shape:
            return "shape"
        if a.dtype != b.dtype:
            return "dtype"
        if wa != wb:
            return "weak"
        if a.dtype.kind in "fc" or a.dtype.name in ULPS or a.dtype.name == "bfloat16":
            if not (_close(a, b, ulps) if recorded else _floats_equal(a, b, ulps)):
                return "value"
        elif a.tobytes() != b.tobytes():
            return "value"
    return None
