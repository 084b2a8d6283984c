"""``shard_map`` (and the deprecated ``jax.experimental.shard_map.shard_map``): a tuple
``in_specs`` is matched against the positional parameters of the function wherever both are
known, in each spelling:

* the call ``shard_map(f, in_specs=...)``;
* the decorator ``@shard_map(in_specs=...)`` and ``shard_map(in_specs=...)(f)``: the decorator
  the call returns is given the name ``DECORATOR``, so mypy calls ``decorator_hook`` where it is
  applied, which reads ``in_specs`` from the ``shard_map(...)`` expression it is applied from (a
  decorator kept in a variable and applied later is not checked);
* ``partial(shard_map, in_specs=...)``, recorded on the ``partial`` as ``_partial`` does for the
  other transformations.

Anything else (``in_specs`` a single spec, a list, a dict, a variable of unknown length; a
function with ``*args``, an overloaded or generic one) is left unchecked. The mapped function
keeps its signature, which the annotations already say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeGuard

from mypy.nodes import CallExpr, Context, Decorator, RefExpr, StarExpr, TupleExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import (
    CallableType,
    Instance,
    LiteralType,
    TupleType,
    Type,
    UnpackType,
    get_proper_type,
)

from jax_core.mypy_plugin import _errors
from jax_core.mypy_plugin._args import Arg, Args, attrs_of, named_args, record_args, recorded_args
from jax_core.mypy_plugin._partial import TRANSFORM_ATTR
from jax_core.mypy_plugin._types import (
    as_callable,
    callable_name,
    checker,
    count,
    has_star_args,
    positional,
)

SHARD_MAP: Final = "jax_core._src.shard_map.api.shard_map"
LEGACY_SHARD_MAP: Final = "jax_core.experimental.shard_map.shard_map"
SHARD_MAPS: Final = (SHARD_MAP, LEGACY_SHARD_MAP)
DECORATOR: Final = "shard_map(...)"
"""The name of the decorator ``shard_map(mesh=..., ...)`` returns (mypy shows it in messages
about that decorator's argument, and calls the hook registered under it where it is applied)."""

_MESSAGE = (
    "pytree structure error: different lengths of tuple at key path shard_map in_specs: "
    "in_specs must be a pytree prefix of the positional arguments passed to the function"
)

FunctionHook = Callable[[FunctionContext], Type]
MethodHook = Callable[[MethodContext], Type]


def _tuple_length(arg: Arg) -> int | None:
    """The number of entries of a fixed-length plain tuple (not a NamedTuple, which JAX sees as
    another pytree node type); None for anything else."""
    p = get_proper_type(arg.type)
    if isinstance(p, TupleType):
        fixed = not any(isinstance(get_proper_type(i), UnpackType) for i in p.items)
        plain = p.partial_fallback.type.fullname == "builtins.tuple"
        return len(p.items) if fixed and plain else None
    if isinstance(arg.expr, TupleExpr) and not any(isinstance(i, StarExpr) for i in arg.expr.items):
        return len(arg.expr.items)
    return None


def check_in_specs(
    api: CheckerPluginInterface, context: Context, specs: Arg | None, fun_type: Type
) -> None:
    """Reports a tuple ``in_specs`` whose length no call of the function can match: JAX matches
    it against the tuple of positional arguments, so it has one entry per argument passed."""
    c = as_callable(api, fun_type)
    n = None if specs is None else _tuple_length(specs)
    if c is None or n is None or has_star_args(c):
        return
    pos = positional(c)
    required = sum(1 for i in pos if c.arg_kinds[i].is_required())
    if not required <= n <= len(pos):
        api.fail(
            f"{_MESSAGE}, but got len(in_specs)={n} while {callable_name(c)} takes "
            f"{count(len(pos), 'positional parameter')}",
            context,
            code=_errors.IN_AXES,
        )


def _function(args: Args) -> Arg | None:
    """The mapped function: ``shard_map``'s positional-only ``f`` (``fun`` to ``named_args``)
    or the deprecated spelling's ``f``."""
    return args.get("fun", args.get("f"))


def shard_map_hook(ctx: FunctionContext) -> Type:
    """``shard_map(f, ...)``: checks ``in_specs``. ``shard_map(...)`` without ``f``: the
    decorator, named so that ``decorator_hook`` checks where it is applied."""
    args = named_args(ctx)
    fun = _function(args)
    if fun is not None:
        check_in_specs(ctx.api, ctx.context, args.get("in_specs"), fun.type)
        return ctx.default_return_type
    decorator = get_proper_type(ctx.default_return_type)
    if isinstance(decorator, CallableType) and decorator.name is None:
        return decorator.copy_modified(name=DECORATOR)  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
    return ctx.default_return_type


def _is_shard_map_call(e: object) -> TypeGuard[CallExpr]:
    return (
        isinstance(e, CallExpr) and isinstance(e.callee, RefExpr) and e.callee.fullname == SHARD_MAP
    )


def _factory_call(context: Context) -> CallExpr | None:
    """The ``shard_map(...)`` expression whose decorator is applied at ``context``: the only such
    decorator of a decorated function, or the callee of ``shard_map(...)(f)``."""
    if isinstance(context, Decorator):
        calls = [d for d in context.decorators if _is_shard_map_call(d)]
        return calls[0] if len(calls) == 1 else None
    if isinstance(context, CallExpr) and isinstance(context.callee, CallExpr):
        return context.callee if _is_shard_map_call(context.callee) else None
    return None


def _keyword_arg(api: CheckerPluginInterface, call: CallExpr, name: str) -> Arg | None:
    """A keyword argument of an already checked call, with the type mypy inferred for it."""
    chk = checker(api)
    for arg_name, expr in zip(call.arg_names, call.args, strict=True):
        if arg_name == name:
            t = chk.lookup_type_or_none(expr) if chk is not None else None
            return None if t is None else Arg(expr, t)
    return None


def decorator_hook(ctx: FunctionContext) -> Type:
    """Applying the decorator ``shard_map(...)`` returned: checks its ``in_specs``, reported at
    that ``shard_map(...)`` (the line of its decorator, when several decorate the function)."""
    call = _factory_call(ctx.context)
    if call is not None and len(ctx.arg_types) == 1 and len(ctx.arg_types[0]) == 1:
        check_in_specs(ctx.api, call, _keyword_arg(ctx.api, call, "in_specs"), ctx.arg_types[0][0])
    return ctx.default_return_type


def partial_new_hook(ctx: FunctionContext, *, fallback: FunctionHook) -> Type:
    """``partial(shard_map, **options)``: what ``fallback`` (the other transformations' and
    mypy's own ``partial`` support) makes of it, with the options recorded on it."""
    result = fallback(ctx)
    callee = ctx.args[0][0] if ctx.args and len(ctx.args[0]) == 1 else None
    fullname = callee.fullname if isinstance(callee, RefExpr) else None
    p = get_proper_type(result)
    if (
        fullname not in SHARD_MAPS
        or len(ctx.args) != 3
        or ctx.args[1]
        or not isinstance(p, Instance)
    ):
        return result
    str_type = ctx.api.named_generic_type("builtins.str", [])
    out = p.copy_with_extra_attr(TRANSFORM_ATTR, LiteralType(fullname, str_type))
    keywords = {n: t for n, t in zip(ctx.arg_names[2], ctx.arg_types[2], strict=True) if n}
    return record_args(out, keywords)


def partial_call_hook(ctx: MethodContext, *, fallback: MethodHook) -> Type:
    """Applying ``partial(shard_map, **options)`` to a function: checks ``in_specs``; the result
    has the function's signature (mypy's ``partial`` support gives ``Any`` for the overloaded
    ``shard_map``). Any other ``partial`` is ``fallback``'s alone."""
    result = fallback(ctx)
    which = get_proper_type(attrs_of(ctx.type).get(TRANSFORM_ATTR))
    if not isinstance(which, LiteralType) or which.value not in SHARD_MAPS:
        return result
    if len(ctx.arg_types) != 2 or len(ctx.arg_types[0]) != 1:
        return result
    fun = ctx.arg_types[0][0]
    args = recorded_args(ctx.type)
    args.update(
        {n: Arg(None, t) for n, t in zip(ctx.arg_names[1], ctx.arg_types[1], strict=True) if n}
    )
    check_in_specs(ctx.api, ctx.context, args.get("in_specs"), fun)
    return as_callable(ctx.api, fun) or result
