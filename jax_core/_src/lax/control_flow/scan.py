"""``lax.scan`` and ``lax.map``: the ``scan`` primitive and all its rules.

``scan_p`` takes ``num_consts`` loop-invariant operands, ``num_carry`` carries and the
scanned-over ``xs``; its ``jaxpr`` maps ``(consts, carry, x) -> (carry, y)`` and the ``ys``
are stacked along a new leading axis of ``length``. It lowers to a StableHLO ``while``
over an index, with dynamic slices of the ``xs`` and dynamic updates of the ``ys``
(``unroll`` body copies per iteration). Under ``linearize``/``grad`` the body is split
into a known scan that also emits per-iteration residuals as extra ``ys`` and a staged
scan consuming them as extra ``xs`` (loop-invariant residuals are hoisted out as consts);
the staged scan transposes to a scan running the other way.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple, TypeVar

import numpy as np

from jax_core._src import config
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import ConcretizationTypeError
from jax_core._src.core.jaxpr import ClosedJaxpr, Var, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval, set_current_trace
from jax_core._src.interpreters.ad import backward_pass, jvp_jaxpr
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    add_tangents,
    instantiate_zeros,
    is_undefined_primal,
    is_zero,
    tangent_aval,
    zeros_like_aval,
)
from jax_core._src.interpreters.batching import vmap_flat
from jax_core._src.interpreters.batching_util import axis_size, broadcast_batch, moveaxis
from jax_core._src.interpreters.partial_eval import (
    PartialEvalTrace,
    SaveablePolicy,
    merge_outputs,
    partial_eval_jaxpr,
)
from jax_core._src.lax.control_flow.common import (
    AvalRepr,
    batch_axis_name,
    batch_jaxpr_axes,
    batched_outputs,
    cached,
    check_carry_type,
    hoist_consts,
    lower_fun,
    merge,
    permute_binders,
    split,
    trace_flat,
    trace_fun,
    typematch,
)
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.lax.control_flow.loops import promote_weak_typed_inputs, while_flat
from jax_core._src.lax.dim_values import dimension_as_value
from jax_core._src.lax.elementwise import convert_element_type
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_map, tree_unflatten

Carry = TypeVar("Carry")
X = TypeVar("X")
Y = TypeVar("Y")


# -- public API ------------------------------------------------------------------------------
def scan(
    f: Callable[[Carry, X], tuple[Carry, Y]],
    init: Carry,
    xs: X | None = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
) -> tuple[Carry, Y]:
    """Scans ``f`` over the leading axis of ``xs`` while carrying state. Semantics of::

        def scan(f, init, xs, length=None):
          if xs is None:
            xs = [None] * length
          carry = init
          ys = []
          for x in xs:
            carry, y = f(carry, x)
            ys.append(y)
          return carry, np.stack(ys)

    ``init``, ``xs`` and the ``ys`` may be pytrees; the carry must keep its structure and
    types. ``reverse`` scans from the end; ``unroll`` puts that many body copies in each
    loop iteration (``True``: all of them). Lowered to one XLA While; differentiable in
    both modes. JAX's experimental ``_split_transpose`` is not supported.
    """
    if not callable(f):
        raise TypeError("lax.scan: f argument should be a callable.")
    if _split_transpose:
        raise NotImplementedError("scan(_split_transpose=True) is not implemented in jax_core")
    init_flat, init_tree = tree_flatten(init)
    xs_flat, xs_tree = tree_flatten(xs)
    xs_avals = [get_aval(x) for x in xs_flat]
    length = _infer_scan_length(xs_flat, xs_avals, length)
    if config.disable_jit.value:
        result: tuple[Carry, Y] = _scan_python(f, init, xs_flat, xs_tree, length, reverse)
        return result
    in_tree = tree_flatten((init, xs))[1]
    x_avals = [a.update(shape=a.shape[1:]) for a in xs_avals]

    def create(init_avals: list[ShapedArray]) -> tuple[ClosedJaxpr, list[Any], Any, list[ShapedArray], list[ShapedArray], Any]:
        jaxpr, consts, out_tree = trace_fun(f, in_tree, [*init_avals, *x_avals], "scan")
        out = tree_unflatten(out_tree, [AvalRepr(a) for a in jaxpr.out_avals])
        if not isinstance(out, (tuple, list)) or len(out) != 2:  # pyright: ignore[reportUnknownArgumentType]
            raise TypeError(f"scan body output must be a pair, got {out!r}.")
        carry_leaves, carry_tree = tree_flatten(out[0])
        _, ys_tree = tree_flatten(out[1])
        carry_avals = [r.aval for r in carry_leaves]
        return jaxpr, consts, carry_tree, carry_avals, jaxpr.out_avals[len(carry_avals) :], ys_tree

    init_avals = [get_aval(x) for x in init_flat]
    jaxpr, consts, carry_tree, carry_avals, _, ys_tree = create(init_avals)
    if carry_tree != init_tree:
        check_carry_type("scan body", f, init_tree, init_avals, carry_tree, carry_avals)
    init_flat, changed = promote_weak_typed_inputs(init_flat, init_avals, carry_avals)
    if changed:
        init_avals = [get_aval(x) for x in init_flat]
        jaxpr, consts, carry_tree, carry_avals, _, ys_tree = create(init_avals)
    check_carry_type("scan body", f, init_tree, init_avals, carry_tree, carry_avals)
    if isinstance(unroll, Tracer):
        unroll.concretization_error("The `unroll` argument to `scan` expects a concrete `int` or `bool` value.")
    unroll = (max(length, 1) if unroll else 1) if isinstance(unroll, bool) else int(unroll)
    if unroll < 0:
        raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")
    n_in = len(consts) + len(init_flat) + len(xs_flat)
    outs = scan_p.bind(
        *consts,
        *init_flat,
        *xs_flat,
        jaxpr=jaxpr,
        length=length,
        reverse=bool(reverse),
        linear=(False,) * n_in,
        unroll=unroll,
        num_consts=len(consts),
        num_carry=len(init_flat),
    )
    carry_out, ys = split(outs, [len(init_flat)])[:2]
    return tree_unflatten(carry_tree, carry_out), tree_unflatten(ys_tree, ys)


def _infer_scan_length(xs_flat: Sequence[Any], xs_avals: Sequence[ShapedArray], length: Any) -> int:
    no_axis = [x for x, a in zip(xs_flat, xs_avals) if a.ndim == 0]
    if no_axis:
        msg = f"scan got value with no leading axis to scan over: {', '.join(str(x) for x in no_axis)}."
        # JAX's classes: ValueError for a Python scalar, IndexError for a 0-d array
        raise ValueError(msg) if any(not hasattr(x, "shape") for x in no_axis) else IndexError(msg)
    lengths = [a.shape[0] for a in xs_avals]
    if length is not None:
        try:
            n_iter = int(length)
        except ConcretizationTypeError:
            raise ConcretizationTypeError(
                "The `length` argument to `scan` expects a concrete `int` value. For scan-like iteration with a "
                "dynamic length, use `while_loop` or `fori_loop`."
            ) from None
        if not all(n_iter == n for n in lengths):
            raise ValueError(f"scan got `length` argument of {n_iter} which disagrees with leading axis sizes {lengths}.")
        return n_iter
    if len(set(lengths)) > 1:
        raise ValueError(f"scan got values with different leading axis sizes: {', '.join(str(n) for n in lengths)}.")
    if not lengths:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    return lengths[0]


def _scan_python(f: Callable[..., Any], init: Any, xs_flat: Sequence[Any], xs_tree: Any, length: int, reverse: bool) -> Any:
    if length == 0:
        raise ValueError("zero-length scan is not supported in disable_jit() mode because the output type is unknown.")
    from jax_core._src.lax.shape.assembly import concatenate
    from jax_core._src.lax.shape.dimensions import expand_dims

    carry = init
    ys: list[Any] = []
    for i in reversed(range(length)) if reverse else range(length):
        carry, y = f(carry, tree_unflatten(xs_tree, [_index(x, i) for x in xs_flat]))
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, tree_map(lambda *ls: concatenate([expand_dims(y, (0,)) for y in ls], 0), *ys)


def map(f: Callable[[X], Y], xs: X, *, batch_size: int | None = None) -> Y:
    """Maps ``f`` over the leading axis of ``xs`` (pytrees), stacking the results.

    Semantics of ``np.stack([f(x) for x in xs])``, as one ``scan``. With ``batch_size``, the
    elements are processed ``batch_size`` at a time with ``vmap`` inside the scan (and the
    remainder by one more ``vmap``); ``batch_size=0`` is a plain ``vmap``.
    """
    if batch_size is None:
        _, ys = scan(lambda _, x: ((), f(x)), (), xs)
        return ys
    from jax_core._src.lax.shape.assembly import concatenate
    from jax_core._src.lax.shape.dimensions import reshape

    leaves, tree = tree_flatten(xs)
    if not leaves:
        unbatched: Y = _vmap_leading(f)(xs)
        return unbatched
    n = get_aval(leaves[0]).shape[0]
    num_batches, remainder = (0, n) if batch_size == 0 else divmod(n, batch_size)
    done = num_batches * batch_size
    vf = _vmap_leading(f)
    if num_batches == 0:
        whole: Y = vf(xs)
        return whole
    scan_xs = tree_unflatten(
        tree, [reshape(_slice_leading(x, 0, done), (num_batches, batch_size, *get_aval(x).shape[1:])) for x in leaves]
    )
    _, scan_ys = scan(lambda _, x: ((), vf(x)), (), scan_xs)

    def flatten(y: Any) -> Any:
        a = get_aval(y)
        return reshape(y, (a.shape[0] * a.shape[1], *a.shape[2:]))

    if not remainder:
        out: Y = tree_map(flatten, scan_ys)
        return out
    rem_ys = vf(tree_unflatten(tree, [_slice_leading(x, done, n) for x in leaves]))
    out = tree_map(lambda a, b: concatenate([flatten(a), b], 0), scan_ys, rem_ys)
    return out


def _slice_leading(x: Any, start: int, stop: int) -> Any:
    from jax_core._src.lax.indexing.slicing import slice as lax_slice

    shape = get_aval(x).shape
    return lax_slice(x, (start, *(0 for _ in shape[1:])), (stop, *shape[1:]))


def _index(x: Any, i: Any) -> Any:
    """``x[i]`` along the leading axis for a static or traced ``i``."""
    from jax_core._src.lax.indexing.slicing import dynamic_slice
    from jax_core._src.lax.shape.dimensions import reshape

    shape = get_aval(x).shape
    zero = np.int32(0)
    piece = dynamic_slice(x, [i, *(zero for _ in shape[1:])], (1, *shape[1:]), allow_negative_indices=False)
    return reshape(piece, shape[1:])


def _update(buf: Any, y: Any, i: Any) -> Any:
    from jax_core._src.lax.indexing.slicing import dynamic_update_slice
    from jax_core._src.lax.shape.dimensions import reshape

    shape = get_aval(y).shape
    zero = np.int32(0)
    return dynamic_update_slice(buf, reshape(y, (1, *shape)), [i, *(zero for _ in shape)], allow_negative_indices=False)


# -- the primitive -------------------------------------------------------------------------
def _scan_abstract_eval(
    *avals: ShapedArray,
    jaxpr: ClosedJaxpr,
    length: int,
    reverse: bool,
    linear: tuple[bool, ...],
    unroll: int,
    num_consts: int,
    num_carry: int,
) -> list[ShapedArray]:
    _, carry, xs = split(avals, [num_consts, num_carry])
    if len(avals) != len(jaxpr.in_avals) or len(linear) != len(avals):
        raise TypeError(f"scan got {len(avals)} operands for a body taking {len(jaxpr.in_avals)}")
    if any(a.ndim == 0 or a.shape[0] != length for a in xs):
        raise TypeError(f"scan xs must have leading axis of size {length}, got {[a.str_short() for a in xs]}")
    carry_out = jaxpr.out_avals[:num_carry]
    if not all(typematch(a, b) for a, b in zip(carry, carry_out, strict=True)):
        raise TypeError(
            f"scan carry output types {[a.str_short() for a in carry_out]} do not match the carry input types "
            f"{[a.str_short() for a in carry]}"
        )
    ys = [a.update(shape=(length, *a.shape)) for a in jaxpr.out_avals[num_carry:]]
    return [*carry_out, *ys]


def _scan_impl_fun(jaxpr: ClosedJaxpr, length: int, reverse: bool, unroll: int, num_consts: int, num_carry: int) -> Callable[..., list[Any]]:
    """The scan as a ``while`` over an index (what ``scan`` lowers to)."""
    y_avals = jaxpr.out_avals[num_carry:]

    def impl(*args: Any) -> list[Any]:
        consts, carry, xs = split(args, [num_consts, num_carry])
        ys = [zeros_like_aval(ShapedArray((length, *a.shape), a.dtype)) for a in y_avals]

        def step(t: Any, carry: Sequence[Any], ys: Sequence[Any]) -> tuple[list[Any], list[Any]]:
            i = _reversed_index(t, length) if reverse else t
            outs = eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *consts, *carry, *(_index(x, i) for x in xs))
            return list(outs[:num_carry]), [_update(b, y, i) for b, y in zip(ys, outs[num_carry:])]

        num_trips: Any
        if is_symbolic_dim(length):  # shape polymorphism: one step per trip, the bound computed
            per_trip, num_trips, remainder = 1, length, 0
        else:
            per_trip = length if unroll == 0 else unroll
            num_trips, remainder = divmod(length, per_trip) if per_trip else (0, 0)
        if per_trip != 1 and num_trips == 1 and remainder == 0:
            num_trips, remainder = 0, length
        if num_trips:

            def body(k: Any, *state: Any) -> list[Any]:
                c, b = list(state[:num_carry]), list(state[num_carry:])
                for j in range(per_trip):
                    c, b = step(k * np.int32(per_trip) + np.int32(j) if per_trip != 1 else k, c, b)
                return [k + np.int32(1), *c, *b]

            def not_done(k: Any, *_: Any) -> Any:
                if is_symbolic_dim(num_trips):
                    return k < convert_element_type(dimension_as_value(num_trips), np.int32)
                return k < np.int32(num_trips)

            out = while_flat(not_done, body, [np.int32(0), *carry, *ys])
            carry, ys = out[1 : 1 + num_carry], out[1 + num_carry :]
        for t in range(0, 0) if is_symbolic_dim(length) else range(num_trips * per_trip, length):
            carry, ys = step(np.int32(t), carry, ys)
        return [*carry, *ys]

    return impl


def _reversed_index(t: Any, length: int) -> Any:
    if isinstance(t, np.integer):
        return np.int32(length - 1 - int(t))  # pyright: ignore[reportUnknownArgumentType]
    from jax_core._src.lax import elementwise as lax_api

    return lax_api.sub(np.int32(length - 1), t)


def _scan_lower(
    ctx: LoweringRuleContext,
    *args: ir.Value[ir.Type],
    jaxpr: ClosedJaxpr,
    length: int,
    reverse: bool,
    linear: tuple[bool, ...],
    unroll: int,
    num_consts: int,
    num_carry: int,
) -> list[ir.Value[ir.Type]]:
    impl = _scan_impl_fun(jaxpr, length, reverse, unroll, num_consts, num_carry)
    return lower_fun(impl, ctx.avals_in, args)


def _bind_scan(
    consts: Sequence[Any], carry: Sequence[Any], xs: Sequence[Any], jaxpr: ClosedJaxpr, linear: Sequence[bool] | None, **params: Any
) -> list[Any]:
    n = len(consts) + len(carry) + len(xs)
    out: list[Any] = scan_p.bind(
        *consts,
        *carry,
        *xs,
        jaxpr=jaxpr,
        linear=(False,) * n if linear is None else tuple(linear),
        num_consts=len(consts),
        num_carry=len(carry),
        **params,
    )
    return out


@cached
def _jvp_body(
    jaxpr: ClosedJaxpr, num_consts: int, num_carry: int, nz: tuple[bool, ...]
) -> tuple[ClosedJaxpr, tuple[Any, ...], tuple[bool, ...], tuple[bool, ...]]:
    """``(jvp body in scan's binder order, its hoisted constants, carry nonzeros, ys nonzeros)``."""
    const_nz, init_nz, xs_nz = split(nz, [num_consts, num_carry])
    num_ys = len(jaxpr.out_avals) - num_carry
    carry_nz = init_nz
    for _ in range(1 + num_carry):
        jvp_j, out_nz = jvp_jaxpr(jaxpr, const_nz + carry_nz + xs_nz, instantiate=carry_nz + [False] * num_ys)
        if out_nz[:num_carry] == carry_nz:
            break
        carry_nz = [a or b for a, b in zip(carry_nz, out_nz)]
    else:
        raise AssertionError("scan jvp: fixpoint not reached")
    ys_nz = out_nz[num_carry:]
    jvp_j, hoisted = hoist_consts(jvp_j)
    # jvp binders: [consts, carry, xs, const dots, carry dots, xs dots] -> scan's order.
    nh, nc, nk, nx = len(hoisted), num_consts, num_carry, len(xs_nz)
    ncd, nkd, nxd = const_nz.count(True), carry_nz.count(True), xs_nz.count(True)
    p = nh + nc + nk + nx
    in_order = [
        *range(nh + nc),
        *range(p, p + ncd),
        *range(nh + nc, nh + nc + nk),
        *range(p + ncd, p + ncd + nkd),
        *range(nh + nc + nk, p),
        *range(p + ncd + nkd, p + ncd + nkd + nxd),
    ]
    ny, nyd = num_ys, ys_nz.count(True)
    out_order = [*range(nk), *range(nk + ny, nk + ny + nkd), *range(nk, nk + ny), *range(nk + ny + nkd, nk + ny + nkd + nyd)]
    return permute_binders(jvp_j, in_order, out_order), hoisted, tuple(carry_nz), tuple(ys_nz)


def _scan_jvp(
    primals: Sequence[Any],
    tangents: Sequence[Any],
    *,
    jaxpr: ClosedJaxpr,
    length: int,
    reverse: bool,
    linear: tuple[bool, ...],
    unroll: int,
    num_consts: int,
    num_carry: int,
) -> tuple[list[Any], list[Any]]:
    jvp_j, hoisted, carry_nz, ys_nz = _jvp_body(jaxpr, num_consts, num_carry, tuple(not is_zero(t) for t in tangents))
    consts, init, xs = split(primals, [num_consts, num_carry])
    c_dot, i_dot, x_dot = split(tangents, [num_consts, num_carry])
    c_dot = [t for t in c_dot if not is_zero(t)]
    i_dot = [instantiate_zeros(t) for t, n in zip(i_dot, carry_nz) if n]
    x_dot = [t for t in x_dot if not is_zero(t)]
    c_lin, k_lin, x_lin = split(linear, [num_consts, num_carry])
    lin = [*([False] * len(hoisted)), *c_lin, *([True] * len(c_dot)), *k_lin, *([True] * len(i_dot)), *x_lin, *([True] * len(x_dot))]
    outs = _bind_scan([*hoisted, *consts, *c_dot], [*init, *i_dot], [*xs, *x_dot], jvp_j, lin, length=length, reverse=reverse, unroll=unroll)
    carry_out, carry_dot, ys, ys_dot = split(outs, [num_carry, len(i_dot), len(ys_nz)])
    carry_t, ys_t = iter(carry_dot), iter(ys_dot)
    tangents_out = [next(carry_t) if n else Zero(tangent_aval(get_aval(c))) for n, c in zip(carry_nz, carry_out)]
    tangents_out += [next(ys_t) if n else Zero(tangent_aval(get_aval(y))) for n, y in zip(ys_nz, ys)]
    return [*carry_out, *ys], tangents_out


class _ScanSplit(NamedTuple):
    """The jaxpr side of a scan's partial evaluation (see ``_scan_partial_eval``)."""

    carry_uk: tuple[bool, ...]
    out_uk: tuple[bool, ...]
    hoisted_consts: tuple[Any, ...]  # constants of the known body (inputs of ``invariant``)
    invariant: ClosedJaxpr  # known consts -> [loop-invariant residuals, known body consts]
    num_invariant: int
    known: ClosedJaxpr  # the known scan body: [consts, known carry, known xs] -> [..., per-iteration residuals]
    staged: ClosedJaxpr  # [invariant res, unknown consts, unknown carry, unknown xs, per-iteration res]
    # per residual (invariant ones, then per-iteration ones): saved, or (a known carry's value
    # each iteration) recomputed by replaying the known scan when a checkpoint policy applies
    saved: tuple[bool, ...]


@cached
def _split_body(
    jaxpr: ClosedJaxpr, num_consts: int, num_carry: int, unknowns: tuple[bool, ...], saveable: SaveablePolicy | None
) -> _ScanSplit:
    """Splits the body (with a ``checkpoint`` policy, if any: it saves what the policy allows)."""
    const_uk, carry_uk, xs_uk = split(unknowns, [num_consts, num_carry])
    num_ys = len(jaxpr.out_avals) - num_carry
    for _ in range(1 + num_carry):
        known1, staged1, out_uk, num_res = partial_eval_jaxpr(
            jaxpr, const_uk + carry_uk + xs_uk, carry_uk + [False] * num_ys, saveable
        )
        if out_uk[:num_carry] == carry_uk:
            break
        carry_uk = [a or b for a, b in zip(carry_uk, out_uk)]
    else:
        raise AssertionError("scan partial eval: fixpoint not reached")
    # A residual that is a known carry is not what a checkpoint policy saves: the staged side
    # replays the known scan for it (JAX saves the carry's initial value, not every iteration's).
    n_kconst = const_uk.count(False)
    carry_in = set(known1.jaxpr.invars[n_kconst : n_kconst + carry_uk.count(False)])
    res_saved = [not (isinstance(v, Var) and v in carry_in) for v in known1.jaxpr.outvars[len(known1.out_avals) - num_res :]]
    # Residuals that depend only on known constants are computed once, outside the loop:
    # split the known body again with everything but its constants unknown.
    known1, h1 = hoist_consts(known1)
    n_kc = len(h1) + const_uk.count(False)
    n_known_out = len(known1.out_avals) - num_res
    invariant, known2, out_uk2, _ = partial_eval_jaxpr(
        known1,
        [False] * n_kc + [True] * (len(known1.in_avals) - n_kc),
        instantiate=[True] * n_known_out + [False] * num_res,
    )
    is_inv = [not u for u in out_uk2[n_known_out:]]
    n_ukc, n_ukk, n_ukx = const_uk.count(True), carry_uk.count(True), xs_uk.count(True)
    inv_pos = [i for i, inv in enumerate(is_inv) if inv]
    var_pos = [i for i, inv in enumerate(is_inv) if not inv]
    order = [*inv_pos, *range(num_res, num_res + n_ukc + n_ukk + n_ukx), *var_pos]
    staged = permute_binders(staged1, order, None)
    saved = tuple(res_saved[i] for i in [*inv_pos, *var_pos])
    return _ScanSplit(tuple(carry_uk), tuple(out_uk), h1, invariant, len(inv_pos), known2, staged, saved)


def _scan_partial_eval(
    trace: PartialEvalTrace,
    args: Sequence[Any],
    unknown: Sequence[bool],
    *,
    jaxpr: ClosedJaxpr,
    length: int,
    reverse: bool,
    linear: tuple[bool, ...],
    unroll: int,
    num_consts: int,
    num_carry: int,
) -> list[Any]:
    """JAX's ``_scan_partial_eval``: a known scan emitting per-iteration residuals as extra
    ys and a staged scan consuming them as extra xs; loop-invariant residuals are hoisted."""
    params = dict(length=length, reverse=reverse, unroll=unroll)
    const_uk, _, xs_uk = split(unknown, [num_consts, num_carry])
    sp = _split_body(jaxpr, num_consts, num_carry, tuple(unknown), trace.saveable)
    unknowns = [*const_uk, *sp.carry_uk, *xs_uk]
    consts, carry, xs = split(args, [num_consts, num_carry])
    k_consts = [x for x, u in zip(consts, const_uk) if not u]
    with set_current_trace(trace.parent):
        hoisted_vals = eval_jaxpr(sp.invariant.jaxpr, sp.invariant.consts, *sp.hoisted_consts, *k_consts)
    inv_res, body_consts = hoisted_vals[: sp.num_invariant], hoisted_vals[sp.num_invariant :]
    k_carry = [x for x, u in zip(carry, sp.carry_uk) if not u]
    k_xs = [x for x, u in zip(xs, xs_uk) if not u]
    known_outs: list[Any] = []
    if sp.known.out_avals:
        known_outs = trace.bind_known(
            scan_p,
            [*body_consts, *k_carry, *k_xs],
            dict(
                jaxpr=sp.known,
                linear=(False,) * len(sp.known.in_avals),
                num_consts=len(body_consts),
                num_carry=len(k_carry),
                **params,
            ),
        )
    n_known = sp.out_uk.count(False)
    uk_consts = [x for x, u in zip(consts, const_uk) if u]
    uk_carry = [x for x, u in zip(carry, sp.carry_uk) if u]
    uk_xs = [x for x, u in zip(xs, xs_uk) if u]
    stacked_res = known_outs[n_known:]
    trace.mark_saved([r for r, keep in zip([*inv_res, *stacked_res], sp.saved, strict=True) if keep])
    lin_c, lin_k, lin_x = split([lin for lin, u in zip(linear, unknowns, strict=True) if u], [len(uk_consts), len(uk_carry)])
    staged_outs: list[Any] = trace.bind_staged(
        scan_p,
        [*inv_res, *uk_consts, *uk_carry, *uk_xs, *stacked_res],
        dict(
            jaxpr=sp.staged,
            linear=(*([False] * len(inv_res)), *lin_c, *lin_k, *lin_x, *([False] * len(stacked_res))),
            num_consts=len(inv_res) + len(uk_consts),
            num_carry=len(uk_carry),
            **params,
        ),
    )
    return merge_outputs(known_outs[:n_known], staged_outs, sp.out_uk)


@cached
def _transpose_body(
    jaxpr: ClosedJaxpr,
    num_consts: int,
    num_carry: int,
    const_lin: tuple[bool, ...],
    xs_lin: tuple[bool, ...],
    ys_nz: tuple[bool, ...],
) -> tuple[ClosedJaxpr, tuple[Any, ...]]:
    """The body of the transposed scan: ``[res consts] + [linear const ct accumulators,
    carry cts] + [nonzero ys cts, res xs] -> [accumulators, carry cts, linear xs cts]``."""
    c_avals, k_avals, x_avals = split(jaxpr.in_avals, [num_consts, num_carry])
    y_avals = jaxpr.out_avals[num_carry:]
    lin_c_avals = [tangent_aval(a) for a, lin in zip(c_avals, const_lin) if lin]
    k_ct_avals = [tangent_aval(a) for a in k_avals]
    ires_avals = [a for a, lin in zip(c_avals, const_lin) if not lin]
    eres_avals = [a for a, lin in zip(x_avals, xs_lin) if not lin]
    ct_y_avals = [tangent_aval(a) for a, nz in zip(y_avals, ys_nz) if nz]

    def body(*a: Any) -> list[Any]:
        ires, acc, ct_k, ct_y, eres = split(a, [len(ires_avals), len(lin_c_avals), num_carry, len(ct_y_avals)])
        primals = [
            *merge(const_lin, [UndefinedPrimal(v) for v, lin in zip(c_avals, const_lin) if lin], ires),
            *(UndefinedPrimal(v) for v in k_avals),
            *merge(xs_lin, [UndefinedPrimal(v) for v, lin in zip(x_avals, xs_lin) if lin], eres),
        ]
        cts_out = [*ct_k, *merge(ys_nz, ct_y, [Zero(tangent_aval(v)) for v, n in zip(y_avals, ys_nz) if not n])]
        cts_in = backward_pass(jaxpr.jaxpr, jaxpr.consts, primals, cts_out)
        c_ct, k_ct, x_ct = split(cts_in, [num_consts, num_carry])
        new_acc = [add_tangents(s, c) for s, c in zip(acc, (c for c, lin in zip(c_ct, const_lin) if lin))]
        return [
            *(_as_aval(instantiate_zeros(s), v) for s, v in zip(new_acc, lin_c_avals)),
            *(_as_aval(instantiate_zeros(c), v) for c, v in zip(k_ct, k_ct_avals)),
            *(_as_aval(instantiate_zeros(c), tangent_aval(v)) for c, v, lin in zip(x_ct, x_avals, xs_lin) if lin),
        ]

    t_jaxpr, t_consts = trace_flat(body, [*ires_avals, *lin_c_avals, *k_ct_avals, *ct_y_avals, *eres_avals], "scan transpose")
    return t_jaxpr, tuple(t_consts)


def _scan_transpose(
    cts: Sequence[Any],
    *args: Any,
    jaxpr: ClosedJaxpr,
    length: int,
    reverse: bool,
    linear: tuple[bool, ...],
    unroll: int,
    num_consts: int,
    num_carry: int,
) -> list[Any]:
    """A scan the other way of the transposed body: cotangents of the carry are carried,
    those of the linear consts accumulated, those of the linear xs stacked."""
    consts, init, xs = split(args, [num_consts, num_carry])
    ct_carry, ct_ys = split(cts, [num_carry])[:2]
    const_lin = tuple(is_undefined_primal(c) for c in consts)
    xs_lin = tuple(is_undefined_primal(x) for x in xs)
    ys_nz = tuple(not is_zero(ct) for ct in ct_ys)
    t_jaxpr, t_consts = _transpose_body(jaxpr, num_consts, num_carry, const_lin, xs_lin, ys_nz)
    ires = [c for c in consts if not is_undefined_primal(c)]
    eres = [x for x in xs if not is_undefined_primal(x)]
    acc0 = [zeros_like_aval(tangent_aval(c.aval)) for c in consts if is_undefined_primal(c)]
    outs = _bind_scan(
        [*t_consts, *ires],
        [*acc0, *(instantiate_zeros(ct) for ct in ct_carry)],
        [*(ct for ct in ct_ys if not is_zero(ct)), *eres],
        t_jaxpr,
        None,
        length=length,
        reverse=not reverse,
        unroll=unroll,
    )
    ct_consts, ct_init, ct_xs = split(outs, [len(acc0), num_carry])
    return [
        *merge(const_lin, ct_consts, [None] * len(ires)),
        *(ct if is_undefined_primal(x) else None for x, ct in zip(init, ct_init)),
        *merge(xs_lin, ct_xs, [None] * len(eres)),
    ]


def _as_aval(x: Any, aval: ShapedArray) -> Any:
    """``x`` with exactly the dtype and weak type of ``aval`` (cotangents have their primal's type)."""
    got = get_aval(x)
    if got.dtype == aval.dtype and got.weak_type == aval.weak_type:
        return x
    from jax_core._src.lax.elementwise import to_dtype

    return to_dtype(x, aval.dtype, aval.weak_type)


@cached
def _batch_body(
    jaxpr: ClosedJaxpr, num_consts: int, num_carry: int, size: int, in_bat: tuple[bool, ...], name: Hashable | None
) -> tuple[ClosedJaxpr, tuple[Any, ...], tuple[bool, ...], tuple[bool, ...]]:
    """``(batched body, its hoisted constants, batched carries, batched ys)``."""
    const_bat, carry_bat, xs_bat = split(in_bat, [num_consts, num_carry])
    for _ in range(1 + num_carry):
        out_bat = batched_outputs(jaxpr, size, const_bat + carry_bat + xs_bat, name)
        new = [a or b for a, b in zip(carry_bat, out_bat)]
        if new == carry_bat:
            break
        carry_bat = new
    else:
        raise AssertionError("scan batching: fixpoint not reached")
    ys_bat = out_bat[num_carry:]
    in_axes = tuple(0 if b else None for b in const_bat + carry_bat + xs_bat)
    out_axes = tuple(0 if b else None for b in carry_bat + ys_bat)
    batched, hoisted = hoist_consts(batch_jaxpr_axes(jaxpr, size, in_axes, out_axes, name)[0])
    return batched, hoisted, tuple(carry_bat), tuple(ys_bat)


def _scan_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    jaxpr: ClosedJaxpr,
    length: int,
    reverse: bool,
    linear: tuple[bool, ...],
    unroll: int,
    num_consts: int,
    num_carry: int,
) -> tuple[list[Any], list[int | None]]:
    size = axis_size(args, dims)
    batched, hoisted, carry_bat, ys_bat = _batch_body(jaxpr, num_consts, num_carry, size, tuple(d is not None for d in dims), batch_axis_name())
    consts, init, xs = split(args, [num_consts, num_carry])
    cd, kd, xd = split(dims, [num_consts, num_carry])
    new_consts = [c if d is None else moveaxis(c, d, 0) for c, d in zip(consts, cd)]
    new_init = [x if not b else broadcast_batch(x, size, 0) if d is None else moveaxis(x, d, 0) for x, d, b in zip(init, kd, carry_bat)]
    # Inside the body a slice of xs has the batch axis first, so xs carry it at axis 1.
    new_xs = [x if d is None else moveaxis(x, d, 1) for x, d in zip(xs, xd)]
    lin = [*([False] * len(hoisted)), *linear]
    outs = _bind_scan([*hoisted, *new_consts], new_init, new_xs, batched, lin, length=length, reverse=reverse, unroll=unroll)
    return outs, [*(0 if b else None for b in carry_bat), *(1 if b else None for b in ys_bat)]


scan_p: Primitive = Primitive("scan", multiple_results=True)
scan_p.def_rules(
    Rules(
        abstract_eval=_scan_abstract_eval,
        lower=_scan_lower,
        jvp=_scan_jvp,
        transpose=_scan_transpose,
        batch=_scan_batch,
        partial_eval=_scan_partial_eval,
    )
)


def _vmap_leading(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``vmap(f)`` over the leading axis of every leaf (lax sits below the ``vmap`` API, so it
    batches through the interpreter directly)."""

    def batched(xs: Any) -> Any:
        leaves, tree = tree_flatten(xs)
        if not leaves:
            raise ValueError("vmap must have at least one non-None value in in_axes")
        out_trees: list[Any] = []

        def flat(*args: Any) -> list[Any]:
            out_leaves, out_tree = tree_flatten(f(tree_unflatten(tree, list(args))))
            out_trees.append(out_tree)
            return out_leaves

        size = get_aval(leaves[0]).shape[0]
        outs = vmap_flat(flat, leaves, [0] * len(leaves), lambda n: [0] * n, size)
        return tree_unflatten(out_trees[0], outs)

    return batched
