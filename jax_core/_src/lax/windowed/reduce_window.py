"""Windowed reductions (XLA's ReduceWindow), as JAX's ``lax/windowed_reductions.py`` has them.

``reduce_window`` recognises ``lax.add``/``lax.max``/``lax.min`` with their identity as the
(concrete, scalar) init value and binds the monoid primitives ``reduce_window_sum``,
``reduce_window_max`` and ``reduce_window_min``; any other computation is traced to a
jaxpr and bound as the variadic ``reduce_window``. Max/min pooling differentiates through
``select_and_gather_add`` (the tangent at each window's selected element, a variadic
reduce_window over (operand, tangent) pairs) and its transpose ``select_and_scatter_add``
(XLA's SelectAndScatter). ``cumlogsumexp`` is the cumulative reduction that needs a
non-monoid window body. The autodiff and batching rules live in
this module.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any, Protocol, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad import jvp_jaxpr
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    is_differentiable,
    is_zero,
    linear_jvp,
    tangent_dtype,
)
from jax_core._src.interpreters.batching_util import BatchRule, axis_size, bdim_at_front
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax import elementwise as lax_api
from jax_core._src.lax.control_flow.common import cached
from jax_core._src.lax.conv.shapes import dilate_shape, padtype_to_pads
from jax_core._src.lax.reductions import cumulative as red_cumulative
from jax_core._src.lax.reductions import cumulative as rr
from jax_core._src.lax.reductions import reduce as red_reduce
from jax_core._src.lax.reductions.generic import reduction_jaxpr
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.windowed.common import (
    ints,
    lower_reduce_window,
    params_with_front_window,
    window_shape,
)
from jax_core._src.lax.windowed.select_and_scatter import select_and_gather_add
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def _monoid_lower(
    init: Callable[[np.dtype[Any]], np.ndarray[Any, Any]], combine: red_reduce.Combiner
) -> Callable[..., ir.Value[Any]]:
    def lower(ctx: LoweringRuleContext, x: ir.Value[Any], **params: Any) -> ir.Value[Any]:
        aval = ctx.avals_out[0]
        return lower_reduce_window(
            [x], [hlo_util.constant(init(aval.dtype))], [aval], lambda a: [combine(a[0], a[1])], **params
        )[0]

    return lower


# -- the monoid primitives -------------------------------------------------------------------


class WindowReducer(Protocol):
    """A monoid windowed reduction (JAX's private ``_reduce_window_sum`` and friends)."""

    def __call__(
        self,
        operand: ArrayLike,
        window_dimensions: Sequence[int],
        window_strides: Sequence[int],
        padding: Sequence[tuple[int, int]],
        base_dilation: Sequence[int] | None = None,
        window_dilation: Sequence[int] | None = None,
    ) -> Array: ...


def _monoid_abstract_eval(number_only: str | None) -> Callable[..., ShapedArray]:
    def abstract_eval(operand: ShapedArray, **params: Any) -> ShapedArray:
        if number_only and not dtypes.issubdtype(operand.dtype, np.number):
            raise TypeError(
                f"operand to {number_only} must have a number dtype, got {operand.dtype.name}"
            )
        return ShapedArray(window_shape(operand, **params), operand.dtype, operand.weak_type)

    return abstract_eval


WindowFn = Callable[..., Any]
"""A windowed-reduction wrapper: ``(operand, window_dimensions, window_strides, padding,
base_dilation, window_dilation) -> Array``."""




def monoid_batcher(window_fn: WindowFn) -> BatchRule:
    """Batching of a monoid windowed reduction: a unit window over the batch dimension."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        assert d is not None
        return window_fn(x, **params_with_front_window(params, d)), d

    return rule


def _monoid(
    name: str,
    what: str,
    identity: Callable[[np.dtype[Any]], np.ndarray[Any, Any]],
    combine: red_reduce.Combiner,
    jvp: Callable[[Primitive, WindowReducer], JvpRule],
    transpose: Callable[..., list[Any]] | None = None,
    number_only: bool = False,
) -> tuple[Primitive, WindowReducer]:
    """A monoid windowed-reduction primitive with its rules, and the function binding it."""
    prim = Primitive(name)

    def reducer(
        operand: ArrayLike,
        window_dimensions: Sequence[int],
        window_strides: Sequence[int],
        padding: Sequence[tuple[int, int]],
        base_dilation: Sequence[int] | None = None,
        window_dilation: Sequence[int] | None = None,
    ) -> Array:
        ones = (1,) * len(window_dimensions)
        out: Array = prim.bind(
            operand,
            window_dimensions=ints("window_dimensions", window_dimensions),
            window_strides=ints("window_strides", window_strides),
            padding=tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding),
            base_dilation=ones if base_dilation is None else ints("base_dilation", base_dilation),
            window_dilation=ones if window_dilation is None else ints("window_dilation", window_dilation),
        )
        return out

    reducer.__name__ = reducer.__qualname__ = name
    reducer.__doc__ = f"The {what} over each window of ``operand`` (JAX's private ``_{name}``)."
    prim.def_rules(
        Rules(
            abstract_eval=_monoid_abstract_eval(name if number_only else None),
            lower=_monoid_lower(identity, combine),
            jvp=jvp(prim, reducer),
            transpose=transpose,
            batch=monoid_batcher(reducer),
        )
    )
    return prim, reducer


Pads = tuple[tuple[int, int], ...]


def reduce_window_sum_transpose(
    ct: Any,
    operand: UndefinedPrimal,
    *,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> list[Any]:
    """The cotangent of a windowed sum: the cotangent, dilated by the strides and padded as
    the lhs gradient of a convolution, summed over the same windows (JAX's rule)."""

    in_shape = operand.aval.shape
    lhs = dilate_shape(in_shape, base_dilation)
    rhs = dilate_shape(window_dimensions, window_dilation)
    out = dilate_shape(get_aval(ct).shape, window_strides)
    before = [r - lo - 1 for r, (lo, _) in zip(rhs, padding)]
    config = [(b, l + r - 1 - o - b, s - 1) for b, l, r, o, s in zip(before, lhs, rhs, out, window_strides)]
    padded = shape_assembly.pad(ct, np.array(0, get_aval(ct).dtype), config)
    ones = (1,) * len(in_shape)
    result = reduce_window_sum(
        padded, window_dimensions, base_dilation, ((0, 0),) * len(in_shape), ones, window_dilation
    )
    assert get_aval(result).shape == in_shape, (get_aval(result).shape, in_shape)
    return [result]


reduce_window_sum_p: Primitive
reduce_window_sum_p, reduce_window_sum = _monoid(
    "reduce_window_sum",
    "sum",
    lambda dt: np.array(0, dt),
    hlo.add,
    lambda prim, _: linear_jvp(prim),
    reduce_window_sum_transpose,
    number_only=True,
)
def chooser_jvp(window_fn: WindowFn, select_prim: Primitive, gather: WindowFn) -> JvpRule:
    """The jvp of max/min pooling: the tangent at each window's selected element
    (``gather`` is ``select_and_gather_add``)."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        (x,), (t,) = primals, tangents
        ans = window_fn(x, **params)
        if is_zero(t) or not is_differentiable(get_aval(ans)):
            return ans, Zero.from_primal_value(ans)
        return ans, gather(t, x, select_prim, **params)

    return rule


reduce_window_max_p: Primitive
reduce_window_max_p, reduce_window_max = _monoid(
    "reduce_window_max", "maximum", red_reduce.max_identity, hlo.maximum, lambda _, r: chooser_jvp(r, ew.ge_p, select_and_gather_add)
)
reduce_window_min_p: Primitive
reduce_window_min_p, reduce_window_min = _monoid(
    "reduce_window_min", "minimum", red_reduce.min_identity, hlo.minimum, lambda _, r: chooser_jvp(r, ew.le_p, select_and_gather_add)
)


# -- the generic reduce_window ---------------------------------------------------------------

def _reduce_window_abstract_eval(*avals: ShapedArray, jaxpr: ClosedJaxpr, **params: Any) -> list[ShapedArray]:
    n = len(avals) // 2
    operands, inits = avals[:n], avals[n:]
    if any(o.dtype != i.dtype for o, i in zip(operands, inits)):
        raise TypeError(
            "reduce_window got inconsistent dtypes for operands and init_values: got operand "
            f"dtypes {[o.dtype for o in operands]} and init_value dtypes {[i.dtype for i in inits]}."
        )
    if any(i.ndim != 0 for i in inits):
        raise TypeError(
            "reduce_window expected init_values to be scalars but init_values have shapes "
            f"{[i.shape for i in inits]}."
        )
    shape = window_shape(operands[0], **params)
    return [ShapedArray(shape, o.dtype) for o in operands]


def _reduce_window_lower(
    ctx: LoweringRuleContext, *args: ir.Value[Any], jaxpr: ClosedJaxpr, **params: Any
) -> list[ir.Value[Any]]:
    n = len(args) // 2
    return lower_reduce_window(
        args[:n],
        args[n:],
        ctx.avals_out,
        lambda block: ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, block),
        **params,
    )


def _reduce_window_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    shown = {**params, "jaxpr": params["jaxpr"].jaxpr, "consts": tuple(params["jaxpr"].consts)}
    return sorted(shown.items())


reduce_window_p: Primitive = Primitive("reduce_window", multiple_results=True)
@cached
def _jvp_computation(jaxpr: ClosedJaxpr, nonzero: tuple[bool, ...]) -> tuple[ClosedJaxpr, tuple[bool, ...]]:
    """The body of the joint (primals, tangents) reduce_window and which operands carry
    tangents: ``nonzero`` grown to a fixpoint, since a body's carries keep their types."""
    n = len(nonzero)
    differentiable = [is_differentiable(a) for a in jaxpr.out_avals]
    nz = list(nonzero)
    while True:
        _, out_nz = jvp_jaxpr(jaxpr, [*nz, *nz], False)
        grown = [a or (b and d) for a, b, d in zip(nz, out_nz, differentiable)]
        if grown == nz:
            break
        nz = grown
    jvp_closed, _ = jvp_jaxpr(jaxpr, [*nz, *nz], nz)
    m = sum(nz)
    avals = jvp_closed.in_avals
    side = [*avals[:n], *avals[2 * n : 2 * n + m]]

    def joint(*args: Any) -> list[Any]:
        left, right = args[: n + m], args[n + m :]
        return eval_jaxpr(jvp_closed.jaxpr, jvp_closed.consts, *left[:n], *right[:n], *left[n:], *right[n:])

    return trace_to_jaxpr(joint, [*side, *side], DebugInfo("reduce_window jvp", None)), tuple(nz)


def reduce_window_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxpr: ClosedJaxpr, **params: Any
) -> tuple[list[Any], list[Any]]:
    """Forward mode of a generic reduce_window, as JAX: one reduce_window over the operands
    and their tangents whose body is the jvp of the computation (no transpose: reverse
    mode needs the monoid primitives)."""

    n = len(primals) // 2
    operands, inits = primals[:n], primals[n:]
    op_tangents = tangents[:n]
    if not all(is_zero(t) for t in tangents[n:]):
        raise TypeError("reduce_window jvp does not support non-zero init_value_tangent.")
    avals = [get_aval(x) for x in operands]
    nonzero = tuple(not is_zero(t) and is_differentiable(a) for t, a in zip(op_tangents, avals))
    if not any(nonzero):
        outs = reduce_window_p.bind(*primals, jaxpr=jaxpr, **params)
        return list(outs), [Zero.from_primal_value(o) for o in outs]
    joint, nz = _jvp_computation(jaxpr, nonzero)
    tans = [instantiate_zeros(t) for t, z in zip(op_tangents, nz) if z]
    tan_inits = [np.zeros((), tangent_dtype(a.dtype)) for a, z in zip(avals, nz) if z]
    outs = reduce_window_p.bind(*operands, *tans, *inits, *tan_inits, jaxpr=joint, **params)
    primals_out = list(outs[:n])
    it = iter(outs[n:])
    return primals_out, [next(it) if z else Zero.from_primal_value(p) for p, z in zip(primals_out, nz)]


def reduce_window_transpose(ct: Any, *args: Any, **params: Any) -> list[Any]:
    """Reverse mode of a generic reduce_window fails as in JAX, with JAX's error (raised
    here when its joint primal/tangent reduce_window is transposed)."""
    raise ValueError(
        "Linearization failed to produce known values for all output primals. This is typically "
        "caused by attempting to differentiate a function uses an operation that does not support "
        "reverse-mode autodiff."
    )


def reduce_window_batcher(
    args: Sequence[Any], dims: Sequence[int | None], **params: Any
) -> tuple[list[Any], list[int]]:
    """Batching of a generic reduce_window: batch axes to the front, unit window there."""

    n = len(args) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError("reduce_window batching is not implemented for initial values")
    size = axis_size(args, dims)
    operands = [bdim_at_front(x, d, size) for x, d in zip(args[:n], dims[:n])]
    outs = reduce_window_p.bind(*operands, *args[n:], **params_with_front_window(params))
    return list(outs), [0] * n


reduce_window_p.def_rules(
    Rules(
        abstract_eval=_reduce_window_abstract_eval,
        lower=_reduce_window_lower,
        jvp=reduce_window_jvp,
        transpose=reduce_window_transpose,
        batch=reduce_window_batcher,
        pp=_reduce_window_pp,
    )
)


def _monoid_reducer(computation: Callable[..., Any], inits: Sequence[Any]) -> Callable[..., Array] | None:
    """The monoid primitive's wrapper when ``computation`` is ``lax.add``/``max``/``min`` and
    the one init value is its concrete scalar identity (JAX's ``_get_monoid_window_reducer``)."""
    if len(inits) != 1 or isinstance(inits[0], Tracer):
        return None
    aval = get_aval(inits[0])
    if aval.shape != ():
        return None
    val = np.asarray(inits[0])
    if computation is lax_api.add:
        return reduce_window_sum if val == 0 else None
    if computation is lax_api.max:
        return reduce_window_max if val == red_reduce.max_identity(aval.dtype) else None
    if computation is lax_api.min:
        return reduce_window_min if val == red_reduce.min_identity(aval.dtype) else None
    return None


@overload
def reduce_window(
    operand: ArrayLike,
    init_value: ArrayLike,
    computation: Callable[[Array, Array], Array],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Array: ...
@overload
def reduce_window(
    operand: Any,
    init_value: Any,
    computation: Callable[..., Any],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Any: ...
def reduce_window(
    operand: Any,
    init_value: Any,
    computation: Callable[..., Any],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Any:
    """Reduces each (padded, dilated) window of ``operand`` with ``computation``.

    Wraps XLA's ReduceWindowWithGeneralPadding. ``operand`` is an array or a pytree of
    arrays, ``init_value`` a scalar (or pytree of scalars) of the same structure, and
    ``computation(x, y)`` combines two such trees. ``padding`` is ``'VALID'``, ``'SAME'``,
    ``'SAME_LOWER'`` or one ``(low, high)`` pair per dimension. ``lax.add``, ``lax.max`` and
    ``lax.min`` with their identity as a concrete init value use the specialised (and
    differentiable in reverse mode) primitives, as in JAX. Returns a tree like ``operand``.
    """
    flat_operands, operand_tree = tree_flatten(operand)
    flat_inits, init_tree = tree_flatten(init_value)
    if operand_tree != init_tree:
        raise ValueError(
            f"Operands must have the same tree structure as init_values: {operand_tree} vs. {init_tree}"
        )
    if not flat_operands:
        raise ValueError("reduce_window must have at least one operand.")
    dims = ints("window_dimensions", window_dimensions)
    strides = (1,) * len(dims) if window_strides is None else ints("window_strides", window_strides)
    if isinstance(padding, str):
        win = dims if window_dilation is None else dilate_shape(dims, window_dilation)
        pads = tuple(padtype_to_pads(get_aval(flat_operands[0]).shape, win, strides, padding))
    else:
        pads = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    ones = (1,) * len(dims)
    base = ones if base_dilation is None else ints("base_dilation", base_dilation)
    wdil = ones if window_dilation is None else ints("window_dilation", window_dilation)
    monoid = _monoid_reducer(computation, flat_inits)
    if monoid is not None:
        return monoid(operand, dims, strides, pads, base, wdil)
    init_avals = [get_aval(v) for v in flat_inits]
    jaxpr, out_tree = reduction_jaxpr(computation, init_avals, init_tree, "reduce_window comp")
    if operand_tree != out_tree:
        raise ValueError(
            "reduce_window output must have the same tree structure as the operands "
            f"{operand_tree} vs. {out_tree}"
        )
    outs = reduce_window_p.bind(
        *flat_operands,
        *flat_inits,
        jaxpr=jaxpr,
        window_dimensions=dims,
        window_strides=strides,
        padding=pads,
        base_dilation=base,
        window_dilation=wdil,
    )
    return tree_unflatten(out_tree, outs)


# -- cumlogsumexp ----------------------------------------------------------------------------


def _logaddexp_combine(a: ir.Value[Any], b: ir.Value[Any]) -> ir.Value[Any]:
    """JAX's ``logaddexp`` body: ``max + log1p(exp(-|a - b|))``, ``a + b`` where that is NaN."""
    delta = hlo.subtract(a, b)
    smooth = hlo.add(hlo.maximum(a, b), hlo.log_plus_one(hlo.exponential(hlo.negate(hlo.abs(delta)))))
    is_nan = hlo_util.compare(delta, delta, "NE", np.dtype(np.float32))  # any float: FLOAT compare
    out: ir.Value[Any] = hlo.select(is_nan, hlo.add(a, b), smooth)
    return out


def cumlogsumexp(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative ``log(sum(exp(operand)))`` along ``axis`` (from the end if ``reverse``)."""
    out: Array = cumlogsumexp_p.bind(operand, axis=operator.index(axis), reverse=bool(reverse))
    return out


def _cumlogsumexp_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    out = red_cumulative._cumred_abstract_eval("cumlogsumexp", operand, axis)  # pyright: ignore[reportPrivateUsage]
    if dtypes.issubdtype(operand.dtype, np.integer):  # JAX fails making its -inf init value
        raise OverflowError("cannot convert float infinity to integer")
    if dtypes.issubdtype(operand.dtype, np.complexfloating):
        raise NotImplementedError("cumlogsumexp of complex operands is not implemented in jax_core")
    return out


def _cumlogsumexp_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool) -> ir.Value[Any]:
    init = np.array(-np.inf, ctx.avals_in[0].dtype)
    return red_cumulative._cumred_lower(ctx, x, axis, reverse, init, _logaddexp_combine)  # pyright: ignore[reportPrivateUsage]


cumlogsumexp_p: Primitive = Primitive("cumlogsumexp")
Pair = tuple[Any, Any]


def logaddexp(x: Any, y: Any) -> Any:
    """``log(exp(x) + exp(y))`` without overflow (JAX's ``lax.other.logaddexp``)."""
    delta = lax.sub(x, y)
    smooth = lax.add(lax.max(x, y), lax.log1p(lax.exp(lax.neg(lax.abs(delta)))))
    return lax.select(lax.ne(delta, delta), lax.add(x, y), smooth)


def _replace_inf(x: Any) -> Any:
    aval = get_aval(x)
    zeros = shape_dims.broadcast_in_dim(np.array(0, aval.dtype), aval.shape, ())
    return lax.select(lax.eq(x, np.array(np.inf, aval.dtype)), zeros, x)


def logaddexp_pairs(a: Pair, b: Pair) -> Pair:
    """Combines (primal, tangent) pairs by ``logaddexp`` with JAX's jvp of it."""
    (x, tx), (y, ty) = a, b
    out = logaddexp(x, y)
    r = _replace_inf(out)
    weight_x = lax.exp(lax.sub(_replace_inf(x), r))
    weight_y = lax.exp(lax.sub(_replace_inf(y), r))
    return out, lax.add(lax.mul(tx, weight_x), lax.mul(ty, weight_y))


cumlogsumexp_p.def_rules(
    Rules(
        abstract_eval=_cumlogsumexp_abstract_eval,
        lower=_cumlogsumexp_lower,
        jvp=rr.cumred_jvp(cumlogsumexp_p, logaddexp_pairs, lambda dt: np.array(-np.inf, dt)),
        batch=rr.cumred_batcher(cumlogsumexp_p),
    )
)
