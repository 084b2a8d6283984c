# GENERATED from jax_core/_src/core/trace.py by tools/gen_overlays.py (mypy stubgen): do not edit.
# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).
import abc
import contextlib
import numpy as np
import threading
from collections.abc import Generator, Iterator, Sequence
from jax_core._src import dtypes as dtypes
from jax_core._src.core.avals import ShapedArray as ShapedArray
from jax_core._src.core.errors import ConcretizationTypeError as ConcretizationTypeError, TracerArrayConversionError as TracerArrayConversionError, TracerBoolConversionError as TracerBoolConversionError, TracerIntegerConversionError as TracerIntegerConversionError, UnexpectedTracerError as UnexpectedTracerError
from jax_core._src.core.primitive import Primitive as Primitive
from jax_core._src.core.shape_poly import is_symbolic_dim as is_symbolic_dim
from jax_core._src.lib import jax_ext as jax_ext
from jax_core._src.typing.basearray import Array as Array
from typing import Any, NoReturn
from typing_extensions import TypeIs

class Trace(abc.ABC, metaclass=abc.ABCMeta):
    """An interpreter of primitives: eager evaluation, staging, and (later) transformations."""
    @abc.abstractmethod
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive`` to ``args`` (values or tracers) under this trace."""
    def is_live(self) -> bool:
        """Whether tracers of this trace may still be used."""
    def describe(self) -> str:
        """What this trace is for, used in error messages."""

class Tracer(Array, metaclass=abc.ABCMeta):
    """A value standing for an array while a function is being transformed.

    Tracers are ``Array`` instances, so ``isinstance(x, jax_core.Array)`` holds under
    every transformation. Converting one to a concrete Python value raises an error
    that says where it became a tracer.
    """
    def __init__(self, trace: Trace) -> None: ...
    @property
    @abc.abstractmethod
    def aval(self) -> ShapedArray:
        """The abstract value this tracer stands for."""
    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the array this tracer stands for."""
    @property
    def dtype(self) -> np.dtype[Any]:
        """The element type of the array this tracer stands for."""
    @property
    def weak_type(self) -> bool:
        """Whether the dtype is weak (came from a Python scalar) for type promotion."""
    def provenance(self) -> str:
        """Explains where this value became a tracer (overridden by traces that know)."""
    def to_concrete_value(self) -> Any:
        """The value this tracer stands for, when it is known now (e.g. a primal under
        ``grad``), else ``None``: Python conversions (``bool``, ``int``, ...) use it."""
    def belongs_to(self, trace: Trace) -> bool:
        """Whether this tracer was made by ``trace``."""
    def check_live(self) -> None:
        """Raises ``UnexpectedTracerError`` if this tracer's trace has ended (it escaped)."""
    def describe_trace(self) -> str:
        """What this tracer's trace is for, used in error messages."""
    def concretization_error(self, context: str) -> NoReturn:
        """Raises ``ConcretizationTypeError`` for a use that needed a concrete value."""
    def _origin(self) -> str:
        """The provenance on a line of its own (JAX's ``_origin_msg``), or nothing."""
    def __repr__(self) -> str: ...
    def __bool__(self) -> bool: ...
    def _scalar_conversion(self, name: str) -> NoReturn: ...
    def __int__(self) -> int: ...
    def __float__(self) -> float: ...
    def __complex__(self) -> complex: ...
    def item(self, *args: Any) -> Any:
        """The element as a Python scalar: only for a tracer with a known value (JAX's
        ``ConcretizationTypeError`` otherwise)."""
    def tolist(self) -> Any:
        """Raises JAX's ``ConcretizationTypeError``: a tracer has no list of elements."""
    def __index__(self) -> int: ...
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __reduce__(self) -> NoReturn: ...
    def __setitem__(self, key: Any, value: Any) -> NoReturn: ...

def escaped_tracer_error(tracer: Tracer) -> NoReturn:
    """Raises ``UnexpectedTracerError`` for a tracer used after its trace ended."""

class EvalTrace(Trace):
    """Eager evaluation: each primitive runs now, on concrete values."""
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Evaluates ``primitive`` now; tracers here are an error (they have no value yet)."""
    def describe(self) -> str:
        """``EvalTrace``."""

eval_trace: EvalTrace

class _TraceState(threading.local):
    trace: Trace

_state: _TraceState
_TRACING_KEY: Any

def current_trace() -> Trace:
    """The trace that ``bind`` hands primitives to in this thread."""
@contextlib.contextmanager
def set_current_trace(trace: Trace) -> Generator[None]:
    """Makes ``trace`` current for the duration of a ``with`` block."""
def ensure_compile_time_eval() -> contextlib.AbstractContextManager[None]:
    """Evaluates operations on concrete values eagerly, even while tracing under ``jit``.

    Inside the block, ``jnp.arange(3) + 1`` is computed now instead of being staged
    into the jaxpr, so the result can feed Python control flow or shapes.
    """
def is_concrete(x: object) -> bool:
    """Whether ``x`` has a value known now (not a tracer)."""
def is_scalar(x: object) -> TypeIs[bool | int | float | complex | np.generic[Any]]:
    """Whether ``x`` is a Python or NumPy scalar."""
def is_ndarray(x: object) -> TypeIs[np.ndarray[Any, Any]]:
    """Whether ``x`` is a NumPy array."""
def get_aval(x: object) -> ShapedArray:
    """The abstract value of a concrete value or tracer; ``TypeError`` for non-arrays."""
def typeof(x: object) -> ShapedArray:
    """The abstract type of ``x`` (its shape, dtype and weak type), for a value or a tracer:
    ``typeof(1.0)`` is ``ShapedArray(float32[], weak_type=True)``."""
