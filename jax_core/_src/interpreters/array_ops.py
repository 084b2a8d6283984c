"""The lax operations the interpreters build values with, registered by lax when it loads.

Interpreters sit below lax in the layers (docs/architecture.md), yet autodiff and batching need
a few array operations: zeros of an aval, broadcasts, sums over broadcast axes, transposes and
dtype conversions. lax registers each one here when its module is imported (as the runtime
registers eager evaluation with ``core.primitive.set_default_impl``), so no interpreter imports
lax. ``jax_core`` imports lax before any transformation can run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

OpName = Literal["broadcast_in_dim", "expand_dims", "reduce_sum", "reshape", "to_dtype", "transpose"]
"""The operations the interpreters use."""

_ops: dict[str, Callable[..., Any]] = {}


def register(name: OpName, fn: Callable[..., Any]) -> None:
    """Makes lax's ``fn`` the operation ``name`` for the interpreters (called by lax at import)."""
    _ops[name] = fn


def op(name: OpName) -> Callable[..., Any]:
    """The registered lax operation ``name``."""
    fn = _ops.get(name)
    if fn is None:
        raise RuntimeError(f"The lax operation {name!r} is not registered; import jax_core before using its interpreters.")
    return fn
