"""All-reduce collectives over named axes: ``psum``, ``pmean``, ``pmax``, ``pmin``, and the
variance casts of ``shard_map`` (``psum_invariant``, ``pvary``, ``pcast``).

An axis name is bound by ``vmap(..., axis_name=...)`` (the collective is carried out by that
``vmap``'s batching rule: a reduction over the batch axis) or by ``shard_map``'s mesh (it lowers
to ``stablehlo.all_reduce`` among the devices along the axes). Naming an unbound axis raises
``NameError`` as in JAX.

Inside ``shard_map`` with ``check_vma`` (seed 000 part 7), ``psum`` of a value that varies over
the axes is ``psum_invariant`` (varying to invariant); a value invariant over an axis is first
cast with ``pvary`` (invariant to varying, no communication). Their transposes are each other:
the transpose of a ``psum`` to an invariant result is a ``pvary`` (no collective), and of a
``pvary`` a ``psum``, so ``t(t(f)) == f`` and no transposition adds a collective the program
did not need. Without ``check_vma`` (and under ``vmap``) ``psum`` is ``psum_p``, its own
transpose.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, TypeVar, cast

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.axis_env import axis_size, checked_manual_axes, register_pvary
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad_util import Zero, instantiate_zeros, linear_jvp
from jax_core._src.interpreters.batching import current_batch_axis
from jax_core._src.lax.parallel.groups import all_reduce
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten

T = TypeVar("T")
AxisName = Hashable


def _axes_tuple(axis_name: AxisName | Sequence[AxisName]) -> tuple[AxisName, ...]:
    if isinstance(axis_name, (tuple, list)):
        return tuple(cast("Sequence[AxisName]", axis_name))
    return (axis_name,)


def _check_bound(axes: tuple[AxisName, ...], what: str = "psum") -> None:
    for name in axes:
        try:
            axis_size(name)
        except NameError:
            raise NameError(f"Found an unbound axis name: {name}. To fix this, please call {what} under `jax.shard_map`.") from None


def _collective_abstract_eval(what: str) -> Any:
    def rule(*avals: ShapedArray, axes: tuple[AxisName, ...], axis_index_groups: Any) -> list[ShapedArray]:
        _check_bound(axes, what)
        return [a.strip_weak_type() if a.weak_type else a for a in avals]

    return rule


def _all_reduce_lowering(combine: Any, what: str) -> Any:
    def rule(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], axes: tuple[AxisName, ...], axis_index_groups: Any = None) -> list[ir.Value[ir.Type]]:
        if axis_index_groups is not None:
            raise NotImplementedError(f"{what} with axis_index_groups is not supported inside shard_map by jax_core")
        return [all_reduce(ctx, x, axes, combine, what, a) for x, a in zip(args, ctx.avals_in, strict=True)]

    return rule


def _drop_axes_vma(*avals: ShapedArray, axes: tuple[AxisName, ...], **params: Any) -> list[frozenset[Any]]:
    return [a.vma - frozenset(axes) for a in avals]


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


def _psum_batch(args: list[Any], dims: list[int | None], **params: Any) -> tuple[list[Any], list[int | None]]:
    from jax_core._src.lax.reductions import reduce as reductions

    rule = _reduction_batcher(psum_p, reductions.reduce_sum, True)
    out: tuple[list[Any], list[int | None]] = rule(args, dims, **params)
    return out


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


def _make(name: str, reduce_name: str, combine: Any, scale_unbatched: bool, transposable: bool) -> Primitive:
    from jax_core._src.lax.reductions import reduce as reductions

    prim = Primitive(name, multiple_results=True)
    reduce = getattr(reductions, reduce_name)
    prim.def_rules(
        Rules(
            abstract_eval=_collective_abstract_eval(name),
            lower=_all_reduce_lowering(combine, name),
            jvp=linear_jvp(prim) if transposable else _pmax_jvp(prim),
            transpose=_psum_transpose if transposable else None,
            batch=_reduction_batcher(prim, reduce, scale_unbatched),
            vma=_drop_axes_vma,
        )
    )
    return prim


psum_p: Primitive = _make("psum", "reduce_sum", hlo.add, scale_unbatched=True, transposable=True)
pmax_p: Primitive = _make("pmax", "reduce_max", hlo.maximum, scale_unbatched=False, transposable=False)
pmin_p: Primitive = _make("pmin", "reduce_min", hlo.minimum, scale_unbatched=False, transposable=False)


# -- psum_invariant and pvary: the varying <-> invariant pair (each the other's transpose) --------
def _psum_invariant_abstract_eval(x: ShapedArray, *, axes: tuple[AxisName, ...]) -> ShapedArray:
    _check_bound(axes)
    if checked_manual_axes() and not set(axes) & x.vma:
        raise ValueError(
            "psum is a variant->invariant collective. This means that the axis names mentioned in "
            "`axes` passed to `psum` must be present in `jax.typeof(inp).vma`. Got "
            f"axes={axes} and jax.typeof(inp).vma={set(x.vma)}"
        )
    return x.strip_weak_type()


def _psum_invariant_batch(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...]) -> tuple[Any, int | None]:
    outs, out_dims = _psum_batch(list(args), list(dims), axes=axes, axis_index_groups=None)
    return outs[0], out_dims[0]


def _psum_invariant_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, axes: tuple[AxisName, ...]) -> ir.Value[ir.Type]:
    return all_reduce(ctx, x, axes, hlo.add, "psum")


def _psum_invariant_transpose(ct: Any, x: Any, *, axes: tuple[AxisName, ...]) -> list[Any]:
    return [pvary_p.bind(instantiate_zeros(ct), axes=axes)]  # invariant -> varying: no communication


def _psum_invariant_vma(x: ShapedArray, *, axes: tuple[AxisName, ...]) -> list[frozenset[Any]]:
    return [x.vma - frozenset(axes)]


psum_invariant_p: Primitive = Primitive("psum_invariant")
psum_invariant_p.def_rules(
    Rules(
        abstract_eval=_psum_invariant_abstract_eval,
        lower=_psum_invariant_lower,
        jvp=linear_jvp(psum_invariant_p),
        transpose=_psum_invariant_transpose,
        batch=_psum_invariant_batch,
        vma=_psum_invariant_vma,
    )
)


def _pvary_abstract_eval(x: ShapedArray, *, axes: tuple[AxisName, ...]) -> ShapedArray:
    _check_bound(axes)
    return x


def _pvary_batch(args: Sequence[Any], dims: Sequence[int | None], *, axes: tuple[AxisName, ...]) -> tuple[Any, int | None]:
    frame = current_batch_axis()
    rest = tuple(a for a in axes if frame is None or a != frame[0])
    (x,), (d,) = args, dims
    return (pvary_p.bind(x, axes=rest) if rest else x), d


def _pvary_transpose(ct: Any, x: Any, *, axes: tuple[AxisName, ...]) -> list[Any]:
    return [psum_invariant_p.bind(instantiate_zeros(ct), axes=axes)]


def _pvary_vma(x: ShapedArray, *, axes: tuple[AxisName, ...]) -> list[frozenset[Any]]:
    return [x.vma | (frozenset(axes) & checked_manual_axes())]


def _pvary_lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, axes: tuple[AxisName, ...]) -> ir.Value[ir.Type]:
    return x  # a change of type only: every device already holds its value


pvary_p: Primitive = Primitive("pvary")
pvary_p.def_rules(
    Rules(
        abstract_eval=_pvary_abstract_eval,
        lower=_pvary_lower,
        jvp=linear_jvp(pvary_p),
        transpose=_pvary_transpose,
        batch=_pvary_batch,
        vma=_pvary_vma,
    )
)


def _pvary_leaf(x: Any, axes: tuple[AxisName, ...]) -> Any:
    return pvary_p.bind(x, axes=axes)


register_pvary(_pvary_leaf)


def pcast(x: T, axis_name: AxisName | tuple[AxisName, ...], *, to: str) -> T:
    """Casts ``x`` (a pytree) between device-variance types over the named axes: ``to="varying"``
    makes values invariant over them vary (``pvary``: no communication)."""
    if isinstance(axis_name, (set, frozenset)):
        raise TypeError(f"axis_name={axis_name} must be a tuple or a str. Got {axis_name}")
    axes: tuple[AxisName, ...] = cast("tuple[AxisName, ...]", axis_name) if isinstance(axis_name, tuple) else (axis_name,)
    if not axes:
        return x
    if to not in ("unreduced", "reduced", "varying"):
        raise ValueError("Got unexpected `to` value. Allowed `to` values are: {'unreduced', 'reduced', 'varying'}")
    if to != "varying":
        raise NotImplementedError(f"jax_core does not implement pcast(to={to!r}) (unreduced/reduced types) yet")

    def cast_leaf(leaf: Any) -> Any:
        vma = get_aval(leaf).vma
        missing = tuple(a for a in axes if a not in vma)
        if not missing:
            raise ValueError(f"Unsupported pcast from=varying, to='{to}'")
        return pvary_p.bind(leaf, axes=missing)

    leaves, tree = tree_flatten(x)
    out: T = tree_unflatten(tree, [cast_leaf(leaf) for leaf in leaves])
    return out


def _bind_tree(prim: Primitive, x: Any, axis_name: AxisName | Sequence[AxisName]) -> Any:
    leaves, tree = tree_flatten(x)
    outs = prim.bind(*leaves, axes=_axes_tuple(axis_name), axis_index_groups=None)
    return tree_unflatten(tree, outs)


def _psum_leaf(x: Any, axes: tuple[AxisName, ...]) -> Any:
    from jax_core._src.lax import elementwise as lax

    if not isinstance(x, Tracer):  # a constant: the same on every device (``psum(1, 'i')`` is the size)
        n = 1
        for name in axes:
            n *= axis_size(name)
        if isinstance(x, (bool, int, float, complex, np.ndarray, np.generic)):
            scaled: Any = cast(Any, x)
            return n * scaled
        aval = get_aval(x)
        return lax.mul(lax.to_dtype(n, aval.dtype) if not aval.weak_type else n, x)
    if np.dtype(get_aval(x).dtype) == np.bool_:
        x = lax.convert_element_type(x, np.dtype(np.int32))
    manual = checked_manual_axes()
    if not set(axes) & manual:
        return psum_p.bind(x, axes=axes, axis_index_groups=None)[0]
    missing = tuple(a for a in axes if a not in get_aval(x).vma)
    if missing:
        x = pvary_p.bind(x, axes=missing)
    return psum_invariant_p.bind(x, axes=axes)


def psum(x: T, axis_name: AxisName | Sequence[AxisName], *, axis_index_groups: Any = None) -> T:
    """The sum of ``x`` (a pytree of arrays) over the named axis (or axes)."""
    axes = _axes_tuple(axis_name)
    if not axes:
        return x
    if axis_index_groups is not None:
        leaves, tree = tree_flatten(x)
        out_g: T = tree_unflatten(tree, psum_p.bind(*leaves, axes=axes, axis_index_groups=axis_index_groups))
        return out_g
    leaves, tree = tree_flatten(x)
    out: T = tree_unflatten(tree, [_psum_leaf(leaf, axes) for leaf in leaves])
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


