"""``remat_opt``: the forward rule of a ``custom_vjp`` defined with ``optimize_remat=True``.

The fwd rule is staged as one ``remat_opt`` equation: its params hold the rule traced to a jaxpr
(``fwd_jaxpr``: the residuals it computes, then the primal outputs) and a thunk that traces the
primal function (``fun_jaxpr_thunk``). It evaluates ``fwd_jaxpr``; its dead-code elimination is
the point: when no residual output is used (the forward pass under ``checkpoint``, where the
backward pass recomputes the residuals) the equation becomes an ``eval_jaxpr`` call of the
*primal* function, so an expensive or opaque fwd kernel does not run for nothing; when some are,
``fwd_jaxpr`` is pruned to the used outputs. Reverse mode of the rule itself (second-order
differentiation) is not supported, as in JAX.

``eval_jaxpr`` (JAX's ``core.eval_jaxpr_p``, alias ``closed_call_p``) is the call primitive that
replacement binds: it applies a closed jaxpr (param ``jaxpr``, printed ``call_jaxpr``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, dce_jaxpr_used, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad import jvp_flat, jvp_jaxpr
from jax_core._src.interpreters.ad_util import Zero, instantiate_zeros, tangent_aval
from jax_core._src.interpreters.batching import batch_jaxpr, current_batch_axis
from jax_core._src.interpreters.batching_util import axis_size, moveaxis
from jax_core._src.interpreters.call_rules import call_batch, call_jvp, call_partial_eval, call_transpose
from jax_core._src.interpreters.partial_eval import PartialEvalTrace
from jax_core._src.interpreters.staging import DebugInfo, convert_constvars_to_invars, trace_to_jaxpr
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

FunJaxprThunk = Callable[[], ClosedJaxpr]
"""Traces (once) the primal function of a ``remat_opt`` equation: its primal operands to its
primal outputs."""

FlatFwdRule = Callable[[Sequence[Any]], tuple[list[Any], list[Any]]]
"""A flat fwd rule: primal leaves to ``(primal output leaves, residual leaves)``."""


def _memoize(thunk: FunJaxprThunk) -> FunJaxprThunk:
    """``thunk``, run at most once (a function, so an equation prints it as JAX does)."""
    done: list[ClosedJaxpr] = []

    def memoized() -> ClosedJaxpr:
        if not done:
            done.append(thunk())
        return done[0]

    return memoized


# -- eval_jaxpr: a call of a closed jaxpr ----------------------------------------------------------
def _eval_jaxpr_abstract_eval(*avals: ShapedArray, jaxpr: ClosedJaxpr) -> list[ShapedArray]:
    return jaxpr.out_avals


def _eval_jaxpr_impl(*args: Any, jaxpr: ClosedJaxpr) -> list[Any]:
    return eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *args)


def _eval_jaxpr_lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], jaxpr: ClosedJaxpr) -> list[ir.Value[ir.Type]]:
    return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, args)


def _eval_jaxpr_dce(used_outs: Sequence[bool], eqn: JaxprEqn) -> tuple[list[bool], JaxprEqn | None]:
    closed: ClosedJaxpr = eqn.params["jaxpr"]
    inner, used_ins = dce_jaxpr_used(closed.jaxpr, used_outs)
    if inner is closed.jaxpr:
        return used_ins, eqn
    invars = [v for v, u in zip(eqn.invars, used_ins) if u]
    outvars = [v for v, u in zip(eqn.outvars, used_outs) if u]
    new = JaxprEqn(invars, outvars, eval_jaxpr_p, {"jaxpr": ClosedJaxpr(inner, closed.consts)}, eqn.source_info)
    return used_ins, new


eval_jaxpr_p: Primitive = Primitive("eval_jaxpr", multiple_results=True)
eval_jaxpr_p.def_rules(
    Rules(
        abstract_eval=_eval_jaxpr_abstract_eval,
        lower=_eval_jaxpr_lower,
        impl=_eval_jaxpr_impl,
        jvp=call_jvp(eval_jaxpr_p),
        transpose=call_transpose(eval_jaxpr_p),
        batch=call_batch(eval_jaxpr_p),
        partial_eval=call_partial_eval(eval_jaxpr_p),
        pp=lambda params: [("call_jaxpr", params["jaxpr"])],
        dce=_eval_jaxpr_dce,
    )
)


# -- remat_opt -----------------------------------------------------------------------------------
def remat_opt_fwd(fwd: FlatFwdRule, fun: Callable[..., list[Any]], primals: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """Applies the flat fwd rule ``fwd`` of the flat primal function ``fun`` to ``primals`` as one
    ``remat_opt`` equation; returns ``(primal outputs, residuals)``. Residuals that are inputs of
    the rule are passed on, not computed (they are no outputs of the equation)."""
    avals = [get_aval(x) for x in primals]
    forwards: list[int | None] = []

    def flat_fwd(*xs: Any) -> list[Any]:
        outs, res = fwd(xs)
        position = {id(x): i for i, x in enumerate(xs)}
        forwards[:] = [position.get(id(r)) for r in res]
        return [*(r for r, f in zip(res, forwards) if f is None), *outs]

    closed = trace_to_jaxpr(flat_fwd, avals, DebugInfo("custom_vjp fwd", fwd))
    fwd_jaxpr, consts = convert_constvars_to_invars(closed)
    num_res = sum(f is None for f in forwards)

    def fun_jaxpr() -> ClosedJaxpr:
        return trace_to_jaxpr(fun, avals, DebugInfo("custom_vjp fun", fun))

    outs = remat_opt_p.bind(
        *consts, *primals, num_consts=len(consts), num_res=num_res, fwd_jaxpr=fwd_jaxpr, fun_jaxpr_thunk=_memoize(fun_jaxpr)
    )
    computed = iter(outs[:num_res])
    residuals = [next(computed) if f is None else primals[f] for f in forwards]
    return list(outs[num_res:]), residuals


def _remat_opt_abstract_eval(*avals: ShapedArray, fwd_jaxpr: Jaxpr, **params: Any) -> list[ShapedArray]:
    return fwd_jaxpr.out_avals


def _remat_opt_impl(*args: Any, fwd_jaxpr: Jaxpr, **params: Any) -> list[Any]:
    return eval_jaxpr(fwd_jaxpr, [], *args)


def _remat_opt_lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], fwd_jaxpr: Jaxpr, **params: Any) -> list[ir.Value[ir.Type]]:
    return ctx.lower_jaxpr(fwd_jaxpr, [], args)


def _remat_opt_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, num_consts: int, num_res: int, fwd_jaxpr: Jaxpr, fun_jaxpr_thunk: FunJaxprThunk
) -> tuple[list[Any], list[Any]]:
    """One ``remat_opt`` of the jvp of ``fwd_jaxpr``: operands (consts, their nonzero tangents,
    primals, tangents), outputs (residuals, their tangents, outputs, their tangents). The tangents
    of the primals are instantiated: a later DCE may swap in the primal function's jvp, which
    takes them all."""
    consts, args = list(primals[:num_consts]), list(primals[num_consts:])
    consts_nz = [not isinstance(t, Zero) for t in tangents[:num_consts]]
    consts_dot = [t for t in tangents[:num_consts] if not isinstance(t, Zero)]
    args_dot = [instantiate_zeros(t) for t in tangents[num_consts:]]
    in_avals = fwd_jaxpr.in_avals
    n_c, n_cd, n_a = num_consts, len(consts_dot), len(args)

    def jvp_fun(*xs: Any) -> list[Any]:
        c_dot = iter(xs[n_c : n_c + n_cd])
        tans = [next(c_dot) if nz else Zero(tangent_aval(a)) for a, nz in zip(in_avals[:n_c], consts_nz)]
        tans += list(xs[n_c + n_cd + n_a :])
        outs, touts = jvp_flat(lambda *ys: eval_jaxpr(fwd_jaxpr, [], *ys), [*xs[:n_c], *xs[n_c + n_cd : n_c + n_cd + n_a]], tans)
        touts = [instantiate_zeros(t) for t in touts]
        return [*outs[:num_res], *touts[:num_res], *outs[num_res:], *touts[num_res:]]

    jvp_avals = [
        *in_avals[:n_c],
        *(tangent_aval(a) for a, nz in zip(in_avals[:n_c], consts_nz) if nz),
        *in_avals[n_c:],
        *(get_aval(t) for t in args_dot),
    ]
    closed = trace_to_jaxpr(jvp_fun, jvp_avals, DebugInfo("jvp", None))
    jaxpr, extra = convert_constvars_to_invars(closed)

    def fun_jvp_jaxpr() -> ClosedJaxpr:
        jvp_closed, _ = jvp_jaxpr(fun_jaxpr_thunk(), [True] * n_a, instantiate=True)
        return jvp_closed

    outs = remat_opt_p.bind(
        *extra, *consts, *consts_dot, *args, *args_dot,
        num_consts=len(extra) + n_c + n_cd, num_res=2 * num_res, fwd_jaxpr=jaxpr, fun_jaxpr_thunk=_memoize(fun_jvp_jaxpr),
    )  # fmt: skip
    n_out = len(fwd_jaxpr.outvars) - num_res
    res, res_dot = outs[:num_res], outs[num_res : 2 * num_res]
    out, out_dot = outs[2 * num_res : 2 * num_res + n_out], outs[2 * num_res + n_out :]
    return [*res, *out], [*res_dot, *out_dot]


def _remat_opt_transpose(cts: Sequence[Any], *args: Any, **params: Any) -> list[Any]:
    raise NotImplementedError("remat optimization for custom_vjp does not support higher-order AD")


def _remat_opt_partial_eval(trace: PartialEvalTrace, args: Sequence[Any], unknown: Sequence[bool], **params: Any) -> list[Any]:
    """Some operands known, some not: the jvp of a ``remat_opt`` (reverse mode of a
    differentiated fwd rule) linearized. Its primal outputs would not be known, which reverse
    mode cannot use; JAX fails with this error when it finds them so."""
    raise ValueError(
        "Linearization failed to produce known values for all output primals. This is typically "
        "caused by attempting to differentiate a function uses an operation that does not support "
        "reverse-mode autodiff."
    )


def _remat_opt_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, num_consts: int, num_res: int, fwd_jaxpr: Jaxpr, fun_jaxpr_thunk: FunJaxprThunk
) -> tuple[list[Any], list[int | None]]:
    """One ``remat_opt`` of the batched ``fwd_jaxpr``. Its primal outputs are always batched
    (at 0), so the batched primal function a DCE may swap in has the same output types."""
    size = axis_size(args, dims)
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    in_batched = [d is not None for d in dims]
    n_out = len(fwd_jaxpr.outvars) - num_res
    batched, out_batched = batch_jaxpr(ClosedJaxpr(fwd_jaxpr, []), size, in_batched, [False] * num_res + [True] * n_out)
    jaxpr, extra = convert_constvars_to_invars(batched)
    prim_batched = in_batched[num_consts:]
    running = current_batch_axis()  # the thunk may run later, outside this rule: keep the axis name
    axis_name = running[0] if running is not None else None

    def batched_fun_jaxpr() -> ClosedJaxpr:
        fun_batched, _ = batch_jaxpr(fun_jaxpr_thunk(), size, prim_batched, True, axis_name)
        return fun_batched

    outs = remat_opt_p.bind(
        *extra, *moved,
        num_consts=len(extra) + num_consts, num_res=num_res, fwd_jaxpr=jaxpr, fun_jaxpr_thunk=_memoize(batched_fun_jaxpr),
    )  # fmt: skip
    return list(outs), [0 if b else None for b in out_batched]


def _remat_opt_dce(used_outs: Sequence[bool], eqn: JaxprEqn) -> tuple[list[bool], JaxprEqn | None]:
    """No residual used: a call of the primal function instead (of the outputs used). Some used:
    ``fwd_jaxpr`` pruned to the used outputs (all primal operands kept, so the primal function
    can still replace it after a later DCE)."""
    params = eqn.params
    num_consts: int = params["num_consts"]
    num_res: int = params["num_res"]
    fwd_jaxpr: Jaxpr = params["fwd_jaxpr"]
    outvars = [v for v, u in zip(eqn.outvars, used_outs) if u]
    fun: ClosedJaxpr | None = None
    if not any(used_outs[:num_res]):
        thunk: FunJaxprThunk = params["fun_jaxpr_thunk"]
        traced = thunk()
        # A function closing over traced values (of an enclosing trace) has constants an equation's
        # params cannot hold: the fwd rule stays then.
        fun = None if any(isinstance(c, Tracer) for c in traced.consts) else traced
    if fun is None:
        if all(used_outs):
            return [True] * len(eqn.invars), eqn
        instantiate = [False] * num_consts + [True] * (len(eqn.invars) - num_consts)
        pruned, used_ins = dce_jaxpr_used(fwd_jaxpr, used_outs, instantiate)
        invars = [v for v, u in zip(eqn.invars, used_ins) if u]
        new_params = {
            **params,
            "num_consts": sum(used_ins[:num_consts]),
            "num_res": sum(used_outs[:num_res]),
            "fwd_jaxpr": pruned,
        }
        return used_ins, JaxprEqn(invars, outvars, remat_opt_p, new_params, eqn.source_info)
    inner, used_prims = dce_jaxpr_used(fun.jaxpr, used_outs[num_res:])
    invars = [v for v, u in zip(eqn.invars[num_consts:], used_prims) if u]
    call = JaxprEqn(invars, outvars, eval_jaxpr_p, {"jaxpr": ClosedJaxpr(inner, fun.consts)}, eqn.source_info)
    return [False] * num_consts + used_prims, call


remat_opt_p: Primitive = Primitive("remat_opt", multiple_results=True)
remat_opt_p.def_rules(
    Rules(
        abstract_eval=_remat_opt_abstract_eval,
        lower=_remat_opt_lower,
        impl=_remat_opt_impl,
        jvp=_remat_opt_jvp,
        transpose=_remat_opt_transpose,
        batch=_remat_opt_batch,
        partial_eval=_remat_opt_partial_eval,
        dce=_remat_opt_dce,
    )
)
