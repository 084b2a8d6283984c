"""Numerical routines: clip, diff, gradient, trapezoid, interp, unwrap, convolve/correlate,
polynomials and window functions."""

from __future__ import annotations

import builtins
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    jitted,
    promote_dtypes,
    promote_dtypes_inexact,
)
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def _bcast2(a: Array, b: Array) -> tuple[Array, Array]:
    s = jshape.broadcast_shapes(a.shape, b.shape)
    return jshape.broadcast_to(a, s), jshape.broadcast_to(b, s)


@jitted(inline=False)
def clip(arr: ArrayLike | None = None, /, min: ArrayLike | None = None, max: ArrayLike | None = None) -> Array:
    """``arr`` limited to ``[min, max]`` (either bound may be ``None``). JAX 0.12 removed the
    NumPy-1 spellings ``a``, ``a_min`` and ``a_max``."""
    if arr is None:
        raise TypeError("clip() missing 1 required positional argument: 'arr'")
    check_arraylike("clip", arr)
    x = ensure_array(arr)
    if dtypes.issubdtype(x.dtype, np.complexfloating):
        raise ValueError("Clip received a complex value either through the input or the min/max keywords. Complex values have no ordering and cannot be clipped. Please convert to a real value or array by taking the real or imaginary components via jax.numpy.real/imag respectively.")
    if min is not None:
        check_arraylike("clip", min)
        x, lo = (ensure_array(v) for v in promote_dtypes(x, min))
        x = lax.max(*_bcast2(x, lo))
    if max is not None:
        check_arraylike("clip", max)
        x, hi = (ensure_array(v) for v in promote_dtypes(x, max))
        x = lax.min(*_bcast2(x, hi))
    return x


def _slice(x: Array, axis: int, start: int, stop: int) -> Array:
    lo = [0] * x.ndim
    hi = list(x.shape)
    lo[axis], hi[axis] = start, stop
    return slicing.slice(x, tuple(lo), tuple(hi))


@jitted(static=('n', 'axis'), inline=False)
def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend: ArrayLike | None = None, append: ArrayLike | None = None) -> Array:
    """The ``n``-th discrete difference along ``axis``."""
    check_arraylike("diff", a)
    x = ensure_array(a)
    n = int(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:
        return x
    if x.ndim == 0:
        raise ValueError(f"diff requires input that is at least one dimensional; got {a}")
    ax = canonicalize_axis(axis, x.ndim)
    parts: list[Array | None] = []
    for extra in (prepend, append):
        if extra is None:
            parts.append(None)
            continue
        e = ensure_array(extra)
        if e.ndim == 0:
            shape = list(x.shape)
            shape[ax] = 1
            e = jshape.broadcast_to(e, tuple(shape))
        parts.append(e)
    if parts[0] is not None or parts[1] is not None:
        pieces = [p for p in (parts[0], x, parts[1]) if p is not None]
        x = jshape.concatenate(pieces, ax)
    for _ in range(n):
        m = x.shape[ax]
        if m == 0:
            break
        hi, lo = _slice(x, ax, 1, m), _slice(x, ax, 0, m - 1)
        x = lax.ne(hi, lo) if x.dtype == np.bool_ else lax.sub(hi, lo)
    return x


@jitted(inline=False)
def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None, to_begin: ArrayLike | None = None) -> Array:
    """Differences of consecutive elements of the flattened array, optionally padded."""
    check_arraylike("ediff1d", ary)
    x = jshape.ravel(ensure_array(ary))
    out = lax.sub(x[1:], x[:-1])  # lax's subtraction: bools are rejected, as JAX's ediff1d does
    pieces: list[Array] = []
    if to_begin is not None:
        pieces.append(lax.convert_element_type(jshape.ravel(ensure_array(to_begin)), out.dtype))
    pieces.append(out)
    if to_end is not None:
        pieces.append(lax.convert_element_type(jshape.ravel(ensure_array(to_end)), out.dtype))
    return jshape.concatenate(pieces, 0) if len(pieces) > 1 else out


@jitted(static=('axis', 'edge_order'), inline=False)
def gradient(f: ArrayLike, *varargs: ArrayLike, axis: int | Sequence[int] | None = None, edge_order: int | None = None) -> Any:
    """The gradient by second-order central differences in the interior, first-order at the edges."""
    if edge_order is not None and edge_order != 1:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not supported.")
    check_arraylike("gradient", f)
    x = ensure_array(promote_dtypes_inexact(f)[0])
    axes = tuple(range(x.ndim)) if axis is None else tuple(canonicalize_axis(int(i), x.ndim) for i in ((axis,) if isinstance(axis, int) else axis))
    if not varargs:
        spacings: list[Any] = [1.0] * len(axes)
    elif len(varargs) == 1 and jshape.ndim(varargs[0]) == 0:
        spacings = [varargs[0]] * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError("Invalid number of spacing arguments")
    out: list[Array] = []
    for ax, h in zip(axes, spacings):
        n = x.shape[ax]
        if n < 2:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least 2 elements are required.")
        if np.ndim(h) == 0:
            hv = lax.convert_element_type(h, x.dtype)
            inner = lax.div(lax.sub(_slice(x, ax, 2, n), _slice(x, ax, 0, n - 2)), lax.mul(hv, np.asarray(2, x.dtype))) if n > 2 else None
            first = lax.div(lax.sub(_slice(x, ax, 1, 2), _slice(x, ax, 0, 1)), hv)
            last = lax.div(lax.sub(_slice(x, ax, n - 1, n), _slice(x, ax, n - 2, n - 1)), hv)
        else:
            c = ensure_array(promote_dtypes_inexact(h)[0])
            c = lax.convert_element_type(c, x.dtype)
            dx = diff(c)
            shape = [1] * x.ndim
            shape[ax] = n - 1
            dxb = jshape.reshape(dx, tuple(shape))
            d1 = _slice(dxb, ax, 0, n - 2)
            d2 = _slice(dxb, ax, 1, n - 1)
            inner = None
            if n > 2:
                a_ = lax.neg(lax.div(d2, lax.mul(d1, lax.add(d1, d2))))
                b_ = lax.div(lax.sub(d2, d1), lax.mul(d1, d2))
                c_ = lax.div(d1, lax.mul(d2, lax.add(d1, d2)))
                inner = lax.add(lax.add(lax.mul(*_bcast2(a_, _slice(x, ax, 0, n - 2))), lax.mul(*_bcast2(b_, _slice(x, ax, 1, n - 1)))), lax.mul(*_bcast2(c_, _slice(x, ax, 2, n))))
            first = lax.div(*_bcast2(lax.sub(_slice(x, ax, 1, 2), _slice(x, ax, 0, 1)), _slice(dxb, ax, 0, 1)))
            last = lax.div(*_bcast2(lax.sub(_slice(x, ax, n - 1, n), _slice(x, ax, n - 2, n - 1)), _slice(dxb, ax, n - 2, n - 1)))
        pieces = [first] + ([inner] if inner is not None else []) + [last]
        out.append(jshape.concatenate(pieces, ax))
    return out[0] if len(out) == 1 else out


@jitted(static=("axis",), inline=False)
def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0, axis: int = -1) -> Array:
    """Integral of ``y`` along ``axis`` by the trapezoidal rule (sample points ``x`` or spacing ``dx``).

    As JAX's: with a constant spacing, ``dx * (sum(y) - (y[0] + y[-1]) / 2)``; otherwise the sum
    of ``dx * (y[1:] + y[:-1])`` halved; ``x`` and ``y`` promoted together."""
    from jax_core._src.numpy.creation import asarray
    from jax_core._src.numpy.manipulation import moveaxis

    d: Array
    if x is None:
        check_arraylike("trapezoid", y)
        ya = ensure_array(promote_dtypes_inexact(y)[0])
        d = asarray(dx)
        if d.ndim > 0:
            d = moveaxis(jshape.expand_dims(d, tuple(range(ya.ndim - d.ndim))), axis, -1)
    else:
        check_arraylike("trapezoid", y, x)
        ya, xa = (ensure_array(v) for v in promote_dtypes_inexact(y, x))
        d = diff(xa) if xa.ndim == 1 else moveaxis(diff(xa, axis=axis), axis, -1)
    ya = moveaxis(ya, axis, -1)
    if d.ndim == 0 or d.shape[-1] == 1:  # constant spacing
        step = d if d.ndim == 0 else d[..., 0]
        return step * (ya.sum(-1) - 0.5 * (ya[..., 0] + ya[..., -1]))
    return 0.5 * (d * (ya[..., 1:] + ya[..., :-1])).sum(-1)


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: ArrayLike | str | None = None, right: ArrayLike | str | None = None, period: ArrayLike | None = None) -> Array:
    """Linear interpolation of the points ``(xp, fp)`` (``xp`` increasing) at ``x``; ``left`` or
    ``right`` may be ``"extrapolate"``. Compiled as one function (``None``/string arguments static),
    as JAX's is, so the arithmetic fuses the same way."""
    from jax_core._src.transforms.jit import make_jit

    static = tuple(n for n, v in (("left", left), ("right", right)) if v is None or isinstance(v, str))
    static += ("period",) if period is None else ()
    fn = _INTERP_JITS.get(static)
    if fn is None:
        fn = _INTERP_JITS[static] = make_jit(_interp, inline=False, static_argnames=static)
    out: Array = fn(x, xp, fp, left, right, period)
    return out


_INTERP_JITS: dict[tuple[str, ...], Any] = {}


def _interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: ArrayLike | str | None, right: ArrayLike | str | None, period: ArrayLike | None) -> Array:
    from jax_core._src.numpy.sorting import searchsorted
    from jax_core._src.numpy.where import where

    check_arraylike("interp", x, xp, fp)
    if get_aval(xp).shape != get_aval(fp).shape or get_aval(xp).ndim != 1:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    xa, xpa = (ensure_array(v) for v in promote_dtypes_inexact(x, xp))
    fpa = ensure_array(promote_dtypes_inexact(fp)[0])
    for side, value in (("left", left), ("right", right)):
        if isinstance(value, str) and value != "extrapolate":
            raise ValueError(f"the only valid string value of `{side}` is 'extrapolate', but got: {value!r}")
    if dtypes.issubdtype(xa.dtype, np.complexfloating):
        raise ValueError("jnp.interp: complex x values not supported.")
    if period is not None:
        if get_aval(period).ndim != 0:
            raise ValueError(f"period must be a scalar; got {period}")
        from jax_core._src.lax.sorting import sort_key_val
        from jax_core._src.numpy.ufuncs import abs as jabs
        from jax_core._src.numpy.ufuncs import remainder

        p = jabs(period)
        xa, xpa = remainder(xa, p), remainder(xpa, p)
        xpa, fpa = sort_key_val(xpa, fpa)
        xpa = jshape.concatenate([xpa[-1:] - p, xpa, xpa[:1] + p], 0)
        fpa = jshape.concatenate([fpa[-1:], fpa, fpa[:1]], 0)
    i = clip(searchsorted(xpa, xa, side="right"), 1, xpa.shape[0] - 1)
    df = fpa[i] - fpa[i - 1]
    dx = xpa[i] - xpa[i - 1]
    delta = xa - xpa[i - 1]
    tiny = lax.le(lax.abs(dx), _const_of(dx, np.spacing(dtypes.finfo(xpa.dtype).eps)))  # no NaN gradients
    f = where(tiny, fpa[i - 1], fpa[i - 1] + (delta / where(tiny, 1, dx)) * df)
    if period is None and not isinstance(left, str):
        f = where(xa < xpa[0], fpa[0] if left is None else left, f)
    if period is None and not isinstance(right, str):
        f = where(xa > xpa[-1], fpa[-1] if right is None else right, f)
    return f


def _const_of(x: Array, value: Any) -> np.ndarray[Any, Any]:
    return np.asarray(value, x.dtype)


def _fmod_pos(x: Array, p: ArrayLike) -> Array:
    r = lax.rem(x, jshape.broadcast_to(p, x.shape))
    return lax.select(lax.lt(r, np.zeros((), r.dtype)), lax.add(r, jshape.broadcast_to(p, r.shape)), r)


@jitted(static=('axis',), inline=False)
def unwrap(p: ArrayLike, discont: ArrayLike | None = None, axis: int = -1, period: ArrayLike = 2 * np.pi) -> Array:
    """``p`` with jumps larger than ``discont`` along ``axis`` replaced by their ``period`` complement."""
    from jax_core._src.lax.reductions.cumulative import cumsum

    check_arraylike("unwrap", p)
    x = ensure_array(promote_dtypes_inexact(p)[0])
    ax = canonicalize_axis(axis, x.ndim)
    dt = x.dtype
    per = lax.convert_element_type(period, dt)
    half = lax.div(per, np.asarray(2, dt))
    disc = half if discont is None else lax.max(lax.convert_element_type(discont, dt), half)
    dd = diff(x, axis=ax)
    ddmod = lax.sub(_fmod_pos(lax.add(dd, jshape.broadcast_to(half, dd.shape)), per), jshape.broadcast_to(half, dd.shape))
    fix = lax.bitwise_and(lax.eq(ddmod, jshape.broadcast_to(lax.neg(half), dd.shape)), lax.gt(dd, np.zeros((), dt)))
    ddmod = lax.select(fix, jshape.broadcast_to(half, dd.shape), ddmod)
    corr = lax.sub(ddmod, dd)
    corr = lax.select(lax.lt(lax.abs(dd), jshape.broadcast_to(disc, dd.shape)), jshape.broadcast_to(np.zeros((), dt), dd.shape), corr)
    cfg = [(0, 0, 0)] * x.ndim
    cfg[ax] = (1, 0, 0)
    return lax.add(x, shape_assembly.pad(cumsum(corr, ax), np.zeros((), dt), cfg))


# -- convolution -----------------------------------------------------------------------------


def _conv(
    name: str, a: ArrayLike, v: ArrayLike, mode: str, precision: Any, preferred_element_type: Any
) -> Array:
    """JAX's ``_conv``: one 1-D ``conv_general_dilated`` (the shorter operand is the kernel)."""
    from jax_core._src.lax.conv.convolution import conv_general_dilated

    check_arraylike(name, a, v)
    if jshape.ndim(a) != 1 or jshape.ndim(v) != 1:
        raise ValueError(f"{name}() only support 1-dimensional inputs.")
    # Promoted to inexact, as NumPy convolves, unless a preferred_element_type is given.
    promote = promote_dtypes_inexact if preferred_element_type is None else promote_dtypes
    x, y = (ensure_array(t) for t in promote(a, v))
    if x.shape[0] == 0 or y.shape[0] == 0:
        raise ValueError(f"{name}: inputs cannot be empty, got shapes {x.shape} and {y.shape}.")
    reverse = False
    if name == "correlate":
        if dtypes.issubdtype(y.dtype, np.complexfloating):
            y = lax.conj(y)
        if x.shape[0] < y.shape[0]:
            x, y, reverse = y, x, True
    else:
        if x.shape[0] < y.shape[0]:
            x, y = y, x
        y = shape_assembly.rev(y, (0,))
    m = y.shape[0]
    pads = {"valid": (0, 0), "same": (m // 2, m - m // 2 - 1), "full": (m - 1, m - 1)}
    if mode not in pads:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    out = conv_general_dilated(
        x[None, None, :],
        y[None, None, :],
        (1,),
        [pads[mode]],
        precision=precision,
        preferred_element_type=preferred_element_type,
    )[0, 0]
    return shape_assembly.rev(out, (0,)) if reverse else out


@jitted(static=('mode', 'precision', 'preferred_element_type'), inline=False)
def convolve(
    a: ArrayLike,
    v: ArrayLike,
    mode: str = "full",
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """Discrete linear convolution of two 1-D arrays (``mode`` full, same or valid)."""
    return _conv("convolve", a, v, mode, precision, preferred_element_type)


@jitted(static=('mode', 'precision', 'preferred_element_type'), inline=False)
def correlate(
    a: ArrayLike,
    v: ArrayLike,
    mode: str = "valid",
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Array:
    """Cross-correlation of two 1-D arrays (``mode`` valid, same or full)."""
    return _conv("correlate", a, v, mode, precision, preferred_element_type)


# -- polynomials -----------------------------------------------------------------------------


@jitted(static=('N', 'increasing'), inline=False)
def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:
    """The Vandermonde matrix of the 1-D ``x`` (powers decreasing unless ``increasing``)."""
    check_arraylike("vander", x)
    xa = ensure_array(x)
    if xa.ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    n = xa.shape[0] if N is None else int(N)
    if n < 0:
        raise ValueError("N must be nonnegative")
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    cols = [lax.integer_pow(xa, int(p)) if p else jshape.broadcast_to(np.ones((), xa.dtype), xa.shape) for p in powers]
    if not cols:
        return ensure_array(np.zeros((xa.shape[0], 0), xa.dtype))
    return jshape.stack(cols, axis=1)


@jitted(static=("unroll",), inline=False)
def polyval(p: ArrayLike, x: ArrayLike, *, unroll: int | None = None) -> Array:
    """The polynomial with coefficients ``p`` (highest power first, along the first axis)
    evaluated at ``x``, by ``lax.polynomial`` (Horner's rule; ``unroll`` terms unrolled)."""
    from jax_core._src.lax.elementwise.polynomial import polynomial

    check_arraylike("polyval", p, x)
    pa, xa = (ensure_array(v) for v in promote_dtypes(p, x))
    shape = jshape.broadcast_shapes(pa.shape[1:], xa.shape)
    if pa.shape[0] == 0:
        return jshape.broadcast_to(np.zeros((), xa.dtype), shape)

    def to_rank(v: Array) -> Array:  # leading unit axes, as lax.broadcast_to_rank
        return jshape.reshape(v, (1,) * (len(shape) - v.ndim) + v.shape)

    if 0 < xa.ndim < len(shape):
        xa = to_rank(xa)
    coeffs = [to_rank(pa[i]) if 0 < pa.ndim - 1 < len(shape) else pa[i] for i in reversed(range(pa.shape[0]))]
    return polynomial(xa, coeffs, unroll=unroll)


@jitted(inline=False)
def polyadd(a1: ArrayLike, a2: ArrayLike) -> Array:
    """The sum of two polynomials (coefficients along the first axis, highest power first)."""
    check_arraylike("polyadd", a1, a2)
    x, y = (ensure_array(v) for v in promote_dtypes(a1, a2))
    if y.shape[0] > x.shape[0]:
        x, y = y, x
    return x.at[x.shape[0] - y.shape[0] :].add(y)


@jitted(inline=False)
def polysub(a1: ArrayLike, a2: ArrayLike) -> Array:
    """The difference of two polynomials."""
    check_arraylike("polysub", a1, a2)
    x, y = (ensure_array(v) for v in promote_dtypes(a1, a2))
    return polyadd(x, lax.neg(y))


def polymul(a1: ArrayLike, a2: ArrayLike, *, trim_leading_zeros: bool = False) -> Array:
    """The product of two polynomials."""
    check_arraylike("polymul", a1, a2)
    x, y = (jshape.ravel(ensure_array(v)) for v in promote_dtypes(a1, a2))
    if trim_leading_zeros:
        x, y = _trim(x), _trim(y)
    if x.shape[0] == 0:
        x = ensure_array(np.zeros((1,), x.dtype))
    if y.shape[0] == 0:
        y = ensure_array(np.zeros((1,), y.dtype))
    return convolve(x, y, "full")


def _trim(x: Array) -> Array:
    if isinstance(x, Tracer):
        return x
    h = np.asarray(x)
    nz = np.nonzero(h)[0]
    return x[int(nz[0]) :] if nz.size else x[-1:] if h.size else x


def _falling_products(start: int, stop: int, m: int, dtype: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """``prod_{j<m} (i - j)`` for ``i`` in ``[start, stop)``, multiplied in ``dtype`` as JAX does
    (a product over the ``m`` shifted ranges, so float16 rounds where JAX's does)."""
    rows = np.arange(start, stop)[None, :] - np.arange(m)[:, None]
    acc: np.ndarray[Any, Any] = rows[0].astype(dtype)
    for row in rows[1:]:
        acc = (acc * row.astype(dtype)).astype(dtype)
    return acc


@jitted(static=('m',), inline=False)
def polyder(p: ArrayLike, m: int = 1) -> Array:
    """The ``m``-th derivative of a polynomial."""
    check_arraylike("polyder", p)
    m = operator.index(m)
    pa = ensure_array(promote_dtypes_inexact(p)[0])
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    if m == 0:
        return pa
    n = pa.shape[0]
    coeff = _falling_products(m, builtins.max(n, m), m, pa.dtype)[::-1]
    return lax.mul(pa[: builtins.max(n - m, 0)], coeff)


@jitted(static=('m',), inline=False)
def polyint(p: ArrayLike, m: int = 1, k: ArrayLike | None = None) -> Array:
    """The ``m``-th antiderivative of a polynomial (integration constants ``k``)."""
    m = operator.index(m)
    check_arraylike("polyint", p, 0 if k is None else k)
    pa, ka = (ensure_array(v) for v in promote_dtypes_inexact(p, 0 if k is None else k))
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ka = jshape.ravel(ka) if ka.ndim else jshape.broadcast_to(ka, (1,))
    if ka.shape[0] == 1:
        ka = jshape.broadcast_to(ka[0], (m,))
    if ka.shape != (m,):
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or m.")
    if m == 0:
        return pa
    n = pa.shape[0]
    grid = np.maximum(1, np.arange(n + m)[None, :] - np.arange(m)[:, None])
    coeff = grid[0].astype(pa.dtype)
    for row in grid[1:]:
        coeff = (coeff * row.astype(pa.dtype)).astype(pa.dtype)
    return lax.div(jshape.concatenate([pa, ka], 0), coeff[::-1])


def polydiv(u: ArrayLike, v: ArrayLike, *, trim_leading_zeros: bool = False) -> tuple[Array, Array]:
    """Quotient and remainder of polynomial division."""
    check_arraylike("polydiv", u, v)
    ua, va = (jshape.ravel(ensure_array(t)) for t in promote_dtypes_inexact(u, v))
    m, n = ua.shape[0] - 1, va.shape[0] - 1
    scale = lax.div(np.ones((), va.dtype), va[0])
    q = ensure_array(np.zeros((builtins.max(m - n + 1, 1),), ua.dtype))
    r = ua
    for k in range(0, m - n + 1):
        d = lax.mul(scale, r[k])
        q = q.at[k].set(d)
        r = r.at[k : k + n + 1].add(lax.neg(lax.mul(d, va)))
    if trim_leading_zeros:
        r = _trim(r)
    return q, r


@jitted(inline=False)
def poly(seq_of_zeros: ArrayLike) -> Array:
    """Coefficients of the monic polynomial with the given roots (or a square matrix's eigenvalues)."""
    check_arraylike("poly", seq_of_zeros)
    z = ensure_array(promote_dtypes_inexact(seq_of_zeros)[0])
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        from jax_core._src.numpy.linalg import eigvals

        z = eigvals(z)
    elif z.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    a = ensure_array(np.ones((1,), z.dtype))
    for i in range(z.shape[0]):
        a = convolve(a, jshape.stack([ensure_array(np.ones((), z.dtype)), lax.neg(z[i])]), "full")
    return a


def roots(p: ArrayLike, *, strip_zeros: bool = True) -> Array:
    """The roots of a polynomial (eigenvalues of its companion matrix)."""
    from jax_core._src.numpy.linalg import eigvals

    check_arraylike("roots", p)
    pa = ensure_array(promote_dtypes_inexact(p)[0])
    if pa.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    if strip_zeros:
        if isinstance(pa, Tracer):
            pa.concretization_error("jnp.roots with strip_zeros=True needs concrete coefficients; use strip_zeros=False.")
        h = np.asarray(pa)
        nz = np.nonzero(h)[0]
        if nz.size == 0:
            return ensure_array(np.zeros((0,), dtypes.to_complex_dtype(pa.dtype)))
        trailing = h.size - 1 - int(nz[-1])
        pa = pa[int(nz[0]) : h.size - trailing]
    else:
        trailing = 0
    n = pa.shape[0] - 1
    if n < 1:
        return ensure_array(np.zeros((trailing,), dtypes.to_complex_dtype(pa.dtype)))
    comp = jshape.concatenate(
        [jshape.reshape(lax.neg(lax.div(pa[1:], pa[0])), (1, n)), ensure_array(np.eye(n - 1, n, dtype=pa.dtype))], 0
    )
    r = eigvals(comp)
    if trailing:
        r = jshape.concatenate([r, ensure_array(np.zeros((trailing,), r.dtype))], 0)
    return r


@jitted(static=('deg', 'rcond', 'full', 'cov'), inline=False)
def polyfit(x: ArrayLike, y: ArrayLike, deg: int, rcond: float | None = None, full: bool = False, w: ArrayLike | None = None, cov: bool = False) -> Any:
    """Least-squares polynomial fit of degree ``deg`` (coefficients, highest power first)."""
    from jax_core._src.numpy.linalg import lstsq

    if full or cov:
        raise NotImplementedError("jnp.polyfit with full=True or cov=True is not implemented")
    check_arraylike("polyfit", x, y)
    xa, ya = (ensure_array(v) for v in promote_dtypes_inexact(x, y))
    deg = int(deg)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if xa.ndim != 1:
        raise TypeError("expected 1D vector for x")
    lhs = vander(xa, deg + 1)
    rhs = ya
    if w is not None:
        wa = lax.convert_element_type(w, xa.dtype)
        lhs = lax.mul(lhs, jshape.broadcast_to(jshape.reshape(wa, (wa.shape[0], 1)), lhs.shape))
        rhs = lax.mul(rhs, jshape.broadcast_to(wa, rhs.shape) if rhs.ndim == 1 else jshape.broadcast_to(jshape.reshape(wa, (wa.shape[0], 1)), rhs.shape))
    from jax_core._src.numpy.reductions import sum as sum_

    scale = lax.sqrt(sum_(lax.mul(lhs, lhs), axis=0))
    sol = lstsq(lax.div(lhs, jshape.broadcast_to(scale, lhs.shape)), rhs, rcond=rcond)[0]
    return lax.div(sol, scale) if sol.ndim == 1 else lax.div(sol, jshape.broadcast_to(jshape.reshape(scale, (scale.shape[0], 1)), sol.shape))


# -- windows ---------------------------------------------------------------------------------


def _window_points(name: str, M: int) -> Array | int:
    """``iota`` of ``M`` default floats, as JAX's window functions start; ``M <= 1`` returns the
    (concrete) size instead, whose window is all ones (a negative size is refused)."""
    if isinstance(M, Tracer):
        M.concretization_error(f"M argument of jnp.{name}")
    m = int(M)
    if m <= 1:
        return m
    return shape_assembly.broadcasted_iota(dtypes.default_float_dtype(), (m,), 0)


def _ones_window(m: int) -> Array:
    from jax_core._src.lax.shape.compositions import full

    return full((m,), 1, dtypes.default_float_dtype())


# The windows below evaluate JAX 0.12's formulas op for op (Python scalars stay weakly typed), so
# the float32 results are bit-identical to JAX's.


def bartlett(M: int) -> Array:
    """The Bartlett (triangular) window of ``M`` points."""
    n = _window_points("bartlett", M)
    if isinstance(n, int):
        return _ones_window(n)
    m = n.shape[0]
    return 1 - _jnp_abs(2 * n + 1 - m) / (m - 1)


def blackman(M: int) -> Array:
    """The Blackman window of ``M`` points."""
    n = _window_points("blackman", M)
    if isinstance(n, int):
        return _ones_window(n)
    m = n.shape[0]
    return 0.42 - 0.5 * _jnp_cos(2 * np.pi * n / (m - 1)) + 0.08 * _jnp_cos(4 * np.pi * n / (m - 1))


def hamming(M: int) -> Array:
    """The Hamming window of ``M`` points."""
    n = _window_points("hamming", M)
    if isinstance(n, int):
        return _ones_window(n)
    return 0.54 - 0.46 * _jnp_cos(2 * np.pi * n / (n.shape[0] - 1))


def hanning(M: int) -> Array:
    """The Hann window of ``M`` points."""
    n = _window_points("hanning", M)
    if isinstance(n, int):
        return _ones_window(n)
    return 0.5 * (1 - _jnp_cos(2 * np.pi * n / (n.shape[0] - 1)))


def kaiser(M: int, beta: ArrayLike) -> Array:
    """The Kaiser window of ``M`` points with shape parameter ``beta``."""
    from jax_core._src.numpy.math import i0

    n = _window_points("kaiser", M)
    if isinstance(n, int):
        return _ones_window(n)
    alpha = 0.5 * (n.shape[0] - 1)
    return i0(beta * _jnp_sqrt(1 - ((n - alpha) / alpha) ** 2)) / i0(beta)


def _jnp_abs(x: Array) -> Array:
    from jax_core._src.numpy.ufuncs import absolute

    return absolute(x)


def _jnp_cos(x: Array) -> Array:
    from jax_core._src.numpy.ufuncs import cos

    return cos(x)


def _jnp_sqrt(x: Array) -> Array:
    from jax_core._src.numpy.ufuncs import sqrt

    return sqrt(x)
