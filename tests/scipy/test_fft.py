"""jax_core.scipy.fft against scipy.fft."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft as sf

import jax_core.scipy.fft as jfft

rng = np.random.default_rng(5)
X = rng.standard_normal((3, 6)).astype(np.float32)


@pytest.mark.parametrize("norm", [None, "ortho"])
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("n", [None, 4, 8])
def test_dct_idct(norm: str | None, axis: int, n: int | None) -> None:
    np.testing.assert_allclose(np.asarray(jfft.dct(X, n=n, axis=axis, norm=norm)), sf.dct(X, n=n, axis=axis, norm=norm), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(jfft.idct(X, n=n, axis=axis, norm=norm)), sf.idct(X, n=n, axis=axis, norm=norm), rtol=1e-4, atol=1e-4)


def test_dctn() -> None:
    for norm in (None, "ortho"):
        np.testing.assert_allclose(np.asarray(jfft.dctn(X, norm=norm)), sf.dctn(X, norm=norm), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(np.asarray(jfft.idctn(X, s=(4,), norm=norm)), sf.idctn(X, s=(4,), norm=norm), rtol=1e-4, atol=1e-4)
    with pytest.raises(NotImplementedError):
        jfft.dct(X, type=3)
