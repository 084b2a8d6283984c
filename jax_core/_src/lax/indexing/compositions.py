"""Compositions over gather and scatter: ``scatter_apply`` (a function applied at the scattered positions) and ``index_take``."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import elementwise as _lax
from jax_core._src.lax.indexing import dimension_numbers as _gs_dimension_numbers
from jax_core._src.lax.indexing import gather as _gs_gather
from jax_core._src.lax.indexing import scatter as _gs_scatter
from jax_core._src.lax.indexing.dimension_numbers import GatherScatterMode, ScatterDimensionNumbers
from jax_core._src.lax.shape.assembly import concatenate
from jax_core._src.lax.shape.compositions import full
from jax_core._src.lax.shape.dimensions import expand_dims
from jax_core._src.typing import ArrayLike, ShapeLike
from jax_core._src.typing.basearray import Array


# -- scatter ------------------------------------------------------------------------------------
def scatter_apply(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    func: Callable[[Array], Array],
    dimension_numbers: ScatterDimensionNumbers,
    *,
    update_shape: ShapeLike = (),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with each scattered element ``x`` replaced by ``func(x)``; repeated indices
    apply ``func`` repeatedly. ``update_shape`` is the shape the updates would have.

    As in JAX, not differentiable: its jvp raises ``NotImplementedError``.
    """
    aval = get_aval(operand)
    unused = full(update_shape, 0, aval.dtype)
    scalar = ShapedArray((), aval.dtype)

    closed = _apply_jaxpr(func, scalar)
    if any(isinstance(c, Tracer) for c in closed.consts):  # JAX's class and opening words
        raise NotImplementedError(
            "Reduction computations can't close over Tracers: the function given to scatter_apply "
            "(or .at[...].apply) uses a traced value. Compute the new values first and write them "
            "with .at[...].set(...) instead."
        )
    dn = ScatterDimensionNumbers(*(tuple(int(i) for i in d) for d in dimension_numbers))
    out: Array = _gs_scatter.scatter_p.bind(
        operand,
        scatter_indices,
        unused,
        update_jaxpr=closed.jaxpr,
        update_consts=tuple(closed.consts),
        dimension_numbers=dn,
        indices_are_sorted=bool(indices_are_sorted),
        unique_indices=bool(unique_indices),
        mode=GatherScatterMode.from_any(mode),
    )
    return out


# The traced ``func`` of ``scatter_apply`` per function (held weakly) and element type, so an eager
# ``x.at[i].apply(f)`` in a loop reuses one update jaxpr and so one compiled scatter (it compiled
# anew each call: 22 ms), as JAX caches its reduction jaxprs.
_APPLY_JAXPRS: weakref.WeakKeyDictionary[Callable[..., Any], dict[ShapedArray, ClosedJaxpr]] = weakref.WeakKeyDictionary()


def _apply_jaxpr(func: Callable[[Array], Array], scalar: ShapedArray) -> ClosedJaxpr:
    def apply(x: Any, _: Any) -> list[Any]:
        return [func(x)]

    try:
        per_func = _APPLY_JAXPRS.setdefault(func, {})
    except TypeError:  # not weakly referenceable
        return trace_to_jaxpr(apply, [scalar, scalar], DebugInfo("scatter_apply", func))
    closed = per_func.get(scalar)
    if closed is None:
        closed = trace_to_jaxpr(apply, [scalar, scalar], DebugInfo("scatter_apply", func))
        if not any(isinstance(c, Tracer) for c in closed.consts):
            per_func[scalar] = closed
    return closed


def index_take(src: ArrayLike, idxs: Sequence[ArrayLike], axes: Sequence[int]) -> Array:
    """Gathers ``src`` at the integer index arrays ``idxs``, one per axis in ``axes``.

    The index arrays share one 1-D shape ``(n,)``; indices wrap modulo each axis's size. The
    result has shape ``(n, *rest)`` where ``rest`` are the dimensions of ``src`` not in ``axes``.
    """

    src_shape = get_aval(src).shape
    indices = concatenate([expand_dims(i, (1,)) for i in idxs], 1)
    ind_aval = get_aval(indices)
    max_idx = expand_dims(
        np.array([src_shape[ax] for ax in axes], ind_aval.dtype), tuple(range(ind_aval.ndim - 1))
    )
    indices = _lax.rem(indices, max_idx)
    indices = _lax.select(
        _lax.lt(indices, np.asarray(0, get_aval(indices).dtype)), _lax.add(indices, max_idx), indices
    )  # Python's %
    slice_sizes = list(src_shape)
    for ax in axes:
        slice_sizes[ax] = 1
    offset_dims = tuple(range(1, len(src_shape) - ind_aval.shape[1] + 1))
    dnums = _gs_dimension_numbers.GatherDimensionNumbers(
        offset_dims=offset_dims, collapsed_slice_dims=tuple(axes), start_index_map=tuple(axes)
    )
    return _gs_gather.gather(src, indices, dimension_numbers=dnums, slice_sizes=tuple(slice_sizes))
