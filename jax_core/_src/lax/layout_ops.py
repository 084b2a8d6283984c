"""``with_layout_constraint``: the device-local layout a value must have at one point of a
computation (``layout_constraint_p``).

Under ``jit`` it lowers to XLA's ``LayoutConstraint`` custom call, whose result layout is the
constraint's (XLA inserts the copies a change of layout needs: values never change). Eagerly it
relays the array out (a compiled identity whose result has that layout). It is linear: tangents
and cotangents are constrained the same way; under ``vmap`` the batch dimension is the most
major one and the others keep their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import Jaxpr, Var
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import typeof
from jax_core._src.interpreters.ad_util import instantiate_zeros, linear_jvp, linear_transpose
from jax_core._src.layout.formats import Layout, check_layouts_fit, describe_aval, layout_for_vmap
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.errors import prefix_errors
from jax_core._src.tree.tree_util import broadcast_prefix, tree_flatten, tree_unflatten


def _abstract_eval(x: ShapedArray, *, layout: Layout) -> ShapedArray:
    return x


def _impl(x: Any, *, layout: Layout) -> Any:
    from jax_core._src.runtime.array import ArrayImpl
    from jax_core._src.runtime.relayout import layout_of, relayout

    if not isinstance(x, ArrayImpl):
        raise ValueError(  # noqa: TRY004  (JAX's class)
            f"with_layout_constraint in eager mode can only be applied to jax.Arrays. Got {type(x)}"
        )
    if layout_of(x) == layout:
        return x
    return relayout(x, layout)


def _index_attr(dims: Sequence[int]) -> ir.Attribute:
    return ir.DenseIntElementsAttr.get(
        np.asarray(list(dims), dtype=np.int64).reshape(len(dims)), type=ir.IndexType.get()
    )


def _lower(ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, layout: Layout) -> ir.Value[ir.Type]:
    (aval_in,), (aval_out,) = ctx.avals_in, ctx.avals_out
    if sorted(layout.major_to_minor) != list(range(aval_in.ndim)):  # what MLIR's verifier rejects
        raise ValueError(
            f"Cannot lower with_layout_constraint to a layout of major_to_minor={layout.major_to_minor} for a value "
            f"of type {describe_aval(aval_in)}: it must be a permutation of {tuple(range(aval_in.ndim))}."
        )
    attributes: dict[str, ir.Attribute] = {
        "call_target_name": ir.StringAttr.get("LayoutConstraint"),
        "has_side_effect": ir.BoolAttr.get(False),
        "backend_config": ir.StringAttr.get(""),
        "api_version": ir.IntegerAttr.get(ir.IntegerType.get_signless(32), 1),
        "called_computations": ir.ArrayAttr.get([]),
        # XLA ignores the operand's layout; the result's (minor to major) is the constraint.
        "operand_layouts": ir.ArrayAttr.get([_index_attr(range(aval_in.ndim))]),
        "result_layouts": ir.ArrayAttr.get([_index_attr(layout.major_to_minor[::-1])]),
    }
    if layout.tiling is not None:
        tiles = [_index_attr(tile) for tile in layout.tiling]
        attributes["result_tilings"] = ir.ArrayAttr.get([ir.ArrayAttr.get(tiles)])
    op: Any = hlo.CustomCallOp.build_generic(
        results=[aval_to_ir_type(aval_out)], operands=[x], attributes=attributes
    )
    out: ir.Value[ir.Type] = op.result
    return out


def _batch(
    args: Sequence[Any], dims: Sequence[int | None], *, layout: Layout
) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    if d is None:
        return layout_constraint_p.bind(x, layout=layout), None
    return layout_constraint_p.bind(x, layout=layout_for_vmap(d, layout)), d


def _constrain_cotangent(ct: Any, *, layout: Layout) -> Any:
    return layout_constraint_p.bind(instantiate_zeros(ct), layout=layout)


layout_constraint_p: Primitive = Primitive("layout_constraint")
layout_constraint_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        impl=_impl,
        jvp=linear_jvp(layout_constraint_p),
        transpose=linear_transpose(_constrain_cotangent),
        batch=_batch,
    )
)


def _flat_layouts(layouts: Any, x: Any) -> list[Any]:
    """``layouts`` (a prefix of ``x``, ``None`` a leaf) repeated once per leaf of ``x``."""
    try:
        return broadcast_prefix(layouts, x, is_leaf=lambda leaf: leaf is None)
    except ValueError:
        errors = prefix_errors(layouts, x, is_leaf=lambda leaf: leaf is None)
        name = "with_layout_constraint layouts"
        details = "\n  ".join(str(e(name).args[0]) for e in errors)
        raise ValueError(
            f"{name} specification must be a tree prefix of the corresponding value; "
            f"\n  Mismatch details ({len(errors)} found):\n  {details}"
        ) from None


def with_layout_constraint[T](x: T, layouts: Any) -> T:
    """``x`` (a pytree of arrays) in the device-local ``layouts`` (a pytree prefix of ``x`` whose
    leaves are ``Layout``s) at this point of the computation.

    Under ``jit`` XLA gives the value that layout (inserting a copy where it must; the values
    are unchanged). Eagerly each array is relaid out (returned as is when already in that
    layout). Raises ``ValueError`` for a leaf of ``layouts`` that is not a ``Layout`` (such as
    ``Layout.AUTO``, a ``Format`` or ``None``) or whose rank is not the value's, and eagerly for
    a value that is not a ``jax.Array``.
    """
    leaves, tree = tree_flatten(x)
    avals = [typeof(leaf) for leaf in leaves]
    flat = _flat_layouts(layouts, x)
    if any(not isinstance(layout, Layout) for layout in flat):
        raise ValueError(
            f"layouts passed to `with_layout_constraint` must be of type `Layout`. Got {[type(layout) for layout in flat]}"
        )
    check_layouts_fit(
        flat, [a.shape for a in avals], [""] * len(flat), "with_layout_constraint arguments"
    )
    outs = [
        layout_constraint_p.bind(leaf, layout=layout)
        for leaf, layout in zip(leaves, flat, strict=True)
    ]
    out: T = tree_unflatten(tree, outs)
    return out


def out_layouts_via_propagation(jaxpr: Jaxpr) -> tuple[Layout | None, ...]:
    """For each output of ``jaxpr``: the layout of the ``with_layout_constraint`` equation that
    produces it, else ``None``. ``jit`` compiles such a result for that layout when its
    ``out_shardings`` ask for none, as JAX does (only the jaxpr's own equations count, not
    those inside a nested ``jit``)."""
    constrained: dict[Var, Layout] = {}
    for eqn in jaxpr.eqns:
        if eqn.primitive is layout_constraint_p:
            constrained[eqn.outvars[0]] = eqn.params["layout"]
    return tuple(constrained.get(v) if isinstance(v, Var) else None for v in jaxpr.outvars)
