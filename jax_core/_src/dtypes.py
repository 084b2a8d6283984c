"""JAX's dtype layer: the dtypes JAX supports, canonicalization and type promotion.

JAX departs from NumPy in two ways that this module implements:

* the set of types: ml_dtypes' ``bfloat16``, the 4/6/8-bit floats and the 1/2/4-bit
  integers are first-class, and with x64 mode off (the default) every 64-bit type is
  *canonicalized* to its 32-bit counterpart (``canonicalize_dtype``);
* type promotion: a lattice (``promote_types``, ``result_type``) in which Python
  scalars are *weakly typed* (nodes ``i*``, ``f*``, ``c*``): they take the width of
  the strongly typed operand they meet instead of forcing 64 bits.

Only numpy, ml_dtypes and ``jax_core._src.config`` are used here, so every layer
above (core, lowering, numpy) can import this module.
"""

from __future__ import annotations

import abc
import functools
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Literal, Self, TypeAlias, TypeGuard, cast, overload

import ml_dtypes
import numpy as np
from typing_extensions import TypeIs

from jax_core._src import config
from jax_core._src.typing import Array, DType, DTypeLike

__all__ = [
    "DType",
    "ExtendedDType",
    "TypePromotionError",
    "bfloat16",
    "bool_",
    "canonicalize_dtype",
    "check_and_canonicalize_user_dtype",
    "check_user_dtype_supported",
    "check_valid_dtype",
    "coerce_to_array",
    "complex_",
    "default_complex_dtype",
    "default_float_dtype",
    "default_int_dtype",
    "default_types",
    "default_uint_dtype",
    "dtype",
    "extended",
    "finfo",
    "float0",
    "float4_e2m1fn",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float_",
    "iinfo",
    "int1",
    "int2",
    "int4",
    "int_",
    "is_extended_dtype",
    "is_python_scalar",
    "is_weakly_typed",
    "isdtype",
    "issubdtype",
    "itemsize_bits",
    "lattice_result_type",
    "prng_key",
    "promote_types",
    "python_scalar_dtypes",
    "python_scalar_types",
    "result_type",
    "safe_to_cast",
    "scalar_type_of",
    "scalar_type_to_dtype",
    "short_dtype_name",
    "string_dtype",
    "supports_inf",
    "to_complex_dtype",
    "to_floating_dtype",
    "to_inexact_dtype",
    "to_numeric_dtype",
    "uint",
    "uint1",
    "uint2",
    "uint4",
]

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

_JAX_DTYPE_SET: Final[frozenset[DType]] = frozenset({float0, string_dtype, *PROMOTABLE_DTYPES})
"""Every dtype a JAX array may have (apart from extended dtypes)."""

_DTYPE_KINDS: Final[Mapping[str, frozenset[DType]]] = {
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

# ---------------------------------------------------------------------------
# Defaults and canonicalization.
# ---------------------------------------------------------------------------


def default_int_dtype() -> DType:
    """The default integer dtype: int64 with x64 mode on, int32 otherwise."""
    return np.dtype(np.int64) if config.enable_x64.value else np.dtype(np.int32)


def default_uint_dtype() -> DType:
    """The default unsigned integer dtype: uint64 with x64 mode on, uint32 otherwise."""
    return np.dtype(np.uint64) if config.enable_x64.value else np.dtype(np.uint32)


def default_float_dtype() -> DType:
    """The default floating-point dtype: float64 with x64 mode on, float32 otherwise."""
    return np.dtype(np.float64) if config.enable_x64.value else np.dtype(np.float32)


def default_complex_dtype() -> DType:
    """The default complex dtype: complex128 with x64 mode on, complex64 otherwise."""
    return np.dtype(np.complex128) if config.enable_x64.value else np.dtype(np.complex64)


default_types: Final[Mapping[str, Callable[[], DType]]] = {
    "b": lambda: np.dtype(bool),
    "i": default_int_dtype,
    "u": default_uint_dtype,
    "f": default_float_dtype,
    "c": default_complex_dtype,
}
"""The default dtype of each dtype kind character, honouring x64 mode."""

_TO_32BIT: Final[Mapping[DType, DType]] = {
    np.dtype("int64"): np.dtype("int32"),
    np.dtype("uint64"): np.dtype("uint32"),
    np.dtype("float64"): np.dtype("float32"),
    np.dtype("complex128"): np.dtype("complex64"),
}


@functools.lru_cache(maxsize=512)
def _canonicalize_numpy_dtype(x64: bool, dtype: DType) -> DType:
    return dtype if x64 else _TO_32BIT.get(dtype, dtype)


@overload
def canonicalize_dtype(
    dtype: DTypeLike | ExtendedDType | None, allow_extended_dtype: Literal[False] = False
) -> DType: ...
@overload
def canonicalize_dtype(
    dtype: DTypeLike | ExtendedDType | None, allow_extended_dtype: bool = False
) -> DType | ExtendedDType: ...
def canonicalize_dtype(
    dtype: DTypeLike | ExtendedDType | None, allow_extended_dtype: bool = False
) -> DType | ExtendedDType:
    """Converts ``dtype`` to a canonical dtype according to x64 mode.

    With x64 mode off, int64, uint64, float64 and complex128 become int32, uint32,
    float32 and complex64; every other dtype is returned as ``np.dtype(dtype)``.
    Extended dtypes are returned unchanged when ``allow_extended_dtype`` is true
    and raise ``ValueError`` otherwise. Unknown dtype names raise ``TypeError``.
    """
    if isinstance(dtype, ExtendedDType) or issubdtype(dtype, extended):
        if not allow_extended_dtype:
            raise ValueError(
                f"Internal: canonicalize_dtype called on extended dtype {dtype} "
                "with allow_extended_dtype=False"
            )
        return cast(ExtendedDType, dtype)  # or an `extended` scalar class, as in JAX
    return _canonicalize_numpy_dtype(config.enable_x64.value, np.dtype(dtype))


def _maybe_canonicalize_explicit_dtype(dtype: DType, fun_name: str, stacklevel: int) -> DType:
    """Canonicalizes an explicitly requested dtype, warning when it is truncated."""
    if config.enable_x64.value:
        return dtype
    canonical = _canonicalize_numpy_dtype(False, dtype)
    if canonical == dtype:
        return dtype
    where = f" requested in {fun_name}" if fun_name else ""
    warnings.warn(
        f"Explicitly requested dtype {dtype}{where} is not available, "
        f"and will be truncated to dtype {canonical.name}. To enable more dtypes, set the "
        "jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell "
        "environment variable. "
        "See https://github.com/jax-ml/jax#current-gotchas for more.",
        UserWarning,
        stacklevel=stacklevel + 1,
    )
    return canonical


def check_valid_dtype(dtype: DType) -> None:
    """Raises ``TypeError`` unless ``dtype`` is a dtype JAX arrays may have."""
    if dtype not in _JAX_DTYPE_SET:
        raise TypeError(
            f"Dtype {dtype} is not a valid JAX array type. "
            "Only arrays of numeric types are supported by JAX."
        )


_DEFAULT_TYPEMAP: Final[Mapping[type[Any], Callable[[], DType]]] = {
    bool: lambda: np.dtype(bool),
    int: default_int_dtype,
    float: default_float_dtype,
    complex: default_complex_dtype,
}


@overload
def check_and_canonicalize_user_dtype(
    dtype: DTypeLike, fun_name: str | None = None, *, allow_non_jax_dtypes: bool = False
) -> DType: ...
@overload
def check_and_canonicalize_user_dtype(
    dtype: ExtendedDType, fun_name: str | None = None, *, allow_non_jax_dtypes: bool = False
) -> ExtendedDType: ...
def check_and_canonicalize_user_dtype(
    dtype: DTypeLike | ExtendedDType,
    fun_name: str | None = None,
    *,
    allow_non_jax_dtypes: bool = False,
) -> DType | ExtendedDType:
    """Checks a dtype a user passed (``dtype=`` arguments) and returns its canonical form.

    Python scalar types give the default dtype of their kind; an explicitly
    requested 64-bit dtype with x64 mode off is truncated to 32 bits with a
    ``UserWarning``; non-JAX dtypes (objects, strings of fixed width) raise
    ``TypeError`` unless ``allow_non_jax_dtypes``.
    """
    return _check_and_canonicalize_user_dtype(dtype, fun_name, allow_non_jax_dtypes, stacklevel=3)


def _check_and_canonicalize_user_dtype(
    dtype: DTypeLike | ExtendedDType | None,
    fun_name: str | None,
    allow_non_jax_dtypes: bool,
    stacklevel: int,
) -> DType | ExtendedDType:
    if dtype is None:
        raise ValueError("dtype must be specified.")
    if isinstance(dtype, Array):
        raise ValueError(  # noqa: TRY004  (JAX raises ValueError)
            "Passing an array as a dtype argument is no longer "
            "supported; instead of dtype=arr use dtype=arr.dtype."
        )
    if isinstance(dtype, ExtendedDType):
        return dtype
    if isinstance(dtype, type):
        default = _DEFAULT_TYPEMAP.get(dtype)
        if default is not None:
            return default()
    np_dtype = np.dtype(dtype)
    if np_dtype not in _JAX_DTYPE_SET:
        if allow_non_jax_dtypes:
            return np_dtype
        msg = f"JAX only supports number, bool, and string dtypes, got dtype {dtype}"
        msg += f" in {fun_name}" if fun_name else ""
        raise TypeError(msg)
    return _maybe_canonicalize_explicit_dtype(np_dtype, fun_name or "", stacklevel + 1)


def check_user_dtype_supported(
    dtype: DTypeLike | ExtendedDType, fun_name: str | None = None
) -> None:
    """Checks a dtype a user passed to ``fun_name``; warns if x64 mode will truncate it.

    Raises ``TypeError`` for dtypes JAX arrays cannot have. A 64-bit dtype with x64
    mode off gives a ``UserWarning`` ("Explicitly requested dtype float64 requested
    in array is not available, and will be truncated to dtype float32. ...").
    """
    _check_and_canonicalize_user_dtype(dtype, fun_name, False, stacklevel=3)


# ---------------------------------------------------------------------------
# The dtype of a value, and weak typing.
# ---------------------------------------------------------------------------


def _is_class(x: object) -> TypeGuard[type[Any]]:
    return isinstance(x, type)


def _is_str_or_dtype(x: object) -> TypeGuard[str | DType]:
    return isinstance(x, (str, np.dtype))


def _is_scalar_class(x: object) -> TypeGuard[type[np.generic[Any]]]:
    return isinstance(x, type) and issubclass(x, np.generic)


def _is_dtype(x: object) -> TypeGuard[DType]:
    return isinstance(x, np.dtype)


def _weak_type_attr(x: object) -> bool | None:
    """The ``weak_type`` an object reports (directly or through ``.aval``), or None."""
    weak = getattr(x, "weak_type", None)
    if weak is None:
        aval = getattr(x, "aval", None)
        weak = getattr(aval, "weak_type", None) if aval is not None else None
    if weak is None or isinstance(x, type):
        return None
    return bool(weak)


def dtype(x: Any, canonicalize: bool = False) -> DType:
    """Returns the dtype of a value or type specifier, with JAX's rules.

    Python scalars and Python scalar types give int64, float64, complex128 or bool;
    NumPy scalar types, dtypes and dtype names give that dtype; arrays and other
    objects with a ``dtype`` give that dtype; anything else goes through
    ``np.result_type``. A dtype no JAX array may have raises ``TypeError``.

    With ``canonicalize`` the result is canonicalized for x64 mode (as
    ``jax.dtypes.dtype`` in JAX does): explicitly named 64-bit types (``np.float64``,
    ``"int64"``) are truncated with a ``UserWarning``, values silently, and the
    dtypes of ``Array`` instances are never changed.
    """
    obj: object = x  # `object`, not `Any`, so that isinstance narrows to known types
    dt: DType
    if obj is None:
        raise ValueError(f"Invalid argument to dtype: {obj}.")
    if _is_class(obj):
        py_dtype = python_scalar_dtypes.get(obj)
        if py_dtype is not None:
            return canonicalize_dtype(py_dtype) if canonicalize else py_dtype
        if _is_scalar_class(obj):
            dt = np.dtype(obj)
            return _maybe_canonicalize_explicit_dtype(dt, "dtype", 2) if canonicalize else dt
    else:
        py_dtype = python_scalar_dtypes.get(type(obj))
        if py_dtype is not None:
            return canonicalize_dtype(py_dtype) if canonicalize else py_dtype
        if isinstance(obj, Array):
            return obj.dtype
    if _is_str_or_dtype(obj):
        dt = np.dtype(obj)
        if dt not in _JAX_DTYPE_SET:
            raise TypeError(
                f"Value '{obj}' with dtype {dt} is not a valid JAX array type. "
                "Only arrays of numeric types are supported by JAX."
            )
        return _maybe_canonicalize_explicit_dtype(dt, "dtype", 2) if canonicalize else dt
    dt_attr: object = getattr(obj, "dtype", None)
    if _is_dtype(dt_attr):
        dt = dt_attr
    else:
        try:
            dt = np.result_type(x)
        except TypeError as err:
            raise TypeError(f"Cannot determine dtype of {obj}") from err
    if dt not in _JAX_DTYPE_SET:
        raise TypeError(
            f"Value '{obj}' with dtype {dt} is not a valid JAX array type. "
            "Only arrays of numeric types are supported by JAX."
        )
    return canonicalize_dtype(dt) if canonicalize else dt


def is_weakly_typed(x: object) -> bool:
    """Whether ``x`` is weakly typed: a Python int/float/complex, or reports ``weak_type``.

    Python ``bool`` values are not weak (bool has no narrower type to adapt to).
    """
    if type(x) in WEAK_PYTHON_TYPES:
        return True
    return _weak_type_attr(x) is True


def is_python_scalar(x: object) -> bool:
    """Whether ``x`` is a Python scalar, or a weakly typed 0-d array standing for one."""
    weak = _weak_type_attr(x)
    if weak is not None:
        shape = getattr(x, "shape", None)
        return weak and shape == ()
    return type(x) in python_scalar_types


def scalar_type_of(x: Any) -> type[Any]:
    """The Python scalar type (bool, int, float or complex) matching the dtype of ``x``."""
    typ = dtype(x)
    if typ in CUSTOM_FLOAT_DTYPES:
        return float
    if typ in INTN_DTYPES:
        return int
    if np.issubdtype(typ, np.bool_):
        return bool
    if np.issubdtype(typ, np.integer):
        return int
    if np.issubdtype(typ, np.floating):
        return float
    if np.issubdtype(typ, np.complexfloating):
        return complex
    raise TypeError(f"Invalid scalar value {x}")


def scalar_type_to_dtype(typ: type[Any], value: object = None) -> DType:
    """The canonical dtype of Python scalar type ``typ``; checks that int ``value`` fits.

    Raises ``OverflowError`` if ``typ`` is int and ``value`` is out of range.
    """
    dt = canonicalize_dtype(python_scalar_dtypes[typ])
    if typ is int and isinstance(value, int):
        info = np.iinfo(dt)
        if value < info.min or value > info.max:
            raise OverflowError(f"Python int {value} too large to convert to {dt}")
    return dt


def coerce_to_array(x: object, dtype: DTypeLike | None = None) -> np.ndarray[Any, Any]:
    """Converts a scalar or NumPy array to a NumPy array, typing Python scalars as JAX does."""
    if dtype is None and type(x) in python_scalar_types:
        dtype = scalar_type_to_dtype(type(x), x)
    return np.asarray(x, dtype)


# ---------------------------------------------------------------------------
# finfo / iinfo / issubdtype.
# ---------------------------------------------------------------------------

if TYPE_CHECKING:
    # ml_dtypes' classes have untyped constructors: declare their static surface.

    class finfo(np.finfo[Any]):
        """Machine limits for floating-point types, ml_dtypes' included (``bfloat16``...)."""

        def __new__(cls, dtype: DTypeLike) -> Self:
            """Limits of ``dtype`` (a floating or complex dtype, or an array of one)."""
            ...

    class iinfo:
        """Machine limits for integer types, ml_dtypes' included (``int4``, ``uint4``...)."""

        kind: str
        bits: int
        min: int
        max: int
        dtype: DType

        def __init__(self, int_type: DTypeLike) -> None:
            """Limits of ``int_type`` (an integer dtype, or an array of one)."""
            ...

else:
    finfo = ml_dtypes.finfo
    iinfo = ml_dtypes.iinfo

type _IssubdtypeArg = type[Any] | DType | ExtendedDType


def _issubclass(a: object, b: type[Any]) -> bool:
    return isinstance(a, type) and issubclass(a, b)


def issubdtype(a: DTypeLike | ExtendedDType | None, b: DTypeLike | ExtendedDType | None) -> bool:
    """Whether ``a`` is lower or equal to ``b`` in the dtype hierarchy.

    As ``np.issubdtype``, but ml_dtypes types sit where they belong (``bfloat16``
    and the float8 types under ``np.floating``, ``int4`` under ``np.signedinteger``)
    and extended dtypes are under ``extended`` (PRNG keys under ``prng_key``).
    """
    a_norm: _IssubdtypeArg = a if isinstance(a, (type, np.dtype, ExtendedDType)) else np.dtype(a)
    b_norm: _IssubdtypeArg = b if isinstance(b, (type, np.dtype, ExtendedDType)) else np.dtype(b)
    key = (a_norm, b_norm)
    try:
        return _ISSUBDTYPE_CACHE[key]
    except KeyError:
        result = _ISSUBDTYPE_CACHE[key] = _issubdtype_uncached(a_norm, b_norm)
        return result
    except TypeError:  # an unhashable extended dtype
        return _issubdtype_uncached(a_norm, b_norm)


_ISSUBDTYPE_CACHE: dict[tuple[_IssubdtypeArg, _IssubdtypeArg], bool] = {}


def _scalar_class(x: type[Any] | DType) -> type[Any]:
    if _is_scalar_class(x):
        return x
    return np.dtype(x).type


def _issubdtype_uncached(a: _IssubdtypeArg, b: _IssubdtypeArg) -> bool:
    # Extended dtypes are not NumPy dtypes, but their scalar classes do sit in
    # NumPy's scalar hierarchy (under `extended`).
    if _issubclass(b, extended):
        assert isinstance(b, type)
        if isinstance(a, ExtendedDType):
            return issubclass(a.type, b)
        return issubclass(_scalar_class(a), b)
    if isinstance(b, ExtendedDType):
        return isinstance(a, ExtendedDType) and a == b
    a_sc = a.type if isinstance(a, ExtendedDType) else _scalar_class(a)
    b_sc = _scalar_class(b)
    # ml_dtypes' scalar classes are not subclasses of np.floating / np.integer.
    if a_sc in CUSTOM_FLOAT_SCALAR_TYPES:
        return b_sc in (a_sc, np.floating, np.inexact, np.number, np.generic)
    if a_sc in SIGNED_INTN_SCALAR_TYPES:
        return b_sc in (a_sc, np.signedinteger, np.integer, np.number, np.generic)
    if a_sc in UNSIGNED_INTN_SCALAR_TYPES:
        return b_sc in (a_sc, np.unsignedinteger, np.integer, np.number, np.generic)
    return bool(np.issubdtype(a_sc, b_sc))


def isdtype(dtype: DTypeLike, kind: str | DTypeLike | tuple[str | DTypeLike, ...]) -> bool:
    """Whether ``dtype`` is of the given kind (array API ``isdtype``).

    ``kind`` is a dtype, one of ``'bool'``, ``'signed integer'``, ``'unsigned integer'``,
    ``'integral'``, ``'real floating'``, ``'complex floating'``, ``'numeric'``, or a
    tuple of these (any may match).
    """
    the_dtype = np.dtype(dtype)
    kinds: tuple[str | DTypeLike, ...] = kind if isinstance(kind, tuple) else (kind,)
    options: set[DType] = set()
    for k in kinds:
        if isinstance(k, str) and k in _DTYPE_KINDS:
            options.update(_DTYPE_KINDS[k])
            continue
        try:
            options.add(np.dtype(k))
        except TypeError as e:
            if isinstance(k, str):
                raise ValueError(  # noqa: TRY004  (JAX raises ValueError)
                    f"Unrecognized kind={k!r} expected one of {list(_DTYPE_KINDS)}, "
                    "or a compatible input for jnp.dtype()"
                ) from None
            raise TypeError(f"Expected kind to be a dtype, string, or tuple; got kind={k!r}") from e
    return the_dtype in options


def supports_inf(dtype: DTypeLike) -> bool:
    """Whether ``dtype`` can represent infinity."""
    typ = np.dtype(dtype).type
    if typ in (float8_e4m3b11fnuz, float8_e4m3fn, float8_e4m3fnuz, float8_e5m2fnuz):
        return False
    return issubdtype(dtype, np.inexact)


def itemsize_bits(dtype: DTypeLike) -> int:
    """The number of bits of one element (4 for int4; 8 for bool, its physical layout)."""
    dt = np.dtype(dtype)
    if dt == np.dtype(bool):
        return 8
    if issubdtype(dt, np.integer):
        return int(iinfo(dt).bits)
    if issubdtype(dt, np.floating):
        return int(finfo(dt).bits)
    if issubdtype(dt, np.complexfloating):
        return 2 * int(finfo(dt).bits)
    raise ValueError(f"unexpected input: dtype={dtype!r}")


# Narrow types go to float32 (not float16) for backward compatibility, as in JAX.
_TO_INEXACT: Final[Mapping[DType, DType]] = {
    **{np.dtype(t): np.dtype("float32") for t in (uint4, int4)},
    **{
        np.dtype(k): np.dtype("float32")
        for k in ("bool", "uint8", "int8", "uint16", "int16", "uint32", "int32")
    },
    np.dtype("uint64"): np.dtype("float64"),
    np.dtype("int64"): np.dtype("float64"),
}


def to_numeric_dtype(dtype: DTypeLike) -> DType:
    """Promotes bool to int32; every other dtype is returned unchanged."""
    dt = np.dtype(dtype)
    return np.dtype("int32") if dt == np.dtype("bool") else dt


def to_inexact_dtype(dtype: DTypeLike) -> DType:
    """Promotes bool and integer dtypes to float32 (64-bit integers to float64)."""
    dt = np.dtype(dtype)
    return _TO_INEXACT.get(dt, dt)


def to_floating_dtype(dtype: DTypeLike) -> DType:
    """Promotes a dtype to a real floating dtype (complex64 -> float32, ...)."""
    dt = to_inexact_dtype(dtype)
    return np.dtype(finfo(dt).dtype)


def to_complex_dtype(dtype: DTypeLike) -> DType:
    """Promotes a dtype to complex: complex128 for 64-bit inputs, complex64 otherwise."""
    ftype = to_inexact_dtype(dtype)
    if ftype in (np.dtype("float64"), np.dtype("complex128")):
        return np.dtype("complex128")
    return np.dtype("complex64")


def short_dtype_name(dtype: DType | ExtendedDType) -> str:
    """The dtype's name as jaxprs print it: f32, i32, u8, bf16, c64, f8_e4m3fn, bool, float0."""
    if isinstance(dtype, ExtendedDType):
        return str(dtype)
    return _short_numpy_dtype_name(dtype)


@functools.cache
def _short_numpy_dtype_name(dtype: DType) -> str:
    if dtype == float0:
        return "float0"
    return (
        dtype.name.replace("float", "f")
        .replace("uint", "u")
        .replace("int", "i")
        .replace("complex", "c")
    )


# The promotion lattice lives in its own module; its names are part of this one's API.
from jax_core._src.type_promotion import (  # noqa: E402
    TypePromotionError as TypePromotionError,
    promote_types as promote_types,
    lattice_result_type as lattice_result_type,
    result_type as result_type,
    safe_to_cast as safe_to_cast,
)
