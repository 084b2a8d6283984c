"""What a primitive's batching rule is written with: moving and materialising batch axes,
and factories for elementwise rules.

The contract every primitive follows (checked by ``tests/transforms/test_rule_registry.py``):

``batch(args, dims, **params) -> (out, out_dim)``
    ``dims[i]`` is the batch axis of ``args[i]`` or ``None`` (``not_mapped``) when that
    operand is the same for every batch element; at least one is an int. The rule runs
    with the enclosing trace current and returns the batched result with its batch axis
    (``None`` when the result does not vary). Multiple-result primitives return lists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import array_ops

BatchRule: TypeAlias = Callable[..., tuple[Any, Any]]
"""``(args, dims, **params) -> (out, out_dim)``."""

not_mapped = None
"""The batch dimension of an operand that is the same for every batch element."""


def axis_size(args: Sequence[Any], dims: Sequence[int | None]) -> int:
    """The size of the batch axis, read from the first batched operand."""
    for x, d in zip(args, dims):
        if d is not None:
            return get_aval(x).shape[d]
    raise ValueError("axis_size needs at least one batched operand")


def moveaxis(x: Any, src: int, dst: int) -> Any:
    """``x`` with axis ``src`` moved to position ``dst`` (a no-op when they agree)."""
    ndim = get_aval(x).ndim
    src, dst = src % ndim, dst % ndim
    if src == dst:
        return x
    transpose = array_ops.op("transpose")

    perm = [i for i in range(ndim) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


def broadcast_batch(x: Any, size: int, dim: int = 0) -> Any:
    """An unbatched ``x`` with a new batch axis of ``size`` at ``dim`` (every element equal)."""
    broadcast_in_dim = array_ops.op("broadcast_in_dim")

    aval = get_aval(x)
    shape = list(aval.shape)
    shape.insert(dim, size)
    kept = tuple(i for i in range(len(shape)) if i != dim)
    return broadcast_in_dim(x, tuple(shape), kept)


def bdim_at_front(x: Any, dim: int | None, size: int) -> Any:
    """``x`` with its batch axis first, materialised (broadcast) if ``x`` is unbatched."""
    if dim is None:
        return broadcast_batch(x, size, 0)
    return moveaxis(x, dim, 0)


def matchaxis(x: Any, src: int | None, dst: int | None, size: int) -> Any:
    """``x`` with batch axis ``src`` moved to ``dst`` (broadcast if unbatched; ``dst=None``
    requires ``src=None``)."""
    if dst is None:
        if src is not None:
            raise ValueError("cannot unbatch a batched value")
        return x
    if src is None:
        return broadcast_batch(x, size, dst)
    return moveaxis(x, src, dst)


def vectorized_batcher(prim: Primitive) -> BatchRule:
    """Batching of a unary elementwise primitive: apply it as is; the batch axis stays put."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        return prim.bind(x, **params), d

    return rule


def broadcast_batcher(prim: Primitive) -> BatchRule:
    """Batching of an n-ary elementwise primitive that broadcasts its operands NumPy-style.

    When every batched operand has the batch axis at the same position and the same rank,
    the primitive applies as is. Otherwise batched operands get their batch axis first and
    enough unit axes after it to reach a common rank, and unbatched operands (but rank-0 ones)
    leading unit axes, so lax's size-1 broadcasting lines them up.
    """

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        avals = [get_aval(a) for a in args]
        d0 = next(d for d in dims if d is not None)
        nd = next(a.ndim for a, d in zip(avals, dims) if d is not None)
        if all((d == d0 and a.ndim == nd) if d is not None else a.ndim == 0 for a, d in zip(avals, dims)):
            return _bind(prim, args, params), d0
        rank = max(a.ndim - (d is not None) for a, d in zip(avals, dims))
        expand_dims = array_ops.op("expand_dims")

        moved: list[Any] = []
        for x, a, d in zip(args, avals, dims):
            if d is None:  # lax needs equal ranks: unit axes for the batch and any missing ones
                moved.append(expand_dims(x, tuple(range(1 + rank - a.ndim))) if a.ndim else x)
                continue
            x = moveaxis(x, d, 0)
            missing = rank - (a.ndim - 1)
            moved.append(expand_dims(x, tuple(range(1, 1 + missing))) if missing else x)
        return _bind(prim, moved, params), 0

    return rule


def _bind(prim: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
    return prim.bind(*args, **params)
