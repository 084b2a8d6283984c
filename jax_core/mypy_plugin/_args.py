"""Reading the arguments of a transformation call: the values of literal ``argnums``,
``static_argnames``, ``has_aux``... from their inferred types, or from the expressions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

from mypy.nodes import Expression, IntExpr, ListExpr, NameExpr, StrExpr, TupleExpr, UnaryExpr
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Instance, LiteralType, NoneType, TupleType, Type, get_proper_type


class _Unknown:
    """The value of an argument the plugin cannot know statically (e.g. a variable of type int)."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = _Unknown()
Value = int | str | bool | None | tuple["Value", ...] | _Unknown


class Arg(NamedTuple):
    """One actual argument: its expression (absent when it comes from a stored ``partial``) and type."""

    expr: Expression | None
    type: Type


Args = Mapping[str, Arg]


def named_args(ctx: FunctionContext | MethodContext) -> dict[str, Arg]:
    """The call's arguments by the callee's parameter names (single-valued parameters only); a
    positional-only first parameter (``jit(fun, /, ...)``) is called ``fun``."""
    out: dict[str, Arg] = {}
    names = ["fun" if i == 0 and n is None else n for i, n in enumerate(ctx.callee_arg_names)]
    for name, exprs, types in zip(names, ctx.args, ctx.arg_types, strict=False):
        if name is not None and len(types) == 1:
            out[name] = Arg(exprs[0], types[0])
    return out


def value(arg: Arg | None) -> Value:
    """The Python value of a literal argument; ``None`` when absent; ``UNKNOWN`` otherwise."""
    if arg is None:
        return None
    from_type = _from_type(arg.type)
    if not isinstance(from_type, _Unknown) or arg.expr is None:
        return from_type
    return _from_expr(arg.expr)


def _from_type(t: Type) -> Value:
    p = get_proper_type(t)
    if isinstance(p, LiteralType) and isinstance(p.value, (int, str, bool)):
        return p.value
    if isinstance(p, Instance) and p.last_known_value is not None:
        v = p.last_known_value.value
        return v if isinstance(v, (int, str, bool)) else UNKNOWN
    if isinstance(p, NoneType):
        return None
    if isinstance(p, TupleType):
        items = tuple(_from_type(item) for item in p.items)
        return UNKNOWN if any(isinstance(i, _Unknown) for i in items) else items
    return UNKNOWN


def _from_expr(e: Expression) -> Value:
    if isinstance(e, IntExpr):
        return e.value
    if isinstance(e, StrExpr):
        return e.value
    if isinstance(e, UnaryExpr) and e.op == "-" and isinstance(e.expr, IntExpr):
        return -e.expr.value
    if isinstance(e, NameExpr) and e.fullname in (
        "builtins.True",
        "builtins.False",
        "builtins.None",
    ):
        return {"builtins.True": True, "builtins.False": False, "builtins.None": None}[e.fullname]
    if isinstance(e, (TupleExpr, ListExpr)):
        items = tuple(_from_expr(item) for item in e.items)
        return UNKNOWN if any(isinstance(i, _Unknown) for i in items) else items
    return UNKNOWN


def ints(v: Value) -> tuple[int, ...] | None:
    """``argnums``-style values as a tuple of ints; ``None`` when not statically known."""
    if v is None:
        return ()
    if isinstance(v, int) and not isinstance(v, bool):
        return (v,)
    if isinstance(v, tuple) and all(isinstance(i, int) and not isinstance(i, bool) for i in v):
        return tuple(i for i in v if isinstance(i, int))
    return None


def strs(v: Value) -> tuple[str, ...] | None:
    """``argnames``-style values as a tuple of strings; ``None`` when not statically known."""
    if v is None:
        return ()
    if isinstance(v, str):
        return (v,)
    if isinstance(v, tuple) and all(isinstance(i, str) for i in v):
        return tuple(i for i in v if isinstance(i, str))
    return None


def flag(v: Value, default: bool = False) -> bool | None:
    """A literal bool (``has_aux``, ``allow_int``); ``None`` when not statically known."""
    if v is None:
        return default
    return v if isinstance(v, bool) else None


_RECORDED = (
    "__jax_core_arg_"  # extra-attribute prefix of a keyword argument recorded on an instance
)


def attrs_of(t: Type) -> Mapping[str, Type]:
    """The plugin's extra attributes on an instance type (empty for anything else)."""
    p = get_proper_type(t)
    return p.extra_attrs.attrs if isinstance(p, Instance) and p.extra_attrs else {}


def record_args(t: Type, args: Mapping[str, Type]) -> Type:
    """``t`` (a decorator or ``partial`` instance) carrying keyword arguments of the call that
    made it, to be read back by ``recorded_args`` when it is applied to a function."""
    p = get_proper_type(t)
    if not isinstance(p, Instance):
        return t
    for name, arg_type in args.items():
        p = p.copy_with_extra_attr(_RECORDED + name, arg_type)
    return p


def recorded_args(t: Type) -> dict[str, Arg]:
    """The keyword arguments ``record_args`` stored on ``t``."""
    return {
        k[len(_RECORDED) :]: Arg(None, v) for k, v in attrs_of(t).items() if k.startswith(_RECORDED)
    }
