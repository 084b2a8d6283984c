"""The shape checker's hooks on calls, operators and attributes: operands are read from the
call, the operation's rule (``_shape_rules.TABLE``) gives the result, a user function's
dimension names are bound per call; mismatches are ``jax-shape`` errors at the offending line,
with both shapes in the message."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_POS,
    CallExpr,
    Context,
    EllipsisExpr,
    Expression,
    FuncItem,
    IndexExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    RefExpr,
    SliceExpr,
    TupleExpr,
    UnaryExpr,
)
from mypy.plugin import AttributeContext, CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import CallableType, Instance, Parameters, TupleType, Type, get_proper_type

from jax_core.mypy_plugin import _errors, _names
from jax_core.mypy_plugin._shape_flow import FunctionFacts, Sink, collect, trusted
from jax_core.mypy_plugin._shape_operands import Call, Operand, Rule, ShapeError
from jax_core.mypy_plugin._shape_rules import METHODS
from jax_core.mypy_plugin._shape_spec import Binding, Dim, Shape, Star, apply, bind
from jax_core.mypy_plugin._shape_types import (
    Rewrite,
    Sym,
    dim_int,
    encode,
    has_shapes,
    items_of,
    scalar_kind,
    shape_of,
    static,
)
from jax_core.mypy_plugin._types import as_callable

_FACTS: dict[int, tuple[FuncItem, FunctionFacts]] = {}


def report(api: CheckerPluginInterface, message: str, context: Context) -> None:
    """Reports a shape error. mypy checks operators and overloads speculatively, reading any
    error as "this variant does not apply" (and the result as ``Any``); a shape error is a fact
    about the operands, not about the variant, so it is reported past those filters."""
    errors = api.msg.errors if isinstance(api, TypeChecker) else None
    saved = errors._watchers if errors is not None else None  # pyright: ignore[reportPrivateUsage]  (no public way past mypy's trial filters)
    if errors is not None:
        errors._watchers = []  # pyright: ignore[reportPrivateUsage]
    try:
        api.fail(f"jax-shape: {message}", context, code=_errors.SHAPE)
    finally:
        if errors is not None and saved is not None:
            errors._watchers = saved  # pyright: ignore[reportPrivateUsage]


def facts(api: CheckerPluginInterface) -> FunctionFacts | None:
    """The current function's facts (collected once per function object)."""
    if not isinstance(api, TypeChecker):
        return None
    func = api.scope.current_function()
    if func is None:
        return None
    entry = _FACTS.get(id(func))
    if entry is None or entry[0] is not func:
        entry = (func, collect(func))
        if len(_FACTS) > 4096:
            _FACTS.clear()
        _FACTS[id(func)] = entry
    found = entry[1]
    if not found.checked_params:
        found.checked_params = True
        for expr, sink in found.returned_params:
            check_sink(api, sink, shape_of(_param_type(func, expr)))
    return found


def _param_type(func: FuncItem, expr: NameExpr) -> Type | None:
    sig = func.type
    if not isinstance(sig, CallableType):
        return None
    for arg, t in zip(func.arguments, sig.arg_types, strict=False):
        if arg.variable is expr.node:
            return t
    return None


def check_sink(api: CheckerPluginInterface, sink: Sink, actual: Shape | None) -> None:
    """The shape that reaches an annotated place, against the annotation (same names); the
    error is at the place (the ``return`` or the annotated assignment)."""
    expected = shape_of(sink.expected)
    if expected is None or actual is None:
        return
    problem = bind(expected, actual, Binding.identity(expected))
    if problem is not None:
        report(
            api,
            f"{sink.what} is {actual}, but the annotation says {expected}: {problem}",
            Context(sink.line),
        )


def finish(api: CheckerPluginInterface, context: Context, result: Type) -> Type:
    """Checks a result against the annotation of the place it goes to, if any."""
    f = facts(api)
    if f is not None:
        sink = f.sinks.get(id(context))
        if sink is not None:
            check_sink(api, sink, shape_of(result))
    return result


# ---- operands ---------------------------------------------------------------------------------


def operand(
    api: CheckerPluginInterface, expr: Expression | None, t: Type | None, f: FunctionFacts | None
) -> Operand:
    """One argument as rules see it."""
    if isinstance(expr, (ListExpr, TupleExpr)) and isinstance(api, TypeChecker):
        items = tuple(operand(api, e, api.lookup_type_or_none(e), f) for e in expr.items)
        return Operand(value=static(expr, t), items=items)
    shape = shape_of(t)
    if shape is not None and not trusted(f, expr):
        shape = Shape(shape.dtype if isinstance(expr, NameExpr) else "Shaped")
    return Operand(shape=shape, scalar=scalar_kind(t), value=static(expr, t))


def _index_operand(
    api: CheckerPluginInterface, expr: Expression, t: Type, f: FunctionFacts | None
) -> Operand:
    """An index: ints, full slices (``"slice"``), partial slices, ``None``, ``...``, arrays."""
    parts = expr.items if isinstance(expr, TupleExpr) else [expr]
    types: Sequence[Type | None]
    p = get_proper_type(t)
    types = (
        p.items
        if isinstance(p, TupleType) and isinstance(expr, TupleExpr)
        else [t] * len(parts)
        if not isinstance(expr, TupleExpr)
        else [None] * len(parts)
    )
    out: list[Operand] = []
    for e, it in zip(parts, types, strict=True):
        if isinstance(e, SliceExpr):
            full = e.begin_index is None and e.end_index is None and e.stride is None
            out.append(Operand(value="slice" if full else "part"))
        elif isinstance(e, EllipsisExpr):
            out.append(Operand(value="..."))
        elif isinstance(e, NameExpr) and e.fullname == "builtins.None":
            out.append(Operand(value=None))
        else:
            et = (
                it
                if it is not None
                else (api.lookup_type_or_none(e) if isinstance(api, TypeChecker) else None)
            )
            op = operand(api, e, et, f)
            if op.shape is None and scalar_kind(et) == "int":
                op = Operand(value=0)
            out.append(op)
    return Operand(items=tuple(out))


def _receiver(context: Context) -> Expression | None:
    if isinstance(context, CallExpr) and isinstance(context.callee, MemberExpr):
        return context.callee.expr
    if isinstance(context, OpExpr):
        return context.left
    if isinstance(context, UnaryExpr):
        return context.expr
    if isinstance(context, IndexExpr):
        return context.base
    return None


def _call(
    name: str, ctx: FunctionContext | MethodContext, f: FunctionFacts | None, first: Operand | None
) -> Call:
    args: list[Operand] = [first] if first is not None else []
    kwargs: dict[str, Operand] = {}
    for formal, exprs, types, kinds in zip(
        ctx.callee_arg_names, ctx.args, ctx.arg_types, ctx.arg_kinds, strict=False
    ):
        for e, t, k in zip(exprs, types, kinds, strict=False):
            if k.is_star():
                return Call(name, [])  # *args / **kwargs: the operands are not known one by one
            op = operand(ctx.api, e, t, f)
            if k == ARG_POS:
                args.append(op)
            elif formal is not None:
                kwargs[formal] = op
    return Call(name, args, kwargs)


def apply_rule(rule: Rule, name: str, ctx: FunctionContext | MethodContext, receiver: bool) -> Type:
    """Runs one rule on a call and returns the shaped result (or mypy's, if not an array)."""
    default = ctx.default_return_type
    if shape_of(default) is None:
        return default
    f = facts(ctx.api)
    first = None
    if receiver and isinstance(ctx, MethodContext):
        expr = _receiver(ctx.context)
        if isinstance(ctx.context, OpExpr) and ctx.context.op in ("in",):
            return default
        first = operand(ctx.api, expr, ctx.type, f)
    if isinstance(ctx.context, IndexExpr) and first is not None:
        call = Call(
            name, [first, _index_operand(ctx.api, ctx.context.index, ctx.arg_types[0][0], f)]
        )
    else:
        call = _call(name, ctx, f, first)
    if not any(_informed(op) for op in [*call.args, *call.kwargs.values()]):
        return default  # no operand carries an annotated shape: the result stays shape-unknown
    try:
        result = rule(call)
    except ShapeError as e:
        report(ctx.api, str(e), ctx.context)
        return encode(ctx.api, None)
    return finish(ctx.api, ctx.context, encode(ctx.api, result))


def _informed(op: Operand) -> bool:
    """Whether an operand carries something from an annotation (a shape, a dtype, a dimension
    read from an annotated shape)."""
    if op.items is not None:
        return any(_informed(i) for i in op.items)
    if op.shape is not None:
        return op.shape.dims is not None or op.shape.dtype != "Shaped"
    return any(isinstance(v, Sym) for v in items_of(op.value))


def method_rule_hook(name: str) -> Callable[[MethodContext], Type]:
    rule = METHODS[name]
    label = name.strip("_")
    if label.startswith("r") and f"__{label[1:]}__" in METHODS:
        label = label[1:]

    def hook(ctx: MethodContext) -> Type:
        return apply_rule(rule, label, ctx, receiver=True)

    return hook


# ---- user functions: binding their names per call ------------------------------------------------


def callee_signature(ctx: FunctionContext | MethodContext) -> CallableType | None:
    """The signature mypy called, for binding (None when it cannot be found)."""
    api = ctx.api
    call = ctx.context
    if not isinstance(api, TypeChecker) or not isinstance(call, CallExpr):
        return None
    t = get_proper_type(
        ctx.type if isinstance(ctx, MethodContext) else api.lookup_type_or_none(call.callee)
    )
    if isinstance(t, Instance) and len(t.args) == 2:
        params = get_proper_type(t.args[0])
        if isinstance(params, Parameters):
            # ``Jitted[P, R]``, ``Differentiated[P, R]``: the function's own annotations (the
            # ``__call__`` signature widens ``Array`` parameters to ``ArrayLike``)
            fallback = api.named_generic_type("builtins.function", [])
            return CallableType(
                params.arg_types, params.arg_kinds, params.arg_names, t.args[1], fallback
            )
    if isinstance(ctx, MethodContext):
        t = get_proper_type(api.lookup_type_or_none(call.callee))
    return as_callable(api, t) if t is not None else None


def bind_argument(
    api: CheckerPluginInterface,
    formal_t: Type,
    actual_t: Type,
    expr: Expression | None,
    binding: Binding,
    describe: Callable[[str, Shape, Shape], str],
    at: Context,
    *,
    drop_leading: bool = False,
) -> Dim:
    """Binds one argument's shapes (an array, or tuple items) to its parameter's names, reporting
    at ``at`` what cannot match (``describe(where, actual, formal)`` says what it is); with
    ``drop_leading`` (``xs`` of a scan) the leading dimension is removed first and returned."""
    if not trusted(facts(api), expr):
        return None
    leading: Dim = None
    for formal, actual, where in pairs(formal_t, actual_t):
        a = shape_of(actual)
        if a is None:
            continue
        if drop_leading:
            if not a.dims or isinstance(a.dims[0], Star):
                continue
            leading, a = a.dims[0], Shape(a.dtype, a.dims[1:])
        problem = bind(formal, a, binding)
        if problem is not None:
            report(api, f"{describe(where, a, formal)}: {problem}", at)
    return leading


def bind_call(ctx: FunctionContext | MethodContext) -> Type:
    """A call of a function whose annotations carry shapes: each argument's shape against its
    parameter's, one binding of the names for the whole call, the result in the caller's names."""
    default = ctx.default_return_type
    if not has_shapes(default) and not any(has_shapes(t) for types in ctx.arg_types for t in types):
        return default  # nothing shaped goes in or comes out: nothing to bind or check
    c = callee_signature(ctx)
    if c is None or not (has_shapes(c) or has_shapes(default)):
        return default
    binding = Binding()
    if len(c.arg_types) == len(ctx.arg_types):
        fn = _name(c, ctx.context)
        for i, (formal_t, exprs, types) in enumerate(
            zip(c.arg_types, ctx.args, ctx.arg_types, strict=True)
        ):
            if len(exprs) != 1 or len(types) != 1:
                continue
            describe = partial(_argument_text, c.arg_names[i] or f"#{i + 1}", fn)
            bind_argument(ctx.api, formal_t, types[0], exprs[0], binding, describe, exprs[0])
    result = Rewrite(ctx.api, lambda s: apply(s, binding))
    return finish(ctx.api, ctx.context, default.accept(result))


def _argument_text(name: str, fn: str, where: str, actual: Shape, formal: Shape) -> str:
    return f"argument {name!r}{where} of {fn} is {actual}, but the parameter is {formal}"


def _name(c: CallableType, context: Context) -> str:
    """The called function's name for messages: its own, else the name it is called by."""
    if c.name and c.name != "<lambda>":
        return f'"{c.name.split(" of ")[0]}"'
    if isinstance(context, CallExpr) and isinstance(context.callee, (NameExpr, MemberExpr)):
        return f'"{context.callee.name}"'
    return "the function"


def pairs(formal: Type, actual: Type) -> list[tuple[Shape, Type, str]]:
    """Shaped parameters matched with the argument types: an array, or tuple items."""
    fp, ap = get_proper_type(formal), get_proper_type(actual)
    s = shape_of(fp)
    if s is not None:
        return [(s, ap, "")] if s.dims is not None or s.dtype != "Shaped" else []
    if isinstance(fp, TupleType) and isinstance(ap, TupleType) and len(fp.items) == len(ap.items):
        out: list[tuple[Shape, Type, str]] = []
        for k, (fi, ai) in enumerate(zip(fp.items, ap.items, strict=True)):
            out.extend((sh, t, f"[{k}]{w}") for sh, t, w in pairs(fi, ai))
        return out
    return []


# ---- attributes -------------------------------------------------------------------------------


def shape_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.shape`` of an annotated array: a tuple of ints that carry its dimensions."""
    s = shape_of(ctx.type)
    if s is None or s.dims is None or any(isinstance(d, Star) for d in s.dims) or ctx.is_lvalue:
        return ctx.default_attr_type
    fallback = ctx.api.named_generic_type(
        "builtins.tuple", [ctx.api.named_generic_type("builtins.int", [])]
    )
    return TupleType([dim_int(ctx.api, d) for d in s.dims], fallback)


def transpose_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.T``: the dimensions reversed."""
    s = shape_of(ctx.type)
    if s is None or s.dims is None or any(isinstance(d, Star) for d in s.dims):
        return ctx.default_attr_type
    f = facts(ctx.api)
    receiver = ctx.context.expr if isinstance(ctx.context, MemberExpr) else None
    if not trusted(f, receiver):
        return ctx.default_attr_type
    return finish(ctx.api, ctx.context, encode(ctx.api, Shape(s.dtype, tuple(reversed(s.dims)))))


def callee_fullname(context: Context) -> str | None:
    if isinstance(context, CallExpr) and isinstance(context.callee, RefExpr):
        return context.callee.fullname or None
    return None


def is_array_method(fullname: str) -> str | None:
    """The method's name if ``fullname`` is a method of ``Array`` with a shape rule."""
    prefix = f"{_names.ARRAY}."
    if fullname.startswith(prefix):
        name = fullname[len(prefix) :]
        return name if name in METHODS else None
    return None
