"""Linear algebra with SciPy's signatures, as ``jax.scipy.linalg``."""

from jax_core._src.scipy.linalg import block_diag as block_diag
from jax_core._src.scipy.linalg import cho_factor as cho_factor
from jax_core._src.scipy.linalg import cho_solve as cho_solve
from jax_core._src.scipy.linalg import cholesky as cholesky
from jax_core._src.scipy.linalg import det as det
from jax_core._src.scipy.linalg import eigh as eigh
from jax_core._src.scipy.linalg import expm as expm
from jax_core._src.scipy.linalg import inv as inv
from jax_core._src.scipy.linalg import lu as lu
from jax_core._src.scipy.linalg import lu_factor as lu_factor
from jax_core._src.scipy.linalg import lu_solve as lu_solve
from jax_core._src.scipy.linalg import qr as qr
from jax_core._src.scipy.linalg import solve as solve
from jax_core._src.scipy.linalg import solve_triangular as solve_triangular
from jax_core._src.scipy.linalg import svd as svd
