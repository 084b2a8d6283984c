"""Array creation: ``array``, ``asarray``, ``zeros``, ``ones``, ``full``, ``arange``, ..."""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Any, Literal, cast, overload

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.core.avals import canonical_shape
from jax_core._src.core.shape_poly import is_symbolic_dim, max_dim
from jax_core._src.core.trace import EvalTrace, Tracer, current_trace, get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.ad_ops import copy_p
from jax_core._src.lax.dim_values import dimension_as_value
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.numpy.util import check_arraylike, ensure_array, hashable, jitted, user_dtype
from jax_core._src.runtime.array import device_put_host
from jax_core._src.runtime import dlpack
from jax_core._src.typing import ArrayLike, DTypeLike, DuckTypedArray, ShapeLike, shape_entries
from jax_core._src.typing.basearray import Array


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
        expanded = [shape_dims.expand_dims(p, (0,)) for p in promoted]
        return shape_assembly.concatenate(expanded, 0)
    out = ensure_array(obj)
    return out if dtype is None else lax.convert_element_type(out, dtype)


def _nested_items(obj: Any) -> Iterator[Any]:
    """``obj`` itself, or what the lists/tuples it is made of hold, at any depth."""
    if isinstance(obj, (list, tuple)):
        for o in obj:  # pyright: ignore[reportUnknownVariableType]
            yield from _nested_items(o)
    else:
        yield obj


def array(object: Any, dtype: DTypeLike | None = None, copy: bool = True, ndmin: int = 0) -> Array:
    """Creates an array from an array-like, or from nested lists/tuples of them (as ``numpy.array``)."""
    dt = user_dtype(dtype, "array")
    items = list(_nested_items(object))
    text = next((o for o in items if isinstance(o, str)), None)
    if text is not None:
        raise TypeError(f"Value {text!r} with dtype {np.asarray(text).dtype} is not a valid JAX array type. Only arrays of numeric types are supported by JAX.")
    if any(o is None for o in items):
        raise ValueError("None is not a valid value for jnp.array")
    if _contains_array(object) and isinstance(object, (list, tuple)):
        out = _stack_nested(object, dt)
    elif isinstance(object, Array):
        if dt is not None and dt != object.dtype:
            out = lax.convert_element_type(object, dt)
        else:
            out = copy_p.bind(object) if copy else object
    elif hasattr(object, "__jax_array__"):
        out = ensure_array(object)
        out = out if dt is None else lax.convert_element_type(out, dt)
    elif isinstance(object, (bool, int, float, complex)) and dt is None:
        out = ensure_array(object)
    else:
        host = np.asarray(object) if dt is None else np.asarray(object, dtype=dt)
        if host.dtype.kind == "O":
            raise TypeError(f"Value '{object}' with dtype {host.dtype} is not a valid JAX array type. Only arrays of numeric types are supported by JAX.")
        if isinstance(object, (list, tuple)) and dt is None and host.dtype.kind in "iufcb":
            host = host.astype(_list_dtype(host.dtype))
        # Under a transformation the conversion is staged, as JAX's: a 0-d constant becomes a
        # literal of the jaxpr, and the value is a tracer (not concrete) as in JAX.
        out = device_put_host(host) if isinstance(current_trace(), EvalTrace) else ensure_array(host)
    if ndmin > out.ndim:
        out = shape_dims.reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
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
        return ensure_array(a)  # checks that a device array was not deleted
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
    return shape_dims.broadcast_in_dim(scalar, dims, ())


def zeros(shape: ShapeLike, dtype: DTypeLike | None = None) -> Array:
    """An array of zeros (default dtype float32, or float64 with x64)."""
    dt = user_dtype(dtype, "zeros") or dtypes.default_float_dtype()
    return _constant(_fill_shape(shape, "zeros"), dt, 0)


def ones(shape: ShapeLike, dtype: DTypeLike | None = None) -> Array:
    """An array of ones (default dtype float32, or float64 with x64)."""
    dt = user_dtype(dtype, "ones") or dtypes.default_float_dtype()
    return _constant(_fill_shape(shape, "ones"), dt, 1)


def _fill_shape(shape: ShapeLike, name: str) -> tuple[int, ...]:
    try:
        return canonical_shape(shape, name)
    except TypeError as err:
        if "non-negative" not in str(err):
            raise
        dims = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
        raise TypeError(f"broadcast_in_dim shape must have every element be nonnegative, got {dims}.") from None


def _constant(shape: tuple[int, ...], dtype: np.dtype[Any], value: int) -> Array:
    """``zeros``/``ones``: eagerly one cached executable per shape and dtype (no host transfer).
    XLA:CPU aborts compiling a float6 constant, so those broadcast a transferred scalar instead."""
    if dtype.name.startswith("float6"):
        return full(shape, np.asarray(value, dtype), dtype)
    out: Array = _constant_staged(shape, dtype, value)
    return out


@jitted(static=("shape", "dtype", "value"))
def _constant_staged(shape: tuple[int, ...], dtype: np.dtype[Any], value: int) -> Array:
    return full(shape, np.asarray(value, dtype), dtype)


def empty(shape: ShapeLike, dtype: DTypeLike | None = None) -> Array:
    """An array of the given shape; JAX arrays are initialized, so this equals ``zeros``."""
    return zeros(shape, dtype)


def _like_shape(a: ArrayLike, shape: ShapeLike | None) -> tuple[int, ...]:
    return get_aval(a).shape if shape is None else canonical_shape(shape, "full_like")


def _duck_spec(a: object) -> tuple[tuple[int, ...], np.dtype[Any]] | None:
    """The shape and dtype of an object that is not an ``ArrayLike`` but has both
    (``ShapeDtypeStruct``); None for anything else."""
    if isinstance(a, (Array, np.ndarray, np.generic, bool, int, float, complex)):
        return None
    if not isinstance(a, DuckTypedArray):
        return None
    return tuple(a.shape), np.dtype(a.dtype)


def full_like(a: ArrayLike | DuckTypedArray, fill_value: ArrayLike, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """An array shaped like ``a`` (and of its dtype by default) filled with ``fill_value``.

    ``a`` may also be any object with ``shape`` and ``dtype`` (``ShapeDtypeStruct``), as in JAX.
    """
    spec = _duck_spec(a)
    if spec is not None:
        return full(spec[0] if shape is None else shape, fill_value, spec[1] if dtype is None else dtype)
    a = cast("ArrayLike", a)
    key = shape if shape is None else tuple(shape_entries(shape))
    float6 = "float6" in str(dtype) or str(getattr(get_aval(a), "dtype", "")).startswith("float6")
    if hashable(dtype, key) and not float6:  # (XLA:CPU aborts compiling float6 constants)
        out_: Array = _full_like_staged(a, fill_value, dtype, key)
        return out_
    return _full_like(a, fill_value, dtype, shape)


def _full_like(a: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    check_arraylike("full_like", a)
    aval = get_aval(a)
    dt = user_dtype(dtype, "full_like") or aval.dtype
    out = full(_like_shape(a, shape), fill_value, dt)
    if dtype is None and aval.weak_type:
        weak = lax.to_dtype(out, dt, True)
        assert isinstance(weak, Array)
        return weak
    return out


_full_like_staged = jitted(static=("dtype", "shape"))(_full_like)


def zeros_like(a: ArrayLike | DuckTypedArray, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """Zeros shaped like ``a``."""
    return full_like(a, 0, dtype, shape)


def ones_like(a: ArrayLike | DuckTypedArray, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """Ones shaped like ``a``."""
    return full_like(a, 1, dtype, shape)


def _symbolic_arange(start: Any, stop: Any, step: Any, dtype: DTypeLike | None) -> Array:
    """``arange`` whose bounds are symbolic dimensions: an ``iota`` of symbolic size."""
    if stop is None:
        start, stop = 0, start
    if step is not None and not (not is_symbolic_dim(step) and int(step) == 1):
        raise NotImplementedError(f"jnp.arange with symbolic dimensions supports only a step of 1; got step={step}")
    dt = user_dtype(dtype, "arange")
    inferred = dt if dt is not None else dtypes.default_int_dtype()
    size = max_dim(stop - start, 0)
    ramp = shape_assembly.iota(inferred, cast(int, size))
    if is_symbolic_dim(start) or int(start) != 0:
        return lax.add(lax.convert_element_type(dimension_as_value(start), inferred), ramp)
    return ramp


def arange(start: ArrayLike, stop: ArrayLike | None = None, step: ArrayLike | None = None, dtype: DTypeLike | None = None) -> Array:
    """Evenly spaced values in ``[start, stop)``; the bounds must be concrete (or, under shape
    polymorphism, symbolic dimensions with a unit step)."""
    if any(is_symbolic_dim(v) for v in (start, stop, step)):
        return _symbolic_arange(start, stop, step, dtype)
    for name, v in (("stop" if stop is None else "start", start), ("stop", stop), ("step", step)):
        if isinstance(v, Tracer):
            v.concretization_error(f"It arose in the jnp.arange argument '{name}'.")
        if v is not None and np.ndim(np.asarray(v)) != 0:
            raise ValueError(f"jax.numpy.arange: arguments must be scalars; got {name}={np.asarray(v)}")
    dt = user_dtype(dtype, "arange")
    if any(np.iscomplexobj(np.asarray(v)) for v in (start, stop, step) if v is not None):
        raise ValueError("Passing complex start/stop/step to jnp.arange is no longer supported starting in JAX v0.10.0.")
    inferred = dt if dt is not None else dtypes.result_type(*[v for v in (start, stop, step) if v is not None])
    if stop is None and step is None:
        n = int(np.ceil(float(np.asarray(start))))
        if dt is None:
            _check_arange_fits(inferred, 0, n - 1)
        return shape_assembly.iota(inferred, max(n, 0))
    if stop is None:
        start, stop = 0, start
    lo, hi = (np.asarray(v).item() for v in (start, stop))
    # As JAX stages it: iota, scaled by the step and offset by the start, in the result dtype (or,
    # for a step in a float narrower than 32 bits, computed in float32 and converted).
    if step is not None:
        delta = np.asarray(step).item()
        size = max(0, int(np.ceil((hi - lo) / delta)))
        if size and dt is None:
            _check_arange_fits(inferred, min(lo, lo + delta * (size - 1)), max(lo, lo + delta * (size - 1)))
        narrow = dtypes.issubdtype(inferred, np.floating) and dtypes.finfo(inferred).bits < 32
        working = np.dtype(np.float32) if dt is not None and narrow else inferred
        ramp = lax.mul(lax.convert_element_type(step, working), shape_assembly.iota(working, size))
        return lax.convert_element_type(lax.add(lax.convert_element_type(start, working), ramp), inferred)
    if lo == 0:
        size = max(0, int(np.ceil(hi)))
        if size and dt is None:
            _check_arange_fits(inferred, 0, size - 1)
        return shape_assembly.iota(inferred, size)
    size = max(0, int(np.ceil(hi - lo)))
    if size and dt is None:
        _check_arange_fits(inferred, lo, lo + size - 1)
    return lax.add(lax.convert_element_type(start, inferred), shape_assembly.iota(inferred, size))


def _check_arange_fits(dtype: np.dtype[Any], lo: Any, hi: Any) -> None:
    """Integer values past the *inferred* dtype (int32 without x64) would wrap silently, as in JAX:
    an ``OverflowError`` instead. An explicit ``dtype=`` keeps NumPy's modular results."""
    if not dtypes.issubdtype(dtype, np.integer) or dtype == np.bool_:
        return
    info = np.iinfo(dtype)
    if int(lo) < int(info.min) or int(hi) > int(info.max):
        raise OverflowError(
            f"jnp.arange values up to {int(hi)} do not fit in {np.dtype(dtype).name}, the default integer "
            "type: enable 64-bit types with jax_core.config.update('jax_enable_x64', True), or pass "
            "dtype= explicitly."
        )


def promote_types(a: DTypeLike, b: DTypeLike) -> np.dtype[Any]:
    """The dtype two dtypes promote to under JAX's lattice (never widens to 64 bits on its own)."""
    return dtypes.promote_types(a, b)


def result_type(*args: Any) -> np.dtype[Any]:
    """The dtype ``args`` (arrays, scalars, dtypes) promote to, honoring weak types and x64 mode."""
    return dtypes.result_type(*args)


# -- ranges -------------------------------------------------------------------------------


def _concrete_int(name: str, v: Any, what: str | None = None) -> int:
    if isinstance(v, Tracer):
        v.concretization_error(f"The error arose for the '{name}' argument.")
    try:
        return operator.index(v)
    except TypeError:
        if what is None:
            raise
        raise TypeError(f"Shapes must be 1D sequences of concrete values of integer type, got ({v!r},). {what}") from None


@overload
def linspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, retstep: Literal[False] = False,
    dtype: DTypeLike | None = None, axis: int = 0,
) -> Array: ...
@overload
def linspace(
    start: ArrayLike, stop: ArrayLike, num: int, endpoint: bool, retstep: Literal[True], dtype: DTypeLike | None = None, axis: int = 0
) -> tuple[Array, Array]: ...
@overload
def linspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, *, retstep: Literal[True], dtype: DTypeLike | None = None,
    axis: int = 0,
) -> tuple[Array, Array]: ...
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: DTypeLike | None = None,
    axis: int = 0,
) -> Array | tuple[Array, Array]:
    """``num`` evenly spaced values from ``start`` to ``stop`` (``(values, step)`` with ``retstep``)."""
    num = _concrete_int("num", num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    check_arraylike("linspace", start, stop)
    return _linspace(start, stop, num, endpoint, retstep, dtype, operator.index(axis))


@jitted(static=("num", "endpoint", "retstep", "dtype", "axis"), inline=False)
def _linspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, retstep: bool = False, dtype: DTypeLike | None = None, axis: int = 0
) -> Array | tuple[Array, Array]:
    from jax_core._src.numpy import shape as jshape

    explicit = user_dtype(dtype, "linspace")
    dt = explicit if explicit is not None else dtypes.to_inexact_dtype(dtypes.result_type(start, stop))
    cdt = dtypes.to_inexact_dtype(dt)
    s = lax.convert_element_type(start, cdt)
    e = lax.convert_element_type(stop, cdt)
    bshape = list(jshape.broadcast_shapes(s.shape, e.shape))
    s = jshape.broadcast_to(s, tuple(bshape))
    e = jshape.broadcast_to(e, tuple(bshape))
    ax = len(bshape) + axis + 1 if axis < 0 else axis
    bshape.insert(ax, 1)
    div = (num - 1) if endpoint else num
    delta: Array
    if num > 1:
        delta = lax.div(lax.sub(e, s), np.asarray(div, cdt))
        ishape = [1] * len(bshape)
        ishape[ax] = div
        real = dtypes.finfo(cdt).dtype
        it = shape_dims.reshape(shape_assembly.iota(real, div), tuple(ishape))
        step = lax.convert_element_type(lax.div(it, np.asarray(div, real)), cdt)
        sb = jshape.reshape(s, tuple(bshape))
        eb = jshape.reshape(e, tuple(bshape))
        tgt = jshape.broadcast_shapes(sb.shape, step.shape)
        sb, eb2, stepb, itb = (jshape.broadcast_to(v, tgt) for v in (sb, eb, step, lax.convert_element_type(it, cdt)))
        out = lax.add(lax.mul(sb, lax.sub(np.ones((), cdt), stepb)), lax.mul(lax.div(eb2, np.asarray(div, cdt)), itb))
        if endpoint:
            out = jshape.concatenate([out, shape_dims.expand_dims(e, (ax,))], ax)
    elif num == 1:
        delta = asarray(np.nan if endpoint else 0.0, cdt) if endpoint else lax.sub(e, s)
        out = jshape.reshape(s, tuple(bshape))
    else:
        bshape[ax] = 0
        delta = asarray(np.nan, cdt)
        out = zeros(tuple(bshape), cdt)
    if dtypes.issubdtype(dt, np.integer) and not dtypes.issubdtype(out.dtype, np.integer):
        out = lax.floor(out)
    result = lax.convert_element_type(out, dt)
    return (result, delta) if retstep else result


def logspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, base: ArrayLike = 10.0, dtype: DTypeLike | None = None, axis: int = 0
) -> Array:
    """``base ** linspace(start, stop, num)``."""
    num = _concrete_int("num", num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    return _logspace(start, stop, num, endpoint, base, dtype, operator.index(axis))


@jitted(static=("num", "endpoint", "dtype", "axis"), inline=False)
def _logspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, base: ArrayLike = 10.0, dtype: DTypeLike | None = None, axis: int = 0
) -> Array:
    from jax_core._src.numpy.ufuncs import power

    explicit = user_dtype(dtype, "logspace")
    dt = explicit if explicit is not None else dtypes.to_inexact_dtype(dtypes.result_type(start, stop))
    cdt = dtypes.to_inexact_dtype(dt)
    lin = _linspace(lax.convert_element_type(start, cdt), lax.convert_element_type(stop, cdt), num, endpoint=endpoint, axis=axis)
    assert isinstance(lin, Array)
    return lax.convert_element_type(power(lax.convert_element_type(base, cdt), lin), dt)


def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, dtype: DTypeLike | None = None, axis: int = 0) -> Array:
    """``num`` values from ``start`` to ``stop`` spaced evenly on a log scale (signs kept)."""
    num = _concrete_int("num", num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    return _geomspace(start, stop, num, endpoint, dtype, operator.index(axis))


@jitted(static=("num", "endpoint", "dtype", "axis"), inline=False)
def _geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True, dtype: DTypeLike | None = None, axis: int = 0) -> Array:
    from jax_core._src.numpy import math as jmath
    from jax_core._src.numpy.ufuncs import multiply, sign, true_divide

    explicit = user_dtype(dtype, "geomspace")
    dt = explicit if explicit is not None else dtypes.to_inexact_dtype(dtypes.result_type(start, stop))
    cdt = dtypes.to_inexact_dtype(dt)
    s = lax.convert_element_type(start, cdt)
    e = lax.convert_element_type(stop, cdt)
    sgn = sign(s)
    out = _logspace(jmath.log10(true_divide(s, sgn)), jmath.log10(true_divide(e, sgn)), num, endpoint=endpoint, base=10.0, dtype=cdt, axis=0)
    out = multiply(sgn, out)
    ax = axis if axis >= 0 else out.ndim + axis
    if ax != 0:
        out = shape_dims.transpose(out, (*range(1, ax + 1), 0, *range(ax + 1, out.ndim)))
    return lax.convert_element_type(out, dt)


def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None) -> Array:
    """An ``N x M`` array with ones on the ``k``-th diagonal."""
    n = _concrete_int("N", N, "argument of 'N' jnp.eye().")
    m = n if M is None else _concrete_int("M", M, "argument of 'M' jnp.eye().")
    if n < 0 or m < 0:
        raise ValueError(f"negative dimensions are not allowed, got {n} and {m}")
    dt = user_dtype(dtype, "eye") or dtypes.default_float_dtype()
    # ``k`` may be traced (``trace`` under ``jit`` passes its offset on), as in JAX.
    offset: Any = k if isinstance(k, Array) else np.int32(operator.index(k))
    rows = shape_assembly.broadcasted_iota(np.int32, (n, m), 0)
    cols = shape_assembly.broadcasted_iota(np.int32, (n, m), 1)
    if isinstance(offset, Array):
        offset = lax.convert_element_type(offset, np.int32)
    return lax.convert_element_type(lax.eq(lax.add(rows, offset), cols), dt)


def identity(n: int, dtype: DTypeLike | None = None) -> Array:
    """The ``n x n`` identity matrix."""
    return eye(n, dtype=dtype)


def empty_like(prototype: ArrayLike | DuckTypedArray, dtype: DTypeLike | None = None, shape: ShapeLike | None = None) -> Array:
    """An array shaped like ``prototype``; JAX arrays are initialized, so this is ``zeros_like``."""
    return zeros_like(prototype, dtype, shape)


def meshgrid(*xi: ArrayLike, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list[Array]:
    """Coordinate grids from 1-D coordinate vectors (``indexing`` ``"xy"`` or ``"ij"``)."""
    from jax_core._src.numpy import shape as jshape

    check_arraylike("meshgrid", *xi)
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing}")
    args = [ensure_array(x) for x in xi]
    for a in args:
        if a.ndim != 1:
            raise ValueError(f"Arguments to jax.numpy.meshgrid must be 1D, got shape {a.shape}")
    shape = [a.shape[0] for a in args]
    if indexing == "xy" and len(args) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out: list[Array] = []
    for i, a in enumerate(args):
        pos = i
        if indexing == "xy" and len(args) >= 2 and i < 2:
            pos = 1 - i
        s = [1] * len(args)
        s[pos] = a.shape[0]
        r = jshape.reshape(a, tuple(s))
        out.append(r if sparse else jshape.broadcast_to(r, tuple(shape)))
    return out


def fromfunction(function: Any, shape: Any, *, dtype: DTypeLike = float, **kwargs: Any) -> Any:
    """``function`` applied to index grids of ``shape`` (as ``numpy.fromfunction``)."""
    from jax_core._src.numpy.indexing_funcs import indices

    grids = indices(shape, dtype=dtype)
    return function(*[grids[i] for i in range(len(shape))], **kwargs)


def frombuffer(buffer: bytes | Any, dtype: DTypeLike = float, count: int = -1, offset: int = 0) -> Array:
    """A 1-D array from the bytes of ``buffer``."""
    return asarray(np.frombuffer(buffer, dtype=np.dtype(dtype), count=count, offset=offset))


def fromstring(string: str, dtype: DTypeLike = float, count: int = -1, *, sep: str) -> Array:
    """A 1-D array from numbers in a text string separated by ``sep``."""
    return asarray(np.fromstring(string, dtype=np.dtype(dtype), count=count, sep=sep))


def fromiter(*args: Any, **kwargs: Any) -> Array:
    """Not supported, as in JAX: iterators are impure; use ``jnp.array(list(it))``."""
    raise NotImplementedError(
        "jnp.fromiter() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromiter(...)) "
        "instead, although care should be taken if np.fromiter is used within a jax transformations "
        "because of its potential side-effect of consuming the iterable object; for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions"
    )


def fromfile(*args: Any, **kwargs: Any) -> Array:
    """Not supported, as in JAX: file reads are impure; use ``jnp.asarray(np.fromfile(...))``."""
    raise NotImplementedError(
        "jnp.fromfile() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromfile(...)) "
        "instead, although care should be taken if np.fromfile is used within jax transformations "
        "because of its potential side-effect of consuming the file object; for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions"
    )


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    """An array over the memory of an object implementing the DLPack protocol (NumPy arrays,
    PyTorch tensors, ...): no copy where the buffer is aligned (see ``jax_core.dlpack``)."""
    return dlpack.from_dlpack(x, device=device, copy=copy)


def copy(a: ArrayLike, order: str | None = None) -> Array:
    """A copy of ``a``."""
    check_arraylike("copy", a)
    return array(a, copy=True)


def astype(x: ArrayLike, dtype: DTypeLike | None, /, *, copy: bool = False, device: Any = None) -> Array:
    """``x`` converted to ``dtype`` (array API ``astype``)."""
    check_arraylike("astype", x)
    if dtype is None:
        dtype = dtypes.default_float_dtype()
    dt = user_dtype(dtype, "astype")
    assert dt is not None
    # as JAX's: a NumPy array becomes a jax array first, so it converts as XLA does (saturating)
    return lax.convert_element_type(asarray(x) if isinstance(x, np.ndarray) else x, dt)
