"""Array creation: ``array``, ``asarray``, ``zeros``, ``ones``, ``full``, ``arange``, ..."""

from __future__ import annotations

from typing import Any

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.basearray import Array
from jax_core._src.core.avals import canonical_shape
from jax_core._src.core.trace import Tracer
from jax_core._src.interpreters.staging import get_aval
from jax_core._src.lax import api as lax
from jax_core._src.lax import shape_ops
from jax_core._src.numpy.util import check_arraylike, ensure_array, user_dtype
from jax_core._src.runtime.array import device_put_host
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike


def _is_sequence(obj: object) -> TypeIs[list[Any] | tuple[Any, ...]]:
    return isinstance(obj, (list, tuple))


def _contains_array(obj: Any) -> bool:
    if _is_sequence(obj):
        return any(_contains_array(o) for o in obj)
    return isinstance(obj, Array) or hasattr(obj, "__jax_array__")


def _stack_nested(obj: Any, dtype: np.dtype[Any] | None) -> Array:
    if _is_sequence(obj):
        items: list[Any] = list(obj)
        if not items:
            return asarray(np.zeros((0,), dtype or dtypes.default_float_dtype()))
        parts = [_stack_nested(o, dtype) for o in items]
        from jax_core._src.numpy.util import promote_dtypes

        promoted = [ensure_array(p) for p in promote_dtypes(*parts)]
        expanded = [shape_ops.expand_dims(p, (0,)) for p in promoted]
        return shape_ops.concatenate(expanded, 0)
    out = ensure_array(obj)
    return out if dtype is None else lax.convert_element_type(out, dtype)


def array(object: Any, dtype: DTypeLike | None = None, copy: bool = True, ndmin: int = 0) -> Array:
    """Creates an array from an array-like, or from nested lists/tuples of them (as ``numpy.array``)."""
    dt = user_dtype(dtype, "array")
    if isinstance(object, str) or object is None:
        raise TypeError(f"JAX arrays cannot be created from {type(object).__name__} values: {object!r}")
    if _contains_array(object) and isinstance(object, (list, tuple)):
        out = _stack_nested(object, dt)
    elif isinstance(object, Array):
        out = object if dt is None else lax.convert_element_type(object, dt)
    elif hasattr(object, "__jax_array__"):
        out = ensure_array(object)
        out = out if dt is None else lax.convert_element_type(out, dt)
    elif isinstance(object, (bool, int, float, complex)) and dt is None:
        out = ensure_array(object)
    else:
        host = np.asarray(object) if dt is None else np.asarray(object, dtype=dt)
        if isinstance(object, (list, tuple)) and dt is None and host.dtype.kind in "iufcb":
            host = host.astype(_list_dtype(host.dtype))
        out = device_put_host(host)
    if ndmin > out.ndim:
        out = shape_ops.reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def _list_dtype(dt: np.dtype[Any]) -> np.dtype[Any]:
    """NumPy infers 64-bit types from Python lists; JAX uses its default types."""
    if dt.kind == "i":
        return dtypes.default_int_dtype()
    if dt.kind == "f":
        return dtypes.default_float_dtype()
    if dt.kind == "c":
        return dtypes.default_complex_dtype()
    return dt


def asarray(a: Any, dtype: DTypeLike | None = None) -> Array:
    """Converts ``a`` to an array, without copying when it already is one of the right dtype."""
    if isinstance(a, Array) and (dtype is None or dtypes.canonicalize_dtype(dtype) == a.dtype):
        return a
    return array(a, dtype=dtype, copy=False)


def full(shape: ShapeLike, fill_value: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    """An array of ``shape`` filled with ``fill_value``."""
    dims = canonical_shape(shape, "full")
    dt = user_dtype(dtype, "full")
    check_arraylike("full", fill_value)
    if get_aval(fill_value).ndim:
        fill = ensure_array(fill_value)
        fill = fill if dt is None else lax.convert_element_type(fill, dt)
        from jax_core._src.numpy.shape import broadcast_to

        return broadcast_to(fill, dims)
    weak = dt is None and dtypes.is_weakly_typed(fill_value)
    target = dt if dt is not None else get_aval(fill_value).dtype
    scalar = lax.to_dtype(fill_value, target, weak)
    return shape_ops.broadcast_in_dim(scalar, dims, ())


def zeros(shape: ShapeLike, dtype: DTypeLike | None = None) -> Array:
    """An array of zeros (default dtype float32, or float64 with x64)."""
    dt = user_dtype(dtype, "zeros") or dtypes.default_float_dtype()
    return full(shape, np.zeros((), dt), dt)


def ones(shape: ShapeLike, dtype: DTypeLike | None = None) -> Array:
    """An array of ones (default dtype float32, or float64 with x64)."""
    dt = user_dtype(dtype, "ones") or dtypes.default_float_dtype()
    return full(shape, np.ones((), dt), dt)


def empty(shape: ShapeLike, dtype: DTypeLike | None = None) -> Array:
    """An array of the given shape; JAX arrays are initialized, so this equals ``zeros``."""
    return zeros(shape, dtype)


def _like_shape(a: ArrayLike, shape: ShapeLike | None) -> tuple[int, ...]:
    return get_aval(a).shape if shape is None else canonical_shape(shape, "full_like")


def full_like(a: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """An array shaped like ``a`` (and of its dtype by default) filled with ``fill_value``."""
    check_arraylike("full_like", a)
    aval = get_aval(a)
    dt = user_dtype(dtype, "full_like") or aval.dtype
    out = full(_like_shape(a, shape), fill_value, dt)
    if dtype is None and aval.weak_type:
        weak = lax.to_dtype(out, dt, True)
        assert isinstance(weak, Array)
        return weak
    return out


def zeros_like(a: ArrayLike, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """Zeros shaped like ``a``."""
    return full_like(a, 0, dtype, shape)


def ones_like(a: ArrayLike, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """Ones shaped like ``a``."""
    return full_like(a, 1, dtype, shape)


def arange(start: ArrayLike, stop: ArrayLike | None = None, step: ArrayLike | None = None, dtype: DTypeLike | None = None) -> Array:
    """Evenly spaced values in ``[start, stop)``; the bounds must be concrete."""
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, Tracer):
            v.concretization_error(f"It arose in the jnp.arange argument '{name}'.")
    dt = user_dtype(dtype, "arange")
    host_args = [np.asarray(v) for v in (start, stop, step) if v is not None]
    if stop is None and step is None:
        inferred = dtypes.result_type(start) if dt is None else dt
        n = int(np.ceil(float(np.asarray(start)))) if not isinstance(start, Array) else int(np.asarray(start))
        return shape_ops.iota(inferred, max(n, 0))
    bounds: list[int | float] = [a.item() for a in host_args]
    values = np.arange(*bounds)
    inferred = dt if dt is not None else dtypes.result_type(*[v for v in (start, stop, step) if v is not None])
    out: Array = device_put_host(values.astype(inferred))
    return out


def promote_types(a: DTypeLike, b: DTypeLike) -> np.dtype[Any]:
    """The dtype two dtypes promote to under JAX's lattice (never widens to 64 bits on its own)."""
    return dtypes.promote_types(a, b)


def result_type(*args: Any) -> np.dtype[Any]:
    """The dtype ``args`` (arrays, scalars, dtypes) promote to, honoring weak types and x64 mode."""
    return dtypes.result_type(*args)
