"""``jax_core.numpy.linalg``: linear algebra (NumPy's API)."""

from jax_core._src.numpy.linalg import eigvals as eigvals
from jax_core._src.numpy.linalg import lstsq as lstsq
