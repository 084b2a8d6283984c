"""JAX's ``jax.interpreters.batching`` registration API over the ``Rules`` record.

``primitive_batchers`` is a view of ``Rules.batch``: ``rule(args, dims, **params) -> (out, out_dim)``,
``dims[i]`` an int or ``not_mapped``. ``defvectorized``, ``defbroadcasting`` and ``defreducer``
install the common rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import get_aval
from jax_core._src.extend.rule_tables import RuleTable
from jax_core._src.interpreters import batching_util
from jax_core._src.interpreters.batching_util import BatchRule, vectorized_batcher

not_mapped = None
"""The batch dimension of an operand that is the same for every batch element."""

primitive_batchers: RuleTable[BatchRule] = RuleTable("batch", "primitive_batchers")
"""``primitive_batchers[p] = rule``: ``rule(args, dims, **params) -> (out, out_dim)`` (``Rules.batch``)."""


def defvectorized(prim: Primitive) -> None:
    """``prim`` is elementwise and unary: applied to a batched operand as is, the batch axis stays."""
    primitive_batchers[prim] = vectorized_batcher(prim)


def defbroadcasting(prim: Primitive) -> None:
    """``prim`` is elementwise over operands of one shape (rank-0 operands broadcast): when the
    batched operands agree on their batch axis and the others are scalars it applies as is;
    otherwise every non-scalar operand gets its batch axis first, unbatched ones broadcast to it."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        ndims = [get_aval(a).ndim for a in args]
        d0 = next(d for d in dims if d is not None)
        nd = next(n for n, d in zip(ndims, dims) if d is not None)
        if all((d == d0 and n == nd) if d is not None else n == 0 for n, d in zip(ndims, dims)):
            out, dim = prim.bind(*args, **params), d0
        else:
            size = batching_util.axis_size(args, dims)
            moved = [batching_util.bdim_at_front(x, d, size) if n or d is not None else x for x, d, n in zip(args, dims, ndims)]
            out, dim = prim.bind(*moved, **params), 0
        return (out, [dim] * len(out)) if prim.multiple_results else (out, dim)

    primitive_batchers[prim] = rule


def defreducer(prim: Primitive) -> None:
    """``prim`` reduces its one operand over the axes in its ``axes`` param: under ``vmap`` the
    axes are renumbered around the batch axis, which the result keeps."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], *, axes: Sequence[int], **params: Any) -> tuple[Any, Any]:
        if len(args) != 1:
            raise ValueError(f"defreducer's rule for '{prim.name}' batches one operand; got {len(args)}")
        (x,), (d,) = args, dims
        assert d is not None
        ndim = get_aval(x).ndim
        d = d % ndim
        # ``axes`` number the unbatched operand's axes; in the batched one, those at or after
        # the batch axis move up by one.
        unbatched = [a % (ndim - 1) for a in axes] if ndim > 1 else []
        moved = tuple(a + 1 if a >= d else a for a in unbatched)
        kept = [i for i in range(ndim) if i not in moved]
        return prim.bind(x, axes=moved, **params), kept.index(d)

    primitive_batchers[prim] = rule


def bdim_at_front(x: Any, bdim: int | None, size: int) -> Any:
    """``x`` with its batch axis first (broadcast to ``size`` when ``bdim`` is ``not_mapped``)."""
    return batching_util.bdim_at_front(x, bdim, size)


def broadcast(x: Any, sz: int, axis: int, mesh_axis: object = None) -> Any:
    """An unbatched ``x`` with a new batch axis of size ``sz`` at ``axis`` (``mesh_axis`` must be
    ``None``: jax_core has no explicit-sharding batch axes)."""
    if mesh_axis is not None:
        raise NotImplementedError("broadcast with a mesh_axis (explicit sharding) is not supported by jax_core")
    return batching_util.broadcast_batch(x, sz, axis)
