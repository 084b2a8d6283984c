"""Rule factories shared by lax primitives: abstract evaluation and lowering of op families."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing.basearray import Array

DTypeRule: TypeAlias = Callable[[np.dtype[Any]], bool]
"""Whether an op accepts operands of a dtype."""


def is_float(d: np.dtype[Any]) -> bool:
    """Floating (incl. bfloat16) or complex."""
    return dtypes.issubdtype(d, np.inexact)


def is_real_float(d: np.dtype[Any]) -> bool:
    """Real floating, incl. bfloat16."""
    return dtypes.issubdtype(d, np.floating)


def is_int(d: np.dtype[Any]) -> bool:
    """Signed or unsigned integer."""
    return dtypes.issubdtype(d, np.integer)


def is_int_or_bool(d: np.dtype[Any]) -> bool:
    """Integer or bool."""
    return d == np.bool_ or dtypes.issubdtype(d, np.integer)


def is_number(d: np.dtype[Any]) -> bool:
    """Any numeric dtype (not bool)."""
    return d != np.bool_ and (dtypes.issubdtype(d, np.number))


def is_signed_number(d: np.dtype[Any]) -> bool:
    """Signed integer, floating or complex: what ``abs`` accepts."""
    return dtypes.issubdtype(d, np.signedinteger) or dtypes.issubdtype(d, np.inexact)


def is_int_or_real_float(d: np.dtype[Any]) -> bool:
    """Integer or real floating: what ``rem`` accepts."""
    return is_int(d) or is_real_float(d)


def is_any(d: np.dtype[Any]) -> bool:
    """Every dtype."""
    return True


DTYPE_CLASS_NAMES: dict[DTypeRule, str] = {
    is_float: "floating, complexfloating",
    is_real_float: "floating",
    is_int: "integer",
    is_int_or_bool: "integer, bool",
    is_number: "integer, complexfloating, floating",
    is_signed_number: "floating, complexfloating, signedinteger",
    is_int_or_real_float: "integer, floating",
    is_any: "any",
}
"""How lax's dtype errors name the dtypes each rule accepts."""


def unop_abstract_eval(name: str, accepts: DTypeRule, result_dtype: Callable[[np.dtype[Any]], np.dtype[Any]] | None = None) -> Callable[..., ShapedArray]:
    """Abstract evaluation of an elementwise unary op: same shape, dtype checked."""

    def rule(x: ShapedArray, **params: Any) -> ShapedArray:
        if not accepts(x.dtype):
            raise TypeError(
                f"{name} does not accept dtype {x.dtype.name}. Accepted dtypes are subtypes of "
                f"{DTYPE_CLASS_NAMES.get(accepts, 'the supported types')}."
            )
        dt = x.dtype if result_dtype is None else result_dtype(x.dtype)
        return ShapedArray(x.shape, dt, x.weak_type)

    return rule


def naryop_abstract_eval(name: str, accepts: DTypeRule, result_dtype: np.dtype[Any] | None = None) -> Callable[..., ShapedArray]:
    """Abstract evaluation of an elementwise n-ary op: equal shapes and dtypes, as lax requires."""

    def rule(*avals: ShapedArray, **params: Any) -> ShapedArray:
        for i, a in enumerate(avals):
            if not accepts(a.dtype):
                raise TypeError(
                    f"{name} does not accept dtype {a.dtype.name} at position {i}. Accepted dtypes at position {i} are "
                    f"subtypes of {DTYPE_CLASS_NAMES.get(accepts, 'the supported types')}."
                )
        first = avals[0]
        if any(a.dtype != first.dtype for a in avals[1:]):
            got = ", ".join(a.dtype.name for a in avals)
            raise TypeError(
                f"lax.{name} requires arguments to have the same dtypes, got {got}. "
                f"(Tip: jnp.{name} is a similar function that does automatic type promotion on inputs)."
            )
        shape = broadcast_shapes(name, *(a.shape for a in avals))
        weak = all(a.weak_type for a in avals)
        return ShapedArray(shape, first.dtype if result_dtype is None else result_dtype, weak and result_dtype is None)

    return rule


def broadcast_shapes(name: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    """lax's broadcasting of operand shapes: equal ranks (or rank 0), sizes equal or 1."""
    ranks = {len(s) for s in shapes if s}  # rank-0 operands broadcast; others need equal ranks
    if len(ranks) > 1:
        raise TypeError(f"{name}: arrays must have the same number of dimensions, got {ranks}")
    return numpy_broadcast_shapes(name, *shapes)


def numpy_broadcast_shapes(name: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy-style broadcasting of shapes (ranks padded on the left), with lax's message."""
    if all(s == shapes[0] for s in shapes[1:]):
        return shapes[0]
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + s for s in shapes]
    out: list[int] = []
    for dims in zip(*padded):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            got = ", ".join(str(s) for s in shapes)
            raise TypeError(f"{name} got incompatible shapes for broadcasting: {got}.")
        out.append(sizes.pop() if sizes else 1)
    return tuple(out)


def broadcast_operands(
    ctx: LoweringRuleContext, args: Sequence[ir.Value[Any]], shape: tuple[int, ...] | None = None
) -> list[ir.Value[Any]]:
    """Broadcasts lowered operands to the output shape (lax's implicit rank promotion)."""
    from jax_core._src.lowering import hlo as hlo_util

    target = ctx.avals_out[0].shape if shape is None else shape
    out: list[ir.Value[Any]] = []
    for x, aval in zip(args, ctx.avals_in):
        if aval.shape != target:
            dims = range(len(target) - aval.ndim, len(target))
            x = hlo_util.broadcast_in_dim(x, ShapedArray(target, aval.dtype), dims)
        out.append(x)
    return out


def lower_with(op: Callable[..., ir.Value[Any]]) -> Callable[..., ir.Value[Any]]:
    """A lowering rule that applies one StableHLO op builder to the operands."""

    def rule(ctx: LoweringRuleContext, *args: ir.Value[Any], **params: Any) -> ir.Value[Any]:
        return op(*broadcast_operands(ctx, args)) if len(args) > 1 else op(*args)

    return rule


def same_shape(avals: Sequence[ShapedArray]) -> bool:
    """Whether all avals have one shape."""
    return all(a.shape == avals[0].shape for a in avals)


def bind_one(prim: Primitive, *args: Any, **params: Any) -> Array:
    """Binds a one-result primitive (typed: the result is an ``Array``)."""
    out: Array = prim.bind(*args, **params)
    return out


def no_jvp(name: str) -> Callable[..., Any]:
    """The jvp rule of a primitive JAX does not differentiate: raises JAX's error."""

    def rule(*args: Any, **params: Any) -> Any:
        raise NotImplementedError(f"Differentiation rule for '{name}' not implemented")

    return rule


def no_batch(name: str) -> Callable[..., Any]:
    """The batching rule of a primitive JAX does not batch: raises JAX's error."""

    def rule(*args: Any, **params: Any) -> Any:
        raise NotImplementedError(f"Batching rule for '{name}' not implemented")

    return rule
