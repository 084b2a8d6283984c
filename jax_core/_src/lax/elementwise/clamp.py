"""``clamp``: each element of ``x`` limited to ``[min, max]``.

The jvp routes the tangent of whichever operand is selected; scalar bounds broadcast."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core._src.lax.elementwise.wrappers as lax
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    per_arg_jvp,
)
from jax_core._src.interpreters.batching_util import (
    axis_size,
    bdim_at_front,
)
from jax_core._src.lax.standard_rules import (
    is_any,
    naryop_abstract_eval,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


# -- clamp ----------------------------------------------------------------------------------------
def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:
    """Elementwise clamp: ``min`` where ``x < min``, ``max`` where ``x > max``, else ``x``.

    ``min`` and ``max`` are scalars or have ``x``'s shape; all three share one dtype.
    """
    out: Array = clamp_p.bind(min, x, max)
    return out


_clamp_dtypes = naryop_abstract_eval("clamp", is_any)


def _clamp_abstract_eval(lo: ShapedArray, x: ShapedArray, hi: ShapedArray) -> ShapedArray:
    if lo.shape and lo.shape != x.shape:
        raise TypeError(f"clamp requires min.shape == operand.shape or min.shape == (), got min.shape={lo.shape}, operand.shape={x.shape}.")
    if hi.shape and hi.shape != x.shape:
        raise TypeError(f"clamp requires max.shape == operand.shape or max.shape == (), got max.shape={hi.shape}, operand.shape={x.shape}.")
    out = _clamp_dtypes(lo, x, hi)
    return ShapedArray(x.shape, out.dtype, out.weak_type)


def _clamp_lower(ctx: LoweringRuleContext, lo: ir.Value[Any], x: ir.Value[Any], hi: ir.Value[Any]) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.clamp(lo, x, hi)
    return out


def _where(pred: Any, g: Any, x: Any) -> Any:
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    shape = get_aval(x).shape
    g = g if get_aval(g).shape == shape else broadcast_in_dim(g, shape, ())
    zeros = broadcast_in_dim(np.zeros((), get_aval(g).dtype), shape, ())
    return lax.select(pred, g, zeros)


def _clamp_dmin(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lax.bitwise_and(lax.gt(lo, x), lax.lt(lo, hi)), g, x)


def _clamp_dx(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lax.bitwise_and(lax.gt(x, lo), lax.lt(x, hi)), g, x)


def _clamp_dmax(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lax.lt(hi, x), g, x)


def _clamp_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    lo, x, hi = args
    lo_d, x_d, hi_d = dims
    if lo_d is None and hi_d is None and x_d is not None and get_aval(lo).ndim == get_aval(hi).ndim == 0:
        return clamp(lo, x, hi), x_d
    size = axis_size(args, dims)
    x_shape = get_aval(x).shape
    if x_d is not None:
        x_shape = x_shape[:x_d] + x_shape[x_d + 1 :]
    full = (size, *x_shape)
    moved: list[Any] = []
    for v, d in zip(args, dims):
        if d is None and get_aval(v).ndim == 0 and v is not x:
            moved.append(v)  # an unbatched scalar bound stays a scalar
            continue
        v = bdim_at_front(v, d, size)
        if get_aval(v).shape != full:
            v = broadcast_in_dim(v, full, (0,))  # a batched scalar: one bound per example
        moved.append(v)
    return clamp(*moved), 0


clamp_p = Primitive("clamp")
clamp_p.def_rules(
    Rules(
        abstract_eval=_clamp_abstract_eval,
        lower=_clamp_lower,
        jvp=per_arg_jvp(clamp_p, _clamp_dmin, _clamp_dx, _clamp_dmax),
        batch=_clamp_batch,
    )
)
