"""``jit``: static and donated arguments checked against the signature, the jit-boundary
signature (``Array`` parameters accept ``ArrayLike``; scalar results are ``Array``), hashable
static values at each call, and static positions kept through method binding."""

from __future__ import annotations

from collections.abc import Iterable

from mypy.nodes import ARG_STAR2, Context, Decorator, MemberExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext, MethodSigContext
from mypy.types import (
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Parameters,
    TupleType,
    Type,
    TypeType,
    get_proper_type,
)

from jax_core.mypy_plugin import _errors, _names
from jax_core.mypy_plugin._args import (
    Args,
    attrs_of,
    ints,
    named_args,
    record_args,
    recorded_args,
    strs,
    value,
)
from jax_core.mypy_plugin._types import (
    as_callable,
    as_outputs,
    fmt,
    has_star_args,
    instance,
    is_hashable,
    normalize_index,
    parameters,
    positional,
    widen_arrays,
)

STATIC_ATTR = "__jax_core_static__"  # on a Jitted: the indices of its static parameters
JIT_KWARGS = ("static_argnums", "static_argnames", "donate_argnums", "donate_argnames", "inline")


def _set_text(names: Iterable[str]) -> str:
    """A set of names as JAX prints it, in sorted order (a ``set``'s own order changes with
    hash randomisation, and mypy's cached messages must not)."""
    return "{" + ", ".join(repr(n) for n in sorted(set(names))) + "}"


def _argnums(
    api: CheckerPluginInterface,
    context: Context,
    args: Args,
    key: str,
    n: int,
    star: bool,
    label: str = "Jitted function",
) -> set[int]:
    nums = ints(value(args.get(key)))
    out: set[int] = set()
    for i in nums or ():
        j = normalize_index(i, n)
        if j is None and not star:
            api.fail(
                f"{label} has {key}={nums}, but only accepts {n} positional arguments",
                context,
                code=_errors.DONATE if key.startswith("donate") else _errors.STATIC,
            )
        elif j is not None:
            out.add(j)
    return out


def _argnames(
    api: CheckerPluginInterface,
    context: Context,
    args: Args,
    key: str,
    names: list[str | None],
    kw: bool,
) -> set[int]:
    given = strs(value(args.get(key)))
    out: set[int] = set()
    bad = [g for g in given or () if g not in names]
    if bad and not kw:
        api.fail(
            f"Jitted function has invalid argnames {_set_text(bad)} in {key}. Function does not take these args",
            context,
            code=_errors.DONATE if key.startswith("donate") else _errors.STATIC,
        )
    out.update(names.index(g) for g in given or () if g in names)
    return out


def make_jitted(
    api: CheckerPluginInterface,
    context: Context,
    fun_type: Type,
    args: Args,
    default: Type,
    static_key: str = "static_argnums",
) -> Type:
    """The type of ``jit(fun, **args)`` (or ``pmap``'s, whose static positions are given as
    ``static_key``), after checking ``args`` against ``fun``'s signature."""
    c = as_callable(api, fun_type)
    if c is None:
        return default
    n, star = len(positional(c)), has_star_args(c)
    kw = ARG_STAR2 in c.arg_kinds
    label = "Jitted function" if static_key == "static_argnums" else "pmapped function"
    static = _argnums(api, context, args, static_key, n, star, label)
    static |= _argnames(api, context, args, "static_argnames", c.arg_names, kw)
    donated = _argnums(api, context, args, "donate_argnums", n, star, label)
    donated |= _argnames(api, context, args, "donate_argnames", c.arg_names, kw)
    if both := sorted(static & donated):
        names = _set_text(c.arg_names[i] or str(i) for i in both)
        api.fail(
            "static_argnames and donate_argnames cannot intersect. Argument names "
            f"{names} appear in both static_argnames and donate_argnames",
            context,
            code=_errors.DONATE,
        )
    # The jit-boundary view (ArrayLike parameters, Array results) is applied per call, by
    # jitted_signature_hook/jitted_call_hook: put into the type arguments, it would feed back
    # into mypy's inference of enclosing calls (``vmap(jit(f))``) as if ``f`` had been declared so.
    jitted = instance(api, _names.JITTED, [parameters(c), c.ret_type])
    return with_static(api, jitted, static) if static else jitted


def jit_hook(ctx: FunctionContext) -> Type:
    """``jit(f, ...)`` and ``@jit``; ``jit(...)`` without a function returns the decorator with
    the keyword arguments recorded on it."""
    args = named_args(ctx)
    fun = args.get("fun")
    if fun is not None:
        return make_jitted(ctx.api, ctx.context, fun.type, args, ctx.default_return_type)
    return record_args(
        ctx.default_return_type, {k: a.type for k, a in args.items() if k in JIT_KWARGS}
    )


def pmap_hook(ctx: FunctionContext) -> Type:
    """``pmap(f, static_broadcasted_argnums=..., donate_argnums=...)``: checked as ``jit``'s
    static and donated arguments; the result is a ``Jitted``."""
    args = named_args(ctx)
    fun = args.get("fun")
    if fun is None:
        return ctx.default_return_type
    return make_jitted(
        ctx.api, ctx.context, fun.type, args, ctx.default_return_type, "static_broadcasted_argnums"
    )


def decorator_call_hook(ctx: MethodContext) -> Type:
    """``@jit(static_argnames=...)``: applying the recorded decorator to a function."""
    if not isinstance(ctx.type, Instance) or not ctx.arg_types or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    args = recorded_args(ctx.type)
    return make_jitted(ctx.api, ctx.context, ctx.arg_types[0][0], args, ctx.default_return_type)


def _static_indices(t: Type) -> list[int]:
    attrs = attrs_of(t)
    static = get_proper_type(attrs[STATIC_ATTR]) if STATIC_ATTR in attrs else None
    if not isinstance(static, TupleType):
        return []
    return [
        v.value
        for v in map(get_proper_type, static.items)
        if isinstance(v, LiteralType) and isinstance(v.value, int)
    ]


def jitted_signature_hook(ctx: MethodSigContext) -> CallableType:
    """A call of a jitted function accepts any ``ArrayLike`` where the function takes an
    ``Array`` (jit converts its non-static inputs), and returns ``Array`` for Python scalars."""
    sig = widen_arrays(ctx.api, ctx.default_signature, set(_static_indices(ctx.type)))
    return sig.copy_modified(ret_type=as_outputs(ctx.api, sig.ret_type))  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)


def jitted_stage_signature_hook(ctx: MethodSigContext) -> CallableType:
    """``lower``/``trace``/``eval_shape`` of a jitted function take its arguments as a call
    does: ``ArrayLike`` or a ``ShapeDtypeStruct`` where it takes an ``Array`` (their results are
    unchanged)."""
    return widen_arrays(ctx.api, ctx.default_signature, set(_static_indices(ctx.type)), abstract=True)


def jitted_call_hook(ctx: MethodContext) -> Type:
    """A call of a jitted function: every value passed to a static parameter must be hashable."""
    for i in _static_indices(ctx.type):
        if i >= len(ctx.arg_types):
            continue
        for t, kind in zip(ctx.arg_types[i], ctx.arg_kinds[i], strict=True):
            if kind.is_star():
                continue  # ``*args``/``**kwargs`` unpacked: the container's type is not the value's
            if not is_hashable(ctx.api, t):
                name = ctx.callee_arg_names[i]
                where = f'static argument "{name}"' if name else f"static argument {i}"
                ctx.api.fail(
                    f"Non-hashable static arguments are not supported: {where} of a jitted function "
                    f"gets a value of type {fmt(ctx.api, t)}; pass a tuple or another hashable value",
                    ctx.context,
                    code=_errors.UNHASHABLE,
                )
    return ctx.default_return_type


def _method_kind(ctx: MethodContext) -> str | None:
    """ "static" or "class" when this ``__get__`` reads a ``@staticmethod`` (which binds
    nothing) or a ``@classmethod`` (which binds the class) of a class; None otherwise."""
    if not isinstance(ctx.context, MemberExpr) or not ctx.arg_types or not ctx.arg_types[0]:
        return None
    owner = get_proper_type(ctx.arg_types[0][0])
    if isinstance(owner, NoneType) and len(ctx.arg_types) > 1 and ctx.arg_types[1]:
        owner = get_proper_type(ctx.arg_types[1][0])
    if isinstance(owner, TypeType):
        owner = get_proper_type(owner.item)
    if not isinstance(owner, Instance):
        return None
    node = owner.type.get(ctx.context.name)
    if node is None or not isinstance(node.node, Decorator):
        return None
    return "static" if node.node.func.is_static else "class" if node.node.func.is_class else None


def _drop_first(api: CheckerPluginInterface, jitted: Instance) -> Type:
    """``jitted`` with its first parameter bound (a classmethod's ``cls``)."""
    params = get_proper_type(jitted.args[0]) if jitted.args else None
    if not isinstance(params, Parameters) or not params.arg_types:
        return jitted
    rest = Parameters(params.arg_types[1:], params.arg_kinds[1:], params.arg_names[1:])
    bound = instance(api, _names.JITTED, [rest, jitted.args[1]])
    static = [i - 1 for i in _static_indices(jitted) if i > 0]
    return with_static(api, bound, static) if static else bound


def jitted_get_hook(ctx: MethodContext) -> Type:
    """``instance.method`` of a jitted method: the bound result keeps its static parameters,
    shifted past ``self``. A jitted ``@staticmethod`` stays unbound; a ``@classmethod`` binds
    the class."""
    kind = _method_kind(ctx)
    own = get_proper_type(ctx.type)
    if kind == "static":
        return ctx.type
    if kind == "class" and isinstance(own, Instance):
        return _drop_first(ctx.api, own)
    static = _static_indices(ctx.type)
    result = get_proper_type(ctx.default_return_type)
    if not static or not isinstance(result, Instance) or result.type.fullname != _names.JITTED:
        return ctx.default_return_type
    from_class = bool(ctx.arg_types and ctx.arg_types[0]) and isinstance(
        get_proper_type(ctx.arg_types[0][0]), NoneType
    )
    bound = static if from_class else [i - 1 for i in static if i > 0]
    return with_static(ctx.api, result, bound) if bound else result


def with_static(api: CheckerPluginInterface, jitted: Instance, static: Iterable[int]) -> Instance:
    """``jitted`` recording which of its parameters are static."""
    int_type = api.named_generic_type("builtins.int", [])
    items: list[Type] = [LiteralType(i, int_type) for i in sorted(static)]
    return jitted.copy_with_extra_attr(
        STATIC_ATTR, TupleType(items, api.named_generic_type("builtins.tuple", [int_type]))
    )
