"""JAX's ``jax.extend``: the second-tier API for libraries that extend the system — defining
primitives and their rules (``core``, ``interpreters``, ``mlir``), PRNG implementations
(``random``), backends (``backend``), XLA's sharding format (``sharding``), JAX's function-wrapping
utilities (``linear_util``) and source locations (``source_info_util``). See docs/extending.md.

Left out of JAX 0.12's submodules: ``pallas`` (Pallas kernels), ``lowering`` and ``xla`` (JAX's
internal lowering entry points) and ``ifrt_programs``.
"""

from jax_core.extend import backend as backend
from jax_core.extend import core as core
from jax_core.extend import interpreters as interpreters
from jax_core.extend import linear_util as linear_util
from jax_core.extend import mlir as mlir
from jax_core.extend import random as random
from jax_core.extend import sharding as sharding
from jax_core.extend import source_info_util as source_info_util
