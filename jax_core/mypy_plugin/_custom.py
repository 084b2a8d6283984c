"""``custom_jvp.defjvp``/``defjvps`` and ``custom_vjp.defvjp``: the rules' shapes checked against
the function they differentiate (its parameters, defaults aside; one primal/tangent/cotangent per
differentiable parameter; the ``(output, ...)`` pairs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    Parameters,
    Type,
    get_proper_type,
)

from jax_core.mypy_plugin import _errors
from jax_core.mypy_plugin._args import Args, attrs_of, ints, named_args, value
from jax_core.mypy_plugin._types import (
    as_callable,
    callable_name,
    count,
    fmt,
    has_star_args,
    positional,
    tuple_items,
)

NONDIFF_ATTR = "__jax_core_nondiff__"


def _function(t: Instance) -> tuple[Parameters, Type] | None:
    """The parameters and result of the function a ``custom_jvp[P, R]`` wraps."""
    if len(t.args) != 2:
        return None
    params = get_proper_type(t.args[0])
    return (params, t.args[1]) if isinstance(params, Parameters) else None


def _nondiff(t: Instance) -> int:
    attrs = attrs_of(t)
    items = tuple_items(attrs[NONDIFF_ATTR]) if NONDIFF_ATTR in attrs else None
    return len(items) if items is not None else 0


def constructor_hook(ctx: FunctionContext) -> Type:
    """``custom_jvp(f, nondiff_argnums=...)``: remembers how many arguments are non-differentiable."""
    return record_nondiff(ctx.api, ctx.default_return_type, named_args(ctx))


def record_nondiff(api: CheckerPluginInterface, t: Type, args: Args) -> Type:
    """``t`` carrying the statically known ``nondiff_argnums`` of ``args``."""
    p = get_proper_type(t)
    nums = ints(value(args.get("nondiff_argnums")))
    if not isinstance(p, Instance) or not nums:
        return t
    return p.copy_with_extra_attr(NONDIFF_ATTR, args["nondiff_argnums"].type)


class _RuleCheck:
    def __init__(self, ctx: MethodContext, what: str) -> None:
        self.api: CheckerPluginInterface = ctx.api
        self.context: Context = ctx.context
        self.what = what

    def fail(self, msg: str) -> None:
        self.api.fail(f"{self.what}: {msg}", self.context, code=_errors.CUSTOM_RULE)

    def arity(self, rule: CallableType, expected: int, spelled: str) -> bool:
        n = len(positional(rule))
        if n != expected and not has_star_args(rule):
            self.fail(
                f"{callable_name(rule)} must take {spelled}, but it takes {count(n, 'positional parameter')}"
            )
            return False
        return True

    def tuple_param(
        self, rule: CallableType, index: int, label: str, expected: Sequence[Type]
    ) -> None:
        """The rule's ``label`` parameter, if annotated as a tuple, has one entry per
        differentiable parameter and accepts its type."""
        if index >= len(rule.arg_types) or not rule.arg_kinds[index].is_positional(star=False):
            return  # taken by ``*args``: nothing to compare
        items = tuple_items(rule.arg_types[index])
        if items is None:
            return
        if len(items) != len(expected):
            self.fail(
                f"{label} of {callable_name(rule)} is {fmt(self.api, rule.arg_types[index])}, but the "
                f"function has {count(len(expected), 'differentiable parameter')}"
            )
            return
        self.accepts(
            items,
            expected,
            lambda i, got, want: (
                f"entry {i} of {label} of {callable_name(rule)} is {got}, but the "
                f"function's parameter has type {want}"
            ),
        )

    def accepts(
        self, got: Sequence[Type], wanted: Sequence[Type], message: Callable[[int, str, str], str]
    ) -> None:
        """Each of ``got`` accepts the matching type of ``wanted``; else ``message(i, got,
        wanted)`` (the types formatted) is reported."""
        for i, (have, want) in enumerate(zip(got, wanted, strict=True)):
            if not is_subtype(want, have):
                self.fail(message(i, fmt(self.api, have), fmt(self.api, want)))

    def takes_parameters(
        self, rule: CallableType, params: Parameters, what: str, leading: str = ""
    ) -> None:
        """The rule's positional parameters (after the ``leading`` ones, spelled e.g.
        ``"(tangent, primal_out)"``) take the function's positional parameters, in number and
        type (each accepts the function's type); defaults aside, as rules are written without
        them. ``what`` names the rule in messages."""
        if has_star_args(rule):
            return
        first = leading.count(",") + 1 if leading else 0
        wanted = _differentiable(params, 0)
        got = [rule.arg_types[i] for i in positional(rule)][first:]
        if len(got) != len(wanted):
            self.fail(
                f"{what} must take {leading + ', then ' if leading else ''}the function's "
                f"{count(len(wanted), 'positional parameter')}, but it takes "
                f"{count(len(got), 'positional parameter')}{' after them' if leading else ''}"
            )
            return
        self.accepts(
            got,
            wanted,
            lambda i, have, want: (
                f"parameter {first + i} of {what} is {have}, but the "
                f"function's parameter {i} has type {want}"
            ),
        )

    def pair(self, rule: CallableType, out: Type, spelled: str) -> Sequence[Type] | None:
        """The rule returns a pair whose first element has the function's result type."""
        ret = rule.ret_type
        if isinstance(get_proper_type(ret), AnyType):
            return None
        items = tuple_items(ret)
        if items is None or len(items) != 2:
            self.fail(
                f"{callable_name(rule)} must return {spelled}, but it returns {fmt(self.api, ret)}"
            )
            return None
        if not is_subtype(items[0], out):
            self.fail(
                f"the first element returned by {callable_name(rule)} is {fmt(self.api, items[0])}, "
                f"but the function returns {fmt(self.api, out)}"
            )
        return items


def _differentiable(params: Parameters, nondiff: int) -> list[Type]:
    return [params.arg_types[i] for i, k in enumerate(params.arg_kinds) if k.is_positional()][
        nondiff:
    ]


def defjvp_hook(ctx: MethodContext) -> Type:
    """``@f.defjvp``: ``rule(*nondiff, primals, tangents) -> (primal_out, tangent_out)``."""
    t = get_proper_type(ctx.type)
    fn = _function(t) if isinstance(t, Instance) else None
    rule = as_callable(ctx.api, ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
    if fn is None or rule is None or not isinstance(t, Instance):
        return ctx.default_return_type
    params, out = fn
    k = _nondiff(t)
    check = _RuleCheck(ctx, "custom_jvp rule")
    if check.arity(
        rule,
        k + 2,
        "(primals, tangents)"
        if k == 0
        else f"{k} non-differentiable arguments, then (primals, tangents)",
    ):
        diff = _differentiable(params, k)
        check.tuple_param(rule, k, "primals", diff)
        check.tuple_param(rule, k + 1, "tangents", diff)
    check.pair(rule, out, "a pair (primal_out, tangent_out)")
    return ctx.default_return_type


def defvjp_hook(ctx: MethodContext) -> Type:
    """``f.defvjp(fwd, bwd)``: ``fwd`` takes the function's parameters and returns
    ``(out, residuals)``; ``bwd(*nondiff, residuals, g)`` returns one cotangent per
    differentiable parameter, as a tuple."""
    t = get_proper_type(ctx.type)
    fn = _function(t) if isinstance(t, Instance) else None
    if (
        fn is None
        or not isinstance(t, Instance)
        or len(ctx.arg_types) < 2
        or not ctx.arg_types[0]
        or not ctx.arg_types[1]
    ):
        return ctx.default_return_type
    fwd, bwd = as_callable(ctx.api, ctx.arg_types[0][0]), as_callable(ctx.api, ctx.arg_types[1][0])
    params, out = fn
    k = _nondiff(t)
    n_diff = len(_differentiable(params, k))
    check = _RuleCheck(ctx, "custom_vjp")
    if fwd is not None:
        check.takes_parameters(fwd, params, callable_name(fwd))
        check.pair(fwd, out, "a pair (output, residuals)")
    if bwd is not None and check.arity(
        bwd,
        k + 2,
        "(residuals, output_cotangent)"
        if k == 0
        else f"{k} non-differentiable arguments, then (residuals, output_cotangent)",
    ):
        ret = bwd.ret_type
        items = tuple_items(ret)
        p = get_proper_type(ret)
        is_tuple_instance = isinstance(p, Instance) and p.type.fullname == "builtins.tuple"
        if items is not None and len(items) != n_diff:
            check.fail(
                f"{callable_name(bwd)} returns {fmt(ctx.api, ret)}, but the function has "
                f"{count(n_diff, 'differentiable parameter')}: return one cotangent per parameter"
            )
        elif items is None and not is_tuple_instance and not isinstance(p, AnyType):
            check.fail(
                f"{callable_name(bwd)} must return a tuple with one cotangent per differentiable "
                f"parameter ({n_diff}), but it returns {fmt(ctx.api, ret)}"
            )
    return ctx.default_return_type


def defjvps_hook(ctx: MethodContext) -> Type:
    """``f.defjvps(*fns)``: one function (or None) per parameter, each called as
    ``fn(tangent, primal_out, *primals)`` with the primals unpacked; checked like the packed
    ``defjvp`` rule (the primals' number and types). JAX rejects it with ``nondiff_argnums``."""
    t = get_proper_type(ctx.type)
    fn = _function(t) if isinstance(t, Instance) else None
    if fn is None or not isinstance(t, Instance) or not ctx.arg_types:
        return ctx.default_return_type
    params, _ = fn
    check = _RuleCheck(ctx, "custom_jvp.defjvps")
    if _nondiff(t):
        check.fail("Can't use defjvps with nondiff_argnums; define the rule with defjvp")
        return ctx.default_return_type
    n = len(_differentiable(params, 0))
    rules = ctx.arg_types[0]
    if len(rules) > n:
        check.fail(
            f"got {count(len(rules), 'function')}, but the function has "
            f"{count(n, 'positional parameter')}: pass one per parameter (None for none)"
        )
        return ctx.default_return_type
    for i, r in enumerate(rules):
        if isinstance(get_proper_type(r), NoneType):
            continue
        rule = as_callable(ctx.api, r)
        if rule is not None:
            name = callable_name(rule)
            what = f"the tangent function of parameter {i}" if name == "the function" else name
            check.takes_parameters(rule, params, what, "(tangent, primal_out)")
    return ctx.default_return_type
