"""jax_core.scipy: SciPy-style functions on jax_core arrays (special, stats, linalg, signal, fft)."""

from jax_core.scipy import fft as fft
from jax_core.scipy import linalg as linalg
from jax_core.scipy import signal as signal
from jax_core.scipy import special as special
from jax_core.scipy import stats as stats
