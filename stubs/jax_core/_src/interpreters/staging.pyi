# GENERATED from jax_core/_src/interpreters/staging.py by tools/gen_overlays.py (mypy stubgen): do not edit.
# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).
import dataclasses
import weakref
from collections.abc import Callable as Callable, Sequence
from jax_core._src import config as config, dtypes as dtypes
from jax_core._src.core.avals import ShapedArray as ShapedArray, order_axes as order_axes
from jax_core._src.core.axis_env import pvary as pvary
from jax_core._src.core.jaxpr import Atom as Atom, ClosedJaxpr as ClosedJaxpr, Jaxpr as Jaxpr, JaxprEqn as JaxprEqn, Literal as Literal, NameContext as NameContext, Var as Var, literal_aval as literal_aval, pp_eqn as pp_eqn
from jax_core._src.core.jaxpr_check import check_jaxpr as check_jaxpr
from jax_core._src.core.primitive import Primitive as Primitive, carries_jaxprs as carries_jaxprs
from jax_core._src.core.shape_poly import is_symbolic_dim as is_symbolic_dim
from jax_core._src.core.source_info import function_location as function_location, user_frame as user_frame
from jax_core._src.core.trace import Trace as Trace, Tracer as Tracer, get_aval as get_aval, is_ndarray as is_ndarray, is_scalar as is_scalar, set_current_trace as set_current_trace
from typing import Any

@dataclasses.dataclass(frozen=True)
class DebugInfo:
    """What is being traced, for error messages: the function, why, and its argument names."""
    traced_for: str
    fun: Callable[..., Any] | None
    arg_names: Sequence[str] | None = ...
    def where(self) -> str:
        """``the function f at file.py:3 for jit``."""

class JaxprTracer(Tracer):
    """A value being staged into a jaxpr (JAX's ``DynamicJaxprTracer``).

    A tracer with a ``literal`` stands for that constant (a scalar constant, or a
    conversion of one folded while staging): equations and outputs use the literal, and its
    ``jaxpr_var`` is never part of the jaxpr.
    """
    _trace: JaxprTrace
    _aval: ShapedArray
    jaxpr_var: Var
    literal: Literal | None
    def __init__(self, trace: JaxprTrace, aval: ShapedArray, var: Var, literal: Literal | None = None) -> None: ...
    @property
    def aval(self) -> ShapedArray:
        """The abstract value of the staged variable."""
    def __repr__(self) -> str: ...
    def provenance(self) -> str:
        """Why this value is not concrete: the arguments or the operations it came from."""

def _literal(x: object) -> Literal | None:
    """The literal for a constant JAX writes inline (``core.is_literalable``): a Python or
    NumPy scalar, or a 0-d NumPy array; else None. Device arrays, even 0-d ones, are never
    literals: they become constant variables."""

class JaxprTrace(Trace):
    """Records primitives into a jaxpr while the traced function runs."""
    debug: DebugInfo
    invars: list[Var]
    eqns: list[JaxprEqn]
    constvars: list[Var]
    consts: list[Any]
    _const_ids: dict[int, JaxprTracer]
    _producer: dict[Var, JaxprEqn]
    _live: bool
    def __init__(self, debug: DebugInfo) -> None: ...
    def is_live(self) -> bool:
        """Whether tracing is still going on (tracers may be used)."""
    def close(self) -> None:
        """Ends the trace: its tracers may no longer be used."""
    def forget(self) -> None:
        """Drops the trace's own references to its tracers (the constants' tracers), so that any
        tracer still alive is held from outside (``jax_check_tracer_leaks``)."""
    def describe(self) -> str:
        """``DynamicJaxprTracer`` (JAX's name, used in error messages)."""
    def new_arg(self, aval: ShapedArray) -> JaxprTracer:
        """A tracer for the next input of the function."""
    def to_atom(self, x: Any) -> Atom:
        """The jaxpr atom for an operand: its var, a literal, or a new constant variable."""
    def const_tracer(self, x: Any) -> JaxprTracer:
        """The tracer for a value captured from outside (deduplicated by identity)."""
    def producer(self, var: Var) -> JaxprEqn | None:
        """The equation that produced ``var`` (None for inputs and constants)."""
    def tracer_for(self, var: Var) -> JaxprTracer:
        """A tracer of this trace standing for one of its variables."""
    def literal_tracer(self, literal: Literal) -> JaxprTracer:
        """A tracer of this trace standing for a literal."""
    def to_tracer(self, x: Any) -> JaxprTracer:
        """``x`` as a tracer of this trace (a literal one for a scalar constant)."""
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Records ``primitive`` applied to ``args`` as an equation; returns tracers for its outputs.

        As JAX's staging does, a primitive with a ``const_fold`` rule applied to literals is
        computed now (its results are literals), and one whose ``forward`` rule says every
        output is an input is not recorded (the input is returned).
        """
    def finish(self, outs: Sequence[Any]) -> ClosedJaxpr:
        """Ends tracing; returns the closed jaxpr whose outputs are ``outs``."""
    def provenance(self, var: Var) -> str:
        """Why ``var`` is not concrete: the arguments it depends on, or the ops that made it."""
    def _dependencies(self, var: Var) -> tuple[list[int], list[JaxprEqn]]: ...
    def _arg_names(self, indices: Sequence[int]) -> list[str]: ...
    def _leak_message(self, var: Var) -> str: ...

def trace_to_jaxpr(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray], debug: DebugInfo) -> ClosedJaxpr:
    """Stages ``fun`` (taking and returning flat lists of arrays) into a closed jaxpr."""
def _check_leaks(trace: JaxprTrace, debug: DebugInfo) -> None:
    """``jax_check_tracer_leaks``: raises if a tracer of the finished ``trace`` is still alive
    (saved to a global, a closure, an attribute: it would fail later, far from the cause)."""

_converted: weakref.WeakKeyDictionary[ClosedJaxpr, Jaxpr]

def convert_constvars_to_invars(closed: ClosedJaxpr) -> tuple[Jaxpr, list[Any]]:
    """Moves the constants of a closed jaxpr to leading inputs (closure conversion).

    The same closed jaxpr always gives the same jaxpr (the jaxpr itself when it has no
    constants), so a function staged twice prints its jaxpr once, shared, as in JAX.
    """
