"""``platform_dependent``: per-platform code chosen where the computation runs (the
``platform_index`` primitive gives the index of the branch; jax_core runs on CPU).

Eagerly the index is known and the chosen branch is called; under ``jit`` the index is staged
and the branches become one ``switch``, as in JAX.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer
from jax_core._src.interpreters.ad_util import Zero
from jax_core._src.lax.control_flow.conditionals import switch
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

PLATFORM = "cpu"
"""The platform jax_core lowers for."""

BranchesPlatforms = tuple[tuple[str, ...] | None, ...]
"""For each branch, the platforms it serves (None: the default branch)."""


def _platform_index(platforms: BranchesPlatforms, platform: str = PLATFORM) -> int:
    default: int | None = None
    for i, ps in enumerate(platforms):
        if ps is None:
            default = i
        elif platform in ps:
            return i
    if default is None:
        raise NotImplementedError(
            f"MLIR translation rule for primitive 'platform_index(platforms={platforms})' not "
            f"found for platform {platform}"
        )
    return default


def _platform_index_abstract_eval(*, platforms: BranchesPlatforms) -> ShapedArray:
    return ShapedArray((), np.dtype(np.int32))


def _platform_index_lower(ctx: LoweringRuleContext, *, platforms: BranchesPlatforms) -> ir.Value[ir.Type]:
    # A module lowered for several platforms (an export) picks the branch of the platform it
    # runs on, from ``main``'s platform-index argument.
    branch = [_platform_index(platforms, p) for p in ctx.platforms]
    index = ctx.module_context.platform_index if len(branch) > 1 else None
    if index is None or len(set(branch)) == 1:
        return hlo_util.constant(np.int32(branch[0]))
    return hlo_util.select_int32(index, branch)


def _platform_index_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, platforms: BranchesPlatforms
) -> tuple[Any, Any]:
    out = platform_index_p.bind(platforms=platforms)
    return out, Zero.from_primal_value(out)


def _platform_index_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, platforms: BranchesPlatforms
) -> tuple[Any, int | None]:
    return platform_index_p.bind(platforms=platforms), None


platform_index_p: Primitive = Primitive("platform_index")
platform_index_p.def_rules(
    Rules(
        abstract_eval=_platform_index_abstract_eval,
        lower=_platform_index_lower,
        jvp=_platform_index_jvp,
        batch=_platform_index_batch,
    )
)


def platform_dependent[T](
    *args: Any, default: Callable[..., T] | None = None, **per_platform: Callable[..., T]
) -> T:
    """``per_platform[platform](*args)`` for the platform the computation runs on (``cpu``
    here), else ``default(*args)``. Platform names: ``cpu``, ``cuda``, ``rocm``, ``tpu``...
    Identical branches are joined; a missing platform without ``default`` is an error when the
    computation is lowered."""
    branches: list[Callable[..., T]] = []
    platforms: list[list[str]] = []
    for name, branch in per_platform.items():
        if not callable(branch):
            raise TypeError(f"lax.platform_dependent: the '{name}' branch must be a callable.")
        if name == "gpu":
            raise ValueError("Use 'cuda', 'rocm', or 'oneapi' for lax.platform_dependent.")
        for ps, b in zip(platforms, branches):
            if b == branch:
                ps.append(name)
                break
        else:
            branches.append(branch)
            platforms.append([name])
    table: list[tuple[str, ...] | None] = [tuple(ps) for ps in platforms]
    if default is not None:
        if not callable(default):
            raise TypeError("lax.platform_dependent: the 'default' branch must be a callable.")
        branches.append(default)
        table.append(None)
    index = platform_index_p.bind(platforms=tuple(table))
    if not isinstance(index, Tracer):
        return branches[int(index)](*args)
    out: T = switch(index, branches, *args)
    return out
