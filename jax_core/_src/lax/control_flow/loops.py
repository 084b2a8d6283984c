"""``lax.while_loop`` and ``lax.fori_loop``: the ``while`` primitive and all its rules.

``while_p`` takes the cond function's constants, the body's constants and the carry
(``cond_nconsts``/``body_nconsts`` say how many of each); it lowers to one StableHLO
``while``. It is forward-differentiable (the tangent carries ride along); reverse mode
raises JAX's error, since the number of iterations is not known before running. Under
``vmap`` with a batched predicate the loop runs while any element's predicate holds,
and elements that are done keep their carry (a select in the body).

``fori_loop`` with static bounds is a ``scan`` (so it is reverse-differentiable, as in
JAX); with traced bounds it is a ``while``.
"""

from __future__ import annotations

import functools

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from jax_core._src import config
from jax_core._src.core.effects import ordered_in, unrepeatable_effects
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import ConcretizationTypeError
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad import jvp_jaxpr
from jax_core._src.interpreters.ad_util import Zero, instantiate_zeros, is_zero, tangent_aval
from jax_core._src.interpreters.batching_util import axis_size, broadcast_batch, moveaxis
from jax_core._src.interpreters.partial_eval import PartialEvalTrace, partial_eval_jaxpr
from jax_core._src.lax.control_flow.common import (
    batch_axis_name,
    batch_jaxpr_axes,
    batched_outputs,
    cached,
    check_carry_type,
    hoist_consts,
    lower_fun,
    merge,
    permute_binders,
    prune_outputs,
    split,
    trace_flat,
    trace_fun,
    typematch,
)
from jax_core._src.lax.shape.compositions import as_array
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, lower_jaxpr_body, set_tokens, token_region, tokens_of
from jax_core._src.tree.tree_util import (
    PyTreeDef,
    tree_flatten,
    tree_map,
    tree_unflatten,
    treedef_is_leaf,
)

T = TypeVar("T")


# -- public API ------------------------------------------------------------------------------
def while_loop(cond_fun: Callable[[T], Any], body_fun: Callable[[T], T], init_val: T) -> T:
    """Calls ``body_fun`` repeatedly while ``cond_fun`` is true. Semantics of::

        def while_loop(cond_fun, body_fun, init_val):
          val = init_val
          while cond_fun(val):
            val = body_fun(val)
          return val

    The carry ``val`` (any pytree of arrays) must keep its structure, shapes and dtypes.
    Lowered to one XLA While; forward-mode differentiable, not reverse-mode (use ``scan``
    or ``fori_loop`` with static bounds).
    """
    if not (callable(body_fun) and callable(cond_fun)):
        raise TypeError("lax.while_loop: body_fun and cond_fun arguments should be callable.")
    if config.disable_jit.value:
        try:
            val: T = tree_map(_asarray, init_val)
            while cond_fun(val):
                val = tree_map(_asarray, body_fun(val))
            return val
        except ConcretizationTypeError:
            pass
    init_flat, in_tree = tree_flatten(init_val)
    init_avals = [get_aval(x) for x in init_flat]
    cond_j, cond_consts, body_j, body_consts, out_tree = _trace_while(cond_fun, body_fun, in_tree, init_avals)
    if out_tree != in_tree:
        check_carry_type("while_loop body", body_fun, in_tree, init_avals, out_tree, body_j.out_avals)
    init_flat, changed = promote_weak_typed_inputs(init_flat, init_avals, body_j.out_avals)
    if changed:
        init_avals = [get_aval(x) for x in init_flat]
        cond_j, cond_consts, body_j, body_consts, out_tree = _trace_while(cond_fun, body_fun, in_tree, init_avals)
    check_carry_type("while_loop body", body_fun, in_tree, init_avals, out_tree, body_j.out_avals)
    outs = while_p.bind(
        *cond_consts,
        *body_consts,
        *init_flat,
        cond_jaxpr=cond_j,
        body_jaxpr=body_j,
        cond_nconsts=len(cond_consts),
        body_nconsts=len(body_consts),
    )
    out: T = tree_unflatten(in_tree, outs)
    return out


def _trace_while(
    cond_fun: Callable[..., Any], body_fun: Callable[..., Any], in_tree: PyTreeDef, avals: Sequence[ShapedArray]
) -> tuple[ClosedJaxpr, list[Any], ClosedJaxpr, list[Any], PyTreeDef]:
    from jax_core._src.tree.tree_util import treedef_tuple

    args_tree = treedef_tuple([in_tree])
    cond_j, cond_consts, cond_tree = trace_fun(cond_fun, args_tree, avals, "while_cond")
    body_j, body_consts, body_tree = trace_fun(body_fun, args_tree, avals, "while_body")
    if not treedef_is_leaf(cond_tree) or len(cond_j.out_avals) != 1:
        raise TypeError(f"cond_fun must return a boolean scalar, but got pytree {cond_tree}.")
    pred = cond_j.out_avals[0]
    if pred.shape != () or pred.dtype != np.bool_:
        raise TypeError(f"cond_fun must return a boolean scalar, but got output type(s) {cond_j.out_avals}.")
    return cond_j, cond_consts, body_j, body_consts, body_tree


def _asarray(x: Any) -> Any:
    return as_array(x)


def promote_weak_typed_inputs(vals: Sequence[Any], in_avals: Sequence[ShapedArray], out_avals: Sequence[ShapedArray]) -> tuple[list[Any], bool]:
    """Weakly-typed initial carries converted to the type the body returns (as JAX does)."""
    from jax_core._src.dtypes.promotion import result_type
    from jax_core._src.lax import elementwise as lax_api

    out: list[Any] = []
    changed = False
    for v, a, b in zip(vals, in_avals, out_avals):
        if a.weak_type and not typematch(a, b):
            out.append(lax_api.convert_element_type(v, result_type(v, np.zeros((), b.dtype))))
            changed = True
        else:
            out.append(v)
    return out, changed


def fori_loop(lower: Any, upper: Any, body_fun: Callable[[Any, T], T], init_val: T, *, unroll: int | bool | None = None) -> T:
    """Loops ``body_fun(i, val)`` for ``i`` in ``range(lower, upper)``. Semantics of::

        def fori_loop(lower, upper, body_fun, init_val):
          val = init_val
          for i in range(lower, upper):
            val = body_fun(i, val)
          return val

    With concrete bounds this is a ``scan`` (reverse-mode differentiable; ``unroll`` applies);
    with traced bounds a ``while_loop`` (forward-mode only).
    """
    if not callable(body_fun):
        raise TypeError("lax.fori_loop: body_fun argument should be callable.")
    from jax_core._src import dtypes

    lower_dtype, upper_dtype = get_aval(lower).dtype, get_aval(upper).dtype
    if lower_dtype == upper_dtype:
        dtype: np.dtype[Any] | None = lower_dtype
    else:
        dtype = None
        if dtypes.issubdtype(lower_dtype, np.signedinteger) and dtypes.issubdtype(upper_dtype, np.signedinteger):
            lower_weak, upper_weak = dtypes.is_weakly_typed(lower), dtypes.is_weakly_typed(upper)
            if lower_weak and not upper_weak:
                dtype = upper_dtype
            elif upper_weak and not lower_weak:
                dtype = lower_dtype
        if dtype is None:
            raise TypeError(
                f"lower and upper arguments to fori_loop must have equal types, got {lower_dtype.name} and {upper_dtype.name}"
            )
    if not isinstance(lower, Tracer) and not isinstance(upper, Tracer):
        lower_, upper_ = int(lower), int(upper)
        length = max(upper_ - lower_, 0)
        if config.disable_jit.value and length == 0:
            return init_val
        from jax_core._src.lax.control_flow.scan import scan

        def scanned_fun(loop_carry: tuple[Any, T], _: None) -> tuple[tuple[Any, T], None]:
            i, x = loop_carry
            return (i + 1, body_fun(i, x)), None

        (_, result), _ = scan(scanned_fun, (lower_, init_val), None, length=length, unroll=False if unroll is None else unroll)
        return result
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are statically known.")
    from jax_core._src.lax import elementwise as lax_api

    assert dtype is not None
    if lower_dtype != dtype:
        lower = lax_api.convert_element_type(lower, dtype)
    if upper_dtype != dtype:
        upper = lax_api.convert_element_type(upper, dtype)

    def while_cond(loop_carry: tuple[Any, Any, T]) -> Any:
        i, stop, _ = loop_carry
        return lax_api.lt(i, stop)

    def while_body(loop_carry: tuple[Any, Any, T]) -> tuple[Any, Any, T]:
        i, stop, x = loop_carry
        return i + 1, stop, body_fun(i, x)

    _, _, result = while_loop(while_cond, while_body, (lower, upper, init_val))
    return result


def while_flat(cond_fun: Callable[..., Any], body_fun: Callable[..., Sequence[Any]], init: Sequence[Any]) -> list[Any]:
    """A ``while`` on a flat list carry (no checks; for rules that build loops)."""
    avals = [get_aval(x) for x in init]
    cond_j, cond_consts = trace_flat(lambda *c: [cond_fun(*c)], avals, "while_cond")
    body_j, body_consts = trace_flat(lambda *c: list(body_fun(*c)), avals, "while_body")
    out: list[Any] = while_p.bind(
        *cond_consts,
        *body_consts,
        *init,
        cond_jaxpr=cond_j,
        body_jaxpr=body_j,
        cond_nconsts=len(cond_consts),
        body_nconsts=len(body_consts),
    )
    return out


# -- the primitive -------------------------------------------------------------------------
def _while_abstract_eval(
    *avals: ShapedArray, cond_jaxpr: ClosedJaxpr, body_jaxpr: ClosedJaxpr, cond_nconsts: int, body_nconsts: int
) -> list[ShapedArray]:
    _, _, carry = split(avals, [cond_nconsts, body_nconsts])
    if len(cond_jaxpr.in_avals) != cond_nconsts + len(carry) or len(body_jaxpr.in_avals) != body_nconsts + len(carry):
        raise TypeError("while_loop: the number of operands does not match cond_jaxpr and body_jaxpr")
    if not all(typematch(a, b) for a, b in zip(carry, body_jaxpr.out_avals, strict=True)):
        raise TypeError(
            f"while_loop body output types {[a.str_short() for a in body_jaxpr.out_avals]} do not match the carry "
            f"types {[a.str_short() for a in carry]}"
        )
    return list(body_jaxpr.out_avals)


def _while_lower(
    ctx: LoweringRuleContext,
    *args: ir.Value[ir.Type],
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> list[ir.Value[ir.Type]]:
    if ordered_in(cond_jaxpr.effects):
        return lower_fun(
            functools.partial(_cond_first_loop, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts), ctx.avals_in, args
        )
    # The tokens of the body's ordered effects are carried first (JAX's layout).
    effects = ordered_in(body_jaxpr.effects)
    k = len(effects)
    types = [*(hlo_util.token_type() for _ in effects), *(aval_to_ir_type(a) for a in ctx.avals_in)]
    pred_aval = cond_jaxpr.out_avals[0]
    batched = bool(pred_aval.shape)
    carry_avals = list(ctx.avals_in[cond_nconsts + body_nconsts :])
    op = hlo.WhileOp(types, [*tokens_of(effects), *args])

    def run_cond(cc: Sequence[ir.Value[ir.Type]], carry: Sequence[ir.Value[ir.Type]]) -> ir.Value[ir.Type]:
        (pred,) = lower_jaxpr_body(cond_jaxpr.jaxpr, [], [*cc, *carry])
        return pred

    cond_block = op.regions[0].blocks.append(*types)
    with ir.InsertionPoint(cond_block):
        cc, _, carry = split(list(cond_block.arguments)[k:], [cond_nconsts, body_nconsts])
        pred = run_cond(cc, carry)
        if batched:
            from jax_core._src.lax.reductions.reduce import reduce_or

            def any_true(p: Any) -> list[Any]:
                return [reduce_or(p, tuple(range(pred_aval.ndim)))]

            (pred,) = lower_fun(any_true, [pred_aval], [pred])
        hlo.return_([pred])
    body_block = op.regions[1].blocks.append(*types)
    body_args = list(body_block.arguments)
    with ir.InsertionPoint(body_block), token_region(effects, body_args[:k]):
        cc, bc, carry = split(body_args[k:], [cond_nconsts, body_nconsts])
        new = lower_jaxpr_body(body_jaxpr.jaxpr, [], [*bc, *carry])
        if batched:
            # Elements whose predicate is false keep their carry.
            body_pred = run_cond(cc, carry)
            new = lower_fun(_select_done, [pred_aval, *carry_avals, *carry_avals], [body_pred, *new, *carry])
        hlo.return_([*tokens_of(effects), *cc, *bc, *new])
    results = list(op.results)
    set_tokens(effects, results[:k])
    return results[k + cond_nconsts + body_nconsts :]


def _cond_first_loop(cond_jaxpr: ClosedJaxpr, body_jaxpr: ClosedJaxpr, cond_nconsts: int, body_nconsts: int, *args: Any) -> list[Any]:
    """A while loop whose ``cond_fun`` has ordered effects, as JAX lowers it: the predicate is
    computed before the loop and at the end of each iteration, inside the body, so the cond's
    effects are threaded like the body's (a loop's cond region cannot carry tokens)."""
    from jax_core._src.lax.reductions.reduce import reduce_or

    cc, bc, carry = split(list(args), [cond_nconsts, body_nconsts])

    def pred_of(c: Sequence[Any]) -> Any:
        (p,) = eval_jaxpr(cond_jaxpr.jaxpr, cond_jaxpr.consts, *cc, *c)
        return reduce_or(p, tuple(range(get_aval(p).ndim))) if get_aval(p).ndim else p

    def body(state: tuple[Any, list[Any]]) -> tuple[Any, list[Any]]:
        new = eval_jaxpr(body_jaxpr.jaxpr, body_jaxpr.consts, *bc, *state[1])
        return pred_of(new), new

    _, out = while_loop(lambda state: state[0], body, (pred_of(carry), carry))
    return list(out)


def _select_done(pred: Any, *new_and_old: Any) -> list[Any]:
    from jax_core._src.lax import elementwise as lax_api
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    n = len(new_and_old) // 2
    pred_ndim = get_aval(pred).ndim
    out: list[Any] = []
    for new, old in zip(new_and_old[:n], new_and_old[n:]):
        shape = get_aval(new).shape
        p = pred if shape == get_aval(pred).shape else broadcast_in_dim(pred, shape, tuple(range(pred_ndim)))
        out.append(lax_api.select(p, new, old))
    return out


@cached
def _jvp_body(
    cond_jaxpr: ClosedJaxpr, body_jaxpr: ClosedJaxpr, body_nconsts: int, bconst_nz: tuple[bool, ...], init_nz: tuple[bool, ...]
) -> tuple[ClosedJaxpr, ClosedJaxpr, tuple[Any, ...], tuple[bool, ...]]:
    """``(augmented cond, jvp body, the body's hoisted constants, which carries have tangents)``."""
    carry_nz = list(init_nz)
    for _ in range(1 + len(carry_nz)):
        body_jvp, out_nz = jvp_jaxpr(body_jaxpr, [*bconst_nz, *carry_nz], instantiate=carry_nz)
        if out_nz == carry_nz:
            break
        carry_nz = [a or b for a, b in zip(carry_nz, out_nz)]
    else:
        raise AssertionError("while_loop jvp: fixpoint not reached")
    # jvp binders are [bconsts, carry, bconst dots, carry dots]; while wants the consts first.
    body_jvp, hoisted = hoist_consts(body_jvp)
    nh, nb, nc = len(hoisted), body_nconsts, len(carry_nz)
    nbd, ncd = bconst_nz.count(True), carry_nz.count(True)
    order = [
        *range(nh + nb),
        *range(nh + nb + nc, nh + nb + nc + nbd),
        *range(nh + nb, nh + nb + nc),
        *range(nh + nb + nc + nbd, nh + nb + nc + nbd + ncd),
    ]
    body_jvp = permute_binders(body_jvp, order, None)
    cj = cond_jaxpr.jaxpr
    carry_avals = body_jaxpr.in_avals[body_nconsts:]
    dots = [Var(tangent_aval(a)) for a, nz in zip(carry_avals, carry_nz) if nz]
    cond_aug = ClosedJaxpr(Jaxpr([], [*cj.invars, *dots], cj.outvars, cj.eqns), [])
    return cond_aug, body_jvp, hoisted, tuple(carry_nz)


def _while_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, cond_jaxpr: ClosedJaxpr, body_jaxpr: ClosedJaxpr, cond_nconsts: int, body_nconsts: int
) -> tuple[list[Any], list[Any]]:
    nonzeros = [not is_zero(t) for t in tangents]
    _, bconst_nz, init_nz = split(nonzeros, [cond_nconsts, body_nconsts])
    cond_aug, body_jvp, hoisted, carry_nz = _jvp_body(cond_jaxpr, body_jaxpr, body_nconsts, tuple(bconst_nz), tuple(init_nz))
    cconst, bconst, init = split(primals, [cond_nconsts, body_nconsts])
    _, bconst_dot, init_dot = split(tangents, [cond_nconsts, body_nconsts])
    bconst_dot = [t for t in bconst_dot if not is_zero(t)]
    init_dot = [instantiate_zeros(t) for t, nz in zip(init_dot, carry_nz) if nz]
    out = while_p.bind(
        *cconst,
        *hoisted,
        *bconst,
        *bconst_dot,
        *init,
        *init_dot,
        cond_jaxpr=cond_aug,
        body_jaxpr=body_jvp,
        cond_nconsts=cond_nconsts,
        body_nconsts=len(hoisted) + body_nconsts + len(bconst_dot),
    )
    nc = len(init)
    carry_out, carry_dot = out[:nc], iter(out[nc:])
    return carry_out, [next(carry_dot) if nz else Zero(tangent_aval(get_aval(p))) for p, nz in zip(carry_out, carry_nz)]


def _while_transpose(*args: Any, **params: Any) -> list[Any]:
    raise ValueError(
        "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop "
        "values. Try using lax.scan, or using fori_loop with static start/stop."
    )


@cached
def _partial_eval_loop(
    cond_jaxpr: ClosedJaxpr, body_jaxpr: ClosedJaxpr, cc_uk: tuple[bool, ...], bc_uk: tuple[bool, ...], init_uk: tuple[bool, ...]
) -> tuple[tuple[bool, ...], ClosedJaxpr, tuple[Any, ...], ClosedJaxpr, tuple[Any, ...]] | None:
    """The known loop: ``(carry unknowns, cond, its constants, body, its constants)``, or
    None when nothing can be computed without the unknown inputs."""
    carry_uk = list(init_uk)
    for _ in range(1 + len(carry_uk)):
        body_known, _, out_uk, _ = partial_eval_jaxpr(body_jaxpr, [*bc_uk, *carry_uk], instantiate=carry_uk)
        if out_uk == carry_uk:
            break
        carry_uk = [a or b for a, b in zip(carry_uk, out_uk)]
    else:
        raise AssertionError("while_loop partial eval: fixpoint not reached")
    cond_known, _, cond_uk, _ = partial_eval_jaxpr(cond_jaxpr, [*cc_uk, *carry_uk], instantiate=False)
    if cond_uk[0] or all(carry_uk):
        return None
    num_known = carry_uk.count(False)
    n_cond_out = len(cond_known.out_avals)
    cond_known, cond_hoisted = hoist_consts(prune_outputs(cond_known, (True,) + (False,) * (n_cond_out - 1)))
    body_known, body_hoisted = hoist_consts(prune_outputs(body_known, tuple(i < num_known for i in range(len(body_known.out_avals)))))
    return tuple(carry_uk), cond_known, cond_hoisted, body_known, body_hoisted


def _while_partial_eval(
    trace: PartialEvalTrace,
    args: Sequence[Any],
    unknown: Sequence[bool],
    *,
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> list[Any]:
    """Known carries are computed by a loop of the known part of the body; the unknown
    ones by staging the whole loop (recomputing the known part), as JAX does. So
    ``linearize`` works, and transposing the staged loop gives JAX's reverse-mode error."""
    params = dict(cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr, cond_nconsts=cond_nconsts, body_nconsts=body_nconsts)
    cc_uk, bc_uk, init_uk = split(unknown, [cond_nconsts, body_nconsts])
    known = _partial_eval_loop(cond_jaxpr, body_jaxpr, tuple(cc_uk), tuple(bc_uk), tuple(init_uk))
    staged: list[Any] = trace.bind_staged(while_p, args, params)
    if known is None:
        return staged
    carry_uk, cond_known, cond_hoisted, body_known, body_hoisted = known
    cc, bc, carry = split(args, [cond_nconsts, body_nconsts])
    known_cc = [x for x, u in zip(cc, cc_uk) if not u]
    known_bc = [x for x, u in zip(bc, bc_uk) if not u]
    known_carry = [x for x, u in zip(carry, carry_uk) if not u]
    known_outs: list[Any] = trace.bind_known(
        while_p,
        [*cond_hoisted, *known_cc, *body_hoisted, *known_bc, *known_carry],
        dict(
            cond_jaxpr=cond_known,
            body_jaxpr=body_known,
            cond_nconsts=len(cond_hoisted) + len(known_cc),
            body_nconsts=len(body_hoisted) + len(known_bc),
        ),
    )
    return merge(carry_uk, [s for s, u in zip(staged, carry_uk) if u], known_outs)


@cached
def _batch_loop(
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    size: int,
    cconst_bat: tuple[bool, ...],
    bconst_bat: tuple[bool, ...],
    init_bat: tuple[bool, ...],
    name: Hashable | None,
) -> tuple[ClosedJaxpr, tuple[Any, ...], ClosedJaxpr, tuple[Any, ...], tuple[int | None, ...]]:
    """``(cond, its constants, body, its constants, carry batch axes)`` batched."""
    carry_bat = list(init_bat)
    for _ in range(1 + len(carry_bat)):
        out_bat = batched_outputs(body_jaxpr, size, [*bconst_bat, *carry_bat], name)
        new = [a or b for a, b in zip(carry_bat, out_bat)]
        if new == carry_bat:
            break
        carry_bat = new
    else:
        raise AssertionError("while_loop batching: fixpoint not reached")
    (pred_bat,) = batched_outputs(cond_jaxpr, size, [*cconst_bat, *carry_bat], name)
    cc_axes = tuple(0 if b else None for b in cconst_bat)
    bc_axes = tuple(0 if b else None for b in bconst_bat)
    if pred_bat:
        # Every carry is batched; the loop runs while any element's predicate holds.
        carry_dims: tuple[int | None, ...] = (0,) * len(carry_bat)
        cond_out: tuple[int | None, ...] = (0,)
    else:
        # The predicate keeps its (possibly already batched) shape as a prefix of every carry.
        rank = cond_jaxpr.out_avals[0].ndim
        carry_dims = tuple(rank if b else None for b in carry_bat)
        cond_out = (None,)
    body_b, _ = batch_jaxpr_axes(body_jaxpr, size, bc_axes + carry_dims, carry_dims, name)
    cond_b, _ = batch_jaxpr_axes(cond_jaxpr, size, cc_axes + carry_dims, cond_out, name)
    cond_b, ch = hoist_consts(cond_b)
    body_b, bh = hoist_consts(body_b)
    return cond_b, ch, body_b, bh, carry_dims


def _while_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    cond_jaxpr: ClosedJaxpr,
    body_jaxpr: ClosedJaxpr,
    cond_nconsts: int,
    body_nconsts: int,
) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    cconsts, bconsts, init = split(args, [cond_nconsts, body_nconsts])
    cdims, bdims, idims = split(dims, [cond_nconsts, body_nconsts])
    cond_b, ch, body_b, bh, carry_dims = _batch_loop(
        cond_jaxpr,
        body_jaxpr,
        size,
        tuple(d is not None for d in cdims),
        tuple(d is not None for d in bdims),
        tuple(d is not None for d in idims),
        batch_axis_name(),
    )
    if cond_b.out_avals[0].shape and unrepeatable_effects.filter_in((*cond_jaxpr.effects, *body_jaxpr.effects)):
        # A batched predicate runs the body for finished elements too: IO cannot be undone (JAX's error).
        raise Exception("Unordered IO effects not supported in while_loop with batched predicate")
    # Constants go to axis 0 once, outside the loop.
    cconsts = [x if d is None else moveaxis(x, d, 0) for x, d in zip(cconsts, cdims)]
    bconsts = [x if d is None else moveaxis(x, d, 0) for x, d in zip(bconsts, bdims)]
    new_init = [
        x if dst is None else broadcast_batch(x, size, dst) if d is None else moveaxis(x, d, dst)
        for x, d, dst in zip(init, idims, carry_dims)
    ]
    outs: list[Any] = while_p.bind(
        *ch,
        *cconsts,
        *bh,
        *bconsts,
        *new_init,
        cond_jaxpr=cond_b,
        body_jaxpr=body_b,
        cond_nconsts=len(ch) + cond_nconsts,
        body_nconsts=len(bh) + body_nconsts,
    )
    return outs, list(carry_dims)


while_p: Primitive = Primitive("while", multiple_results=True)
while_p.def_rules(
    Rules(
        abstract_eval=_while_abstract_eval,
        lower=_while_lower,
        jvp=_while_jvp,
        transpose=_while_transpose,
        batch=_while_batch,
        partial_eval=_while_partial_eval,
    )
)
