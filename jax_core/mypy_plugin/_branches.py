"""``lax.cond`` and ``lax.switch``: every branch returns the same type (after the jit-boundary
view, where a Python scalar is an ``Array``), and that type is the result. The annotations
alone join the branch results."""

from __future__ import annotations

from mypy.nodes import ListExpr, TupleExpr
from mypy.plugin import FunctionContext
from mypy.subtypes import is_subtype
from mypy.types import AnyType, Instance, Type, get_proper_type

from jax_core.mypy_plugin import _errors
from jax_core.mypy_plugin._types import SCALARS, as_callable, as_outputs, fmt


def _result(ctx: FunctionContext, t: Type) -> Type | None:
    c = as_callable(ctx.api, t)
    if c is None or isinstance(get_proper_type(c.ret_type), AnyType):
        return None
    return c.ret_type


def _scalar_kind(t: Type) -> str | None:
    p = get_proper_type(t)
    return p.type.fullname if isinstance(p, Instance) and p.type.fullname in SCALARS else None


def _same(ctx: FunctionContext, a: Type, b: Type) -> bool:
    """Equal types at the jit boundary: a Python scalar matches an ``Array`` (whose dtype is
    unknown), but two different Python scalar kinds (int, float) give different dtypes."""
    ka, kb = _scalar_kind(a), _scalar_kind(b)
    if ka is not None and kb is not None:
        return ka == kb
    a, b = as_outputs(ctx.api, a), as_outputs(ctx.api, b)
    return is_subtype(a, b) and is_subtype(b, a)


def cond_hook(ctx: FunctionContext) -> Type:
    """``cond(pred, true_fun, false_fun, *operands)``."""
    if len(ctx.arg_types) >= 3 and ctx.arg_types[1] and ctx.arg_types[2]:
        a, b = _result(ctx, ctx.arg_types[1][0]), _result(ctx, ctx.arg_types[2][0])
        if a is not None and b is not None and _same(ctx, a, b):
            return as_outputs(ctx.api, a)
        if a is not None and b is not None:
            ctx.api.fail(
                "cond: true_fun and false_fun output must have identical types, but true_fun returns "
                f"{fmt(ctx.api, a)} and false_fun returns {fmt(ctx.api, b)}",
                ctx.context,
                code=_errors.BRANCHES,
            )
    return ctx.default_return_type


def switch_hook(ctx: FunctionContext) -> Type:
    """``switch(index, branches, *operands)`` with the branches written as a list or tuple."""
    exprs = ctx.args[1] if len(ctx.args) >= 2 else []
    if len(exprs) != 1 or not isinstance(exprs[0], (ListExpr, TupleExpr)):
        return ctx.default_return_type
    results = [_result(ctx, ctx.api.get_expression_type(e)) for e in exprs[0].items]
    known = [(i, r) for i, r in enumerate(results) if r is not None]
    if len(known) == len(results) and known and all(_same(ctx, known[0][1], r) for _, r in known):
        return as_outputs(ctx.api, known[0][1])
    for i, r in known[1:]:
        if not _same(ctx, known[0][1], r):
            ctx.api.fail(
                f"switch: branch outputs must have identical types, but branch {known[0][0]} returns "
                f"{fmt(ctx.api, known[0][1])} and branch {i} returns {fmt(ctx.api, r)}",
                ctx.context,
                code=_errors.BRANCHES,
            )
            break
    return ctx.default_return_type
