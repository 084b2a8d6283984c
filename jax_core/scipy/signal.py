"""Signal processing, as ``jax.scipy.signal`` (1-D convolve/correlate)."""

from jax_core._src.scipy.signal import convolve as convolve
from jax_core._src.scipy.signal import correlate as correlate
