"""Shape primitives that assemble or reorder arrays: ``concatenate``, ``pad``, ``rev`` and ``iota``.

Primitive names, parameters and error messages follow JAX 0.12, so staged jaxprs print as JAX's."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.lax.shape.dimensions import (
    broadcast_in_dim,
    canonicalize_shape,
    check_nonnegative,
    int_tuple,
    unary_bdim,
)
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

# -- concatenate ------------------------------------------------------------------------


def concatenate(operands: Array | Sequence[ArrayLike], dimension: int) -> Array:
    """Joins ``operands`` along ``dimension`` (all other dimensions must agree)."""
    ops: list[ArrayLike] = list(operands)
    if len(ops) == 0:
        raise ValueError("concatenate requires a non-empty sequences of arrays")
    if len(ops) == 1 and isinstance(ops[0], Array):
        return ops[0]
    return bind_one(concatenate_p, *ops, dimension=operator.index(dimension))


concatenate_p: Primitive = Primitive("concatenate")


def _concatenate_abstract_eval(*operands: ShapedArray, dimension: int) -> ShapedArray:
    if not operands:
        raise TypeError("concatenate expects at least one operand, got 0.")
    if len({o.ndim for o in operands}) != 1:
        raise TypeError(
            "Cannot concatenate arrays with different numbers of dimensions: got "
            f"{', '.join(str(o.shape) for o in operands)}."
        )
    if not 0 <= dimension < operands[0].ndim:
        raise TypeError(
            f"concatenate dimension out of bounds: dimension {dimension} for shapes "
            f"{', '.join(str(o.shape) for o in operands)}."
        )
    others = [o.shape[:dimension] + o.shape[dimension + 1 :] for o in operands]
    if others[:-1] != others[1:]:
        raise TypeError(
            "Cannot concatenate arrays with shapes that differ in dimensions other than the one "
            f"being concatenated: concatenating along dimension {dimension} for shapes "
            f"{', '.join(str(o.shape) for o in operands)}."
        )
    if any(o.dtype != operands[0].dtype for o in operands[1:]):
        raise TypeError(
            "lax.concatenate requires arguments to have the same dtypes, got "
            f"{', '.join(o.dtype.name for o in operands)}. (Tip: jnp.concatenate is a similar "
            "function that does automatic type promotion on inputs)."
        )
    first = operands[0].shape
    size = sum(o.shape[dimension] for o in operands)
    shape = first[:dimension] + (size,) + first[dimension + 1 :]
    return ShapedArray(shape, operands[0].dtype, all(o.weak_type for o in operands))


def _concatenate_lower(
    ctx: LoweringRuleContext, *xs: ir.Value[Any], dimension: int
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.concatenate(list(xs), dimension)
    return out


def _concatenate_transpose(ct: Any, *operands: Any, dimension: int) -> list[Any]:
    from jax_core._src.lax.indexing.slicing import slice as slice_

    ct_shape, start = get_aval(ct).shape, 0
    out: list[Any] = []
    for x in operands:
        n = (x.aval if ad_util.is_undefined_primal(x) else get_aval(x)).shape[dimension]
        lo = tuple(start if i == dimension else 0 for i in range(len(ct_shape)))
        hi = tuple(start + n if i == dimension else d for i, d in enumerate(ct_shape))
        out.append(slice_(ct, lo, hi) if ad_util.is_undefined_primal(x) else None)
        start += n
    return out


def _concatenate_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimension: int
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
    return concatenate(moved, dimension + 1), 0


concatenate_p.def_rules(
    Rules(
        abstract_eval=_concatenate_abstract_eval,
        lower=_concatenate_lower,
        jvp=ad_util.linear_jvp(concatenate_p),
        transpose=_concatenate_transpose,
        batch=_concatenate_batch,
    )
)


# -- pad --------------------------------------------------------------------------------


def pad(
    operand: ArrayLike, padding_value: ArrayLike, padding_config: Sequence[tuple[int, int, int]]
) -> Array:
    """Pads ``operand`` with ``padding_value``: ``(low, high, interior)`` per dimension.

    Negative ``low``/``high`` remove elements from the edges.
    """
    config = tuple(
        (operator.index(lo), operator.index(hi), operator.index(it))
        for lo, hi, it in padding_config
    )
    return bind_one(pad_p, operand, padding_value, padding_config=config)


pad_p: Primitive = Primitive("pad")


def _pad_abstract_eval(
    operand: ShapedArray,
    padding_value: ShapedArray,
    *,
    padding_config: tuple[tuple[int, int, int], ...],
) -> ShapedArray:
    if padding_value.ndim != 0:
        raise ValueError(
            f"padding_value must be a scalar; got np.shape(padding_value)={padding_value.shape}"
        )
    if len(padding_config) != operand.ndim:
        raise ValueError(
            "length of padding_config must equal the number of axes of operand, got "
            f"padding_config {padding_config} for operand shape {operand.shape}"
        )
    if not all(i >= 0 for _, _, i in padding_config):
        raise ValueError(
            "interior padding in padding_config must be nonnegative, got padding_config "
            f"{padding_config}"
        )
    shape = tuple(
        lo + hi + (0 if d == 0 else d + (d - 1) * it)
        for (lo, hi, it), d in zip(padding_config, operand.shape)
    )
    if not all(d >= 0 for d in shape):
        raise ValueError(
            f"Dimension size after padding is not at least 0, got result shape {shape}, for "
            f"padding_config {padding_config} and operand shape {operand.shape}"
        )
    if operand.dtype != padding_value.dtype:
        raise TypeError(
            f"pad operand and padding_value must be same dtype: got {operand.dtype} and "
            f"{padding_value.dtype}."
        )
    return ShapedArray(shape, operand.dtype, operand.weak_type and padding_value.weak_type)


def _pad_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    padding_value: ir.Value[Any],
    *,
    padding_config: tuple[tuple[int, int, int], ...],
) -> ir.Value[Any]:
    low, high, interior = ([c[k] for c in padding_config] for k in range(3))
    out: ir.Value[Any] = hlo.pad(x, padding_value, low, high, interior)
    return out


def _pad_transpose(
    ct: Any, operand: Any, padding_value: Any, *, padding_config: tuple[tuple[int, int, int], ...]
) -> list[Any]:
    from jax_core._src.lax.elementwise import sub
    from jax_core._src.lax.indexing.slicing import slice as slice_
    from jax_core._src.lax.reductions.reduce import reduce_sum

    aval = get_aval(ct)
    # Undo the edge padding (cropping what it added, re-adding as zeros what negative
    # padding cropped), then step over the interior padding.
    unpad = tuple((-lo, -hi, 0) for lo, hi, _ in padding_config)
    unpadded = pad(ct, np.zeros((), aval.dtype), unpad)
    shape = get_aval(unpadded).shape
    strides = tuple(it + 1 for _, _, it in padding_config)
    t_operand = slice_(unpadded, (0,) * len(shape), shape, strides)
    t_padv = None
    if ad_util.is_undefined_primal(padding_value):
        axes = tuple(range(aval.ndim))
        t_padv = sub(reduce_sum(ct, axes), reduce_sum(t_operand, axes))
    return [t_operand if ad_util.is_undefined_primal(operand) else None, t_padv]


def _pad_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    padding_config: tuple[tuple[int, int, int], ...],
) -> tuple[Any, int]:
    from jax_core._src.lax.elementwise import select

    (x, padv), (xd, pd) = args, dims
    size = axis_size(args, dims)
    x = bdim_at_front(x, xd, size)
    config = ((0, 0, 0), *padding_config)
    if pd is None:
        return pad(x, padv, config), 0
    # A batched padding value: pad with zeros, then select the padding positions by a mask.
    aval = get_aval(x)
    out = pad(x, np.zeros((), aval.dtype), config)
    mask = pad(broadcast_in_dim(True, aval.shape, ()), np.False_, config)
    return select(mask, out, broadcast_in_dim(padv, get_aval(out).shape, (0,))), 0


pad_p.def_rules(
    Rules(
        abstract_eval=_pad_abstract_eval,
        lower=_pad_lower,
        jvp=ad_util.linear_jvp(pad_p),
        transpose=_pad_transpose,
        batch=_pad_batch,
    )
)


# -- rev --------------------------------------------------------------------------------


def rev(operand: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Reverses ``operand`` along each of ``dimensions``."""
    return bind_one(rev_p, operand, dimensions=int_tuple(dimensions))


rev_p: Primitive = Primitive("rev")


def _rev_abstract_eval(operand: ShapedArray, *, dimensions: tuple[int, ...]) -> ShapedArray:
    check_nonnegative("rev", "dimensions", dimensions)
    if len(set(dimensions)) != len(dimensions):
        raise TypeError(f"rev dimensions must be unique, got {dimensions}.")
    if dimensions and not max(dimensions) < operand.ndim:
        raise TypeError(
            "rev dimensions must all be less than operand ndim, got dimensions "
            f"{dimensions} for operand ndim {operand.ndim}."
        )
    return operand


def _rev_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, dimensions: tuple[int, ...]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.reverse(x, list(dimensions))
    return out


def _rev_transpose(ct: Any, *, dimensions: tuple[int, ...]) -> Array:
    return rev(ct, dimensions)


def _rev_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimensions: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), d = args, unary_bdim(dims)
    return rev(x, tuple(i + 1 if i >= d else i for i in dimensions)), d


rev_p.def_rules(
    Rules(
        abstract_eval=_rev_abstract_eval,
        lower=_rev_lower,
        jvp=ad_util.linear_jvp(rev_p),
        transpose=ad_util.linear_transpose(_rev_transpose),
        batch=_rev_batch,
    )
)


# -- iota -------------------------------------------------------------------------------


def iota(dtype: DTypeLike, size: int) -> Array:
    """The vector ``[0, 1, ..., size - 1]`` of dtype ``dtype``."""
    return broadcasted_iota(dtype, (size,), 0)


def broadcasted_iota(dtype: DTypeLike, shape: ShapeLike, dimension: int) -> Array:
    """An array of ``shape`` whose values count up along ``dimension``."""
    dt = dtypes.check_and_canonicalize_user_dtype(dtype, "broadcasted_iota")
    shape_t = canonicalize_shape(shape, "broadcasted_iota shape")
    if isinstance(dimension, Tracer):
        dimension.concretization_error("dimension argument of lax.broadcasted_iota")
    return bind_one(
        iota_p, dtype=dt, shape=shape_t, dimension=operator.index(dimension), sharding=None
    )


iota_p: Primitive = Primitive("iota")


def _iota_abstract_eval(
    *, dtype: np.dtype[Any], shape: tuple[int, ...], dimension: int, sharding: None
) -> ShapedArray:
    check_nonnegative("iota", "shape", shape)
    if not (dtypes.issubdtype(dtype, np.integer) or dtypes.issubdtype(dtype, np.inexact)):
        raise TypeError(
            f"iota does not accept dtype {dtype.name}. Accepted dtypes are subtypes of "
            "integer, complexfloating, floating."
        )
    if not 0 <= dimension < len(shape):
        raise ValueError(
            f"iota dimension must be between 0 and len(shape), got dimension={dimension} for "
            f"shape={shape}"
        )
    return ShapedArray(shape, dtype)


def _iota_lower(
    ctx: LoweringRuleContext,
    *,
    dtype: np.dtype[Any],
    shape: tuple[int, ...],
    dimension: int,
    sharding: None,
) -> ir.Value[Any]:
    return dynamic_shapes.iota(aval_to_ir_type(ctx.avals_out[0]), dimension, shape)


def _iota_batch(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, None]:
    # iota has no operands, so vmap never calls this; were it called, nothing varies.
    if args:
        raise TypeError(f"iota takes no operands, got {len(args)}")
    return iota_p.bind(**params), None


iota_p.def_rules(
    Rules(
        abstract_eval=_iota_abstract_eval,
        lower=_iota_lower,
        jvp=ad_util.zero_jvp(iota_p),
        batch=_iota_batch,
    )
)
