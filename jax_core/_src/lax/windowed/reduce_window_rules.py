"""Autodiff and batching rules of the windowed reductions (registered in ``windowed_reductions.py``).

They follow JAX's ``lax/windowed_reductions.py``: ``reduce_window_sum`` is linear and
transposes to a ``reduce_window_sum`` of the padded (and stride-dilated) cotangent;
``reduce_window_max``/``min`` differentiate through ``select_and_gather_add``, which
transposes to ``select_and_scatter_add`` and back; the generic ``reduce_window`` has a
forward-mode rule only (a joint reduce_window over primals and tangents with the jvp of
the computation as its body). Batching adds a window dimension of size 1 for the batch
dimension.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad import jvp_jaxpr
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    UndefinedPrimal,
    Zero,
    instantiate_zeros,
    is_differentiable,
    is_zero,
    tangent_dtype,
)
from jax_core._src.interpreters.batching_util import BatchRule, axis_size, bdim_at_front
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.control_flow.common import cached
from jax_core._src.lax.conv.shapes import dilate_shape
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims

Pads = tuple[tuple[int, int], ...]
Pair = tuple[Any, Any]
WindowFn = Callable[..., Any]
"""A windowed-reduction wrapper: ``(operand, window_dimensions, window_strides, padding,
base_dilation, window_dilation) -> Array``."""


def _front(params: dict[str, Any], at: int = 0) -> dict[str, Any]:
    """Window params with a size-1, unit-stride, unpadded window dimension inserted at ``at``."""
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k in ("window_dimensions", "window_strides", "padding", "base_dilation", "window_dilation"):
            unit = (0, 0) if k == "padding" else 1
            out[k] = (*v[:at], unit, *v[at:])
        else:
            out[k] = v
    return out


# -- reduce_window_sum / max / min ---------------------------------------------------------


def monoid_batcher(window_fn: WindowFn) -> BatchRule:
    """Batching of a monoid windowed reduction: a unit window over the batch dimension."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        (x,), (d,) = args, dims
        assert d is not None
        return window_fn(x, **_front(params, d)), d

    return rule


def reduce_window_sum_transpose(
    ct: Any,
    operand: UndefinedPrimal,
    *,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> list[Any]:
    """The cotangent of a windowed sum: the cotangent, dilated by the strides and padded as
    the lhs gradient of a convolution, summed over the same windows (JAX's rule)."""
    from jax_core._src.lax.windowed.reduce_window import reduce_window_sum

    in_shape = operand.aval.shape
    lhs = dilate_shape(in_shape, base_dilation)
    rhs = dilate_shape(window_dimensions, window_dilation)
    out = dilate_shape(get_aval(ct).shape, window_strides)
    before = [r - lo - 1 for r, (lo, _) in zip(rhs, padding)]
    config = [(b, l + r - 1 - o - b, s - 1) for b, l, r, o, s in zip(before, lhs, rhs, out, window_strides)]
    padded = shape_assembly.pad(ct, np.array(0, get_aval(ct).dtype), config)
    ones = (1,) * len(in_shape)
    result = reduce_window_sum(
        padded, window_dimensions, base_dilation, ((0, 0),) * len(in_shape), ones, window_dilation
    )
    assert get_aval(result).shape == in_shape, (get_aval(result).shape, in_shape)
    return [result]


def chooser_jvp(window_fn: WindowFn, select_prim: Primitive, gather: WindowFn) -> JvpRule:
    """The jvp of max/min pooling: the tangent at each window's selected element
    (``gather`` is ``select_and_gather_add``)."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
        (x,), (t,) = primals, tangents
        ans = window_fn(x, **params)
        if is_zero(t) or not is_differentiable(get_aval(ans)):
            return ans, Zero.from_primal_value(ans)
        return ans, gather(t, x, select_prim, **params)

    return rule


# -- generic reduce_window -----------------------------------------------------------------


@cached
def _jvp_computation(jaxpr: ClosedJaxpr, nonzero: tuple[bool, ...]) -> tuple[ClosedJaxpr, tuple[bool, ...]]:
    """The body of the joint (primals, tangents) reduce_window and which operands carry
    tangents: ``nonzero`` grown to a fixpoint, since a body's carries keep their types."""
    n = len(nonzero)
    differentiable = [is_differentiable(a) for a in jaxpr.out_avals]
    nz = list(nonzero)
    while True:
        _, out_nz = jvp_jaxpr(jaxpr, [*nz, *nz], False)
        grown = [a or (b and d) for a, b, d in zip(nz, out_nz, differentiable)]
        if grown == nz:
            break
        nz = grown
    jvp_closed, _ = jvp_jaxpr(jaxpr, [*nz, *nz], nz)
    m = sum(nz)
    avals = jvp_closed.in_avals
    side = [*avals[:n], *avals[2 * n : 2 * n + m]]

    def joint(*args: Any) -> list[Any]:
        left, right = args[: n + m], args[n + m :]
        return eval_jaxpr(jvp_closed.jaxpr, jvp_closed.consts, *left[:n], *right[:n], *left[n:], *right[n:])

    return trace_to_jaxpr(joint, [*side, *side], DebugInfo("reduce_window jvp", None)), tuple(nz)


def reduce_window_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, jaxpr: ClosedJaxpr, **params: Any
) -> tuple[list[Any], list[Any]]:
    """Forward mode of a generic reduce_window, as JAX: one reduce_window over the operands
    and their tangents whose body is the jvp of the computation (no transpose: reverse
    mode needs the monoid primitives)."""
    from jax_core._src.lax.windowed.reduce_window import reduce_window_p

    n = len(primals) // 2
    operands, inits = primals[:n], primals[n:]
    op_tangents = tangents[:n]
    if not all(is_zero(t) for t in tangents[n:]):
        raise TypeError("reduce_window jvp does not support non-zero init_value_tangent.")
    avals = [get_aval(x) for x in operands]
    nonzero = tuple(not is_zero(t) and is_differentiable(a) for t, a in zip(op_tangents, avals))
    if not any(nonzero):
        outs = reduce_window_p.bind(*primals, jaxpr=jaxpr, **params)
        return list(outs), [Zero.from_primal_value(o) for o in outs]
    joint, nz = _jvp_computation(jaxpr, nonzero)
    tans = [instantiate_zeros(t) for t, z in zip(op_tangents, nz) if z]
    tan_inits = [np.zeros((), tangent_dtype(a.dtype)) for a, z in zip(avals, nz) if z]
    outs = reduce_window_p.bind(*operands, *tans, *inits, *tan_inits, jaxpr=joint, **params)
    primals_out = list(outs[:n])
    it = iter(outs[n:])
    return primals_out, [next(it) if z else Zero.from_primal_value(p) for p, z in zip(primals_out, nz)]


def reduce_window_transpose(ct: Any, *args: Any, **params: Any) -> list[Any]:
    """Reverse mode of a generic reduce_window fails as in JAX, with JAX's error (raised
    here when its joint primal/tangent reduce_window is transposed)."""
    raise ValueError(
        "Linearization failed to produce known values for all output primals. This is typically "
        "caused by attempting to differentiate a function uses an operation that does not support "
        "reverse-mode autodiff."
    )


def reduce_window_batcher(
    args: Sequence[Any], dims: Sequence[int | None], **params: Any
) -> tuple[list[Any], list[int]]:
    """Batching of a generic reduce_window: batch axes to the front, unit window there."""
    from jax_core._src.lax.windowed.reduce_window import reduce_window_p

    n = len(args) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError("reduce_window batching is not implemented for initial values")
    size = axis_size(args, dims)
    operands = [bdim_at_front(x, d, size) for x, d in zip(args[:n], dims[:n])]
    outs = reduce_window_p.bind(*operands, *args[n:], **_front(params))
    return list(outs), [0] * n


# -- select_and_gather_add / select_and_scatter_add ---------------------------------------


def select_jvp(which: str) -> JvpRule:
    """The jvp of ``select_and_gather_add`` (``which="gather"``) or ``select_and_scatter_add``:
    linear in the gathered/scattered values; the operand only selects (zero derivative)."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], *, select_prim: Primitive, **params: Any) -> tuple[Any, Any]:
        from jax_core._src.lax.windowed import select_and_scatter as wr

        fn = wr.select_and_gather_add if which == "gather" else wr.select_and_scatter_add
        (source, operand), g = primals, tangents[0]
        out = fn(source, operand, select_prim, **params)
        if is_zero(g):
            return out, Zero.from_primal_value(out)
        return out, fn(g, operand, select_prim, **params)

    return rule


def select_and_gather_add_transpose(
    t: Any,
    tangents: UndefinedPrimal,
    operand: Any,
    *,
    select_prim: Primitive,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    base_dilation: tuple[int, ...],
    window_dilation: tuple[int, ...],
) -> list[Any]:
    """``select_and_scatter_add`` of the cotangent (on the base-dilated operand)."""
    from jax_core._src.lax.indexing.slicing import slice as lax_slice
    from jax_core._src.lax.windowed.select_and_scatter import (
        select_and_scatter_add,
        select_identity,
    )

    if any(d != 1 for d in window_dilation):
        raise NotImplementedError(
            "VJP not implemented for select_and_gather (MaxPool) with window dilation, got "
            f"window_dilation={window_dilation}."
        )
    dilated = any(d != 1 for d in base_dilation)
    if dilated:
        ident = select_identity(select_prim, get_aval(operand).dtype)
        operand = shape_assembly.pad(operand, ident, tuple((0, 0, d - 1) for d in base_dilation))
    result = select_and_scatter_add(t, operand, select_prim, window_dimensions, window_strides, padding)
    if dilated:
        shape = get_aval(result).shape
        result = lax_slice(result, (0,) * len(shape), shape, base_dilation)
    return [result, None]


def select_and_scatter_add_transpose(
    t: Any,
    source: UndefinedPrimal,
    operand: Any,
    *,
    select_prim: Primitive,
    window_dimensions: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
) -> list[Any]:
    """``select_and_gather_add`` of the cotangent (no dilation)."""
    from jax_core._src.lax.windowed.select_and_scatter import select_and_gather_add

    ones = (1,) * len(window_dimensions)
    return [
        select_and_gather_add(t, operand, select_prim, window_dimensions, window_strides, padding, ones, ones),
        None,
    ]


def select_batcher(prim_name: str) -> BatchRule:
    """Batching of ``select_and_gather_add``/``select_and_scatter_add``: both operands'
    batch axes to the front, a unit window there."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        from jax_core._src.lax.windowed import select_and_scatter as wr

        prim = wr.select_and_gather_add_p if prim_name == "gather" else wr.select_and_scatter_add_p
        size = axis_size(args, dims)
        x, y = (bdim_at_front(a, d, size) for a, d in zip(args, dims))
        return prim.bind(x, y, **_front(params)), 0

    return rule


# -- cumlogsumexp --------------------------------------------------------------------------


def logaddexp(x: Any, y: Any) -> Any:
    """``log(exp(x) + exp(y))`` without overflow (JAX's ``lax.other.logaddexp``)."""
    delta = lax.sub(x, y)
    smooth = lax.add(lax.max(x, y), lax.log1p(lax.exp(lax.neg(lax.abs(delta)))))
    return lax.select(lax.ne(delta, delta), lax.add(x, y), smooth)


def _replace_inf(x: Any) -> Any:
    aval = get_aval(x)
    zeros = shape_dims.broadcast_in_dim(np.array(0, aval.dtype), aval.shape, ())
    return lax.select(lax.eq(x, np.array(np.inf, aval.dtype)), zeros, x)


def logaddexp_pairs(a: Pair, b: Pair) -> Pair:
    """Combines (primal, tangent) pairs by ``logaddexp`` with JAX's jvp of it."""
    (x, tx), (y, ty) = a, b
    out = logaddexp(x, y)
    r = _replace_inf(out)
    weight_x = lax.exp(lax.sub(_replace_inf(x), r))
    weight_y = lax.exp(lax.sub(_replace_inf(y), r))
    return out, lax.add(lax.mul(tx, weight_x), lax.mul(ty, weight_y))
