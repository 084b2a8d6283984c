# GENERATED from jax_core/_src/interpreters/staging.py by tools/gen_overlays.py (mypy stubgen): do not edit.
# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).
import dataclasses
from collections.abc import Callable as Callable, Sequence
from jax_core._src import dtypes as dtypes
from jax_core._src.core.avals import ShapedArray as ShapedArray
from jax_core._src.core.jaxpr import Atom as Atom, ClosedJaxpr as ClosedJaxpr, Jaxpr as Jaxpr, JaxprEqn as JaxprEqn, Literal as Literal, NameContext as NameContext, Var as Var, literal_aval as literal_aval, pp_eqn as pp_eqn
from jax_core._src.core.primitive import Primitive as Primitive
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
    """A value being staged into a jaxpr (JAX's ``DynamicJaxprTracer``)."""
    _trace: JaxprTrace
    _aval: ShapedArray
    jaxpr_var: Var
    def __init__(self, trace: JaxprTrace, aval: ShapedArray, var: Var) -> None: ...
    @property
    def aval(self) -> ShapedArray:
        """The abstract value of the staged variable."""
    def __repr__(self) -> str: ...
    def provenance(self) -> str:
        """Why this value is not concrete: the arguments or the operations it came from."""

def _literal(x: object) -> Literal | None:
    """A literal for a concrete scalar (Python, NumPy, or a 0-d device array), else None."""

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
    def to_tracer(self, x: Any) -> JaxprTracer:
        """``x`` as a tracer of this trace."""
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Records ``primitive`` applied to ``args`` as an equation; returns tracers for its outputs."""
    def finish(self, outs: Sequence[Any]) -> ClosedJaxpr:
        """Ends tracing; returns the closed jaxpr whose outputs are ``outs``."""
    def provenance(self, var: Var) -> str:
        """Why ``var`` is not concrete: the arguments it depends on, or the ops that made it."""
    def _dependencies(self, var: Var) -> tuple[list[int], list[JaxprEqn]]: ...
    def _arg_names(self, indices: Sequence[int]) -> list[str]: ...
    def _leak_message(self, var: Var) -> str: ...

def trace_to_jaxpr(fun: Callable[..., Sequence[Any]], in_avals: Sequence[ShapedArray], debug: DebugInfo) -> ClosedJaxpr:
    """Stages ``fun`` (taking and returning flat lists of arrays) into a closed jaxpr."""
def convert_constvars_to_invars(closed: ClosedJaxpr) -> tuple[Jaxpr, list[Any]]:
    """Moves the constants of a closed jaxpr to leading inputs (closure conversion)."""
