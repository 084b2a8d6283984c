"""``sort``: sorts one or more operands along a dimension by their first ``num_keys`` operands.

Floating keys sort in total order after canonicalisation, as in JAX: ``-0.0`` equals
``0.0`` and every NaN sorts last; complex keys sort by real then imaginary part. The jvp
sorts an iota alongside and gathers the tangents with the resulting permutation; batching
sorts along the shifted dimension. ``top_k`` is built on it.
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
    moveaxis,
)
from jax_core._src.lib.mlir import hlo, ir
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


def _gather_along(t: Any, perm: Any, dimension: int) -> Any:
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
    tangents_out = [Zero.from_primal_value(p) if is_zero(t) else _gather_along(t, perm, dimension) for p, t in zip(sorted_primals, tangents)]
    return sorted_primals, tangents_out


def _batch(args: Sequence[Any], dims: Sequence[int | None], *, dimension: int, is_stable: bool, num_keys: int) -> tuple[list[Any], list[int]]:
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
    out = sort_p.bind(*moved, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return list(out), [0] * len(out)


sort_p = Primitive("sort", multiple_results=True)
sort_p.def_rules(Rules(abstract_eval=_abstract_eval, lower=_lower, jvp=_jvp, batch=_batch))


def _top_k_last_axis(operand: ArrayLike, k: int) -> tuple[Array, Array]:
    """The ``k`` largest entries along the last axis and their indices (ties: lower index first)."""
    from jax_core._src.core.trace import get_aval
    from jax_core._src.lax import elementwise as lax
    from jax_core._src.lax.indexing.slicing import slice as lax_slice
    from jax_core._src.lax.shape.assembly import broadcasted_iota, rev

    aval = get_aval(operand)
    if aval.ndim == 0:
        raise TypeError("top_k operand must have >= 1 dimension, got ()")
    k = int(k)
    n = aval.shape[-1]
    if k < 0 or k > n:
        raise ValueError(f"k argument to top_k must be nonnegative and at most the size of the last dimension ({n}), got {k}")
    dim = aval.ndim - 1
    # Sort ascending by (negated order key, index): reverse the operand so that a stable
    # ascending sort, reversed back, keeps the lower index first among equal values.
    iota = broadcasted_iota(np.int32, aval.shape, dim)
    vals, idx = sort((rev(operand, (dim,)), rev(iota, (dim,))), dim, True, 1)
    vals, idx = rev(vals, (dim,)), rev(idx, (dim,))
    start = (0,) * aval.ndim
    stop = (*aval.shape[:-1], k)
    del lax
    return lax_slice(vals, start, stop), lax_slice(idx, start, stop)


# -- top_k with JAX's keywords --------------------------------------------------------------------
def top_k(operand: ArrayLike, k: int, *, axis: int = -1, is_stable: bool = True) -> list[Array]:
    """The ``k`` largest entries of ``operand`` along ``axis`` and their indices, as the list
    ``[values, indices]`` (JAX returns its primitive's list of results).

    Ties keep the lower index first (the selection is always stable, so ``is_stable=False``
    gives one of the orders JAX may give).
    """

    aval = get_aval(operand)
    ndim = aval.ndim
    ax = operator.index(axis)
    if not -ndim <= ax < ndim:
        raise ValueError(f"axis {ax} is out of bounds for array of dimension {ndim}")
    k = operator.index(k)
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    if k > aval.shape[ax]:
        raise ValueError(
            f"k argument to top_k must be no larger than size along axis; got k={k} with "
            f"shape={list(aval.shape)} and axis={ax % ndim}"
        )
    ax %= ndim
    if ax == ndim - 1:
        return list(_top_k_last_axis(operand, k))
    vals, idx = _top_k_last_axis(moveaxis(operand, ax, ndim - 1), k)
    return [moveaxis(vals, ndim - 1, ax), moveaxis(idx, ndim - 1, ax)]
