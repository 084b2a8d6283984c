"""``linear_call(fun, fun_transpose, residual_args, linear_args)``: a call of a function linear
in ``linear_args`` whose transpose is ``fun_transpose`` (``jax.custom_derivatives.linear_call``).

Both functions are staged into jaxprs; the ``linear_call`` primitive evaluates ``fun``'s, its jvp
is ``linear_call`` again on the tangents (the function is linear), its transpose is
``linear_call`` of ``fun_transpose`` (whose own transpose is ``fun``), and it batches by batching
both jaxprs (the linear operands are batched, so cotangents are too).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import UndefinedPrimal, Zero, zeros_like_aval
from jax_core._src.interpreters.batching import batch_jaxpr
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.interpreters.staging import DebugInfo, convert_constvars_to_invars, trace_to_jaxpr
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

TransposeThunk = Callable[[], tuple[ClosedJaxpr, list[Any]]]
"""Stages the transpose on first use: ``(jaxpr over (consts, residuals, cotangents), consts)``."""


def _stage(fun: Callable[..., Any], res_tree: PyTreeDef, res_avals: Sequence[ShapedArray], lin_tree: PyTreeDef,
           lin_avals: Sequence[ShapedArray], what: str) -> tuple[ClosedJaxpr, list[Any], PyTreeDef]:  # fmt: skip
    out_tree: list[PyTreeDef] = []
    n = len(res_avals)

    def flat(*xs: Any) -> list[Any]:
        leaves, tree = tree_flatten(fun(tree_unflatten(res_tree, list(xs[:n])), tree_unflatten(lin_tree, list(xs[n:]))))
        out_tree.append(tree)
        return leaves

    closed = trace_to_jaxpr(flat, [*res_avals, *lin_avals], DebugInfo(what, fun))
    jaxpr, consts = convert_constvars_to_invars(closed)
    return ClosedJaxpr(jaxpr, []), consts, out_tree[0]


def linear_call(fun: Callable[..., Any], fun_transpose: Callable[..., Any], residual_args: Any, linear_args: Any) -> Any:
    """``fun(residual_args, linear_args)``, where ``fun`` is linear in ``linear_args`` and
    ``fun_transpose(residual_args, cotangent)`` is its transpose: reverse mode uses
    ``fun_transpose`` instead of transposing ``fun``."""
    res_leaves, res_tree = tree_flatten(residual_args)
    lin_leaves, lin_tree = tree_flatten(linear_args)
    res_avals = [get_aval(x) for x in res_leaves]
    lin_avals = [get_aval(x) for x in lin_leaves]
    callee, consts, out_tree = _stage(fun, res_tree, res_avals, lin_tree, lin_avals, "linear_call fun")

    @functools.cache
    def transpose_thunk() -> tuple[ClosedJaxpr, list[Any]]:
        t_jaxpr, t_consts, t_tree = _stage(
            fun_transpose, res_tree, res_avals, out_tree, callee.out_avals, "linear_call fun_transpose"
        )
        if t_tree != lin_tree:
            raise TypeError(
                "transpose output pytree structure must match that of linear inputs, got output structure "
                f"{t_tree} and input structure {lin_tree}."
            )
        return t_jaxpr, t_consts

    outs = linear_call_p.bind(
        *consts, *res_leaves, *lin_leaves, callee=callee, transpose_thunk=transpose_thunk,
        num_callee_consts=len(consts), num_res=len(res_leaves),
    )  # fmt: skip
    return tree_unflatten(out_tree, outs)


def _abstract_eval(*avals: ShapedArray, callee: ClosedJaxpr, **params: Any) -> list[ShapedArray]:
    return callee.out_avals


def _impl(*args: Any, callee: ClosedJaxpr, **params: Any) -> list[Any]:
    return eval_jaxpr(callee.jaxpr, callee.consts, *args)


def _lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], callee: ClosedJaxpr, **params: Any) -> list[ir.Value[ir.Type]]:
    return ctx.lower_jaxpr(callee.jaxpr, callee.consts, args)


def _jvp(primals: Sequence[Any], tangents: Sequence[Any], *, num_callee_consts: int, num_res: int, **params: Any) -> tuple[list[Any], list[Any]]:
    k = num_callee_consts + num_res
    if any(not isinstance(t, Zero) for t in tangents[:k]):
        raise TypeError("linear_call: differentiating with respect to residual arguments is not supported.")
    call = functools.partial(linear_call_p.bind, num_callee_consts=num_callee_consts, num_res=num_res, **params)
    lin_tangents = [zeros_like_aval(t.aval) if isinstance(t, Zero) else t for t in tangents[k:]]
    return list(call(*primals)), list(call(*primals[:k], *lin_tangents))


def _transpose(cts: Sequence[Any], *args: Any, callee: ClosedJaxpr, transpose_thunk: TransposeThunk,
               num_callee_consts: int, num_res: int) -> list[Any]:  # fmt: skip
    transpose, t_consts = transpose_thunk()
    f_consts = list(args[:num_callee_consts])
    res = list(args[num_callee_consts : num_callee_consts + num_res])
    if any(isinstance(r, UndefinedPrimal) for r in (*f_consts, *res)):
        raise TypeError("linear_call: the residual arguments must not be linear.")
    ct_avals = transpose.in_avals[len(t_consts) + num_res :]
    cts = [zeros_like_aval(a) if isinstance(c, Zero) else c for c, a in zip(cts, ct_avals)]
    cts_out = linear_call_p.bind(
        *t_consts, *res, *cts, callee=transpose, transpose_thunk=lambda: (callee, f_consts),
        num_callee_consts=len(t_consts), num_res=num_res,
    )  # fmt: skip
    return [None] * (num_callee_consts + num_res) + list(cts_out)


def _batch(args: Sequence[Any], dims: Sequence[int | None], *, callee: ClosedJaxpr, transpose_thunk: TransposeThunk,
           num_callee_consts: int, num_res: int) -> tuple[list[Any], list[int | None]]:  # fmt: skip
    size = axis_size(args, dims)
    k = num_callee_consts + num_res
    # The linear operands are all batched (so are the outputs, and the transpose's cotangents).
    moved = [bdim_at_front(a, d, size) if (i >= k or d is not None) else a for i, (a, d) in enumerate(zip(args, dims))]
    batched = [i >= k or d is not None for i, d in enumerate(dims)]
    b_callee, _ = batch_jaxpr(callee, size, batched, instantiate=True)
    res_batched = batched[num_callee_consts:k]

    @functools.cache
    def b_thunk() -> tuple[ClosedJaxpr, list[Any]]:
        transpose, t_consts = transpose_thunk()
        flags = [False] * len(t_consts) + res_batched + [True] * len(callee.out_avals)
        b_transpose, _ = batch_jaxpr(transpose, size, flags, instantiate=True)
        return b_transpose, t_consts

    outs = linear_call_p.bind(
        *moved, callee=b_callee, transpose_thunk=b_thunk, num_callee_consts=num_callee_consts, num_res=num_res
    )
    return list(outs), [0] * len(outs)


def _pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("callee", params["callee"]), ("num_callee_consts", params["num_callee_consts"]), ("num_res", params["num_res"])]


linear_call_p: Primitive = Primitive("linear_call", multiple_results=True)
linear_call_p.def_rules(
    Rules(abstract_eval=_abstract_eval, lower=_lower, impl=_impl, jvp=_jvp, transpose=_transpose, batch=_batch, pp=_pp)
)
