"""Lowering key arrays: structural primitives applied to keys act on their data.

A key array lowers to its ``uint32`` data, which has the key's shape plus the trailing
key-data axes. Most primitives that accept keys lower unchanged on that data because
they only use the avals' MLIR types (``squeeze``, ``concatenate``, ``rev``, ``jit`` and
control flow, the ``random_*`` primitives). The structural primitives whose parameters
name axes get an override here that extends those parameters to the trailing axes
(JAX does the same inside each of their lowering rules): ``slice``, ``dynamic_slice``,
``dynamic_update_slice``, ``gather``, ``reshape``, ``transpose``, ``broadcast_in_dim``,
``select_n``; ``eq``/``ne`` compare whole keys.

``lower_fun`` lowers a function written with lax ops on physical values (how the key
primitives lower through threefry2x32).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr
from jax_core._src.core.primitive import LowerRule, Primitive
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax import elementwise as _ew
from jax_core._src.lax.indexing import dimension_numbers as _gs_dimension_numbers
from jax_core._src.lax.indexing import gather as _gs_gather
from jax_core._src.lax.indexing import slicing as _slicing
from jax_core._src.lax.reductions.reduce import lower_reduce
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, lower_jaxpr_body
from jax_core._src.random.keys import physical_aval

Value = ir.Value[Any]


def lower_fun(fun: Callable[..., Any], ctx: LoweringRuleContext, *args: Value) -> list[Value]:
    """Traces ``fun`` on the physical avals of ``ctx`` and emits its ops on ``args``.

    ``fun`` takes and returns arrays (a single array or a list of them).
    """

    def flat(*xs: Any) -> list[Any]:
        out = fun(*xs)
        return list(out) if isinstance(out, (list, tuple)) else [out]  # pyright: ignore[reportUnknownArgumentType]

    avals = [physical_aval(a) for a in ctx.avals_in]
    closed = trace_to_jaxpr(flat, avals, DebugInfo("lowering", fun))
    consts = [hlo_util.constant(np.asarray(c)) for c in closed.consts]
    return lower_jaxpr_body(closed.jaxpr, consts, args)


def _physical_ctx(ctx: LoweringRuleContext) -> LoweringRuleContext:
    return LoweringRuleContext(
        [physical_aval(a) for a in ctx.avals_in], [physical_aval(a) for a in ctx.avals_out]
    )


def _trailing(aval: ShapedArray) -> tuple[int, ...]:
    """The sizes of the key-data axes that ``aval``'s physical form adds."""
    return physical_aval(aval).shape[aval.ndim :]


def _rule(primitive: Primitive) -> LowerRule:
    rule = primitive.rules.lower
    assert rule is not None, primitive
    return rule


def _slice(
    ctx: LoweringRuleContext,
    x: Value,
    *,
    start_indices: tuple[int, ...],
    limit_indices: tuple[int, ...],
    strides: tuple[int, ...] | None,
) -> Any:
    tail = _trailing(ctx.avals_in[0])
    return _rule(_slicing.slice_p)(
        _physical_ctx(ctx),
        x,
        start_indices=(*start_indices, *(0 for _ in tail)),
        limit_indices=(*limit_indices, *tail),
        strides=None if strides is None else (*strides, *(1 for _ in tail)),
    )


def _zero_index(like: ShapedArray) -> Value:
    return hlo_util.constant(np.zeros((), like.dtype))


def _dynamic_slice(
    ctx: LoweringRuleContext, x: Value, *starts: Value, slice_sizes: tuple[int, ...]
) -> Any:
    tail = _trailing(ctx.avals_in[0])
    zeros = [_zero_index(ctx.avals_in[1]) for _ in tail] if starts else []
    phys = _physical_ctx(ctx)
    phys = LoweringRuleContext([*phys.avals_in, *(ctx.avals_in[1] for _ in zeros)], phys.avals_out)
    return _rule(_slicing.dynamic_slice_p)(
        phys, x, *starts, *zeros, slice_sizes=(*slice_sizes, *tail)
    )


def _dynamic_update_slice(ctx: LoweringRuleContext, x: Value, update: Value, *starts: Value) -> Any:
    tail = _trailing(ctx.avals_in[0])
    zeros = [_zero_index(ctx.avals_in[2]) for _ in tail] if starts else []
    phys = _physical_ctx(ctx)
    phys = LoweringRuleContext([*phys.avals_in, *(ctx.avals_in[2] for _ in zeros)], phys.avals_out)
    return _rule(_slicing.dynamic_update_slice_p)(phys, x, update, *starts, *zeros)


def _gather(ctx: LoweringRuleContext, operand: Value, indices: Value, **params: Any) -> Any:
    tail = _trailing(ctx.avals_in[0])
    out_ndim = ctx.avals_out[0].ndim
    dn: _gs_dimension_numbers.GatherDimensionNumbers = params["dimension_numbers"]
    dn = dn._replace(offset_dims=(*dn.offset_dims, *range(out_ndim, out_ndim + len(tail))))
    sizes: tuple[int, ...] = params["slice_sizes"]
    new_params = {**params, "dimension_numbers": dn, "slice_sizes": (*sizes, *tail)}
    return _rule(_gs_gather.gather_p)(_physical_ctx(ctx), operand, indices, **new_params)


def _reshape(
    ctx: LoweringRuleContext,
    x: Value,
    *,
    new_sizes: tuple[int, ...],
    dimensions: tuple[int, ...] | None,
    sharding: None,
) -> Any:
    tail = _trailing(ctx.avals_in[0])
    ndim = ctx.avals_in[0].ndim
    dims = None if dimensions is None else (*dimensions, *range(ndim, ndim + len(tail)))
    return _rule(shape_dims.reshape_p)(
        _physical_ctx(ctx), x, new_sizes=(*new_sizes, *tail), dimensions=dims, sharding=sharding
    )


def _transpose(ctx: LoweringRuleContext, x: Value, *, permutation: tuple[int, ...]) -> Any:
    ndim = ctx.avals_in[0].ndim
    tail = _trailing(ctx.avals_in[0])
    perm = (*permutation, *range(ndim, ndim + len(tail)))
    return _rule(shape_dims.transpose_p)(_physical_ctx(ctx), x, permutation=perm)


def _broadcast_in_dim(
    ctx: LoweringRuleContext,
    x: Value,
    *,
    shape: tuple[int, ...],
    broadcast_dimensions: tuple[int, ...],
) -> Any:
    tail = _trailing(ctx.avals_in[0])
    n = len(shape)
    return _rule(shape_dims.broadcast_in_dim_p)(
        _physical_ctx(ctx),
        x,
        shape=(*shape, *tail),
        broadcast_dimensions=(*broadcast_dimensions, *range(n, n + len(tail))),
    )


def _select_n(ctx: LoweringRuleContext, which: Value, *cases: Value) -> Any:
    which_aval, out_aval = ctx.avals_in[0], ctx.avals_out[0]
    phys_out = physical_aval(out_aval)
    phys_which = ShapedArray(phys_out.shape, which_aval.dtype)
    which = hlo_util.broadcast_in_dim(which, phys_which, tuple(range(which_aval.ndim)))
    phys_ctx = LoweringRuleContext([phys_which, *(phys_out for _ in cases)], [phys_out])
    return _rule(_ew.select_n_p)(phys_ctx, which, *cases)


def _compare_keys(direction: str) -> LowerRule:
    def rule(ctx: LoweringRuleContext, x: Value, y: Value) -> Value:
        x_aval, y_aval = ctx.avals_in
        out = ctx.avals_out[0]
        phys = ShapedArray((*out.shape, *_trailing(x_aval)), np.dtype(np.uint32))
        x, y = (_broadcast_to(v, physical_aval(a), phys) for v, a in ((x, x_aval), (y, y_aval)))
        elementwise = hlo_util.compare(x, y, direction, np.dtype(np.uint32))
        axes = tuple(range(out.ndim, phys.ndim))
        if direction == "EQ":
            return lower_reduce(elementwise, np.array(True), axes, hlo.and_, out)
        return lower_reduce(elementwise, np.array(False), axes, hlo.or_, out)

    return rule


def _broadcast_to(x: Value, aval: ShapedArray, target: ShapedArray) -> Value:
    if aval.shape == target.shape:
        return x
    dims = tuple(range(target.ndim - aval.ndim, target.ndim))
    return hlo_util.broadcast_in_dim(x, target, dims)


_OVERRIDES: dict[Primitive, LowerRule] = {
    _slicing.slice_p: _slice,
    _slicing.dynamic_slice_p: _dynamic_slice,
    _slicing.dynamic_update_slice_p: _dynamic_update_slice,
    _gs_gather.gather_p: _gather,
    shape_dims.reshape_p: _reshape,
    shape_dims.transpose_p: _transpose,
    shape_dims.broadcast_in_dim_p: _broadcast_in_dim,
    _ew.select_n_p: _select_n,
    _ew.eq_p: _compare_keys("EQ"),
    _ew.ne_p: _compare_keys("NE"),
}


_PASS_THROUGH = frozenset(
    {"squeeze", "concatenate", "rev", "stop_gradient", "name", "copy", "optimization_barrier", "call_exported"}
)
"""Primitives whose own lowering is right for keys (they only use the avals' MLIR types; an
exported module takes and returns keys as their data)."""


def lowering_rule(
    primitive: Primitive, params: dict[str, Any], default: LowerRule | None, dtype: object
) -> LowerRule | None:
    """The lowering of ``primitive`` applied to key arrays.

    Structural primitives get their override; the key primitives, call-like and control-flow
    primitives (whose params hold jaxprs) and the pass-through ones keep their own rule; any
    other primitive (arithmetic, conversions, reductions) does not accept keys.
    """
    override = _OVERRIDES.get(primitive)
    if override is not None:
        return override
    name = primitive.name
    if (
        name in _PASS_THROUGH
        or name.startswith("random_")
        or any(_holds_jaxpr(v) for v in params.values())
    ):
        return default
    raise TypeError(
        f"{name} does not accept dtype {dtype}: key arrays support no arithmetic or conversion."
    )


def _holds_jaxpr(v: object) -> bool:
    if isinstance(v, (Jaxpr, ClosedJaxpr)):
        return True
    return isinstance(v, (tuple, list)) and any(isinstance(x, (Jaxpr, ClosedJaxpr)) for x in v)  # pyright: ignore[reportUnknownVariableType]
