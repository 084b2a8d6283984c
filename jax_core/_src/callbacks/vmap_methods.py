"""How a foreign call (``pure_callback``; ``ffi_call`` later) is batched: its ``vmap_method``.

- ``"sequential"`` / ``"sequential_unrolled"``: one call per batch element, in a ``scan`` (rolled
  or unrolled);
- ``"expand_dims"``: one call; batched operands have the batch axis first, unbatched ones a new
  axis of size 1;
- ``"broadcast_all"``: one call; every operand has the full batch axis first;
- ``"legacy_vectorized"``: one call; batched operands have the batch axis first, unbatched ones
  are passed as they are (what ``vectorized=True`` did);
- ``None`` (the default): ``vmap`` raises JAX's ``NotImplementedError``.
Results always have the batch axis first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive
from jax_core._src.interpreters.batching_util import axis_size, moveaxis
from jax_core._src.lax.control_flow.scan import scan
from jax_core._src.lax.shape.dimensions import broadcast

VMAP_METHODS: tuple[str | None, ...] = (
    "sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized", None,
)  # fmt: skip
"""The ``vmap_method`` values JAX accepts, in the order its error message lists them."""


def check_vmap_method(vmap_method: object) -> None:
    """JAX's ``ValueError`` for an unknown ``vmap_method``."""
    if vmap_method not in VMAP_METHODS:
        raise ValueError(f"vmap_method must be on of the allowed methods {list(VMAP_METHODS)}, but got: {vmap_method}")


def foreign_call_batch(
    prim: Primitive,
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    vmap_method: str | None,
    result_avals: tuple[ShapedArray, ...],
    **params: Any,
) -> tuple[list[Any], list[int]]:
    """The batching rule of a foreign call primitive (``result_avals`` and ``vmap_method`` params)."""
    size = axis_size(args, dims)
    front = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    batched_avals = tuple(ShapedArray((size, *a.shape), a.dtype, a.weak_type) for a in result_avals)
    if vmap_method == "legacy_vectorized":
        outs = prim.bind(*front, vmap_method=vmap_method, result_avals=batched_avals, **params)
    elif vmap_method in ("expand_dims", "broadcast_all"):
        n = size if vmap_method == "broadcast_all" else 1
        bcast = [broadcast(a, (n,)) if d is None else a for a, d in zip(front, dims)]
        outs = prim.bind(*bcast, vmap_method=vmap_method, result_avals=batched_avals, **params)
    elif vmap_method in ("sequential", "sequential_unrolled"):
        is_batched = [d is not None for d in dims]
        fixed = [a for a, b in zip(front, is_batched) if not b]
        mapped = [a for a, b in zip(front, is_batched) if b]

        def one(carry: tuple[()], xs: list[Any]) -> tuple[tuple[()], list[Any]]:
            it_fixed, it_xs = iter(fixed), iter(xs)
            merged = [next(it_xs) if b else next(it_fixed) for b in is_batched]
            out: list[Any] = prim.bind(*merged, vmap_method=vmap_method, result_avals=result_avals, **params)
            return carry, out

        _, outs = scan(one, (), mapped, unroll=vmap_method == "sequential_unrolled")
    else:
        raise NotImplementedError(
            f"vmap is only supported for the {prim.name} primitive when vmap_method is one of "
            "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
            f"'legacy_vectorized'. Got vmap_method={vmap_method!r}."
        )
    out_list = list(outs)
    return out_list, [0] * len(out_list)
