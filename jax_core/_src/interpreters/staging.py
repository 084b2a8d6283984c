"""Staging: the trace that records primitives into a jaxpr (omnistaging, seed 001).

While a ``JaxprTrace`` is current, every ``bind`` — including ones whose inputs are
all concrete, like ``jnp.arange(3)`` — is recorded as an equation instead of being
evaluated. Values from outside the function (concrete arrays, or tracers of an
enclosing trace) become constant variables; Python and NumPy scalars become literals.
"""

from __future__ import annotations

import dataclasses
import gc
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.core.avals import ShapedArray, order_axes
from jax_core._src.core.axis_env import pvary
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.jaxpr_check import check_jaxpr
from jax_core._src.core.jaxpr import (
    Atom,
    ClosedJaxpr,
    Jaxpr,
    JaxprEqn,
    Literal,
    NameContext,
    Var,
    literal_aval,
    pp_eqn,
)
from jax_core._src.core.primitive import Primitive, carries_jaxprs
from jax_core._src.core.source_info import function_location, user_frame
from jax_core._src.core.trace import (
    Trace,
    Tracer,
    get_aval,
    is_ndarray,
    is_scalar,
    set_current_trace,
)
from jax_core._src.lib import pretty_printer as pp


@dataclasses.dataclass(frozen=True)
class DebugInfo:
    """What is being traced, for error messages: the function, why, and its argument names."""

    traced_for: str
    fun: Callable[..., Any] | None
    arg_names: Sequence[str] | None = None

    def where(self) -> str:
        """``the function f at file.py:3 for jit``."""
        return f"the function {function_location(self.fun)} for {self.traced_for}"


class JaxprTracer(Tracer):
    """A value being staged into a jaxpr (JAX's ``DynamicJaxprTracer``).

    A tracer with a ``literal`` stands for that constant (a scalar constant, or a
    conversion of one folded while staging): equations and outputs use the literal, and its
    ``jaxpr_var`` is never part of the jaxpr.
    """

    __slots__ = ("_aval", "jaxpr_var", "literal")

    _trace: JaxprTrace

    def __init__(self, trace: JaxprTrace, aval: ShapedArray, var: Var, literal: Literal | None = None) -> None:
        super().__init__(trace)
        self._aval: ShapedArray = aval
        self.jaxpr_var: Var = var  # not `var`: that is the Array method (x.var())
        self.literal: Literal | None = literal

    @property
    def aval(self) -> ShapedArray:
        """The abstract value of the staged variable."""
        return self._aval

    def __repr__(self) -> str:
        return f"JitTracer({self._aval})"  # str marks a weak type with ~, as JAX

    def provenance(self) -> str:
        """Why this value is not concrete: the arguments or the operations it came from."""
        return self._trace.provenance(self.jaxpr_var)


def _literal(x: object) -> Literal | None:
    """The literal for a constant JAX writes inline (``core.is_literalable``): a Python or
    NumPy scalar, or a 0-d NumPy array; else None. Device arrays, even 0-d ones, are never
    literals: they become constant variables."""
    if isinstance(x, (bool, int, float, complex)):
        return Literal(x, literal_aval(x))
    value = x if is_ndarray(x) else np.asarray(x) if is_scalar(x) else None
    if value is None or value.ndim != 0:
        return None
    try:
        dtypes.check_valid_dtype(value.dtype)
    except TypeError:
        return None  # not a JAX value: the constant's aval raises JAX's error
    dtype = dtypes.canonicalize_dtype(value.dtype)
    return Literal(value.astype(dtype)[()], ShapedArray((), dtype))


class JaxprTrace(Trace):
    """Records primitives into a jaxpr while the traced function runs."""

    __slots__ = ("debug", "invars", "eqns", "constvars", "consts", "_const_ids", "_producer", "_live")

    def __init__(self, debug: DebugInfo) -> None:
        self.debug: DebugInfo = debug
        self.invars: list[Var] = []
        self.eqns: list[JaxprEqn] = []
        self.constvars: list[Var] = []
        self.consts: list[Any] = []
        self._const_ids: dict[int, JaxprTracer] = {}
        self._producer: dict[Var, JaxprEqn] = {}
        self._live = True

    def is_live(self) -> bool:
        """Whether tracing is still going on (tracers may be used)."""
        return self._live

    def close(self) -> None:
        """Ends the trace: its tracers may no longer be used."""
        self._live = False

    def forget(self) -> None:
        """Drops the trace's own references to its tracers (the constants' tracers), so that any
        tracer still alive is held from outside (``jax_check_tracer_leaks``)."""
        self._const_ids.clear()

    def describe(self) -> str:
        """``DynamicJaxprTracer`` (JAX's name, used in error messages)."""
        return "DynamicJaxprTracer"

    def new_arg(self, aval: ShapedArray) -> JaxprTracer:
        """A tracer for the next input of the function."""
        var = Var(aval)
        self.invars.append(var)
        return JaxprTracer(self, aval, var)

    def to_atom(self, x: Any) -> Atom:
        """The jaxpr atom for an operand: its var, a literal, or a new constant variable."""
        if isinstance(x, JaxprTracer) and x.belongs_to(self):
            return x.jaxpr_var if x.literal is None else x.literal
        if isinstance(x, Tracer):
            x.check_live()
        if not isinstance(x, Tracer):
            lit = _literal(x)
            if lit is not None:
                return lit
        return self.const_tracer(x).jaxpr_var

    def const_tracer(self, x: Any) -> JaxprTracer:
        """The tracer for a value captured from outside (deduplicated by identity)."""
        known = self._const_ids.get(id(x))
        if known is not None:
            return known
        if is_symbolic_dim(x):  # a symbolic dimension used as a value is computed, not captured
            staged: JaxprTracer = x.__jax_array__()
            return staged
        aval = get_aval(x).strip_weak_type() if not isinstance(x, Tracer) else x.aval
        if not isinstance(x, Tracer) and dtypes.is_weakly_typed(x):
            aval = aval.update(weak_type=True)
        var = Var(aval)
        self.constvars.append(var)
        self.consts.append(x)
        tracer = JaxprTracer(self, aval, var)
        self._const_ids[id(x)] = tracer
        return tracer

    def producer(self, var: Var) -> JaxprEqn | None:
        """The equation that produced ``var`` (None for inputs and constants)."""
        return self._producer.get(var)

    def tracer_for(self, var: Var) -> JaxprTracer:
        """A tracer of this trace standing for one of its variables."""
        return JaxprTracer(self, var.aval, var)

    def literal_tracer(self, literal: Literal) -> JaxprTracer:
        """A tracer of this trace standing for a literal."""
        return JaxprTracer(self, literal.aval, Var(literal.aval), literal)

    def to_tracer(self, x: Any) -> JaxprTracer:
        """``x`` as a tracer of this trace (a literal one for a scalar constant)."""
        if isinstance(x, JaxprTracer) and x.belongs_to(self):
            return x
        if isinstance(x, Tracer):
            x.check_live()
        else:
            lit = _literal(x)
            if lit is not None:
                return self.literal_tracer(lit)
        return self.const_tracer(x)

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Records ``primitive`` applied to ``args`` as an equation; returns tracers for its outputs.

        As JAX's staging does, a primitive with a ``const_fold`` rule applied to literals is
        computed now (its results are literals), and one whose ``forward`` rule says every
        output is an input is not recorded (the input is returned).
        """
        atoms = [self.to_atom(a) for a in args]
        avals_in = [a.aval for a in atoms]
        if any(a.vma for a in avals_in) and primitive.rules.vma is None and not carries_jaxprs(params):
            varying = frozenset[Any]().union(*(a.vma for a in avals_in))
            if any(a.vma != varying and not isinstance(t, Literal) for a, t in zip(avals_in, atoms)):
                # Inside shard_map, operands that vary over fewer mesh axes are cast first (pvary);
                # literals are the same on every device and stay literals.
                args = [
                    x if a.vma == varying or isinstance(t, Literal) else pvary(x, order_axes(varying - a.vma))
                    for x, a, t in zip(args, avals_in, atoms)
                ]
                atoms = [self.to_atom(a) for a in args]
                avals_in = [a.aval for a in atoms]
        avals_out = primitive.abstract_eval(*avals_in, **params)
        rules = primitive.rules
        if rules.const_fold is not None and any(isinstance(a, Literal) for a in atoms):
            consts = [a.val if isinstance(a, Literal) else None for a in atoms]
            folded = rules.const_fold(consts, avals_out, **params)
            if folded is not None:
                outs = [self.literal_tracer(Literal(c, a)) for c, a in zip(folded, avals_out, strict=True)]
                return outs if primitive.multiple_results else outs[0]
        if rules.forward is not None:
            forwarded = rules.forward(*avals_in, **params)
            if all(i is not None for i in forwarded):
                outs = [self.to_tracer(args[i]) for i in forwarded if i is not None]
                return outs if primitive.multiple_results else outs[0]
        outvars = [Var(a) for a in avals_out]
        eqn = JaxprEqn(atoms, outvars, primitive, params, user_frame())
        self.eqns.append(eqn)
        for v in outvars:
            self._producer[v] = eqn
        outs = [JaxprTracer(self, a, v) for a, v in zip(avals_out, outvars)]
        return outs if primitive.multiple_results else outs[0]

    def finish(self, outs: Sequence[Any]) -> ClosedJaxpr:
        """Ends tracing; returns the closed jaxpr whose outputs are ``outs``."""
        outvars = [self.to_atom(x) for x in outs]  # a constant scalar output stays a literal
        self.close()
        jaxpr = Jaxpr(self.constvars, self.invars, outvars, self.eqns)
        return ClosedJaxpr(jaxpr, self.consts)

    # -- error provenance ---------------------------------------------------

    def provenance(self, var: Var) -> str:
        """Why ``var`` is not concrete: the arguments it depends on, or the ops that made it."""
        if not self._live:
            return self._leak_message(var)
        where = f"The error occurred while tracing {self.debug.where()}. "
        arg_deps, eqns = self._dependencies(var)
        if arg_deps:
            names = self._arg_names(arg_deps)
            if len(names) == 1:
                what = f"the argument {names[0]}"
            elif len(names) == 2:
                what = f"the arguments {names[0]} and {names[1]}"
            else:
                what = f"the arguments {', '.join(names[:-1])}, and {names[-1]}"
            plural = "s" if len(names) > 1 else ""
            return f"{where}This concrete value was not available in Python because it depends on the value{plural} of {what}."
        if not eqns:
            return where  # a constant staged without operations: JAX names no line
        lines: list[str] = []
        ctx = NameContext()
        for eqn in eqns[:5]:
            loc = eqn.source_info.location() if eqn.source_info else "<unknown>"
            lines.append(f"  operation {pp.format(pp_eqn(eqn, ctx), 200)}\n    from line {loc}")
        more = "\n\n(Additional originating lines are not shown.)" if len(eqns) > 5 else ""
        return f"{where}This value became a tracer due to JAX operations on these lines:\n\n" + "\n\n".join(lines) + more

    def _dependencies(self, var: Var) -> tuple[list[int], list[JaxprEqn]]:
        arg_index = {v: i for i, v in enumerate(self.invars)}
        args: set[int] = set()
        eqns: list[JaxprEqn] = []
        seen: set[Var] = set()
        stack = [var]
        while stack:
            v = stack.pop()
            if v in seen:
                continue
            seen.add(v)
            if v in arg_index:
                args.add(arg_index[v])
                continue
            eqn = self._producer.get(v)
            if eqn is None:
                continue
            if eqn not in eqns:
                eqns.append(eqn)
            stack.extend(a for a in eqn.invars if isinstance(a, Var))
        eqns.sort(key=self.eqns.index)
        return sorted(args), eqns

    def _arg_names(self, indices: Sequence[int]) -> list[str]:
        names = self.debug.arg_names
        return [names[i] if names is not None and i < len(names) else f"#{i}" for i in indices]

    def _leak_message(self, var: Var) -> str:
        eqn = self._producer.get(var)
        loc = eqn.source_info.location() if eqn is not None and eqn.source_info else None
        created = (
            f"The leaked intermediate value was created on line {loc}. "
            if loc
            else "The leaked value was an input or constant of the traced function."
        )
        rule = "-" * 30
        return (
            f"The function being traced when the value leaked was {function_location(self.debug.fun)} "
            f"traced for {self.debug.traced_for}.\n{rule}\n{created}\n{rule}"
        )


def trace_to_jaxpr(
    fun: Callable[..., Sequence[Any]],
    in_avals: Sequence[ShapedArray],
    debug: DebugInfo,
) -> ClosedJaxpr:
    """Stages ``fun`` (taking and returning flat lists of arrays) into a closed jaxpr."""
    trace = JaxprTrace(debug)
    args = [trace.new_arg(a) for a in in_avals]
    try:
        with set_current_trace(trace):
            outs = fun(*args)
        closed = trace.finish(outs)
        if config.enable_checks.value:
            check_jaxpr(closed.jaxpr)
    finally:
        trace.close()
    if config.check_tracer_leaks.value:
        del args, outs
        _check_leaks(trace, debug)
    return closed


def _check_leaks(trace: JaxprTrace, debug: DebugInfo) -> None:
    """``jax_check_tracer_leaks``: raises if a tracer of the finished ``trace`` is still alive
    (saved to a global, a closure, an attribute: it would fail later, far from the cause)."""
    trace.forget()
    gc.collect()
    leaked = [r for r in gc.get_referrers(trace) if isinstance(r, JaxprTracer)]
    if leaked:
        shown = "\n\n".join(f"{t}\nThe error occurred while tracing {debug.where()}." for t in leaked)
        raise Exception(f"Leaked trace DynamicJaxprTrace. Leaked tracer(s):\n\n{shown}")


_converted: weakref.WeakKeyDictionary[ClosedJaxpr, Jaxpr] = weakref.WeakKeyDictionary()


def convert_constvars_to_invars(closed: ClosedJaxpr) -> tuple[Jaxpr, list[Any]]:
    """Moves the constants of a closed jaxpr to leading inputs (closure conversion).

    The same closed jaxpr always gives the same jaxpr (the jaxpr itself when it has no
    constants), so a function staged twice prints its jaxpr once, shared, as in JAX.
    """
    j = closed.jaxpr
    if not j.constvars:
        return j, list(closed.consts)
    converted = _converted.get(closed)
    if converted is None:
        converted = _converted[closed] = Jaxpr([], [*j.constvars, *j.invars], j.outvars, j.eqns)
    return converted, list(closed.consts)


