# GENERATED from jax_core/_src/interpreters/ad.py by tools/gen_overlays.py (mypy stubgen): do not edit.
# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).
from collections.abc import Callable as Callable, Sequence
from jax_core._src.core.avals import ShapedArray as ShapedArray
from jax_core._src.core.effects import partial_eval_kept_effects as partial_eval_kept_effects
from jax_core._src.core.jaxpr import Atom as Atom, ClosedJaxpr as ClosedJaxpr, Jaxpr as Jaxpr, JaxprEqn as JaxprEqn, Literal as Literal, Var as Var
from jax_core._src.core.primitive import Primitive as Primitive
from jax_core._src.core.trace import Trace as Trace, Tracer as Tracer, current_trace as current_trace, get_aval as get_aval, set_current_trace as set_current_trace
from jax_core._src.dtypes import float0 as float0
from jax_core._src.interpreters.ad_util import UndefinedPrimal as UndefinedPrimal, Zero as Zero, add_tangents as add_tangents, instantiate_zeros as instantiate_zeros, is_differentiable as is_differentiable, tangent_aval as tangent_aval
from jax_core._src.interpreters.partial_eval import PartialEvalTrace as PartialEvalTrace
from jax_core._src.interpreters.staging import DebugInfo as DebugInfo, JaxprTrace as JaxprTrace, trace_to_jaxpr as trace_to_jaxpr
from typing import Any

class JVPTracer(Tracer):
    """A primal value with its tangent (a ``Zero`` or an array)."""
    _trace: JVPTrace
    primal: Any
    tangent: Any
    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any) -> None: ...
    @property
    def aval(self) -> ShapedArray:
        """The aval of the primal."""
    def to_concrete_value(self) -> Any:
        """The primal's concrete value, when it has one (so ``if x > 0`` works under grad)."""
    def provenance(self) -> str:
        """Where the primal became a tracer, if it is one."""

class JVPTrace(Trace):
    """Applies jvp rules; ``rule_trace`` is where rules compute (the parent, or a linearize router)."""
    parent: Trace
    rule_trace: Trace
    _live: bool
    def __init__(self, parent: Trace, rule_trace: Trace | None = None) -> None: ...
    def is_live(self) -> bool:
        """Whether the transformation is still running."""
    def close(self) -> None:
        """Ends the trace."""
    def describe(self) -> str:
        """``JVPTrace``."""
    def lift(self, x: Any) -> tuple[Any, Any]:
        """``(primal, tangent)`` for an operand; values from outside have zero tangents."""
    def wrap(self, primal: Any, tangent: Any) -> Any:
        """A tracer for ``(primal, tangent)``; a zero tangent leaves the primal bare."""
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive``'s jvp rule, or just the primitive when no tangent is nonzero."""
    def process_custom_rule(self, rule: Callable[[list[Any], list[Any]], tuple[list[Any], list[Any]]], args: Sequence[Any]) -> list[Any] | None:
        """Applies a custom derivative rule to the primals and tangents of ``args`` (``None`` when
        every tangent is zero): how ``custom_jvp``/``custom_vjp`` functions whose Python control
        flow depends on values differentiate outside ``jit``, on the primals themselves."""

def _check_rule_tangent(primitive: Primitive, primal: Any, tangent: Any) -> None:
    """A ``ValueError`` naming the primitive when its jvp rule returned a tangent whose shape
    does not match its primal output's (or an inexact tangent for an integer output)."""
def _check_tangent(primal: Any, tangent: Any) -> None: ...
def jvp_flat(fun: Callable[..., Sequence[Any]], primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """Forward mode on flat lists: ``fun(*primals)`` and its directional derivative."""

class Linearized:
    """The result of linearizing a function: its linear (tangent) jaxpr and residuals.

    ``jaxpr`` maps the nonzero input tangents to the output tangents; ``consts`` are the
    residuals it closes over. ``out_zero[i]`` marks outputs whose tangent is symbolically
    zero (they are not outputs of ``jaxpr``).
    """
    jaxpr: ClosedJaxpr
    in_avals: list[ShapedArray]
    in_nonzero: list[bool]
    out_avals: list[ShapedArray]
    out_zero: list[bool]
    def __init__(self, jaxpr: ClosedJaxpr, in_avals: list[ShapedArray], in_nonzero: list[bool], out_avals: list[ShapedArray], out_zero: list[bool]) -> None: ...
    def apply(self, tangents: Sequence[Any]) -> list[Any]:
        """The output tangents for input tangents (forward application of the linear map)."""
    def transpose(self, cts: Sequence[Any]) -> list[Any]:
        """The input cotangents for output cotangents (``Zero`` where nothing flows)."""

def linearize_flat(fun: Callable[..., Sequence[Any]], primals: Sequence[Any], debug: DebugInfo) -> tuple[list[Any], Linearized]:
    """Runs ``fun`` on ``primals`` and stages its tangent map into a linear jaxpr.

    Inputs with integer or bool dtypes get zero (float0) tangents and are not inputs of
    the linear jaxpr.
    """
def backward_pass(jaxpr: Jaxpr, consts: Sequence[Any], args: Sequence[Any], cts_out: Sequence[Any]) -> list[Any]:
    """Transposes ``jaxpr`` with respect to its ``UndefinedPrimal`` inputs.

    ``args`` gives each input: an ``UndefinedPrimal`` (linear) or a value. Returns one
    cotangent per input (``Zero`` when none flows; non-linear inputs get ``None``).
    Equations with no linear operand are evaluated forward first, in the current trace.
    """
def jvp_jaxpr(closed: ClosedJaxpr, nonzeros: Sequence[bool], instantiate: bool | Sequence[bool]) -> tuple[ClosedJaxpr, list[bool]]:
    """The jaxpr of ``(primals, nonzero tangents) -> (primal outs, nonzero tangent outs)``."""
def transpose_jaxpr(closed: ClosedJaxpr, linear: Sequence[bool]) -> ClosedJaxpr:
    """The jaxpr of ``(non-linear inputs, output cotangents) -> linear inputs' cotangents``.

    Zero cotangents are materialised so the result has one output per linear input.
    """
