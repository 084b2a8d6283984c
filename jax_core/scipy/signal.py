"""Signal processing, as ``jax.scipy.signal``: convolution (direct and FFT), detrending, and
spectral analysis (stft, istft, csd, welch)."""

from jax_core._src.scipy.signal import convolve as convolve
from jax_core._src.scipy.signal import convolve2d as convolve2d
from jax_core._src.scipy.signal import correlate as correlate
from jax_core._src.scipy.signal import correlate2d as correlate2d
from jax_core._src.scipy.signal import detrend as detrend
from jax_core._src.scipy.signal import fftconvolve as fftconvolve
from jax_core._src.scipy.signal_spectral import csd as csd
from jax_core._src.scipy.signal_spectral import istft as istft
from jax_core._src.scipy.signal_spectral import stft as stft
from jax_core._src.scipy.signal_spectral import welch as welch
