"""Lowering a jaxpr to a StableHLO module: one lowering rule per equation."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jax_core._src.core.primitive import LowerRule
from jax_core._src.lib.mlir import func, ir
from jax_core._src.lowering import hlo
from jax_core._src.lowering.ir_types import make_ir_context, value_ir_type


@dataclasses.dataclass(frozen=True)
class LoweringRuleContext:
    """What a lowering rule knows besides its operands: input and output avals."""

    avals_in: Sequence[ShapedArray]
    avals_out: Sequence[ShapedArray]

    def lower_jaxpr(
        self, jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[ir.Value[ir.Type]]
    ) -> list[ir.Value[ir.Type]]:
        """Lowers a sub-jaxpr inline (for call-like primitives such as ``jit``)."""
        return lower_jaxpr_body(jaxpr, [hlo.constant(c) for c in consts], args)


def lower_jaxpr_body(
    jaxpr: Jaxpr, consts: Sequence[ir.Value[ir.Type]], args: Sequence[ir.Value[ir.Type]]
) -> list[ir.Value[ir.Type]]:
    """Emits the ops of ``jaxpr`` at the current insertion point; returns its outputs."""
    env: dict[Var, ir.Value[ir.Type]] = {}

    def read(a: Var | Literal) -> ir.Value[ir.Type]:
        if isinstance(a, Literal):
            return hlo.constant(np.asarray(a.val, a.aval.dtype))
        return env[a]

    for v, x in zip(jaxpr.constvars, consts, strict=True):
        env[v] = x
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x
    for eqn in jaxpr.eqns:
        rule = _lowering_rule(eqn)
        if rule is None:
            raise NotImplementedError(f"MLIR translation rule for primitive '{eqn.primitive.name}' not found")
        ctx = LoweringRuleContext([a.aval for a in eqn.invars], [v.aval for v in eqn.outvars])
        names = eqn.source_info.name_stack if eqn.source_info is not None else ()
        if names:  # named_scope: the op's location names it (and XLA's op_name metadata)
            with ir.Location.name("/".join((*names, eqn.primitive.name))):
                out = rule(ctx, *map(read, eqn.invars), **eqn.params)
        else:
            out = rule(ctx, *map(read, eqn.invars), **eqn.params)
        outs: Sequence[ir.Value[ir.Type]] = [out] if isinstance(out, ir.Value) else out
        if len(outs) != len(eqn.outvars):
            raise AssertionError(f"lowering of '{eqn.primitive.name}' returned {len(outs)} values, expected {len(eqn.outvars)}")
        for v, x in zip(eqn.outvars, outs):
            env[v] = x
    return [read(a) for a in jaxpr.outvars]


def _lowering_rule(eqn: JaxprEqn) -> LowerRule | None:
    """The primitive's rule, or the one an extended dtype (a PRNG key) among its avals gives."""
    rule = eqn.primitive.rules.lower
    for v in (*eqn.invars, *eqn.outvars):
        dt = v.aval.dtype
        if dtypes.is_extended_dtype(dt):
            ext_rule: LowerRule | None = dt._rules.lowering_rule(eqn, rule)  # pyright: ignore[reportPrivateUsage]
            return ext_rule
    return rule


@dataclasses.dataclass(frozen=True)
class LoweredModule:
    """A lowered StableHLO module and the facts the runtime needs to compile and call it."""

    module: ir.Module
    context: ir.Context
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    donated_invars: tuple[bool, ...]

    def as_text(self, debug_info: bool = False) -> str:
        """The module as MLIR text (StableHLO); ``debug_info``: with the ops' locations."""
        if not debug_info:
            return str(self.module)
        with self.context:
            return str(self.module.operation.get_asm(enable_debug_info=True))


def _module_name(name: str) -> str:
    # As JAX: characters XLA would alter become ``_``, and trailing ``_`` go (``jit__lambda``).
    return re.sub(r"[^\w.-]", "_", "jit_" + name).rstrip("_")


def lower_closed_jaxpr(
    closed: ClosedJaxpr,
    name: str,
    *,
    donated_invars: Sequence[bool] | None = None,
) -> LoweredModule:
    """Lowers a closed jaxpr to a module whose ``main`` takes the jaxpr's inputs."""
    jaxpr = closed.jaxpr
    in_avals = tuple(jaxpr.in_avals)
    out_avals = tuple(jaxpr.out_avals)
    donated = tuple(donated_invars) if donated_invars is not None else (False,) * len(in_avals)
    ctx = make_ir_context()
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        module.operation.attributes["sym_name"] = ir.StringAttr.get(_module_name(name))
        i32 = ir.IntegerType.get_signless(32)
        module.operation.attributes["mhlo.num_partitions"] = ir.IntegerAttr.get(i32, 1)
        module.operation.attributes["mhlo.num_replicas"] = ir.IntegerAttr.get(i32, 1)
        in_types = [value_ir_type(a) for a in in_avals]
        out_types = [value_ir_type(a) for a in out_avals]
        with ir.InsertionPoint(module.body):
            fn = func.FuncOp("main", ir.FunctionType.get(in_types, out_types))
            fn.attributes["sym_visibility"] = ir.StringAttr.get("public")
            arg_attrs: list[ir.Attribute] = []
            aliased: set[int] = set()
            for i, aval in enumerate(in_avals):
                attrs: dict[str, ir.Attribute] = {}
                if donated[i]:
                    out_index = next(
                        (j for j, o in enumerate(out_avals) if j not in aliased and o.shape == aval.shape and o.dtype == aval.dtype),
                        None,
                    )
                    if out_index is not None:
                        aliased.add(out_index)
                        attrs["tf.aliasing_output"] = ir.IntegerAttr.get(i32, out_index)
                arg_attrs.append(ir.DictAttr.get(attrs))
            fn.arg_attrs = ir.ArrayAttr.get(arg_attrs)
            fn.result_attrs = ir.ArrayAttr.get(
                [ir.DictAttr.get({"jax.result_info": ir.StringAttr.get(_result_info(i, len(out_avals)))}) for i in range(len(out_avals))]
            )
            entry = fn.add_entry_block()
            with ir.InsertionPoint(entry):
                consts = [hlo.constant(c) for c in closed.consts]
                params: list[ir.Value[ir.Type]] = list(entry.arguments)
                outs = lower_jaxpr_body(jaxpr, consts, params)
                func.ReturnOp(outs)
    return LoweredModule(module, ctx, in_avals, out_avals, donated)


def _result_info(i: int, n: int) -> str:
    return "result" if n == 1 else f"result[{i}]"
