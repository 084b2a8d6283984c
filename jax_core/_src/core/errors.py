"""The errors tracing raises, with JAX's class names, so ``except`` clauses port unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jax_core._src.lib import jax_ext

_DOCS = "https://docs.jax.dev/en/latest/101/errors.html#jax.errors."


class JAXTypeError(TypeError):
    """Base of the tracer errors that are ``TypeError`` subclasses (as in JAX)."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message}\nSee {_DOCS}{type(self).__name__}")


class ConcretizationTypeError(JAXTypeError):
    """A traced value was used where Python needs a concrete one (a shape, an ``int()``)."""


class TracerBoolConversionError(ConcretizationTypeError):
    """A traced boolean was used in Python control flow (``if x > 0`` under ``jit``)."""


class TracerIntegerConversionError(JAXTypeError):
    """A traced value was used where Python needs an index (``__index__``)."""


class TracerArrayConversionError(JAXTypeError):
    """A traced value was converted to a NumPy array (``np.asarray(tracer)``)."""


class UnexpectedTracerError(JAXTypeError):
    """A tracer escaped the transformation that made it (e.g. saved to a global)."""


class NonConcreteBooleanIndexError(JAXTypeError):
    """A boolean mask with a traced value was used to index under a transformation."""


class KeyReuseError(RuntimeError):
    """A PRNG key was used twice (reserved; raised by the random module when checking)."""


if TYPE_CHECKING:

    class JaxRuntimeError(RuntimeError):
        """An error raised by the XLA runtime while executing a computation."""

else:
    # jaxlib's own class, which the runtime raises (a failed callback, an XLA error): ``except
    # jax_core.errors.JaxRuntimeError`` catches what executions raise, as in JAX.
    JaxRuntimeError = jax_ext.JaxRuntimeError
    JaxRuntimeError.__module__ = "jax_core.errors"


class JAXIndexError(IndexError):
    """Base of the index errors JAX raises under its own class (as ``jax.errors.JAXIndexError``)."""


class JaxprTypeError(TypeError):
    """A jaxpr failed its type check (``jax_enable_checks``): an equation's outputs disagree with
    its primitive's abstract evaluation, or a variable is used before it is defined."""


class InconclusiveDimensionOperation(Exception):
    """A comparison or operation on symbolic dimensions whose result depends on their values."""
