"""Cumulative reductions (``cumsum``, ``cumprod``, ``cummax``, ``cummin``) along one axis.

They lower to a ``stablehlo.reduce_window`` whose window spans the axis (XLA rewrites it into a
scan), as JAX does. ``cumsum`` is linear; the others differentiate a parallel prefix scan over
(value, tangent) pairs. They batch by shifting ``axis`` past the batch dimension."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    UndefinedPrimal,
    Zero,
    linear_jvp,
)
from jax_core._src.interpreters.batching_util import BatchRule
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.reductions.reduce import (
    Combiner,
    check_number,
    max_identity,
    min_identity,
    one_of,
    zero_of,
    zero_out,
)
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- cumulative reductions --------------------------------------------------------------


def _cumred_abstract_eval(name: str, operand: ShapedArray, axis: int) -> ShapedArray:
    if axis < 0:
        raise ValueError("XLA operations do not allow negative axes")
    if axis >= operand.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of shape {operand.shape}")
    check_number(name, operand)
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def _cumred_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    axis: int,
    reverse: bool,
    init: np.ndarray[Any, Any],
    combine: Combiner,
) -> ir.Value[Any]:
    """A reduce_window whose window covers the whole axis, padded on one side."""
    aval = ctx.avals_out[0]
    n = aval.shape[axis]
    if is_symbolic_dim(n):
        raise NotImplementedError(
            f"jax_core cannot lower a cumulative reduction over an axis of symbolic size {n} (shape polymorphism); "
            "export it with a concrete size for that axis."
        )
    if n == 0:
        return x
    ndim = aval.ndim
    window = [n if d == axis else 1 for d in range(ndim)]
    padding = np.zeros((ndim, 2), np.int64)
    padding[axis] = (0, n - 1) if reverse else (n - 1, 0)
    op = hlo.ReduceWindowOp(
        [aval_to_ir_type(aval)],
        [x],
        [hlo_util.constant(init)],
        window,
        window_strides=[1] * ndim,
        base_dilations=[1] * ndim,
        window_dilations=[1] * ndim,
        padding=ir.DenseIntElementsAttr.get(padding),
    )
    scalar = aval_to_ir_type(ShapedArray((), aval.dtype))
    body = op.regions[0].blocks.append(scalar, scalar)
    with ir.InsertionPoint(body):
        hlo.return_([combine(body.arguments[0], body.arguments[1])])
    result: ir.Value[Any] = op.results[0]
    return result


def cumsum(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative sum of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return bind_one(cumsum_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cumsum_p: Primitive = Primitive("cumsum")


def _cumsum_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cumsum", operand, axis)


def _cumsum_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, zero_of(ctx.avals_in[0].dtype), hlo.add)


def cumred_batcher(prim: Primitive) -> BatchRule:
    """Batching of a cumulative reduction along ``axis``; the batch dimension stays put."""

    def rule(
        args: Sequence[Any], dims: Sequence[int | None], *, axis: int, reverse: bool
    ) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        assert d is not None
        return prim.bind(x, axis=axis + (axis >= d), reverse=reverse), d

    return rule


def cumsum_transpose(ct: Any, x: UndefinedPrimal, *, axis: int, reverse: bool) -> list[Any]:
    """The cotangent of a cumulative sum: the cumulative sum of ``ct`` the other way."""

    return [cumsum(ct, axis, reverse=not reverse)]


cumsum_p.def_rules(
    Rules(
        abstract_eval=_cumsum_abstract_eval,
        lower=_cumsum_lower,
        jvp=linear_jvp(cumsum_p),
        transpose=cumsum_transpose,
        batch=cumred_batcher(cumsum_p),
    )
)


def cumprod(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative product of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return bind_one(cumprod_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cumprod_p: Primitive = Primitive("cumprod")


def _cumprod_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cumprod", operand, axis)


def _cumprod_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, one_of(ctx.avals_in[0].dtype), hlo.multiply)


Pair = tuple[Any, Any]
"""A (primal, tangent) pair of arrays."""


Combine = Callable[[Pair, Pair], Pair]
"""Combines an earlier and a later (primal, tangent) pair of a scan."""


def _mul_pairs(a: Pair, b: Pair) -> Pair:
    (x, tx), (y, ty) = a, b
    return lax.mul(x, y), lax.add(lax.mul(tx, y), lax.mul(x, ty))


def _prefix_scan(combine: Combine, x: Any, t: Any, identity: Any, axis: int, reverse: bool) -> Any:
    """The tangent of an inclusive scan of (primal, tangent) pairs along ``axis``.

    A Hillis-Steele parallel prefix scan: ``ceil(log2(n))`` steps, each combining every
    element with the one ``k`` places before it (the identity where there is none).
    """
    aval = get_aval(x)
    n, k = aval.shape[axis], 1
    while k < n:
        cfg = [(0, 0, 0)] * aval.ndim
        cfg[axis] = (-k, k, 0) if reverse else (k, -k, 0)
        before = (shape_assembly.pad(x, identity, cfg), shape_assembly.pad(t, np.array(0, aval.dtype), cfg))
        x, t = combine(before, (x, t))
        k *= 2
    return t


def cumred_jvp(
    prim: Primitive, combine: Combine, identity: Callable[[np.dtype[Any]], np.ndarray[Any, Any]]
) -> JvpRule:
    """The jvp of ``cumprod``/``cummax``/``cummin``: as in JAX, the jvp of a parallel prefix
    scan (``reduce_window`` itself is not differentiated)."""

    def rule(
        primals: Sequence[Any], tangents: Sequence[Any], *, axis: int, reverse: bool
    ) -> tuple[Any, Any]:
        (x,), (t,) = primals, tangents
        ans = prim.bind(x, axis=axis, reverse=reverse)
        if zero_out(ans, t):
            return ans, Zero.from_primal_value(ans)
        ident = identity(get_aval(x).dtype)
        return ans, _prefix_scan(combine, x, t, ident, axis, reverse)

    return rule


def cumprod_jvp(prim: Primitive) -> JvpRule:
    """The jvp of ``cumprod`` (product rule carried through the scan)."""
    return cumred_jvp(prim, _mul_pairs, lambda dt: np.array(1, dt))


cumprod_p.def_rules(
    Rules(
        abstract_eval=_cumprod_abstract_eval,
        lower=_cumprod_lower,
        jvp=cumprod_jvp(cumprod_p),
        batch=cumred_batcher(cumprod_p),
    )
)


def cummax(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative maximum of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return bind_one(cummax_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cummax_p: Primitive = Primitive("cummax")


def _cummax_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cummax", operand, axis)


def _cummax_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, max_identity(ctx.avals_in[0].dtype), hlo.maximum)


def _pick_pairs(better: Callable[[Any, Any], Any]) -> Combine:
    # The later element wins ties, so the tangent is read at the last running extremum.
    def combine(a: Pair, b: Pair) -> Pair:
        (x, tx), (y, ty) = a, b
        later = better(y, x)
        return lax.select(later, y, x), lax.select(later, ty, tx)

    return combine


def cummax_jvp(
    prim: Primitive, identity: Callable[[np.dtype[Any]], np.ndarray[Any, Any]]
) -> JvpRule:
    """The jvp of ``cummax``: the tangent at the running maximum."""
    return cumred_jvp(prim, _pick_pairs(lambda a, b: lax.ge(a, b)), identity)


cummax_p.def_rules(
    Rules(
        abstract_eval=_cummax_abstract_eval,
        lower=_cummax_lower,
        jvp=cummax_jvp(cummax_p, max_identity),
        batch=cumred_batcher(cummax_p),
    )
)


def cummin(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative minimum of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return bind_one(cummin_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cummin_p: Primitive = Primitive("cummin")


def _cummin_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cummin", operand, axis)


def _cummin_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, min_identity(ctx.avals_in[0].dtype), hlo.minimum)


def cummin_jvp(
    prim: Primitive, identity: Callable[[np.dtype[Any]], np.ndarray[Any, Any]]
) -> JvpRule:
    """The jvp of ``cummin``: the tangent at the running minimum."""
    return cumred_jvp(prim, _pick_pairs(lambda a, b: lax.le(a, b)), identity)


cummin_p.def_rules(
    Rules(
        abstract_eval=_cummin_abstract_eval,
        lower=_cummin_lower,
        jvp=cummin_jvp(cummin_p, min_identity),
        batch=cumred_batcher(cummin_p),
    )
)

