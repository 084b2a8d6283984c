"""Comparison within a few ulps, for the few results where jax_core's lower layers reach a value
by other XLA operations than JAX (each use states why)."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from tests.oracle.client import Outcome


def close(ours: Outcome, theirs: Outcome, what: str, ulps: int = 16) -> None:
    """The same exception class, or leaves of the same dtype and shape within ``ulps`` ulps of each
    element or (for elements that cancel, as in gradients) of the largest one."""
    if theirs.leaves is None or ours.leaves is None:
        assert (ours.error, ours.leaves is None) == (theirs.error, theirs.leaves is None), what
        return
    assert len(ours.leaves) == len(theirs.leaves), what
    for a, b in zip(ours.leaves, theirs.leaves, strict=True):
        assert (a.dtype, a.shape) == (b.dtype, b.shape), what
        eps = float(ml_dtypes.finfo(a.dtype).eps) if a.dtype.kind in "fcV" else 0.0
        wide = np.complex128 if a.dtype.kind == "c" else np.float64
        want = b.astype(wide)
        finite = np.abs(want[np.isfinite(want)])
        scale = float(finite.max()) if finite.size else 0.0
        np.testing.assert_allclose(a.astype(wide), want, rtol=ulps * eps, atol=ulps * eps * scale, err_msg=what)
