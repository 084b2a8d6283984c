"""``grad``, ``value_and_grad``, ``jacfwd``, ``jacrev``, ``jacobian``, ``hessian``: the result
types for any ``argnums`` (int, negative, tuple of any length), checked against the function:
argnums in range, a scalar ``ArrayLike`` output, ``has_aux`` pairs, integer parameters."""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import ErrorCode
from mypy.nodes import ARG_POS, Context, OverloadedFuncDef
from mypy.plugin import CheckerPluginInterface, FunctionContext, FunctionSigContext
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    Overloaded,
    Parameters,
    TupleType,
    Type,
    TypeOfAny,
    UnionType,
    get_proper_type,
)

from jax_core.mypy_plugin import _errors, _names
from jax_core.mypy_plugin._args import Arg, Args, Value, flag, ints, named_args, value
from jax_core.mypy_plugin._shape_types import has_shapes, shape_of
from jax_core.mypy_plugin._types import (
    array_like,
    array_type,
    as_callable,
    callable_name,
    checker,
    count,
    fmt,
    has_star_args,
    instance,
    normalize_index,
    positional,
    tuple_items,
)

# The transformations that need a scalar output (the others differentiate array outputs).
SCALAR_OUTPUT: Final = {"grad", "value_and_grad", "hessian"}
KIND: Final = {
    _names.GRAD: "grad",
    _names.VALUE_AND_GRAD: "value_and_grad",
    _names.JACFWD: "jacfwd",
    _names.JACREV: "jacrev",
    _names.JACOBIAN: "jacrev",
    _names.HESSIAN: "hessian",
}
INT_TYPES: Final = ("builtins.int", "builtins.bool")


def _tuple(api: CheckerPluginInterface, items: list[Type]) -> TupleType:
    return TupleType(
        items, api.named_generic_type("builtins.tuple", [AnyType(TypeOfAny.special_form)])
    )


def _is_any(t: Type) -> bool:
    return isinstance(get_proper_type(t), AnyType)


class _Check:
    """One call's analysis: reports each problem once, remembers whether any was found."""

    def __init__(
        self, api: CheckerPluginInterface, context: Context, kind: str, c: CallableType
    ) -> None:
        self.api, self.context, self.kind, self.c = api, context, kind, c
        self.name = callable_name(c)
        self.ok = True

    def fail(self, msg: str, code: ErrorCode) -> None:
        self.api.fail(msg, self.context, code=code)
        self.ok = False

    def indices(self, argnums: Value, nums: tuple[int, ...]) -> list[int | None]:
        pos = positional(self.c)
        out: list[int | None] = []
        for i in nums:
            j = normalize_index(i, len(pos))
            if j is None and not has_star_args(self.c):
                need = i + 1 if i >= 0 else -i
                self.fail(
                    f"differentiating with respect to argnums={argnums} requires at least {need} positional "
                    f"arguments, but {self.name} takes only {count(len(pos), 'positional parameter')}",
                    _errors.ARGNUMS,
                )
            out.append(None if j is None else pos[j])
        return out

    def check_int(self, index: int, allow_int: bool | None) -> None:
        t = get_proper_type(self.c.arg_types[index])
        if allow_int is False and isinstance(t, Instance) and t.type.fullname in INT_TYPES:
            param = self.c.arg_names[index] or str(index)
            self.fail(
                f'{self.kind} requires real- or complex-valued inputs, but parameter "{param}" of '
                f"{self.name} is {fmt(self.api, t)}; pass allow_int=True (its gradient is then float0) "
                "or differentiate a float parameter",
                _errors.GRAD_INT,
            )

    def split_aux(self, has_aux: bool) -> tuple[Type, Type | None]:
        ret = self.c.ret_type
        if not has_aux or _is_any(ret):
            return ret, (AnyType(TypeOfAny.special_form) if has_aux else None)
        items = tuple_items(ret)
        if items is None or len(items) != 2:
            self.fail(
                f"with has_aux=True, {self.name} must return a two-element tuple (output, aux), "
                f"but it returns {fmt(self.api, ret)}",
                _errors.HAS_AUX,
            )
            return AnyType(TypeOfAny.from_error), AnyType(TypeOfAny.from_error)
        return items[0], items[1]

    def check_output(self, out: Type, has_aux: bool) -> bool:
        """Whether ``out`` is a scalar array-like; reports it for the scalar-output rules."""
        p = get_proper_type(out)
        if isinstance(p, Instance) and p.type.fullname in INT_TYPES and self.kind in SCALAR_OUTPUT:
            self.fail(
                f"{self.kind} requires real-valued outputs, but {self.name} returns {fmt(self.api, out)}; "
                "for integer or boolean outputs use vjp directly",
                _errors.GRAD_OUTPUT,
            )
            return False
        if _is_any(out) or is_subtype(out, array_like(self.api)):
            return True
        if self.kind in SCALAR_OUTPUT:
            hint = (
                "; if the other elements are auxiliary outputs, pass has_aux=True"
                if tuple_items(out) is not None and not has_aux
                else ""
            )
            self.fail(
                f"{self.kind}: Gradient only defined for scalar-output functions, but {self.name} "
                f"returns {fmt(self.api, out)}, not an ArrayLike{hint}",
                _errors.GRAD_OUTPUT,
            )
        return False


def analyze(
    api: CheckerPluginInterface, context: Context, kind: str, fun_type: Type, args: Args
) -> Type | None:
    """The type of ``kind(fun, **args)``; None to keep the annotations' answer (a function the
    plugin cannot see through, or non-literal ``argnums``/``has_aux``)."""
    c = as_callable(api, fun_type)
    argnums = value(args.get("argnums")) if "argnums" in args else 0
    nums = ints(argnums)
    has_aux = flag(value(args.get("has_aux")))
    allow_int = flag(value(args.get("allow_int"))) if kind in ("grad", "value_and_grad") else None
    if c is None or nums is None or has_aux is None or not nums:
        return None
    check = _Check(api, context, kind, c)
    indices = check.indices(argnums, nums)
    for j in indices:
        if j is not None:
            check.check_int(j, allow_int)
    out, aux = check.split_aux(has_aux)
    scalar = check.check_output(out, has_aux)
    any_t = AnyType(TypeOfAny.special_form)
    if not check.ok:
        return _differentiated(api, c, [], any_t)
    grads: list[Type] = [any_t if j is None else c.arg_types[j] for j in indices]
    if kind == "hessian":
        grads = [g if _is_array_ish(api, g) else any_t for g in grads]
    elif kind in ("jacfwd", "jacrev") and not scalar:
        grads = [any_t for _ in grads]
    g: Type = _tuple(api, grads) if isinstance(argnums, tuple) else grads[0]
    result: Type = g
    if kind == "value_and_grad":
        value_t: Type = _value_type(api, c.ret_type, aux is not None)
        value_t = value_t if aux is None else _tuple(api, [value_t, aux])
        result = _tuple(api, [value_t, g])
    elif aux is not None:
        result = _tuple(api, [g, aux])
    return _differentiated(api, c, [j for j in indices if j is not None], result)


def _value_type(api: CheckerPluginInterface, ret: Type, has_aux: bool) -> Type:
    """The value ``value_and_grad`` returns: the function's own output where it is an annotated
    array (its shape annotation kept), else ``Array``."""
    p = get_proper_type(ret)
    if has_aux and isinstance(p, TupleType) and p.items:
        p = get_proper_type(p.items[0])
    return p if has_shapes(p) and shape_of(p) is not None else array_type(api)


def _is_array_ish(api: CheckerPluginInterface, t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and (
        p.type.fullname == _names.ARRAY or p.type.fullname == "builtins.float"
    )


def _differentiated(
    api: CheckerPluginInterface, c: CallableType, diffed: list[int], result: Type
) -> Instance:
    """``Differentiated[params, result]`` where the differentiated parameters (and those before
    them) are positional-only, as JAX passes them positionally."""
    last = max(diffed, default=-1)
    names = [
        None if i <= last and c.arg_kinds[i] == ARG_POS else n for i, n in enumerate(c.arg_names)
    ]
    params = Parameters(c.arg_types, c.arg_kinds, names)
    return instance(api, _names.DIFFERENTIATED, [params, result])


def function_hook(ctx: FunctionContext, fullname: str) -> Type:
    """``grad(f, ...)`` after an overload matched (also ``@grad``): refine the result."""
    args = named_args(ctx)
    fun = args.get("fun")
    if fun is None:
        return ctx.default_return_type
    result = analyze(ctx.api, ctx.context, KIND[fullname], fun.type, args)
    return ctx.default_return_type if result is None else result


def _shape(c: CallableType) -> tuple[object, ...]:
    """What tells the overload items of a grad-family function apart: their parameter kinds
    and the literal types of ``argnums`` and ``has_aux``."""
    return (tuple(c.arg_kinds), *(str(t) for t in c.arg_types[1:3]))


def _is_first_overload(ctx: FunctionSigContext, fullname: str) -> bool:
    """Whether the hook is looking at the first overload item. mypy calls a signature hook once
    per item (about 100 here); the plugin's signature replaces the first only, which then
    matches, so the arguments are inferred once per call rather than once per item (nested
    ``grad(grad(...))`` would otherwise cost 100 ** depth)."""
    chk = checker(ctx.api)
    defining = _names.JACREV if fullname == _names.JACOBIAN else fullname
    module_name, _, name = defining.rpartition(".")
    module = chk.modules.get(module_name) if chk is not None else None
    node = module.names.get(name) if module is not None else None
    ovl = node.node.type if node is not None and isinstance(node.node, OverloadedFuncDef) else None
    if not isinstance(ovl, Overloaded):
        return True
    return _shape(ctx.default_signature) == _shape(ovl.items[0])


def signature_hook(ctx: FunctionSigContext, fullname: str) -> CallableType:
    """``grad(f, ...)`` before overload matching: the plugin's own signature, so a call the
    overloads cannot type (argnums 7, a 4-tuple, a function returning str) gets the plugin's
    answer and its message instead of "No overload variant matches"."""
    sig = ctx.default_signature
    exprs = dict(zip(sig.arg_names, ctx.args, strict=False))
    if len(exprs.get("fun", [])) != 1 or not _is_first_overload(ctx, fullname):
        return sig
    args = {
        name: Arg(e[0], ctx.api.get_expression_type(e[0]))
        for name, e in exprs.items()
        if name is not None and len(e) == 1
    }
    result = analyze(ctx.api, ctx.context, KIND[fullname], args["fun"].type, args)
    if result is None:
        return sig
    int_t = ctx.api.named_generic_type("builtins.int", [])
    loose: dict[str | None, Type] = {
        "fun": args["fun"].type,
        "argnums": UnionType.make_union(
            [int_t, ctx.api.named_generic_type("typing.Sequence", [int_t])]
        ),
    }
    bool_t = ctx.api.named_generic_type("builtins.bool", [])
    types = [loose.get(n, bool_t) for n in sig.arg_names]
    return sig.copy_modified(arg_types=types, ret_type=result)  # pyright: ignore[reportUnknownMemberType]  (mypy's Bogus[] parameters)
