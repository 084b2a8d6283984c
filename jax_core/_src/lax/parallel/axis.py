"""``axis_index`` and ``axis_size``: where this device (or vmapped element) is along named axes.

Under ``vmap(axis_name=...)`` the index is an ``iota`` over the batch dimension; inside
``shard_map`` it is computed from the device's ``partition_id`` and the mesh's shape, and it
varies over the axes it names.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, cast

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.axis_env import axis_size as _bound_size
from jax_core._src.core.axis_env import checked_manual_axes
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import zero_jvp
from jax_core._src.interpreters.batching import current_batch_axis
from jax_core._src.lax.parallel.groups import axis_position
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing.basearray import Array

AxisName = Hashable


def _axes(axis_name: AxisName | Sequence[AxisName]) -> tuple[AxisName, ...]:
    if isinstance(axis_name, (tuple, list)):
        return tuple(cast("Sequence[AxisName]", axis_name))
    return (axis_name,)


def _abstract_eval(*, axes: tuple[AxisName, ...]) -> ShapedArray:
    for name in axes:
        try:
            _bound_size(name)
        except NameError:
            raise NameError(f"Found an unbound axis name: {name}. To fix this, please call axis_index under `jax.shard_map`.") from None
    return ShapedArray((), np.dtype(np.int32))


def _batch(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...]) -> tuple[Any, int | None]:
    from jax_core._src.lax import elementwise as lax
    from jax_core._src.lax.shape.assembly import iota

    frame = current_batch_axis()
    assert frame is not None
    name, size = frame
    if name not in axes:
        return axis_index_p.bind(axes=axes), None
    # The row-major index over ``axes``: the axes before this one, this one, the axes after it.
    position = axes.index(name)
    before, after = axes[:position], axes[position + 1 :]
    after_size = 1
    for later in after:
        after_size *= _bound_size(later)
    out = lax.mul(iota(np.int32, size), np.int32(after_size))
    if after:
        out = lax.add(out, axis_index_p.bind(axes=after))
    if before:
        out = lax.add(out, lax.mul(axis_index_p.bind(axes=before), np.int32(size * after_size)))
    return out, 0


def _lower(ctx: LoweringRuleContext, *, axes: tuple[AxisName, ...]) -> ir.Value[ir.Type]:
    return axis_position(axes, "axis_index")


def _vma(*, axes: tuple[AxisName, ...]) -> list[frozenset[Any]]:
    return [frozenset(axes) & checked_manual_axes()]


axis_index_p: Primitive = Primitive("axis_index")
axis_index_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        jvp=zero_jvp(axis_index_p),
        batch=_batch,
        pp=lambda params: [("axis_name", params["axes"][0] if len(params["axes"]) == 1 else params["axes"])],
        vma=_vma,
    )
)


def axis_index(axis_name: AxisName | Sequence[AxisName]) -> Array:
    """The index of this device (or vmapped element) along the named axis, an int32 scalar;
    for a tuple of names, the row-major index over them."""
    out: Array = axis_index_p.bind(axes=_axes(axis_name))
    return out


def axis_size(axis_name: AxisName | Sequence[AxisName]) -> int:
    """The size of the named axis (the product, for a tuple of names)."""
    n = 1
    for name in _axes(axis_name):
        n *= _bound_size(name)
    return n
