"""Statistics: median, quantile, percentile (and nan variants), average, cov, corrcoef,
histograms and bincount."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax import sorting as lax_sort
from jax_core._src.numpy import reductions as red
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    hashable,
    jitted,
    promote_dtypes_inexact,
    promote_shapes,
    user_dtype,
)
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


@jitted(static=("name", "axis", "method", "keepdims", "squash_nans"))
def _quantile(
    name: str, a: ArrayLike, q: ArrayLike, axis: int | Sequence[int] | None, method: str, keepdims: bool, squash_nans: bool,
    weights: ArrayLike | None = None,
) -> Array:
    if weights is not None:
        raise NotImplementedError(f"jnp.{name} with weights is not implemented.")
    check_arraylike(name, a, q)
    if method not in _METHODS:
        raise ValueError(f"method can only be 'linear', 'lower', 'higher', 'midpoint', or 'nearest'. Got {method!r}")
    x = ensure_array(a)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        raise ValueError(f"{name} does not support complex input")
    qa = ensure_array(q)
    if qa.ndim > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {qa.shape}")
    x, qa = (ensure_array(v) for v in promote_dtypes_inexact(x, qa))
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(canonicalize_axis(int(i), x.ndim) for i in ((axis,) if isinstance(axis, (int, np.integer)) else axis))
    keep_shape = tuple(1 if i in axes else d for i, d in enumerate(x.shape))
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = jshape.transpose(x, rest + list(axes))
    n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
    flat = jshape.reshape(moved, (*[x.shape[i] for i in rest], n))
    if n == 0 and not squash_nans:  # JAX's class (its gather of the empty array fails)
        raise TypeError(f"jnp.{name}: cannot compute a quantile of an empty array")
    if n == 0:  # nanquantile of nothing: NaN in the reduced shape (JAX's leaves out q's axis too)
        shape = keep_shape if keepdims else tuple(x.shape[i] for i in rest)
        return ensure_array(np.full(shape, np.nan, flat.dtype))
    last = flat.ndim - 1
    srt: Array = lax_sort.sort(flat, last, True)
    dt = srt.dtype
    is_nan = lax.ne(flat, flat)
    if squash_nans:
        counts = red.sum(lax.bitwise_not(is_nan), axis=last, keepdims=True, dtype=dt)
    else:
        counts = jshape.broadcast_to(np.asarray(n, dt), (*flat.shape[:-1], 1))
    qb = jshape.reshape(qa, (*qa.shape, *([1] * flat.ndim)))
    pos = lax.mul(*promote_shapes("quantile", qb, lax.sub(counts, np.ones((), dt))))
    pos = jshape.broadcast_to(pos, (*qa.shape, *flat.shape[:-1], 1))
    low = lax.max(lax.floor(pos), np.zeros((), dt))
    high = lax.min(lax.ceil(pos), lax.max(lax.sub(jshape.broadcast_to(counts, pos.shape), np.ones((), dt)), np.zeros((), dt)))
    big = jshape.broadcast_to(srt, (*qa.shape, *srt.shape))
    from jax_core._src.numpy.indexing_funcs import take_along_axis

    def at(p: Array) -> Array:
        idx = lax.convert_element_type(p, np.int32)
        return take_along_axis(big, idx, axis=-1, mode="clip")

    lo_v, hi_v = at(low), at(high)
    high_weight = lax.sub(pos, lax.floor(pos))
    if method == "linear":  # JAX's weighting: lo * (1 - w) + hi * w
        low_weight = lax.sub(np.ones((), dt), high_weight)
        out = lax.add(lax.mul(lo_v, low_weight), lax.mul(hi_v, high_weight))
    elif method == "lower":
        out = lo_v
    elif method == "higher":
        out = hi_v
    elif method == "midpoint":
        out = lax.mul(lax.add(lo_v, hi_v), np.asarray(0.5, dt))
    else:  # nearest: the lower one on a tie, as JAX's
        out = lax.select(lax.le(high_weight, np.asarray(0.5, dt)), lo_v, hi_v)
    out = jshape.squeeze(out, out.ndim - 1)
    any_nan = red.any(is_nan, axis=last)
    if squash_nans:
        empty = lax.eq(jshape.squeeze(counts, counts.ndim - 1), np.zeros((), dt))
        out = lax.select(jshape.broadcast_to(empty, out.shape), jshape.broadcast_to(np.asarray(np.nan, dt), out.shape), out)
    else:
        out = lax.select(jshape.broadcast_to(any_nan, out.shape), jshape.broadcast_to(np.asarray(np.nan, dt), out.shape), out)
    if keepdims:
        out = jshape.reshape(out, (*qa.shape, *keep_shape))
    return out


@jitted(static=('axis', 'overwrite_input', 'keepdims', 'method'), inline=False)
def quantile(
    a: ArrayLike, q: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False,
    method: str = "linear", keepdims: bool = False, *, weights: ArrayLike | None = None,
) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1]) over ``axis``; NaN if a NaN is present."""
    _check_out("quantile", out, overwrite_input)
    return _quantile("quantile", a, q, _static_axis(axis), method, keepdims, False, weights)


@jitted(static=('axis', 'overwrite_input', 'keepdims', 'method'), inline=False)
def nanquantile(
    a: ArrayLike, q: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False,
    method: str = "linear", keepdims: bool = False, *, weights: ArrayLike | None = None,
) -> Array:
    """``quantile`` ignoring NaNs."""
    _check_out("nanquantile", out, overwrite_input)
    return _quantile("nanquantile", a, q, _static_axis(axis), method, keepdims, True, weights)


def _static_axis(axis: int | Sequence[int] | None) -> int | tuple[int, ...] | None:
    return axis if axis is None or isinstance(axis, (int, np.integer)) else tuple(int(a) for a in axis)


def _check_out(name: str, out: None, overwrite_input: bool) -> None:
    if out is not None:
        raise ValueError(f"jax.numpy.{name} does not support out != None")
    if overwrite_input:
        raise ValueError(f"jax.numpy.{name} does not support overwrite_input=True")


def _pct(q: ArrayLike) -> Array:
    qa = ensure_array(promote_dtypes_inexact(q)[0])
    return qa / 100  # a Python q stays weakly typed, so a float16 input keeps float16 (as JAX)


@jitted(static=('axis', 'overwrite_input', 'keepdims', 'method'), inline=False)
def percentile(
    a: ArrayLike, q: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False,
    method: str = "linear", keepdims: bool = False, *, weights: ArrayLike | None = None,
) -> Array:
    """The ``q``-th percentiles (``q`` in [0, 100]) over ``axis``."""
    check_arraylike("percentile", a, q)
    return quantile(a, _pct(q), axis, out, overwrite_input, method, keepdims, weights=weights)


@jitted(static=('axis', 'overwrite_input', 'keepdims', 'method'), inline=False)
def nanpercentile(
    a: ArrayLike, q: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False,
    method: str = "linear", keepdims: bool = False, *, weights: ArrayLike | None = None,
) -> Array:
    """``percentile`` ignoring NaNs."""
    check_arraylike("nanpercentile", a, q)
    return nanquantile(a, _pct(q), axis, out, overwrite_input, method, keepdims, weights=weights)


@jitted(static=('axis', 'overwrite_input', 'keepdims'), inline=False)
def median(a: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False, keepdims: bool = False) -> Array:
    """The median over ``axis``."""
    check_arraylike("median", a)
    shape = get_aval(a).shape
    axes = range(len(shape)) if axis is None else ((axis,) if isinstance(axis, (int, np.integer)) else axis)
    if any(shape[canonicalize_axis(int(i), len(shape))] == 0 for i in axes):
        raise ValueError("jax.numpy.median reduction axis must be non-empty")
    return quantile(a, 0.5, axis, out, overwrite_input, "midpoint", keepdims)


@jitted(static=('axis', 'overwrite_input', 'keepdims'), inline=False)
def nanmedian(a: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False, keepdims: bool = False) -> Array:
    """The median over ``axis`` ignoring NaNs."""
    return nanquantile(a, 0.5, axis, out, overwrite_input, "midpoint", keepdims)


@overload
def average(
    a: ArrayLike, axis: int | Sequence[int] | None = None, weights: ArrayLike | None = None, returned: Literal[False] = False, keepdims: bool = False
) -> Array: ...
@overload
def average(
    a: ArrayLike, axis: int | Sequence[int] | None = None, weights: ArrayLike | None = None, *, returned: Literal[True], keepdims: bool = False
) -> tuple[Array, Array]: ...
@overload
def average(
    a: ArrayLike, axis: int | Sequence[int] | None, weights: ArrayLike | None, returned: Literal[True], keepdims: bool = False
) -> tuple[Array, Array]: ...
def average(
    a: ArrayLike, axis: int | Sequence[int] | None = None, weights: ArrayLike | None = None, returned: bool = False, keepdims: bool = False
) -> Array | tuple[Array, Array]:
    """Weighted mean over ``axis`` (``(mean, sum of weights)`` with ``returned``); eagerly one
    executable (JAX's ``_average`` is a JAX_EARLY jit)."""
    key = axis if axis is None or isinstance(axis, (int, np.integer)) else tuple(axis)
    if hashable(key, returned, keepdims):
        out: Array | tuple[Array, Array] = _average_staged(a, key, weights, returned, keepdims)
        return out
    return _average(a, axis, weights, returned, keepdims)


def _average(
    a: ArrayLike, axis: int | Sequence[int] | None = None, weights: ArrayLike | None = None, returned: bool = False, keepdims: bool = False
) -> Array | tuple[Array, Array]:
    check_arraylike("average", a)
    x = ensure_array(a)
    if weights is None:
        avg = red.mean(x, axis, keepdims=keepdims)
        if not returned:
            return avg
        n = int(np.prod([x.shape[i] for i in (range(x.ndim) if axis is None else [canonicalize_axis(int(v), x.ndim) for v in ((axis,) if isinstance(axis, int) else axis)])], dtype=np.int64))
        return avg, jshape.broadcast_to(np.asarray(n, avg.dtype), avg.shape)
    check_arraylike("average", weights)
    x, w = (ensure_array(v) for v in promote_dtypes_inexact(x, weights))
    if x.shape != w.shape:
        if axis is None:
            raise ValueError("Axis must be specified when shapes of a and weights differ.")
        if not isinstance(axis, (int, np.integer)):
            raise ValueError("Single axis expected when shapes of a and weights differ")
        if w.ndim != 1:
            raise ValueError("1D weights expected when shapes of a and weights differ.")
        ax = canonicalize_axis(int(axis), x.ndim)
        if w.shape[0] != x.shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        shape = [1] * x.ndim
        shape[ax] = w.shape[0]
        w = jshape.broadcast_to(jshape.reshape(w, tuple(shape)), x.shape)
    wsum = red.sum(w, axis, keepdims=keepdims)
    avg = lax.div(red.sum(lax.mul(x, w), axis, keepdims=keepdims), wsum)
    return (avg, wsum) if returned else avg


_average_staged = jitted(static=("axis", "returned", "keepdims"))(_average)


@jitted(static=('rowvar', 'bias', 'ddof', 'dtype'), inline=False)
def cov(
    m: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, bias: bool = False, ddof: int | None = None,
    fweights: ArrayLike | None = None, aweights: ArrayLike | None = None, dtype: DTypeLike | None = None,
) -> Array:
    """The covariance matrix of the variables in ``m`` (rows, or columns if ``rowvar=False``)."""
    from jax_core._src.numpy.products import dot

    check_arraylike("cov", m)
    x = ensure_array(m)
    if x.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    x = jshape.reshape(x, (1, x.size)) if x.ndim < 2 else x
    if not rowvar and x.shape[0] != 1:
        x = jshape.transpose(x, (1, 0))
    if y is not None:
        check_arraylike("cov", y)
        yy = ensure_array(y)
        yy = jshape.reshape(yy, (1, yy.size)) if yy.ndim < 2 else yy
        if not rowvar and yy.shape[0] != 1:
            yy = jshape.transpose(yy, (1, 0))
        x = jshape.concatenate([x, yy], 0)
    explicit = user_dtype(dtype, "cov")
    x = ensure_array(promote_dtypes_inexact(x)[0]) if explicit is None else lax.convert_element_type(x, explicit)
    dt = x.dtype
    if x.shape[1] == 0:  # no observations: NaN, as JAX's
        rows = x.shape[0]
        return ensure_array(np.full(() if rows == 1 else (rows, rows), np.nan, dt))
    if ddof is None:
        ddof = 0 if bias else 1
    n = x.shape[1]
    w: Array | None = None
    if fweights is not None:
        w = lax.convert_element_type(fweights, dt)
    if aweights is not None:
        aw = lax.convert_element_type(aweights, dt)
        w = aw if w is None else lax.mul(w, aw)
    if w is None:
        avg = red.mean(x, axis=1)
        fact = lax.sub(np.asarray(n, dt), np.asarray(ddof, dt))
    else:
        avg, wsum_a = average(x, axis=1, weights=w, returned=True)
        wsum_s = wsum_a[0]
        if aweights is None:
            fact = lax.sub(wsum_s, np.asarray(ddof, dt))
        else:
            aw = lax.convert_element_type(aweights, dt)
            fact = lax.sub(wsum_s, lax.div(lax.mul(np.asarray(ddof, dt), red.sum(lax.mul(w, aw))), wsum_s))

    xc = lax.sub(x, jshape.broadcast_to(jshape.reshape(avg, (x.shape[0], 1)), x.shape))
    xw = xc if w is None else lax.mul(xc, jshape.broadcast_to(w, xc.shape))
    xt = jshape.transpose(xc, (1, 0))
    if dtypes.issubdtype(dt, np.complexfloating):
        xt = lax.conj(xt)
    c = lax.div(dot(xw, xt), fact)
    return jshape.squeeze(c) if c.shape == (1, 1) else c


@jitted(static=('rowvar', 'dtype'), inline=False)
def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, dtype: DTypeLike | None = None) -> Array:
    """Pearson correlation coefficients (``cov`` normalised by the standard deviations)."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return lax.div(c, c)
    d = jshape.reshape(lax.sqrt(lax.real(_diag(c)) if dtypes.issubdtype(c.dtype, np.complexfloating) else _diag(c)), (c.shape[0],))
    d = lax.convert_element_type(d, c.dtype)
    c = lax.div(c, jshape.broadcast_to(jshape.reshape(d, (d.shape[0], 1)), c.shape))
    c = lax.div(c, jshape.broadcast_to(d, c.shape))
    if dtypes.issubdtype(c.dtype, np.complexfloating):
        return lax.complex(_clip1(lax.real(c)), _clip1(lax.imag(c)))
    return _clip1(c)


def _clip1(c: Array) -> Array:
    return lax.max(lax.min(c, np.ones((), c.dtype)), np.full((), -1, c.dtype))


def _diag(c: Array) -> Array:
    from jax_core._src.numpy.indexing_funcs import diagonal

    return diagonal(c)


# -- counting ------------------------------------------------------------------------------


def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0, *, length: int | None = None) -> Array:
    """Counts (or summed ``weights``) of each non-negative integer in ``x``; ``length`` inside jit."""
    check_arraylike("bincount", x)
    xa = ensure_array(x)
    if not dtypes.issubdtype(xa.dtype, np.integer) and xa.dtype != np.bool_:
        raise TypeError(f"x argument to bincount must have an integer type; got {xa.dtype}")
    if xa.ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    minlength = int(minlength)
    if minlength < 0:
        raise ValueError("minlength must not be negative")
    if length is None:
        if isinstance(xa, Tracer):
            xa.concretization_error("The error occurred because of argument 'x' of jnp.bincount. To avoid this error, pass a static `length` argument.")
        host = np.asarray(xa)
        length = builtins.max(minlength, int(host.max()) + 1 if host.size else 0)
    else:
        length = int(length)
    from jax_core._src.numpy.creation import zeros

    if weights is None:
        w: Array = jshape.broadcast_to(np.ones((), dtypes.default_int_dtype()), xa.shape)
    else:
        check_arraylike("bincount", weights)
        w = ensure_array(weights)
    out_dt = w.dtype if weights is not None else dtypes.default_int_dtype()
    idx = lax.convert_element_type(xa, np.int32)
    neg = lax.lt(idx, np.zeros((), np.int32))
    idx = lax.select(neg, jshape.broadcast_to(np.asarray(length, np.int32), idx.shape), idx)
    out: Array = zeros((length,), out_dt).at[idx].add(jshape.broadcast_to(w, xa.shape), mode="drop")
    return out


def histogram_bin_edges(a: ArrayLike, bins: ArrayLike = 10, range: Sequence[ArrayLike] | None = None, weights: ArrayLike | None = None) -> Array:
    """The bin edges ``histogram`` would use."""
    from jax_core._src.numpy.creation import linspace

    check_arraylike("histogram_bin_edges", a)
    x = jshape.ravel(ensure_array(promote_dtypes_inexact(a)[0]))
    if jshape.ndim(bins) == 1 and not isinstance(bins, (int, np.integer)):
        return ensure_array(promote_dtypes_inexact(bins)[0])
    if isinstance(bins, Tracer):
        bins.concretization_error("The bins argument of jnp.histogram must be concrete.")
    nb = int(np.asarray(bins))
    if range is None:
        lo, hi = red.min(x), red.max(x)
    else:
        lo = lax.convert_element_type(range[0], x.dtype)
        hi = lax.convert_element_type(range[1], x.dtype)
    same = lax.eq(lo, hi)
    lo = lax.select(same, lax.sub(lo, np.asarray(0.5, x.dtype)), lo)
    hi = lax.select(same, lax.add(hi, np.asarray(0.5, x.dtype)), hi)
    out: Array = linspace(lo, hi, nb + 1, dtype=x.dtype)
    return out


def histogram(
    a: ArrayLike, bins: ArrayLike = 10, range: Sequence[ArrayLike] | None = None, weights: ArrayLike | None = None, density: bool | None = None
) -> tuple[Array, Array]:
    """Counts (or summed weights) of ``a`` in ``bins`` and the bin edges."""
    from jax_core._src.numpy.sorting import searchsorted

    check_arraylike("histogram", a)
    x = jshape.ravel(ensure_array(promote_dtypes_inexact(a)[0]))
    edges = histogram_bin_edges(x, bins, range, weights)
    w = jshape.broadcast_to(np.ones((), x.dtype), x.shape) if weights is None else jshape.ravel(ensure_array(weights))
    nb = edges.shape[0] - 1
    idx = lax.sub(searchsorted(edges, x, side="right"), np.ones((), dtypes.default_int_dtype()))
    idx = lax.select(lax.eq(x, jshape.broadcast_to(edges[-1], x.shape)), jshape.broadcast_to(np.asarray(nb - 1, idx.dtype), idx.shape), idx)
    inside = lax.bitwise_and(lax.ge(idx, np.zeros((), idx.dtype)), lax.lt(idx, np.asarray(nb, idx.dtype)))
    idx = lax.select(inside, idx, jshape.broadcast_to(np.asarray(nb, idx.dtype), idx.shape))
    from jax_core._src.numpy.creation import zeros

    counts: Array = zeros((nb,), w.dtype).at[idx].add(w, mode="drop")
    if density:
        widths = lax.sub(edges[1:], edges[:-1])
        counts = lax.div(lax.div(lax.convert_element_type(counts, edges.dtype), widths), red.sum(counts).astype(edges.dtype))
    return counts, edges


def histogramdd(
    sample: ArrayLike, bins: ArrayLike | list[ArrayLike] = 10, range: Sequence[Any] | None = None, weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, list[Array]]:
    """A multidimensional histogram of the ``(N, D)`` ``sample``."""
    from jax_core._src.numpy.sorting import searchsorted

    check_arraylike("histogramdd", sample)
    s = ensure_array(promote_dtypes_inexact(sample)[0])
    if s.ndim == 1:
        s = jshape.reshape(s, (s.shape[0], 1))
    n, d = s.shape
    bins_list: list[Any] = list(bins) if isinstance(bins, (list, tuple)) else [bins] * d
    edges = [histogram_bin_edges(s[:, i], bins_list[i], None if range is None else range[i]) for i in builtins.range(d)]
    nbs = [e.shape[0] - 1 for e in edges]
    idt = dtypes.default_int_dtype()
    flat = jshape.broadcast_to(np.zeros((), idt), (n,))
    valid = jshape.broadcast_to(np.bool_(True), (n,))
    for i in builtins.range(d):
        col = s[:, i]
        k = lax.sub(searchsorted(edges[i], col, side="right"), np.ones((), idt))
        k = lax.select(lax.eq(col, jshape.broadcast_to(edges[i][-1], col.shape)), jshape.broadcast_to(np.asarray(nbs[i] - 1, idt), k.shape), k)
        valid = lax.bitwise_and(valid, lax.bitwise_and(lax.ge(k, np.zeros((), idt)), lax.lt(k, np.asarray(nbs[i], idt))))
        flat = lax.add(lax.mul(flat, np.asarray(nbs[i], idt)), k)
    total = int(np.prod(nbs))
    flat = lax.select(valid, flat, jshape.broadcast_to(np.asarray(total, idt), flat.shape))
    w = jshape.broadcast_to(np.ones((), dtypes.default_int_dtype()), (n,)) if weights is None else jshape.ravel(ensure_array(weights))
    from jax_core._src.numpy.creation import zeros

    flat_counts: Array = zeros((total,), w.dtype).at[flat].add(w, mode="drop")
    counts = jshape.reshape(flat_counts, tuple(nbs))
    if density:
        counts = lax.div(lax.convert_element_type(counts, s.dtype), red.sum(counts).astype(s.dtype))
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = nbs[i]
            counts = lax.div(counts, jshape.broadcast_to(jshape.reshape(lax.sub(e[1:], e[:-1]), tuple(shape)), counts.shape))
    return counts, edges


def histogram2d(
    x: ArrayLike, y: ArrayLike, bins: ArrayLike | list[ArrayLike] = 10, range: Sequence[Any] | None = None, weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, Array, Array]:
    """A 2-D histogram of ``(x, y)`` with its two edge arrays."""
    check_arraylike("histogram2d", x, y)
    sample = jshape.stack([ensure_array(v) for v in promote_dtypes_inexact(x, y)], axis=1)
    counts, edges = histogramdd(sample, bins, range, weights, density)
    return counts, edges[0], edges[1]
