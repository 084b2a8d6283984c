"""Shapes through transformations and loops: ``vmap`` adds the mapped dimension to each mapped
parameter and result (``jit``, ``grad``, ``checkpoint`` keep the annotations, and their calls
bind names like any call); ``lax.scan`` checks the carry and stacks ``ys``; ``fori_loop`` and
``while_loop`` check that the body keeps the carry's shape."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface, FunctionContext
from mypy.types import CallableType, Instance, TupleType, Type, UnionType, get_proper_type

from jax_core.mypy_plugin._args import named_args
from jax_core.mypy_plugin._shape_calls import bind_argument, facts, pairs, report
from jax_core.mypy_plugin._shape_flow import trusted
from jax_core.mypy_plugin._shape_spec import Binding, Dim, Shape, Star, apply, bind, names_in
from jax_core.mypy_plugin._shape_types import (
    UNKNOWN,
    Rewrite,
    Static,
    shape_of,
    static,
    tuple_items,
)
from jax_core.mypy_plugin._types import as_callable


def _fresh(c: CallableType) -> str:
    """A dimension name for the mapped axis that the function's annotations do not use."""
    used: set[str] = set()
    for t in [*c.arg_types, c.ret_type]:
        for s in _shapes_in(t):
            used.update(names_in(s.dims or ()))
    name, k = "vmap", 1
    while name in used:
        k += 1
        name = f"vmap{k}"
    return name


def _shapes_in(t: Type) -> list[Shape]:
    p = get_proper_type(t)
    s = shape_of(p)
    if s is not None:
        return [s]
    if isinstance(p, (TupleType, UnionType)):
        return [x for i in p.items for x in _shapes_in(i)]
    if isinstance(p, Instance):
        return [x for a in p.args for x in _shapes_in(a)]
    return []


def _insert(s: Shape, axis: Static, name: str) -> Shape:
    if s.dims is None or isinstance(axis, bool) or not isinstance(axis, int):
        return Shape(s.dtype, None)
    dims = list(s.dims)
    star = any(isinstance(d, Star) for d in dims)
    if star and axis not in (0, -1):
        return Shape(s.dtype, None)
    position = axis if axis >= 0 else len(dims) + 1 + axis
    if not 0 <= position <= len(dims):
        return Shape(s.dtype, None)
    dims.insert(position, name)
    return Shape(s.dtype, tuple(dims))


def vmap_shapes(ctx: FunctionContext, result: Type) -> Type:
    """``vmap(f, in_axes, out_axes)``: each mapped parameter gains the mapped dimension (named
    ``vmap``) at its ``in_axes`` position, each result at ``out_axes``."""
    c = get_proper_type(result)
    if not isinstance(c, CallableType):
        return result
    args = named_args(ctx)
    in_axes = static(args["in_axes"].expr, args["in_axes"].type) if "in_axes" in args else 0
    out_axes = static(args["out_axes"].expr, args["out_axes"].type) if "out_axes" in args else 0
    name = _fresh(c)
    if in_axes is UNKNOWN or out_axes is UNKNOWN or not isinstance(out_axes, int):
        return c.copy_modified(  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
            arg_types=[_erase(ctx.api, t) for t in c.arg_types],
            ret_type=_erase(ctx.api, c.ret_type),
        )  # pyright: ignore[reportUnknownMemberType]
    types: list[Type] = []
    for i, t in enumerate(c.arg_types):
        entries = tuple_items(in_axes)
        axis: Static = in_axes if entries is None else entries[i] if i < len(entries) else None
        if axis is None:
            types.append(t)
        elif isinstance(axis, int) and not isinstance(axis, bool):
            types.append(t.accept(Rewrite(ctx.api, partial(_insert, axis=axis, name=name))))
        else:
            types.append(_erase(ctx.api, t))
    ret = c.ret_type.accept(Rewrite(ctx.api, partial(_insert, axis=out_axes, name=name)))
    # a name, so that mypy hands its calls to the plugin (which binds ``vmap`` per call)
    return c.copy_modified(arg_types=types, ret_type=ret, name=c.name or "vmap(...)")  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)


def named_callable(t: Type, name: str) -> Type:
    """``t`` with a name if it is a nameless callable: mypy hands the plugin only the calls of
    callables it can name, and the plugin binds the dimension names of annotated ones per call."""
    p = get_proper_type(t)
    if isinstance(p, CallableType) and not p.name:
        return p.copy_modified(name=name)  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
    return t


def _erase(api: CheckerPluginInterface, t: Type) -> Type:
    return t.accept(Rewrite(api, lambda s: Shape(s.dtype, None)))


def _body_takes(what: str) -> Callable[[str, Shape, Shape], str]:
    """How an argument of a loop is described in messages."""
    return lambda where, a, formal: f"{what}{where} is {a}, but the body takes {formal}"


def _carry_check(
    api: CheckerPluginInterface,
    c: CallableType,
    carry_index: int,
    returned: Type,
    context: Context,
    what: str,
) -> None:
    """The body's annotated result carry against its annotated carry parameter."""
    for formal, actual, where in pairs(c.arg_types[carry_index], returned):
        a = shape_of(actual)
        if a is None:
            continue
        problem = bind(formal, a, Binding.identity(formal))
        if problem is not None:
            report(
                api,
                f"{what} returns the carry{where} as {a}, but takes it as {formal}: {problem}",
                context,
            )


def scan_hook(ctx: FunctionContext) -> Type:
    """``lax.scan(f, init, xs, length)``: ``init`` against the carry parameter, ``xs`` without its
    leading dimension against the ``x`` parameter, the returned carry against the carry
    parameter; the result is ``(carry, ys)`` with ``ys`` stacked along the scanned dimension."""
    args = named_args(ctx)
    if "f" not in args or "init" not in args:
        return ctx.default_return_type
    c = as_callable(ctx.api, args["f"].type)
    ret = get_proper_type(c.ret_type) if c is not None else None
    if c is None or len(c.arg_types) < 2 or not isinstance(ret, TupleType) or len(ret.items) != 2:
        return ctx.default_return_type
    items = ret.items
    _carry_check(ctx.api, c, 0, items[0], args["f"].expr or ctx.context, "the scanned function")
    binding = Binding()
    bind_argument(
        ctx.api,
        c.arg_types[0],
        args["init"].type,
        args["init"].expr,
        binding,
        _body_takes("init"),
        args["init"].expr or ctx.context,
    )
    leading: Dim = None
    if "xs" in args:
        leading = bind_argument(
            ctx.api,
            c.arg_types[1],
            args["xs"].type,
            args["xs"].expr,
            binding,
            _body_takes("xs (one step)"),
            args["xs"].expr or ctx.context,
            drop_leading=True,
        )
    length = static(args["length"].expr, args["length"].type) if "length" in args else None
    if leading is None and isinstance(length, int) and not isinstance(length, bool):
        leading = length
    default = get_proper_type(ctx.default_return_type)
    if not isinstance(default, TupleType) or len(default.items) != 2:
        return ctx.default_return_type
    carry = items[0].accept(Rewrite(ctx.api, lambda s: apply(s, binding)))
    ys = items[1].accept(Rewrite(ctx.api, lambda s: _stack(apply(s, binding), leading)))
    return default.copy_modified(items=[carry, ys])


def _stack(s: Shape, leading: Dim) -> Shape:
    return Shape(s.dtype, None if s.dims is None else (leading, *s.dims))


def loop_hook(ctx: FunctionContext, *, body: str, carry_index: int) -> Type:
    """``fori_loop(lower, upper, body_fun, init_val)`` / ``while_loop(cond, body_fun, init_val)``:
    the body returns the carry with the shape it takes; ``init_val`` against that carry."""
    args = named_args(ctx)
    if body not in args or "init_val" not in args:
        return ctx.default_return_type
    c = as_callable(ctx.api, args[body].type)
    if c is None or len(c.arg_types) <= carry_index:
        return ctx.default_return_type
    where = args[body].expr or ctx.context
    _carry_check(ctx.api, c, carry_index, c.ret_type, where, "the loop body")
    binding = Binding()
    init = args["init_val"]
    bind_argument(
        ctx.api,
        c.arg_types[carry_index],
        init.type,
        init.expr,
        binding,
        _body_takes("init_val"),
        init.expr or ctx.context,
    )
    if pairs(c.arg_types[carry_index], init.type) and trusted(facts(ctx.api), init.expr):
        return init.type  # the carry keeps the shape it starts with
    return _erase(ctx.api, ctx.default_return_type)
