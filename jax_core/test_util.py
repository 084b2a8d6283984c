"""Testing helpers: ``check_grads`` compares jvp and vjp with finite differences, as JAX's does."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.transforms.ad_api import jvp, vjp
from jax_core._src.tree.tree_util import tree_flatten, tree_map

__all__ = ["check_grads", "check_jvp", "check_vjp"]

_EPS = 1e-4
_DEFAULT_TOL: dict[str, float] = {
    "float16": 1e-2,
    "bfloat16": 1e-1,
    "float32": 2e-3,
    "float64": 1e-5,
    "complex64": 1e-3,
    "complex128": 1e-5,
}


def _tol(tol: float | None, leaves: Sequence[Any]) -> float:
    if tol is not None:
        return tol
    return max((_DEFAULT_TOL.get(get_aval(x).dtype.name, 1e-5) for x in leaves), default=1e-5)


def _host(x: Any) -> np.ndarray[Any, Any]:
    return np.asarray(x)


def _is_float0(x: Any) -> bool:
    return get_aval(x).dtype == dtypes.float0


def _rand_like(rng: np.random.RandomState, x: Any) -> Any:
    aval = get_aval(x)
    if not dtypes.issubdtype(aval.dtype, np.inexact):
        return np.zeros(aval.shape, dtypes.float0)
    r = rng.randn(*aval.shape)
    if dtypes.issubdtype(aval.dtype, np.complexfloating):
        r = r + 1j * rng.randn(*aval.shape)
    return np.asarray(r, aval.dtype)


def _add_scaled(x: Any, t: Any, eps: float) -> Any:
    if _is_float0(t):
        return x
    xh = _host(x)
    return np.asarray(xh + eps * _host(t).astype(xh.dtype), xh.dtype)


def _numerical_jvp(f: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], eps: float) -> Any:
    plus = f(*tree_map(lambda x, t: _add_scaled(x, t, eps), primals, tangents))
    minus = f(*tree_map(lambda x, t: _add_scaled(x, t, -eps), primals, tangents))
    return tree_map(lambda a, b: (_host(a).astype(np.result_type(_host(a).dtype, np.float32)) - _host(b)) / (2 * eps), plus, minus)


def _inner(xs: Any, ys: Any) -> complex:
    total = 0j
    for x, y in zip(tree_flatten(xs)[0], tree_flatten(ys)[0], strict=True):
        if _is_float0(x) or _is_float0(y):
            continue
        total += complex(np.sum(_host(x).astype(np.complex128) * _host(y).astype(np.complex128)))
    return total


def _assert_close(actual: Any, expected: Any, atol: float, rtol: float, err_msg: str) -> None:
    a_leaves, a_tree = tree_flatten(actual)
    e_leaves, e_tree = tree_flatten(expected)
    if a_tree != e_tree:
        raise AssertionError(f"{err_msg}: tree structures differ: {a_tree} vs {e_tree}")
    for a, e in zip(a_leaves, e_leaves):
        if _is_float0(a) or _is_float0(e):
            continue
        np.testing.assert_allclose(
            _host(a).astype(np.complex128), _host(e).astype(np.complex128), atol=atol, rtol=rtol, err_msg=err_msg
        )


def check_jvp(
    f: Callable[..., Any],
    f_jvp: Callable[..., Any],
    args: Sequence[Any],
    atol: float | None = None,
    rtol: float | None = None,
    eps: float = _EPS,
    err_msg: str = "",
) -> None:
    """Checks ``f_jvp(primals, tangents)`` against central finite differences of ``f``."""
    args = tuple(args)
    leaves = tree_flatten(args)[0]
    atol_, rtol_ = _tol(atol, leaves), _tol(rtol, leaves)
    rng = np.random.RandomState(0)
    tangents = tree_map(lambda x: _rand_like(rng, x), tuple(args))
    v_out, t_out = f_jvp(tuple(args), tangents)
    _assert_close(v_out, f(*args), atol_, rtol_, f"{err_msg} primal")
    t_expected = _numerical_jvp(f, args, tangents, eps)
    _assert_close(t_out, t_expected, atol_, rtol_, f"{err_msg} tangent")


def check_vjp(
    f: Callable[..., Any],
    f_vjp: Callable[..., Any],
    args: Sequence[Any],
    atol: float | None = None,
    rtol: float | None = None,
    eps: float = _EPS,
    err_msg: str = "",
) -> None:
    """Checks ``f_vjp`` by the inner-product identity ``<J t, c> == <t, J^T c>`` (J t by finite differences)."""
    args = tuple(args)
    leaves = tree_flatten(args)[0]
    atol_, rtol_ = _tol(atol, leaves), _tol(rtol, leaves)
    v_out, pullback = f_vjp(*args)
    _assert_close(v_out, f(*args), atol_, rtol_, f"{err_msg} primal")
    rng = np.random.RandomState(1)
    tangents = tree_map(lambda x: _rand_like(rng, x), tuple(args))
    t_out = _numerical_jvp(f, args, tangents, eps)
    cotangents = tree_map(lambda x: _rand_like(rng, x), v_out)
    ct_in = pullback(cotangents)
    ip = _inner(tangents, ct_in)
    ip_expected = _inner(t_out, cotangents)
    _assert_close(np.asarray(ip), np.asarray(ip_expected), atol_, rtol_, f"{err_msg} VJP inner product")


def check_grads(
    f: Callable[..., Any],
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol: float | None = None,
    rtol: float | None = None,
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

    check(f, args, order, "")

