"""JAX's ``jax.interpreters``: registering a primitive's autodiff (``ad``), batching (``batching``),
lowering (``mlir``) and staging (``partial_eval``) rules. Each registry writes into the
primitive's one ``Rules`` record (docs/extending.md)."""

from jax_core.interpreters import ad as ad
from jax_core.interpreters import batching as batching
from jax_core.interpreters import mlir as mlir
from jax_core.interpreters import partial_eval as partial_eval
from jax_core.interpreters import xla as xla
