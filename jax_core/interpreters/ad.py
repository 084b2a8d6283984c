"""JAX's ``jax.interpreters.ad``: jvp and transpose rules (``Rules.jvp``, ``Rules.transpose``),
symbolic zeros and undefined primals.

Left out of JAX 0.12's names: ``jvp`` and ``linearize`` (transformations of JAX's internal
``WrappedFun``; use ``jax_core.jvp``/``jax_core.linearize``) and ``annotations``.
"""

from jax_core._src.extend.ad_rules import add_jaxvals as add_jaxvals
from jax_core._src.extend.ad_rules import add_jaxvals_p as add_jaxvals_p
from jax_core._src.extend.ad_rules import backward_pass as backward_pass
from jax_core._src.extend.ad_rules import defbilinear as defbilinear
from jax_core._src.extend.ad_rules import defjvp as defjvp
from jax_core._src.extend.ad_rules import defjvp2 as defjvp2
from jax_core._src.extend.ad_rules import deflinear as deflinear
from jax_core._src.extend.ad_rules import deflinear2 as deflinear2
from jax_core._src.extend.ad_rules import get_primitive_transpose as get_primitive_transpose
from jax_core._src.extend.ad_rules import primitive_jvps as primitive_jvps
from jax_core._src.extend.ad_rules import primitive_transposes as primitive_transposes
from jax_core._src.interpreters.ad import JVPTrace as JVPTrace
from jax_core._src.interpreters.ad import JVPTracer as JVPTracer
from jax_core._src.interpreters.ad import jvp_jaxpr as jvp_jaxpr
from jax_core._src.interpreters.ad_util import UndefinedPrimal as UndefinedPrimal
from jax_core._src.interpreters.ad_util import Zero as Zero
from jax_core._src.interpreters.ad_util import add_tangents as add_tangents
from jax_core._src.interpreters.ad_util import instantiate_zeros as instantiate_zeros
from jax_core._src.interpreters.ad_util import is_undefined_primal as is_undefined_primal
from jax_core._src.interpreters.ad_util import zeros_like_aval as zeros_like_aval
