# GENERATED from jax_core/_src/interpreters/batching.py by tools/gen_overlays.py (mypy stubgen): do not edit.
# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).
import contextlib
import threading
from collections.abc import Callable as Callable, Generator, Hashable, Sequence
from jax_core._src.core.avals import ShapedArray as ShapedArray
from jax_core._src.core.axis_env import extend_axis_env as extend_axis_env
from jax_core._src.core.jaxpr import ClosedJaxpr as ClosedJaxpr, eval_jaxpr as eval_jaxpr
from jax_core._src.core.primitive import Primitive as Primitive
from jax_core._src.core.trace import Trace as Trace, Tracer as Tracer, current_trace as current_trace, get_aval as get_aval, set_current_trace as set_current_trace
from jax_core._src.interpreters.batching_util import matchaxis as matchaxis
from jax_core._src.interpreters.staging import DebugInfo as DebugInfo, trace_to_jaxpr as trace_to_jaxpr
from typing import Any

class BatchTracer(Tracer):
    """A batched value: ``val`` holds every batch element along axis ``batch_dim``."""
    _trace: BatchTrace
    val: Any
    batch_dim: int
    def __init__(self, trace: BatchTrace, val: Any, batch_dim: int) -> None: ...
    @property
    def aval(self) -> ShapedArray:
        """The aval of one batch element."""
    def provenance(self) -> str:
        """Batched values are never concrete: they stand for many values at once."""

class _RuleAxis(threading.local):
    axis: tuple[Hashable, int] | None

_rule_axis: _RuleAxis

def current_batch_axis() -> tuple[Hashable, int] | None:
    """``(axis_name, size)`` of the batching rule running now (for collectives' rules)."""
@contextlib.contextmanager
def _running_rule(name: Hashable, size: int) -> Generator[None]: ...

class BatchTrace(Trace):
    """Applies batching rules for one ``vmap`` axis."""
    parent: Trace
    axis_name: Hashable | None
    size: int
    _live: bool
    def __init__(self, parent: Trace, axis_name: Hashable | None, size: int) -> None: ...
    def is_live(self) -> bool:
        """Whether the vmapped function is still running."""
    def close(self) -> None:
        """Ends the trace."""
    def describe(self) -> str:
        """``BatchTrace``."""
    def lift(self, x: Any) -> tuple[Any, int | None]:
        """``(value, batch_dim)``; values from outside are unbatched."""
    def wrap(self, val: Any, dim: int | None) -> Any:
        """A tracer for a batched value; unbatched values stay bare."""
    def _names_me(self, params: dict[str, Any]) -> bool: ...
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive``'s batching rule (or the primitive itself if nothing is batched)."""
    def _check_out_dim(self, primitive: Primitive, out: Any, dim: object) -> None:
        """A ``ValueError`` naming the primitive when its batching rule returned a batch dimension
        that is not an axis of its output of this vmap's size."""

def _describe_arg(names: Sequence[str] | None, i: int) -> str: ...
def infer_axis_size(args: Sequence[Any], in_dims: Sequence[int | None], axis_size: int | None, arg_names: Sequence[str] | None = None) -> int:
    """The batch size the mapped axes agree on (``ValueError`` listing each size otherwise)."""
def vmap_flat(fun: Callable[..., Sequence[Any]], args: Sequence[Any], in_dims: Sequence[int | None], out_dims: Callable[[int], Sequence[int | None]], size: int, axis_name: Hashable | None = None) -> list[Any]:
    """Runs ``fun`` batched over flat ``args``; ``out_dims(n)`` gives where each of the ``n``
    outputs puts its batch axis (``None``: it must be unbatched)."""
def batch_jaxpr(closed: ClosedJaxpr, size: int, in_batched: Sequence[bool], instantiate: bool | Sequence[bool], axis_name: Hashable | None = None) -> tuple[ClosedJaxpr, list[bool]]:
    """The jaxpr of ``closed`` batched along axis 0 of the ``in_batched`` inputs.

    Returns it with which outputs are batched (at axis 0); ``instantiate`` forces outputs to
    be batched (broadcast) even if they do not vary.
    """
