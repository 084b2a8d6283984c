"""``lax.associative_scan``: a parallel prefix scan with an associative binary function.

JAX's recursive odd/even algorithm (Blelloch 1990), written with slices, concatenation
and interior padding only, so it has no primitive of its own and every transformation
of those primitives applies.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from jax_core._src.core.trace import get_aval
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten

T = TypeVar("T")


def associative_scan(fn: Callable[[T, T], T], elems: T, reverse: bool = False, axis: int = 0) -> T:
    """Scans ``elems`` along ``axis`` with the associative ``fn``, in O(log n) depth.

    ``fn(a, b)`` must be associative and act elementwise along ``axis`` (its arguments and
    result have the structure of ``elems``). The ``k``-th result along ``axis`` combines the
    first ``k`` elements: ``[a, fn(a, b), fn(fn(a, b), c), ...]``; with ``reverse``, the
    combination runs from the end. Example: ``associative_scan(jnp.add, x)`` is a cumsum.
    """
    if not callable(fn):
        raise TypeError("lax.associative_scan: fn argument should be callable.")
    from jax_core._src.lax.shape.assembly import concatenate, rev
    from jax_core._src.lax.shape.dimensions import canonicalize_axis

    elems_flat, tree = tree_flatten(elems)
    if reverse:
        elems_flat = [rev(e, [canonicalize_axis(axis, get_aval(e).ndim)]) for e in elems_flat]

    def combine(a_flat: Sequence[Any], b_flat: Sequence[Any]) -> list[Any]:
        c = fn(tree_unflatten(tree, a_flat), tree_unflatten(tree, b_flat))
        return tree_flatten(c)[0]

    ax = canonicalize_axis(axis, get_aval(elems_flat[0]).ndim)
    num_elems = get_aval(elems_flat[0]).shape[ax]
    if not all(get_aval(e).shape[ax] == num_elems for e in elems_flat[1:]):
        raise ValueError(
            "Array inputs to associative_scan must have the same first dimension. "
            f"(saw: {[get_aval(e).shape for e in elems_flat]})"
        )

    def slice_in_dim(x: Any, start: int, stop: int | None, stride: int = 1) -> Any:
        from jax_core._src.lax.indexing.slicing import slice as lax_slice

        shape = get_aval(x).shape
        n = shape[ax]
        begin, end, step = slice(start, stop, stride).indices(n)
        starts = [0] * len(shape)
        limits = list(shape)
        strides = [1] * len(shape)
        starts[ax], limits[ax], strides[ax] = begin, max(end, begin), step
        return lax_slice(x, starts, limits, strides)

    def scan_(elems: list[Any]) -> list[Any]:
        n = get_aval(elems[0]).shape[ax]
        if n < 2:
            return elems
        # Combine adjacent pairs, scan those recursively: the odd results.
        reduced = combine([slice_in_dim(e, 0, -1, 2) for e in elems], [slice_in_dim(e, 1, None, 2) for e in elems])
        odd = scan_(reduced)
        # The even results add each odd result to the next original element.
        if n % 2 == 0:
            even = combine([slice_in_dim(e, 0, -1) for e in odd], [slice_in_dim(e, 2, None, 2) for e in elems])
        else:
            even = combine(odd, [slice_in_dim(e, 2, None, 2) for e in elems])
        even = [concatenate([slice_in_dim(e, 0, 1), r], ax) for e, r in zip(elems, even)]
        return [_interleave(a, b, ax) for a, b in zip(even, odd)]

    scans = scan_(elems_flat)
    if reverse:
        scans = [rev(s, [ax]) for s in scans]
    out: T = tree_unflatten(tree, scans)
    return out



def _interleave(a: Any, b: Any, axis: int) -> Any:
    """``a`` and ``b`` (of equal length along ``axis``, or ``a`` one longer) interleaved."""
    from jax_core._src.lax import elementwise as lax_api
    from jax_core._src.lax.shape.assembly import pad

    aa, ba = get_aval(a), get_aval(b)
    same = aa.shape[axis] == ba.shape[axis]
    a_pad = [(0, 0, 0)] * aa.ndim
    b_pad = [(0, 0, 0)] * ba.ndim
    a_pad[axis] = (0, 1 if same else 0, 1)
    b_pad[axis] = (1, 0 if same else 1, 1)
    op = lax_api.bitwise_or if aa.dtype == np.bool_ else lax_api.add
    return op(pad(a, np.zeros((), aa.dtype), a_pad), pad(b, np.zeros((), ba.dtype), b_pad))
