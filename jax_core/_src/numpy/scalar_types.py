"""JAX's scalar types: ``jnp.float32(1)`` is an Array, ``jnp.float32`` is also a dtype.

Each scalar type is a ``ScalarType`` object: calling it converts its argument to an
array of its dtype (canonicalized for x64 mode, as ``jnp.asarray(x, dtype)``), it has a
``dtype`` attribute, so NumPy and every ``dtype=`` parameter accept it, and
``isinstance(np.float32(1), jnp.float32)`` tests for the NumPy scalar type.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.typing.basearray import Array


class ScalarType:
    """A JAX scalar type such as ``jnp.float32``: a callable dtype.

    Example::

        jnp.float32(1)            # Array(1., dtype=float32)
        jnp.zeros(3, jnp.int8)    # usable as a dtype
        jnp.float32.dtype         # dtype('float32')
    """

    __slots__ = ("_dtype", "__name__", "__qualname__")

    def __init__(self, scalar_type: type[Any], name: str | None = None) -> None:
        self._dtype: np.dtype[Any] = np.dtype(scalar_type)
        self.__name__ = name or self._dtype.name
        self.__qualname__ = self.__name__

    @property
    def dtype(self) -> np.dtype[Any]:
        """The (uncanonicalized) dtype of this scalar type."""
        return self._dtype

    @property
    def type(self) -> type[Any]:
        """The NumPy (or ml_dtypes) scalar class."""
        return self._dtype.type

    def __call__(self, x: Any) -> Array:
        """``x`` as an array of this dtype (``jnp.asarray(x, dtype=self.dtype)``)."""
        from jax_core._src.numpy.creation import asarray

        return asarray(x, dtype=self._dtype)

    def __instancecheck__(self, instance: object) -> bool:
        return isinstance(instance, self._dtype.type)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScalarType):
            return self._dtype == other._dtype
        if other is self._dtype.type:
            return True
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dtype.type)

    def __repr__(self) -> str:
        return f"<class 'jax_core.numpy.{self.__name__}'>"


def _ml(name: str) -> ScalarType:
    t: type[Any] | None = getattr(dtypes, name)
    if t is None:  # ml_dtypes too old for int1/uint1: an alias of int2/uint2's dtype would be wrong
        return ScalarType(np.int8 if name.startswith("int") else np.uint8, name)
    return ScalarType(t, name)


bool_: ScalarType = ScalarType(np.bool_, "bool")
int8: ScalarType = ScalarType(np.int8)
int16: ScalarType = ScalarType(np.int16)
int32: ScalarType = ScalarType(np.int32)
int64: ScalarType = ScalarType(np.int64)
uint8: ScalarType = ScalarType(np.uint8)
uint16: ScalarType = ScalarType(np.uint16)
uint32: ScalarType = ScalarType(np.uint32)
uint64: ScalarType = ScalarType(np.uint64)
float16: ScalarType = ScalarType(np.float16)
float32: ScalarType = ScalarType(np.float32)
float64: ScalarType = ScalarType(np.float64)
complex64: ScalarType = ScalarType(np.complex64)
complex128: ScalarType = ScalarType(np.complex128)
bfloat16: ScalarType = _ml("bfloat16")
int1: ScalarType = _ml("int1")
int2: ScalarType = _ml("int2")
int4: ScalarType = _ml("int4")
uint1: ScalarType = _ml("uint1")
uint2: ScalarType = _ml("uint2")
uint4: ScalarType = _ml("uint4")
float4_e2m1fn: ScalarType = _ml("float4_e2m1fn")
float6_e2m3fn: ScalarType = _ml("float6_e2m3fn")
float6_e3m2fn: ScalarType = _ml("float6_e3m2fn")
float8_e3m4: ScalarType = _ml("float8_e3m4")
float8_e4m3: ScalarType = _ml("float8_e4m3")
float8_e4m3b11fnuz: ScalarType = _ml("float8_e4m3b11fnuz")
float8_e4m3fn: ScalarType = _ml("float8_e4m3fn")
float8_e4m3fnuz: ScalarType = _ml("float8_e4m3fnuz")
float8_e5m2: ScalarType = _ml("float8_e5m2")
float8_e5m2fnuz: ScalarType = _ml("float8_e5m2fnuz")
float8_e8m0fnu: ScalarType = _ml("float8_e8m0fnu")

int_: ScalarType = ScalarType(np.int64, "int64")
uint: ScalarType = ScalarType(np.uint64, "uint64")
float_: ScalarType = ScalarType(np.float64, "float64")
complex_: ScalarType = ScalarType(np.complex128, "complex128")
single: ScalarType = float32
double: ScalarType = float64
csingle: ScalarType = complex64
cdouble: ScalarType = complex128

# NumPy's abstract scalar classes, for ``issubdtype`` (``jnp.issubdtype(x.dtype, jnp.floating)``).
generic = np.generic
number = np.number
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
character = np.character
flexible = np.flexible
object_ = np.object_
dtype = np.dtype
finfo = dtypes.finfo
iinfo = dtypes.iinfo
