"""JAX's ``jax.interpreters.mlir`` API for writing lowering rules, over ``Rules.lower``.

A lowering rule is ``rule(ctx, *operands, **params)``: ``ctx`` a ``LoweringRuleContext``
(``avals_in``, ``avals_out``, the module being lowered), ``operands`` the ``ir.Value``s of the
equation's inputs; it returns the output values (a sequence, e.g. an op's ``.results``, or one
value). ``register_lowering`` stores it as the primitive's ``Rules.lower``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias, overload

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import LowerRule, Primitive
from jax_core._src.interpreters.staging import DebugInfo, trace_to_jaxpr
from jax_core._src.lib.mlir import hlo as hlo
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering import ir_types
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, ModuleContext, lower_jaxpr_body

IrValues: TypeAlias = "ir.Value[ir.Type] | Sequence[ir.Value[ir.Type]]"
"""What a rule returns per output: one value (or, for JAX's multi-value types, a sequence)."""

LoweringRule: TypeAlias = LowerRule
"""``rule(ctx: LoweringRuleContext, *operands: ir.Value, **params) -> values``."""

_PLATFORMS = frozenset(("cpu", "cuda", "rocm", "gpu", "tpu", "METAL"))
_other_platforms: dict[tuple[Primitive, str], LoweringRule] = {}


def register_lowering(
    prim: Primitive, rule: LoweringRule, platform: str | None = None, inline: bool = True, cacheable: bool = True
) -> None:
    """Registers ``rule`` as ``prim``'s lowering (``Rules.lower``), for every platform or, with
    ``platform``, only that one. jax_core compiles for the CPU, so a rule for another platform is
    kept but never used. ``inline``/``cacheable`` are accepted as JAX's and have no effect (rules
    are always emitted inline)."""
    del inline, cacheable
    if not isinstance(prim, Primitive):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"register_lowering takes a Primitive; got {type(prim).__name__}")
    if not callable(rule):
        raise TypeError(f"The lowering rule of '{prim.name}' must be callable; got {rule!r}")
    if platform is None or platform == "cpu":
        prim.update_rules(lower=rule)
        return
    if platform not in _PLATFORMS:
        raise ValueError(f"Unknown platform {platform!r} in register_lowering for '{prim.name}'; known: {sorted(_PLATFORMS)}")
    _other_platforms[(prim, platform)] = rule


def lower_fun(fun: Callable[..., Any], multiple_results: bool = True) -> LoweringRule:
    """A lowering rule that traces ``fun(*operands, **params)`` (a function of arrays, written with
    ``jax_core.numpy``/``lax``) on the equation's avals and emits its ops inline; ``fun`` returns a
    sequence of arrays when ``multiple_results``, one array otherwise."""

    def rule(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], **params: Any) -> list[ir.Value[ir.Type]]:
        def flat(*xs: Any) -> list[Any]:
            out = fun(*xs, **params)
            return list(out) if multiple_results else [out]

        closed = trace_to_jaxpr(flat, list(ctx.avals_in), DebugInfo("lowering", fun))
        consts = [hlo_util.constant(np.asarray(c)) for c in closed.consts]
        return lower_jaxpr_body(closed.jaxpr, consts, args)

    return rule


def ir_constant(val: Any, *, const_lowering: object = None, aval: ShapedArray | None = None) -> ir.Value[ir.Type]:
    """A StableHLO constant of ``val`` (a scalar or array; ``aval`` gives its dtype)."""
    del const_lowering
    return hlo_util.constant(val, None if aval is None else aval.dtype)


def ir_constants(val: Any, *, const_lowering: object = None, aval: ShapedArray | None = None) -> tuple[ir.Value[ir.Type], ...]:
    """``(ir_constant(val),)``: JAX's form for values that may lower to several IR values."""
    return (ir_constant(val, const_lowering=const_lowering, aval=aval),)


@overload
def aval_to_ir_type(aval: ShapedArray, /) -> ir.Type: ...
@overload
def aval_to_ir_type(ctx: ModuleContext | None, aval: ShapedArray, /) -> ir.Type: ...
def aval_to_ir_type(*args: Any) -> ir.Type:
    """The IR type of values of an aval: ``aval_to_ir_type(aval)`` or, as JAX 0.12 spells it,
    ``aval_to_ir_type(module_context, aval)``."""
    aval = args[-1]
    if not isinstance(aval, ShapedArray) or len(args) > 2:
        raise TypeError(f"aval_to_ir_type takes ([module_context,] aval); got {args!r}")
    return ir_types.value_ir_type(aval)


@overload
def aval_to_ir_types(aval: ShapedArray, /) -> tuple[ir.Type, ...]: ...
@overload
def aval_to_ir_types(ctx: ModuleContext | None, aval: ShapedArray, /) -> tuple[ir.Type, ...]: ...
def aval_to_ir_types(*args: Any) -> tuple[ir.Type, ...]:
    """``(aval_to_ir_type(...),)``."""
    return (aval_to_ir_type(*args),)


def dtype_to_ir_type(dtype: Any) -> ir.Type:
    """The IR element type of ``dtype``."""
    return ir_types.dtype_to_ir_type(np.dtype(dtype))


def token_type() -> ir.Type:
    """``!stablehlo.token``."""
    return hlo_util.token_type()


def i32_attr(i: int) -> ir.IntegerAttr:
    """A signless 32-bit integer attribute."""
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(32), i)


def i64_attr(i: int) -> ir.IntegerAttr:
    """A signless 64-bit integer attribute."""
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), i)


def dense_int_array(xs: Sequence[int]) -> ir.DenseI64ArrayAttr:
    """A ``DenseI64ArrayAttr`` (``array<i64: ...>``)."""
    return hlo_util.i64_list(xs)


def dense_int_elements(xs: Sequence[int]) -> ir.DenseElementsAttr:
    """A 1-D ``i64`` dense elements attribute."""
    return ir.DenseElementsAttr.get(np.asarray(xs, np.int64), type=ir.IntegerType.get_signless(64))


def flatten_ir_values(xs: Iterable[IrValues]) -> list[ir.Value[ir.Type]]:
    """One list of the values of ``xs`` (each a value or a sequence of values)."""
    out: list[ir.Value[ir.Type]] = []
    for x in xs:
        if isinstance(x, ir.Value):
            out.append(x)
        else:
            out.extend(x)
    return out


def flatten_ir_types(xs: Iterable[ir.Type | Sequence[ir.Type]]) -> list[ir.Type]:
    """One list of the types of ``xs`` (each a type or a sequence of types)."""
    out: list[ir.Type] = []
    for x in xs:
        if isinstance(x, ir.Type):
            out.append(x)
        else:
            out.extend(x)
    return out


def unflatten_ir_values_like_types(xs: Iterable[ir.Value[ir.Type]], ys: Sequence[ir.Type | Sequence[ir.Type]]) -> list[IrValues]:
    """``xs`` grouped as ``ys`` groups types (one value per type, a tuple per sequence of types)."""
    it = iter(xs)
    out: list[IrValues] = []
    for y in ys:
        out.append(next(it) if isinstance(y, ir.Type) else tuple(next(it) for _ in y))
    if next(it, None) is not None:
        raise ValueError("unflatten_ir_values_like_types: more values than types")
    return out


def module_to_string(module: ir.Module, enable_debug_info: bool | None = None) -> str:
    """The module as MLIR text (with locations when ``enable_debug_info``)."""
    return str(module.operation.get_asm(enable_debug_info=bool(enable_debug_info)))


def module_to_bytecode(module: ir.Module) -> bytes:
    """The module as MLIR bytecode."""
    import io

    out = io.BytesIO()
    module.operation.write_bytecode(out)
    return out.getvalue()


def make_ir_context() -> ir.Context:
    """An MLIR context with jaxlib's dialects registered."""
    return ir_types.make_ir_context()

