"""``finfo``/``iinfo``, ``issubdtype``/``isdtype``, conversions to a kind (``to_inexact_dtype``...) and
short dtype names."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, Self

import ml_dtypes
import numpy as np

from jax_core._src.dtypes.scalar_types import (
    CUSTOM_FLOAT_SCALAR_TYPES,
    DTYPE_KINDS,
    SIGNED_INTN_SCALAR_TYPES,
    UNSIGNED_INTN_SCALAR_TYPES,
    ExtendedDType,
    extended,
    float0,
    float8_e4m3b11fnuz,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2fnuz,
    int4,
    is_scalar_class,
    uint4,
)
from jax_core._src.typing import DType, DTypeLike

# ---------------------------------------------------------------------------
# finfo / iinfo / issubdtype.
# ---------------------------------------------------------------------------

if TYPE_CHECKING:
    # ml_dtypes' classes have untyped constructors: declare their static surface.

    # np.finfo[Any]: for ml_dtypes' types (bfloat16, float8_*) eps/max are ml_dtypes scalars,
    # which are not np.floating, so the limits stay Any.
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
    if is_scalar_class(x):
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
        if isinstance(k, str) and k in DTYPE_KINDS:
            options.update(DTYPE_KINDS[k])
            continue
        try:
            options.add(np.dtype(k))
        except TypeError as e:
            if isinstance(k, str):
                raise ValueError(  # noqa: TRY004  (JAX raises ValueError)
                    f"Unrecognized kind={k!r} expected one of {list(DTYPE_KINDS)}, "
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
