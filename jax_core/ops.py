"""Segment reductions, as ``jax.ops``."""

from jax_core._src.ops.segment import segment_max as segment_max
from jax_core._src.ops.segment import segment_min as segment_min
from jax_core._src.ops.segment import segment_prod as segment_prod
from jax_core._src.ops.segment import segment_sum as segment_sum
