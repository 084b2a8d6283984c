"""Slicing primitives: static slices, dynamic slices and dynamic updates.

Gather and scatter (the general indexed read and write) live in ``gather_scatter``;
they are re-exported here, where JAX defines them (``jax._src.lax.slicing``).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.basearray import Array
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lax import elementwise as _ew
from jax_core._src.lax.gather_scatter import GatherDimensionNumbers as GatherDimensionNumbers
from jax_core._src.lax.gather_scatter import GatherScatterMode as GatherScatterMode
from jax_core._src.lax.gather_scatter import ScatterDimensionNumbers as ScatterDimensionNumbers
from jax_core._src.lax.gather_scatter import gather as gather
from jax_core._src.lax.gather_scatter import scatter as scatter
from jax_core._src.lax.gather_scatter import scatter_add as scatter_add
from jax_core._src.lax.gather_scatter import scatter_max as scatter_max
from jax_core._src.lax.gather_scatter import scatter_min as scatter_min
from jax_core._src.lax.gather_scatter import scatter_mul as scatter_mul
from jax_core._src.lax.shape_ops import shape_of
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, ShapeLike


def _bind(prim: Primitive, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def _int_tuple(xs: Sequence[int]) -> tuple[int, ...]:
    return tuple(operator.index(x) for x in xs)


def _shape_tuple(sizes: ShapeLike) -> tuple[int, ...]:
    return (operator.index(sizes),) if isinstance(sizes, (int, np.integer)) else _int_tuple(sizes)


def _check_nonnegative(fun_name: str, arg_name: str, obj: tuple[int, ...]) -> None:
    if not all(d >= 0 for d in obj):
        raise TypeError(f"{fun_name} {arg_name} must have every element be nonnegative, got {obj}.")


def _check_index_dtypes(name: str, indices: Sequence[ShapedArray], sep: str) -> None:
    if any(
        i.dtype != indices[0].dtype or not dtypes.issubdtype(i.dtype, np.integer) for i in indices
    ):
        raise TypeError(
            f"index arguments to {name} must be integers of the same type, got{sep}"
            f"{', '.join(i.dtype.name for i in indices)}"
        )


# -- slice ------------------------------------------------------------------------------


def slice(
    operand: ArrayLike,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> Array:
    """The static slice ``operand[start:limit:stride]`` in every dimension (XLA's Slice)."""
    return _bind(
        slice_p,
        operand,
        start_indices=_int_tuple(start_indices),
        limit_indices=_int_tuple(limit_indices),
        strides=None if strides is None else _int_tuple(strides),
    )


slice_p = Primitive("slice")


def _slice_abstract_eval(
    operand: ShapedArray,
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> ShapedArray:
    _check_nonnegative("slice", "start_indices", start_indices)
    _check_nonnegative("slice", "limit_indices", limit_indices)
    if operand.ndim != len(start_indices):
        raise TypeError(
            "slice start_indices must have length equal to the number of dimensions of the "
            f"operand, got indices {start_indices} for operand shape {operand.shape}."
        )
    if len(start_indices) != len(limit_indices):
        raise TypeError(
            "slice limit_indices must have the same length as start_indices, got "
            f"start_indices {start_indices} and limit_indices {limit_indices}."
        )
    if not all(d >= lim for d, lim in zip(operand.shape, limit_indices)):
        raise TypeError(
            "slice limit_indices must be less than or equal to operand shape, got "
            f"limit_indices {limit_indices} for operand shape {operand.shape}."
        )
    if not all(lim >= s for lim, s in zip(limit_indices, start_indices)):
        raise TypeError(
            "slice limit_indices must be greater than or equal to start_indices, got "
            f"start_indices {start_indices} and limit_indices {limit_indices}."
        )
    diff = tuple(lim - s for lim, s in zip(limit_indices, start_indices))
    if strides is None or strides == (1,) * operand.ndim:
        return ShapedArray(diff, operand.dtype, operand.weak_type)
    _check_nonnegative("slice", "strides", strides)
    if len(strides) != operand.ndim:
        raise TypeError(
            "slice strides must have length equal to the number of dimensions of the operand, "
            f"got strides {strides} for operand shape {operand.shape}."
        )
    if not all(s > 0 for s in strides):
        raise TypeError(f"slice strides must be positive, got {strides}")
    shape = tuple(0 if d == 0 else (d - 1) // s + 1 for d, s in zip(diff, strides))
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _slice_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> ir.Value[Any]:
    steps = list(strides) if strides is not None else [1] * len(start_indices)
    out: ir.Value[Any] = hlo.slice(x, list(start_indices), list(limit_indices), steps)
    return out


slice_p.def_rules(Rules(abstract_eval=_slice_abstract_eval, lower=_slice_lower))


# -- dynamic_slice ----------------------------------------------------------------------


def _dynamic_slice_indices(
    operand_shape: tuple[int, ...],
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    allow_negative_indices: bool | Sequence[bool],
) -> list[ArrayLike]:
    """Start indices with negative values wrapped around (``i + d`` where ``i < 0``)."""
    if len(start_indices) != len(operand_shape):
        raise ValueError(
            "Length of slice indices must match number of operand dimensions "
            f"({len(start_indices)} vs {operand_shape})"
        )
    if isinstance(start_indices, (Array, np.ndarray)):
        if start_indices.ndim != 1:
            raise ValueError(f"Slice indices must be a 1D sequence, got {start_indices.shape}")
        indices: list[ArrayLike] = [start_indices[k] for k in range(len(operand_shape))]
    else:
        indices = list(start_indices)
    allow = (
        [allow_negative_indices] * len(indices)
        if isinstance(allow_negative_indices, bool)
        else list(allow_negative_indices)
    )
    result: list[ArrayLike] = []
    for i, d, allow_negative in zip(indices, operand_shape, allow):
        dt = dtypes.dtype(i, canonicalize=True)
        if dtypes.issubdtype(dt, np.unsignedinteger):
            result.append(i)
        elif isinstance(i, (int, np.integer)):
            k = int(i)
            if k < 0 and not allow_negative:
                raise ValueError(
                    f"Index {k} is out of bounds for dimension {d} if allow_negative_indices=False"
                )
            result.append(np.asarray(k + d if k < 0 else k, dt)[()])
        elif allow_negative:
            is_neg = _bind(_ew.lt_p, i, np.asarray(0, dt)[()])
            wrapped = _bind(_ew.add_p, i, np.asarray(d, dt)[()])
            result.append(_bind(_ew.select_n_p, is_neg, i, wrapped))
        else:
            result.append(i)
    return result


def dynamic_slice(
    operand: ArrayLike,
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    slice_sizes: ShapeLike,
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """The slice of size ``slice_sizes`` at traced ``start_indices`` (clamped into range)."""
    starts = _dynamic_slice_indices(shape_of(operand), start_indices, allow_negative_indices)
    return _bind(dynamic_slice_p, operand, *starts, slice_sizes=_shape_tuple(slice_sizes))


dynamic_slice_p = Primitive("dynamic_slice")


def _dynamic_slice_abstract_eval(
    operand: ShapedArray, *start_indices: ShapedArray, slice_sizes: tuple[int, ...]
) -> ShapedArray:
    if len(start_indices) != operand.ndim or len(slice_sizes) != operand.ndim:
        raise TypeError(
            "dynamic_slice start_indices and slice_sizes must have length equal to the rank of "
            f"operand, got {len(start_indices)} indices and slice_sizes {slice_sizes} for operand "
            f"shape {operand.shape}."
        )
    if not all(d >= s for d, s in zip(operand.shape, slice_sizes)):
        raise TypeError(
            "slice slice_sizes must be less than or equal to operand shape, got "
            f"slice_sizes {slice_sizes} for operand shape {operand.shape}."
        )
    if not all(s >= 0 for s in slice_sizes):
        raise TypeError(
            "slice slice_sizes must be greater than or equal to zero, got slice_sizes of "
            f"{slice_sizes}."
        )
    if any(i.ndim != 0 for i in start_indices):
        raise TypeError(
            "start_indices arguments to dynamic_slice must be scalars,  got indices "
            f"{start_indices}"
        )
    _check_index_dtypes("dynamic_slice", start_indices, ": ")
    return ShapedArray(slice_sizes, operand.dtype, operand.weak_type)


def _dynamic_slice_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    *start_indices: ir.Value[Any],
    slice_sizes: tuple[int, ...],
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.dynamic_slice(x, list(start_indices), list(slice_sizes))
    return out


dynamic_slice_p.def_rules(
    Rules(abstract_eval=_dynamic_slice_abstract_eval, lower=_dynamic_slice_lower)
)


# -- dynamic_update_slice ---------------------------------------------------------------


def dynamic_update_slice(
    operand: ArrayLike,
    update: ArrayLike,
    start_indices: Array | np.ndarray[Any, Any] | Sequence[ArrayLike],
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """``operand`` with ``update`` written at traced ``start_indices`` (clamped into range)."""
    starts = _dynamic_slice_indices(shape_of(operand), start_indices, allow_negative_indices)
    return _bind(dynamic_update_slice_p, operand, update, *starts)


dynamic_update_slice_p = Primitive("dynamic_update_slice")


def _dynamic_update_slice_abstract_eval(
    operand: ShapedArray, update: ShapedArray, *start_indices: ShapedArray
) -> ShapedArray:
    if operand.ndim != update.ndim:
        raise TypeError(
            "dynamic_update_slice update must have the same rank as operand, got update shape "
            f"{update.shape} for operand shape {operand.shape}."
        )
    if operand.ndim != len(start_indices):
        raise TypeError(
            "dynamic_update_slice start_indices must have length equal to the rank of operand, "
            f"got indices {start_indices} for operand shape {operand.shape}."
        )
    if not all(d >= u for d, u in zip(operand.shape, update.shape)):
        raise TypeError(
            "dynamic_update_slice update shape must be smaller than operand shape, got update "
            f"shape {update.shape} for operand shape {operand.shape}."
        )
    if any(i.ndim != 0 for i in start_indices):
        raise TypeError(
            "start_indices arguments to dynamic_update_slice must be scalars, got indices "
            f"{start_indices}"
        )
    if operand.dtype != update.dtype:
        raise TypeError(
            "lax.dynamic_update_slice requires arguments to have the same dtypes, got "
            f"{operand.dtype.name}, {update.dtype.name}."
        )
    _check_index_dtypes("dynamic_update_slice", start_indices, " ")
    weak = operand.weak_type and update.weak_type and all(i.weak_type for i in start_indices)
    return ShapedArray(operand.shape, operand.dtype, weak)


def _dynamic_update_slice_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], update: ir.Value[Any], *start_indices: ir.Value[Any]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.dynamic_update_slice(x, update, list(start_indices))
    return out


dynamic_update_slice_p.def_rules(
    Rules(abstract_eval=_dynamic_update_slice_abstract_eval, lower=_dynamic_update_slice_lower)
)
