"""The Array method and operator table: written once, installed on ``ArrayImpl`` and ``Tracer``.

So ``x + 1``, ``x.sum()`` and ``x[0]`` behave the same on a device array and on any
tracer, and there is one place to read what each method does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.basearray import Array
from jax_core._src.core.trace import Tracer
from jax_core._src.numpy import creation, indexing, products, reductions, shape, ufuncs
from jax_core._src.runtime.array import ArrayImpl
from jax_core._src.typing import ArrayLike, DTypeLike


def _defer(binary: Callable[[ArrayLike, ArrayLike], Array], *, reflected: bool = False) -> Callable[[Any, Any], Any]:
    """An operator that returns NotImplemented for operands jax_core does not know (lists...)."""

    def op(self: Array, other: Any) -> Any:
        if not _accepts(other):
            return NotImplemented
        return binary(other, self) if reflected else binary(self, other)

    op.__name__ = binary.__name__
    return op


def _accepts(x: object) -> bool:
    return isinstance(x, (Array, np.ndarray, bool, int, float, complex, np.generic)) or hasattr(x, "__jax_array__")


def _astype(self: Array, dtype: DTypeLike) -> Array:
    from jax_core._src.lax.api import convert_element_type

    return convert_element_type(self, dtype)


def _reshape(self: Array, *args: Any, order: str = "C") -> Array:
    new_shape = args[0] if len(args) == 1 and not isinstance(args[0], (int, np.integer, Tracer)) else args
    return shape.reshape(self, new_shape, order=order)


def _transpose(self: Array, *args: Any) -> Array:
    axes = None if not args or (len(args) == 1 and args[0] is None) else (args[0] if len(args) == 1 and not isinstance(args[0], int) else args)
    return shape.transpose(self, axes)


def _ravel(self: Array, order: str = "C") -> Array:
    return shape.ravel(self)


def _squeeze(self: Array, axis: int | Sequence[int] | None = None) -> Array:
    return shape.squeeze(self, axis)


def _swapaxes(self: Array, axis1: int, axis2: int) -> Array:
    return shape.swapaxes(self, axis1, axis2)


def _block_until_ready(self: Array) -> Array:
    return self


def _copy(self: Array) -> Array:
    return creation.array(self, copy=True)


METHODS: dict[str, Any] = {
    # operators
    "__neg__": ufuncs.negative,
    "__pos__": ufuncs.positive,
    "__abs__": ufuncs.absolute,
    "__invert__": ufuncs.invert,
    "__add__": _defer(ufuncs.add),
    "__radd__": _defer(ufuncs.add, reflected=True),
    "__sub__": _defer(ufuncs.subtract),
    "__rsub__": _defer(ufuncs.subtract, reflected=True),
    "__mul__": _defer(ufuncs.multiply),
    "__rmul__": _defer(ufuncs.multiply, reflected=True),
    "__truediv__": _defer(ufuncs.true_divide),
    "__rtruediv__": _defer(ufuncs.true_divide, reflected=True),
    "__floordiv__": _defer(ufuncs.floor_divide),
    "__rfloordiv__": _defer(ufuncs.floor_divide, reflected=True),
    "__mod__": _defer(ufuncs.remainder),
    "__rmod__": _defer(ufuncs.remainder, reflected=True),
    "__pow__": _defer(ufuncs.power),
    "__rpow__": _defer(ufuncs.power, reflected=True),
    "__matmul__": _defer(products.matmul),
    "__rmatmul__": _defer(products.matmul, reflected=True),
    "__and__": _defer(ufuncs.bitwise_and),
    "__rand__": _defer(ufuncs.bitwise_and, reflected=True),
    "__or__": _defer(ufuncs.bitwise_or),
    "__ror__": _defer(ufuncs.bitwise_or, reflected=True),
    "__xor__": _defer(ufuncs.bitwise_xor),
    "__rxor__": _defer(ufuncs.bitwise_xor, reflected=True),
    "__lshift__": _defer(ufuncs.left_shift),
    "__rlshift__": _defer(ufuncs.left_shift, reflected=True),
    "__rshift__": _defer(ufuncs.right_shift),
    "__rrshift__": _defer(ufuncs.right_shift, reflected=True),
    "__lt__": _defer(ufuncs.less),
    "__le__": _defer(ufuncs.less_equal),
    "__gt__": _defer(ufuncs.greater),
    "__ge__": _defer(ufuncs.greater_equal),
    "__eq__": _defer(ufuncs.equal),
    "__ne__": _defer(ufuncs.not_equal),
    "__getitem__": indexing.getitem,
    # methods
    "astype": _astype,
    "reshape": _reshape,
    "transpose": _transpose,
    "T": property(lambda self: shape.transpose(self, None), doc="The transpose (axes reversed)."),
    "mT": property(lambda self: shape.swapaxes(self, -1, -2), doc="The matrix transpose (last two axes swapped)."),
    "ravel": _ravel,
    "flatten": _ravel,
    "squeeze": _squeeze,
    "swapaxes": _swapaxes,
    "sum": reductions.sum,
    "prod": reductions.prod,
    "max": reductions.max,
    "min": reductions.min,
    "mean": reductions.mean,
    "any": reductions.any,
    "all": reductions.all,
    "argmax": reductions.argmax,
    "argmin": reductions.argmin,
    "dot": products.dot,
    "conj": ufuncs.conjugate,
    "conjugate": ufuncs.conjugate,
    "real": property(ufuncs.real, doc="The real part."),
    "imag": property(ufuncs.imag, doc="The imaginary part."),
    "at": property(lambda self: indexing.IndexUpdateHelper(self), doc="Functional updates: ``x.at[i].set(v)``."),
}
"""The methods, properties and operators every array and tracer has, by attribute name."""

_TRACER_ONLY: dict[str, Any] = {"block_until_ready": _block_until_ready}
_IMPL_ONLY: dict[str, Any] = {"copy": _copy}


def install() -> None:
    """Installs the table on ``ArrayImpl`` and ``Tracer`` (idempotent)."""
    for name, value in METHODS.items():
        setattr(ArrayImpl, name, value)
        setattr(Tracer, name, value)
    for name, value in _TRACER_ONLY.items():
        setattr(Tracer, name, value)
    for name, value in _IMPL_ONLY.items():
        setattr(ArrayImpl, name, value)


install()
