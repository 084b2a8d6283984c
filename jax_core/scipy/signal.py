"""Signal processing, as ``jax.scipy.signal`` (N-d convolve/correlate, 2-d variants)."""

from jax_core._src.scipy.signal import convolve as convolve
from jax_core._src.scipy.signal import convolve2d as convolve2d
from jax_core._src.scipy.signal import correlate as correlate
from jax_core._src.scipy.signal import correlate2d as correlate2d
