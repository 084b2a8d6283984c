"""Traces and tracers, and the current-trace context every ``bind`` consults.

The current trace lives in a thread-local slot, not a level stack: a
transformation installs its trace with ``set_current_trace`` while it runs the
user function, and ``Primitive.bind`` hands every application to it. Outside any
transformation the current trace is the ``EvalTrace``, which computes eagerly.
"""

from __future__ import annotations

import abc
import contextlib
import operator
import threading
from collections.abc import Generator, Iterator, Sequence
from typing import Any, NoReturn

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import (
    ConcretizationTypeError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.primitive import Primitive
from jax_core._src.lib import jax_ext
from jax_core._src.typing.basearray import Array


class Trace(abc.ABC):
    """An interpreter of primitives: eager evaluation, staging, and (later) transformations."""

    __slots__ = ("__weakref__",)

    @abc.abstractmethod
    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies ``primitive`` to ``args`` (values or tracers) under this trace."""

    def is_live(self) -> bool:
        """Whether tracers of this trace may still be used."""
        return True

    def describe(self) -> str:
        """What this trace is for, used in error messages."""
        return type(self).__name__


class Tracer(Array):
    """A value standing for an array while a function is being transformed.

    Tracers are ``Array`` instances, so ``isinstance(x, jax_core.Array)`` holds under
    every transformation. Converting one to a concrete Python value raises an error
    that says where it became a tracer.
    """

    __slots__ = ("_trace",)

    def __init__(self, trace: Trace) -> None:
        self._trace = trace

    @property
    @abc.abstractmethod
    def aval(self) -> ShapedArray:
        """The abstract value this tracer stands for."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the array this tracer stands for."""
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        """The element type of the array this tracer stands for."""
        return self.aval.dtype

    @property
    def weak_type(self) -> bool:
        """Whether the dtype is weak (came from a Python scalar) for type promotion."""
        return self.aval.weak_type

    def provenance(self) -> str:
        """Explains where this value became a tracer (overridden by traces that know)."""
        return ""

    def to_concrete_value(self) -> Any:
        """The value this tracer stands for, when it is known now (e.g. a primal under
        ``grad``), else ``None``: Python conversions (``bool``, ``int``, ...) use it."""
        return None

    def belongs_to(self, trace: Trace) -> bool:
        """Whether this tracer was made by ``trace``."""
        return self._trace is trace

    def check_live(self) -> None:
        """Raises ``UnexpectedTracerError`` if this tracer's trace has ended (it escaped)."""
        if not self._trace.is_live():
            escaped_tracer_error(self)

    def describe_trace(self) -> str:
        """What this tracer's trace is for, used in error messages."""
        return self._trace.describe()

    def concretization_error(self, context: str) -> NoReturn:
        """Raises ``ConcretizationTypeError`` for a use that needed a concrete value."""
        raise ConcretizationTypeError(
            "Abstract tracer value encountered where concrete value is expected: "
            f"traced array with shape {self.aval.strip_weak_type()}\n{context}{self._origin()}\n"
        )

    def _origin(self) -> str:
        """The provenance on a line of its own (JAX's ``_origin_msg``), or nothing."""
        text = self.provenance()
        return "\n" + text if text else ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.aval})"  # str marks a weak type with ~

    def __bool__(self) -> bool:
        value = self.to_concrete_value()
        if value is not None:
            return bool(value)
        raise TracerBoolConversionError(
            f"Attempted boolean conversion of traced array with shape {self.aval.strip_weak_type()}."
            f"{self._origin()}"
        )

    def _scalar_conversion(self, name: str) -> NoReturn:
        self.concretization_error(
            f"The problem arose with the `{name}` function. If trying to convert the data type "
            f"of a value, try using `x.astype({name})` or `jnp.array(x, {name})` instead."
        )

    def __int__(self) -> int:
        value = self.to_concrete_value()
        if value is not None:
            return int(value)
        self._scalar_conversion("int")

    # As JAX: ``float``/``complex`` (and ``tolist``) never read a tracer's value, even a known
    # one (``grad(lambda x: float(x))`` raises); ``bool``/``int``/``__index__``/``item`` do.
    def __float__(self) -> float:
        self._scalar_conversion("float")

    def __complex__(self) -> complex:
        self._scalar_conversion("complex")

    def item(self, *args: Any) -> Any:
        """The element as a Python scalar: only for a tracer with a known value (JAX's
        ``ConcretizationTypeError`` otherwise)."""
        value = self.to_concrete_value()
        if value is not None:
            return np.asarray(value).item(*args)
        self.concretization_error("This occurred in the item() method of jax.Array")

    def tolist(self) -> Any:
        """Raises JAX's ``ConcretizationTypeError``: a tracer has no list of elements."""
        self.concretization_error(
            f"The tolist() method was called on traced array with shape {self.aval.strip_weak_type()}.{self._origin()}"
        )

    def __index__(self) -> int:
        value = self.to_concrete_value()
        if value is not None:
            return operator.index(value)
        raise TracerIntegerConversionError(
            f"The __index__() method was called on traced array with shape {self.aval.strip_weak_type()}"
            f"{self._origin()}"
        )

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        raise TracerArrayConversionError(
            f"The numpy.ndarray conversion method __array__() was called on traced array "
            f"with shape {self.aval.strip_weak_type()}{self._origin()}"
        )

    def __iter__(self) -> Iterator[Any]:
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __reduce__(self) -> NoReturn:
        raise TypeError(f"Tracer {self!r} cannot be pickled")

    def __setitem__(self, key: Any, value: Any) -> NoReturn:
        raise TypeError(
            "JAX arrays are immutable and do not support in-place item assignment. Instead of "
            "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
            "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"
        )


def escaped_tracer_error(tracer: Tracer) -> NoReturn:
    """Raises ``UnexpectedTracerError`` for a tracer used after its trace ended."""
    raise UnexpectedTracerError(
        "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
        f"allowing for a reference to an intermediate value with type {tracer.aval.strip_weak_type()} wrapped in "
        f"a {tracer.describe_trace()} to escape the scope of the transformation.\n"
        "JAX transformations require that functions explicitly return their outputs, and "
        f"disallow saving intermediate values to global state.\n{tracer.provenance()}"
    )


class EvalTrace(Trace):
    """Eager evaluation: each primitive runs now, on concrete values."""

    __slots__ = ()

    def process_primitive(self, primitive: Primitive, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Evaluates ``primitive`` now; tracers here are an error (they have no value yet)."""
        for a in args:
            if isinstance(a, Tracer):
                a.check_live()
                a.concretization_error(
                    f"The problem arose with the `{primitive.name}` primitive, evaluated eagerly "
                    "(e.g. under `ensure_compile_time_eval`) on a traced value."
                )
        return primitive.impl(*args, **params)

    def describe(self) -> str:
        """``EvalTrace``."""
        return "EvalTrace"


eval_trace: EvalTrace = EvalTrace()


class _TraceState(threading.local):
    trace: Trace = eval_trace


_state: _TraceState = _TraceState()

# Part of the C++ jit fast path's cache key, per thread: None while evaluating eagerly, True under
# any trace. A jitted function called under a trace must stage (or, inlined, trace through) even
# when none of its arguments is a tracer (``jnp.ones((3, 3))`` has none), so the fast path must
# not hand back an executable's concrete result there; nothing is cached under True (the Python
# cache miss returns no fast-path data under a trace).
_TRACING_KEY: Any = jax_ext.config.Config("jax_core_tracing", None, include_in_jit_key=True, include_in_trace_context=True)


def current_trace() -> Trace:
    """The trace that ``bind`` hands primitives to in this thread."""
    return _state.trace


@contextlib.contextmanager
def set_current_trace(trace: Trace) -> Generator[None]:
    """Makes ``trace`` current for the duration of a ``with`` block."""
    prev = _state.trace
    _state.trace = trace
    prev_key = _TRACING_KEY.swap_local(None if trace is eval_trace else True)
    try:
        yield
    finally:
        _state.trace = prev
        _TRACING_KEY.swap_local(prev_key)


def ensure_compile_time_eval() -> contextlib.AbstractContextManager[None]:
    """Evaluates operations on concrete values eagerly, even while tracing under ``jit``.

    Inside the block, ``jnp.arange(3) + 1`` is computed now instead of being staged
    into the jaxpr, so the result can feed Python control flow or shapes.
    """
    return set_current_trace(eval_trace)


def is_concrete(x: object) -> bool:
    """Whether ``x`` has a value known now (not a tracer)."""
    return not isinstance(x, Tracer)


def is_scalar(x: object) -> TypeIs[bool | int | float | complex | np.generic[Any]]:
    """Whether ``x`` is a Python or NumPy scalar."""
    return isinstance(x, (bool, int, float, complex, np.generic))


def is_ndarray(x: object) -> TypeIs[np.ndarray[Any, Any]]:
    """Whether ``x`` is a NumPy array."""
    return isinstance(x, np.ndarray)


def get_aval(x: object) -> ShapedArray:
    """The abstract value of a concrete value or tracer; ``TypeError`` for non-arrays."""
    if isinstance(x, Tracer):
        return x.aval
    aval = getattr(x, "aval", None)
    if isinstance(aval, ShapedArray):
        return aval
    if is_scalar(x) and not isinstance(x, np.str_):
        return ShapedArray((), dtypes.dtype(x, canonicalize=True), dtypes.is_weakly_typed(x))
    if is_ndarray(x):
        return ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype))
    if is_symbolic_dim(x):  # a dimension used as a value: a weakly typed integer scalar, as in JAX
        return ShapedArray((), dtypes.canonicalize_dtype(np.int64), weak_type=True)
    jax_array = getattr(x, "__jax_array__", None)
    if jax_array is not None:
        return get_aval(jax_array())
    raise TypeError(f"Value {x!r} with type {type(x)} is not a valid JAX type")


def typeof(x: object) -> ShapedArray:
    """The abstract type of ``x`` (its shape, dtype and weak type), for a value or a tracer:
    ``typeof(1.0)`` is ``ShapedArray(float32[], weak_type=True)``."""
    try:
        return get_aval(x)
    except TypeError:
        raise TypeError(f"Argument {x!r} of type {type(x)} is not a valid JAX type") from None
