"""JAX 0.12's ``jax.extend.core``: primitives, the jaxpr IR, and the trace state, for libraries
that define primitives and inspect or build jaxprs.

Beyond JAX 0.12's names it has ``ShapedArray`` and ``eval_jaxpr`` (JAX keeps them in
``jax.core``; the ``jax.extend`` design puts the IR types here) and ``pp_jaxpr``.

Left out of JAX 0.12's names: ``create_call_primitive``, ``register_call_primitive_rules`` and
``eval_jaxpr_transpose`` (JAX's machinery for call primitives: jax_core's one call primitive is
``jit_p``, whose rules are in its ``Rules`` record).
"""

from jax_core._src.core.avals import ShapedArray as ShapedArray
from jax_core._src.core.effects import Effect as Effect
from jax_core._src.core.effects import Effects as Effects
from jax_core._src.core.effects import no_effects as no_effects
from jax_core._src.core.errors import InconclusiveDimensionOperation as InconclusiveDimensionOperation
from jax_core._src.core.errors import JaxprTypeError as JaxprTypeError
from jax_core._src.core.jaxpr import ClosedJaxpr as ClosedJaxpr
from jax_core._src.core.jaxpr import Jaxpr as Jaxpr
from jax_core._src.core.jaxpr import JaxprEqn as JaxprEqn
from jax_core._src.core.jaxpr import Literal as Literal
from jax_core._src.core.jaxpr import Var as Var
from jax_core._src.core.jaxpr import eval_jaxpr as eval_jaxpr
from jax_core._src.core.jaxpr_check import check_jaxpr as check_jaxpr
from jax_core._src.core.primitive import Primitive as Primitive
from jax_core._src.core.tokens import AbstractToken as AbstractToken
from jax_core._src.core.tokens import Token as Token
from jax_core._src.core.trace import set_current_trace as set_current_trace
from jax_core._src.extend.jaxpr_api import DropVar as DropVar
from jax_core._src.extend.jaxpr_api import TraceTag as TraceTag
from jax_core._src.extend.jaxpr_api import array_types as array_types
from jax_core._src.extend.jaxpr_api import concrete_or_error as concrete_or_error
from jax_core._src.extend.jaxpr_api import find_top_trace as find_top_trace
from jax_core._src.extend.jaxpr_api import gensym as gensym
from jax_core._src.extend.jaxpr_api import get_opaque_trace_state as get_opaque_trace_state
from jax_core._src.extend.jaxpr_api import jaxpr_as_fun as jaxpr_as_fun
from jax_core._src.extend.jaxpr_api import jaxprs_in_params as jaxprs_in_params
from jax_core._src.extend.jaxpr_api import mapped_aval as mapped_aval
from jax_core._src.extend.jaxpr_api import new_jaxpr_eqn as new_jaxpr_eqn
from jax_core._src.extend.jaxpr_api import nonempty_axis_env_DO_NOT_USE as nonempty_axis_env_DO_NOT_USE
from jax_core._src.extend.jaxpr_api import pp_jaxpr as pp_jaxpr
from jax_core._src.extend.jaxpr_api import subjaxprs as subjaxprs
from jax_core._src.extend.jaxpr_api import take_current_trace as take_current_trace
from jax_core._src.extend.jaxpr_api import unmapped_aval as unmapped_aval
from jax_core._src.extend.jaxpr_api import unsafe_am_i_under_a_jit_DO_NOT_USE as unsafe_am_i_under_a_jit_DO_NOT_USE
from jax_core._src.extend.jaxpr_api import unsafe_am_i_under_a_vmap_DO_NOT_USE as unsafe_am_i_under_a_vmap_DO_NOT_USE
from jax_core._src.extend.jaxpr_api import unsafe_get_axis_names_DO_NOT_USE as unsafe_get_axis_names_DO_NOT_USE
from jax_core._src.extend.jaxpr_api import valid_jaxtype as valid_jaxtype
from jax_core._src.interpreters.ad_util import tangent_dtype
from jax_core._src.interpreters.staging import DebugInfo as DebugInfo
from jax_core.extend.core import primitives as primitives

primal_dtype_to_tangent_dtype = tangent_dtype
"""The dtype of tangents for values of a dtype (``float0`` for integers, bools and keys)."""
