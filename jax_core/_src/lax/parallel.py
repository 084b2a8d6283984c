"""Collectives over named axes: ``psum``, ``pmean``, ``pmax``, ``pmin``, ``axis_index``.

An axis name is bound by ``vmap(..., axis_name=...)``; the collective is carried out by
that ``vmap``'s batching rule (a reduction over the batch axis). Naming an unbound axis
raises ``NameError`` as in JAX.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.axis_env import axis_size
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import Zero, instantiate_zeros, linear_jvp, zero_jvp
from jax_core._src.interpreters.batching import current_batch_axis
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten
from jax_core._src.typing.basearray import Array

T = TypeVar("T")
AxisName = Hashable


def _axes_tuple(axis_name: AxisName | Sequence[AxisName]) -> tuple[AxisName, ...]:
    if isinstance(axis_name, (tuple, list)):
        return tuple(cast("Sequence[AxisName]", axis_name))
    return (axis_name,)


def _check_bound(axes: tuple[AxisName, ...]) -> None:
    for name in axes:
        axis_size(name)


def _collective_abstract_eval(*avals: ShapedArray, axes: tuple[AxisName, ...], axis_index_groups: Any) -> list[ShapedArray]:
    _check_bound(axes)
    return [a.strip_weak_type() if a.weak_type else a for a in avals]


def _no_lowering(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], **params: Any) -> list[ir.Value[ir.Type]]:
    raise NotImplementedError(
        "collectives over named axes are supported under vmap(axis_name=...) only; "
        "jax_core has no pmap/shard_map lowering for them yet"
    )


def _reduction_batcher(prim: Primitive, reduce: Any, scale_unbatched: bool) -> Any:
    def rule(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...], axis_index_groups: Any) -> tuple[list[Any], list[int | None]]:
        from jax_core._src.lax import elementwise as lax

        frame = current_batch_axis()
        assert frame is not None
        name, size = frame
        if name not in axes:
            return list(prim.bind(*args, axes=axes, axis_index_groups=axis_index_groups)), list(dims)
        outs: list[Any] = []
        for x, d in zip(args, dims):
            if d is None:
                outs.append(lax.mul(x, lax.to_dtype(size, get_aval(x).dtype)) if scale_unbatched else x)
            else:
                outs.append(reduce(x, (d,)))
        rest = tuple(a for a in axes if a != name)
        if rest:
            outs = list(prim.bind(*outs, axes=rest, axis_index_groups=axis_index_groups))
        return outs, [None] * len(outs)

    return rule


def _psum_transpose(cts: Sequence[Any], *args: Any, axes: tuple[AxisName, ...], axis_index_groups: Any) -> list[Any]:
    return list(psum_p.bind(*map(instantiate_zeros, cts), axes=axes, axis_index_groups=axis_index_groups))


def _pmax_jvp(prim: Primitive) -> Any:
    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[list[Any], list[Any]]:
        from jax_core._src.lax import elementwise as lax

        outs = prim.bind(*primals, **params)
        touts: list[Any] = []
        for x, t, o in zip(primals, tangents, outs):
            if isinstance(t, Zero):
                touts.append(t)
                continue
            mask = lax.convert_element_type(lax.eq(x, o), o.dtype)
            num, den = psum_p.bind(lax.mul(t, mask), mask, **params)
            touts.append(lax.div(num, den))
        return list(outs), touts

    return rule


def _make(name: str, reduce_name: str, scale_unbatched: bool, transposable: bool) -> Primitive:
    from jax_core._src.lax.reductions import reduce as reductions

    prim = Primitive(name, multiple_results=True)
    reduce = getattr(reductions, reduce_name)
    prim.def_rules(
        Rules(
            abstract_eval=_collective_abstract_eval,
            lower=_no_lowering,
            jvp=linear_jvp(prim) if transposable else _pmax_jvp(prim),
            transpose=_psum_transpose if transposable else None,
            batch=_reduction_batcher(prim, reduce, scale_unbatched),
        )
    )
    return prim


psum_p: Primitive = _make("psum", "reduce_sum", scale_unbatched=True, transposable=True)
pmax_p: Primitive = _make("pmax", "reduce_max", scale_unbatched=False, transposable=False)
pmin_p: Primitive = _make("pmin", "reduce_min", scale_unbatched=False, transposable=False)


def _bind_tree(prim: Primitive, x: Any, axis_name: AxisName | Sequence[AxisName]) -> Any:
    leaves, tree = tree_flatten(x)
    outs = prim.bind(*leaves, axes=_axes_tuple(axis_name), axis_index_groups=None)
    return tree_unflatten(tree, outs)


def psum(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The sum of ``x`` (a pytree of arrays) over the named axis (or axes)."""
    out: T = _bind_tree(psum_p, x, axis_name)
    return out


def pmax(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The maximum of ``x`` over the named axis."""
    out: T = _bind_tree(pmax_p, x, axis_name)
    return out


def pmin(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The minimum of ``x`` over the named axis."""
    out: T = _bind_tree(pmin_p, x, axis_name)
    return out


def pmean(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The mean of ``x`` over the named axis."""
    from jax_core._src.lax import elementwise as lax
    from jax_core._src.tree.tree_util import tree_map

    n = 1
    for name in _axes_tuple(axis_name):
        n *= axis_size(name)
    out: T = tree_map(lambda s: lax.div(s, np.asarray(n, s.dtype)), psum(x, axis_name))
    return out


# -- axis_index ---------------------------------------------------------------------------------
def _axis_index_abstract_eval(*, axes: tuple[AxisName, ...]) -> ShapedArray:
    _check_bound(axes)
    return ShapedArray((), np.dtype(np.int32))


def _axis_index_batch(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...]) -> tuple[Any, int | None]:
    from jax_core._src.lax.shape.assembly import iota

    frame = current_batch_axis()
    assert frame is not None and frame[0] == axes[0]
    return iota(np.int32, frame[1]), 0


def _axis_index_lower(ctx: LoweringRuleContext, **params: Any) -> ir.Value[ir.Type]:
    raise NotImplementedError("axis_index is supported under vmap(axis_name=...) only")


axis_index_p: Primitive = Primitive("axis_index")
axis_index_p.def_rules(
    Rules(
        abstract_eval=_axis_index_abstract_eval,
        lower=_axis_index_lower,
        jvp=zero_jvp(axis_index_p),
        batch=_axis_index_batch,
        pp=lambda params: [("axis_name", params["axes"][0])],
    )
)


def axis_index(axis_name: AxisName) -> Array:
    """The index of the current element along the named (vmapped) axis, as an int32 scalar."""
    out: Array = axis_index_p.bind(axes=(axis_name,))
    return out
