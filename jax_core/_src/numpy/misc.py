"""Odds and ends of the NumPy namespace: dtype predicates, printing, file I/O, bit packing."""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from typing import IO, Any, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax import elementwise as lax
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import canonicalize_axis, check_arraylike, ensure_array, jitted
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

ComplexWarning = np.exceptions.ComplexWarning
"""Warning raised when complex values are cast to a real dtype (NumPy's class)."""


def issubdtype(arg1: DTypeLike, arg2: DTypeLike) -> bool:
    """Whether ``arg1`` is below ``arg2`` in the dtype hierarchy (knows ``bfloat16`` & co.)."""
    return dtypes.issubdtype(arg1, arg2)


def isdtype(dtype: DTypeLike, kind: str | DTypeLike | tuple[str | DTypeLike, ...]) -> bool:
    """Whether ``dtype`` is of ``kind`` (array API: ``'bool'``, ``'integral'``, ``'real floating'``...)."""
    return dtypes.isdtype(dtype, kind)


def can_cast(from_: Any, to: DTypeLike, casting: str = "safe") -> bool:
    """Whether a cast from ``from_`` (a dtype or array) to ``to`` is allowed under ``casting``."""
    src = from_.dtype if isinstance(from_, Array) else from_
    return bool(np.can_cast(src, np.dtype(to), casting=casting))  # type: ignore[arg-type]


def iterable(y: object) -> bool:
    """Whether ``iter(y)`` works."""
    try:
        iter(y)  # type: ignore[call-overload]
    except TypeError:
        return False
    return True


def isscalar(element: object) -> bool:
    """Whether ``element`` is a scalar: a Python/NumPy scalar or a 0-d array."""
    if isinstance(element, (Array, np.ndarray)):
        return element.ndim == 0
    if hasattr(element, "__jax_array__"):
        return ensure_array(cast(Any, element)).ndim == 0
    return isinstance(element, (bool, int, float, complex, np.generic))


def iscomplexobj(x: object) -> bool:
    """Whether ``x`` has a complex dtype (whatever its values)."""
    if x is None:
        return False
    try:
        dt = x.dtype if isinstance(x, Array) else np.asarray(x).dtype
    except (TypeError, ValueError):
        return False
    return bool(dtypes.issubdtype(dt, np.complexfloating))


def isrealobj(x: object) -> bool:
    """Whether ``x`` does not have a complex dtype."""
    return not iscomplexobj(x)


def array_repr(arr: ArrayLike, max_line_width: int | None = None, precision: int | None = None, suppress_small: bool | None = None) -> str:
    """NumPy's ``array_repr`` (``array([...], dtype=...)``), as ``jax.numpy`` re-exports it."""
    return np.array_repr(arr, max_line_width=max_line_width, precision=precision, suppress_small=suppress_small)  # type: ignore[arg-type]  # NumPy converts array-likes


def array_str(a: ArrayLike, max_line_width: int | None = None, precision: int | None = None, suppress_small: bool | None = None) -> str:
    """NumPy's ``array_str``, as ``jax.numpy`` re-exports it."""
    return np.array_str(a, max_line_width=max_line_width, precision=precision, suppress_small=suppress_small)  # type: ignore[arg-type]  # NumPy converts array-likes


def get_printoptions() -> dict[str, Any]:
    """NumPy's print options (arrays print through NumPy)."""
    return np.get_printoptions()  # type: ignore[return-value]


def set_printoptions(*args: Any, **kwargs: Any) -> None:
    """Sets NumPy's print options (arrays print through NumPy)."""
    np.set_printoptions(*args, **kwargs)


@contextlib.contextmanager
def printoptions(*args: Any, **kwargs: Any) -> Generator[dict[str, Any], None, None]:
    """Context manager for NumPy's print options."""
    with np.printoptions(*args, **kwargs) as opts:
        yield opts  # type: ignore[misc]


def save(file: Any, arr: ArrayLike, allow_pickle: bool = True) -> None:
    """Saves an array to a ``.npy`` file (through NumPy)."""
    np.save(file, np.asarray(ensure_array(arr)), allow_pickle=allow_pickle)


def savez(file: Any, *args: ArrayLike, allow_pickle: bool = True, **kwds: ArrayLike) -> None:
    """Saves several arrays to an uncompressed ``.npz`` file (through NumPy)."""
    np.savez(file, *(np.asarray(ensure_array(a)) for a in args), allow_pickle=allow_pickle, **{k: np.asarray(ensure_array(v)) for k, v in kwds.items()})


def load(file: IO[bytes] | str | Any, *args: Any, **kwargs: Any) -> Any:
    """Loads an array from a ``.npy`` file as a jax_core array (``.npz``: NumPy's lazy archive)."""
    from jax_core._src.numpy.creation import asarray

    out: Any = np.load(file, *args, **kwargs)
    if isinstance(out, np.ndarray):
        host: np.ndarray[Any, Any] = out  # pyright: ignore[reportUnknownVariableType]
        if host.dtype.kind in "biufc":
            return asarray(host)
    return cast(Any, out)


@jitted(static=('axis', 'bitorder'), inline=False)
def packbits(a: ArrayLike, axis: int | None = None, bitorder: str = "big") -> Array:
    """Packs a boolean/integer array's truthiness into uint8 bits along ``axis``."""
    check_arraylike("packbits", a)
    x = ensure_array(a)
    if not (dtypes.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_):
        raise TypeError(f"Expected an input array of integer or boolean data type, got {x.dtype}")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    bits = lax.convert_element_type(lax.as_bool(x), np.uint8)
    if axis is None:
        bits = jshape.ravel(bits)
        axis = 0
    ax = canonicalize_axis(axis, bits.ndim)
    from jax_core._src.numpy.manipulation import moveaxis

    bits = moveaxis(bits, ax, -1)
    n = bits.shape[-1]
    pad = (-n) % 8
    from jax_core._src.lax.shape import assembly as shape_assembly

    bits = shape_assembly.pad(bits, np.uint8(0), [(0, 0, 0)] * (bits.ndim - 1) + [(0, pad, 0)])
    bits = jshape.reshape(bits, (*bits.shape[:-1], bits.shape[-1] // 8, 8))
    shifts = np.arange(8, dtype=np.uint8) if bitorder == "little" else np.arange(7, -1, -1, dtype=np.uint8)
    from jax_core._src.lax.reductions.reduce import reduce_sum

    packed = reduce_sum(lax.shift_left(bits, jshape.broadcast_to(shifts, bits.shape)), (bits.ndim - 1,))
    return moveaxis(packed, -1, ax)


@jitted(static=('axis', 'count', 'bitorder'), inline=False)
def unpackbits(a: ArrayLike, axis: int | None = None, count: int | None = None, bitorder: str = "big") -> Array:
    """Unpacks uint8 elements into their bits along ``axis``."""
    check_arraylike("unpackbits", a)
    x = ensure_array(a)
    if x.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    shifts = np.arange(8, dtype=np.uint8) if bitorder == "little" else np.arange(7, -1, -1, dtype=np.uint8)
    xe = jshape.reshape(x, (*x.shape, 1))
    bits = lax.bitwise_and(lax.shift_right_logical(jshape.broadcast_to(xe, (*x.shape, 8)), jshape.broadcast_to(shifts, (*x.shape, 8))), np.uint8(1))
    if axis is None:
        bits = jshape.ravel(bits)
        axis = 0
        ax = 0
    else:
        ax = canonicalize_axis(axis, x.ndim)
        from jax_core._src.numpy.manipulation import moveaxis

        bits = moveaxis(bits, -1, ax + 1)
        bits = jshape.reshape(bits, (*x.shape[:ax], x.shape[ax] * 8, *x.shape[ax + 1 :]))
    if count is not None:
        n = bits.shape[ax]
        from jax_core._src.lax.indexing import slicing
        from jax_core._src.lax.shape import assembly as shape_assembly

        if count <= n:
            hi = list(bits.shape)
            hi[ax] = count
            bits = slicing.slice(bits, (0,) * bits.ndim, tuple(hi))
        else:
            cfg = [(0, 0, 0)] * bits.ndim
            cfg[ax] = (0, count - n, 0)
            bits = shape_assembly.pad(bits, np.uint8(0), cfg)
    return bits
