"""Partial evaluation: split a computation into the part whose inputs are known now and
the part staged for later (the tangent map of ``linearize``, the backward pass of ``grad``).

A ``PartialEvalTrace`` routes each primitive: operands all known -> the parent trace
(computed now); any operand unknown (a tracer of the staged trace) -> the staged trace,
which captures the known operands it needs as constants: those are the *residuals*.
Higher-order primitives with mixed operands use their ``partial_eval`` rule to split
their inner jaxpr the same way.

``partial_eval_jaxpr`` applies this to a jaxpr (known side staged too). With a
``saveable`` policy (``checkpoint``), known values the policy does not allow to be saved
are recomputed on the staged side from saved ones instead of becoming residuals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple, TypeAlias

from jax_core._src.core.effects import partial_eval_kept_effects
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, Literal, Var, dce_jaxpr, eval_jaxpr
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.trace import Trace, Tracer, get_aval, set_current_trace
from jax_core._src.interpreters.staging import (
    DebugInfo,
    JaxprTrace,
    JaxprTracer,
    convert_constvars_to_invars,
)

class RecomputeType:
    """The type of ``Recompute``: a policy's answer "recompute this value on the backward pass"."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Recompute"


class SaveableType:
    """The type of ``Saveable``: a policy's answer "save this value for the backward pass"."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Saveable"


Recompute: Final = RecomputeType()
Saveable: Final = SaveableType()


class Offloadable(NamedTuple):
    """A policy's answer "save this value in another memory space": ``src`` to ``dst`` (e.g.
    ``"device"`` to ``"pinned_host"``)."""

    src: str
    dst: str


RematCase: TypeAlias = "bool | RecomputeType | SaveableType | Offloadable"
SaveablePolicy: TypeAlias = Callable[..., RematCase]
"""``policy(prim, *avals_in, **params)``: may this equation's output be saved? ``True`` or
``Saveable``: yes; ``False`` or ``Recompute``: no, recompute it."""


def saves(case: object) -> bool:
    """Whether a policy's answer saves the value."""
    if isinstance(case, Offloadable):
        raise NotImplementedError(
            "checkpoint policies that offload residuals to another memory space (Offloadable) are "
            "not implemented by jax_core: its CPU arrays have one memory space. Use a policy that "
            "saves or recomputes."
        )
    return case is Saveable or (case is not Recompute and bool(case))


class PartialEvalTrace(Trace):
    """Computes known work in ``parent`` and stages work on unknown values into ``staged``."""

    __slots__ = ("parent", "staged")

    def __init__(self, parent: Trace, staged: JaxprTrace) -> None:
        self.parent = parent
        self.staged = staged

    def describe(self) -> str:
        """``JaxprTrace`` (JAX's name for the partial-evaluation trace)."""
        return "JaxprTrace"

    def is_unknown(self, x: object) -> bool:
        """Whether ``x`` is a value staged for later."""
        return isinstance(x, JaxprTracer) and x.belongs_to(self.staged)

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Routes ``primitive`` by whether its operands are known."""
        unknown = [self.is_unknown(a) for a in args]
        if not any(unknown):
            with set_current_trace(self.parent):
                out = primitive.bind(*args, **params)
            if isinstance(self.staged, _RecomputingTrace) and self.staged.replays(primitive, args, params):
                self.staged.process_primitive(primitive, args, params)
            return out
        rule = primitive.rules.partial_eval
        if rule is None or all(unknown):
            return self.staged.process_primitive(primitive, args, params)
        return rule(self, args, unknown, **params)

    def bind_known(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive`` to known operands now."""
        with set_current_trace(self.parent):
            return primitive.bind(*args, **params)

    def bind_staged(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Stages ``primitive`` (known operands become residuals)."""
        return self.staged.process_primitive(primitive, args, params)

    @property
    def saveable(self) -> SaveablePolicy | None:
        """The ``checkpoint`` policy this split applies, if any: higher-order primitives split
        their bodies with it, so what they save inside is what the policy allows (as JAX)."""
        return self.staged.saveable if isinstance(self.staged, _RecomputingTrace) else None

    def mark_saved(self, residuals: Sequence[Any]) -> None:
        """Known values a higher-order primitive's rule produced as residuals under ``saveable``:
        the staged side captures them rather than recomputing the equation that made them."""
        if isinstance(self.staged, _RecomputingTrace):
            self.staged.saved.update(x.jaxpr_var for x in residuals if isinstance(x, JaxprTracer))


class _RecomputingTrace(JaxprTrace):
    """A staged trace that recomputes, rather than captures, known values the policy won't save."""

    __slots__ = ("known", "saveable", "saved", "_by_var")

    def __init__(self, debug: DebugInfo, known: JaxprTrace, saveable: SaveablePolicy) -> None:
        super().__init__(debug)
        self.known = known
        self.saveable = saveable
        self.saved: set[Var] = set()  # residual outputs of higher-order equations split under the policy
        self._by_var: dict[Var, JaxprTracer] = {}

    def replays(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> bool:
        """Whether a known equation with effects that rematerialization keeps (``debug.print``,
        ``debug.callback``: ``partial_eval_kept_effects``) is also staged, as JAX's remat does:
        when the policy does not save it, or when all its operands are inputs anyway (it then runs
        in the forward pass and again where the backward pass recomputes)."""
        avals = [a.aval if isinstance(a, Tracer) else get_aval(a) for a in args]
        if not partial_eval_kept_effects.filter_in(primitive.effects_of(avals, params)):
            return False
        if not saves(self.saveable(primitive, *avals, **params)):
            return True
        return all(isinstance(a, JaxprTracer) and a.belongs_to(self.known) and a.jaxpr_var in self.known.invars for a in args)

    def const_tracer(self, x: Any) -> JaxprTracer:
        """Known tracers made by unsaveable equations are replayed here; others are residuals."""
        if not (isinstance(x, JaxprTracer) and x.belongs_to(self.known)):
            return super().const_tracer(x)
        var = x.jaxpr_var
        done = self._by_var.get(var)
        if done is not None:
            return done
        eqn = self.known.producer(var)
        if eqn is None or var in self.saved or saves(self.saveable(eqn.primitive, *(a.aval for a in eqn.invars), **eqn.params)):
            tracer = super().const_tracer(x)
        else:
            operands = [a.val if isinstance(a, Literal) else self.known.tracer_for(a) for a in eqn.invars]
            outs = self.process_primitive(eqn.primitive, operands, eqn.params)
            outs = outs if eqn.primitive.multiple_results else [outs]
            for v, t in zip(eqn.outvars, outs):
                if v not in self.saved:  # the saved ones stay residuals
                    self._by_var[v] = t
            tracer = self._by_var[var]
        self._by_var[var] = tracer
        return tracer


def partial_eval_jaxpr(
    closed: ClosedJaxpr,
    unknowns: Sequence[bool],
    instantiate: bool | Sequence[bool],
    saveable: SaveablePolicy | None = None,
) -> tuple[ClosedJaxpr, ClosedJaxpr, list[bool], int]:
    """Splits ``closed`` by which inputs are unknown.

    Returns ``(known, staged, out_unknowns, num_res)``: ``known`` maps the known inputs to
    the known outputs followed by ``num_res`` residuals; ``staged`` maps the residuals
    followed by the unknown inputs to the unknown outputs. ``instantiate`` forces outputs
    to be unknown (computed by ``staged``) even when they are known.
    """
    debug = DebugInfo("partial_eval", None)
    known = JaxprTrace(debug)
    staged = JaxprTrace(debug) if saveable is None else _RecomputingTrace(debug, known, saveable)
    ins = [staged.new_arg(a) if u else known.new_arg(a) for a, u in zip(closed.in_avals, unknowns, strict=True)]
    trace = PartialEvalTrace(known, staged)
    with set_current_trace(trace):
        outs = eval_jaxpr(closed.jaxpr, closed.consts, *ins)
    n = len(outs)
    inst = [instantiate] * n if isinstance(instantiate, bool) else list(instantiate)
    out_unknowns = [trace.is_unknown(o) or i for o, i in zip(outs, inst, strict=True)]
    staged_closed = staged.finish([o for o, u in zip(outs, out_unknowns) if u])
    staged_jaxpr, residuals = convert_constvars_to_invars(staged_closed)
    if saveable is not None:
        # As JAX's remat: what the staged side replays (a recomputed multi-output equation)
        # computes only what the unknown outputs need (e.g. a remat_opt's residuals, not its fwd's
        # primal outputs).
        staged_jaxpr = dce_jaxpr(staged_jaxpr)
    known_closed = known.finish([*(o for o, u in zip(outs, out_unknowns) if not u), *residuals])
    known_closed = ClosedJaxpr(dce_jaxpr(known_closed.jaxpr), known_closed.consts)
    return known_closed, ClosedJaxpr(staged_jaxpr, []), out_unknowns, len(residuals)


def merge_outputs(known_outs: Sequence[Any], unknown_outs: Sequence[Any], out_unknowns: Sequence[bool]) -> list[Any]:
    """Interleaves known and unknown outputs back into output order."""
    k, u = iter(known_outs), iter(unknown_outs)
    return [next(u) if unk else next(k) for unk in out_unknowns]


def partial_eval_call(
    trace: PartialEvalTrace,
    prim: Primitive,
    args: Sequence[Any],
    unknown: Sequence[bool],
    params: dict[str, Any],
    make_params: Callable[[ClosedJaxpr], dict[str, Any]],
    saveable: SaveablePolicy | None = None,
) -> list[Any]:
    """The ``partial_eval`` rule of a call-like primitive (one ``jaxpr`` param applied to the operands).

    The known half runs now as ``prim`` on the known operands; the staged half is a ``prim``
    equation on the residuals and unknown operands. ``make_params`` builds the params for a
    new inner jaxpr.
    """
    closed: ClosedJaxpr = params["jaxpr"]
    known, staged, out_unknowns, num_res = partial_eval_jaxpr(closed, unknown, False, saveable)
    known_args = [a for a, u in zip(args, unknown) if not u]
    known, forwarded = forward_input_residuals(known, num_res)
    known_outs = trace.bind_known(prim, known_args, make_params(known))
    n_known = len(known_outs) - sum(f is None for f in forwarded)
    computed = iter(known_outs[n_known:])
    residuals = [next(computed) if f is None else known_args[f] for f in forwarded]
    unknown_args = [a for a, u in zip(args, unknown) if u]
    staged_outs = trace.bind_staged(prim, [*residuals, *unknown_args], make_params(staged))
    return merge_outputs(known_outs[:n_known], staged_outs, out_unknowns)



def forward_input_residuals(known: ClosedJaxpr, num_res: int) -> tuple[ClosedJaxpr, list[int | None]]:
    """Drops residual outputs that are just inputs of ``known`` (the caller passes those on).

    Returns the pruned jaxpr and, per residual, the index of the input it forwards (or None).
    """
    j = known.jaxpr
    n_out = len(j.outvars) - num_res
    index = {v: i for i, v in enumerate(j.invars)}
    forwarded = [index.get(v) if isinstance(v, Var) else None for v in j.outvars[n_out:]]
    if all(f is None for f in forwarded):
        return known, forwarded
    outvars = j.outvars[:n_out] + [v for v, f in zip(j.outvars[n_out:], forwarded) if f is None]
    return ClosedJaxpr(Jaxpr(j.constvars, j.invars, outvars, j.eqns), known.consts), forwarded
