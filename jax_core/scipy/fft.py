"""Discrete cosine transforms, as ``jax.scipy.fft``."""

from jax_core._src.scipy.fft import dct as dct
from jax_core._src.scipy.fft import dctn as dctn
from jax_core._src.scipy.fft import idct as idct
from jax_core._src.scipy.fft import idctn as idctn
