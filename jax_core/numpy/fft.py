"""``jax_core.numpy.fft``: discrete Fourier transforms (NumPy's API, XLA's FFT)."""

from jax_core._src.numpy.fft import fft as fft
from jax_core._src.numpy.fft import fft2 as fft2
from jax_core._src.numpy.fft import fftfreq as fftfreq
from jax_core._src.numpy.fft import fftn as fftn
from jax_core._src.numpy.fft import fftshift as fftshift
from jax_core._src.numpy.fft import hfft as hfft
from jax_core._src.numpy.fft import ifft as ifft
from jax_core._src.numpy.fft import ifft2 as ifft2
from jax_core._src.numpy.fft import ifftn as ifftn
from jax_core._src.numpy.fft import ifftshift as ifftshift
from jax_core._src.numpy.fft import ihfft as ihfft
from jax_core._src.numpy.fft import irfft as irfft
from jax_core._src.numpy.fft import irfft2 as irfft2
from jax_core._src.numpy.fft import irfftn as irfftn
from jax_core._src.numpy.fft import rfft as rfft
from jax_core._src.numpy.fft import rfft2 as rfft2
from jax_core._src.numpy.fft import rfftfreq as rfftfreq
from jax_core._src.numpy.fft import rfftn as rfftn
