"""``checkpoint`` (``remat``): trade compute for memory in reverse mode (seed 000).

A checkpointed function is staged as one ``checkpoint`` equation. Under ``grad`` its
partial evaluation saves only what ``policy`` allows (by default: nothing but the
inputs); everything else the backward pass needs — including values that do not depend
on the inputs at all, like ``f(jnp.arange(n))`` — is recomputed inside the staged
``checkpoint`` equation of the backward pass.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import remat_allowed_effects
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.source_info import SourceInfo
from jax_core._src.core.trace import get_aval, set_current_trace
from jax_core._src.interpreters.ad import backward_pass
from jax_core._src.interpreters.ad_util import UndefinedPrimal, instantiate_zeros, tangent_aval
from jax_core._src.interpreters.call_rules import call_batch, call_jvp
from jax_core._src.interpreters.partial_eval import (
    PartialEvalTrace,
    SaveablePolicy,
    merge_outputs,
    partial_eval_jaxpr,
)
from jax_core._src.interpreters.staging import (
    DebugInfo,
    JaxprTrace,
    JaxprTracer,
    convert_constvars_to_invars,
    trace_to_jaxpr,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.transforms import checkpoint_policies as checkpoint_policies
from jax_core._src.transforms.checkpoint_policies import nothing_saveable
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

P = ParamSpec("P")
R = TypeVar("R")


# -- the checkpoint primitive ------------------------------------------------------------------
def _remat_abstract_eval(*avals: ShapedArray, jaxpr: ClosedJaxpr, **params: Any) -> list[ShapedArray]:
    return jaxpr.out_avals


def _remat_impl(*args: Any, jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


def _remat_lower(
    ctx: LoweringRuleContext, *args: ir.Value[ir.Type], jaxpr: ClosedJaxpr, prevent_cse: bool, differentiated: bool, policy: Any
) -> list[ir.Value[ir.Type]]:
    if prevent_cse and differentiated and args:
        # Keeps XLA from merging the recomputation with the forward pass's copy of it.
        barrier = hlo.OptimizationBarrierOp(list(args))
        args = tuple(barrier.results)
    return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, args)


def _remat_partial_eval(trace: PartialEvalTrace, args: Sequence[Any], unknown: Sequence[bool], **params: Any) -> list[Any]:
    closed: ClosedJaxpr = params["jaxpr"]
    disallowed = remat_allowed_effects.filter_not_in(closed.effects)
    if disallowed:
        # Recomputing would repeat them (JAX's error).
        raise NotImplementedError(
            f"Effects not supported in AD of `checkpoint`/`remat`: {disallowed}. Only debug callbacks may be "
            "rematerialized: move the io_callback out of the checkpointed function."
        )
    policy: SaveablePolicy = params["policy"] or nothing_saveable
    known, staged, out_unknowns, num_res = partial_eval_jaxpr(closed, unknown, False, policy)
    known_args = [a for a, u in zip(args, unknown) if not u]
    with set_current_trace(trace.parent):
        known_outs = eval_jaxpr(known.jaxpr, known.consts, *known_args)
    n_known = len(known_outs) - num_res
    unknown_args = [a for a, u in zip(args, unknown) if u]
    staged_params = {**params, "jaxpr": staged, "differentiated": True}
    staged_outs = trace.bind_staged(remat_p, [*known_outs[n_known:], *unknown_args], staged_params)
    return merge_outputs(known_outs[:n_known], staged_outs, out_unknowns)


def _remat_transpose_jaxpr(closed: ClosedJaxpr, linear: Sequence[bool]) -> ClosedJaxpr:
    """``(non-linear inputs, output cotangents) -> linear inputs' cotangents``, as JAX's remat
    transpose builds it: the part of the body that does not depend on the linear inputs is
    recomputed first (debug callbacks in it run again, as in JAX), then the rest is transposed."""
    known, staged, _, num_res = partial_eval_jaxpr(closed, linear, True)
    in_avals = closed.in_avals
    nonlin_avals = [a for a, lin in zip(in_avals, linear) if not lin]
    lin_avals = [a for a, lin in zip(in_avals, linear) if lin]
    ct_avals = [tangent_aval(a) for a in closed.out_avals]

    def fun(*args: Any) -> list[Any]:
        residuals = eval_jaxpr(known.jaxpr, known.consts, *args[: len(nonlin_avals)])
        operands = [*residuals, *(UndefinedPrimal(a) for a in lin_avals)]
        cts = backward_pass(staged.jaxpr, staged.consts, operands, args[len(nonlin_avals) :])
        return [instantiate_zeros(ct) for ct in cts[num_res:]]

    return trace_to_jaxpr(fun, [*nonlin_avals, *ct_avals], DebugInfo("transpose", None))


def _remat_transpose(cts: Sequence[Any], *args: Any, jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    linear = [isinstance(a, UndefinedPrimal) for a in args]
    transposed = _remat_transpose_jaxpr(jaxpr, linear)
    nonlin = [a for a in args if not isinstance(a, UndefinedPrimal)]
    cts_in = iter(remat_p.bind(*nonlin, *map(instantiate_zeros, cts), jaxpr=transposed, **params))
    return [next(cts_in) if lin else None for lin in linear]


def _remat_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        ("differentiated", params["differentiated"]),
        ("jaxpr", params["jaxpr"]),
        ("policy", getattr(params["policy"], "__name__", params["policy"])),
        ("prevent_cse", params["prevent_cse"]),
    ]


remat_p: Primitive = Primitive("checkpoint", multiple_results=True)
remat_p.def_rules(
    Rules(
        abstract_eval=_remat_abstract_eval,
        lower=_remat_lower,
        impl=_remat_impl,
        jvp=call_jvp(remat_p),
        transpose=_remat_transpose,
        batch=call_batch(remat_p),
        partial_eval=_remat_partial_eval,
        pp=_remat_pp,
    )
)


# -- the public wrapper ------------------------------------------------------------------------
def checkpoint(
    fun: Callable[P, R],
    *,
    prevent_cse: bool = True,
    policy: SaveablePolicy | None = None,
    static_argnums: int | tuple[int, ...] = (),
) -> Callable[P, R]:
    """Makes ``fun`` rematerialise its intermediates in reverse mode instead of saving them.

    ``policy`` (see ``checkpoint_policies``) decides which intermediates may be saved;
    the default saves none. ``static_argnums`` marks arguments passed as Python values
    (e.g. ``is_training`` flags). ``prevent_cse`` keeps XLA from undoing the
    rematerialisation by merging it with the forward computation.
    """
    statics = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    f: Callable[..., Any] = fun

    @functools.wraps(fun)
    def remat_f(*args: P.args, **kwargs: P.kwargs) -> R:
        nargs = len(args)
        static_idx: set[int] = {i % nargs for i in statics} if nargs else set()
        for i in statics:
            if not -nargs <= i < nargs:
                raise ValueError(f"checkpoint static_argnums={static_argnums} out of range for {nargs} positional arguments")
        dyn = [a for i, a in enumerate(args) if i not in static_idx]
        leaves, in_tree = tree_flatten((dyn, kwargs))
        out_tree: list[PyTreeDef] = []

        def flat(*xs: Any) -> list[Any]:
            d, k = tree_unflatten(in_tree, xs)
            it = iter(d)
            full = [args[i] if i in static_idx else next(it) for i in range(nargs)]
            out_leaves, tree = tree_flatten(f(*full, **k))
            out_tree.append(tree)
            return out_leaves

        closed = trace_to_jaxpr(flat, [get_aval(x) for x in leaves], DebugInfo("checkpoint", fun))
        jaxpr, consts = convert_constvars_to_invars(closed)
        outs = remat_p.bind(
            *consts, *leaves, jaxpr=ClosedJaxpr(jaxpr, []), prevent_cse=prevent_cse, differentiated=False, policy=policy
        )
        result: R = tree_unflatten(out_tree[0], outs)
        return result

    return remat_f


remat = checkpoint
"""Alias of ``checkpoint``."""


# -- inspecting residuals ------------------------------------------------------------------------
def saved_residuals(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> list[tuple[ShapedArray, str]]:
    """What reverse mode saves from the forward pass of ``fun(*args)``: each residual's aval
    and where it comes from (``from the argument x`` or ``output of sin from file:line``)."""
    from jax_core._src.interpreters import ad

    leaves, in_tree = tree_flatten((args, kwargs))
    avals = [get_aval(x) for x in leaves]
    names = _leaf_names(fun, args, kwargs)
    found: list[tuple[ShapedArray, str]] = []

    def flat_fun(*ys: Any) -> list[Any]:
        a, k = tree_unflatten(in_tree, ys)
        return tree_flatten(fun(*a, **k))[0]

    trace = JaxprTrace(DebugInfo("saved_residuals", fun))
    ins = [trace.new_arg(a) for a in avals]
    try:
        with set_current_trace(trace):
            _, lin = ad.linearize_flat(flat_fun, ins, DebugInfo("saved_residuals", fun))
            consts = list(lin.jaxpr.consts)
            # As JAX lists them: the arguments that are saved first, in argument order, then the rest.
            position = {id(x): i for i, x in enumerate(ins)}
            saved_args = sorted((c for c in consts if id(c) in position), key=lambda c: position[id(c)])
            made = [c for c in consts if id(c) not in position]
            # The rest in the order the forward pass made them.
            others = sorted(made, key=lambda c: c.jaxpr_var.order if isinstance(c, JaxprTracer) else -1)
            found.extend((get_aval(c), _describe_residual(c, ins, names)) for c in saved_args + others)
    finally:
        trace.close()
    return found


def _leaf_names(fun: Callable[..., Any], args: Sequence[Any], kwargs: dict[str, Any]) -> list[str]:
    import inspect

    try:
        params = list(inspect.signature(fun).parameters)
    except (TypeError, ValueError):
        params = []
    names: list[str] = []
    for i, a in enumerate(args):
        base = params[i] if i < len(params) else f"args[{i}]"
        n = len(tree_flatten(a)[0])
        names.extend([base] if n == 1 else [f"{base}[{j}]" for j in range(n)])
    for k, v in kwargs.items():
        names.extend([k] * len(tree_flatten(v)[0]))
    return names


def _describe_residual(c: Any, inputs: Sequence[Any], names: Sequence[str]) -> str:
    for x, name in zip(inputs, names):
        if c is x:
            return f"from the argument {name}"
    if isinstance(c, JaxprTracer):
        eqn = c._trace.producer(c.jaxpr_var)  # pyright: ignore[reportPrivateUsage]  # the trace that made it
        if eqn is not None:
            where = eqn.source_info.location() if isinstance(eqn.source_info, SourceInfo) else "<unknown>"
            if eqn.primitive.name == "name":  # a checkpoint_name tag, as JAX describes it
                return f"named '{eqn.params['name']}' from {where}"
            return f"output of {eqn.primitive.name} from {where}"
    return "a constant"


def print_saved_residuals(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    """Prints ``saved_residuals(fun, *args)``, one residual per line."""
    for aval, what in saved_residuals(fun, *args, **kwargs):
        print(f"{aval.str_short()} {what}")
