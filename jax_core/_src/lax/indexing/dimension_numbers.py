"""XLA's dimension numbers for gather and scatter (``GatherDimensionNumbers``,
``ScatterDimensionNumbers``), ``GatherScatterMode``, and the checks and helpers both primitives share.

The index vector is always the last dimension of the indices, as in JAX."""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple, SupportsIndex

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.interpreters import ad_util
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import hlo as hlo_util


def int_tuple(xs: Sequence[SupportsIndex]) -> tuple[int, ...]:
    return tuple(operator.index(x) for x in xs)


class GatherDimensionNumbers(NamedTuple):
    """The dimension numbers of XLA's Gather (the index vector is the last indices dimension).

    ``offset_dims``: output dimensions that index into the gathered slices (sorted);
    ``collapsed_slice_dims``: operand dimensions of slice size 1 that are dropped (sorted);
    ``start_index_map``: for each index-vector entry, the operand dimension it starts;
    ``operand_batching_dims`` / ``start_indices_batching_dims``: paired batch dimensions.
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class GatherScatterMode(enum.Enum):
    """How gather and scatter treat out-of-bounds indices.

    ``CLIP``: indices are clamped so the whole window is in range.
    ``FILL_OR_DROP``: an out-of-bounds gathered window is filled with ``fill_value``;
    an out-of-bounds scattered window is dropped.
    ``PROMISE_IN_BOUNDS``: the caller promises indices are in bounds (XLA clamps
    gathers and drops scatters).
    """

    CLIP = enum.auto()
    FILL_OR_DROP = enum.auto()
    PROMISE_IN_BOUNDS = enum.auto()

    @staticmethod
    def from_any(s: str | GatherScatterMode | None) -> GatherScatterMode:
        """Parses ``"clip"``, ``"fill"``/``"drop"``/``None`` or ``"promise_in_bounds"``."""
        if isinstance(s, GatherScatterMode):
            return s
        if s not in _MODE_NAMES:
            raise ValueError(f'Unknown gather mode "{s}"')
        return GatherScatterMode[_MODE_NAMES[s]]


def check_dims(op: str, name: str, dims: Sequence[int], rank: int, checks: str) -> None:
    """XLA's dimension-number checks, in the order given: ``s`` sorted, ``u`` unique,
    ``r`` in ``[0, rank)`` for a sorted list (reports an end), ``R`` in range (any list)."""
    for check in checks:
        if check == "s" and any(dims[i] < dims[i - 1] for i in range(1, len(dims))):
            raise TypeError(f"{name} in {op} op must be sorted; got {dims}")
        if check == "u" and len(set(dims)) != len(dims):
            raise TypeError(f"{name} in {op} op must not repeat; got: {dims}.")
        if check == "r":
            bad = [d for d in dims[:1] if d < 0] or [d for d in dims[-1:] if d >= rank]
        elif check == "R":
            bad = [d for d in dims if not 0 <= d < rank]
        else:
            continue
        if bad:
            raise TypeError(
                f"Invalid {name} set in {op} op; valid range is [0, {rank}); got: {bad[0]}."
            )


def check_disjoint(
    op: str, name1: str, dims1: Sequence[int], name2: str, dims2: Sequence[int]
) -> None:
    if not set(dims1).isdisjoint(dims2):
        raise TypeError(
            f"{name1} and {name2} in {op} op must be disjoint; got: {dims1} and {dims2}."
        )


def check_batching(
    op: str,
    operand: ShapedArray,
    indices: ShapedArray,
    batching: tuple[tuple[int, ...], tuple[int, ...]],
) -> tuple[int, ...]:
    """Checks paired operand/indices batching dimensions; returns the operand's batch shape."""
    operand_dims, indices_dims = batching
    indices_name = "start_indices" if op == "gather" else "scatter_indices"
    op_title = op.capitalize()
    check_dims(op, f"{indices_name}_batching_dims", indices_dims, indices.ndim, "uR")
    if indices.ndim - 1 in indices_dims:
        raise TypeError(
            f"{op_title} op cannot have the index vector dimension as a batching dimension; got "
            f"{indices_dims}."
        )
    if len(operand_dims) != len(indices_dims):
        sep = "" if op == "gather" else " "  # sic: JAX's gather message lacks the space
        raise TypeError(
            f"{op_title} op requires equal numbers of operand_batching_dims and "
            f"{indices_name}_batching_dims, got {operand_dims} and{sep}{indices_dims}."
        )
    operand_shape = tuple(operand.shape[i] for i in operand_dims)
    indices_shape = tuple(indices.shape[i] for i in indices_dims)
    if operand_shape != indices_shape:
        raise TypeError(
            f"{op_title} op requires operand batching dimensions and indices batching dimensions "
            f"to have the same shape, got {operand_shape} and {indices_shape}."
        )
    return operand_shape


def check_index_map(
    op: str, name: str, index_map: Sequence[int], operand: ShapedArray, indices: ShapedArray
) -> None:
    """Checks that ``index_map`` has one in-range, distinct operand dimension per index entry."""
    vdim = indices.ndim - 1
    if len(index_map) != indices.shape[vdim]:
        end = "." if op == "gather" else ""
        raise TypeError(
            f"{op.capitalize()} op has {len(index_map)} elements in {name} and the bound of "
            f"dimension index_vector_dim={vdim} of indices is {indices.shape[vdim]}. These two "
            f"numbers must be equal{end}"
        )
    for i, d in enumerate(index_map):
        if not 0 <= d < operand.ndim:
            what = "start_index_map" if op == "gather" else "scatter_dims_to_operand_dims mapping"
            raise TypeError(f"Invalid {what}; domain is [0, {operand.ndim}), got: {i}->{d}.")
    check_dims(op, name, index_map, operand.ndim, "u")


def splat(value: Any, aval: ShapedArray) -> ir.Value[Any]:
    return hlo_util.broadcast_in_dim(hlo_util.constant(np.array(value, aval.dtype)), aval, ())


def index_upper_bounds(
    idx_aval: ShapedArray, operand_shape: tuple[int, ...], sizes: Sequence[int], dims: Sequence[int]
) -> ir.Value[Any]:
    """The largest in-bounds start index per index-vector entry, broadcast to the indices' shape."""
    top = int(dtypes.iinfo(idx_aval.dtype).max)
    bounds = np.array([min(operand_shape[d] - sizes[d], top) for d in dims], idx_aval.dtype)
    return hlo_util.broadcast_in_dim(hlo_util.constant(bounds), idx_aval, (idx_aval.ndim - 1,))


def zeros_array(shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    return ad_util.zeros_like_aval(ShapedArray(shape, dtype))


def shift_dims(dims: Sequence[int]) -> tuple[int, ...]:
    return tuple(d + 1 for d in dims)


class ScatterDimensionNumbers(NamedTuple):
    """The dimension numbers of XLA's Scatter (the index vector is the last indices dimension).

    ``update_window_dims``: dimensions of ``updates`` that are window dimensions (sorted);
    ``inserted_window_dims``: size-1 operand window dimensions absent from ``updates``;
    ``scatter_dims_to_operand_dims``: for each index-vector entry, its operand dimension;
    ``operand_batching_dims`` / ``scatter_indices_batching_dims``: paired batch dimensions.

    Each field is any sequence of ints (``range(2)``, ``[0, 1]``), as JAX annotates it; the
    scatter functions store them as tuples.
    """

    update_window_dims: Sequence[int]
    inserted_window_dims: Sequence[int]
    scatter_dims_to_operand_dims: Sequence[int]
    operand_batching_dims: Sequence[int] = ()
    scatter_indices_batching_dims: Sequence[int] = ()


_MODE_NAMES: dict[str | None, str] = {
    "clip": "CLIP",
    "fill": "FILL_OR_DROP",
    "drop": "FILL_OR_DROP",
    None: "FILL_OR_DROP",
    "promise_in_bounds": "PROMISE_IN_BOUNDS",
}
