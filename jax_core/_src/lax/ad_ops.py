"""Primitives that are the identity on values: ``stop_gradient``, ``checkpoint_name`` and
``copy``.

``stop_gradient`` has a zero tangent; ``name`` tags a value so ``checkpoint`` policies
(``save_only_these_names``) can pick it out; ``copy`` gives a new buffer (``x.copy()``,
``jnp.array(x, copy=True)``), staged as an equation as JAX does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import Zero, linear_jvp, linear_transpose
from jax_core._src.interpreters.batching_util import vectorized_batcher
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_map

T = TypeVar("T")


def _identity_abstract_eval(x: ShapedArray, **params: Any) -> ShapedArray:
    return x


def _identity_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], **params: Any) -> ir.Value[ir.Type]:
    return x


def _stop_gradient_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    (x,) = primals
    return stop_gradient_p.bind(x), Zero.from_primal_value(x)


stop_gradient_p = Primitive("stop_gradient")
stop_gradient_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        jvp=_stop_gradient_jvp,
        batch=vectorized_batcher(stop_gradient_p),
    )
)


def stop_gradient(x: T) -> T:
    """The identity on values whose derivative is zero: gradients do not flow through ``x``.

    ``x`` may be any pytree; integer and boolean leaves pass through unchanged.
    """
    from jax_core._src.core.trace import get_aval
    from jax_core._src.interpreters.ad_util import is_differentiable

    def stop(leaf: Any) -> Any:
        return stop_gradient_p.bind(leaf) if is_differentiable(get_aval(leaf)) else leaf

    out: T = tree_map(stop, x)
    return out


def _name_transpose(ct: Any, *, name: str) -> Any:
    return ct


name_p = Primitive("name")
name_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        jvp=linear_jvp(name_p),
        transpose=linear_transpose(_name_transpose),
        batch=vectorized_batcher(name_p),
    )
)


def checkpoint_name(x: T, name: str) -> T:
    """Tags every array in ``x`` with ``name`` for ``checkpoint_policies.save_only_these_names``
    and ``save_any_names_but_these`` (the identity on values)."""
    out: T = tree_map(lambda leaf: name_p.bind(leaf, name=name), x)
    return out


def _copy_transpose(ct: Any) -> Any:
    return copy_p.bind(ct)


copy_p = Primitive("copy")
copy_p.def_rules(
    Rules(
        abstract_eval=_identity_abstract_eval,
        lower=_identity_lower,
        jvp=linear_jvp(copy_p),
        transpose=linear_transpose(_copy_transpose),
        batch=vectorized_batcher(copy_p),
    )
)
