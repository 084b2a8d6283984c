"""Calling an exported function: ``Exported.call`` and ``call_exported_p``.

The primitive's lowering parses the exported module into the module being lowered (its functions
renamed, its ``main`` made private) and calls its ``main``: with the index of the platform it runs
on when exported for several, the tokens of its ordered effects, and the kept arguments. Reverse
differentiation goes through the exported VJP (``Exported.vjp()``), as in JAX; there are no jvp
or batching rules (JAX has none either).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effects
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.export.exported import Exported, parse_module
from jax_core._src.export.safety import check_platforms
from jax_core._src.export.symbolic import arg_names, concrete_out_avals, path_str
from jax_core._src.lax.standard_rules import no_batch, no_jvp
from jax_core._src.lib.mlir import func, hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering import sdy
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, module_context
from jax_core._src.transforms.custom_derivatives import custom_vjp
from jax_core._src.tree.errors import equality_errors
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten

# -- names of arguments in messages ----------------------------------------------------------------


def _check_avals(exported: Exported, avals: Sequence[ShapedArray]) -> None:
    names = arg_names(exported.in_tree)
    for i, (want, got) in enumerate(zip(exported.in_avals, avals, strict=True)):
        if len(want.shape) != len(got.shape):
            raise ValueError(f"Rank mismatch for {names[i]}: expected {want.shape} and called with {got.shape}")
        if want.dtype != got.dtype:
            raise ValueError(f"Dtype mismatch for {names[i]}: expected {want.dtype} and called with {got.dtype}")
        for d, (w, g) in enumerate(zip(want.shape, got.shape)):
            if not is_symbolic_dim(w) and w != g:  # symbolic ones: the dimension variables' solution checks them
                raise ValueError(
                    f"Shape mismatch for {names[i]}.shape[{d}] (expected same constant): "
                    f"expected {want.shape} and called with {got.shape}"
                )


# -- the primitive ---------------------------------------------------------------------------------


def _abstract_eval(*avals: ShapedArray, exported: Exported) -> list[ShapedArray]:
    _check_avals(exported, avals)
    return concrete_out_avals(exported.in_avals, exported.out_avals, exported.in_tree, avals)


def _effects(*, exported: Exported) -> Effects:
    return frozenset((*exported.ordered_effects, *exported.unordered_effects))


_merged = itertools.count()


def _merge_into_current_module(exported: Exported) -> tuple[str, ir.FunctionType, str | None]:
    """Copies the exported module's functions into the module being lowered (renamed so they
    cannot clash; its mesh is the caller's ``@mesh`` when they have the same axes); returns the
    new name of its ``main``, its type, and the name of its mesh (``None``: it has none)."""
    context = module_context()
    target = context.module
    if target is None:
        raise AssertionError("no module is being lowered")
    sub = parse_module(exported, target.context)
    table = ir.SymbolTable(target.operation)
    prefix = re.sub(r"[^\w]", "_", f"call_exported_{exported.fun_name}") + f"_{next(_merged)}_"
    here_mesh = None if context.mesh_shape is None else "#sdy.mesh" + sdy.mesh_text(context.mesh_shape)
    ops = [op.operation for op in sub.body.operations]
    renamed: dict[str, str] = {}
    shared: set[str] = set()
    meshes: list[str] = []
    for op in ops:
        if "sym_name" not in op.attributes:
            continue
        old = ir.StringAttr(op.attributes["sym_name"]).value
        if op.name == "sdy.mesh":
            meshes.append(old)
        if op.name == "sdy.mesh" and str(op.attributes["mesh"]) == here_mesh:
            renamed[old] = sdy.MESH_NAME
            shared.add(old)
            continue
        new = prefix + old
        while new in table:
            new = prefix + old + f"_{next(_merged)}"
        renamed[old] = new
    for old, new in renamed.items():
        ir.SymbolTable.replace_all_symbol_uses(old, new, sub.operation)
    main_type: ir.FunctionType | None = None
    for op in ops:
        if "sym_name" in op.attributes:
            old = ir.StringAttr(op.attributes["sym_name"]).value
            if old in shared:
                continue
            op.attributes["sym_name"] = ir.StringAttr.get(renamed[old])
            if old == "main":
                main_type = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            if op.name == "func.func":
                op.attributes["sym_visibility"] = ir.StringAttr.get("private")
        # A copy: moving operations between modules leaves both owning them.
        with ir.InsertionPoint(target.body):
            op.clone()
    if main_type is None:
        raise ValueError(f"The exported module of '{exported.fun_name}' has no main function.")
    mesh_name = None if not meshes else renamed[meshes[0]]
    return renamed["main"], main_type, mesh_name


def _check_devices(exported: Exported) -> None:
    shape = module_context().mesh_shape
    here = 1 if shape is None else math.prod(size for _, size in shape)
    if exported.nr_devices != 1 and here != exported.nr_devices:
        raise ValueError(
            f"Function {exported.fun_name} was exported for {exported.nr_devices} devices and is called in a "
            f"context with {here} devices, which is not allowed."
        )


def _lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], exported: Exported) -> list[ir.Value[ir.Type]]:
    indices = check_platforms(exported.fun_name, exported.platforms, exported.disabled_safety_checks, ctx.platforms)
    _check_devices(exported)
    name, main_type, mesh_name = _merge_into_current_module(exported)
    operands: list[ir.Value[ir.Type]] = []
    if len(exported.platforms) > 1:
        here = module_context().platform_index
        index = hlo_util.constant(np.int32(indices[0])) if here is None else hlo_util.select_int32(here, indices)
        if index.type != main_type.inputs[0]:
            index = hlo.convert(main_type.inputs[0], index)
        operands.append(index)
    operands.extend(ctx.token(e) for e in exported.ordered_effects)
    # As JAX: arguments and results are laid out as exported (over the exported mesh).
    shardings = exported._in_named_shardings  # pyright: ignore[reportPrivateUsage]
    laid_out = [_constrained(a, s, aval, mesh_name) for a, s, aval in zip(args, shardings, ctx.avals_in, strict=True)]
    operands.extend(a for i, a in enumerate(laid_out) if i in exported.module_kept_var_idx)
    # A shape-polymorphic main takes dynamic shapes: the static operands are cast to them, and
    # the module's shapes are refined to static ones before it is compiled (as JAX does).
    operands = [x if x.type == t else hlo.convert(t, x) for x, t in zip(operands, main_type.inputs, strict=True)]
    if any(isinstance(t, ir.RankedTensorType) and not t.has_static_shape for t in main_type.inputs):
        module_context().refine_shapes = True
    call = func.CallOp(list(main_type.results), ir.FlatSymbolRefAttr.get(name), operands)
    results: list[ir.Value[ir.Type]] = list(call.results)
    n_tokens = len(exported.ordered_effects)
    for effect, token in zip(exported.ordered_effects, results[:n_tokens]):
        ctx.set_token(effect, token)
    outs = [x if x.type == (t := aval_to_ir_type(aval)) else hlo.convert(t, x) for x, aval in zip(results[n_tokens:], ctx.avals_out, strict=True)]
    shardings = exported._out_named_shardings  # pyright: ignore[reportPrivateUsage]
    return [_constrained(r, s, aval, mesh_name) for r, s, aval in zip(outs, shardings, ctx.avals_out, strict=True)]


def _constrained(value: ir.Value[ir.Type], sharding: Any, aval: ShapedArray, mesh_name: str | None) -> ir.Value[ir.Type]:
    if sharding is None or mesh_name is None:
        return value
    return sdy.sharding_constraint(value, sharding.spec, aval.ndim, mesh_name)


call_exported_p: Primitive = Primitive("call_exported", multiple_results=True)
call_exported_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        effects=_effects,
        # JAX has neither: a call differentiates through its custom_vjp (the exported VJP).
        jvp=no_jvp("call_exported"),
        batch=no_batch("call_exported"),
    )
)


# -- calling ---------------------------------------------------------------------------------------


def _call_vjp(exp_vjp: Exported, args: Sequence[Any]) -> list[Any]:
    """The cotangents ``exp_vjp`` computes from ``args`` (primals then result cotangents), ``None``
    for each ``float0`` one. ``float0`` values hold no data: they are made inside a ``jit`` and
    never cross into or out of it."""
    from jax_core._src.transforms.api import jit

    float0_in = [a.dtype == dtypes.float0 for a in exp_vjp.in_avals]
    float0_out = [a.dtype == dtypes.float0 for a in exp_vjp.out_avals]

    def dense_vjp(*dense: Any) -> list[Any]:
        it = iter(dense)
        full = [np.zeros(a.shape, dtypes.float0) if f else next(it) for a, f in zip(exp_vjp.in_avals, float0_in)]
        outs = tree_flatten(exp_vjp.call(*full))[0]
        return [o for o, f in zip(outs, float0_out, strict=True) if not f]

    dense_outs = iter(jit(dense_vjp)(*(a for a, f in zip(args, float0_in, strict=True) if not f)))
    return [None if f else next(dense_outs) for f in float0_out]


def call_exported(exported: Exported) -> Callable[..., Any]:
    """The function that calls ``exported`` (``Exported.call``): checks the arguments' pytree
    structure, shapes and dtypes with JAX's messages and returns results with ``out_tree``."""
    if not isinstance(exported, Exported):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise ValueError(f"The exported argument must be an export.Exported. Found {exported}.")

    def primal(*args_flat: Any) -> list[Any]:
        out: list[Any] = call_exported_p.bind(*args_flat, exported=exported)
        return out

    f_flat = custom_vjp(primal)

    def fwd(*args_flat: Any) -> tuple[list[Any], tuple[Any, ...]]:
        return f_flat(*args_flat), args_flat

    def bwd(residual: tuple[Any, ...], cts: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(_call_vjp(exported.vjp(), [*residual, *cts]))

    f_flat.defvjp(fwd, bwd)

    def f_imported(*args: Any, **kwargs: Any) -> Any:
        args_flat, in_tree = tree_flatten((args, kwargs))
        if in_tree != exported.in_tree:
            got = tree_unflatten(in_tree, [0] * in_tree.num_leaves)
            want = tree_unflatten(exported.in_tree, [0] * exported.in_tree.num_leaves)
            lines = "\n".join(
                f"   - {path_str(path)} is a {thing1} in the invocation and a {thing2} when exported, so {why}.\n"
                for path, thing1, thing2, why in equality_errors(got, want)
            )
            raise ValueError(
                "The invocation args and kwargs must have the same pytree structure as when the function "
                f"'{exported.fun_name}' was exported, but they have the following structural differences:\n" + lines
            )
        return tree_unflatten(exported.out_tree, f_flat(*args_flat))

    return f_imported
