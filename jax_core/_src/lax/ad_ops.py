"""Primitives that are the identity on values: ``stop_gradient``, ``checkpoint_name``, ``copy`` and
``optimization_barrier``.

``stop_gradient`` has a zero tangent; ``name`` tags a value so ``checkpoint`` policies
(``save_only_these_names``) can pick it out; ``copy`` gives a new buffer (``x.copy()``,
``jnp.array(x, copy=True)``), staged as an equation as JAX does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import (
    Zero,
    is_undefined_primal,
    linear_jvp,
    linear_transpose,
)
from jax_core._src.interpreters.batching_util import vectorized_batcher
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten

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


# -- optimization_barrier -------------------------------------------------------------------------
def optimization_barrier[T](operand: T, /) -> T:
    """Prevents the compiler from moving operations across the barrier.

    ``operand`` is a pytree of arrays; the result has the same structure and values. Every
    output of the barrier that is used is evaluated before any operation that depends on one of
    the barrier's outputs; the barrier also prevents common-subexpression elimination and
    fusion across it. It has no effect outside a compiled function.
    """
    leaves, treedef = tree_flatten(operand)
    out: list[Any] = optimization_barrier_p.bind(*leaves)
    result: T = tree_unflatten(treedef, out)
    return result


def _barrier_abstract_eval(*avals: ShapedArray) -> list[ShapedArray]:
    return list(avals)


def _barrier_lower(ctx: LoweringRuleContext, *args: ir.Value[Any]) -> list[ir.Value[Any]]:
    if not args:
        return []
    barrier = hlo.OptimizationBarrierOp(list(args))
    return list(barrier.results)


def _barrier_nonzero(values: Sequence[Any]) -> list[Any]:
    """A barrier over the non-``Zero`` entries of ``values``; ``Zero`` entries pass through."""
    nz = [v for v in values if not isinstance(v, Zero)]
    if not nz:
        return list(values)
    out = iter(optimization_barrier_p.bind(*nz))
    return [v if isinstance(v, Zero) else next(out) for v in values]


def _barrier_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    primals_out: list[Any] = optimization_barrier_p.bind(*primals)
    return primals_out, _barrier_nonzero(tangents)


def _barrier_transpose(cts: Sequence[Any], *args: Any) -> list[Any]:
    out = _barrier_nonzero(cts)
    return [ct if is_undefined_primal(a) else None for ct, a in zip(out, args)]


def _barrier_batch(
    args: Sequence[Any], dims: Sequence[int | None]
) -> tuple[list[Any], list[int | None]]:
    out: list[Any] = optimization_barrier_p.bind(*args)
    return out, list(dims)


optimization_barrier_p = Primitive("optimization_barrier", multiple_results=True)
optimization_barrier_p.def_rules(
    Rules(
        abstract_eval=_barrier_abstract_eval,
        lower=_barrier_lower,
        jvp=_barrier_jvp,
        transpose=_barrier_transpose,
        batch=_barrier_batch,
    )
)
