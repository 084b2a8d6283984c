"""Reductions: sum, prod, max, min, any, all, mean, var, std, ptp, count_nonzero, the
``nan*`` variants and cumulative sums and products, with ``where=``/``initial=`` as JAX."""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.dim_values import dimension_as_value
from jax_core._src.lax.reductions import cumulative as lax_red_cumulative
from jax_core._src.lax.reductions import reduce as lax_red_reduce
from jax_core._src.lax.shape import dimensions as lax_dims
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    jitted,
    user_dtype,
)
from jax_core._src.numpy.where import where_jit as _where
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

Axis: TypeAlias = int | Sequence[int] | None
"""What ``axis`` parameters accept: one axis, several, or ``None`` for all of them."""

ReduceOp: TypeAlias = Callable[[ArrayLike, Sequence[int]], Array]


def _axes(a: Array, axis: Axis, name: str) -> tuple[int, ...]:
    if isinstance(axis, Tracer):
        axis.concretization_error(f"axis argument to jnp.{name}().")
    if axis is None:
        return tuple(range(a.ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = tuple(canonicalize_axis(int(x), a.ndim) for x in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return out


def _check_count_axes(a: Array, axis: Axis, where: ArrayLike | None) -> None:
    """JAX counts the elements of ``mean``/``var``/``std`` by indexing the shape with each axis
    before anything else looks at it, so an out-of-range axis is Python's IndexError there
    (with ``where`` the count is a sum, and the error the sum's ValueError)."""
    if where is not None or axis is None:
        return
    for ax in (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis):
        if not -a.ndim <= int(ax) < a.ndim:
            raise IndexError("tuple index out of range")


def _no_out(name: str, out: object) -> None:
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")


def _promote_integer(dt: np.dtype[Any]) -> np.dtype[Any]:
    if dt == np.bool_:
        return dtypes.default_int_dtype()
    if dtypes.issubdtype(dt, np.unsignedinteger) and dt.itemsize < dtypes.default_uint_dtype().itemsize:
        return dtypes.default_uint_dtype()
    if dtypes.issubdtype(dt, np.signedinteger) and dt.itemsize < dtypes.default_int_dtype().itemsize:
        return dtypes.default_int_dtype()
    return dt


def _identity(op: str, dt: np.dtype[Any]) -> np.ndarray[Any, Any]:
    if op == "sum" or op == "or" or op == "xor":
        return np.zeros((), dt)
    if op == "prod":
        return np.ones((), dt)
    if op == "and":
        return np.ones((), dt) if dt == np.bool_ else np.full((), -1).astype(dt)
    if op == "max":
        return lax_red_reduce.max_identity(dt)
    return lax_red_reduce.min_identity(dt)


_OPS: dict[str, ReduceOp] = {
    "sum": lax_red_reduce.reduce_sum,
    "prod": lax_red_reduce.reduce_prod,
    "max": lax_red_reduce.reduce_max,
    "min": lax_red_reduce.reduce_min,
    "and": lax_red_reduce.reduce_and,
    "or": lax_red_reduce.reduce_or,
    "xor": lax_red_reduce.reduce_xor,
}
_COMBINE: dict[str, Callable[[ArrayLike, ArrayLike], Array]] = {
    "sum": lax.add,
    "prod": lax.mul,
    "max": lax.max,
    "min": lax.min,
    "and": lax.bitwise_and,
    "or": lax.bitwise_or,
    "xor": lax.bitwise_xor,
}
_BOOL_OP = {"sum": "or", "prod": "and", "max": "or", "min": "and"}


def _reduction(
    name: str,
    op: str,
    a: ArrayLike,
    axis: Axis,
    dtype: DTypeLike | None,
    out: None,
    keepdims: bool,
    initial: ArrayLike | None,
    where: ArrayLike | None,
    *,
    has_identity: bool = True,
    promote_integers: bool = False,
    preproc: Callable[[Array], Array] | None = None,
) -> Array:
    _no_out(name, out)
    check_arraylike(name, a)
    x = ensure_array(a)
    if preproc is not None:
        x = preproc(x)
    axes = _axes(x, axis, name)
    if initial is None and not has_identity:
        if where is not None:
            raise ValueError(f"reduction operation {name} does not have an identity, so to use a where mask one has to specify 'initial'")
        if builtins.any(x.shape[d] == 0 for d in axes):
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    explicit = user_dtype(dtype, name)
    result_dtype = explicit if explicit is not None else (_promote_integer(x.dtype) if promote_integers else x.dtype)
    compute = result_dtype
    if compute in (np.dtype(np.float16), dtypes.dtype(dtypes.bfloat16)) and op in ("sum", "prod"):
        compute = np.dtype(np.float32)
    if x.dtype != compute:
        x = lax.convert_element_type(x, compute)
    if compute == np.bool_:
        op = _BOOL_OP.get(op, op)
    ident = _identity(op, compute)
    if where is not None:
        check_arraylike(name, where)
        w = jshape.broadcast_to(lax.as_bool(where), x.shape)
        x = lax.select(w, x, jshape.broadcast_to(ident, x.shape))
    result = _OPS[op](x, axes) if axes else x
    if initial is not None:
        init = lax.convert_element_type(initial, compute)
        if init.shape != ():
            raise ValueError(f"initial value must be a scalar. Got array of shape {init.shape}")
        result = _COMBINE[op](init, result)  # lax takes the rank-0 operand as it is
    if keepdims:
        result = lax_dims.expand_dims(result, sorted(axes))
    return lax.convert_element_type(result, result_dtype) if result.dtype != result_dtype else result


def sum(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
    promote_integers: bool = True,
) -> Array:
    """Sum of elements over ``axis`` (all axes by default); small integers sum in the default int."""
    return _reduction_staged("sum", "sum", a, static_axes(axis), dtype, out, keepdims, initial, where, promote_integers=promote_integers)


def prod(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
    promote_integers: bool = True,
) -> Array:
    """Product of elements over ``axis``."""
    return _reduction_staged("prod", "prod", a, static_axes(axis), dtype, out, keepdims, initial, where, promote_integers=promote_integers)


def max(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
    """Maximum over ``axis`` (an error for empty reductions without ``initial``)."""
    return _reduction_staged("max", "max", a, static_axes(axis), None, out, keepdims, initial, where, has_identity=False)


def min(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
    """Minimum over ``axis`` (an error for empty reductions without ``initial``)."""
    return _reduction_staged("min", "min", a, static_axes(axis), None, out, keepdims, initial, where, has_identity=False)


amax = max
amin = min


def _to_bool(x: Array) -> Array:
    return ensure_array(lax.as_bool(x))


def any(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
    """Whether any element over ``axis`` is true."""
    return _reduction_staged("any", "or", a, static_axes(axis), None, out, keepdims, None, where, preproc=_to_bool)


def all(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
    """Whether every element over ``axis`` is true."""
    return _reduction_staged("all", "and", a, static_axes(axis), None, out, keepdims, None, where, preproc=_to_bool)


def minmax(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False) -> tuple[Array, Array]:
    """``(min(a, axis), max(a, axis))``."""
    return min(a, axis, out, keepdims), max(a, axis, out, keepdims)


def _count(x: Array, axes: tuple[int, ...], where: ArrayLike | None, keepdims: bool, dt: np.dtype[Any]) -> ArrayLike:
    if where is None:
        n = 1
        for i in axes:
            n *= x.shape[i]
        if is_symbolic_dim(n):  # shape polymorphism: the count is computed when the module runs
            return lax.convert_element_type(dimension_as_value(n), dt)
        return np.asarray(n, dt)  # a literal: lax broadcasts rank-0 operands
    w = jshape.broadcast_to(lax.as_bool(where), x.shape)
    return sum(w, axis=axes, dtype=dt, keepdims=keepdims)


def _mean_dtypes(x: Array, dtype: DTypeLike | None, name: str) -> tuple[np.dtype[Any], np.dtype[Any]]:
    explicit = user_dtype(dtype, name)
    if explicit is not None:
        out = explicit
    elif dtypes.issubdtype(x.dtype, np.inexact):
        out = x.dtype
    else:
        out = dtypes.default_float_dtype()
    compute = np.dtype(np.float32) if out in (np.dtype(np.float16), dtypes.dtype(dtypes.bfloat16)) else out
    if not dtypes.issubdtype(compute, np.inexact):
        compute = dtypes.default_float_dtype()
    return out, compute


def mean(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None
) -> Array:
    """Arithmetic mean over ``axis`` (integer inputs give floats)."""
    return _mean(a, static_axes(axis), dtype, out, keepdims, where=where)


def _mean_body(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None
) -> Array:
    _no_out("mean", out)
    check_arraylike("mean", a)
    x = ensure_array(a)
    _check_count_axes(x, axis, where)
    axes = _axes(x, axis, "mean")
    out_dt, compute = _mean_dtypes(x, dtype, "mean")
    total = sum(x, axes, compute, None, keepdims, None, where)
    n = _count(x, axes, where, keepdims, compute)
    res = lax.div(total, n)
    return lax.convert_element_type(res, out_dt) if res.dtype != out_dt else res


def static_axes(axis: Axis) -> int | tuple[int, ...] | None:
    """``axis`` as a hashable static argument of an inner ``jit`` (an int, a tuple or ``None``),
    as JAX's ``_ensure_optional_axes``; a traced axis is JAX's concretization error."""
    if isinstance(axis, Tracer):
        axis.concretization_error("The axis argument must be known statically.")
    if axis is None:
        return None
    value: Any = axis
    try:
        return operator.index(value)
    except TypeError:
        return tuple(operator.index(i) for i in value)


def _resolve_correction(ddof: int | Array, correction: int | float | Array | None) -> int | float | Array:
    if correction is None:
        return ddof
    if not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    """Variance over ``axis`` (``ddof``/``correction`` delta degrees of freedom; ``mean``, if
    given, is used as the (broadcastable, keepdims-shaped) mean instead of computing it)."""
    dof_correction = _resolve_correction(ddof, correction)
    check_arraylike("var", a)
    return _var(a, axis=static_axes(axis), dtype=dtype, out=out, correction=dof_correction, keepdims=keepdims, where=where, a_mean=mean)


@jitted(static=("axis", "dtype", "keepdims"), inline=False)
def _var(
    a: ArrayLike,
    *,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    correction: int | float | Array = 0,
    keepdims: bool = False,
    where: ArrayLike | None = None,
    a_mean: ArrayLike | None = None,
) -> Array:
    _no_out("var", out)
    x = ensure_array(a)
    _check_count_axes(x, axis, where)
    axes = _axes(x, axis, "var")
    out_dt, compute = _var_dtypes(x, dtype)
    xc = lax.convert_element_type(x, compute)
    if a_mean is None:
        m = mean(xc, axes, keepdims=True, where=where)
    else:
        check_arraylike("var", a_mean)
        m = lax.convert_element_type(a_mean, compute)
    centered = lax.sub(xc, m)
    if dtypes.issubdtype(compute, np.complexfloating):
        sq = lax.real(lax.mul(centered, lax.conj(centered)))
    else:
        sq = lax.square(centered)
    real_dt = sq.dtype
    n = _count(x, axes, where, keepdims, real_dt)
    denom = lax.sub(n, lax.convert_element_type(correction, real_dt))
    total = sum(sq, axes, None, None, keepdims, None, where)
    res = lax.div(total, denom)
    res = lax.convert_element_type(res, out_dt) if res.dtype != out_dt else res
    # JAX's answer where no degrees of freedom are left (n - correction <= 0): nan.
    return _where(lax.gt(denom, lax.convert_element_type(0, real_dt)), res, np.nan)


def _var_dtypes(x: Array, dtype: DTypeLike | None) -> tuple[np.dtype[Any], np.dtype[Any]]:
    explicit = user_dtype(dtype, "var")
    if explicit is not None:
        if not dtypes.issubdtype(explicit, np.inexact) and dtypes.issubdtype(x.dtype, np.complexfloating):
            raise ValueError(
                "jax.numpy.var does not yet support real dtype parameters when computing the variance of an array of complex values."
            )
        compute = explicit if dtypes.issubdtype(explicit, np.inexact) else dtypes.to_inexact_dtype(x.dtype)
        return explicit, compute
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return dtypes.default_float_dtype(), dtypes.default_float_dtype()
    out = x.dtype
    if dtypes.issubdtype(out, np.complexfloating):
        out = np.dtype(np.float64) if out == np.complex128 else np.dtype(np.float32)
    compute = np.dtype(np.float32) if x.dtype in (np.dtype(np.float16), dtypes.dtype(dtypes.bfloat16)) else x.dtype
    return out, compute


def std(
    a: ArrayLike,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    """Standard deviation over ``axis`` (``sqrt(var(...))``)."""
    dof_correction = _resolve_correction(ddof, correction)
    check_arraylike("std", a)
    return _std(a, axis=static_axes(axis), dtype=dtype, out=out, correction=dof_correction, keepdims=keepdims, where=where, mean=mean)


@jitted(static=("axis", "dtype", "keepdims"), inline=False)
def _std(
    a: ArrayLike,
    *,
    axis: Axis = None,
    dtype: DTypeLike | None = None,
    out: None = None,
    correction: int | float | Array = 0,
    keepdims: bool = False,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
) -> Array:
    if dtype is not None:
        dt = user_dtype(dtype, "std")
        if dt is not None and not dtypes.issubdtype(dt, np.inexact):
            raise ValueError(f"dtype argument to jnp.std must be inexact; got {dt}")
    _no_out("std", out)
    return lax.sqrt(_var(a, axis=axis, dtype=dtype, correction=correction, keepdims=keepdims, where=where, a_mean=mean))


def ptp(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False) -> Array:
    """Peak to peak: ``max - min`` over ``axis``."""
    check_arraylike("ptp", a)
    return _ptp(a, static_axes(axis), out, keepdims)


@jitted(static=("axis", "keepdims"), inline=False)
def _ptp(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False) -> Array:
    _no_out("ptp", out)
    return lax.sub(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


@jitted(static=('axis', 'keepdims'), inline=False)
def count_nonzero(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """The number of nonzero elements over ``axis`` (default int dtype)."""
    check_arraylike("count_nonzero", a)
    return sum(_to_bool(ensure_array(a)), axis, dtypes.default_int_dtype(), None, keepdims)


# -- nan-ignoring variants -----------------------------------------------------------------


def _isnan(x: Array) -> Array:
    return lax.ne(x, x)


def _nan_fill(name: str, a: ArrayLike, value: Any) -> Array:
    check_arraylike(name, a)
    x = ensure_array(a)
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return x
    return lax.select(_isnan(x), jshape.broadcast_to(np.asarray(value).astype(x.dtype), x.shape), x)


@jitted(static=('axis', 'dtype', 'keepdims'), inline=False)
def nansum(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False,
    initial: ArrayLike | None = None, where: ArrayLike | None = None,
) -> Array:
    """``sum`` treating NaNs as zero."""
    return sum(_nan_fill("nansum", a, 0), axis, dtype, out, keepdims, initial, where)


@jitted(static=('axis', 'dtype', 'keepdims'), inline=False)
def nanprod(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False,
    initial: ArrayLike | None = None, where: ArrayLike | None = None,
) -> Array:
    """``prod`` treating NaNs as one."""
    return prod(_nan_fill("nanprod", a, 1), axis, dtype, out, keepdims, initial, where)


def _nan_extreme(name: str, reduce: Callable[..., Array], fill: float, a: ArrayLike, axis: Axis, out: None, keepdims: bool, initial: ArrayLike | None, where: ArrayLike | None) -> Array:
    check_arraylike(name, a)
    x = ensure_array(a)
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return reduce(x, axis, out, keepdims, initial, where)
    res = reduce(_nan_fill(name, x, fill), axis, out, keepdims, initial, where)
    all_nan = all(_isnan(x), axis, keepdims=keepdims, where=where) if initial is None else None
    if all_nan is None:
        return res
    return lax.select(all_nan, jshape.broadcast_to(np.asarray(np.nan, res.dtype), res.shape), res)


@jitted(static=('axis', 'keepdims'), inline=False)
def nanmax(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
    """``max`` ignoring NaNs (NaN where every element is NaN)."""
    return _nan_extreme("nanmax", max, -np.inf, a, axis, out, keepdims, initial, where)


@jitted(static=('axis', 'keepdims'), inline=False)
def nanmin(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
    """``min`` ignoring NaNs (NaN where every element is NaN)."""
    return _nan_extreme("nanmin", min, np.inf, a, axis, out, keepdims, initial, where)


def _not_nan(x: Array, where: ArrayLike | None) -> Array:
    ok = lax.bitwise_not(_isnan(x)) if dtypes.issubdtype(x.dtype, np.inexact) else jshape.broadcast_to(np.bool_(True), x.shape)
    if where is not None:
        ok = lax.bitwise_and(ok, jshape.broadcast_to(lax.as_bool(where), x.shape))
    return ok


@jitted(static=('axis', 'dtype', 'keepdims'), inline=False)
def nanmean(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False, where: ArrayLike | None = None
) -> Array:
    """``mean`` ignoring NaNs."""
    _no_out("nanmean", out)
    check_arraylike("nanmean", a)
    x = ensure_array(a)
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return mean(x, axis, dtype, None, keepdims, where=where)
    return mean(x, axis, dtype, None, keepdims, where=_not_nan(x, where))


@jitted(static=('axis', 'dtype', 'keepdims'), inline=False)
def nanvar(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0, keepdims: bool = False,
    where: ArrayLike | None = None,
) -> Array:
    """``var`` ignoring NaNs."""
    check_arraylike("nanvar", a)
    x = ensure_array(a)
    return var(x, axis, dtype, out, ddof, keepdims, where=_not_nan(x, where))


@jitted(static=('axis', 'dtype', 'keepdims'), inline=False)
def nanstd(
    a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0, keepdims: bool = False,
    where: ArrayLike | None = None,
) -> Array:
    """``std`` ignoring NaNs."""
    return lax.sqrt(nanvar(a, axis, dtype, out, ddof, keepdims, where))


# -- argmax / argmin ---------------------------------------------------------------------------


def _arg_reduce(name: str, op: Callable[..., Array], a: ArrayLike, axis: int | None, out: None, keepdims: bool) -> Array:
    _no_out(name, out)
    check_arraylike(name, a)
    arr = ensure_array(a)
    if axis is None:
        flat = jshape.ravel(arr)
        ax = 0
    else:
        flat = arr
        if not -arr.ndim <= operator.index(axis) < arr.ndim:  # JAX indexes the shape with it first
            raise IndexError("tuple index out of range")
        ax = canonicalize_axis(axis, arr.ndim)
    if flat.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence")
    res = op(flat, ax, dtypes.default_int_dtype())
    if keepdims:
        shape = [1] * arr.ndim if axis is None else [1 if i == ax else d for i, d in enumerate(arr.shape)]
        res = jshape.reshape(res, tuple(shape))
    return res


def _static_axis(axis: int | None) -> int | None:
    if isinstance(axis, Tracer):
        axis.concretization_error("The axis argument must be known statically.")
    return None if axis is None else operator.index(axis)


# Eager calls of the reductions are one compiled executable each (JAX's ``_reduce_sum``,
# ``_mean``, ``_argmax``, ... are jitted with ``Inline.JAX_EARLY``); traced, they inline.
_reduction_staged = jitted(static=("name", "op", "axis", "dtype", "keepdims", "has_identity", "promote_integers", "preproc"))(_reduction)
_arg_reduce_staged = jitted(static=("name", "op", "axis", "keepdims"))(_arg_reduce)
_mean_body.__name__ = _mean_body.__qualname__ = "_mean"
_mean = jitted(static=("axis", "dtype", "keepdims"))(_mean_body)


def argmax(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
    """Index of the maximum along ``axis`` (of the flattened array by default; first NaN wins)."""
    return _arg_reduce_staged("argmax", lax_red_reduce.argmax, a, _static_axis(axis), out, keepdims)


def argmin(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
    """Index of the minimum along ``axis`` (of the flattened array by default; first NaN wins)."""
    return _arg_reduce_staged("argmin", lax_red_reduce.argmin, a, _static_axis(axis), out, keepdims)


def _nanarg(name: str, op: Callable[..., Array], fill: float, a: ArrayLike, axis: int | None, out: None, keepdims: bool) -> Array:
    check_arraylike(name, a)
    x = ensure_array(a)
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return op(x, axis, out, keepdims)
    nan_mask = _isnan(x)
    res = op(_nan_fill(name, x, fill), axis, out, keepdims)
    all_nan = all(nan_mask, axis=axis, keepdims=keepdims)
    return lax.select(all_nan, jshape.broadcast_to(np.asarray(-1, res.dtype), res.shape), res)


def nanargmax(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
    """``argmax`` ignoring NaNs (-1 where every element is NaN)."""
    _no_out("nanargmax", out)
    check_arraylike("nanargmax", a)
    return _nanargmax(a, None if axis is None else operator.index(axis), keepdims)


def nanargmin(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
    """``argmin`` ignoring NaNs (-1 where every element is NaN)."""
    _no_out("nanargmin", out)
    check_arraylike("nanargmin", a)
    return _nanargmin(a, None if axis is None else operator.index(axis), keepdims)


@jitted(static=("axis", "keepdims"), inline=False)
def _nanargmax(a: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Array:
    return _nanarg("nanargmax", argmax, -np.inf, a, axis, None, keepdims)


@jitted(static=("axis", "keepdims"), inline=False)
def _nanargmin(a: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Array:
    return _nanarg("nanargmin", argmin, np.inf, a, axis, None, keepdims)


# -- cumulative ----------------------------------------------------------------------------------


def _cumulative(
    name: str, op: Callable[..., Array], a: ArrayLike, axis: int | None, dtype: DTypeLike | None, out: None,
    fill_nan: float | None = None, promote_integers: bool = False,
) -> Array:
    """The cumulative ``op`` in the input's dtype (as JAX: int8 stays int8; bool counts in the
    default int), or in ``dtype``; ``promote_integers`` widens small integers as ``sum`` does
    (JAX's ``cumulative_sum``)."""
    _no_out(name, out)
    check_arraylike(name, a)
    x = ensure_array(a)
    if fill_nan is not None:
        x = _nan_fill(name, x, fill_nan)
    if axis is None:
        x = jshape.ravel(x)
        axis = 0
    ax = canonicalize_axis(axis, x.ndim)
    explicit = user_dtype(dtype, name)
    dt = explicit if explicit is not None else _promote_integer(x.dtype) if promote_integers else x.dtype
    if dt == np.bool_:
        dt = dtypes.default_int_dtype()
    x = lax.convert_element_type(x, dt) if x.dtype != dt else x
    return op(x, ax)


@jitted(static=('axis', 'dtype'), inline=False)
def cumsum(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
    """Cumulative sum along ``axis`` (of the flattened array by default)."""
    return _cumulative("cumsum", lax_red_cumulative.cumsum, a, axis, dtype, out)


@jitted(static=('axis', 'dtype'), inline=False)
def cumprod(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
    """Cumulative product along ``axis`` (of the flattened array by default)."""
    return _cumulative("cumprod", lax_red_cumulative.cumprod, a, axis, dtype, out)


@jitted(static=('axis', 'dtype'), inline=False)
def nancumsum(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
    """``cumsum`` treating NaNs as zero."""
    return _cumulative("nancumsum", lax_red_cumulative.cumsum, a, axis, dtype, out, fill_nan=0)


@jitted(static=('axis', 'dtype'), inline=False)
def nancumprod(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
    """``cumprod`` treating NaNs as one."""
    return _cumulative("nancumprod", lax_red_cumulative.cumprod, a, axis, dtype, out, fill_nan=1)


def _cumulative_api(name: str, op: Callable[..., Array], x: ArrayLike, axis: int | None, dtype: DTypeLike | None, include_initial: bool, ident: int, promote_integers: bool = False) -> Array:
    check_arraylike(name, x)
    a = ensure_array(x)
    if axis is None:
        if a.ndim > 1:
            raise ValueError(f"The input array has rank {a.ndim}, however axis was not set to an explicit value. The axis argument is only optional for one-dimensional arrays.")
        axis = 0
    if a.ndim == 0:
        raise ValueError(f"The input must be non-scalar to take a cumulative {name.split('_')[1]}, however a scalar value or scalar array was given.")
    ax = canonicalize_axis(axis, a.ndim)
    res = _cumsum_with_promotion(a, ax, dtype) if promote_integers else _cumulative(name, op, a, ax, dtype, None)
    if include_initial:
        cfg = [(0, 0, 0)] * res.ndim
        cfg[ax] = (1, 0, 0)
        from jax_core._src.lax.shape import assembly as shape_assembly

        res = shape_assembly.pad(res, np.asarray(ident, res.dtype), cfg)
    return res


def cumulative_sum(x: ArrayLike, /, *, axis: int | None = None, dtype: DTypeLike | None = None, include_initial: bool = False) -> Array:
    """Array API cumulative sum (``include_initial`` prepends a zero)."""
    return _cumulative_api("cumulative_sum", lax_red_cumulative.cumsum, x, axis, dtype, include_initial, 0, promote_integers=True)


def cumulative_prod(x: ArrayLike, /, *, axis: int | None = None, dtype: DTypeLike | None = None, include_initial: bool = False) -> Array:
    """Array API cumulative product (``include_initial`` prepends a one)."""
    return _cumulative_api("cumulative_prod", lax_red_cumulative.cumprod, x, axis, dtype, include_initial, 1)


@jitted(static=("axis", "dtype"), inline=False)
def _cumsum_with_promotion(a: ArrayLike, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
    """``cumsum`` that widens small integers as ``sum`` does (``cumulative_sum``'s, as JAX's)."""
    return _cumulative("cumulative_sum", lax_red_cumulative.cumsum, a, axis, dtype, out, promote_integers=True)
