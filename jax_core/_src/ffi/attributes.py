"""The attributes of an FFI call: Python values as MLIR attributes (JAX's ``mlir.ir_attribute``),
and the hashable form they take as a primitive parameter.

The keyword arguments of an ``ffi_call`` become attributes of its custom call, which XLA hands
to the handler by name: Python ``int``/``float``/``bool`` become ``i64``/``f64``/``i1``, NumPy
scalars keep their type (``np.float32(1e-5)`` is ``f32``), arrays become dense tensors, strings
strings, dtypes types, dicts dictionaries and lists/tuples arrays of attributes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

import numpy as np
from typing_extensions import TypeIs

from jax_core._src.core.trace import is_ndarray
from jax_core._src.lax.composite import HashableArray
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.ir_types import dtype_to_ir_type

_PYTHON_SCALAR_DTYPES: dict[type, np.dtype[Any]] = {
    bool: np.dtype(np.bool_),
    int: np.dtype(np.int64),
    float: np.dtype(np.float64),
    complex: np.dtype(np.complex128),
}


class FrozenDict(Mapping[str, Any]):
    """A ``dict`` attribute as a hashable parameter value (compared and hashed by its items)."""

    __slots__ = ("_d", "_key")

    def __init__(self, d: Mapping[str, Any]) -> None:
        self._d = dict(d)
        # Nested arrays and dicts compared by value too.
        self._key = tuple(sorted(((k, _hashable_value(v)) for k, v in self._d.items()), key=lambda kv: kv[0]))

    def __getitem__(self, key: str) -> Any:
        return self._d[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(self._key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FrozenDict) and self._key == other._key

    def __repr__(self) -> str:
        return f"FrozenDict({self._d!r})"


def _is_array_or_scalar(x: object) -> TypeIs[np.ndarray[Any, Any] | np.generic[Any]]:
    return isinstance(x, (np.ndarray, np.generic))


def _is_dtype(x: object) -> TypeIs[np.dtype[Any]]:
    return isinstance(x, np.dtype)


def _hashable_value(v: Any) -> Any:
    if is_ndarray(v):
        return HashableArray(v)
    if isinstance(v, dict):
        return FrozenDict(cast("dict[str, Any]", v))
    return v


def wrap_kwargs_hashable(kwargs: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The keyword arguments of an ``ffi_call`` as a hashable parameter, sorted by name: NumPy
    arrays and dicts are wrapped (hashed by value); anything else unhashable is JAX's
    ``TypeError``."""
    out: list[tuple[str, Any]] = []
    for k, v in sorted(kwargs.items()):
        wrapped = _hashable_value(v)
        try:
            hash(wrapped)
        except TypeError as e:
            raise TypeError(f"Non-hashable keyword argument to ffi_call {k}: {v}") from e
        out.append((k, wrapped))
    return tuple(out)


def unwrap_kwargs_hashable(attributes: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """The keyword arguments ``wrap_kwargs_hashable`` wrapped."""
    out: dict[str, Any] = {}
    for k, v in attributes:
        if isinstance(v, HashableArray):
            out[k] = v.val
        elif isinstance(v, FrozenDict):
            out[k] = dict(v)
        else:
            out[k] = v
    return out


def _scalar_attribute(val: np.ndarray[Any, Any] | np.generic[Any]) -> ir.Attribute:
    mlir_type = dtype_to_ir_type(val.dtype)
    if isinstance(mlir_type, ir.IntegerType):
        return ir.IntegerAttr.get(mlir_type, int(val))
    if isinstance(mlir_type, ir.FloatType):
        return ir.FloatAttr.get(mlir_type, float(val))
    raise TypeError(f"Unsupported scalar attribute type: {type(val)}")


def _array_attribute(val: np.ndarray[Any, Any] | np.generic[Any]) -> ir.Attribute:
    arr = np.asarray(val)
    if 0 in arr.strides and arr.size > 0:
        raise ValueError("NumPy arrays with zero strides are not supported as MLIR attributes")
    if isinstance(val, np.generic):
        return _scalar_attribute(val)
    return ir.DenseElementsAttr.get(np.ascontiguousarray(arr), type=dtype_to_ir_type(arr.dtype), shape=list(arr.shape))


def ir_attribute(val: Any) -> ir.Attribute:
    """``val`` as an MLIR attribute (JAX's ``mlir.ir_attribute``); ``TypeError`` for a value with
    no attribute form."""
    if isinstance(val, ir.Attribute):
        return val
    if isinstance(val, ir.Type):
        return ir.TypeAttr.get(val)
    if isinstance(val, HashableArray):
        return _array_attribute(val.val)
    if _is_array_or_scalar(val):
        return _array_attribute(val)
    if _is_dtype(val):
        return ir.TypeAttr.get(dtype_to_ir_type(val))
    for python_type, dtype in _PYTHON_SCALAR_DTYPES.items():  # bool before int: its subclass
        if isinstance(val, python_type):
            return _scalar_attribute(np.array(val, dtype))
    if isinstance(val, (str, bytes)):
        return ir.StringAttr.get(val)
    if isinstance(val, Mapping):
        items = cast("Mapping[str, Any]", val)
        return ir.DictAttr.get({k: ir_attribute(v) for k, v in items.items()})
    if isinstance(val, (list, tuple)):
        return ir.ArrayAttr.get([ir_attribute(v) for v in cast("Sequence[Any]", val)])
    jax_array = getattr(val, "__jax_array__", None)
    if jax_array is not None:
        return ir_attribute(jax_array())
    raise TypeError(f"No attribute handler defined for type: {type(val)}")
