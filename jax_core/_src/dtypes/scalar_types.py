"""The dtypes JAX supports: extended dtypes (PRNG keys), scalar types, dtype constants and kinds."""

from __future__ import annotations

import abc
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeGuard

import ml_dtypes
import numpy as np
from typing_extensions import TypeIs

from jax_core._src.typing import DType

# ---------------------------------------------------------------------------
# Extended dtypes (PRNG keys and the like): marker scalar classes and a base.
# ---------------------------------------------------------------------------

if TYPE_CHECKING:
    _GenericScalar: TypeAlias = np.generic[Any]  # noqa: UP040  (a base class below)
else:
    _GenericScalar = np.generic


class extended(_GenericScalar):
    """Scalar class for extended dtypes (``issubdtype(key.dtype, extended)``).

    An abstract marker: it is never instantiated and exists for ``issubdtype``.
    """


class prng_key(extended):
    """Scalar class for PRNG key dtypes (``issubdtype(key.dtype, prng_key)``).

    An abstract marker: it is never instantiated and exists for ``issubdtype``.
    """


class ExtendedDType(abc.ABC):
    """Base class of extended (non-NumPy) dtypes, such as typed PRNG key dtypes.

    Subclasses must be hashable and name their scalar class (a subclass of
    ``extended``) through ``type``.
    """

    _rules: Any = None

    @property
    @abc.abstractmethod
    def type(self) -> type[extended]:
        """The scalar class of this dtype, a subclass of ``extended``."""

    @property
    def name(self) -> str:
        """The dtype's name, as printed in jaxprs."""
        return str(self)


def is_extended_dtype(dtype: object) -> TypeIs[ExtendedDType]:
    """Whether ``dtype`` is an extended dtype (a PRNG key dtype, ...): the layers below
    tracing then defer to its ``_rules`` (physical representation, result handling)."""
    return isinstance(dtype, ExtendedDType)


# ---------------------------------------------------------------------------
# Scalar types and dtype constants.
# ---------------------------------------------------------------------------

bfloat16: type[np.generic[Any]] = ml_dtypes.bfloat16
"""The bfloat16 scalar type (from ml_dtypes)."""
float8_e3m4: type[np.generic[Any]] = ml_dtypes.float8_e3m4
"""The float8_e3m4 scalar type (from ml_dtypes)."""
float8_e4m3: type[np.generic[Any]] = ml_dtypes.float8_e4m3
"""The float8_e4m3 scalar type (from ml_dtypes)."""
float8_e8m0fnu: type[np.generic[Any]] = ml_dtypes.float8_e8m0fnu
"""The float8_e8m0fnu scalar type (from ml_dtypes)."""
float8_e4m3b11fnuz: type[np.generic[Any]] = ml_dtypes.float8_e4m3b11fnuz
"""The float8_e4m3b11fnuz scalar type (from ml_dtypes)."""
float8_e4m3fn: type[np.generic[Any]] = ml_dtypes.float8_e4m3fn
"""The float8_e4m3fn scalar type (from ml_dtypes)."""
float8_e4m3fnuz: type[np.generic[Any]] = ml_dtypes.float8_e4m3fnuz
"""The float8_e4m3fnuz scalar type (from ml_dtypes)."""
float8_e5m2: type[np.generic[Any]] = ml_dtypes.float8_e5m2
"""The float8_e5m2 scalar type (from ml_dtypes)."""
float8_e5m2fnuz: type[np.generic[Any]] = ml_dtypes.float8_e5m2fnuz
"""The float8_e5m2fnuz scalar type (from ml_dtypes)."""
float6_e2m3fn: type[np.generic[Any]] = ml_dtypes.float6_e2m3fn
"""The float6_e2m3fn scalar type (from ml_dtypes)."""
float6_e3m2fn: type[np.generic[Any]] = ml_dtypes.float6_e3m2fn
"""The float6_e3m2fn scalar type (from ml_dtypes)."""
float4_e2m1fn: type[np.generic[Any]] = ml_dtypes.float4_e2m1fn
"""The float4_e2m1fn scalar type (from ml_dtypes)."""

int2: type[np.generic[Any]] = ml_dtypes.int2
"""The 2-bit signed integer scalar type (from ml_dtypes)."""
uint2: type[np.generic[Any]] = ml_dtypes.uint2
"""The 2-bit unsigned integer scalar type (from ml_dtypes)."""
int4: type[np.generic[Any]] = ml_dtypes.int4
"""The 4-bit signed integer scalar type (from ml_dtypes)."""
uint4: type[np.generic[Any]] = ml_dtypes.uint4
"""The 4-bit unsigned integer scalar type (from ml_dtypes)."""
int1: type[np.generic[Any]] | None = getattr(ml_dtypes, "int1", None)
"""The 1-bit signed integer scalar type, or None with ml_dtypes older than 0.5.1."""
uint1: type[np.generic[Any]] | None = getattr(ml_dtypes, "uint1", None)
"""The 1-bit unsigned integer scalar type, or None with ml_dtypes older than 0.5.1."""

bool_: Final = np.bool_
"""The boolean scalar type."""
int_: type[Any] = np.int64
"""The (uncanonicalized) default integer scalar type."""
uint: type[Any] = np.uint64
"""The (uncanonicalized) default unsigned integer scalar type."""
float_: type[Any] = np.float64
"""The (uncanonicalized) default floating-point scalar type."""
complex_: type[Any] = np.complex128
"""The (uncanonicalized) default complex scalar type."""

float0: np.dtype[np.void] = np.dtype([("float0", np.void, 0)])
"""The dtype of tangents of integer and boolean values: a zero-size trivial vector space."""

string_dtype: np.dtypes.StringDType = np.dtypes.StringDType()
"""NumPy's variable-width string dtype; valid in arrays but not in type promotion."""

# Ordered from narrow to wide within each class; the order matters only for the
# lattice's error messages and for enumerating types in tests.
CUSTOM_FLOAT_SCALAR_TYPES: Final[tuple[type[np.generic[Any]], ...]] = (
    float4_e2m1fn,
    float6_e2m3fn,
    float6_e3m2fn,
    float8_e3m4,
    float8_e4m3,
    float8_e8m0fnu,
    float8_e4m3b11fnuz,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    bfloat16,
)
CUSTOM_FLOAT_DTYPES: Final[frozenset[DType]] = frozenset(
    np.dtype(t) for t in CUSTOM_FLOAT_SCALAR_TYPES
)
FLOAT8_DTYPES: Final[frozenset[DType]] = frozenset(
    np.dtype(t)
    for t in (
        float8_e3m4,
        float8_e4m3,
        float8_e8m0fnu,
        float8_e4m3b11fnuz,
        float8_e4m3fn,
        float8_e4m3fnuz,
        float8_e5m2,
        float8_e5m2fnuz,
    )
)
FLOAT6_DTYPES: Final[frozenset[DType]] = frozenset(
    np.dtype(t) for t in (float6_e2m3fn, float6_e3m2fn)
)
FLOAT4_DTYPES: Final[frozenset[DType]] = frozenset({np.dtype(float4_e2m1fn)})

SIGNED_INTN_SCALAR_TYPES: Final[tuple[type[np.generic[Any]], ...]] = tuple(
    t for t in (int1, int2, int4) if t is not None
)
UNSIGNED_INTN_SCALAR_TYPES: Final[tuple[type[np.generic[Any]], ...]] = tuple(
    t for t in (uint1, uint2, uint4) if t is not None
)
INTN_DTYPES: Final[frozenset[DType]] = frozenset(
    np.dtype(t) for t in SIGNED_INTN_SCALAR_TYPES + UNSIGNED_INTN_SCALAR_TYPES
)

_BOOL_DTYPES: Final[tuple[DType, ...]] = (np.dtype(np.bool_),)
_UNSIGNED_DTYPES: Final[tuple[DType, ...]] = (
    *(np.dtype(t) for t in UNSIGNED_INTN_SCALAR_TYPES),
    *(np.dtype(name) for name in ("uint8", "uint16", "uint32", "uint64")),
)
_SIGNED_DTYPES: Final[tuple[DType, ...]] = (
    *(np.dtype(t) for t in SIGNED_INTN_SCALAR_TYPES),
    *(np.dtype(name) for name in ("int8", "int16", "int32", "int64")),
)
_FLOAT_DTYPES: Final[tuple[DType, ...]] = (
    *(np.dtype(t) for t in CUSTOM_FLOAT_SCALAR_TYPES),
    np.dtype("float16"),
    np.dtype("float32"),
    np.dtype("float64"),
)
_COMPLEX_DTYPES: Final[tuple[DType, ...]] = (np.dtype("complex64"), np.dtype("complex128"))

_NUMERIC_DTYPES: Final[tuple[DType, ...]] = (
    *_UNSIGNED_DTYPES,
    *_SIGNED_DTYPES,
    *_FLOAT_DTYPES,
    *_COMPLEX_DTYPES,
)
PROMOTABLE_DTYPES: Final[tuple[DType, ...]] = (*_BOOL_DTYPES, *_NUMERIC_DTYPES)
"""Every dtype that takes part in type promotion, in JAX's order."""

JAX_DTYPE_SET: Final[frozenset[DType]] = frozenset({float0, string_dtype, *PROMOTABLE_DTYPES})
"""Every dtype a JAX array may have (apart from extended dtypes)."""

DTYPE_KINDS: Final[Mapping[str, frozenset[DType]]] = {
    "bool": frozenset(_BOOL_DTYPES),
    "signed integer": frozenset(_SIGNED_DTYPES),
    "unsigned integer": frozenset(_UNSIGNED_DTYPES),
    "integral": frozenset(_SIGNED_DTYPES + _UNSIGNED_DTYPES),
    "real floating": frozenset(_FLOAT_DTYPES),
    "complex floating": frozenset(_COMPLEX_DTYPES),
    "numeric": frozenset(_NUMERIC_DTYPES),
}

python_scalar_types: Final[frozenset[type[Any]]] = frozenset({bool, int, float, complex})
"""The Python scalar types JAX accepts as array values."""

python_scalar_dtypes: Final[Mapping[type[Any], DType]] = {
    bool: np.dtype("bool"),
    int: np.dtype("int64"),
    float: np.dtype("float64"),
    complex: np.dtype("complex128"),
}
"""The (uncanonicalized) dtype of each Python scalar type."""

WEAK_PYTHON_TYPES: Final[tuple[type[Any], ...]] = (int, float, complex)

def is_scalar_class(x: object) -> TypeGuard[type[np.generic[Any]]]:
    return isinstance(x, type) and issubclass(x, np.generic)
