"""Autodiff and batching rules of the windowed reductions.

Sum/max/min pooling (with strides, padding and dilation) are checked numerically to order 2
in forward and reverse mode (float64); so are ``select_and_gather_add`` and
``select_and_scatter_add`` (linear in their first operand) and ``cumlogsumexp``; the generic
``reduce_window`` is checked in forward mode. Average and max pooling gradients of an NHWC
array are compared with a NumPy computation, and ``vmap`` with a Python loop over the batch
(batch axis at every position, unbatched operands).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import jax_core as jax
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.windowed import select_and_scatter as wr
from jax_core._src.lax.windowed.common import window_shape
from jax_core.test_util import check_grads

COVERED: frozenset[str] = frozenset(
    {
        "reduce_window_sum",
        "reduce_window_max",
        "reduce_window_min",
        "reduce_window",
        "select_and_gather_add",
        "select_and_scatter_add",
        "cumlogsumexp",
    }
)

F64 = np.float64
Fn = Callable[..., Any]


def _rand(shape: Sequence[int], dtype: Any = np.float32, seed: int = 0) -> np.ndarray[Any, Any]:
    """Standard normal values (distinct almost surely, so pooling has no ties)."""
    return np.random.default_rng(seed).standard_normal(tuple(shape)).astype(dtype)


def _pool(init: float, op: Fn, dims: Any, strides: Any, padding: Any, base: Any = None, wdil: Any = None) -> Fn:
    return lambda x: lax.reduce_window(x, init, op, dims, strides, padding, base, wdil)


POOLS: list[tuple[str, Fn, tuple[int, ...]]] = [
    ("sum_same_stride", _pool(0.0, lax.add, (2, 3), (2, 1), "SAME"), (5, 4)),
    ("sum_explicit_dil", _pool(0.0, lax.add, (2, 2), (1, 2), ((1, 0), (2, 1)), (2, 1), (1, 2)), (3, 5)),
    ("max_same_stride", _pool(-np.inf, lax.max, (3, 2), (2, 2), "SAME"), (5, 6)),
    ("max_explicit_base_dil", _pool(-np.inf, lax.max, (2, 2), (1, 1), ((1, 1), (0, 1)), (2, 1)), (3, 4)),
    ("min_valid_stride", _pool(np.inf, lax.min, (2, 2), (2, 1), "VALID"), (6, 3)),
    ("min_same_lower", _pool(np.inf, lax.min, (1, 3, 2), (1, 2, 1), "SAME_LOWER"), (2, 5, 3)),
    ("max_nhwc", _pool(-np.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "SAME"), (2, 5, 4, 3)),
    ("cumlogsumexp", lambda x: lax.cumlogsumexp(x, 1), (3, 5)),
    ("cumlogsumexp_rev", lambda x: lax.cumlogsumexp(x, 0, reverse=True), (4, 2)),
]


@pytest.mark.parametrize(("fn", "shape"), [c[1:] for c in POOLS], ids=[c[0] for c in POOLS])
def test_pool_grads(fn: Fn, shape: tuple[int, ...]) -> None:
    with enable_x64(True):
        check_grads(fn, (_rand(shape, F64),), 2, modes=("fwd", "rev"))


def test_max_pool_with_window_dilation_fwd_only() -> None:
    fn = _pool(-np.inf, lax.max, (2, 2), (1, 1), "SAME", None, (2, 1))
    with enable_x64(True):
        check_grads(fn, (_rand((5, 4), F64),), 2, modes=("fwd",))


@pytest.mark.parametrize("sel", ["ge", "le"])
def test_select_and_gather_scatter_grads(sel: str) -> None:
    prim = ew.ge_p if sel == "ge" else ew.le_p
    x = _rand((5, 6), F64, seed=1)
    dims, strides, pads = (2, 3), (2, 2), ((1, 0), (1, 1))
    with enable_x64(True):
        gather = lambda t: wr.select_and_gather_add(t, x, prim, dims, strides, pads, (1, 1), (1, 1))
        check_grads(gather, (_rand((5, 6), F64, seed=2),), 2, modes=("fwd", "rev"))
        source = _rand(np.shape(gather(x)), F64, seed=3)
        scatter = lambda s: wr.select_and_scatter_add(s, x, prim, dims, strides, pads)
        check_grads(scatter, (source,), 2, modes=("fwd", "rev"))
        # the transpose pair: <gather(t), s> == <t, scatter(s)>
        t = _rand((5, 6), F64, seed=4)
        lhs = float(np.sum(np.asarray(gather(t)) * source))
        rhs = float(np.sum(t * np.asarray(scatter(source))))
        np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


def test_generic_reduce_window_forward_mode() -> None:
    mul = _pool(1.0, lax.mul, (2, 2), (1, 2), "SAME")
    with enable_x64(True):
        check_grads(mul, (_rand((4, 5), F64),), 2, modes=("fwd",))

        def pair(x: Any, y: Any) -> Any:
            a, b = lax.reduce_window((x, y), (0.0, 1.0), lambda p, q: (p[0] + q[0] * q[1], p[1] * q[1]), (3,), (1,), "VALID")
            return a + b

        check_grads(pair, (_rand((6,), F64), _rand((6,), F64, seed=1)), 2, modes=("fwd",))


def test_generic_reduce_window_tangent_reaches_other_operand() -> None:
    # only y has a tangent, but the body mixes it into the first output: the carry fixpoint
    x, y = _rand((5,)), _rand((5,), seed=1)

    def f(y: Any) -> Any:
        return lax.reduce_window((x, y), (np.float32(0), np.float32(0)), lambda p, q: (p[0] + q[0] + p[1] * q[1], p[1] + q[1]), (2,), (1,), "VALID")[0]

    _, t = jax.jvp(f, (y,), (np.ones(5, np.float32),))
    eps = 1e-2
    fd = (np.asarray(f(y + eps)) - np.asarray(f(y - eps))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(t), fd, rtol=1e-2, atol=1e-2)


def _np_avg_pool_grad(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """d/dx sum(avgpool2x2(x)**2) for NHWC, stride 2, VALID."""
    n, h, w, c = x.shape
    pooled = x.reshape(n, h // 2, 2, w // 2, 2, c).mean(axis=(2, 4))
    return np.repeat(np.repeat(2 * pooled / 4, 2, axis=1), 2, axis=2)


def _np_max_pool_grad(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """d/dx sum(maxpool2x2(x)**2) for NHWC, stride 2, VALID (distinct values: one argmax)."""
    n, h, w, c = x.shape
    blocks = x.reshape(n, h // 2, 2, w // 2, 2, c)
    pooled = blocks.max(axis=(2, 4), keepdims=True)
    return (2 * pooled * (blocks == pooled)).reshape(x.shape)


def test_avg_and_max_pool_grads_nhwc_vs_numpy() -> None:
    x = _rand((2, 6, 4, 3), seed=7)
    dims = strides = (1, 2, 2, 1)

    def avg(v: Any) -> Any:
        return (lax.reduce_window(v, 0.0, lax.add, dims, strides, "VALID") / 4.0) ** 2

    def mx(v: Any) -> Any:
        return lax.reduce_window(v, -np.inf, lax.max, dims, strides, "VALID") ** 2

    g_avg = jax.grad(lambda v: avg(v).sum())(x)
    np.testing.assert_allclose(np.asarray(g_avg), _np_avg_pool_grad(x), rtol=1e-5, atol=1e-6)
    g_max = jax.grad(lambda v: mx(v).sum())(x)
    np.testing.assert_allclose(np.asarray(g_max), _np_max_pool_grad(x), rtol=1e-5, atol=1e-6)
    g_jit = jax.jit(jax.grad(lambda v: mx(v).sum()))(x)
    np.testing.assert_allclose(np.asarray(g_jit), np.asarray(g_max))


def test_integer_pooling_has_float0_tangent() -> None:
    from jax_core import dtypes

    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    for init, op in ((0, lax.add), (np.iinfo(np.int32).min, lax.max), (np.iinfo(np.int32).max, lax.min)):
        _, t = jax.jvp(_pool(init, op, (2, 2), (1, 1), "SAME"), (x,), (np.zeros(x.shape, dtypes.float0),))
        assert np.asarray(t).dtype == dtypes.float0


# -- vmap vs a Python loop ---------------------------------------------------------------------


def _check_vmap(fn: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> None:
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    got = np.asarray(jax.vmap(fn, in_axes=tuple(in_axes))(*args))
    want = np.stack([np.asarray(fn(*(a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)))) for i in range(size)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


VMAP_POOLS = [c for c in POOLS if c[0] != "max_nhwc"] + [
    ("generic_mul", _pool(1.0, lax.mul, (2, 2), (1, 2), "SAME"), (4, 5)),
]


@pytest.mark.parametrize(("fn", "shape"), [c[1:] for c in VMAP_POOLS], ids=[c[0] for c in VMAP_POOLS])
def test_vmap_pools(fn: Fn, shape: tuple[int, ...]) -> None:
    for axis in range(len(shape) + 1):
        batched = list(shape)
        batched.insert(axis, 3)
        _check_vmap(fn, [_rand(batched, seed=axis)], [axis])


@pytest.mark.parametrize("axes", [(0, 0), (1, None), (None, 2)])
def test_vmap_variadic_generic(axes: tuple[int | None, int | None]) -> None:
    shape = (4, 5)

    def f(x: Any, y: Any) -> Any:
        a, b = lax.reduce_window((x, y), (np.float32(1), np.float32(-np.inf)), lambda p, q: (p[0] * q[0], lax.max(p[1], q[1])), (2, 2), (1, 1), "VALID")
        return a + b

    args = []
    for i, ax in enumerate(axes):
        s = list(shape)
        if ax is not None:
            s.insert(ax, 3)
        args.append(_rand(s, seed=i))
    _check_vmap(f, args, list(axes))


@pytest.mark.parametrize("axes", [(0, 0), (1, None), (None, 2), (2, 1)])
@pytest.mark.parametrize("kind", ["gather", "scatter", "gather_jvp", "scatter_grad"])
def test_vmap_select_and_gather_scatter(axes: tuple[int | None, int | None], kind: str) -> None:
    dims, strides, pads = (2, 2), (2, 1), ((0, 1), (1, 0))
    shape = (5, 4)
    out_shape = window_shape(ShapedArray(shape, np.dtype(np.float32)), dims, strides, pads, (1, 1), (1, 1))

    def gather(t: Any, x: Any) -> Any:
        return wr.select_and_gather_add(t, x, ew.ge_p, dims, strides, pads, (1, 1), (1, 1))

    def scatter(s: Any, x: Any) -> Any:
        return wr.select_and_scatter_add(s, x, ew.le_p, dims, strides, pads)

    def gather_jvp(t: Any, x: Any) -> Any:
        return jax.jvp(lambda v: lax.reduce_window(v, -np.inf, lax.max, dims, strides, pads), (x,), (t,))[1]

    def scatter_grad(s: Any, x: Any) -> Any:
        return jax.vjp(lambda v: lax.reduce_window(v, -np.inf, lax.max, dims, strides, pads), x)[1](s)[0]

    fn = {"gather": gather, "scatter": scatter, "gather_jvp": gather_jvp, "scatter_grad": scatter_grad}[kind]
    first = shape if kind in ("gather", "gather_jvp") else out_shape
    args = []
    for i, (s0, ax) in enumerate(zip((first, shape), axes)):
        s = list(s0)
        if ax is not None:
            s.insert(ax, 3)
        args.append(_rand(s, seed=10 + i))
    _check_vmap(fn, args, list(axes))
