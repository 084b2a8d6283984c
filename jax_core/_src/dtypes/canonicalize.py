"""Default dtypes, canonicalization (64-bit types to 32-bit without x64), the dtype of a value and
weak typing."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal, TypeGuard, cast, overload

import numpy as np

from jax_core._src import config
from jax_core._src.dtypes.kinds import issubdtype
from jax_core._src.dtypes.scalar_types import (
    CUSTOM_FLOAT_DTYPES,
    INTN_DTYPES,
    JAX_DTYPE_SET,
    WEAK_PYTHON_TYPES,
    ExtendedDType,
    extended,
    is_scalar_class,
    python_scalar_dtypes,
    python_scalar_types,
)
from jax_core._src.typing import Array, DType, DTypeLike

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
    if dtype not in JAX_DTYPE_SET:
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
    if np_dtype not in JAX_DTYPE_SET:
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
        if is_scalar_class(obj):
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
        if dt not in JAX_DTYPE_SET:
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
    if dt not in JAX_DTYPE_SET:
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
