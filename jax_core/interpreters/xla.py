"""JAX's ``jax.interpreters.xla``: ``apply_primitive`` (eager evaluation of one primitive).

Left out of JAX 0.12's names: ``Backend`` (see ``jax_core.extend.backend``) and
``canonicalize_dtype_handlers``.
"""

from jax_core._src.extend.staging_rules import apply_primitive as apply_primitive
