"""jax_core.scipy: SciPy-style functions on jax_core arrays (special, stats, linalg, signal, fft,
ndimage, interpolate, integrate, cluster, optimize, sparse, spatial)."""

from jax_core.scipy import cluster as cluster
from jax_core.scipy import fft as fft
from jax_core.scipy import integrate as integrate
from jax_core.scipy import interpolate as interpolate
from jax_core.scipy import linalg as linalg
from jax_core.scipy import ndimage as ndimage
from jax_core.scipy import signal as signal
from jax_core.scipy import sparse as sparse
from jax_core.scipy import special as special
from jax_core.scipy import stats as stats
