"""``scaled_dot``: ``(lhs * lhs_scale) @ (rhs * rhs_scale)`` with block scales (microscaling), as
JAX 0.12's ``scaled_dot_p``.

Each scale has the operand's rank; along a contracting dimension it is smaller by an integer
factor of at least 2 (the subchannel size) and is repeated over each subchannel. The lowering
is JAX's decomposition (operands and scales in bfloat16, multiplied, then ``dot_general`` in
``preferred_element_type``); JAX wraps it in a ``stablehlo.composite`` named ``xla.scaled_dot``,
which XLA:CPU inlines, so the values are the same. As in JAX it is not differentiable; it batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.linalg.dot import dot_general
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.standard_rules import bind_one, no_jvp
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, lower_jaxpr_body
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

DimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]
_Dnums = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]


def scaled_dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    *,
    lhs_scale: ArrayLike | None = None,
    rhs_scale: ArrayLike | None = None,
    dimension_numbers: DimensionNumbers | None = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """``(lhs * lhs_scale) @ (rhs * rhs_scale)`` (a ``dot_general``) in ``preferred_element_type``
    (default bfloat16).

    Without ``dimension_numbers``, operands of rank ``n >= 2`` contract ``lhs``'s last dimension
    with ``rhs``'s dimension ``n - 2`` and batch over the leading ``n - 2``. A missing scale is
    all ones (float8_e8m0fnu, one per row).
    """
    lhs_aval, rhs_aval = get_aval(lhs), get_aval(rhs)
    if dimension_numbers is None:
        n = lhs_aval.ndim
        if n in (0, 1):
            raise TypeError("scaled_dot does not support 0-rank and 1-rank operands.")
        batch = tuple(range(n - 2))
        dimension_numbers = (((n - 1,), (n - 2,)), (batch, batch))
    (lc, rc), (lb, rb) = dimension_numbers
    dnums: _Dnums = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
    if lhs_scale is None:
        lhs_scale = _dummy_scale(lhs_aval.shape, dnums[0][0])
    if rhs_scale is None:
        rhs_scale = _dummy_scale(rhs_aval.shape, dnums[0][1])
    element_type = dtypes.canonicalize_dtype(
        dtypes.bfloat16 if preferred_element_type is None else preferred_element_type
    )
    return bind_one(
        scaled_dot_p, lhs, rhs, lhs_scale, rhs_scale, dimension_numbers=dnums, preferred_element_type=element_type
    )


def _dummy_scale(shape: tuple[int, ...], contracting: Sequence[int]) -> Array:
    dims = tuple(1 if i in contracting else d for i, d in enumerate(shape))
    ones = shape_dims.broadcast(ew.convert_element_type(1, dtypes.bfloat16), dims)
    return ew.convert_element_type(ones, dtypes.float8_e8m0fnu)


scaled_dot_p: Primitive = Primitive("scaled_dot")


def _check_scale(side: str, operand: ShapedArray, scale: ShapedArray, contracting: Sequence[int]) -> None:
    for i, size in enumerate(operand.shape):
        if i in contracting:
            if size % scale.shape[i] != 0:
                raise TypeError(
                    f"{side} contracting dim {i} of size {size} must be divisible by its scale's dim "
                    f"size {scale.shape[i]}."
                )
            ratio = size // scale.shape[i]
            if ratio < 2:
                raise TypeError(
                    f"The ratio of {side} contracting dim {i} to its scale's dim size ({ratio}) must be at least 2."
                )
        elif scale.shape[i] != size:
            raise TypeError(f"{side} dim {i} of size {size} does not match scale dim size {scale.shape[i]}.")


def _scaled_dot_abstract_eval(
    lhs: ShapedArray,
    rhs: ShapedArray,
    lhs_scale: ShapedArray,
    rhs_scale: ShapedArray,
    *,
    dimension_numbers: _Dnums,
    preferred_element_type: np.dtype[Any],
) -> ShapedArray:
    (lc, rc), (lb, rb) = dimension_numbers
    ranks = (lhs.ndim, rhs.ndim, lhs_scale.ndim, rhs_scale.ndim)
    if max(ranks) != min(ranks):
        raise TypeError(
            f"All input tensors must have the same rank. Got lhs rank: {lhs.ndim} rhs rank: {rhs.ndim} "
            f"lhs_scale rank: {lhs_scale.ndim} rhs_scale rank: {rhs_scale.ndim}."
        )
    if len(lb) != len(rb):
        raise TypeError(
            f"LHS and RHS must have the same number of batch dimensions, got {len(lb)} and {len(rb)}."
        )
    if len(lc) != len(rc):
        raise TypeError(
            f"LHS and RHS must have the same number of contracting dimensions, got {len(lc)} and {len(rc)}."
        )
    for i, j in zip(lb, rb):
        sizes = (lhs.shape[i], rhs.shape[j], lhs_scale.shape[i], rhs_scale.shape[j])
        if max(sizes) != min(sizes):
            raise TypeError(f"All input tensors must have the same batch dimension size for batch dims ({i}, {j}).")
    for i, j in zip(lc, rc):
        if lhs.shape[i] != rhs.shape[j]:
            raise TypeError(
                f"LHS contracting dim {i} of size {lhs.shape[i]} does not match RHS contracting dim {j} "
                f"of size {rhs.shape[j]}."
            )
    _check_scale("LHS", lhs, lhs_scale, lc)
    _check_scale("RHS", rhs, rhs_scale, rc)
    lhs_kept = [d for i, d in enumerate(lhs.shape) if i not in lc and i not in lb]
    rhs_kept = [d for i, d in enumerate(rhs.shape) if i not in rc and i not in rb]
    shape = tuple([lhs.shape[i] for i in lb] + lhs_kept + rhs_kept)
    return ShapedArray(shape, preferred_element_type)


def _broadcast_scale(scale: Array, shape: tuple[int, ...], contracting: Sequence[int]) -> Array:
    """``scale`` with each contracting entry repeated over its subchannel, to ``shape``."""
    for i in contracting:
        have = scale.shape
        if have[i] != shape[i]:
            factor = shape[i] // have[i]
            spread = (*have[: i + 1], factor, *have[i + 1 :])
            expanded = shape_dims.expand_dims(scale, (i + 1,))
            scale = shape_dims.broadcast_in_dim(expanded, spread, tuple(range(len(spread))))
            scale = shape_dims.reshape(scale, (*have[:i], have[i] * factor, *have[i + 1 :]))
    return scale


def _decomposition(
    lhs: Array, rhs: Array, lhs_scale: Array, rhs_scale: Array, dimension_numbers: _Dnums, preferred_element_type: np.dtype[Any]
) -> Array:
    (lc, rc), _ = dimension_numbers
    bf16 = np.dtype(dtypes.bfloat16)
    ls = ew.convert_element_type(_broadcast_scale(lhs_scale, lhs.shape, lc), bf16)
    lhs_scaled = ew.mul(ew.convert_element_type(lhs, bf16), ls)
    rs = ew.convert_element_type(_broadcast_scale(rhs_scale, rhs.shape, rc), bf16)
    rhs_scaled = ew.mul(ew.convert_element_type(rhs, bf16), rs)
    return dot_general(lhs_scaled, rhs_scaled, dimension_numbers, preferred_element_type=preferred_element_type)


def _scaled_dot_lower(
    ctx: LoweringRuleContext,
    *args: ir.Value[Any],
    dimension_numbers: _Dnums,
    preferred_element_type: np.dtype[Any],
) -> ir.Value[Any]:
    def body(lhs: Array, rhs: Array, lhs_scale: Array, rhs_scale: Array) -> list[Array]:
        return [_decomposition(lhs, rhs, lhs_scale, rhs_scale, dimension_numbers, preferred_element_type)]

    closed = trace_to_jaxpr(body, list(ctx.avals_in), DebugInfo("scaled_dot", body))
    consts = [hlo_util.constant(np.asarray(c)) for c in closed.consts]
    (out,) = lower_jaxpr_body(closed.jaxpr, consts, list(args))
    return out


def _scaled_dot_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimension_numbers: _Dnums, preferred_element_type: np.dtype[Any]
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
    (lc, rc), (lb, rb) = dimension_numbers

    def shift(ds: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(d + 1 for d in ds)

    dnums: _Dnums = ((shift(lc), shift(rc)), ((0, *shift(lb)), (0, *shift(rb))))
    out = scaled_dot_p.bind(*moved, dimension_numbers=dnums, preferred_element_type=preferred_element_type)
    return out, 0


scaled_dot_p.def_rules(
    Rules(
        abstract_eval=_scaled_dot_abstract_eval,
        lower=_scaled_dot_lower,
        jvp=no_jvp("scaled_dot"),
        batch=_scaled_dot_batch,
    )
)
