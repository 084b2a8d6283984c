"""Testing helpers: ``check_grads`` compares jvp and vjp with finite differences, as JAX's does.

The checks behave as JAX's ``jax.test_util`` ones, so a rule that passes one passes the other:
directions drawn from ``numpy.random.RandomState(0)`` (the tangent, then the cotangent), central
differences with step ``1e-4`` computed in each input's own dtype (Python scalars stay Python
scalars), the reverse-mode check as the projection ``<t, J^T c> == <J t, c>`` with
``inner_prod(x, y) = Re(conj(x) . y)`` and the cotangent conjugated on the way in and out, and
per-dtype tolerances multiplied by the number of elements compared.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.transforms.ad_api import jvp, vjp
from jax_core._src.tree.tree_util import tree_flatten, tree_map

__all__ = ["check_grads", "check_jvp", "check_vjp"]

_EPS = 1e-4

_GRADIENT_TOL: dict[np.dtype[Any], float] = {
    np.dtype(dtypes.bfloat16): 1e-1,
    np.dtype(np.float16): 1e-2,
    np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5,
    np.dtype(np.complex64): 1e-3,
    np.dtype(np.complex128): 1e-5,
}
"""The default tolerance of each inexact dtype (JAX's ``default_gradient_tolerance``)."""

_CUSTOM_FLOATS = frozenset(np.dtype(t) for t in (dtypes.bfloat16, dtypes.float8_e4m3fn, dtypes.float8_e5m2))

Tolerance = float | Mapping[Any, float] | None
"""A tolerance: one number, a dict by dtype (merged over the defaults), or ``None`` (defaults)."""


def _dtype(x: Any) -> np.dtype[Any]:
    dt: Any = getattr(x, "dtype", None)
    if dt is not None:
        out: np.dtype[Any] = np.dtype(dt)
        return out
    found = dtypes.python_scalar_dtypes.get(type(x))  # pyright: ignore[reportUnknownArgumentType]
    return found if found is not None else np.asarray(x).dtype


def _is_python_scalar(x: Any) -> bool:
    return not isinstance(x, np.generic) and isinstance(x, (bool, int, float, complex))


def _tolerance(dtype: np.dtype[Any], tol: Tolerance) -> float:
    if tol is not None and not isinstance(tol, Mapping):
        return float(tol)
    table: dict[np.dtype[Any], float] = dict(_GRADIENT_TOL)
    if tol is not None:
        table.update({np.dtype(k): float(v) for k, v in tol.items()})
    if dtype == dtypes.float0:
        return 0.0
    return table.get(dtypes.canonicalize_dtype(dtype), 0.0)


def _assert_close_leaf(a: Any, b: Any, atol: Tolerance, rtol: Tolerance, err_msg: str) -> None:
    x, y = np.asarray(a), np.asarray(b)
    assert x.shape == y.shape, f"{err_msg}: shapes differ, {x.shape} and {y.shape}"
    if x.dtype == y.dtype == dtypes.float0:
        return
    at = max(_tolerance(x.dtype, atol), _tolerance(y.dtype, atol)) * x.size
    rt = max(_tolerance(x.dtype, rtol), _tolerance(y.dtype, rtol)) * y.size
    x = x.astype(np.float32) if x.dtype in _CUSTOM_FLOATS else x
    y = y.astype(np.float32) if y.dtype in _CUSTOM_FLOATS else y
    # A zero tolerance means numpy's own default (rtol 1e-7, atol 0), as in JAX.
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(x, y, rtol=rt or 1e-7, atol=at or 0.0, err_msg=err_msg)



def _check_close(xs: Any, ys: Any, atol: Tolerance, rtol: Tolerance, err_msg: str) -> None:
    x_leaves, x_tree = tree_flatten(xs)
    y_leaves, y_tree = tree_flatten(ys)
    if x_tree != y_tree:
        raise AssertionError(f"{err_msg}: tree structures differ: {x_tree} vs {y_tree}")
    for a, b in zip(x_leaves, y_leaves, strict=True):
        _assert_close_leaf(a, b, atol, rtol, err_msg)


def _rand_like(rng: np.random.RandomState, x: Any) -> Any:
    """A random direction like ``x`` (``float0`` zeros where ``x`` is not inexact, drawn anyway so
    the stream of directions is JAX's)."""
    dtype = _dtype(x)
    shape = np.shape(x)
    r = rng.randn(*shape)
    if dtypes.issubdtype(dtype, np.complexfloating):
        r = r + 1j * rng.randn(*shape)
    if not dtypes.issubdtype(dtype, np.inexact):
        return np.zeros(shape, dtypes.float0)
    out = np.asarray(r, dtype)
    return out.item() if _is_python_scalar(x) else out


def _keep_type(x: Any, value: np.ndarray[Any, Any]) -> Any:
    return value.item() if _is_python_scalar(x) else value


def _scaled(x: Any, a: float) -> Any:
    dtype = _dtype(x)
    if dtype == dtypes.float0:
        return x
    return _keep_type(x, np.multiply(np.asarray(x), np.array(a, dtype), dtype=dtype))


def _shift(x: Any, delta: Any, sign: Callable[[Any, Any], Any]) -> Any:
    dtype = _dtype(x)
    if _dtype(delta) == dtypes.float0:
        return x
    return _keep_type(x, np.asarray(sign(np.asarray(x), np.asarray(delta)), dtype))


def _safe_subtract(x: Any, y: Any) -> Any:
    """``x - y`` in ``x``'s dtype, with ``inf - inf == 0``."""
    dtype = _dtype(x)
    if dtype == dtypes.float0:
        return np.asarray(x)
    a, b = np.asarray(x), np.asarray(y)
    with np.errstate(invalid="ignore"):
        return np.where(np.equal(a, b), np.array(0, dtype), np.subtract(a, b, dtype=dtype))


def _numerical_jvp(f: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], eps: float) -> Any:
    delta = tree_map(lambda t: _scaled(t, eps), tangents)
    f_pos = f(*tree_map(lambda x, d: _shift(x, d, operator.add), tuple(primals), tuple(delta)))
    f_neg = f(*tree_map(lambda x, d: _shift(x, d, operator.sub), tuple(primals), tuple(delta)))
    return tree_map(lambda d: _scaled(d, 0.5 / eps), tree_map(_safe_subtract, f_pos, f_neg))


def _conj(xs: Any) -> Any:
    def one(x: Any) -> Any:
        if _dtype(x) == dtypes.float0:
            return x
        return _keep_type(x, np.asarray(np.conj(np.asarray(x)), _dtype(x)))

    return tree_map(one, xs)


def _inner_prod(xs: Any, ys: Any) -> Any:
    """``sum Re(conj(x) . y)`` over the leaves (``float0`` leaves contribute nothing)."""
    x_leaves = tree_flatten(xs)[0]
    y_leaves = tree_flatten(ys)[0]
    total: Any = None
    for x, y in zip(x_leaves, y_leaves, strict=True):
        if _dtype(x) == dtypes.float0 or _dtype(y) == dtypes.float0:
            continue
        term = np.real(np.dot(np.conj(np.asarray(x)).reshape(-1), np.asarray(y).reshape(-1)))
        total = term if total is None else np.add(total, term)
    return np.float64(0.0) if total is None else total


def check_jvp(
    f: Callable[..., Any],
    f_jvp: Callable[..., Any],
    args: Sequence[Any],
    atol: Tolerance = None,
    rtol: Tolerance = None,
    eps: float = _EPS,
    err_msg: str = "",
) -> None:
    """Checks ``f_jvp(primals, tangents)`` against central finite differences of ``f`` in one
    random direction; raises ``AssertionError`` on a mismatch."""
    args = tuple(args)
    rng = np.random.RandomState(0)
    tangent = tree_map(functools.partial(_rand_like, rng), args)
    v_out, t_out = f_jvp(args, tangent)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    t_expected = _numerical_jvp(f, args, tangent, eps)
    _check_close(t_out, t_expected, atol, rtol, f"{err_msg} tangent" if err_msg else "tangent")


def check_vjp(
    f: Callable[..., Any],
    f_vjp: Callable[..., Any],
    args: Sequence[Any],
    atol: Tolerance = None,
    rtol: Tolerance = None,
    eps: float = _EPS,
    err_msg: str = "",
) -> None:
    """Checks ``f_vjp`` by the projection ``<t, J^T c> == <J t, c>`` (``J t`` by finite
    differences) in one random direction; raises ``AssertionError`` on a mismatch."""
    args = tuple(args)
    rng = np.random.RandomState(0)
    v_out, pullback = f_vjp(*args)
    _check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal" if err_msg else "primal")
    tangent = tree_map(functools.partial(_rand_like, rng), args)
    tangent_out = _numerical_jvp(f, args, tangent, eps)
    cotangent = tree_map(functools.partial(_rand_like, rng), v_out)
    cotangent_out = _conj(pullback(_conj(cotangent)))
    ip = _inner_prod(tangent, cotangent_out)
    ip_expected = _inner_prod(tangent_out, cotangent)
    what = f"{err_msg} cotangent projection" if err_msg else "cotangent projection"
    _check_close(ip, ip_expected, atol, rtol, what)


def check_grads(
    f: Callable[..., Any],
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol: Tolerance = None,
    rtol: Tolerance = None,
    eps: float | None = None,
) -> None:
    """Checks ``f``'s derivatives up to ``order`` in forward (``"fwd"``) and reverse (``"rev"``)
    mode against finite differences; raises ``AssertionError`` on a mismatch."""
    e = _EPS if eps is None else eps

    def check(fun: Callable[..., Any], fun_args: Sequence[Any], n: int, err_msg: str) -> None:
        if "fwd" in modes:
            msg = f"JVP of {err_msg}" if err_msg else "JVP"
            check_jvp(fun, functools.partial(jvp, fun), fun_args, atol, rtol, e, msg)
            if n > 1:
                check(functools.partial(jvp, fun), (tuple(fun_args), tuple(fun_args)), n - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {err_msg}" if err_msg else "VJP"
            check_vjp(fun, functools.partial(vjp, fun), fun_args, atol, rtol, e, msg)
            if n > 1:

                def f_vjp(*xs: Any) -> Any:
                    out, pullback = vjp(fun, *xs)
                    return pullback(out)

                check(f_vjp, fun_args, n - 1, msg)

    check(f, tuple(args), order, "")

