"""Autodiff and batching rules of the reductions in ``reductions.py`` (registered there).

The rules follow JAX's ``lax.py`` and ``control_flow/loops.py``: ``reduce_sum`` and
``cumsum`` are linear, ``reduce_max``/``reduce_min`` average the tangent over the locations
of the extremum, ``reduce_prod`` differentiates a pairwise tree of products (correct with
zeros), and the non-additive cumulative reductions differentiate a parallel prefix scan.
Reductions batch by shifting their ``axes`` (or ``axis``) past the batch dimension.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    UndefinedPrimal,
    Zero,
    is_differentiable,
    is_zero,
)
from jax_core._src.interpreters.batching_util import BatchRule
from jax_core._src.lax.elementwise import wrappers as lax
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims

Pair = tuple[Any, Any]
"""A (primal, tangent) pair of arrays."""


def _zero_out(ans: Any, t: Any) -> bool:
    """Whether the output tangent is zero: a symbolic zero in, or a non-differentiable out."""
    return is_zero(t) or not is_differentiable(get_aval(ans)) or not is_differentiable(get_aval(t))


# -- batching -----------------------------------------------------------------------------


def reducer_batcher(prim: Primitive) -> BatchRule:
    """Batching of a reduction over ``axes``: the axes shift past the batch dimension."""

    def rule(
        args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[int, ...], **params: Any
    ) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        assert d is not None
        new_axes = tuple(a + (a >= d) for a in axes)
        out_dim = d - sum(a < d for a in new_axes)
        return prim.bind(x, axes=new_axes, **params), out_dim

    return rule


def cumred_batcher(prim: Primitive) -> BatchRule:
    """Batching of a cumulative reduction along ``axis``; the batch dimension stays put."""

    def rule(
        args: Sequence[Any], dims: Sequence[int | None], *, axis: int, reverse: bool
    ) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        assert d is not None
        return prim.bind(x, axis=axis + (axis >= d), reverse=reverse), d

    return rule


# -- reduce_sum / cumsum: linear --------------------------------------------------------------


def reduce_sum_transpose(
    ct: Any, x: UndefinedPrimal, *, axes: tuple[int, ...], out_sharding: None
) -> list[Any]:
    """The cotangent of a sum: ``ct`` broadcast back over the reduced axes."""
    shape = x.aval.shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    return [shape_dims.broadcast_in_dim(ct, shape, kept)]


def cumsum_transpose(ct: Any, x: UndefinedPrimal, *, axis: int, reverse: bool) -> list[Any]:
    """The cotangent of a cumulative sum: the cumulative sum of ``ct`` the other way."""
    from jax_core._src.lax.reductions.reductions import cumsum

    return [cumsum(ct, axis, reverse=not reverse)]


# -- reduce_max / reduce_min ----------------------------------------------------------------


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
        from jax_core._src.lax.reductions.reductions import reduce_sum

        (x,), (t,) = primals, tangents
        ans = prim.bind(x, axes=axes, out_sharding=out_sharding)
        if _zero_out(ans, t):
            return ans, Zero.from_primal_value(ans)
        aval = get_aval(x)
        kept = tuple(i for i in range(aval.ndim) if i not in axes)
        at = lax.eq(x, shape_dims.broadcast_in_dim(ans, aval.shape, kept))
        where = lax.convert_element_type(at, get_aval(t).dtype)
        counts = reduce_sum(where, axes)
        return ans, lax.div(reduce_sum(lax.mul(t, where), axes), counts)

    return rule


# -- reduce_prod ------------------------------------------------------------------------------


def reduce_prod_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, axes: tuple[int, ...]
) -> tuple[Any, Any]:
    """The jvp of a product as JAX computes it: the reduced axes flattened to the front and
    multiplied pairwise in a tree, carrying tangents by the product rule (no division, so
    zeros in the operand are handled)."""
    from jax_core._src.lax.indexing.slicing import slice as lax_slice
    from jax_core._src.lax.reductions.reductions import reduce_prod

    (x,), (t,) = primals, tangents
    ans = reduce_prod(x, axes)
    if _zero_out(ans, t):
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


# -- cumprod / cummax / cummin ----------------------------------------------------------------

Combine = Callable[[Pair, Pair], Pair]
"""Combines an earlier and a later (primal, tangent) pair of a scan."""


def _mul_pairs(a: Pair, b: Pair) -> Pair:
    (x, tx), (y, ty) = a, b
    return lax.mul(x, y), lax.add(lax.mul(tx, y), lax.mul(x, ty))


def _pick_pairs(better: Callable[[Any, Any], Any]) -> Combine:
    # The later element wins ties, so the tangent is read at the last running extremum.
    def combine(a: Pair, b: Pair) -> Pair:
        (x, tx), (y, ty) = a, b
        later = better(y, x)
        return lax.select(later, y, x), lax.select(later, ty, tx)

    return combine


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
        if _zero_out(ans, t):
            return ans, Zero.from_primal_value(ans)
        ident = identity(get_aval(x).dtype)
        return ans, _prefix_scan(combine, x, t, ident, axis, reverse)

    return rule


def cumprod_jvp(prim: Primitive) -> JvpRule:
    """The jvp of ``cumprod`` (product rule carried through the scan)."""
    return cumred_jvp(prim, _mul_pairs, lambda dt: np.array(1, dt))


def cummax_jvp(
    prim: Primitive, identity: Callable[[np.dtype[Any]], np.ndarray[Any, Any]]
) -> JvpRule:
    """The jvp of ``cummax``: the tangent at the running maximum."""
    return cumred_jvp(prim, _pick_pairs(lambda a, b: lax.ge(a, b)), identity)


def cummin_jvp(
    prim: Primitive, identity: Callable[[np.dtype[Any]], np.ndarray[Any, Any]]
) -> JvpRule:
    """The jvp of ``cummin``: the tangent at the running minimum."""
    return cumred_jvp(prim, _pick_pairs(lambda a, b: lax.le(a, b)), identity)
