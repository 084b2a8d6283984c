"""``lax.cond`` and ``lax.switch``: every branch returns the same type (after the jit-boundary
view, where a Python scalar is an ``Array``), and that type is the result. The annotations
alone join the branch results."""

from __future__ import annotations

from mypy.nodes import ListExpr, TupleExpr
from mypy.plugin import FunctionContext
from mypy.subtypes import is_subtype
from mypy.types import AnyType, Type, get_proper_type

from mypy_plugin import _errors
from mypy_plugin._types import as_callable, as_outputs, fmt


def _result(ctx: FunctionContext, t: Type) -> Type | None:
    c = as_callable(ctx.api, t)
    if c is None or isinstance(get_proper_type(c.ret_type), AnyType):
        return None
    return as_outputs(ctx.api, c.ret_type)


def _same(a: Type, b: Type) -> bool:
    return is_subtype(a, b) and is_subtype(b, a)


def cond_hook(ctx: FunctionContext) -> Type:
    """``cond(pred, true_fun, false_fun, *operands)``."""
    if len(ctx.arg_types) >= 3 and ctx.arg_types[1] and ctx.arg_types[2]:
        a, b = _result(ctx, ctx.arg_types[1][0]), _result(ctx, ctx.arg_types[2][0])
        if a is not None and b is not None and _same(a, b):
            return a
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
    if len(known) == len(results) and known and all(_same(known[0][1], r) for _, r in known):
        return known[0][1]
    for i, r in known[1:]:
        if not _same(known[0][1], r):
            ctx.api.fail(
                f"switch: branch outputs must have identical types, but branch {known[0][0]} returns "
                f"{fmt(ctx.api, known[0][1])} and branch {i} returns {fmt(ctx.api, r)}",
                ctx.context,
                code=_errors.BRANCHES,
            )
            break
    return ctx.default_return_type
