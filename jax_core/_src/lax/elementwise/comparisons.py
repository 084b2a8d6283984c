"""Comparisons (``eq``, ``ne``, ``lt``, ``le``, ``gt``, ``ge``: boolean results, zero derivatives),
``select_n``/``select`` and ``as_bool``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    is_undefined_primal,
    is_zero,
    tangent_dtype,
    zeros_like_aval,
)
from jax_core._src.interpreters.batching_util import (
    axis_size,
    bdim_at_front,
    moveaxis,
)
from jax_core._src.lax.elementwise.conversions import to_dtype
from jax_core._src.interpreters.ad_util import zero_jvp
from jax_core._src.lax.elementwise.factories import compare, dtype_of, register
from jax_core._src.lax.standard_rules import DTypeRule, broadcast_operands, is_any, naryop_abstract_eval
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def eq(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise equality: x == y."""
    return bind_one(eq_p, x, y)


eq_p: Primitive = compare("eq", "EQ")


def ne(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise inequality: x != y."""
    return bind_one(ne_p, x, y)


ne_p: Primitive = compare("ne", "NE")


def lt(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise less-than: x < y."""
    return bind_one(lt_p, x, y)


lt_p: Primitive = compare("lt", "LT", lambda d: d.kind != "c")


def le(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise less-or-equal: x <= y."""
    return bind_one(le_p, x, y)


le_p: Primitive = compare("le", "LE", lambda d: d.kind != "c")


def gt(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise greater-than: x > y."""
    return bind_one(gt_p, x, y)


gt_p: Primitive = compare("gt", "GT", lambda d: d.kind != "c")


def ge(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise greater-or-equal: x >= y."""
    return bind_one(ge_p, x, y)


ge_p: Primitive = compare("ge", "GE", lambda d: d.kind != "c")


# -- select_n --------------------------------------------------------------------------------
# -- total-order comparisons (JAX's ``eq_to``/``le_to``/``lt_to``: floats compared in the IEEE total
# order, -0.0 < 0.0 and NaNs ordered by sign and payload; what sort and top_k compare keys with) --
def _total_order_compare(name: str, direction: str, accepts: DTypeRule) -> Primitive:
    def lower(ctx: LoweringRuleContext, x: ir.Value[Any], y: ir.Value[Any]) -> ir.Value[Any]:
        x, y = broadcast_operands(ctx, (x, y))
        dt = ctx.avals_in[0].dtype
        if dtypes.issubdtype(dt, np.inexact):
            kind = "TOTALORDER"
        elif dtypes.issubdtype(dt, np.signedinteger):
            kind = "SIGNED"
        else:
            kind = "UNSIGNED"
        out: ir.Value[Any] = hlo.compare(
            x, y, hlo.ComparisonDirectionAttr.get(direction), compare_type=hlo.ComparisonTypeAttr.get(kind)
        )
        return out

    return register(
        Primitive(name),
        naryop_abstract_eval(name, accepts, np.dtype(np.bool_)),
        lower,
        jvp=zero_jvp,
        unary=False,
    )


eq_to_p: Primitive = _total_order_compare("eq_to", "EQ", is_any)
le_to_p: Primitive = _total_order_compare("le_to", "LE", lambda d: d.kind != "c")
lt_to_p: Primitive = _total_order_compare("lt_to", "LT", lambda d: d.kind != "c")


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """Selects ``cases[which]`` elementwise (``which`` bool or integer)."""
    return bind_one(select_n_p, which, *cases)


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Array:
    """Selects ``on_true`` where ``pred`` is true, else ``on_false``."""
    return bind_one(select_n_p, pred, on_false, on_true)


def _select_n_abstract_eval(which: ShapedArray, *cases: ShapedArray) -> ShapedArray:
    if not cases:
        raise TypeError("select_n must have at least one case")
    first = cases[0]
    if which.dtype != np.bool_ and not dtypes.issubdtype(which.dtype, np.integer):
        raise TypeError(f"select_n `which` must be boolean or integer type, got {which.dtype.name}")
    if which.dtype == np.bool_ and len(cases) > 2:
        raise TypeError("select_n with a boolean `which` cannot have > 2 cases.")
    if any(c.shape != first.shape for c in cases[1:]):
        raise TypeError(
            f"select cases must have the same shapes, got [{', '.join(str(c.shape) for c in cases)}]."
        )
    if any(c.dtype != first.dtype for c in cases[1:]):
        raise TypeError(
            f"select_n cases must have the same dtypes, got [{', '.join(c.dtype.name for c in cases)}]."
        )
    if which.shape and which.shape != first.shape:
        raise TypeError(
            f"select_n `which` must be scalar or have the same shape as cases, got `which` shape {which.shape} but case shape {first.shape}."
        )
    return ShapedArray(first.shape, first.dtype, all(c.weak_type for c in cases))


def _select_n_lower(
    ctx: LoweringRuleContext, which: ir.Value[Any], *cases: ir.Value[Any]
) -> ir.Value[Any]:
    which_aval = ctx.avals_in[0]
    out_aval = ctx.avals_out[0]
    if which_aval.shape != out_aval.shape:
        which = hlo_util.broadcast_in_dim(which, ShapedArray(out_aval.shape, which_aval.dtype), ())
        which_aval = ShapedArray(out_aval.shape, which_aval.dtype)
    return _select_tree(which, which_aval, list(cases), 0)


def _select_tree(
    which: ir.Value[Any], aval: ShapedArray, cases: list[ir.Value[Any]], offset: int
) -> ir.Value[Any]:
    if len(cases) == 1:
        return cases[0]
    if aval.dtype == np.bool_:
        selected: ir.Value[Any] = hlo.select(which, cases[1], cases[0])
        return selected
    mid = len(cases) // 2
    pivot = hlo_util.broadcast_in_dim(
        hlo_util.constant(np.asarray(offset + mid, aval.dtype)), aval, ()
    )
    pred = hlo_util.compare(which, pivot, "LT", aval.dtype)
    out: ir.Value[Any] = hlo.select(
        pred,
        _select_tree(which, aval, cases[:mid], offset),
        _select_tree(which, aval, cases[mid:], offset + mid),
    )
    return out


def _select_n_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    """The tangent is the selected case's tangent."""
    which, *cases = primals
    out = select_n(which, *cases)
    case_tangents = tangents[1:]
    if tangent_dtype(dtype_of(out)) == dtypes.float0 or all(is_zero(t) for t in case_tangents):
        return out, Zero.from_primal_value(out)
    return out, select_n(which, *map(instantiate_zeros, case_tangents))


def _select_n_transpose(ct: Any, which: Any, *cases: Any) -> list[Any]:
    """Routes the cotangent to the case ``which`` chose (zeros to the others)."""
    if is_undefined_primal(which):
        raise ValueError("select_n is not linear in its `which` operand")
    if len(cases) == 1:
        return [None, ct if is_undefined_primal(cases[0]) else None]
    zeros = zeros_like_aval(get_aval(ct))
    return [None] + [
        select_n(which, *(ct if i == j else zeros for j in range(len(cases))))
        if isinstance(case, UndefinedPrimal)
        else None
        for i, case in enumerate(cases)
    ]


def _select_n_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    """Batches ``which`` and the cases; a scalar ``which`` per example is broadcast."""
    which, *cases = args
    wdim, *cdims = dims
    case_rank = get_aval(cases[0]).ndim - (cdims[0] is not None)
    if all(d == dims[0] for d in dims) and get_aval(which).ndim == case_rank + 1:
        assert dims[0] is not None
        return select_n(which, *cases), dims[0]
    size = axis_size(args, dims)
    if wdim is None and get_aval(which).ndim == 0 and all(d is not None for d in cdims):
        d0 = cdims[0]
        assert d0 is not None
        moved = [moveaxis(c, d, d0) for c, d in zip(cases, cdims) if d is not None]
        return select_n(which, *moved), d0
    cases = [bdim_at_front(c, d, size) for c, d in zip(cases, cdims)]
    which = bdim_at_front(which, wdim, size) if wdim is not None or get_aval(which).ndim else which
    out_shape = get_aval(cases[0]).shape
    if 0 < get_aval(which).ndim < len(out_shape):
        from jax_core._src.lax.shape.dimensions import broadcast_in_dim

        which = broadcast_in_dim(which, out_shape, (0,))
    return select_n(which, *cases), 0


select_n_p: Primitive = Primitive("select_n")
select_n_p.def_rules(
    Rules(
        abstract_eval=_select_n_abstract_eval,
        lower=_select_n_lower,
        jvp=_select_n_jvp,
        transpose=_select_n_transpose,
        batch=_select_n_batch,
    )
)


def as_bool(x: ArrayLike) -> ArrayLike:
    """``x != 0`` as bool (identity for bool inputs)."""
    aval = get_aval(x)
    if aval.dtype == np.bool_:
        return x
    return ne(x, to_dtype(0, aval.dtype, aval.weak_type))
