"""``jnp.pad``: every NumPy padding mode, staged as JAX stages it (one ``jit[name=_pad]``)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.manipulation import moveaxis, slice_axis
from jax_core._src.numpy.util import check_arraylike, ensure_array, jitted
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

def _arr(name: str, a: ArrayLike) -> Array:
    check_arraylike(name, a)
    return ensure_array(a)


def _pad_widths(pad_width: Any, ndim: int) -> list[tuple[int, int]]:
    pw = np.asarray(pad_width)
    if isinstance(pad_width, Tracer):
        pad_width.concretization_error("jnp.pad's pad_width must be concrete.")
    if not np.issubdtype(pw.dtype, np.integer):
        raise TypeError(f"`pad_width` must be of integral type; got {pw.dtype}.")
    pw = np.broadcast_to(pw.reshape((-1, 2)) if pw.ndim == 2 or pw.size == 2 and pw.ndim == 1 else pw.reshape(-1, 1), (ndim, 2)) if pw.ndim <= 2 else pw
    if pw.shape != (ndim, 2):
        raise ValueError(f"jnp.pad: pad_width with nd={ndim} has unsupported shape {np.asarray(pad_width).shape}.")
    out = [(int(lo), int(hi)) for lo, hi in pw]
    if builtins.any(lo < 0 or hi < 0 for lo, hi in out):
        raise ValueError("index can't contain negative values")
    return out


_PAD_KWARGS: dict[str, tuple[str, ...]] = {
    "empty": (), "edge": (), "wrap": (), "constant": ("constant_values",), "linear_ramp": ("end_values",),
    "maximum": ("stat_length",), "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",),
    "reflect": ("reflect_type",), "symmetric": ("reflect_type",),
}  # fmt: skip


def pad(array: ArrayLike, pad_width: Any, mode: str | Callable[..., Any] = "constant", **kwargs: Any) -> Array:
    """``array`` padded by ``pad_width`` (per axis ``(before, after)``) using ``mode``.

    Modes as ``numpy.pad``: constant (``constant_values``), edge, reflect/symmetric
    (``reflect_type``), wrap, linear_ramp (``end_values``), maximum/minimum/mean/median
    (``stat_length``), empty, or a callable applied to each 1-D vector. As in JAX, the padding
    itself is one ``jit[name=_pad]`` whose static arguments are everything but the constant.
    """
    x = _arr("pad", array)
    widths = _pad_widths(pad_width, x.ndim)
    if callable(mode):
        return _pad_func(x, widths, mode, kwargs)
    if mode not in _PAD_KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    stat_length = kwargs.get("stat_length")
    end_values = kwargs.get("end_values", 0)
    return _pad(x, tuple(widths), mode, kwargs.get("constant_values", 0), stat_length, end_values, kwargs.get("reflect_type", "even"))


@jitted(static_argnums=(1, 2, 4, 5, 6), inline=False)
def _pad(
    x: Array, widths: tuple[tuple[int, int], ...], mode: str, constant_values: ArrayLike, stat_length: Any, end_values: Any, reflect_type: str
) -> Array:
    if x.ndim == 0:
        return x
    if mode == "constant" or mode == "empty":
        return _pad_constant(x, list(widths), constant_values)
    for ax, (lo, hi) in enumerate(widths):
        if lo == 0 and hi == 0:
            continue
        if x.shape[ax] == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
        if mode == "edge":
            x = _pad_edge(x, ax, lo, hi)
        elif mode in ("reflect", "symmetric"):
            x = _pad_reflect(x, ax, lo, hi, mode, reflect_type)
        elif mode == "wrap":
            x = _pad_wrap(x, ax, lo, hi)
        elif mode == "linear_ramp":
            x = _pad_linear_ramp(x, ax, lo, hi, end_values)
        else:
            x = _pad_stats(x, ax, lo, hi, mode, stat_length)
    return x


def _pad_constant(x: Array, widths: list[tuple[int, int]], cv: Any) -> Array:
    if isinstance(cv, (list, tuple)):  # under the jit, a nested list of traced scalars
        from jax_core._src.numpy.creation import asarray

        cv = asarray(cv)
    c = np.asarray(cv) if not isinstance(cv, Array) else cv
    if np.ndim(c) == 0:
        fill = lax.to_dtype(ensure_array(c) if isinstance(c, Array) else c.astype(x.dtype) if x.dtype.kind != "b" else c.astype(bool), x.dtype, False)
        return shape_assembly.pad(x, fill, [(lo, hi, 0) for lo, hi in widths])
    cvs: Any = jshape.broadcast_to(c, (x.ndim, 2)) if isinstance(c, Array) else np.broadcast_to(np.asarray(c), (x.ndim, 2))

    def value(ax: int, side: int) -> Any:
        v = cvs[ax, side]
        return lax.convert_element_type(v, x.dtype) if isinstance(v, Array) else np.asarray(v).astype(x.dtype)

    for ax, (lo, hi) in enumerate(widths):
        cfg = [(0, 0, 0)] * x.ndim
        cfg[ax] = (lo, 0, 0)
        x = shape_assembly.pad(x, value(ax, 0), cfg)
        cfg[ax] = (0, hi, 0)
        x = shape_assembly.pad(x, value(ax, 1), cfg)
    return x


def _repeat_edge(x: Array, ax: int, index: int, count: int) -> Array:
    edge = slice_axis(x, ax, index, index + 1)
    shape = list(x.shape)
    shape[ax] = count
    return jshape.broadcast_to(edge, tuple(shape))


def _pad_edge(x: Array, ax: int, lo: int, hi: int) -> Array:
    n = x.shape[ax]
    return jshape.concatenate([_repeat_edge(x, ax, 0, lo), x, _repeat_edge(x, ax, n - 1, hi)], ax)


def _pad_reflect(x: Array, ax: int, lo: int, hi: int, mode: str, reflect_type: str) -> Array:
    n = x.shape[ax]
    idx = np.arange(-lo, n + hi)
    if mode == "reflect":
        period = builtins.max(2 * (n - 1), 1)
        m = np.mod(idx, period)
        src = np.where(m >= n, period - m, m) if n > 1 else np.zeros_like(idx)
    else:
        period = 2 * n
        m = np.mod(idx, period)
        src = np.where(m >= n, period - 1 - m, m)
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    out = take(x, src.astype(np.int32), axis=ax)
    if reflect_type == "odd":
        # 2 * edge - reflected value, on the padded parts only.
        first = _repeat_edge(x, ax, 0, lo + n + hi)
        last = _repeat_edge(x, ax, n - 1, lo + n + hi)
        pos = np.arange(-lo, n + hi)
        shape = [1] * x.ndim
        shape[ax] = pos.size
        before = np.reshape(pos < 0, shape)
        after = np.reshape(pos >= n, shape)
        two = np.asarray(2, x.dtype)
        out = lax.select(
            jshape.broadcast_to(before, out.shape),
            lax.sub(lax.mul(two, first), out),
            lax.select(jshape.broadcast_to(after, out.shape), lax.sub(lax.mul(two, last), out), out),
        )
    return out


def _pad_wrap(x: Array, ax: int, lo: int, hi: int) -> Array:
    from jax_core._src.numpy.indexing_funcs import take_traced as take

    n = x.shape[ax]
    return take(x, np.mod(np.arange(-lo, n + hi), n).astype(np.int32), axis=ax)


def _pad_linear_ramp(x: Array, ax: int, lo: int, hi: int, end_values: Any) -> Array:
    ev = np.broadcast_to(np.asarray(end_values), (x.ndim, 2)) if np.ndim(end_values) else np.full((x.ndim, 2), end_values)
    n = x.shape[ax]
    work = x.dtype if dtypes.issubdtype(x.dtype, np.inexact) else dtypes.default_float_dtype()
    parts: list[Array] = []
    for width, edge_index, end, before in ((lo, 0, ev[ax, 0], True), (hi, n - 1, ev[ax, 1], False)):
        if width == 0:
            parts.append(slice_axis(x, ax, 0, 0))
            continue
        edge = lax.convert_element_type(_repeat_edge(x, ax, edge_index, width), work)
        # numpy.linspace(end, edge, width, endpoint=False) before; reversed after.
        t = np.arange(width, dtype=np.float64) / width
        t = t if before else t[::-1]
        shape = [1] * x.ndim
        shape[ax] = width
        w_end = jshape.broadcast_to(np.reshape(1 - t, shape).astype(work), edge.shape)
        w_edge = jshape.broadcast_to(np.reshape(t, shape).astype(work), edge.shape)
        ramp = lax.add(lax.mul(w_end, np.asarray(end).astype(work)), lax.mul(w_edge, edge))
        parts.append(_cast_round(ramp, x.dtype))
    return jshape.concatenate([parts[0], x, parts[1]], ax)


def _cast_round(v: Array, dt: np.dtype[Any]) -> Array:
    if dt.kind in "iub":
        v = lax.round(v, 1)
    return lax.convert_element_type(v, dt)


def _pad_stats(x: Array, ax: int, lo: int, hi: int, mode: str, stat_length: Any) -> Array:
    from jax_core._src.numpy import reductions, statistics

    n = x.shape[ax]
    sl = np.broadcast_to(np.asarray(stat_length if stat_length is not None else n), (x.ndim, 2)) if stat_length is None or np.ndim(stat_length) else np.full((x.ndim, 2), stat_length)
    fns: dict[str, Callable[..., Array]] = {
        "maximum": reductions.max,
        "minimum": reductions.min,
        "mean": reductions.mean,
        "median": statistics.median,
    }
    fn = fns[mode]
    parts: list[Array] = []
    for width, side in ((lo, 0), (hi, 1)):
        length = builtins.max(1, builtins.min(int(sl[ax, side]), n))
        chunk = slice_axis(x, ax, 0, length) if side == 0 else slice_axis(x, ax, n - length, n)
        stat = fn(chunk, axis=ax, keepdims=True)
        if mode in ("mean", "median"):
            stat = _cast_round(stat, x.dtype)
        shape = list(x.shape)
        shape[ax] = width
        parts.append(jshape.broadcast_to(stat, tuple(shape)))
    return jshape.concatenate([parts[0], x, parts[1]], ax)


def _pad_func(x: Array, widths: list[tuple[int, int]], fn: Callable[..., Any], kwargs: dict[str, Any]) -> Array:
    out = _pad_constant(x, widths, 0)
    for ax in range(out.ndim):
        moved = moveaxis(out, ax, -1)
        flat = jshape.reshape(moved, (-1, moved.shape[-1]))
        rows: list[Array] = []
        for i in range(flat.shape[0]):
            r = fn(flat[i], widths[ax], ax, kwargs)
            rows.append(ensure_array(r) if r is not None else flat[i])
        stacked = jshape.stack(rows) if rows else flat
        out = moveaxis(jshape.reshape(stacked, moved.shape), -1, ax)
    return out
