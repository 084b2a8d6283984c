"""``custom_jvp`` and ``custom_vjp``: user-defined differentiation rules.

A decorated function is staged as one ``custom_jvp_call`` / ``custom_vjp_call`` equation
holding the traced function and the (flattened) rules. Differentiation replaces it with
the user's rule: ``custom_jvp`` runs the jvp rule; ``custom_vjp`` runs ``fwd`` and stages a
``custom_lin`` equation whose transpose calls ``bwd``. Batching vectorises the rules too.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import ConcretizationTypeError, TracerIntegerConversionError
from jax_core._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.source_info import function_location
from jax_core._src.core.trace import current_trace, eval_trace, get_aval, set_current_trace
from jax_core._src.interpreters.ad import JVPTrace
from jax_core._src.interpreters.partial_eval import PartialEvalTrace
from jax_core._src.interpreters.ad_util import (
    SymbolicZero,
    UndefinedPrimal,
    Zero,
    from_symbolic_zero,
    instantiate_zeros,
    tangent_aval,
    to_symbolic_zero,
)
from jax_core._src.interpreters.batching import batch_jaxpr, vmap_flat
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front, moveaxis
from jax_core._src.interpreters.staging import (
    DebugInfo,
    convert_constvars_to_invars,
    trace_to_jaxpr,
)
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.transforms.remat_opt import remat_opt_fwd
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_structure, tree_unflatten

P = ParamSpec("P")
Q = ParamSpec("Q")
R = TypeVar("R")
T = TypeVar("T")
Res = TypeVar("Res")

FlatJvp = Callable[[Sequence[Any], Sequence[Any]], tuple[list[Any], list[Any]]]
FlatFwd = Callable[..., tuple[list[Any], list[Any]]]  # (primals, perturbed: Sequence[bool] | None)
FlatBwd = Callable[[Sequence[Any], Sequence[Any]], list[Any]]

class CustomVJPPrimal:
    """An argument of a ``custom_vjp`` forward rule defined with ``symbolic_zeros=True``: the
    primal ``value`` and whether it is ``perturbed`` (differentiated)."""

    __slots__ = ("value", "perturbed")

    def __init__(self, value: Any, perturbed: bool) -> None:
        self.value: Any = value
        self.perturbed: bool = perturbed

    def __repr__(self) -> str:
        return f"CustomVJPPrimal(value={self.value!r}, perturbed={self.perturbed})"


def custom_vjp_primal_tree_values(tree: Any) -> Any:
    """``tree`` with each ``CustomVJPPrimal`` leaf replaced by its value (for forward rules
    defined with ``symbolic_zeros=True``)."""
    from jax_core._src.tree.tree_util import tree_map

    def value(leaf: Any) -> Any:
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"unexpected leaf type {type(leaf)}")
        return leaf.value

    return tree_map(value, tree)


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """The zero tangent of every leaf of ``val``: ``SymbolicZero``s, or arrays of zeros."""
    from jax_core._src.interpreters.ad_util import zeros_like_aval
    from jax_core._src.tree.tree_util import tree_map

    def zero(x: Any) -> Any:
        aval = tangent_aval(get_aval(x))
        return SymbolicZero(aval) if symbolic_zeros else zeros_like_aval(aval)

    return tree_map(zero, val)


_CLOSURE_MSG = (
    "Detected differentiation of a custom_{kind} function with respect to a closed-over value. "
    "That isn't supported because the custom {rule} rule only specifies how to differentiate the "
    "custom_{kind} function with respect to explicit input parameters. Pass the value as an explicit "
    "argument, or use jax_core.closure_convert."
)


# -- shared call machinery ------------------------------------------------------------------
def _call_abstract_eval(*avals: ShapedArray, call_jaxpr: ClosedJaxpr, **params: Any) -> list[ShapedArray]:
    return call_jaxpr.out_avals


def _call_impl(*args: Any, call_jaxpr: ClosedJaxpr, **params: Any) -> list[Any]:
    return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


def _call_lower(ctx: LoweringRuleContext, *args: ir.Value[ir.Type], call_jaxpr: ClosedJaxpr, **params: Any) -> list[ir.Value[ir.Type]]:
    return ctx.lower_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, args)


def _call_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    return [("name", params["name"]), ("call_jaxpr", params["call_jaxpr"]), ("num_consts", params["num_consts"])]


def _batched_call(
    prim: Primitive, args: Sequence[Any], dims: Sequence[int | None], params: dict[str, Any], rule_params: Callable[[int, list[bool]], dict[str, Any]]
) -> tuple[list[Any], list[int]]:
    size = axis_size(args, dims)
    moved = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    in_batched = [d is not None for d in dims]
    batched, _ = batch_jaxpr(params["call_jaxpr"], size, in_batched, instantiate=True)
    outs = prim.bind(*moved, **{**params, "call_jaxpr": batched, **rule_params(size, in_batched)})
    return list(outs), [0] * len(outs)


def _vmapped(fn: Callable[..., list[Any]], size: int, dims: Sequence[int | None]) -> Callable[..., list[Any]]:
    """``fn`` on flat arguments, vectorised with batch axes ``dims``; outputs batched at 0."""

    def run(*args: Any) -> list[Any]:
        return vmap_flat(fn, args, dims, lambda n: [0] * n, size)

    return run


def _as_tuple(x: object) -> tuple[Any, ...] | None:
    return tuple(cast("tuple[object, ...]", x)) if isinstance(x, tuple) else None


def _opaque_signature(*args: Any, **kwargs: Any) -> None:
    del args, kwargs


_OPAQUE = inspect.signature(_opaque_signature)


def _signature(fun: Callable[..., Any]) -> inspect.Signature:
    """What arguments resolve against (read once per custom function): ``fun``'s signature; an
    opaque one (positional arguments only) for a ``functools.partial``, as JAX, or when there is
    none to read (some builtins)."""
    if isinstance(fun, functools.partial):
        return _OPAQUE
    try:
        return inspect.signature(fun)
    except (TypeError, ValueError):
        return _OPAQUE


def _resolve_args(
    sig: inspect.Signature, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], kind: str
) -> tuple[Any, ...]:
    """The arguments as positional ones, defaults applied, as JAX resolves them: the rules (fwd,
    the jvp) get every argument of the function, including the defaulted ones."""
    try:
        bound = sig.bind(*args, **kwargs)
        bound.apply_defaults()
        passed = [k for k in bound.kwargs if k in kwargs]
        if passed:
            raise TypeError(f"The following keyword arguments could not be resolved to positions: {', '.join(passed)}")
    except TypeError as e:
        raise TypeError(
            f"The input arguments to the {kind}-decorated function {name} could not be "
            f"resolved to positional-only arguments. Binding failed with the error:\n{e}"
        ) from e
    return bound.args


def _split_nondiff(args: tuple[Any, ...], nondiff: tuple[int, ...]) -> tuple[dict[int, Any], list[Any]]:
    n = len(args)
    idx = {i % n for i in nondiff}
    return {i: args[i] for i in idx}, [a for i, a in enumerate(args) if i not in idx]


def _merge_nondiff(static: dict[int, Any], dyn: Sequence[Any]) -> list[Any]:
    it = iter(dyn)
    return [static[i] if i in static else next(it) for i in range(len(static) + len(dyn))]


# Tracing the function to a jaxpr fails when its Python control flow reads values.
_VALUE_DEPENDENT = (ConcretizationTypeError, TracerIntegerConversionError)


def _apply_rule_on_values(
    rule: Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]],
    leaves: list[Any],
    out_tree: list[PyTreeDef],
    call: Callable[[], R],
    err: Exception,
) -> R:
    """Differentiates a custom rule's function that cannot be traced abstractly, as JAX does outside
    ``jit``: under a JVP trace the rule runs on the primal values (which may be concrete); with no
    nonzero tangent, or on values a linearization knows, the call is made again one level up (where
    an outer JVP trace applies the rule in turn). Elsewhere the tracing error stands."""
    trace = current_trace()
    if isinstance(trace, PartialEvalTrace) and not any(trace.is_unknown(x) for x in leaves):
        with set_current_trace(trace.parent):  # known values are computed one level up
            return call()
    if not isinstance(trace, JVPTrace):
        raise err
    outs = trace.process_custom_rule(rule, leaves)
    if outs is None:
        with set_current_trace(trace.parent):
            return call()
    result: R = tree_unflatten(out_tree[0], outs)
    return result


# -- custom_jvp ---------------------------------------------------------------------------------
def _custom_jvp_call_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, jvp_fn: FlatJvp, num_consts: int, **params: Any) -> tuple[list[Any], list[Any]]:
    if any(not isinstance(t, Zero) for t in tangents[:num_consts]):
        raise TypeError(_CLOSURE_MSG.format(kind="jvp", rule="JVP"))
    return jvp_fn(primals[num_consts:], list(tangents[num_consts:]))  # jvp_fn instantiates zeros or not


def _custom_jvp_call_batch(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[list[Any], list[int]]:
    num_consts: int = params["num_consts"]
    jvp_fn: FlatJvp = params["jvp_fn"]

    def rule_params(size: int, in_batched: list[bool]) -> dict[str, Any]:
        arg_dims = [0 if b else None for b in in_batched[num_consts:]]
        n = len(arg_dims)

        def flat(*xs: Any) -> list[Any]:
            p, t = jvp_fn(xs[:n], xs[n:])
            return [*p, *t]

        run = _vmapped(flat, size, arg_dims + arg_dims)

        def batched_jvp(ps: Sequence[Any], ts: Sequence[Any]) -> tuple[list[Any], list[Any]]:
            outs = run(*ps, *ts)
            half = len(outs) // 2
            return outs[:half], outs[half:]

        return {"jvp_fn": batched_jvp}

    return _batched_call(custom_jvp_call_p, args, dims, params, rule_params)


custom_jvp_call_p: Primitive = Primitive("custom_jvp_call", multiple_results=True)
custom_jvp_call_p.def_rules(
    Rules(
        abstract_eval=_call_abstract_eval,
        lower=_call_lower,
        impl=_call_impl,
        jvp=_custom_jvp_call_jvp,
        batch=_custom_jvp_call_batch,
        pp=_call_pp,
    )
)


class custom_jvp(Generic[P, R]):
    """A function with a custom JVP rule: ``f = custom_jvp(fun)`` then ``@f.defjvp``.

    The rule is called as ``rule(*nondiff_args, primals, tangents)`` with tuples of the
    differentiable arguments and their tangents, and returns ``(primal_out, tangent_out)``.
    """

    fun: Callable[P, R]
    nondiff_argnums: tuple[int, ...]
    jvp: Callable[..., tuple[Any, Any]] | None
    symbolic_zeros: bool

    def __init__(self, fun: Callable[P, R], nondiff_argnums: Sequence[int] = ()) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self._signature = _signature(fun)
        self.jvp = None
        self.symbolic_zeros = False

    if not TYPE_CHECKING:  # at run time only: checkers keep seeing just the class's own attributes

        def __getattr__(self, name: str) -> Any:
            """Attributes of the wrapped function (e.g. ``def_vmap`` of a ``custom_vmap``
            inside), as JAX forwards them."""
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return getattr(self.fun, name)

    def defjvp(self, jvp: Callable[Q, tuple[R, T]], symbolic_zeros: bool = False) -> Callable[Q, tuple[R, T]]:
        """Defines the JVP rule (usable as a decorator); returns it.

        The rule returns ``(primal_out, tangent_out)``; ``primal_out`` has the function's
        result type. The rule keeps its own signature. With ``symbolic_zeros``, the tangent of an
        argument that is not differentiated arrives as a ``SymbolicZero`` (instead of an array of
        zeros), and the rule may return ``SymbolicZero``s.
        """
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *tangent_fns: Callable[..., Any] | None) -> None:
        """Defines the JVP by one function per argument, ``fn(tangent, primal_out, *primals)``,
        whose contributions are summed (``None`` for arguments with no contribution)."""
        if self.nondiff_argnums:
            raise TypeError("Can't use ``defjvps`` with ``nondiff_argnums``.")

        def jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
            out = cast(Callable[..., Any], self)(*primals)
            total: Any = None
            for fn, t in zip(tangent_fns, tangents):
                if fn is None:
                    continue
                contrib = fn(t, out, *primals)
                total = contrib if total is None else _tree_add(total, contrib)
            if total is None:
                from jax_core._src.tree.tree_util import tree_map

                total = tree_map(lambda o: instantiate_zeros(Zero.from_primal_value(o)), out)
            return out, total

        self.defjvp(jvp)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        name = getattr(self.fun, "__name__", "fun")
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {name} using `defjvp`.")
        full = _resolve_args(self._signature, name, tuple(args), dict(kwargs), "custom_jvp")
        plain: Callable[..., R] = self.fun
        if current_trace() is eval_trace:
            return plain(*full)
        static, dyn = _split_nondiff(full, self.nondiff_argnums)
        leaves, in_tree = tree_flatten(tuple(dyn))
        out_tree: list[PyTreeDef] = []
        fun: Callable[..., Any] = self.fun
        rule = self.jvp

        def flat(*xs: Any) -> list[Any]:
            out_leaves, tree = tree_flatten(fun(*_merge_nondiff(static, tree_unflatten(in_tree, xs))))
            out_tree.append(tree)
            return out_leaves

        symbolic = self.symbolic_zeros

        def jvp_fn(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
            p_args = tree_unflatten(in_tree, primals)
            t_args = tree_unflatten(in_tree, [to_symbolic_zero(t) if symbolic else instantiate_zeros(t) for t in tangents])
            res = rule(*(static[i] for i in sorted(static)), tuple(p_args), tuple(t_args))
            if not isinstance(res, (tuple, list)) or len(res) != 2:  # pyright: ignore[reportUnnecessaryIsInstance]
                raise TypeError(f"Custom JVP rule {function_location(rule)} must produce a pair (list or tuple of length two) representing primal and tangent outputs, but got {res!r}.")
            p_out, p_tree = tree_flatten(res[0])
            t_out, t_tree = tree_flatten(res[1])
            if not out_tree:  # the function was not traced (see _apply_rule_on_values)
                out_tree.append(p_tree)
            if p_tree != out_tree[0]:
                raise TypeError(f"Custom JVP rule must produce primal outputs with equal container (pytree) structures to the function's output, but got {p_tree} and {out_tree[0]}.")
            if p_tree != t_tree:
                raise TypeError(f"Custom JVP rule must produce primal and tangent outputs with equal container (pytree) structures, but got {p_tree} and {t_tree} respectively.")
            t_out = [from_symbolic_zero(t) for t in t_out]
            for p, t in zip(p_out, t_out):
                expected = tangent_aval(get_aval(p))
                got = t.aval if isinstance(t, Zero) else get_aval(t)
                if got.shape != expected.shape or got.dtype != expected.dtype:
                    raise TypeError(
                        "Custom JVP rule must produce primal and tangent outputs with corresponding shapes "
                        f"and dtypes. Expected {expected.str_short()} (tangent type of {get_aval(p).str_short()}) "
                        f"but got {got.str_short()}."
                    )
            return p_out, t_out

        try:
            closed = trace_to_jaxpr(flat, [get_aval(x) for x in leaves], DebugInfo("custom_jvp", fun))
        except _VALUE_DEPENDENT as err:
            rule_jvp = functools.partial(_custom_jvp_call_jvp, jvp_fn=jvp_fn, num_consts=0)
            return _apply_rule_on_values(rule_jvp, leaves, out_tree, functools.partial(self.__call__, *args, **kwargs), err)
        jaxpr, consts = convert_constvars_to_invars(closed)
        outs = custom_jvp_call_p.bind(
            *consts, *leaves, call_jaxpr=ClosedJaxpr(jaxpr, []), jvp_fn=jvp_fn, num_consts=len(consts), name=name
        )
        result: R = tree_unflatten(out_tree[0], outs)
        return result


def _tree_add(a: Any, b: Any) -> Any:
    from jax_core._src.interpreters.ad_util import add_tangents
    from jax_core._src.tree.tree_util import tree_map

    return tree_map(add_tangents, a, b)


# -- custom_vjp ---------------------------------------------------------------------------------
def _custom_vjp_call_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, fwd_fn: FlatFwd, bwd_fn: FlatBwd, num_consts: int, **params: Any) -> tuple[list[Any], list[Any]]:
    if any(not isinstance(t, Zero) for t in tangents[:num_consts]):
        raise TypeError(_CLOSURE_MSG.format(kind="vjp", rule="VJP"))
    outs, res = fwd_fn(primals[num_consts:], [not isinstance(t, Zero) for t in tangents[num_consts:]])
    tans = [instantiate_zeros(t) for t in tangents[num_consts:]]
    out_avals = [tangent_aval(get_aval(o)) for o in outs]
    touts = custom_lin_p.bind(*res, *tans, num_res=len(res), bwd=bwd_fn, out_avals=tuple(out_avals))
    return outs, list(touts)


def _custom_vjp_call_batch(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[list[Any], list[int]]:
    num_consts: int = params["num_consts"]
    fwd_fn: FlatFwd = params["fwd_fn"]
    bwd_fn: FlatBwd = params["bwd_fn"]

    def rule_params(size: int, in_batched: list[bool]) -> dict[str, Any]:
        arg_dims = [0 if b else None for b in in_batched[num_consts:]]
        n_out: list[int] = []

        def batched_fwd(ps: Sequence[Any], perturbed: Sequence[bool] | None = None) -> tuple[list[Any], list[Any]]:
            def fwd_flat(*xs: Any) -> list[Any]:
                outs, res = fwd_fn(xs, perturbed)
                n_out[:] = [len(outs)]
                return [*outs, *res]

            both = _vmapped(fwd_flat, size, arg_dims)(*ps)
            return both[: n_out[0]], both[n_out[0] :]

        def batched_bwd(res: Sequence[Any], cts: Sequence[Any]) -> list[Any]:
            cts = [instantiate_zeros(c) for c in cts]

            def flat(*xs: Any) -> list[Any]:
                return [instantiate_zeros(c) for c in bwd_fn(xs[: len(res)], xs[len(res) :])]

            return _vmapped(flat, size, [0] * (len(res) + len(cts)))(*res, *cts)

        return {"fwd_fn": batched_fwd, "bwd_fn": batched_bwd}

    return _batched_call(custom_vjp_call_p, args, dims, params, rule_params)


custom_vjp_call_p: Primitive = Primitive("custom_vjp_call", multiple_results=True)
custom_vjp_call_p.def_rules(
    Rules(
        abstract_eval=_call_abstract_eval,
        lower=_call_lower,
        impl=_call_impl,
        jvp=_custom_vjp_call_jvp,
        batch=_custom_vjp_call_batch,
        pp=_call_pp,
    )
)


def _custom_lin_abstract_eval(*avals: ShapedArray, out_avals: tuple[ShapedArray, ...], **params: Any) -> list[ShapedArray]:
    return list(out_avals)


def _custom_lin_impl(*args: Any, **params: Any) -> list[Any]:
    raise TypeError("can't apply forward-mode autodiff (jvp) to a custom_vjp function.")


def _custom_lin_transpose(cts: Sequence[Any], *args: Any, num_res: int, bwd: FlatBwd, out_avals: tuple[ShapedArray, ...]) -> list[Any]:
    res = args[:num_res]
    cts_in = bwd(res, list(cts))  # bwd instantiates zeros or not (symbolic_zeros)
    out: list[Any] = [None] * num_res
    for a, c in zip(args[num_res:], cts_in, strict=True):
        # A tangent that is a constant (an argument not being differentiated) gets no cotangent.
        out.append(None if not isinstance(a, UndefinedPrimal) else Zero(a.aval) if c is None else c)
    return out


def _custom_lin_batch(args: Sequence[Any], dims: Sequence[int | None], *, num_res: int, bwd: FlatBwd, out_avals: tuple[ShapedArray, ...]) -> tuple[list[Any], list[int]]:
    size = axis_size(args, dims)
    res = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args[:num_res], dims[:num_res])]
    res_dims = [None if d is None else 0 for d in dims[:num_res]]
    tans = [bdim_at_front(a, d, size) for a, d in zip(args[num_res:], dims[num_res:])]

    def batched_bwd(r: Sequence[Any], cts: Sequence[Any]) -> list[Any]:
        cts = [instantiate_zeros(c) for c in cts]

        def flat(*xs: Any) -> list[Any]:
            return [instantiate_zeros(c) if c is not None else None for c in bwd(xs[:num_res], xs[num_res:])]

        return vmap_flat(flat, [*r, *cts], [*res_dims, *([0] * len(cts))], lambda n: [0] * n, size)

    batched_avals = tuple(a.update(shape=(size, *a.shape)) for a in out_avals)
    outs = custom_lin_p.bind(*res, *tans, num_res=num_res, bwd=batched_bwd, out_avals=batched_avals)
    return list(outs), [0] * len(outs)


custom_lin_p: Primitive = Primitive("custom_lin", multiple_results=True)
custom_lin_p.def_rules(
    Rules(
        abstract_eval=_custom_lin_abstract_eval,
        impl=_custom_lin_impl,
        lower=_custom_lin_impl,
        jvp=_custom_lin_impl,
        transpose=_custom_lin_transpose,
        batch=_custom_lin_batch,
        pp=lambda params: [("num_res", params["num_res"])],
    )
)


class custom_vjp(Generic[P, R]):
    """A function with a custom VJP: ``f = custom_vjp(fun)`` then ``f.defvjp(fwd, bwd)``.

    ``fwd(*args)`` returns ``(out, residuals)``; ``bwd(*nondiff_args, residuals, ct)`` returns
    a tuple with one cotangent per differentiable argument (``None`` for zero).
    """

    fun: Callable[P, R]
    nondiff_argnums: tuple[int, ...]
    fwd: Callable[..., tuple[Any, Any]] | None
    bwd: Callable[..., Any] | None
    symbolic_zeros: bool
    optimize_remat: bool

    def __init__(self, fun: Callable[P, R], nondiff_argnums: Sequence[int] = ()) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self._signature = _signature(fun)
        self.fwd = None
        self.bwd = None
        self.symbolic_zeros = False
        self.optimize_remat = False

    if not TYPE_CHECKING:  # at run time only: checkers keep seeing just the class's own attributes

        def __getattr__(self, name: str) -> Any:
            """Attributes of the wrapped function (e.g. ``def_vmap`` of a ``custom_vmap``
            inside), as JAX forwards them."""
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)
            return getattr(self.fun, name)

    # fwd takes the function's parameters and returns ``(out, residuals)``; bwd takes
    # ``(residuals, out_cotangent)`` and returns a tuple with a cotangent per argument. With
    # ``nondiff_argnums`` bwd takes the non-differentiable arguments first (second overload).
    # fwd's parameters get their own ParamSpec (Q), not the function's (P): P carries the
    # function's default values, and rules are written without them (``def f(x, k=2.0)`` with
    # ``def f_fwd(x, k)``), which is correct and runs. The mypy plugin compares fwd's parameters
    # with the function's, defaults aside (docs/mypy-plugin.md).
    @overload
    def defvjp(
        self,
        fwd: Callable[Q, tuple[R, Res]],
        bwd: Callable[[Res, R], tuple[Any, ...]],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None: ...
    @overload
    def defvjp(
        self,
        fwd: Callable[Q, tuple[R, Any]],
        bwd: Callable[Concatenate[Any, Any, Any, ...], tuple[Any, ...]],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None: ...
    def defvjp(
        self,
        fwd: Callable[..., tuple[Any, Any]],
        bwd: Callable[..., Any],
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None:
        """Defines the forward (``fwd``) and backward (``bwd``) rules. With ``symbolic_zeros``,
        ``fwd`` receives each array argument as a ``CustomVJPPrimal`` (its ``value`` and whether it
        is ``perturbed``, i.e. differentiated), ``bwd`` receives a ``SymbolicZero`` for an output
        cotangent that is zero, and may return ``SymbolicZero``s. With ``optimize_remat``, ``fwd``
        is staged as one ``remat_opt`` equation, which runs the primal function instead when its
        residuals are not used (the forward pass under ``checkpoint``, which recomputes them):
        worthwhile when ``fwd`` is an expensive or opaque call (e.g. a custom call)."""
        self.fwd = fwd
        self.bwd = bwd
        self.symbolic_zeros = symbolic_zeros
        self.optimize_remat = optimize_remat
        if symbolic_zeros and optimize_remat:
            raise NotImplementedError("remat optimization for custom_vjp does not support symbolic zeros")

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        name = getattr(self.fun, "__name__", "fun")
        if self.fwd is None or self.bwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {name} using `defvjp`.")
        full = _resolve_args(self._signature, name, tuple(args), dict(kwargs), "custom_vjp")
        plain: Callable[..., R] = self.fun
        if current_trace() is eval_trace:
            return plain(*full)
        static, dyn = _split_nondiff(full, self.nondiff_argnums)
        static_vals = [static[i] for i in sorted(static)]
        leaves, in_tree = tree_flatten(tuple(dyn))
        out_tree: list[PyTreeDef] = []
        fun: Callable[..., Any] = self.fun
        fwd, bwd = self.fwd, self.bwd

        def flat(*xs: Any) -> list[Any]:
            out_leaves, tree = tree_flatten(fun(*_merge_nondiff(static, tree_unflatten(in_tree, xs))))
            out_tree.append(tree)
            return out_leaves

        res_tree: list[PyTreeDef] = []

        symbolic = self.symbolic_zeros

        def fwd_fn(primals: Sequence[Any], perturbed: Sequence[bool] | None = None) -> tuple[list[Any], list[Any]]:
            if symbolic:
                flags = [True] * len(primals) if perturbed is None else list(perturbed)
                primals = [CustomVJPPrimal(p, f) for p, f in zip(primals, flags, strict=True)]
            pair = fwd(*_merge_nondiff(static, tree_unflatten(in_tree, primals)))
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:  # pyright: ignore[reportUnnecessaryIsInstance]
                raise TypeError(
                    f"Custom VJP fwd rule {name} must produce a pair (list or tuple of length two) where the "
                    "first element represents the primal output and the second element represents residuals, "
                    f"but got {pair!r}."
                )
            outs, tree = tree_flatten(pair[0])
            if not out_tree:  # the function was not traced (see _apply_rule_on_values)
                out_tree.append(tree)
            if tree != out_tree[0]:
                raise TypeError(
                    f"Custom VJP fwd rule {name} must produce a pair (list or tuple of length two) where the first "
                    f"element represents the primal output (equal in value to the output of the custom_vjp-decorated "
                    f"function {name}, and in particular of the same container/pytree structure), but instead the fwd "
                    f"rule output's first element had container/pytree structure:\n    {tree}\nwhile the "
                    f"custom_vjp-decorated function {name} had output container/pytree structure:\n    {out_tree[0]}."
                )
            res, rt = tree_flatten(pair[1])
            res_tree[:] = [rt]
            return outs, res

        def bwd_fn(res: Sequence[Any], cts: Sequence[Any]) -> list[Any]:
            cts = [to_symbolic_zero(c) if symbolic else instantiate_zeros(c) for c in cts]
            out = bwd(*static_vals, tree_unflatten(res_tree[0], res), tree_unflatten(out_tree[0], cts))
            per_arg = _as_tuple(out)
            if per_arg is None or len(per_arg) != len(dyn):
                raise TypeError(
                    "Custom VJP bwd rule must produce an output with the same container (pytree) structure as the "
                    "args tuple of the primal function, and in particular must produce a tuple of length equal to "
                    "the number of arguments to the primal function, but got bwd output structure "
                    f"{tree_structure(out)} for primal input structure {in_tree}."
                )
            cts_in: list[Any] = []
            for o, arg in zip(per_arg, dyn):
                arg_leaves, arg_tree = tree_flatten(arg)
                if o is None:
                    cts_in.extend(None for _ in arg_leaves)
                    continue
                ls, t = tree_flatten(o, is_leaf=lambda x: x is None)
                if len(ls) != len(arg_leaves):
                    raise TypeError(
                        "Custom VJP bwd rule must produce an output with the same container (pytree) structure as "
                        f"the args tuple of the primal function, but got {t} for an argument of structure {arg_tree}."
                    )
                ls = [None if isinstance(c, SymbolicZero) else c for c in ls]
                for c, x in zip(ls, arg_leaves):
                    if c is not None and get_aval(c).shape != get_aval(x).shape:
                        raise ValueError(
                            f"Custom VJP bwd rule must produce an output with shapes/dtypes compatible with the "
                            f"primal input: expected {get_aval(x).str_short()}, got {get_aval(c).str_short()}."
                        )
                cts_in.extend(ls)
            return cts_in

        if self.optimize_remat:
            plain_fwd = fwd_fn

            def fwd_fn(primals: Sequence[Any], perturbed: Sequence[bool] | None = None) -> tuple[list[Any], list[Any]]:
                return remat_opt_fwd(plain_fwd, flat, primals)

        try:
            closed = trace_to_jaxpr(flat, [get_aval(x) for x in leaves], DebugInfo("custom_vjp", fun))
        except _VALUE_DEPENDENT as err:
            rule_vjp = functools.partial(_custom_vjp_call_jvp, fwd_fn=fwd_fn, bwd_fn=bwd_fn, num_consts=0)
            return _apply_rule_on_values(rule_vjp, leaves, out_tree, functools.partial(self.__call__, *args, **kwargs), err)
        jaxpr, consts = convert_constvars_to_invars(closed)
        outs = custom_vjp_call_p.bind(
            *consts,
            *leaves,
            call_jaxpr=ClosedJaxpr(jaxpr, []),
            fwd_fn=fwd_fn,
            bwd_fn=bwd_fn,
            num_consts=len(consts),
            name=name,
        )
        result: R = tree_unflatten(out_tree[0], outs)
        return result
