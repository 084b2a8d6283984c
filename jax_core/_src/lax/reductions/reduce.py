"""Reductions over axes: the monoid reductions (``reduce_sum``/``max``/``min``/``prod``/``and``/``or``/
``xor``) and ``argmin``/``argmax``, each with its rules.

They lower to ``stablehlo.reduce`` with a body region, as JAX does; ``reduce_sum`` is linear,
``reduce_max``/``reduce_min`` average the tangent over the locations of the extremum and
``reduce_prod`` differentiates a pairwise tree of products (correct with zeros).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import array_ops
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    UndefinedPrimal,
    Zero,
    is_differentiable,
    is_zero,
    linear_jvp,
    zero_jvp,
)
from jax_core._src.interpreters.batching_util import BatchRule
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

Combiner = Callable[[ir.Value[Any], ir.Value[Any]], ir.Value[Any]]
"""Builds the scalar combination of two values inside a reduction body."""




def _axes_tuple(axes: Sequence[int]) -> tuple[int, ...]:
    return tuple(operator.index(a) for a in axes)


# -- shared rules -----------------------------------------------------------------------


def _reduce_shape(operand: ShapedArray, axes: tuple[int, ...]) -> tuple[int, ...]:
    if len(axes) != len(set(axes)):
        raise ValueError(f"duplicate value in 'axes' of reduction: {axes}")
    if not all(0 <= a < operand.ndim for a in axes):
        raise ValueError(f"reduction axes {axes} contains out-of-bounds indices for {operand}.")
    return tuple(d for i, d in enumerate(operand.shape) if i not in axes)


def check_number(name: str, operand: ShapedArray) -> None:
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
    for a in axes:  # JAX's logical reductions index the shape: an IndexError, not a ValueError
        if not 0 <= a < operand.ndim:
            raise IndexError(f"index {a} is out of bounds for axis 0 with size {operand.ndim}")
    return _reduce_shape(operand, axes)


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


def zero_of(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    return np.array(0, dtype)


def one_of(dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
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
    return bind_one(reduce_sum_p, operand, axes=_axes_tuple(axes), out_sharding=None)


reduce_sum_p: Primitive = Primitive("reduce_sum")


def _reduce_sum_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], out_sharding: None
) -> ShapedArray:
    shape = _reduce_shape(operand, axes)
    check_number("reduce_sum", operand)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _reduce_sum_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], out_sharding: None
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, zero_of(aval.dtype), axes, hlo.add, aval)


def reducer_batcher(prim: Primitive) -> BatchRule:
    """Batching of a reduction over ``axes``: the axes shift past the batch dimension."""

    def rule(
        args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[int, ...], **params: Any
    ) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        assert d is not None
        new_axes = tuple(np.where(np.less(axes, d), axes, np.add(axes, 1)))  # numpy ints, as JAX's
        out_dim = d - sum(a < d for a in new_axes)
        return prim.bind(x, axes=new_axes, **params), out_dim

    return rule


def reduce_sum_transpose(
    ct: Any, x: UndefinedPrimal, *, axes: tuple[int, ...], out_sharding: None
) -> list[Any]:
    """The cotangent of a sum: ``ct`` broadcast back over the reduced axes."""
    shape = x.aval.shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    return [shape_dims.broadcast_in_dim(ct, shape, kept)]


reduce_sum_p.def_rules(
    Rules(
        abstract_eval=_reduce_sum_abstract_eval,
        lower=_reduce_sum_lower,
        jvp=linear_jvp(reduce_sum_p),
        transpose=reduce_sum_transpose,
        batch=reducer_batcher(reduce_sum_p),
    )
)


# -- reduce_max -------------------------------------------------------------------------


def reduce_max(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The maximum of ``operand``'s elements over ``axes`` (-inf for an empty reduction)."""
    return bind_one(reduce_max_p, operand, axes=_axes_tuple(axes), out_sharding=None)


reduce_max_p: Primitive = Primitive("reduce_max")


def _reduce_max_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], out_sharding: None
) -> ShapedArray:
    return ShapedArray(_reduce_shape(operand, axes), operand.dtype, operand.weak_type)


def _reduce_max_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], out_sharding: None
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, max_identity(aval.dtype), axes, hlo.maximum, aval)


def zero_out(ans: Any, t: Any) -> bool:
    """Whether the output tangent is zero: a symbolic zero in, or a non-differentiable out."""
    return is_zero(t) or not is_differentiable(get_aval(ans)) or not is_differentiable(get_aval(t))


def chooser_jvp(prim: Primitive) -> JvpRule:
    """The jvp of ``reduce_max``/``reduce_min``: the tangent averaged over the positions
    equal to the result (JAX's ``_reduce_chooser_jvp_rule``)."""

    def rule(
        primals: Sequence[Any],
        tangents: Sequence[Any],
        *,
        axes: tuple[int, ...],
        out_sharding: None,
    ) -> tuple[Any, Any]:

        (x,), (t,) = primals, tangents
        ans = prim.bind(x, axes=axes, out_sharding=out_sharding)
        if zero_out(ans, t):
            return ans, Zero.from_primal_value(ans)
        aval = get_aval(x)
        kept = tuple(i for i in range(aval.ndim) if i not in axes)
        at = lax.eq(x, shape_dims.broadcast_in_dim(ans, aval.shape, kept))
        where = lax.convert_element_type(at, get_aval(t).dtype)
        counts = reduce_sum(where, axes)
        return ans, lax.div(reduce_sum(lax.mul(t, where), axes), counts)

    return rule


reduce_max_p.def_rules(
    Rules(
        abstract_eval=_reduce_max_abstract_eval,
        lower=_reduce_max_lower,
        jvp=chooser_jvp(reduce_max_p),
        batch=reducer_batcher(reduce_max_p),
    )
)


# -- reduce_min -------------------------------------------------------------------------


def reduce_min(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The minimum of ``operand``'s elements over ``axes`` (inf for an empty reduction)."""
    return bind_one(reduce_min_p, operand, axes=_axes_tuple(axes), out_sharding=None)


reduce_min_p: Primitive = Primitive("reduce_min")


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
        jvp=chooser_jvp(reduce_min_p),
        batch=reducer_batcher(reduce_min_p),
    )
)


# -- reduce_prod ------------------------------------------------------------------------


def reduce_prod(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """The product of ``operand``'s elements over ``axes``."""
    return bind_one(reduce_prod_p, operand, axes=_axes_tuple(axes))


reduce_prod_p: Primitive = Primitive("reduce_prod")


def _reduce_prod_abstract_eval(operand: ShapedArray, *, axes: tuple[int, ...]) -> ShapedArray:
    shape = _reduce_shape(operand, axes)
    check_number("reduce_prod", operand)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _reduce_prod_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...]
) -> ir.Value[Any]:
    aval = ctx.avals_out[0]
    return lower_reduce(x, one_of(aval.dtype), axes, hlo.multiply, aval)


def reduce_prod_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, axes: tuple[int, ...]
) -> tuple[Any, Any]:
    """The jvp of a product as JAX computes it: the reduced axes flattened to the front and
    multiplied pairwise in a tree, carrying tangents by the product rule (no division, so
    zeros in the operand are handled)."""
    from jax_core._src.lax.indexing.slicing import slice as lax_slice

    (x,), (t,) = primals, tangents
    ans = reduce_prod(x, axes)
    if zero_out(ans, t):
        return ans, Zero.from_primal_value(ans)
    aval = get_aval(x)
    kept = [i for i in range(aval.ndim) if i not in axes]
    n = math.prod(aval.shape[a] for a in axes)
    out_shape = tuple(aval.shape[i] for i in kept)
    if n == 0:
        return ans, Zero.from_primal_value(ans)
    perm = (*axes, *kept)
    xs = shape_dims.reshape(x, (n, *out_shape), perm)
    ts = shape_dims.reshape(t, (n, *out_shape), perm)
    while n > 1:
        n1 = (n + 1) // 2
        halves = [
            (
                lax_slice(v, (0,) * v.ndim, (n1, *out_shape)),
                lax_slice(v, (n1,) + (0,) * len(out_shape), (n, *out_shape)),
            )
            for v in (xs, ts)
        ]
        (x1, x2), (t1, t2) = halves
        if n - n1 != n1:  # pad the short half with the identity (1, 0)
            cfg = [(0, 1, 0)] + [(0, 0, 0)] * len(out_shape)
            x2 = shape_assembly.pad(x2, np.array(1, aval.dtype), cfg)
            t2 = shape_assembly.pad(t2, np.array(0, aval.dtype), cfg)
        xs, ts = lax.mul(x1, x2), lax.add(lax.mul(t1, x2), lax.mul(x1, t2))
        n = n1
    return ans, shape_dims.reshape(ts, out_shape)


reduce_prod_p.def_rules(
    Rules(
        abstract_eval=_reduce_prod_abstract_eval,
        lower=_reduce_prod_lower,
        jvp=reduce_prod_jvp,
        batch=reducer_batcher(reduce_prod_p),
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
        Rules(abstract_eval=abstract_eval, lower=lower, jvp=zero_jvp(prim), batch=reducer_batcher(prim))
    )
    return prim


reduce_and_p: Primitive = _logical_reduction("reduce_and", _all_ones, hlo.and_)
reduce_or_p: Primitive = _logical_reduction("reduce_or", zero_of, hlo.or_)
reduce_xor_p: Primitive = _logical_reduction("reduce_xor", zero_of, hlo.xor)


def reduce_and(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Logical (bool) or bitwise (integer) AND of ``operand``'s elements over ``axes``."""
    return bind_one(reduce_and_p, operand, axes=_axes_tuple(axes))


def reduce_or(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Logical (bool) or bitwise (integer) OR of ``operand``'s elements over ``axes``."""
    return bind_one(reduce_or_p, operand, axes=_axes_tuple(axes))


def reduce_xor(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Logical (bool) or bitwise (integer) XOR of ``operand``'s elements over ``axes``."""
    return bind_one(reduce_xor_p, operand, axes=_axes_tuple(axes))


# -- argmin / argmax --------------------------------------------------------------------


def _argminmax_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype[Any], compare: str = "gt"
) -> ShapedArray:
    (axis,) = axes
    if dtypes.issubdtype(operand.dtype, np.complexfloating):  # JAX's comparator rejects them
        raise TypeError(
            f"{compare} does not accept dtype {operand.dtype.name} at position 0. Accepted dtypes at "
            "position 0 are subtypes of integer, bool, floating."
        )
    if not 0 <= axis < operand.ndim:
        raise ValueError(f"Invalid axis {axis} for operand shape {operand.shape}")
    if operand.shape[axis] < 1:
        raise ValueError(
            f"argmin and argmax require non-empty reduced dimension. operand.shape={operand.shape} "
            f"axis={axis}"
        )
    if not dtypes.issubdtype(index_dtype, np.integer):
        raise TypeError(f"index_dtype must be an integer type, but got {index_dtype.name}")
    if not is_symbolic_dim(operand.shape[axis]) and operand.shape[axis] - 1 > np.iinfo(index_dtype).max:  # JAX wraps; an error is never wrong
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
    indices = dynamic_shapes.iota(aval_to_ir_type(ShapedArray(aval_in.shape, idx_dt)), axis, aval_in.shape)
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
    return bind_one(argmin_p, operand, axes=(operator.index(axis),), index_dtype=dt)


argmin_p: Primitive = Primitive("argmin")


def _argmin_abstract_eval(
    operand: ShapedArray, *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ShapedArray:
    return _argminmax_abstract_eval(operand, axes=axes, index_dtype=index_dtype, compare="lt")


def _argmin_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, axes: tuple[int, ...], index_dtype: np.dtype[Any]
) -> ir.Value[Any]:
    return _argminmax_lower(ctx, x, axes[0], "LT")


argmin_p.def_rules(
    Rules(
        abstract_eval=_argmin_abstract_eval,
        lower=_argmin_lower,
        jvp=zero_jvp(argmin_p),
        batch=reducer_batcher(argmin_p),
    )
)


def argmax(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the first maximum of ``operand`` along ``axis`` (NaN counts as the maximum)."""
    dt = dtypes.check_and_canonicalize_user_dtype(index_dtype, "argmax")
    return bind_one(argmax_p, operand, axes=(operator.index(axis),), index_dtype=dt)


argmax_p: Primitive = Primitive("argmax")


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
        batch=reducer_batcher(argmax_p),
    )
)


# The interpreters (autodiff, batching) build values with these; see interpreters/array_ops.py.
array_ops.register("reduce_sum", reduce_sum)
