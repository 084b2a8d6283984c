"""JAX's ``jax.interpreters.batching``: batching rules (``Rules.batch``) and their helpers.

Left out of JAX 0.12's names: ``fancy_primitive_batchers`` and ``axis_primitive_batchers`` (rules
given JAX's internal ``AxisData``), ``batch_subtrace``, ``batch_jaxpr_axes``,
``register_vmappable``/``unregister_vmappable`` and ``zero_if_mapped``.
"""

from jax_core._src.extend.batching_rules import bdim_at_front as bdim_at_front
from jax_core._src.extend.batching_rules import broadcast as broadcast
from jax_core._src.extend.batching_rules import defbroadcasting as defbroadcasting
from jax_core._src.extend.batching_rules import defreducer as defreducer
from jax_core._src.extend.batching_rules import defvectorized as defvectorized
from jax_core._src.extend.batching_rules import not_mapped as not_mapped
from jax_core._src.extend.batching_rules import primitive_batchers as primitive_batchers
from jax_core._src.interpreters.batching import BatchTrace as BatchTrace
from jax_core._src.interpreters.batching import BatchTracer as BatchTracer
