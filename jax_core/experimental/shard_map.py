"""``jax.experimental.shard_map``: the deprecated spelling of :func:`jax_core.shard_map`
(``check_rep`` is ``check_vma``). Importing it warns, as in JAX."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from jax_core._src.shard_map.api import shard_map as _shard_map
from jax_core._src.sharding.mesh import Mesh

P = ParamSpec("P")
R = TypeVar("R")

warnings.warn(
    "jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map instead.",
    DeprecationWarning,
    stacklevel=2,
)


def shard_map(f: Callable[P, R], mesh: Mesh, in_specs: Any, out_specs: Any, check_rep: bool = True) -> Callable[P, R]:
    """Please use `jax_core.shard_map`: this is it with ``check_vma=check_rep``."""
    return _shard_map(f, mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_rep)


__all__ = ["shard_map"]
