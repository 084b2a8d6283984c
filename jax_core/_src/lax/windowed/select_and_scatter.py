"""The autodiff primitives of max/min pooling, as JAX has them.

``select_and_gather_add`` picks the tangent at each window's maximum (``select_prim``
``ge``) or minimum (``le``) of the operand: a variadic reduce_window over (operand, tangent)
pairs that keeps the selected pair. Its transpose ``select_and_scatter_add`` adds each
cotangent at the position its window selects (XLA's SelectAndScatter), and vice versa.
Their rules are beside them.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import Jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    UndefinedPrimal,
    Zero,
    is_zero,
)
from jax_core._src.interpreters.batching_util import BatchRule, axis_size, bdim_at_front
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.reductions import reduce as red
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.standard_rules import no_batch, no_jvp
from jax_core._src.lax.windowed.common import (
    Pads,
    lower_reduce_window,
    pads_attr,
    params_with_front_window,
    window_shape,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- select_and_gather_add / select_and_scatter_add ------------------------------------------


def select_identity(select_prim: Primitive, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """The init value of a window selection: the identity of max (``ge``) or min (``le``)."""
    return red.max_identity(dtype) if select_prim is ew.ge_p else red.min_identity(dtype)


def _direction(select_prim: Primitive) -> str:
    return "GE" if select_prim is ew.ge_p else "LE"


def select_and_gather_add(
    tangents: ArrayLike,
    operand: ArrayLike,
    select_prim: Primitive,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int],
    window_dilation: Sequence[int],
) -> Array:
    """The element of ``tangents`` at each window's maximum (``select_prim`` ``ge``) or
    minimum (``le``) of ``operand``: the jvp of max/min pooling."""
    out: Array = select_and_gather_add_p.bind(
        tangents,
        operand,
        select_prim=select_prim,
        window_dimensions=tuple(window_dimensions),
        window_strides=tuple(window_strides),
        padding=tuple((lo, hi) for lo, hi in padding),
        base_dilation=tuple(base_dilation),
        window_dilation=tuple(window_dilation),
    )
    return out


def _select_and_gather_add_abstract_eval(
    tangents: ShapedArray, operand: ShapedArray, *, select_prim: Primitive, **params: Any
) -> ShapedArray:
    if tangents.shape != operand.shape:
        raise TypeError(
            "select_and_gather_add tangents and operand shapes must match, got "
            f"{tangents.shape} and {operand.shape}."
        )
    return ShapedArray(window_shape(operand, **params), tangents.dtype)


def _select_and_gather_add_lower(
    ctx: LoweringRuleContext, tangents: ir.Value[Any], operand: ir.Value[Any], *, select_prim: Primitive, **params: Any
) -> ir.Value[Any]:
    """A variadic reduce_window over (operand, tangent) pairs keeping the selected pair."""
    t_aval, x_aval = ctx.avals_in
    shape = ctx.avals_out[0].shape
    direction, x_dt = _direction(select_prim), x_aval.dtype

    def body(a: Sequence[ir.Value[Any]]) -> list[ir.Value[Any]]:
        kx, vx, ky, vy = a
        which = hlo_util.compare(kx, ky, direction, x_dt)
        return [hlo.select(which, kx, ky), hlo.select(which, vx, vy)]

    inits = [hlo_util.constant(select_identity(select_prim, x_dt)), hlo_util.constant(np.array(0, t_aval.dtype))]
    out_avals = [ShapedArray(shape, x_dt), ShapedArray(shape, t_aval.dtype)]
    return lower_reduce_window([operand, tangents], inits, out_avals, body, **params)[1]


select_and_gather_add_p: Primitive = Primitive("select_and_gather_add")
def select_jvp(which: str) -> JvpRule:
    """The jvp of ``select_and_gather_add`` (``which="gather"``) or ``select_and_scatter_add``:
    linear in the gathered/scattered values; the operand only selects (zero derivative)."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], *, select_prim: Primitive, **params: Any) -> tuple[Any, Any]:
        from jax_core._src.lax.windowed import select_and_scatter as wr

        fn = wr.select_and_gather_add if which == "gather" else wr.select_and_scatter_add
        (source, operand), g = primals, tangents[0]
        out = fn(source, operand, select_prim, **params)
        if is_zero(g):
            return out, Zero.from_primal_value(out)
        return out, fn(g, operand, select_prim, **params)

    return rule


def select_and_gather_add_transpose(
    t: Any,
    tangents: UndefinedPrimal,
    operand: Any,
    *,
    select_prim: Primitive,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> list[Any]:
    """``select_and_scatter_add`` of the cotangent (on the base-dilated operand)."""
    from jax_core._src.lax.indexing.slicing import slice as lax_slice

    if any(d != 1 for d in window_dilation):
        raise NotImplementedError(
            "VJP not implemented for select_and_gather (MaxPool) with window dilation, got "
            f"window_dilation={window_dilation}."
        )
    dilated = any(d != 1 for d in base_dilation)
    if dilated:
        ident = select_identity(select_prim, get_aval(operand).dtype)
        operand = shape_assembly.pad(operand, ident, tuple((0, 0, d - 1) for d in base_dilation))
    result = select_and_scatter_add(t, operand, select_prim, window_dimensions, window_strides, padding)
    if dilated:
        shape = get_aval(result).shape
        result = lax_slice(result, (0,) * len(shape), shape, base_dilation)
    return [result, None]


def select_batcher(prim_name: str) -> BatchRule:
    """Batching of ``select_and_gather_add``/``select_and_scatter_add``: both operands'
    batch axes to the front, a unit window there."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        from jax_core._src.lax.windowed import select_and_scatter as wr

        prim = wr.select_and_gather_add_p if prim_name == "gather" else wr.select_and_scatter_add_p
        size = axis_size(args, dims)
        x, y = (bdim_at_front(a, d, size) for a, d in zip(args, dims))
        return prim.bind(x, y, **params_with_front_window(params)), 0

    return rule


select_and_gather_add_p.def_rules(
    Rules(
        abstract_eval=_select_and_gather_add_abstract_eval,
        lower=_select_and_gather_add_lower,
        jvp=select_jvp("gather"),
        transpose=select_and_gather_add_transpose,
        batch=select_batcher("gather"),
    )
)


def select_and_scatter_add(
    source: ArrayLike,
    operand: ArrayLike,
    select_prim: Primitive,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
) -> Array:
    """Adds each element of ``source`` at the position its window of ``operand`` selects
    (maximum for ``ge``, minimum for ``le``): the transpose of ``select_and_gather_add``."""
    out: Array = select_and_scatter_add_p.bind(
        source,
        operand,
        select_prim=select_prim,
        window_dimensions=tuple(window_dimensions),
        window_strides=tuple(window_strides),
        padding=tuple((lo, hi) for lo, hi in padding),
    )
    return out


def _select_and_scatter_add_abstract_eval(
    source: ShapedArray,
    operand: ShapedArray,
    *,
    select_prim: Primitive,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
) -> ShapedArray:
    if len(window_dimensions) != len(window_strides):
        raise TypeError(
            "select_and_scatter got inconsistent window_strides and window_dimensions: got "
            f"window_strides {window_strides} and window_dimensions {window_dimensions}."
        )
    return ShapedArray(operand.shape, source.dtype)


def _select_and_scatter_add_lower(
    ctx: LoweringRuleContext,
    source: ir.Value[Any],
    operand: ir.Value[Any],
    *,
    select_prim: Primitive,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
) -> ir.Value[Any]:
    """XLA's SelectAndScatter on the operand padded with the select identity (JAX's CPU
    lowering: padding inside the op crashes XLA:CPU), then sliced back."""
    s_aval, x_aval = ctx.avals_in
    ndim = x_aval.ndim
    lo, hi = [p[0] for p in padding], [p[1] for p in padding]
    ident = hlo_util.constant(select_identity(select_prim, x_aval.dtype))
    padded: ir.Value[Any] = hlo.pad(operand, ident, lo, hi, [0] * ndim)
    padded_shape = tuple(d + a + b for d, a, b in zip(x_aval.shape, lo, hi))
    op = hlo.SelectAndScatterOp(
        aval_to_ir_type(ShapedArray(padded_shape, s_aval.dtype)),
        padded,
        source,
        hlo_util.constant(np.array(0, s_aval.dtype)),
        window_dimensions=list(window_dimensions),
        window_strides=list(window_strides),
        padding=pads_attr(((0, 0),) * ndim),
    )
    x_scalar = aval_to_ir_type(ShapedArray((), x_aval.dtype))
    s_scalar = aval_to_ir_type(ShapedArray((), s_aval.dtype))
    select = op.select.blocks.append(x_scalar, x_scalar)
    with ir.InsertionPoint(select):
        hlo.return_([hlo_util.compare(select.arguments[0], select.arguments[1], _direction(select_prim), x_aval.dtype)])
    scatter = op.scatter.blocks.append(s_scalar, s_scalar)
    with ir.InsertionPoint(scatter):
        combine = hlo.or_ if s_aval.dtype == np.bool_ else hlo.add
        hlo.return_([combine(scatter.arguments[0], scatter.arguments[1])])
    stop = [a + d for a, d in zip(lo, x_aval.shape)]
    out: ir.Value[Any] = hlo.slice(op.result, lo, stop, [1] * ndim)
    return out


select_and_scatter_add_p: Primitive = Primitive("select_and_scatter_add")
def select_and_scatter_add_transpose(
    t: Any,
    source: UndefinedPrimal,
    operand: Any,
    *,
    select_prim: Primitive,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
) -> list[Any]:
    """``select_and_gather_add`` of the cotangent (no dilation)."""

    ones = (1,) * len(window_dimensions)
    return [
        select_and_gather_add(t, operand, select_prim, window_dimensions, window_strides, padding, ones, ones),
        None,
    ]


select_and_scatter_add_p.def_rules(
    Rules(
        abstract_eval=_select_and_scatter_add_abstract_eval,
        lower=_select_and_scatter_add_lower,
        jvp=select_jvp("scatter"),
        transpose=select_and_scatter_add_transpose,
        batch=select_batcher("scatter"),
    )
)


# -- select_and_scatter: XLA's SelectAndScatter with traced select and scatter computations --------
def select_and_scatter(
    operand: ArrayLike,
    select: Callable[[Any, Any], Any],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    source: ArrayLike,
    init_value: ArrayLike,
    scatter: Callable[[Any, Any], Any],
) -> Array:
    """Binds ``select_and_scatter_p`` (JAX's private ``_select_and_scatter``): each window of
    ``operand`` picks one position with ``select(a, b)`` (true keeps ``a``); the ``source``
    value of the window is combined there with ``scatter``, starting from ``init_value``."""
    from jax_core._src.lax.reductions.generic import reduction_jaxpr
    from jax_core._src.tree.tree_util import tree_structure

    init_aval = get_aval(init_value)
    scalar = ShapedArray((), init_aval.dtype, init_aval.weak_type)
    leaf = tree_structure(0)
    sel, _ = reduction_jaxpr(select, [scalar], leaf, "select_and_scatter select")
    sca, _ = reduction_jaxpr(scatter, [scalar], leaf, "select_and_scatter scatter")
    out: Array = select_and_scatter_p.bind(
        operand,
        source,
        init_value,
        select_jaxpr=sel.jaxpr,
        select_consts=tuple(sel.consts),
        scatter_jaxpr=sca.jaxpr,
        scatter_consts=tuple(sca.consts),
        window_dimensions=tuple(operator.index(d) for d in window_dimensions),
        window_strides=tuple(operator.index(s) for s in window_strides),
        padding=tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding),
    )
    return out


select_and_scatter_p: Primitive = Primitive("select_and_scatter")


def _check_window_shapelike(arg_name: str, obj: tuple[int, ...]) -> None:
    if not all(d >= 0 for d in obj):
        raise TypeError(f"select_and_scatter {arg_name} must have every element be nonnegative, got {obj}.")


def _select_and_scatter_abstract_eval(
    operand: ShapedArray,
    source: ShapedArray,
    init_value: ShapedArray,
    *,
    select_jaxpr: Jaxpr,
    select_consts: tuple[Any, ...],
    scatter_jaxpr: Jaxpr,
    scatter_consts: tuple[Any, ...],
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
) -> ShapedArray:
    _check_window_shapelike("window_dimensions", window_dimensions)
    _check_window_shapelike("window_strides", window_strides)
    if len(window_dimensions) != len(window_strides):
        raise TypeError(
            "select_and_scatter got inconsistent window_strides and window_dimensions: got "
            f"window_strides {window_strides} and window_dimensions {window_dimensions}."
        )
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _select_and_scatter_lower(
    ctx: LoweringRuleContext,
    operand: ir.Value[Any],
    source: ir.Value[Any],
    init_value: ir.Value[Any],
    *,
    select_jaxpr: Jaxpr,
    select_consts: tuple[Any, ...],
    scatter_jaxpr: Jaxpr,
    scatter_consts: tuple[Any, ...],
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
) -> ir.Value[Any]:
    operand_aval = ctx.avals_in[0]
    scalar = aval_to_ir_type(ShapedArray((), operand_aval.dtype))
    op = hlo.SelectAndScatterOp(
        aval_to_ir_type(ctx.avals_out[0]),
        operand,
        source,
        init_value,
        window_dimensions=list(window_dimensions),
        window_strides=list(window_strides),
        padding=pads_attr(padding),
    )
    for region, jaxpr, consts in ((op.select, select_jaxpr, select_consts), (op.scatter, scatter_jaxpr, scatter_consts)):
        block = region.blocks.append(scalar, scalar)
        with ir.InsertionPoint(block):
            hlo.return_(ctx.lower_jaxpr(jaxpr, consts, list(block.arguments)))
    out: ir.Value[Any] = op.result
    return out


select_and_scatter_p.def_rules(
    Rules(
        abstract_eval=_select_and_scatter_abstract_eval,
        lower=_select_and_scatter_lower,
        jvp=no_jvp("select_and_scatter"),
        batch=no_batch("select_and_scatter"),
    )
)
