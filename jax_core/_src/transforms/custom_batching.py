"""``custom_vmap`` and ``sequential_vmap`` (``jax.custom_batching``): a function whose batching
under ``vmap`` is a rule of the user's.

The function is staged into a jaxpr and bound as one ``custom_vmap_call`` primitive: evaluated,
lowered and differentiated through that jaxpr, and batched by calling the rule as
``rule(axis_size, in_batched, *args)``, which returns ``(out, out_batched)`` (``in_batched`` and
``out_batched``: pytrees of bools with the structure of the arguments and of the output).
Forward-mode differentiation goes through the function's jaxpr, so a ``vmap`` of a ``jvp``
batches that jaxpr rather than calling the rule (JAX differentiates the rule instead; the two
agree when the rule computes the function).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Generic, ParamSpec, TypeVar, cast

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad import jvp_jaxpr
from jax_core._src.interpreters.ad_util import Zero, tangent_aval
from jax_core._src.interpreters.batching_util import axis_size, moveaxis
from jax_core._src.interpreters.staging import DebugInfo, convert_constvars_to_invars, trace_to_jaxpr
from jax_core._src.lax.control_flow.scan import map as lax_map
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_map, tree_unflatten

P = ParamSpec("P")
R = TypeVar("R")

VmapRule = Callable[..., tuple[Any, Any]]
"""``rule(axis_size, in_batched, *args) -> (out, out_batched)``."""


def _abstract_eval(*avals: ShapedArray, call_jaxpr: ClosedJaxpr, **params: Any) -> list[ShapedArray]:
    return call_jaxpr.out_avals


def _impl(*args: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


def _lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], call_jaxpr: ClosedJaxpr, **params: Any) -> list[ir.Value[ir.Type]]:
    return ctx.lower_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, args)


def _jvp(primals: Sequence[Any], tangents: Sequence[Any], *, call_jaxpr: ClosedJaxpr, **params: Any) -> tuple[list[Any], list[Any]]:
    nonzeros = [not isinstance(t, Zero) for t in tangents]
    jvp_closed, out_nz = jvp_jaxpr(call_jaxpr, nonzeros, instantiate=False)
    outs = eval_jaxpr(jvp_closed.jaxpr, jvp_closed.consts, *primals, *(t for t in tangents if not isinstance(t, Zero)))
    n = len(call_jaxpr.out_avals)
    rest = iter(outs[n:])
    touts = [next(rest) if nz else Zero(tangent_aval(a)) for a, nz in zip(call_jaxpr.out_avals, out_nz)]
    return list(outs[:n]), touts


def _batch(
    args: Sequence[Any], dims: Sequence[int | None], *, call_jaxpr: ClosedJaxpr, rule: VmapRule, num_consts: int,
    in_tree: PyTreeDef, out_tree: PyTreeDef, name: str,
) -> tuple[list[Any], list[int | None]]:  # fmt: skip
    if any(d is not None for d in dims[:num_consts]):
        raise NotImplementedError(
            f"custom_vmap function {name} closes over a value that is batched; pass it as an argument."
        )
    size = axis_size(args, dims)
    leaves = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args[num_consts:], dims[num_consts:])]
    batched = [d is not None for d in dims[num_consts:]]
    in_batched = tree_unflatten(in_tree, batched)
    result = rule(size, list(in_batched), *tree_unflatten(in_tree, leaves))
    if not isinstance(result, (tuple, list)) or len(result) != 2:  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            f"the vmap rule of custom_vmap function {name} must return a pair (output, out_batched), got {result!r}"
        )
    out, out_batched = result
    out_leaves, tree = tree_flatten(out)
    if tree != out_tree:
        raise ValueError(
            f"structure of output value and output batching specification returned by custom vmap rule "
            f"({name}) do not match: the function returned {out_tree}, the rule {tree}."
        )
    flags = _prefix_flags(out_batched, out_tree, name)
    for leaf, flag, aval in zip(out_leaves, flags, call_jaxpr.out_avals):
        want = (size, *aval.shape) if flag else aval.shape
        if get_aval(leaf).shape != want:
            raise ValueError(
                f"custom vmap rule ({name}) returned an output of shape {get_aval(leaf).shape} where "
                f"{want} was expected (out_batched={flag})."
            )
    return out_leaves, [0 if f else None for f in flags]


def _prefix_flags(out_batched: Any, out_tree: PyTreeDef, name: str) -> list[bool]:
    flags, tree = tree_flatten(out_batched)
    if tree == out_tree:
        return [bool(f) for f in flags]
    if len(flags) == 1 and isinstance(out_batched, bool):
        return [out_batched] * out_tree.num_leaves
    raise ValueError(
        f"structure of output value and output batching specification returned by custom vmap rule ({name}) "
        f"do not match: {out_tree} and {tree}."
    )


def _pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("call", params["call_jaxpr"]), ("rule", getattr(params["rule"], "__name__", params["rule"]))]


custom_vmap_p: Primitive = Primitive("custom_vmap_call", multiple_results=True)
custom_vmap_p.def_rules(
    Rules(abstract_eval=_abstract_eval, lower=_lower, impl=_impl, jvp=_jvp, batch=_batch, pp=_pp)
)


class custom_vmap(Generic[P, R]):
    """A function with a custom ``vmap`` rule: ``f = custom_vmap(fun)``, then ``@f.def_vmap``
    on ``rule(axis_size, in_batched, *args) -> (out, out_batched)``."""

    fun: Callable[P, R]
    vmap_rule: VmapRule | None

    def __init__(self, fun: Callable[P, R]) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule = None

    def def_vmap(self, vmap_rule: VmapRule) -> VmapRule:
        """Defines the vmap rule; returns it unchanged (usable as a decorator)."""
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        name = getattr(self.fun, "__name__", "fun")
        if kwargs:
            raise TypeError(
                f"The input arguments to the custom_vmap-decorated function {name} could not be resolved "
                "to positional-only arguments: pass them positionally."
            )
        if self.vmap_rule is None:
            raise AttributeError(f"No batching rule defined for custom_vmap function {name} using def_vmap.")
        fun: Callable[..., Any] = self.fun
        leaves, in_tree = tree_flatten(args)
        out_tree: list[PyTreeDef] = []

        def flat(*xs: Any) -> list[Any]:
            out_leaves, tree = tree_flatten(fun(*tree_unflatten(in_tree, list(xs))))
            out_tree.append(tree)
            return out_leaves

        closed = trace_to_jaxpr(flat, [get_aval(x) for x in leaves], DebugInfo("custom_vmap", fun))
        jaxpr, consts = convert_constvars_to_invars(closed)
        outs = custom_vmap_p.bind(
            *consts, *leaves, call_jaxpr=ClosedJaxpr(jaxpr, []), rule=self.vmap_rule, num_consts=len(consts),
            in_tree=in_tree, out_tree=out_tree[0], name=name,
        )  # fmt: skip
        result: R = tree_unflatten(out_tree[0], outs)
        return result


def sequential_vmap(f: Callable[P, R]) -> custom_vmap[P, R]:
    """``f``, batched by a loop (``lax.map`` over the batched arguments) instead of by
    vectorizing it: for functions that do not support a batch dimension."""
    wrapped: custom_vmap[P, R] = custom_vmap(f)

    @wrapped.def_vmap
    def rule(axis_size: int, in_batched: Sequence[Any], *args: Any) -> tuple[Any, Any]:
        del axis_size
        flags = [all(tree_flatten(b)[0]) for b in in_batched]
        mapped = [a for a, b in zip(args, flags) if b]

        def one(xs: Sequence[Any]) -> Any:
            it = iter(xs)
            full = [next(it) if b else a for a, b in zip(args, flags)]
            return cast(Callable[..., Any], f)(*full)

        out = lax_map(one, mapped)
        return out, tree_map(lambda _: True, out)

    return wrapped
