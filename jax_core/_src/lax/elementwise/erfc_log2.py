"""``erfc`` and ``log2``: elementwise primitives of JAX 0.12's lax with rules of their own.

``erfc``'s jvp is ``-2/sqrt(pi) exp(-x^2) t``, ``log2``'s ``t / (x log 2)``; both batch elementwise."""

from __future__ import annotations

from typing import Any

import numpy as np

import jax_core._src.lax.elementwise.wrappers as lax
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import per_arg_jvp
from jax_core._src.interpreters.batching_util import vectorized_batcher
from jax_core._src.lax.elementwise.rules import const_like
from jax_core._src.lax.standard_rules import is_float, is_real_float, lower_with, unop_abstract_eval
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


# -- erfc -----------------------------------------------------------------------------------------
def erfc(x: ArrayLike, /) -> Array:
    r"""Elementwise complementary error function: :math:`\mathrm{erfc}(x) = 1 - \mathrm{erf}(x)`.

    ``x`` must have a real floating-point dtype; unlike ``1 - erf(x)`` the result keeps its
    relative precision for large ``x``.
    """
    out: Array = erfc_p.bind(x)
    return out


def _erfc_d(g: Any, x: Any, **params: Any) -> Any:
    return lax.mul(const_like(x, -2 / np.sqrt(np.pi)), lax.mul(g, lax.exp(lax.neg(lax.square(x)))))


erfc_p = Primitive("erfc")
erfc_p.def_rules(
    Rules(
        abstract_eval=unop_abstract_eval("erfc", is_real_float),
        lower=lower_with(chlo.erfc),
        jvp=per_arg_jvp(erfc_p, _erfc_d),
        batch=vectorized_batcher(erfc_p),
    )
)


# -- log2 -----------------------------------------------------------------------------------------
def log2(x: ArrayLike, /) -> Array:
    r"""Elementwise base-2 logarithm: :math:`\log_2(x)`.

    ``x`` must have a floating-point or complex dtype. Lowered as ``log(x) / log(2)``, as
    JAX lowers it.
    """
    out: Array = log2_p.bind(x)
    return out


def _log2_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> ir.Value[Any]:
    two = hlo.constant(ir.DenseElementsAttr.get(np.asarray(2, ctx.avals_in[0].dtype), type=x.type))
    out: ir.Value[Any] = hlo.divide(hlo.log(x), hlo.log(two))
    return out


def _log2_d(g: Any, x: Any, **params: Any) -> Any:
    return lax.div(g, lax.mul(x, lax.log(const_like(x, 2))))


log2_p = Primitive("log2")
log2_p.def_rules(
    Rules(
        abstract_eval=unop_abstract_eval("log2", is_float),
        lower=_log2_lower,
        jvp=per_arg_jvp(log2_p, _log2_d),
        batch=vectorized_batcher(log2_p),
    )
)
