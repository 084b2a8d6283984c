"""Forward and reverse mode: the JVP trace, linearization, and transposition of linear jaxprs.

``JVPTrace`` carries (primal, tangent) pairs and applies each primitive's jvp rule with
its parent trace current. ``linearize`` runs the same trace with tangents that are
tracers of a staging trace, routed by a ``PartialEvalTrace``: primal work runs in the
parent (so Python control flow on primal values works, as in JAX), tangent work is
staged into a linear jaxpr whose constants are the residuals. ``backward_pass``
transposes such a jaxpr: equations that do not depend on the linear inputs are
evaluated forward (rematerialised values, seed 000), the linear ones are transposed in
reverse order with each primitive's transpose rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jax_core._src.core.effects import partial_eval_kept_effects
from jax_core._src.dtypes import float0
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import Trace, Tracer, current_trace, get_aval, set_current_trace
from jax_core._src.interpreters.ad_util import (
    UndefinedPrimal,
    Zero,
    add_tangents,
    instantiate_zeros,
    is_differentiable,
    tangent_aval,
)
from jax_core._src.interpreters.partial_eval import PartialEvalTrace
from jax_core._src.interpreters.staging import DebugInfo, JaxprTrace, trace_to_jaxpr


class JVPTracer(Tracer):
    """A primal value with its tangent (a ``Zero`` or an array)."""

    __slots__ = ("primal", "tangent")

    _trace: JVPTrace

    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any) -> None:
        super().__init__(trace)
        self.primal: Any = primal
        self.tangent: Any = tangent

    @property
    def aval(self) -> ShapedArray:
        """The aval of the primal."""
        return get_aval(self.primal)

    def to_concrete_value(self) -> Any:
        """The primal's concrete value, when it has one (so ``if x > 0`` works under grad)."""
        p = self.primal
        return p.to_concrete_value() if isinstance(p, Tracer) else p

    def provenance(self) -> str:
        """Where the primal became a tracer, if it is one."""
        return self.primal.provenance() if isinstance(self.primal, Tracer) else ""


class JVPTrace(Trace):
    """Applies jvp rules; ``rule_trace`` is where rules compute (the parent, or a linearize router)."""

    __slots__ = ("parent", "rule_trace", "_live")

    def __init__(self, parent: Trace, rule_trace: Trace | None = None) -> None:
        self.parent: Trace = parent
        self.rule_trace: Trace = parent if rule_trace is None else rule_trace
        self._live = True

    def is_live(self) -> bool:
        """Whether the transformation is still running."""
        return self._live

    def close(self) -> None:
        """Ends the trace."""
        self._live = False

    def describe(self) -> str:
        """``JVPTrace``."""
        return "JVPTrace"

    def lift(self, x: Any) -> tuple[Any, Any]:
        """``(primal, tangent)`` for an operand; values from outside have zero tangents."""
        if isinstance(x, JVPTracer) and x.belongs_to(self):
            return x.primal, x.tangent
        if isinstance(x, Tracer):
            x.check_live()
        return x, Zero.from_primal_value(x)

    def wrap(self, primal: Any, tangent: Any) -> Any:
        """A tracer for ``(primal, tangent)``; a zero tangent leaves the primal bare."""
        return primal if isinstance(tangent, Zero) else JVPTracer(self, primal, tangent)

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive``'s jvp rule, or just the primitive when no tangent is nonzero."""
        pairs = [self.lift(a) for a in args]
        primals = [p for p, _ in pairs]
        tangents = [t for _, t in pairs]
        if all(isinstance(t, Zero) for t in tangents):
            with set_current_trace(self.parent):
                return primitive.bind(*primals, **params)
        rule = primitive.rule("jvp")
        with set_current_trace(self.rule_trace):
            primal_out, tangent_out = rule(primals, tangents, **params)
        if primitive.multiple_results:
            if len(primal_out) != len(tangent_out):
                raise ValueError(
                    f"The jvp rule of primitive '{primitive.name}' returned {len(primal_out)} primal outputs "
                    f"and {len(tangent_out)} tangent outputs; it must return one tangent per output"
                )
            for p, t in zip(primal_out, tangent_out):
                _check_rule_tangent(primitive, p, t)
            return [self.wrap(p, t) for p, t in zip(primal_out, tangent_out, strict=True)]
        _check_rule_tangent(primitive, primal_out, tangent_out)
        return self.wrap(primal_out, tangent_out)

    def process_custom_rule(
        self, rule: Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]], args: Sequence[Any]
    ) -> list[Any] | None:
        """Applies a custom derivative rule to the primals and tangents of ``args`` (``None`` when
        every tangent is zero): how ``custom_jvp``/``custom_vjp`` functions whose Python control
        flow depends on values differentiate outside ``jit``, on the primals themselves."""
        pairs = [self.lift(a) for a in args]
        tangents = [t for _, t in pairs]
        if all(isinstance(t, Zero) for t in tangents):
            return None
        with set_current_trace(self.rule_trace):
            primal_out, tangent_out = rule([p for p, _ in pairs], tangents)
        return [self.wrap(p, t) for p, t in zip(primal_out, tangent_out, strict=True)]


def _check_rule_tangent(primitive: Primitive, primal: Any, tangent: Any) -> None:
    """A ``ValueError`` naming the primitive when its jvp rule returned a tangent whose shape
    does not match its primal output's (or an inexact tangent for an integer output)."""
    if isinstance(tangent, Zero):
        return
    expected = tangent_aval(get_aval(primal))
    got = get_aval(tangent)
    if got.shape != expected.shape or (got.dtype != expected.dtype and expected.dtype != float0):
        raise ValueError(
            f"The jvp rule of primitive '{primitive.name}' returned a tangent of type {got.str_short()} "
            f"for a primal output of type {get_aval(primal).str_short()}; the tangent must be "
            f"{expected.str_short()} (or a Zero)"
        )


def _check_tangent(primal: Any, tangent: Any) -> None:
    expected = tangent_aval(get_aval(primal))
    got = get_aval(tangent)
    if got.shape != expected.shape or got.dtype != expected.dtype:
        raise ValueError(
            "jvp called with different primal and tangent shapes/dtypes: "
            f"primal {get_aval(primal).str_short()} expects tangent {expected.str_short()}, "
            f"got {got.str_short()}"
        )


def jvp_flat(fun: Callable[..., Sequence[Any]], primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """Forward mode on flat lists: ``fun(*primals)`` and its directional derivative."""
    trace = JVPTrace(current_trace())
    ins: list[Any] = []
    for p, t in zip(primals, tangents, strict=True):
        if not isinstance(t, Zero):
            _check_tangent(p, t)
        ins.append(trace.wrap(p, t))
    try:
        with set_current_trace(trace):
            outs = fun(*ins)
        pairs = [trace.lift(o) for o in outs]
    finally:
        trace.close()
    return [p for p, _ in pairs], [t for _, t in pairs]


class Linearized:
    """The result of linearizing a function: its linear (tangent) jaxpr and residuals.

    ``jaxpr`` maps the nonzero input tangents to the output tangents; ``consts`` are the
    residuals it closes over. ``out_zero[i]`` marks outputs whose tangent is symbolically
    zero (they are not outputs of ``jaxpr``).
    """

    __slots__ = ("jaxpr", "in_avals", "in_nonzero", "out_avals", "out_zero")

    def __init__(
        self,
        jaxpr: ClosedJaxpr,
        in_avals: list[ShapedArray],
        in_nonzero: list[bool],
        out_avals: list[ShapedArray],
        out_zero: list[bool],
    ) -> None:
        self.jaxpr: ClosedJaxpr = jaxpr
        self.in_avals: list[ShapedArray] = in_avals
        self.in_nonzero: list[bool] = in_nonzero
        self.out_avals: list[ShapedArray] = out_avals
        self.out_zero: list[bool] = out_zero

    def apply(self, tangents: Sequence[Any]) -> list[Any]:
        """The output tangents for input tangents (forward application of the linear map)."""
        from jax_core._src.core.jaxpr import eval_jaxpr

        ins = [instantiate_zeros(t) for t, nz in zip(tangents, self.in_nonzero) if nz]
        outs = iter(eval_jaxpr(self.jaxpr.jaxpr, self.jaxpr.consts, *ins))
        return [Zero(tangent_aval(a)) if z else next(outs) for a, z in zip(self.out_avals, self.out_zero)]

    def transpose(self, cts: Sequence[Any]) -> list[Any]:
        """The input cotangents for output cotangents (``Zero`` where nothing flows)."""
        live_cts = [ct for ct, z in zip(cts, self.out_zero) if not z]
        undefined = [UndefinedPrimal(v.aval) for v in self.jaxpr.jaxpr.invars]
        cts_in = iter(backward_pass(self.jaxpr.jaxpr, self.jaxpr.consts, undefined, live_cts))
        return [next(cts_in) if nz else Zero(tangent_aval(a)) for a, nz in zip(self.in_avals, self.in_nonzero)]


def linearize_flat(
    fun: Callable[..., Sequence[Any]], primals: Sequence[Any], debug: DebugInfo
) -> tuple[list[Any], Linearized]:
    """Runs ``fun`` on ``primals`` and stages its tangent map into a linear jaxpr.

    Inputs with integer or bool dtypes get zero (float0) tangents and are not inputs of
    the linear jaxpr.
    """
    parent = current_trace()
    tangent_trace = JaxprTrace(debug)
    avals = [get_aval(p) for p in primals]
    nonzero = [is_differentiable(a) for a in avals]
    trace = JVPTrace(parent, PartialEvalTrace(parent, tangent_trace))
    ins = [
        JVPTracer(trace, p, tangent_trace.new_arg(tangent_aval(a).strip_weak_type())) if nz else p
        for p, a, nz in zip(primals, avals, nonzero)
    ]
    try:
        with set_current_trace(trace):
            outs = fun(*ins)
        pairs = [trace.lift(o) for o in outs]
    finally:
        trace.close()
    primals_out = [p for p, _ in pairs]
    tangents_out = [t for _, t in pairs]
    out_zero = [isinstance(t, Zero) for t in tangents_out]
    jaxpr = tangent_trace.finish([t for t in tangents_out if not isinstance(t, Zero)])
    out_avals = [get_aval(p) for p in primals_out]
    return primals_out, Linearized(jaxpr, avals, nonzero, out_avals, out_zero)


# -- transposition ---------------------------------------------------------------------------
def backward_pass(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any], cts_out: Sequence[Any]) -> list[Any]:
    """Transposes ``jaxpr`` with respect to its ``UndefinedPrimal`` inputs.

    ``args`` gives each input: an ``UndefinedPrimal`` (linear) or a value. Returns one
    cotangent per input (``Zero`` when none flows; non-linear inputs get ``None``).
    Equations with no linear operand are evaluated forward first, in the current trace.
    """
    env: dict[Var, Any] = {}
    linear: set[Var] = set()

    def read(a: Any) -> Any:
        return a.val if isinstance(a, Literal) else env[a]

    for v, c in zip(jaxpr.constvars, consts, strict=True):
        env[v] = c
    for v, x in zip(jaxpr.invars, args, strict=True):
        if isinstance(x, UndefinedPrimal):
            linear.add(v)
        else:
            env[v] = x
    linear_eqns: list[JaxprEqn] = []
    for eqn in jaxpr.eqns:
        if any(isinstance(a, Var) and a in linear for a in eqn.invars):
            linear.update(eqn.outvars)
            linear_eqns.append(eqn)
            continue
        if not eqn.outvars and eqn.effects and not partial_eval_kept_effects.filter_not_in(eqn.effects):
            continue  # a debug callback on forward values: it ran in the forward pass (or remat)
        outs = eqn.primitive.bind(*map(read, eqn.invars), **eqn.params)
        for v, x in zip(eqn.outvars, outs if eqn.primitive.multiple_results else [outs], strict=True):
            env[v] = x

    ct_env: dict[Var, Any] = {}

    def accumulate(v: Atom, ct: Any) -> None:
        if isinstance(v, Var) and v in linear and ct is not None:
            ct_env[v] = add_tangents(ct_env[v], ct) if v in ct_env else ct

    for out, ct in zip(jaxpr.outvars, cts_out, strict=True):
        accumulate(out, ct)
    for eqn in reversed(linear_eqns):
        cts = [ct_env.pop(v, None) for v in eqn.outvars]
        if all(ct is None or isinstance(ct, Zero) for ct in cts):
            continue
        cts = [Zero(tangent_aval(v.aval)) if ct is None else ct for ct, v in zip(cts, eqn.outvars)]
        operands = [UndefinedPrimal(a.aval) if isinstance(a, Var) and a in linear else read(a) for a in eqn.invars]
        rule = eqn.primitive.rule("transpose")
        cts_in = rule(cts if eqn.primitive.multiple_results else cts[0], *operands, **eqn.params)
        for a, ct in zip(eqn.invars, cts_in, strict=True):
            accumulate(a, ct)
    return [
        (ct_env.get(v) if v in ct_env else Zero(tangent_aval(v.aval))) if isinstance(x, UndefinedPrimal) else None
        for v, x in zip(jaxpr.invars, args)
    ]


# -- jaxpr-to-jaxpr transformations used by higher-order primitives -----------------------------
def jvp_jaxpr(
    closed: ClosedJaxpr, nonzeros: Sequence[bool], instantiate: bool | Sequence[bool]
) -> tuple[ClosedJaxpr, list[bool]]:
    """The jaxpr of ``(primals, nonzero tangents) -> (primal outs, nonzero tangent outs)``."""
    from jax_core._src.core.jaxpr import eval_jaxpr

    n_out = len(closed.jaxpr.outvars)
    inst = [instantiate] * n_out if isinstance(instantiate, bool) else list(instantiate)
    avals = closed.in_avals
    out_nonzero: list[bool] = []

    def fun(*args: Any) -> list[Any]:
        primals = list(args[: len(avals)])
        it = iter(args[len(avals) :])
        tangents = [next(it) if nz else Zero(tangent_aval(a)) for a, nz in zip(avals, nonzeros)]
        outs_p, outs_t = jvp_flat(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), primals, tangents)
        outs_t = [instantiate_zeros(t) if i and isinstance(t, Zero) else t for t, i in zip(outs_t, inst)]
        out_nonzero[:] = [not isinstance(t, Zero) for t in outs_t]
        return [*outs_p, *(t for t in outs_t if not isinstance(t, Zero))]

    tangent_avals = [tangent_aval(a) for a, nz in zip(avals, nonzeros) if nz]
    jaxpr = trace_to_jaxpr(fun, [*avals, *tangent_avals], DebugInfo("jvp", None))
    return jaxpr, out_nonzero


def transpose_jaxpr(closed: ClosedJaxpr, linear: Sequence[bool]) -> ClosedJaxpr:
    """The jaxpr of ``(non-linear inputs, output cotangents) -> linear inputs' cotangents``.

    Zero cotangents are materialised so the result has one output per linear input.
    """
    in_avals = closed.in_avals
    nonlin_avals = [a for a, lin in zip(in_avals, linear) if not lin]
    ct_avals = [tangent_aval(a) for a in closed.out_avals]

    def fun(*args: Any) -> list[Any]:
        it = iter(args[: len(nonlin_avals)])
        operands = [UndefinedPrimal(a) if lin else next(it) for a, lin in zip(in_avals, linear)]
        cts = backward_pass(closed.jaxpr, closed.consts, operands, args[len(nonlin_avals) :])
        return [instantiate_zeros(ct) for ct, lin in zip(cts, linear) if lin]

    return trace_to_jaxpr(fun, [*nonlin_avals, *ct_avals], DebugInfo("transpose", None))
