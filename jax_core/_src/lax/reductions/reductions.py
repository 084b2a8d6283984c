"""Reductions: monoid reductions over axes, argmin/argmax, and cumulative reductions.

Reductions lower to ``stablehlo.reduce`` with a body region; cumulative
reductions lower to a ``stablehlo.reduce_window`` whose window spans the whole
axis (XLA rewrites it into an efficient scan), as JAX does.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters import array_ops
from jax_core._src.interpreters.ad_util import linear_jvp, zero_jvp
from jax_core._src.lax.reductions import reduction_rules as rr
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

Combiner = Callable[[ir.Value[Any], ir.Value[Any]], ir.Value[Any]]
"""Builds the scalar combination of two values inside a reduction body."""


def _bind(prim: Primitive, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def _axes_tuple(axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(operator.index(a) for a in axes)


# -- shared rules -----------------------------------------------------------------------


def _reduce_shape(operand: ShapedArray, axes: tuple[int, ...]) -> tuple[int, ...]:
    if len(axes) != len(set(axes)):
        raise ValueError(f"duplicate value in 'axes' of reduction: {axes}")
    if not all(0 <= a < operand.ndim for a in axes):
        raise ValueError(f"reduction axes {axes} contains out-of-bounds indices for {operand}.")
    return tuple(d for i, d in enumerate(operand.shape) if i not in axes)


def _check_number(name: str, operand: ShapedArray) -> None:
    if not dtypes.issubdtype(operand.dtype, np.number):
        raise TypeError(
            f"{name} does not accept dtype {operand.dtype.name}. Accepted dtypes are subtypes of "
            "number."
        )


def _logical_shape(operand: ShapedArray, axes: tuple[int, ...]) -> tuple[int, ...]:
    if operand.dtype != np.bool_ and not dtypes.issubdtype(operand.dtype, np.integer):
        raise TypeError(
            f"logical reduction requires operand dtype bool or int, got {operand.dtype}."
        )
    return tuple(d for i, d in enumerate(operand.shape) if i not in axes)


def max_identity(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """The identity of ``max`` for ``dtype``: -inf, the smallest integer, or False."""
    if dtypes.issubdtype(dtype, np.inexact):
        return np.array(-np.inf if dtypes.supports_inf(dtype) else dtypes.finfo(dtype).min, dtype)
    if dtypes.issubdtype(dtype, np.integer):
        return np.array(dtypes.iinfo(dtype).min, dtype)
    return np.array(False, np.bool_)


def min_identity(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """The identity of ``min`` for ``dtype``: inf, the largest integer, or True."""
    if dtypes.issubdtype(dtype, np.inexact):
        return np.array(np.inf if dtypes.supports_inf(dtype) else dtypes.finfo(dtype).max, dtype)
    if dtypes.issubdtype(dtype, np.integer):
        return np.array(dtypes.iinfo(dtype).max, dtype)
    return np.array(True, np.bool_)


def _zero(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    return np.array(0, dtype)


def _one(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    return np.array(1, dtype)


def _all_ones(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    return np.array(True, dtype) if dtype == np.bool_ else np.array(-1).astype(dtype)


def lower_reduce(
    x: ir.Value[Any],
    init: np.ndarray[Any, Any],
    axes: Sequence[int],
    combine: Combiner,
    out_aval: ShapedArray,
) -> ir.Value[Any]:
    """A ``stablehlo.reduce`` of ``x`` over ``axes`` with the scalar body ``combine``."""
    op = hlo.ReduceOp([aval_to_ir_type(out_aval)], [x], [hlo_util.constant(init)], list(axes))
    scalar = aval_to_ir_type(ShapedArray((), out_aval.dtype))
    body = op.regions[0].blocks.append(scalar, scalar)
    with ir.InsertionPoint(body):
        hlo.return_([combine(body.arguments[0], body.arguments[1])])
    result: ir.Value[Any] = op.results[0]
    return result


# -- reduce_sum -------------------------------------------------------------------------


def reduce_sum(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The sum of ``operand``'s elements over ``axes`` (each in ``[0, ndim)``)."""
    return _bind(reduce_sum_p, operand, axes=_axes_tuple(axes), out_sharding=None)


reduce_sum_p = Primitive("reduce_sum")


def _reduce_sum_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], out_sharding: None
) -> ShapedArray:
    shape = _reduce_shape(operand, axes)
    _check_number("reduce_sum", operand)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _reduce_sum_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], out_sharding: None
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, _zero(aval.dtype), axes, hlo.add, aval)


reduce_sum_p.def_rules(
    Rules(
        abstract_eval=_reduce_sum_abstract_eval,
        lower=_reduce_sum_lower,
        jvp=linear_jvp(reduce_sum_p),
        transpose=rr.reduce_sum_transpose,
        batch=rr.reducer_batcher(reduce_sum_p),
    )
)


# -- reduce_max -------------------------------------------------------------------------


def reduce_max(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The maximum of ``operand``'s elements over ``axes`` (-inf for an empty reduction)."""
    return _bind(reduce_max_p, operand, axes=_axes_tuple(axes), out_sharding=None)


reduce_max_p = Primitive("reduce_max")


def _reduce_max_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], out_sharding: None
) -> ShapedArray:
    return ShapedArray(_reduce_shape(operand, axes), operand.dtype, operand.weak_type)


def _reduce_max_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], out_sharding: None
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, max_identity(aval.dtype), axes, hlo.maximum, aval)


reduce_max_p.def_rules(
    Rules(
        abstract_eval=_reduce_max_abstract_eval,
        lower=_reduce_max_lower,
        jvp=rr.chooser_jvp(reduce_max_p),
        batch=rr.reducer_batcher(reduce_max_p),
    )
)


# -- reduce_min -------------------------------------------------------------------------


def reduce_min(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The minimum of ``operand``'s elements over ``axes`` (inf for an empty reduction)."""
    return _bind(reduce_min_p, operand, axes=_axes_tuple(axes), out_sharding=None)


reduce_min_p = Primitive("reduce_min")


def _reduce_min_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], out_sharding: None
) -> ShapedArray:
    return ShapedArray(_reduce_shape(operand, axes), operand.dtype, operand.weak_type)


def _reduce_min_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], out_sharding: None
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, min_identity(aval.dtype), axes, hlo.minimum, aval)


reduce_min_p.def_rules(
    Rules(
        abstract_eval=_reduce_min_abstract_eval,
        lower=_reduce_min_lower,
        jvp=rr.chooser_jvp(reduce_min_p),
        batch=rr.reducer_batcher(reduce_min_p),
    )
)


# -- reduce_prod ------------------------------------------------------------------------


def reduce_prod(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The product of ``operand``'s elements over ``axes``."""
    return _bind(reduce_prod_p, operand, axes=_axes_tuple(axes))


reduce_prod_p = Primitive("reduce_prod")


def _reduce_prod_abstract_eval(operand: ShapedArray, *, axes: tuple[int, ...]) -> ShapedArray:
    shape = _reduce_shape(operand, axes)
    _check_number("reduce_prod", operand)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _reduce_prod_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...]
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, _one(aval.dtype), axes, hlo.multiply, aval)


reduce_prod_p.def_rules(
    Rules(
        abstract_eval=_reduce_prod_abstract_eval,
        lower=_reduce_prod_lower,
        jvp=rr.reduce_prod_jvp,
        batch=rr.reducer_batcher(reduce_prod_p),
    )
)


# -- reduce_and / reduce_or / reduce_xor ------------------------------------------------


def _logical_reduction(name: str, identity: Any, op: Any) -> Primitive:
    """A bitwise/logical reduction primitive: same dtype out, ``identity`` as the init value."""
    prim = Primitive(name)

    def abstract_eval(operand: ShapedArray, *, axes: tuple[int, ...]) -> ShapedArray:
        return ShapedArray(_logical_shape(operand, axes), operand.dtype)

    def lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...]) -> ir.Value[Any]:
        aval = ctx.avals_out[0]
        return lower_reduce(x, identity(aval.dtype), axes, op, aval)

    prim.def_rules(
        Rules(abstract_eval=abstract_eval, lower=lower, jvp=zero_jvp(prim), batch=rr.reducer_batcher(prim))
    )
    return prim


reduce_and_p = _logical_reduction("reduce_and", _all_ones, hlo.and_)
reduce_or_p = _logical_reduction("reduce_or", _zero, hlo.or_)
reduce_xor_p = _logical_reduction("reduce_xor", _zero, hlo.xor)


def reduce_and(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Logical (bool) or bitwise (integer) AND of ``operand``'s elements over ``axes``."""
    return _bind(reduce_and_p, operand, axes=_axes_tuple(axes))


def reduce_or(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Logical (bool) or bitwise (integer) OR of ``operand``'s elements over ``axes``."""
    return _bind(reduce_or_p, operand, axes=_axes_tuple(axes))


def reduce_xor(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Logical (bool) or bitwise (integer) XOR of ``operand``'s elements over ``axes``."""
    return _bind(reduce_xor_p, operand, axes=_axes_tuple(axes))


# -- argmin / argmax --------------------------------------------------------------------


def _argminmax_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ShapedArray:
    (axis,) = axes
    if not 0 <= axis < operand.ndim:
        raise ValueError(f"Invalid axis {axis} for operand shape {operand.shape}")
    if operand.shape[axis] < 1:
        raise ValueError(
            f"argmin and argmax require non-empty reduced dimension. operand.shape={operand.shape} "
            f"axis={axis}"
        )
    if not dtypes.issubdtype(index_dtype, np.integer):
        raise TypeError(f"index_dtype must be an integer type, but got {index_dtype.name}")
    if operand.shape[axis] - 1 > np.iinfo(index_dtype).max:  # JAX wraps; an error is never wrong
        raise OverflowError(
            f"argmin/argmax over an axis of size {operand.shape[axis]} cannot return its indices "
            f"as {index_dtype.name}: pass a wider index_dtype, or enable 64-bit types with "
            "jax_core.config.update('jax_enable_x64', True) for jnp.argmax/argmin."
        )
    return ShapedArray(operand.shape[:axis] + operand.shape[axis + 1 :], index_dtype)


def _argminmax_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], axis: int, direction: str
) -> ir.Value[Any]:
    """A variadic reduce over (value, index) pairs that keeps the first extremal index.

    NaN wins over every number (as in JAX), and ties keep the smaller index.
    """
    aval_in, aval_out = ctx.avals_in[0], ctx.avals_out[0]
    val_dt, idx_dt = aval_in.dtype, aval_out.dtype
    init = max_identity(val_dt) if direction == "GT" else min_identity(val_dt)
    indices = hlo.iota(aval_to_ir_type(ShapedArray(aval_in.shape, idx_dt)), axis)
    op = hlo.ReduceOp(
        [aval_to_ir_type(ShapedArray(aval_out.shape, val_dt)), aval_to_ir_type(aval_out)],
        [x, indices],
        [hlo_util.constant(init), hlo_util.constant(np.array(0, idx_dt))],
        [axis],
    )
    val_t = aval_to_ir_type(ShapedArray((), val_dt))
    idx_t = aval_to_ir_type(ShapedArray((), idx_dt))
    body = op.regions[0].blocks.append(val_t, idx_t, val_t, idx_t)
    with ir.InsertionPoint(body):
        op_val, op_idx, acc_val, acc_idx = body.arguments
        pick_val = hlo.or_(
            hlo_util.compare(op_val, acc_val, direction, val_dt),
            hlo_util.compare(op_val, op_val, "NE", val_dt),
        )
        tie = hlo.and_(
            hlo_util.compare(op_val, acc_val, "EQ", val_dt),
            hlo_util.compare(op_idx, acc_idx, "LT", idx_dt),
        )
        pick_idx = hlo.or_(pick_val, tie)
        hlo.return_([hlo.select(pick_val, op_val, acc_val), hlo.select(pick_idx, op_idx, acc_idx)])
    result: ir.Value[Any] = op.results[1]
    return result


def argmin(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the first minimum of ``operand`` along ``axis`` (NaN counts as the minimum)."""
    dt = dtypes.check_and_canonicalize_user_dtype(index_dtype, "argmin")
    return _bind(argmin_p, operand, axes=(operator.index(axis),), index_dtype=dt)


argmin_p = Primitive("argmin")


def _argmin_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ShapedArray:
    return _argminmax_abstract_eval(operand, axes=axes, index_dtype=index_dtype)


def _argmin_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ir.Value[Any]:
    return _argminmax_lower(ctx, x, axes[0], "LT")


argmin_p.def_rules(
    Rules(
        abstract_eval=_argmin_abstract_eval,
        lower=_argmin_lower,
        jvp=zero_jvp(argmin_p),
        batch=rr.reducer_batcher(argmin_p),
    )
)


def argmax(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the first maximum of ``operand`` along ``axis`` (NaN counts as the maximum)."""
    dt = dtypes.check_and_canonicalize_user_dtype(index_dtype, "argmax")
    return _bind(argmax_p, operand, axes=(operator.index(axis),), index_dtype=dt)


argmax_p = Primitive("argmax")


def _argmax_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ShapedArray:
    return _argminmax_abstract_eval(operand, axes=axes, index_dtype=index_dtype)


def _argmax_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ir.Value[Any]:
    return _argminmax_lower(ctx, x, axes[0], "GT")


argmax_p.def_rules(
    Rules(
        abstract_eval=_argmax_abstract_eval,
        lower=_argmax_lower,
        jvp=zero_jvp(argmax_p),
        batch=rr.reducer_batcher(argmax_p),
    )
)


# -- cumulative reductions --------------------------------------------------------------


def _cumred_abstract_eval(name: str, operand: ShapedArray, axis: int) -> ShapedArray:
    if axis < 0:
        raise ValueError("XLA operations do not allow negative axes")
    if axis >= operand.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of shape {operand.shape}")
    _check_number(name, operand)
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
    return _bind(cumsum_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cumsum_p = Primitive("cumsum")


def _cumsum_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cumsum", operand, axis)


def _cumsum_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, _zero(ctx.avals_in[0].dtype), hlo.add)


cumsum_p.def_rules(
    Rules(
        abstract_eval=_cumsum_abstract_eval,
        lower=_cumsum_lower,
        jvp=linear_jvp(cumsum_p),
        transpose=rr.cumsum_transpose,
        batch=rr.cumred_batcher(cumsum_p),
    )
)


def cumprod(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative product of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return _bind(cumprod_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cumprod_p = Primitive("cumprod")


def _cumprod_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cumprod", operand, axis)


def _cumprod_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, _one(ctx.avals_in[0].dtype), hlo.multiply)


cumprod_p.def_rules(
    Rules(
        abstract_eval=_cumprod_abstract_eval,
        lower=_cumprod_lower,
        jvp=rr.cumprod_jvp(cumprod_p),
        batch=rr.cumred_batcher(cumprod_p),
    )
)


def cummax(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative maximum of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return _bind(cummax_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cummax_p = Primitive("cummax")


def _cummax_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cummax", operand, axis)


def _cummax_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, max_identity(ctx.avals_in[0].dtype), hlo.maximum)


cummax_p.def_rules(
    Rules(
        abstract_eval=_cummax_abstract_eval,
        lower=_cummax_lower,
        jvp=rr.cummax_jvp(cummax_p, max_identity),
        batch=rr.cumred_batcher(cummax_p),
    )
)


def cummin(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """The cumulative minimum of ``operand`` along ``axis`` (from the end if ``reverse``)."""
    return _bind(cummin_p, operand, axis=operator.index(axis), reverse=bool(reverse))


cummin_p = Primitive("cummin")


def _cummin_abstract_eval(operand: ShapedArray, *, axis: int, reverse: bool) -> ShapedArray:
    return _cumred_abstract_eval("cummin", operand, axis)


def _cummin_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int, reverse: bool
) -> ir.Value[Any]:
    return _cumred_lower(ctx, x, axis, reverse, min_identity(ctx.avals_in[0].dtype), hlo.minimum)


cummin_p.def_rules(
    Rules(
        abstract_eval=_cummin_abstract_eval,
        lower=_cummin_lower,
        jvp=rr.cummin_jvp(cummin_p, min_identity),
        batch=rr.cumred_batcher(cummin_p),
    )
)


# The interpreters (autodiff, batching) build values with these; see interpreters/array_ops.py.
array_ops.register("reduce_sum", reduce_sum)
