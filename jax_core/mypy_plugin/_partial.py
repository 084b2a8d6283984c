"""``functools.partial`` of a transformation (``@partial(jit, static_argnums=1)``): the
transformation and its keyword arguments are recorded on the ``partial`` instance, and applying
it to a function gives what the direct call would. Any other ``partial`` is left to mypy's own
functools plugin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.nodes import Context, RefExpr
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.plugins import functools as mypy_functools
from mypy.types import Instance, LiteralType, Type, get_proper_type

from jax_core.mypy_plugin import _custom, _grad, _jit, _maps, _names
from jax_core.mypy_plugin._args import Arg, Args, attrs_of, record_args, recorded_args
from jax_core.mypy_plugin._types import as_callable, instance, parameters

TRANSFORM_ATTR: Final = "__jax_core_partial__"

Apply = Callable[[CheckerPluginInterface, Context, Type, Args, Type], Type]


def _checkpoint(
    api: CheckerPluginInterface, context: Context, fun: Type, args: Args, default: Type
) -> Type:
    _maps.check_checkpoint_static(api, context, args, fun)
    return as_callable(api, fun) or default


def _grad_family(fullname: str) -> Apply:
    def apply(
        api: CheckerPluginInterface, context: Context, fun: Type, args: Args, default: Type
    ) -> Type:
        return _grad.analyze(api, context, _grad.KIND[fullname], fun, args) or default

    return apply


def _custom_class(fullname: str) -> Apply:
    def apply(
        api: CheckerPluginInterface, context: Context, fun: Type, args: Args, default: Type
    ) -> Type:
        c = as_callable(api, fun)
        if c is None:
            return default
        return _custom.record_nondiff(
            api, instance(api, fullname, [parameters(c), c.ret_type]), args
        )

    return apply


APPLY: Final[dict[str, Apply]] = {
    _names.JIT: _jit.make_jitted,
    _names.PMAP: lambda api, context, fun, args, default: _jit.make_jitted(
        api, context, fun, args, default, "static_broadcasted_argnums"
    ),
    _names.VMAP: lambda api, context, fun, args, default: _maps.make_vmapped(
        api, context, fun, args, default
    ),
    _names.CHECKPOINT: _checkpoint,
    _names.REMAT: _checkpoint,
    _names.CUSTOM_JVP: _custom_class(_names.CUSTOM_JVP),
    _names.CUSTOM_VJP: _custom_class(_names.CUSTOM_VJP),
    **{name: _grad_family(name) for name in _grad.KIND},
}


def _keywords(names: list[str | None], types: list[Type]) -> dict[str, Type]:
    return {n: t for n, t in zip(names, types, strict=True) if n is not None}


def partial_new_hook(ctx: FunctionContext) -> Type:
    """``partial(transformation, **options)``."""
    callee = ctx.args[0][0] if ctx.args and len(ctx.args[0]) == 1 else None
    fullname = callee.fullname if isinstance(callee, RefExpr) else None
    result = get_proper_type(ctx.default_return_type)
    if (
        fullname not in APPLY
        or len(ctx.args) != 3
        or ctx.args[1]
        or not isinstance(result, Instance)
    ):
        return mypy_functools.partial_new_callback(ctx)
    str_type = ctx.api.named_generic_type("builtins.str", [])
    out = result.copy_with_extra_attr(TRANSFORM_ATTR, LiteralType(fullname, str_type))
    return record_args(out, _keywords(ctx.arg_names[2], ctx.arg_types[2]))


def partial_call_hook(ctx: MethodContext) -> Type:
    """Applying ``partial(transformation, **options)`` to a function."""
    attrs = attrs_of(ctx.type)
    which = get_proper_type(attrs[TRANSFORM_ATTR]) if TRANSFORM_ATTR in attrs else None
    if (
        not isinstance(which, LiteralType)
        or not isinstance(which.value, str)
        or which.value not in APPLY
    ):
        return mypy_functools.partial_call_callback(ctx)
    if len(ctx.arg_types) != 2 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    args = recorded_args(ctx.type)
    args.update({k: Arg(None, v) for k, v in _keywords(ctx.arg_names[1], ctx.arg_types[1]).items()})
    return APPLY[which.value](
        ctx.api, ctx.context, ctx.arg_types[0][0], args, ctx.default_return_type
    )
