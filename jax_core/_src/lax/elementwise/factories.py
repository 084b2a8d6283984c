"""What every elementwise primitive is built with: its registration (``unop``, ``binop``,
``compare``, ``register``), the jvp and transpose rule factories, and small helpers.

An elementwise primitive's block (in ``arithmetic.py``, ``transcendental.py``, ``bitwise.py``,
``comparisons.py``) is its typed wrapper followed by one call of these factories with its
abstract eval, lowering and derivative rules; unary primitives batch as they are, n-ary ones
broadcast their operands (``broadcast_batcher``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np

from jax_core._src.core.primitive import AbstractEvalRule, LowerRule, Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad_util import (
    JvpRule,
    TransposeRule,
    is_undefined_primal,
    per_arg_jvp,
    per_arg_jvp_with_ans,
    unbroadcast,
    zero_jvp,
)
from jax_core._src.interpreters.batching_util import (
    broadcast_batcher,
    vectorized_batcher,
)
from jax_core._src.lax.standard_rules import (
    DTypeRule,
    broadcast_operands,
    is_any,
    lower_with,
    naryop_abstract_eval,
    unop_abstract_eval,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext

UnaryLowering = Callable[[ir.Value[Any]], ir.Value[Any]]
"""Builds the StableHLO of an elementwise unary op from its operand."""
BinaryLowering = Callable[[ir.Value[Any], ir.Value[Any]], ir.Value[Any]]
"""Builds the StableHLO of an elementwise binary op from its (broadcast) operands."""


JvpFactory: TypeAlias = Callable[[Primitive], JvpRule]
"""Builds a primitive's jvp rule from the primitive (rules bind it for the primal output)."""
D1: TypeAlias = Callable[[Any, Any], Any]
"""``(g, x) -> tangent contribution`` of a unary op (JAX's ``defjvp``)."""
D2: TypeAlias = Callable[[Any, Any, Any], Any]
"""``(g, ans, x) -> tangent contribution`` of a unary op (JAX's ``defjvp2``)."""
B: TypeAlias = Callable[[Any, Any, Any], Any]
"""``(g, x, y) -> tangent contribution`` for one operand of a binary op."""
B2: TypeAlias = Callable[[Any, Any, Any, Any], Any]
"""``(g, ans, x, y) -> tangent contribution`` for one operand of a binary op."""




def register(
    prim: Primitive,
    abstract_eval: AbstractEvalRule,
    lower: LowerRule,
    *,
    jvp: JvpFactory,
    transpose: TransposeRule | None = None,
    unary: bool,
) -> Primitive:
    """Registers ``prim``'s rules; a unary primitive batches as is, an n-ary one broadcasts."""
    prim.def_rules(
        Rules(
            abstract_eval=abstract_eval,
            lower=lower,
            jvp=jvp(prim),
            transpose=transpose,
            batch=vectorized_batcher(prim) if unary else broadcast_batcher(prim),
        )
    )
    return prim


def unop(
    name: str,
    accepts: DTypeRule,
    op: UnaryLowering,
    result_dtype: Callable[[np.dtype[Any]], np.dtype[Any]] | None = None,
    *,
    jvp: JvpFactory,
    transpose: TransposeRule | None = None,
) -> Primitive:
    """A unary elementwise primitive lowered to one StableHLO/CHLO op."""
    return register(
        Primitive(name),
        unop_abstract_eval(name, accepts, result_dtype),
        lower_with(op),
        jvp=jvp,
        transpose=transpose,
        unary=True,
    )


def binop(
    name: str,
    accepts: DTypeRule,
    op: BinaryLowering,
    *,
    jvp: JvpFactory,
    transpose: TransposeRule | None = None,
) -> Primitive:
    """A binary elementwise primitive (operands broadcast NumPy-style) lowered to one op."""
    return register(
        Primitive(name),
        naryop_abstract_eval(name, accepts),
        lower_with(op),
        jvp=jvp,
        transpose=transpose,
        unary=False,
    )


# -- comparisons ----------------------------------------------------------------------
def compare(name: str, direction: str, accepts: DTypeRule = is_any) -> Primitive:
    """A comparison (boolean result, zero derivative) lowered to ``stablehlo.compare``."""
    prim = Primitive(name)

    def lower(ctx: LoweringRuleContext, x: ir.Value[Any], y: ir.Value[Any]) -> ir.Value[Any]:
        x, y = broadcast_operands(ctx, (x, y))
        return hlo_util.compare(x, y, direction, ctx.avals_in[0].dtype)

    return register(
        prim,
        naryop_abstract_eval(name, accepts, np.dtype(np.bool_)),
        lower,
        jvp=zero_jvp,
        unary=False,
    )


# -- small helpers --------------------------------------------------------------------------
def dtype_of(x: Any) -> np.dtype[Any]:
    """The dtype of a value or tracer."""
    return get_aval(x).dtype


def splat_like(x: ir.Value[Any], value: float) -> ir.Value[Any]:
    """An MLIR constant of ``x``'s tensor type filled with ``value`` (``value + 0j`` when complex)."""
    t = ir.RankedTensorType(x.type)
    elt = t.element_type

    def splat(part: ir.Type, v: float) -> ir.Value[Any]:
        attr = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], part), ir.FloatAttr.get(part, v))
        out: ir.Value[Any] = hlo.constant(attr)
        return out

    if isinstance(elt, ir.ComplexType):  # value + 0j
        part = elt.element_type
        scalar = hlo.complex(splat(part, value), splat(part, 0.0))
    else:
        scalar = splat(elt, value)
    return dynamic_shapes.broadcast_like(t, scalar, x)


def const_like(x: Any, value: float) -> np.ndarray[Any, Any]:
    """A scalar constant of ``x``'s dtype (lax ops broadcast rank-0 operands)."""
    return np.asarray(value, dtype_of(x))


def full_like_value(x: Any, value: float) -> Any:
    """An array of ``x``'s shape and dtype filled with ``value``."""
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

    return broadcast_in_dim(const_like(x, value), get_aval(x).shape, ())


def iscomplex(x: Any) -> bool:
    """Whether ``x`` has a complex dtype."""
    return dtype_of(x).kind == "c"


# -- jvp factories --------------------------------------------------------------------------
def d(fn: D1) -> JvpFactory:
    def d(g: Any, x: Any, **params: Any) -> Any:
        return fn(g, x)

    return lambda prim: per_arg_jvp(prim, d)


def d2(fn: D2) -> JvpFactory:
    def d(g: Any, ans: Any, x: Any, **params: Any) -> Any:
        return fn(g, ans, x)

    return lambda prim: per_arg_jvp_with_ans(prim, d)


def db(dx: B | None, dy: B | None) -> JvpFactory:
    return lambda prim: per_arg_jvp(prim, dx, dy)


def d2b(dx: B2, dy: B2) -> JvpFactory:
    return lambda prim: per_arg_jvp_with_ans(prim, dx, dy)


# -- transposes of the linear ones ----------------------------------------------------------
def unary_transpose(fn: Callable[[Any], Any]) -> TransposeRule:
    def rule(ct: Any, x: Any, **params: Any) -> list[Any]:
        return [fn(ct)]

    return rule


def binary_transpose(fx: Callable[[Any, Any], Any], fy: Callable[[Any, Any], Any]) -> TransposeRule:
    """``fx(ct, y)``/``fy(ct, x)`` give the (output-shaped) cotangent of x/y when it is linear."""

    def rule(ct: Any, x: Any, y: Any) -> list[Any]:
        return [
            unbroadcast(x.aval, fx(ct, y)) if is_undefined_primal(x) else None,
            unbroadcast(y.aval, fy(ct, x)) if is_undefined_primal(y) else None,
        ]

    return rule


def is_traced(x: object) -> bool:
    """Whether ``x`` is a tracer."""
    return isinstance(x, Tracer)
