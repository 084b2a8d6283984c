"""JAX's ``jax.interpreters.partial_eval``: dead-code elimination rules (``Rules.dce``) and jaxpr
utilities.

Left out of JAX 0.12's names: JAX's partial-evaluation machinery over its internal
``WrappedFun`` and recipes (``trace_to_jaxpr_dynamic``, ``trace_to_jaxpr_nounits``,
``partial_eval_jaxpr_nounits``, ``PartialVal``, ``new_eqn_recipe``, ``abstract_eval_fun``,
``Val``, ``lower_jaxpr``/``lower_jaxpr2``, ``move_binders_to_back``,
``prune_closed_jaxpr_outputs``, ``dce_jaxpr_consts``, ``dce_jaxpr_call_rule``, ``dce_jaxpr_closed_call_rule``) and the rule
tables ``custom_partial_eval_rules``/``partial_eval_jaxpr_custom_rules`` (jax_core's
``Rules.partial_eval`` has its own contract; use ``make_jaxpr`` to stage functions).
"""

from jax_core._src.extend.staging_rules import close_jaxpr as close_jaxpr
from jax_core._src.extend.staging_rules import convert_constvars_jaxpr as convert_constvars_jaxpr
from jax_core._src.extend.staging_rules import dce_jaxpr as dce_jaxpr
from jax_core._src.extend.staging_rules import dce_rules as dce_rules
from jax_core._src.interpreters.staging import JaxprTracer as JaxprTracer

DynamicJaxprTracer = JaxprTracer
"""The tracer of staged values (JAX's name for it under ``jit``)."""
