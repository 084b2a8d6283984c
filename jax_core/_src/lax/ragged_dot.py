"""Ragged matrix products: ``ragged_dot`` and ``ragged_dot_general`` (grouped matmuls whose groups
are contiguous runs of one ``lhs`` dimension, sized by ``group_sizes``).

As JAX does on CPU, each is computed densely: the ragged operand is expanded to ``[g, ...]`` with
the rows outside group ``i`` zeroed in slice ``i``, and one ``dot_general`` contracts the group
axis as the mode requires. Built from lax operations, so ``jit``, ``grad`` and ``vmap`` apply.

Modes (by the kind of the lhs ragged dimension): non-contracting ``[b.., m, k], [g, b.., k, n]
-> [b.., m, n]``; contracting ``[b.., m, k], [b.., k, n] -> [g, b.., m, n]``; batch
``[b.., m, k], [b.., k, n] -> [b.., m, n]``.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence

import numpy as np

from jax_core._src.core.trace import get_aval
from jax_core._src.lax.elementwise import bitwise_and, le, lt, select, sub
from jax_core._src.lax.linalg.dot import DotDimensionNumbers, PrecisionLike, dot_general
from jax_core._src.lax.reductions.cumulative import cumsum
from jax_core._src.lax.shape.assembly import broadcasted_iota
from jax_core._src.lax.shape.compositions import full_like
from jax_core._src.lax.shape.dimensions import broadcast, broadcast_in_dim, transpose
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


@dataclasses.dataclass(frozen=True, init=False)
class RaggedDotDimensionNumbers:
    """The dimensions of a ragged dot: ``dot_dimension_numbers`` as ``dot_general`` takes them
    (``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``), the one lhs ragged
    dimension, and the rhs group dimension (one when the ragged dimension is non-contracting,
    none otherwise)."""

    dot_dimension_numbers: DotDimensionNumbers
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]

    def __init__(
        self,
        dot_dimension_numbers: DotDimensionNumbers,
        lhs_ragged_dimensions: Sequence[int],
        rhs_group_dimensions: Sequence[int],
    ) -> None:
        (lc, rc), (lb, rb) = dot_dimension_numbers
        dnums: DotDimensionNumbers = ((tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)))
        object.__setattr__(self, "dot_dimension_numbers", dnums)
        object.__setattr__(self, "lhs_ragged_dimensions", tuple(lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", tuple(rhs_group_dimensions))


_BASIC = RaggedDotDimensionNumbers(
    dot_dimension_numbers=(([1], [1]), ([], [])), lhs_ragged_dimensions=[0], rhs_group_dimensions=[0]
)


class _Mode(enum.Enum):
    NONCONTRACTING = 1
    CONTRACTING = 2
    BATCH = 3


def _remaining(rank: int, *excluded: Sequence[int]) -> list[int]:
    out = set(d for e in excluded for d in e)
    return [d for d in range(rank) if d not in out]


def _mode(lhs_rank: int, dn: RaggedDotDimensionNumbers) -> tuple[_Mode, int]:
    ragged = dn.lhs_ragged_dimensions[0]
    (lc, _), (lb, _) = dn.dot_dimension_numbers
    if ragged in _remaining(lhs_rank, lc, lb):
        return _Mode.NONCONTRACTING, ragged
    if ragged in lc:
        return _Mode.CONTRACTING, ragged
    if ragged in lb:
        return _Mode.BATCH, ragged
    raise TypeError(
        f"lhs_ragged_dim {ragged} not found in lhs_noncontracting "
        f"{_remaining(lhs_rank, lc, lb)}, lhs_contracting {list(lc)}, or lhs_batch {list(lb)}."
    )


def _prefix_dims(mode: _Mode, rank: int, ragged: int, batch: Sequence[int], contract: Sequence[int]) -> list[int]:
    batch, contract = list(batch), list(contract)
    if mode is _Mode.NONCONTRACTING:
        free = _remaining(rank, contract, batch)
        return batch + free[: free.index(ragged)]
    if mode is _Mode.CONTRACTING:
        return batch + contract[: contract.index(ragged)]
    return batch[: batch.index(ragged)]


def _check(lhs_shape: tuple[int, ...], rhs_shape: tuple[int, ...], gs_shape: tuple[int, ...], dn: RaggedDotDimensionNumbers) -> tuple[_Mode, int]:
    if len(dn.lhs_ragged_dimensions) != 1:
        raise TypeError("ragged_dot_general expects exactly one lhs ragged dimension.")
    ragged = dn.lhs_ragged_dimensions[0]
    if ragged < 0 or ragged >= len(lhs_shape):
        raise TypeError(
            "ragged_dot_general requires lhs ragged dimension numbers to be nonnegative and less "
            f"than the number of axes of the lhs value, got {ragged} for lhs of rank {len(lhs_shape)}."
        )
    mode, ragged = _mode(len(lhs_shape), dn)
    (lc, _), (lb, _) = dn.dot_dimension_numbers
    if len(gs_shape) == 0:
        raise TypeError("expected rank of group_sizes to be >=1.")
    if len(gs_shape) != 1:
        prefix = _prefix_dims(mode, len(lhs_shape), ragged, lb, lc)
        expected = (*(lhs_shape[i] for i in prefix), gs_shape[-1])
        if tuple(gs_shape) != expected:
            raise TypeError(f"expected group_sizes to have shape {expected}, got {tuple(gs_shape)}.")
    groups = dn.rhs_group_dimensions
    if mode is _Mode.NONCONTRACTING:
        if len(groups) != 1:
            raise TypeError(
                "ragged_dot_general requires exactly one rhs group dimension when lhs ragged "
                "dimension is noncontracting."
            )
        g = groups[0]
        if g < 0 or g >= len(rhs_shape):
            raise TypeError(
                "ragged_dot_general requires rhs group dimension numbers to be nonnegative and "
                f"less than the number of axes of the rhs value, got {g} for rhs of rank "
                f"{len(rhs_shape)}."
            )
        if rhs_shape[g] != gs_shape[-1]:
            raise TypeError(
                "expected rhs group dimension size to be "
                f"{gs_shape[-1]}, got {rhs_shape[g]}."
            )
    elif groups:
        raise TypeError(
            "ragged_dot_general requires zero group dimensions in the rhs when lhs ragged "
            "dimension is contracting or batch."
        )
    return mode, ragged


def _ragged_to_dense(x: Array, gs: Array, dim: int, axes: Sequence[int]) -> Array:
    """``x`` as ``[g, *x.shape]``: slice ``i`` keeps the entries of group ``i`` along ``dim``
    (``gs``: ``[*x.shape[axes], g]``, one set of group sizes per position of ``axes``)."""
    xa, ga = get_aval(x), get_aval(gs)
    g = ga.shape[-1]
    shape = (g, *xa.shape)
    xb = broadcast_in_dim(x, shape, tuple(range(1, len(shape))))
    iota = broadcasted_iota(ga.dtype, shape, dim + 1)
    ends = cumsum(gs, axis=ga.ndim - 1)
    starts = sub(ends, gs)
    targets = [a + 1 for a in axes] + [0]
    perm = [int(i) for i in np.argsort(targets)]
    if perm != list(range(len(perm))):
        ends, starts = transpose(ends, perm), transpose(starts, perm)
    bdims = tuple(sorted(targets))
    ends_b = broadcast_in_dim(ends, shape, bdims)
    starts_b = broadcast_in_dim(starts, shape, bdims)
    mask = bitwise_and(le(starts_b, iota), lt(iota, ends_b))
    return select(mask, xb, full_like(xb, 0))


def ragged_dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    group_sizes: ArrayLike,
    ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
    group_offset: ArrayLike | None = None,
    out_sharding: None = None,
) -> Array:
    """A ragged matrix product with general dimensions (see the module docstring for the modes).

    ``group_sizes`` (integer) has shape ``[g]`` or ``[b.., x.., g]`` (``x``: the lhs dimensions
    of the ragged dimension's kind that precede it); its last axis gives the size of each group.
    ``group_offset`` is not supported (as on JAX's CPU backend).
    """
    if group_offset is not None:
        raise NotImplementedError("Unimplemented group_offset support.")
    if out_sharding is not None:
        raise NotImplementedError("ragged_dot_general: out_sharding is not supported by jax_core")
    dn = ragged_dot_dimension_numbers
    la, ra, ga = get_aval(lhs), get_aval(rhs), get_aval(group_sizes)
    mode, ragged = _check(la.shape, ra.shape, ga.shape, dn)
    (lc, rc), (lb, rb) = dn.dot_dimension_numbers
    l_prefix = _prefix_dims(mode, la.ndim, ragged, lb, lc)
    gs: Array = group_sizes if isinstance(group_sizes, Array) else broadcast(group_sizes, ())
    if ga.ndim == 1 and l_prefix:
        gs = broadcast(gs, [la.shape[i] for i in l_prefix])
    x: Array = lhs if isinstance(lhs, Array) else broadcast(lhs, ())
    y: Array = rhs if isinstance(rhs, Array) else broadcast(rhs, ())

    def incr(ds: Sequence[int]) -> list[int]:
        return [d + 1 for d in ds]

    if mode is _Mode.NONCONTRACTING:
        return dot_general(
            _ragged_to_dense(x, gs, ragged, l_prefix),
            y,
            ((incr(lc) + [0], [*rc, dn.rhs_group_dimensions[0]]), (incr(lb), list(rb))),
            precision=precision,
            preferred_element_type=preferred_element_type,
        )
    if mode is _Mode.CONTRACTING:
        r_ragged = rc[list(lc).index(ragged)]
        r_prefix = _prefix_dims(mode, ra.ndim, r_ragged, rb, rc)
        return dot_general(
            _ragged_to_dense(x, gs, ragged, l_prefix),
            _ragged_to_dense(y, gs, r_ragged, r_prefix),
            ((incr(lc), incr(rc)), ([0, *incr(lb)], [0, *incr(rb)])),
            precision=precision,
            preferred_element_type=preferred_element_type,
        )
    return dot_general(
        x, y, dn.dot_dimension_numbers, precision=precision, preferred_element_type=preferred_element_type
    )


def ragged_dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    group_sizes: ArrayLike,
    precision: PrecisionLike = None,
    preferred_element_type: DTypeLike | None = None,
    group_offset: ArrayLike | None = None,
    out_sharding: None = None,
) -> Array:
    """Ragged matrix multiplication: ``lhs`` ``[m, k]``, ``rhs`` ``[g, k, n]``, ``group_sizes``
    ``[g]``; rows ``sum(group_sizes[:i]) ..`` (``group_sizes[i]`` of them) of ``lhs`` are
    multiplied by ``rhs[i]``. Rows past ``sum(group_sizes)`` give zeros. Result ``[m, n]``."""
    return ragged_dot_general(
        lhs,
        rhs,
        group_sizes,
        _BASIC,
        precision=precision,
        preferred_element_type=preferred_element_type,
        group_offset=group_offset,
        out_sharding=out_sharding,
    )
