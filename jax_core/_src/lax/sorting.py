"""``sort``: sorts one or more operands along a dimension by their first ``num_keys`` operands.

Floating keys sort in total order after canonicalisation, as in JAX: ``-0.0`` equals
``0.0`` and every NaN sorts last; complex keys sort by real then imaginary part. The jvp
sorts an iota alongside and gathers the tangents with the resulting permutation; batching
sorts along the shifted dimension. ``top_k`` is a primitive of its own, lowered to ``chlo.top_k`` as
in JAX; its jvp gathers the tangent at the selected indices.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    Zero,
    is_zero,
)
from jax_core._src.interpreters.batching_util import (
    axis_size,
    bdim_at_front,
)
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def sort(operand: ArrayLike | Sequence[ArrayLike], dimension: int = -1, is_stable: bool = True, num_keys: int = 1) -> Any:
    """Sorts ``operand`` (or a sequence of operands, by the first ``num_keys``) along ``dimension``.

    Returns an array for one operand and a tuple for a sequence, as ``lax.sort``.
    """
    single = not isinstance(operand, (list, tuple))
    ops: list[Any] = [operand] if single else list(operand)  # type: ignore[arg-type]
    if not ops:
        raise TypeError("sort requires at least one operand")
    if not 1 <= num_keys <= len(ops):
        raise ValueError(f"num_keys={num_keys} must be between 1 and len(operand)={len(ops)}")
    from jax_core._src.core.trace import get_aval

    ndim = get_aval(ops[0]).ndim
    if not -ndim <= dimension < ndim:
        raise ValueError(f"dimension {dimension} is out of bounds for array of rank {ndim}")
    out = sort_p.bind(*ops, dimension=dimension % ndim, is_stable=bool(is_stable), num_keys=int(num_keys))
    return out[0] if single else tuple(out)


def sort_key_val(keys: ArrayLike, values: ArrayLike, dimension: int = -1, is_stable: bool = True) -> tuple[Array, Array]:
    """Sorts ``keys`` along ``dimension`` and applies the same permutation to ``values``."""
    k, v = sort((keys, values), dimension, is_stable, 1)
    return k, v


def _abstract_eval(*operands: ShapedArray, dimension: int, is_stable: bool, num_keys: int) -> list[ShapedArray]:
    shape = operands[0].shape
    if any(o.shape != shape for o in operands[1:]):
        raise TypeError(f"sort operands must all have the same shape, got {[o.shape for o in operands]}.")
    if not 0 <= dimension < len(shape):
        raise ValueError(f"dimension {dimension} is out of bounds for array of rank {len(shape)}")
    return [ShapedArray(o.shape, o.dtype, o.weak_type) for o in operands]


def _canonical_float(x: ir.Value[Any], dt: np.dtype[Any]) -> ir.Value[Any]:
    """-0.0 -> 0.0 and every NaN -> the positive quiet NaN, so total order is NumPy's order.

    Both tests read the original ``x`` (as JAX's ``_canonicalize_float_for_sort`` does), so the
    two compares in the comparator are independent rather than chained through a select.
    """
    zero = hlo_util.constant(np.zeros((), dt))
    nan = hlo_util.constant(np.full((), np.nan, dt))
    is_zero = hlo_util.compare(x, zero, "EQ", dt)
    is_nan = hlo_util.compare(x, x, "NE", dt)
    out: ir.Value[Any] = hlo.select(is_nan, nan, hlo.select(is_zero, zero, x))
    return out


def _keys(x: ir.Value[Any], dt: np.dtype[Any]) -> list[tuple[ir.Value[Any], np.dtype[Any]]]:
    if dtypes.issubdtype(dt, np.complexfloating):
        real_dt = np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64)
        return [(_canonical_float(hlo.real(x), real_dt), real_dt), (_canonical_float(hlo.imag(x), real_dt), real_dt)]
    if dtypes.issubdtype(dt, np.floating):
        return [(_canonical_float(x, dt), dt)]
    return [(x, dt)]


def _compare(x: ir.Value[Any], y: ir.Value[Any], direction: str, dt: np.dtype[Any]) -> ir.Value[Any]:
    if dtypes.issubdtype(dt, np.floating):
        out: ir.Value[Any] = hlo.compare(
            x, y, hlo.ComparisonDirectionAttr.get(direction), compare_type=hlo.ComparisonTypeAttr.get("TOTALORDER")
        )
        return out
    return hlo_util.compare(x, y, direction, dt)


def _lower(ctx: LoweringRuleContext, *operands: ir.Value[Any], dimension: int, is_stable: bool, num_keys: int) -> list[ir.Value[Any]]:
    avals = ctx.avals_in
    op = hlo.SortOp([aval_to_ir_type(a) for a in ctx.avals_out], list(operands), dimension=dimension, is_stable=is_stable)
    scalars = [aval_to_ir_type(ShapedArray((), a.dtype)) for a in avals]
    block = op.regions[0].blocks.append(*[t for t in scalars for _ in range(2)])
    with ir.InsertionPoint(block):
        args = block.arguments
        keys: list[tuple[ir.Value[Any], ir.Value[Any], np.dtype[Any]]] = []
        for i in range(num_keys):
            dt = avals[i].dtype
            for (kx, kdt), (ky, _) in zip(_keys(args[2 * i], dt), _keys(args[2 * i + 1], dt)):
                keys.append((kx, ky, kdt))
        pred: ir.Value[Any] | None = None
        for kx, ky, kdt in reversed(keys):
            lt = _compare(kx, ky, "LT", kdt)
            if pred is None:
                pred = lt
            else:
                pred = hlo.or_(lt, hlo.and_(_compare(kx, ky, "EQ", kdt), pred))
        assert pred is not None
        hlo.return_([pred])
    return list(op.results)


def gather_along(t: Any, perm: Any, dimension: int) -> Any:
    """``t`` permuted along ``dimension`` by ``perm`` (``take_along_axis`` as one gather)."""
    from jax_core._src.core.trace import get_aval
    from jax_core._src.lax.indexing.dimension_numbers import GatherDimensionNumbers
    from jax_core._src.lax.indexing.gather import gather
    from jax_core._src.lax.shape.dimensions import expand_dims

    ndim = get_aval(t).ndim
    batch = tuple(i for i in range(ndim) if i != dimension)
    dnums = GatherDimensionNumbers(
        offset_dims=(),
        collapsed_slice_dims=(dimension,),
        start_index_map=(dimension,),
        operand_batching_dims=batch,
        start_indices_batching_dims=batch,
    )
    return gather(t, expand_dims(perm, (ndim,)), dnums, (1,) * ndim, mode="promise_in_bounds")


def _jvp(primals: Sequence[Any], tangents: Sequence[Any], *, dimension: int, is_stable: bool, num_keys: int) -> tuple[list[Any], list[Any]]:
    from jax_core._src.core.trace import get_aval
    from jax_core._src.lax.shape.assembly import broadcasted_iota

    shape = get_aval(primals[0]).shape
    idx_dt = np.int32 if shape[dimension] < np.iinfo(np.int32).max else np.int64
    iota = broadcasted_iota(idx_dt, shape, dimension)
    out = sort_p.bind(*primals, iota, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    perm = out[-1]
    sorted_primals = list(out[:-1])
    tangents_out = [Zero.from_primal_value(p) if is_zero(t) else gather_along(t, perm, dimension) for p, t in zip(sorted_primals, tangents)]
    return sorted_primals, tangents_out


def _batch(args: Sequence[Any], dims: Sequence[int | None], *, dimension: int, is_stable: bool, num_keys: int) -> tuple[list[Any], list[int]]:
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
    out = sort_p.bind(*moved, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return list(out), [0] * len(out)


sort_p: Primitive = Primitive("sort", multiple_results=True)
sort_p.def_rules(Rules(abstract_eval=_abstract_eval, lower=_lower, jvp=_jvp, batch=_batch))


# -- top_k: a primitive of its own, lowered to ``chlo.top_k`` as JAX does -------------------------
def top_k(operand: ArrayLike, k: int, *, axis: int = -1, is_stable: bool = True) -> list[Array]:
    """The ``k`` largest entries of ``operand`` along ``axis`` and their int32 indices, as the list
    ``[values, indices]`` (JAX returns its primitive's list of results); ties keep the lower
    index first when ``is_stable``."""
    k = operator.index(k)
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    ndim = get_aval(operand).ndim
    ax = operator.index(axis)
    if not -ndim <= ax < ndim:
        raise ValueError(f"axis {ax} is out of bounds for array of dimension {ndim}")
    out: list[Array] = top_k_p.bind(operand, k=k, axis=ax % ndim, is_stable=bool(is_stable))
    return out


top_k_p: Primitive = Primitive("top_k", multiple_results=True)


def _top_k_abstract_eval(operand: ShapedArray, *, k: int, axis: int, is_stable: bool) -> list[ShapedArray]:
    if dtypes.issubdtype(operand.dtype, np.complexfloating):
        raise ValueError("top_k is not compatible with complex inputs.")
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    if operand.ndim == 0:
        raise TypeError(f"top_k operand must have >= 1 dimension, got {operand.shape}")
    if not 0 <= axis < operand.ndim:
        raise ValueError(f"axis argument out of range: axis={axis} for operand.shape={operand.shape}")
    shape = list(operand.shape)
    if shape[axis] < k:
        raise ValueError(
            "k argument to top_k must be no larger than size along axis; "
            f"got k={k} with shape={shape} and axis={axis}"
        )
    int32_max = int(np.iinfo(np.int32).max)
    if shape[axis] > int32_max + 1:
        raise ValueError(
            f"top_k returns int32 indices, which will overflow for array dimensions larger than the "
            f"maximum int32 ({int32_max}). Got operand.shape={operand.shape}"
        )
    shape[axis] = k
    return [ShapedArray(tuple(shape), operand.dtype, operand.weak_type), ShapedArray(tuple(shape), np.dtype(np.int32))]


def _top_k_lower(
    ctx: LoweringRuleContext, operand: ir.Value[Any], *, k: int, axis: int, is_stable: bool
) -> list[ir.Value[Any]]:
    ndim = ctx.avals_in[0].ndim
    perm: list[int] | None = None
    if axis != ndim - 1:  # swap the axis with the last one, as JAX's lowering does
        perm = list(range(ndim))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        operand = hlo.transpose(operand, perm)
    op = chlo.TopKOp(operand, ir.IntegerAttr.get(ir.IntegerType.get_signless(64), k), is_stable=ir.BoolAttr.get(is_stable))
    results: list[ir.Value[Any]] = list(op.results)
    if perm is not None:
        results = [hlo.transpose(r, perm) for r in results]
    return results


def _top_k_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, k: int, axis: int, is_stable: bool
) -> tuple[list[Any], list[Any]]:
    (operand,), (tangent,) = primals, tangents
    vals, idx = top_k_p.bind(operand, k=k, axis=axis, is_stable=is_stable)
    t_vals = Zero.from_primal_value(vals) if is_zero(tangent) else gather_along(tangent, idx, axis)
    return [vals, idx], [t_vals, Zero.from_primal_value(idx)]


def _top_k_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, k: int, axis: int, is_stable: bool
) -> tuple[list[Any], list[int]]:
    (operand,), (d,) = args, dims
    assert d is not None
    out = top_k_p.bind(operand, k=k, axis=axis + 1 if d <= axis else axis, is_stable=is_stable)
    return list(out), [d, d]


top_k_p.def_rules(
    Rules(abstract_eval=_top_k_abstract_eval, lower=_top_k_lower, jvp=_top_k_jvp, batch=_top_k_batch)
)
