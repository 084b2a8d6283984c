"""The ``jax.extend`` design's ``jax.extend.interpreters`` (seed 000): the rule registries of
``jax_core.interpreters`` under ``jax_core.extend`` (``from jax_core.extend.interpreters import mlir``)."""

from jax_core.interpreters import ad as ad
from jax_core.interpreters import batching as batching
from jax_core.interpreters import mlir as mlir
from jax_core.interpreters import partial_eval as partial_eval
