"""``vmap`` (``in_axes`` against the positional parameters; batched results are arrays) and
``checkpoint``/``remat`` (``static_argnums`` in range)."""

from __future__ import annotations

from mypy.nodes import Context, DictExpr, Expression, ListExpr, TupleExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import (
    AnyType,
    Instance,
    NoneType,
    TupleType,
    Type,
    TypedDictType,
    UnionType,
    get_proper_type,
)

from jax_core.mypy_plugin import _errors
from jax_core.mypy_plugin._args import Args, ints, named_args, value
from jax_core.mypy_plugin._types import (
    as_callable,
    as_outputs,
    callable_name,
    count,
    fmt,
    has_star_args,
    normalize_index,
    positional,
)

_MESSAGE = (
    "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
    "arguments passed to the function"
)


def _bad_axis_entry(t: Type) -> Type | None:
    """The first part of an ``in_axes`` entry that is not an int, None or a container of those."""
    p = get_proper_type(t)
    if isinstance(p, (AnyType, NoneType)):
        return None
    if isinstance(p, Instance):
        name = p.type.fullname
        if name == "builtins.int":
            return None
        if name in ("builtins.list", "builtins.dict", "builtins.tuple") and p.args:
            return _bad_axis_entry(p.args[-1])
        return p
    if isinstance(p, (TupleType, UnionType)):
        return next((b for b in map(_bad_axis_entry, p.items) if b is not None), None)
    if isinstance(p, TypedDictType):
        return next((b for b in map(_bad_axis_entry, p.items.values()) if b is not None), None)
    return p


def _bad_axis_expr(api: CheckerPluginInterface, e: Expression) -> Type | None:
    """``_bad_axis_entry`` on an expression, looking inside literal tuples, lists and dicts
    (whose own inferred types are ``Any``-filled in ``in_axes``'s ``Sequence[Any]`` context)."""
    if isinstance(e, (TupleExpr, ListExpr)):
        return next((b for b in (_bad_axis_expr(api, i) for i in e.items) if b is not None), None)
    if isinstance(e, DictExpr):
        return next(
            (b for b in (_bad_axis_expr(api, v) for _, v in e.items) if b is not None), None
        )
    return _bad_axis_entry(api.get_expression_type(e))


def check_in_axes(
    api: CheckerPluginInterface, context: Context, args: Args, fun_type: Type
) -> None:
    """``in_axes``: a tuple (or a list, which JAX treats as a tuple at the top level) has one
    entry per positional parameter; every entry is an int, None or a pytree prefix of those."""
    c = as_callable(api, fun_type)
    axes = args.get("in_axes")
    if axes is None or c is None:
        return
    p = get_proper_type(axes.type)
    n_entries: int | None = None
    if isinstance(p, TupleType):
        n_entries = len(p.items)
    elif isinstance(axes.expr, ListExpr):
        n_entries = len(axes.expr.items)
    if n_entries is not None:
        pos = positional(c)
        required = sum(1 for i in pos if c.arg_kinds[i].is_required())
        if not has_star_args(c) and not required <= n_entries <= len(pos):
            api.fail(
                f"{_MESSAGE}, but got len(in_axes)={n_entries} while {callable_name(c)} takes "
                f"{count(len(pos), 'positional parameter')}",
                context,
                code=_errors.IN_AXES,
            )
    for bad in _bad_entries(api, axes.expr, p):
        if bad is not None:
            api.fail(
                f"vmap in_axes entries must be an int, None or a pytree prefix of the argument made of "
                f"those, but got {fmt(api, bad)}",
                context,
                code=_errors.IN_AXES,
            )
            return


def _bad_entries(
    api: CheckerPluginInterface, expr: Expression | None, t: Type
) -> list[Type | None]:
    """Per ``in_axes`` entry, its first invalid part (None where it is valid)."""
    if isinstance(expr, (TupleExpr, ListExpr)):
        return [_bad_axis_expr(api, e) for e in expr.items]
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return [_bad_axis_entry(i) for i in p.items]
    if isinstance(p, Instance) and p.type.fullname == "builtins.list" and p.args:
        return [_bad_axis_entry(p.args[0])]  # a list's entries: one type for all
    return [_bad_axis_entry(p)]


def vmap_hook(ctx: FunctionContext) -> Type:
    """``vmap(f, in_axes, ...)``: checks ``in_axes``; the result keeps ``f``'s parameters and
    returns arrays where ``f`` returns Python scalars."""
    args = named_args(ctx)
    fun = args.get("fun")
    if fun is None:
        return ctx.default_return_type
    return make_vmapped(ctx.api, ctx.context, fun.type, args, ctx.default_return_type)


def make_vmapped(
    api: CheckerPluginInterface, context: Context, fun_type: Type, args: Args, default: Type
) -> Type:
    """The type of ``vmap(fun, **args)``."""
    check_in_axes(api, context, args, fun_type)
    c = as_callable(api, fun_type)
    if c is None:
        return default
    return c.copy_modified(ret_type=as_outputs(api, c.ret_type))  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)


def checkpoint_hook(ctx: FunctionContext) -> Type:
    """``checkpoint(f, static_argnums=...)``: the indices must name positional parameters."""
    args = named_args(ctx)
    fun = args.get("fun")
    if fun is not None:
        check_checkpoint_static(ctx.api, ctx.context, args, fun.type)
    return ctx.default_return_type


def check_checkpoint_static(
    api: CheckerPluginInterface, context: Context, args: Args, fun_type: Type
) -> None:
    """Reports ``static_argnums`` that do not name a positional parameter of ``fun``."""
    c = as_callable(api, fun_type)
    nums = ints(value(args.get("static_argnums")))
    if c is None or nums is None or has_star_args(c):
        return
    n = len(positional(c))
    if any(normalize_index(i, n) is None for i in nums):
        api.fail(
            "the `static_argnums` argument to `jax.checkpoint` / `jax.remat` can only take integer values "
            f"greater than or equal to `-len(args)` and less than `len(args)`, but got {nums}, while "
            f"{callable_name(c)} takes {count(n, 'positional parameter')}",
            context,
            code=_errors.STATIC,
        )
