"""jax_core.scipy.signal against scipy.signal."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ssig

import jax_core.scipy.signal as jsig

rng = np.random.default_rng(4)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n1,n2", [(7, 3), (3, 7), (5, 5)])
def test_convolve_correlate(mode: str, n1: int, n2: int) -> None:
    a = rng.standard_normal(n1).astype(np.float32)
    b = rng.standard_normal(n2).astype(np.float32)
    np.testing.assert_allclose(np.asarray(jsig.convolve(a, b, mode=mode)), ssig.convolve(a, b, mode=mode), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(jsig.correlate(a, b, mode=mode)), ssig.correlate(a, b, mode=mode), rtol=1e-5, atol=1e-5)


def test_errors() -> None:
    with pytest.raises(NotImplementedError, match="1-D"):
        jsig.convolve(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="mode"):
        jsig.convolve(np.ones(3), np.ones(2), mode="bad")
