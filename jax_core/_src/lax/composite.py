"""``composite``: a function staged as one ``composite`` equation and lowered to a
``stablehlo.composite`` op whose decomposition is a private function of the module, as JAX 0.12.

A compiler that knows the composite's ``name`` (and ``version`` and attributes) may replace it;
otherwise it inlines the decomposition. Positional arguments are the op's operands, keyword
arguments its attributes (``None`` values are left out of the op). As in JAX, composites are not
differentiable (their jvp and transpose raise ``ValueError`` pointing to ``custom_jvp``) and have
no batching rule.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import UnexpectedTracerError
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lax.standard_rules import no_batch
from jax_core._src.lib.mlir import func, hlo, ir
from jax_core._src.lowering.ir_types import value_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, lower_jaxpr_body
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten


class HashableArray:
    """A NumPy array attribute, compared and hashed by value (params must be hashable)."""

    __slots__ = ("val",)

    def __init__(self, val: np.ndarray[Any, Any]) -> None:
        self.val = val

    def __repr__(self) -> str:
        return f"HashableArray({self.val!r})"

    def __hash__(self) -> int:
        return hash((self.val.shape, self.val.dtype, self.val.tobytes()))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HashableArray)
            and self.val.shape == other.val.shape
            and self.val.dtype == other.val.dtype
            and bool(np.array_equal(self.val, other.val))
        )


def _hashable(x: Any) -> Any:
    return HashableArray(x) if type(x) is np.ndarray else x


Attributes = tuple[tuple[str, tuple[Any, ...], PyTreeDef], ...]


def composite(decomposition: Callable[..., Any], name: str, version: int = 0) -> Callable[..., Any]:
    """``decomposition`` as a composite op named ``name`` (of ``version``): calling the result
    stages one ``composite`` equation whose ``call_jaxpr`` is the decomposition."""

    @functools.wraps(decomposition)
    def _decorator(*args: Any, **kwargs: Any) -> Any:
        flat_args, in_tree = tree_flatten(args)
        in_avals = [get_aval(x) for x in flat_args]
        if any(isinstance(v, Tracer) for v in kwargs.values()):
            raise UnexpectedTracerError(
                "Found a JAX Tracer as an attribute in the decomposition for the composite op "
                f"'{name}'. This means that the decomposition function closes over a value that is "
                "involved in a JAX transformation. Any values that aren't explicitly known at compile "
                "time must be explicitly passed as arguments to the composite.\n\nNote: If you are "
                "passing jax arrays as attributes, use numpy arrays instead."
            )
        out_trees: list[PyTreeDef] = []

        def flat_fun(*xs: Any) -> list[Any]:
            leaves, tree = tree_flatten(decomposition(*tree_unflatten(in_tree, list(xs)), **kwargs))
            out_trees.append(tree)
            return leaves

        closed = trace_to_jaxpr(flat_fun, in_avals, DebugInfo("composite", decomposition))
        if any(isinstance(c, Tracer) for c in closed.consts):
            raise UnexpectedTracerError(
                "Found a JAX Tracer as a constant in the decomposition for the composite op "
                f"'{name}'. This means that the decomposition function closes over a value that is "
                "involved in a JAX transformation. Any values that aren't explicitly known at compile "
                "time must be explicitly passed as arguments to the composite."
            )
        inner = closed.jaxpr  # its constants become leading inputs, as JAX's convert_constvars_jaxpr
        call_jaxpr = ClosedJaxpr(Jaxpr([], [*inner.constvars, *inner.invars], inner.outvars, inner.eqns), [])
        attributes: list[tuple[str, tuple[Any, ...], PyTreeDef]] = []
        for k, v in kwargs.items():
            leaves, treedef = tree_flatten(v)
            hashable = tuple(_hashable(x) for x in leaves)
            attributes.append((k, hashable, treedef))
        out_flat = composite_p.bind(
            *closed.consts,
            *flat_args,
            name=name,
            attributes=tuple(attributes),
            version=version,
            call_jaxpr=call_jaxpr,
        )
        return tree_unflatten(out_trees[0], list(out_flat))

    return _decorator


composite_p: Primitive = Primitive("composite", multiple_results=True)


def _composite_abstract_eval(*args: ShapedArray, call_jaxpr: ClosedJaxpr, **_: Any) -> list[ShapedArray]:
    return list(call_jaxpr.jaxpr.out_avals)


def _composite_impl(*args: Any, call_jaxpr: ClosedJaxpr, **_: Any) -> list[Any]:
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


def _is(x: object, kinds: type | tuple[type, ...]) -> bool:
    return isinstance(x, kinds)  # a plain bool: no narrowing of ``x`` to NumPy's generic types


def _ir_attribute(v: Any) -> ir.Attribute:
    """An MLIR attribute for a Python or NumPy attribute value."""
    x: Any = v.val if isinstance(v, HashableArray) else v
    if _is(x, (bool, np.bool_)):
        return ir.BoolAttr.get(bool(x))
    if _is(x, (int, np.integer)):
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(x))
    if _is(x, (float, np.floating)):
        return ir.FloatAttr.get(ir.F64Type.get(), float(x))
    if _is(x, str):
        return ir.StringAttr.get(str(x))
    if _is(x, np.ndarray):
        dense: ir.Attribute = ir.DenseElementsAttr.get(np.ascontiguousarray(x))
        return dense
    if _is(x, (list, tuple)):
        return ir.ArrayAttr.get([_ir_attribute(e) for e in x])
    raise TypeError(f"Unsupported attribute type for a composite op: {type(x)}")


def _module_body(ip: ir.InsertionPoint) -> tuple[ir.Operation, ir.Block]:
    op: Any = ip.block.owner
    while op.name != "builtin.module":
        op = op.parent
    regions: Any = op.regions
    block: ir.Block = regions[0].blocks[0]
    return op, block


def _composite_lower(
    ctx: LoweringRuleContext,
    *args: ir.Value[Any],
    name: str,
    attributes: Attributes,
    version: int,
    call_jaxpr: ClosedJaxpr,
) -> Sequence[ir.Value[Any]]:
    module, body = _module_body(ir.InsertionPoint.current)
    in_types = [value_ir_type(a) for a in ctx.avals_in]
    out_types = [value_ir_type(a) for a in ctx.avals_out]
    with ir.InsertionPoint(body):
        fn = func.FuncOp(name, ir.FunctionType.get(in_types, out_types))
        fn.attributes["sym_visibility"] = ir.StringAttr.get("private")
        entry = fn.add_entry_block()
        with ir.InsertionPoint(entry):
            func.ReturnOp(lower_jaxpr_body(call_jaxpr.jaxpr, [], list(entry.arguments)))
    symbol: ir.StringAttr = ir.SymbolTable(module).insert(fn.operation)  # renamed if taken
    composite_attrs: dict[str, ir.Attribute] = {}
    for k, leaves, treedef in attributes:
        v = tree_unflatten(treedef, list(leaves))
        if v is not None:
            composite_attrs[k] = _ir_attribute(v)
    op = hlo.CompositeOp(
        out_types,
        list(args),
        name=ir.StringAttr.get(name),
        decomposition=ir.FlatSymbolRefAttr.get(symbol.value),
        composite_attributes=ir.DictAttr.get(composite_attrs),
        version=ir.IntegerAttr.get(ir.IntegerType.get_signless(32), version),
    )
    results: list[ir.Value[Any]] = list(op.results)
    return results


def _composite_jvp(*args: Any, **_: Any) -> tuple[Any, Any]:
    raise ValueError(
        "JVP rule for composite not implemented. You can use `jax.custom_jvp` to add support. See "
        "https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html"
    )


def _composite_transpose(*args: Any, **_: Any) -> list[Any]:
    raise ValueError(
        "Transpose rule for composite not implemented. You can use`jax.custom_jvp` or "
        "`jax.custom_vjp` to add support. See https://docs.jax.dev/en/latest/_autosummary/jax.custom_jvp.html"
    )


composite_p.def_rules(
    Rules(
        abstract_eval=_composite_abstract_eval,
        lower=_composite_lower,
        impl=_composite_impl,
        jvp=_composite_jvp,
        transpose=_composite_transpose,
        batch=no_batch("composite"),
    )
)
