"""jax_core.scipy.signal against scipy.signal (1-d to 3-d, real and complex), and JAX's errors."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scipy.signal as ssig

import jax_core as jax
import jax_core.scipy.signal as jsig
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

rng = np.random.default_rng(4)


def _x(shape: tuple[int, ...], complex_: bool = False) -> np.ndarray[Any, Any]:
    x = rng.standard_normal(shape)
    return (x + 1j * rng.standard_normal(shape)).astype(np.complex64) if complex_ else x.astype(np.float32)


def _close(got: Any, want: np.ndarray[Any, Any]) -> None:
    assert np.asarray(got).shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("n1,n2", [(7, 3), (3, 7), (5, 5)])
def test_convolve_correlate(mode: str, n1: int, n2: int) -> None:
    a, b = _x((n1,)), _x((n2,))
    _close(jsig.convolve(a, b, mode=mode), ssig.convolve(a, b, mode=mode))
    _close(jsig.correlate(a, b, mode=mode), ssig.correlate(a, b, mode=mode))


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize(
    "s1,s2",
    [((5, 6), (3, 2)), ((2, 3), (4, 5)), ((4, 4), (4, 4)), ((4, 3, 5), (2, 3, 2)), ((2, 2, 3), (3, 4, 3))],
)
@pytest.mark.parametrize("complex_", [False, True], ids=["f32", "c64"])
def test_convolve_correlate_nd(mode: str, s1: tuple[int, ...], s2: tuple[int, ...], complex_: bool) -> None:
    a, b = _x(s1, complex_), _x(s2, complex_)
    _close(jsig.convolve(a, b, mode=mode, method="direct"), ssig.convolve(a, b, mode=mode, method="direct"))
    _close(jsig.correlate(a, b, mode=mode), ssig.correlate(a, b, mode=mode, method="direct"))
    if len(s1) == 2:
        _close(jsig.convolve2d(a, b, mode=mode), ssig.convolve2d(a, b, mode=mode))
        _close(jsig.correlate2d(a, b, mode=mode), ssig.correlate2d(a, b, mode=mode))


def test_dtypes_grad_and_jit() -> None:
    assert jsig.convolve(np.arange(3), np.arange(2)).dtype == np.float32  # inexact, as in JAX
    a, b = _x((4, 5)), _x((2, 3))
    _close(jax.jit(lambda x, y: jsig.convolve(x, y))(a, b), ssig.convolve(a, b))
    with enable_x64(True):
        check_grads(lambda x, y: jsig.correlate(x, y, mode="same"), (a.astype(np.float64), b.astype(np.float64)), order=2)


ERRORS: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("method", lambda: jsig.convolve(np.ones(3), np.ones(2), method="bad"), ValueError,
     "Got method='bad'; expected 'auto', 'fft', or 'direct'."),
    ("mode", lambda: jsig.convolve(np.ones(3), np.ones(2), mode="bad"), ValueError,
     "mode must be one of ['full', 'same', 'valid']"),
    ("ndim", lambda: jsig.convolve(np.ones((3, 3)), np.ones(2)), ValueError,
     "in1 and in2 must have the same number of dimensions"),
    ("empty", lambda: jsig.convolve(np.ones((3, 0)), np.ones((2, 0))), ValueError,
     "zero-size arrays not supported in convolutions, got shapes (3, 0) and (2, 0)."),
    ("swap", lambda: jsig.convolve(np.ones((3, 2)), np.ones((2, 3))), ValueError,
     "One input must be smaller than the other in every dimension."),
    ("c2d_boundary", lambda: jsig.convolve2d(np.ones((3, 3)), np.ones((2, 2)), boundary="wrap"),
     NotImplementedError, "convolve2d() only supports boundary='fill', fillvalue=0"),
    ("c2d_ndim", lambda: jsig.convolve2d(np.ones(3), np.ones(2)), ValueError,
     "convolve2d() only supports 2-dimensional inputs."),
    ("corr2d_ndim", lambda: jsig.correlate2d(np.ones(3), np.ones(2)), ValueError,
     "correlate2d() only supports 2-dimensional inputs."),
]


@pytest.mark.parametrize(("call", "exc", "msg"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_errors(call: Callable[[], object], exc: type[Exception], msg: str) -> None:
    with pytest.raises(exc, match=f"^{re.escape(msg)}$"):
        call()
