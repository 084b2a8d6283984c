"""``lax.cond`` and ``lax.switch``: the ``cond`` primitive and all its rules.

``cond_p`` takes an int32 branch index followed by the operands; its ``branches`` param
holds one closed jaxpr per branch, all with the same input and output types. Values the
branches close over are leading operands (every branch takes all of them). Under ``vmap``
with a batched index the conditional becomes a ``select_n`` over both branches' outputs;
under ``linearize``/``grad`` each branch is split into its primal and tangent halves, the
residuals of all branches being outputs of every branch (zeros where a branch has none).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple, TypeVar, overload

import numpy as np

from jax_core._src import config
from jax_core._src.core.effects import ordered_in
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Var, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad import jvp_jaxpr, transpose_jaxpr
from jax_core._src.interpreters.ad_util import (
    Zero,
    instantiate_zeros,
    is_undefined_primal,
    is_zero,
    tangent_aval,
    zeros_like_aval,
)
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front, moveaxis
from jax_core._src.interpreters.partial_eval import (
    PartialEvalTrace,
    SaveablePolicy,
    forward_input_residuals,
    merge_outputs,
    partial_eval_jaxpr,
)
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax.control_flow.common import (
    batch_axis_name,
    batch_jaxpr_axes,
    batched_outputs,
    cached,
    check_branch_outputs,
    forwarded_inputs,
    hoist_and_join,
    join_consts,
    prune_outputs,
    trace_fun,
    with_invars,
)
from jax_core._src.lax.shape.compositions import as_array
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, set_tokens, token_region, tokens_of
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_no_operand_sentinel: Any = object()

# Typing: one overload per number of operands (0..3), with a TypeVar per operand, so the
# branches must take the operands; both branches return R. (A checker joins two different
# branch results: ``object`` under mypy, a union under pyright, so a mismatch is an error where
# the result is used as one of them.) More operands, or ``operand=``, are accepted as ``Any``.
T0 = TypeVar("T0")
T1 = TypeVar("T1")
T2 = TypeVar("T2")
R = TypeVar("R")


# -- public API ------------------------------------------------------------------------------
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[], R]], /) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[T0], R]], o0: T0, /) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[T0, T1], R]], o0: T0, o1: T1, /) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[T0, T1, T2], R]], o0: T0, o1: T1, o2: T2, /) -> R: ...
@overload
def switch(
    index: ArrayLike, branches: Sequence[Callable[..., R]], o0: Any, o1: Any, o2: Any, o3: Any, /, *operands: Any
) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[T0], R]], *, operand: T0) -> R: ...


def switch(index: Any, branches: Sequence[Callable[..., Any]], *operands: Any, operand: Any = _no_operand_sentinel) -> Any:
    """Applies exactly one of ``branches``, the one given by ``index``.

    ``index`` is clamped into ``[0, len(branches) - 1]``. Semantics of::

        def switch(index, branches, *operands):
          index = clamp(0, index, len(branches) - 1)
          return branches[index](*operands)

    Every branch is traced; all must return the same pytree structure and types. Under
    ``vmap`` with a batched index, every branch runs and the results are selected.
    """
    if not all(callable(b) for b in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    if operand is not _no_operand_sentinel:
        if operands:
            raise TypeError(
                "if 'operand' keyword is passed then no positional operands can be passed, got "
                f"operand={operand!r} and positional operands {operands}"
            )
        operands = (operand,)
    if _ndim(index) != 0:
        raise TypeError(f"Branch index must be scalar, got {index} of shape {np.shape(index) if not isinstance(index, Array) else index.shape}.")
    try:
        index_dtype = get_aval(index).dtype
    except TypeError as err:
        raise TypeError(f"Index type must be an integer, got {index}.") from err
    if index_dtype.kind not in "iu":
        raise TypeError(f"Index type must be an integer, got {index} as {index_dtype}")
    branches = tuple(branches)
    if not branches:
        raise ValueError("Empty branch sequence")
    if len(branches) == 1:
        return branches[0](*operands)
    from jax_core._src.lax import elementwise as lax_api

    idx = lax_api.convert_element_type(index, np.int32)
    idx = lax_api.clamp(np.array(0, np.int32), idx, np.array(len(branches) - 1, np.int32))
    names = ["branch 0", *(f"branch{i}" for i in range(1, len(branches)))]
    return _cond_internal("switch", idx, branches, names, operands)


@overload
def cond(pred: ArrayLike, true_fun: Callable[[], R], false_fun: Callable[[], R], /) -> R: ...
@overload
def cond(pred: ArrayLike, true_fun: Callable[[T0], R], false_fun: Callable[[T0], R], o0: T0, /) -> R: ...
@overload
def cond(
    pred: ArrayLike, true_fun: Callable[[T0, T1], R], false_fun: Callable[[T0, T1], R], o0: T0, o1: T1, /
) -> R: ...
@overload
def cond(
    pred: ArrayLike,
    true_fun: Callable[[T0, T1, T2], R],
    false_fun: Callable[[T0, T1, T2], R],
    o0: T0,
    o1: T1,
    o2: T2,
    /,
) -> R: ...
@overload
def cond(
    pred: ArrayLike,
    true_fun: Callable[..., R],
    false_fun: Callable[..., R],
    o0: Any,
    o1: Any,
    o2: Any,
    o3: Any,
    /,
    *operands: Any,
) -> R: ...
@overload
def cond(pred: ArrayLike, true_fun: Callable[[T0], R], false_fun: Callable[[T0], R], *, operand: T0) -> R: ...


def cond(pred: Any, true_fun: Callable[..., Any], false_fun: Callable[..., Any], *operands: Any, operand: Any = _no_operand_sentinel) -> Any:
    """Applies ``true_fun`` or ``false_fun`` to ``operands``, depending on ``pred``.

    ``pred`` is a boolean or numeric scalar (a number is compared with zero). Semantics of::

        def cond(pred, true_fun, false_fun, *operands):
          return true_fun(*operands) if pred else false_fun(*operands)

    Both branches are traced and must return the same pytree structure and types; only one
    runs (XLA's Conditional). Under ``vmap`` with a batched predicate both run and the
    results are selected.
    """
    if not (callable(true_fun) and callable(false_fun)):
        if callable(false_fun) and len(operands) == 2 and callable(operands[1]):
            # The deprecated calling convention cond(pred, x_true, f_true, x_false, f_false).
            x_true, f_true, x_false, f_false = true_fun, false_fun, operands[0], operands[1]

            def on_true(x: Any, _: Any) -> Any:
                return f_true(x)

            def on_false(_: Any, x: Any) -> Any:
                return f_false(x)

            return cond(pred, on_true, on_false, x_true, x_false)
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    if operand is not _no_operand_sentinel:
        if operands:
            raise TypeError(
                "if 'operand' keyword is passed then no positional operands can be passed, got "
                f"operand={operand!r} and positional operands {operands}"
            )
        operands = (operand,)
    if pred is None:
        raise TypeError("cond predicate is None")
    if isinstance(pred, Sequence) or _ndim(pred) != 0:
        what = f"type {type(pred)}" if isinstance(pred, Sequence) else f"shape {_shape(pred)}."  # pyright: ignore[reportUnknownArgumentType]
        raise TypeError(f"Pred must be a scalar, got {pred} of {what}")
    try:
        pred_dtype = get_aval(pred).dtype
    except TypeError as err:
        raise TypeError(f"Pred type must be either boolean or number, got {pred}.") from err
    if pred_dtype.kind != "b":
        if pred_dtype.kind not in "iuf":
            raise TypeError(f"Pred type must be either boolean or number, got {pred_dtype}.")
        pred = _ne_zero(pred, pred_dtype)
    from jax_core._src.lax import elementwise as lax_api

    index = lax_api.convert_element_type(pred, np.int32)
    return _cond_internal("cond", index, (false_fun, true_fun), ["false_fun", "true_fun"], operands)


def _ndim(x: Any) -> int:
    return get_aval(x).ndim if isinstance(x, (Array, Tracer)) else int(np.ndim(x))


def _shape(x: Any) -> tuple[int, ...]:
    return get_aval(x).shape if isinstance(x, (Array, Tracer)) else tuple(np.shape(x))


def _ne_zero(pred: Any, dtype: np.dtype[Any]) -> Any:
    if not isinstance(pred, Tracer) and not isinstance(pred, Array):
        return np.asarray(pred) != 0
    from jax_core._src.lax import elementwise as lax_api

    return lax_api.ne(pred, lax_api.to_dtype(0, dtype, get_aval(pred).weak_type))


def _cond_internal(api_name: str, index: Any, funs: Sequence[Callable[..., Any]], names: Sequence[str], operands: tuple[Any, ...]) -> Any:
    if config.disable_jit.value and not isinstance(index, Tracer):
        return funs[int(np.asarray(index))](*operands)
    flat, in_tree = tree_flatten(operands)
    avals = [get_aval(x) for x in flat]
    traced = [trace_fun(f, in_tree, avals, api_name) for f in funs]
    # JAX reports branch 0 / true_fun first.
    first = 1 if api_name == "cond" else 0
    ref = traced[first]
    for i, (_, _, tree) in enumerate(traced):
        if i == first:
            continue
        n1, n2 = names[first], names[i]
        check_branch_outputs(api_name, n1, n2, funs[first], funs[i], ref[2], ref[0].out_avals, tree, traced[i][0].out_avals)
    jaxprs, consts = join_consts([t[0] for t in traced], [t[1] for t in traced])
    # Outputs every branch passes through from the same input are not outputs of the cond.
    fwds = [forwarded_inputs(j) for j in jaxprs]
    in_fwd = [f[0] if len(set(f)) == 1 else None for f in zip(*fwds)]
    keep = tuple(f is None for f in in_fwd)
    if not all(keep):
        jaxprs = [prune_outputs(j, keep) for j in jaxprs]
    outs = cond_p.bind(index, *consts, *flat, branches=tuple(jaxprs))
    all_inputs = [*consts, *flat]
    it = iter(outs)
    results = [next(it) if f is None else _asarray(all_inputs[f]) for f in in_fwd]
    return tree_unflatten(ref[2], results)


def _asarray(x: Any) -> Any:
    if isinstance(x, (Array, Tracer)):
        return x
    return as_array(x)


# -- the primitive -------------------------------------------------------------------------
def _cond_abstract_eval(index: ShapedArray, *ops: ShapedArray, branches: tuple[ClosedJaxpr, ...]) -> list[ShapedArray]:
    if index.shape != () or index.dtype != np.int32:
        raise TypeError(f"cond branch index must be an int32 scalar, got {index.str_short()}")
    for b in branches:
        if len(b.in_avals) != len(ops):
            raise TypeError(f"cond branches take {len(b.in_avals)} operands but were given {len(ops)}")
    return list(branches[0].out_avals)


def _cond_lower(ctx: LoweringRuleContext, index: ir.Value[ir.Type], *ops: ir.Value[ir.Type], branches: tuple[ClosedJaxpr, ...]) -> list[ir.Value[ir.Type]]:
    # Each ordered effect of any branch: the branches take its token (captured) and return the
    # new one, as the op's first results (a branch without the effect returns it unchanged).
    effects = ordered_in(e for b in branches for e in b.effects)
    tokens_in = tokens_of(effects)
    case = hlo.CaseOp([*(hlo_util.token_type() for _ in effects), *(aval_to_ir_type(a) for a in ctx.avals_out)], index, len(branches))
    for i, branch in enumerate(branches):
        block = case.regions[i].blocks.append()
        with ir.InsertionPoint(block), token_region(effects, tokens_in):
            outs = ctx.lower_jaxpr(branch.jaxpr, branch.consts, ops)
            hlo.return_([*tokens_of(effects), *outs])
    results = list(case.results)
    set_tokens(effects, results[: len(effects)])
    return results[len(effects) :]


def _cond_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("branches", params["branches"])]


def _bind_cond(index: Any, jaxprs: tuple[ClosedJaxpr, ...], consts: Sequence[Any], operands: Sequence[Any]) -> list[Any]:
    out: list[Any] = cond_p.bind(index, *consts, *operands, branches=jaxprs)
    return out


@cached
def _jvp_branches(branches: tuple[ClosedJaxpr, ...], ops_nz: tuple[bool, ...]) -> tuple[tuple[ClosedJaxpr, ...], tuple[Any, ...], tuple[bool, ...]]:
    out_nz = [any(nz) for nz in zip(*(jvp_jaxpr(b, ops_nz, instantiate=False)[1] for b in branches))]
    jvps, consts = hoist_and_join(tuple(jvp_jaxpr(b, ops_nz, instantiate=out_nz)[0] for b in branches))
    return jvps, consts, tuple(out_nz)


def _cond_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, branches: tuple[ClosedJaxpr, ...]) -> tuple[list[Any], list[Any]]:
    index, *ops = primals
    _, *ops_dot = tangents
    jvps, consts, out_nz = _jvp_branches(branches, tuple(not is_zero(t) for t in ops_dot))
    outs = _bind_cond(index, jvps, consts, [*ops, *(t for t in ops_dot if not is_zero(t))])
    n = len(out_nz)
    it = iter(outs[n:])
    out_avals = branches[0].out_avals
    return outs[:n], [next(it) if nz else Zero(tangent_aval(a)) for a, nz in zip(out_avals, out_nz)]


@cached
def _transpose_branches(branches: tuple[ClosedJaxpr, ...], linear: tuple[bool, ...]) -> tuple[tuple[ClosedJaxpr, ...], tuple[Any, ...]]:
    return hoist_and_join(tuple(transpose_jaxpr(b, linear) for b in branches))


def _cond_transpose(cts: Sequence[Any], index: Any, *ops: Any, branches: tuple[ClosedJaxpr, ...]) -> list[Any]:
    if is_undefined_primal(index):
        raise ValueError("cond: cannot transpose with respect to the branch index")
    linear = tuple(is_undefined_primal(x) for x in ops)
    transposed, consts = _transpose_branches(branches, linear)
    nonlin = [x for x, lin in zip(ops, linear) if not lin]
    it = iter(_bind_cond(index, transposed, consts, [*nonlin, *(instantiate_zeros(ct) for ct in cts)]))
    return [None, *(next(it) if lin else None for lin in linear)]


def _bcast_select(pred: Any, on_true: Any, on_false: Any) -> Any:
    from jax_core._src.lax import elementwise as lax_api
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    shape = get_aval(on_true).shape
    if get_aval(pred).shape != shape:
        pred = broadcast_in_dim(pred, shape, tuple(range(get_aval(pred).ndim)))
    return lax_api.select(pred, on_true, on_false)


def _bcast_select_n(which: Any, *cases: Any) -> Any:
    from jax_core._src.lax import elementwise as lax_api
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    shape = get_aval(cases[0]).shape
    if get_aval(which).shape != shape:
        which = broadcast_in_dim(which, shape, tuple(range(get_aval(which).ndim)))
    return lax_api.select_n(which, *cases)


@cached
def _batch_branches(
    branches: tuple[ClosedJaxpr, ...], size: int, ops_bat: tuple[bool, ...], name: Hashable | None
) -> tuple[tuple[ClosedJaxpr, ...], tuple[Any, ...], tuple[bool, ...]]:
    out_bat = [any(bs) for bs in zip(*(batched_outputs(b, size, ops_bat, name) for b in branches))]
    in_axes = tuple(0 if b else None for b in ops_bat)
    out_axes = tuple(0 if b else None for b in out_bat)
    joined, consts = hoist_and_join(tuple(batch_jaxpr_axes(b, size, in_axes, out_axes, name)[0] for b in branches))
    return joined, consts, tuple(out_bat)


def _cond_batch(args: Sequence[Any], dims: Sequence[int | None], *, branches: tuple[ClosedJaxpr, ...]) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    name = batch_axis_name()
    index, *ops = args
    index_dim, *op_dims = dims
    n_out = len(branches[0].out_avals)
    if index_dim is not None:
        # A batched index: every branch runs on the whole batch and the results are selected.
        from jax_core._src.lax import elementwise as lax_api
        from jax_core._src.lax.ad_ops import stop_gradient

        index = bdim_at_front(index, index_dim, size)
        ops = [bdim_at_front(x, d, size) for x, d in zip(ops, op_dims)]
        branch_outs: list[list[Any]] = []
        for i, b in enumerate(branches):
            batched, _ = batch_jaxpr_axes(b, size, (0,) * len(ops), (0,) * n_out, name)
            # Elements that do not take this branch see their operands through stop_gradient,
            # so its derivatives there (possibly inf/nan) never reach the gradient (JAX #1052).
            taken = lax_api.eq(index, np.int32(i))
            ops_i = [_bcast_select(taken, x, stop_gradient(x)) for x in ops]
            branch_outs.append(eval_jaxpr(batched.jaxpr, batched.consts, *ops_i))
        return [_bcast_select_n(index, *outs) for outs in zip(*branch_outs)], [0] * n_out
    ops = [x if d is None else moveaxis(x, d, 0) for x, d in zip(ops, op_dims)]
    joined, consts, out_bat = _batch_branches(branches, size, tuple(d is not None for d in op_dims), name)
    return _bind_cond(index, joined, consts, ops), [0 if b else None for b in out_bat]


# -- partial evaluation (JAX's _cond_partial_eval) ----------------------------------------------
def _merge_branch_residuals(branch_res_avals: Sequence[Sequence[ShapedArray]]) -> tuple[list[ShapedArray], list[list[int]]]:
    """Residual slots shared across branches by type: ``[x], [y], [x, x] -> [x, y, x]``."""

    def enumerate_equal(xs: Sequence[ShapedArray]) -> list[tuple[ShapedArray, int]]:
        counts: dict[ShapedArray, itertools.count[int]] = {}
        return [(x, next(counts.setdefault(x, itertools.count()))) for x in xs]

    tagged = [enumerate_equal(avals) for avals in branch_res_avals]
    all_tagged = list(dict.fromkeys(t for ts in tagged for t in ts))
    index = {t: i for i, t in enumerate(all_tagged)}
    return [a for a, _ in all_tagged], [[index[t] for t in ts] for ts in tagged]


def _join_known_outputs(known: ClosedJaxpr, num_out: int, res_indices: Sequence[int], all_res: Sequence[ShapedArray]) -> ClosedJaxpr:
    """The known branch, returning every branch's residual slots (zeros for others')."""

    def fun(*args: Any) -> list[Any]:
        outs = eval_jaxpr(known.jaxpr, known.consts, *args)
        res: list[Any] = [None] * len(all_res)
        for i, r in zip(res_indices, outs[num_out:], strict=True):
            res[i] = r
        return [*outs[:num_out], *(zeros_like_aval(a) if r is None else r for r, a in zip(res, all_res))]

    return trace_to_jaxpr(fun, known.in_avals, DebugInfo("cond", None))


class _BranchSplit(NamedTuple):
    """The jaxpr side of a cond's partial evaluation (see ``_cond_partial_eval``)."""

    known: tuple[ClosedJaxpr, ...]  # [known consts, known ops] -> [known outs, residual slots]
    known_consts: tuple[Any, ...]
    staged: tuple[ClosedJaxpr, ...]  # [residual slots, forwarded known ops, unknown ops] -> unknown outs
    forwarded: tuple[int, ...]  # known operands the staged branches read directly (not residuals)
    out_uks: tuple[bool, ...]


@cached
def _partial_eval_branches(
    branches: tuple[ClosedJaxpr, ...], ops_uk: tuple[bool, ...], saveable: SaveablePolicy | None
) -> _BranchSplit:
    """Splits every branch the same way. A residual that is a known operand in a branch is not
    returned by the known cond: the staged cond takes that operand itself (as JAX forwards it).
    Under a ``checkpoint`` policy the branches are split with it, so they save what it allows."""
    out_uks = [any(uks) for uks in zip(*(partial_eval_jaxpr(b, ops_uk, False, saveable)[2] for b in branches))]
    splits = [partial_eval_jaxpr(b, ops_uk, out_uks, saveable) for b in branches]
    num_known_out = out_uks.count(False)
    pruned = [forward_input_residuals(known, num_res) for known, _, _, num_res in splits]
    forwarded = sorted({f for _, fwd in pruned for f in fwd if f is not None})
    known_op_avals = [a for a, uk in zip(branches[0].in_avals, ops_uk) if not uk]
    res_avals = [k.out_avals[num_known_out:] for k, _ in pruned]
    all_res, res_indices = _merge_branch_residuals(res_avals)
    knowns = tuple(_join_known_outputs(k, num_known_out, idx, all_res) for (k, _), idx in zip(pruned, res_indices))
    known_jaxprs, known_consts = hoist_and_join(knowns)
    staged: list[ClosedJaxpr] = []
    for (_, st, _, num_res), (_, fwd), idx in zip(splits, pruned, res_indices):
        j = st.jaxpr
        res_vars: list[Var] = [Var(a) for a in all_res]
        fwd_vars: dict[int, Var] = {}
        kept = iter(idx)
        for v, f in zip(j.invars[:num_res], fwd, strict=True):
            if f is None:
                res_vars[next(kept)] = v
            else:
                fwd_vars[f] = v
        invars = [*res_vars, *(fwd_vars.get(f) or Var(known_op_avals[f]) for f in forwarded), *j.invars[num_res:]]
        staged.append(with_invars(st, invars))
    return _BranchSplit(known_jaxprs, known_consts, tuple(staged), tuple(forwarded), tuple(out_uks))


def _cond_partial_eval(trace: PartialEvalTrace, args: Sequence[Any], unknown: Sequence[bool], *, branches: tuple[ClosedJaxpr, ...]) -> list[Any]:
    index_uk, *ops_uk = unknown
    if index_uk:
        staged_all: list[Any] = trace.bind_staged(cond_p, args, {"branches": branches})
        return staged_all
    sp = _partial_eval_branches(branches, tuple(ops_uk), trace.saveable)
    num_known_out = sp.out_uks.count(False)
    index, *ops = args
    known_ops = [x for x, uk in zip(ops, ops_uk) if not uk]
    known_outs: list[Any] = trace.bind_known(cond_p, [index, *sp.known_consts, *known_ops], {"branches": sp.known})
    unknown_ops = [x for x, uk in zip(ops, ops_uk) if uk]
    residuals = known_outs[num_known_out:]
    trace.mark_saved(residuals)
    staged_in = [index, *residuals, *(known_ops[f] for f in sp.forwarded), *unknown_ops]
    staged_outs: list[Any] = trace.bind_staged(cond_p, staged_in, {"branches": sp.staged})
    return merge_outputs(known_outs[:num_known_out], staged_outs, sp.out_uks)


cond_p: Primitive = Primitive("cond", multiple_results=True)
cond_p.def_rules(
    Rules(
        abstract_eval=_cond_abstract_eval,
        lower=_cond_lower,
        jvp=_cond_jvp,
        transpose=_cond_transpose,
        batch=_cond_batch,
        partial_eval=_cond_partial_eval,
        pp=_cond_pp,
    )
)
