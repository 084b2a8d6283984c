"""Autodiff and batching rules of the reductions, cumulative reductions and ``dot_general``.

Gradients are checked numerically (``check_grads``, fwd and rev, order 2, float64), the
non-differentiable reductions give float0 tangents, and ``vmap`` is compared with a Python
loop over the batch for batch axes at every position (and unbatched operands of
``dot_general``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import dtypes, lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

COVERED: frozenset[str] = frozenset(
    {
        "reduce_sum",
        "reduce_max",
        "reduce_min",
        "reduce_prod",
        "reduce_and",
        "reduce_or",
        "reduce_xor",
        "argmax",
        "argmin",
        "cumsum",
        "cumprod",
        "cummax",
        "cummin",
        "dot_general",
    }
)

F64 = np.float64


def _rand(shape: Sequence[int], dtype: Any = np.float32, seed: int = 0) -> np.ndarray[Any, Any]:
    """Standard normal values (distinct almost surely, so max/min have no ties)."""
    return np.random.default_rng(seed).standard_normal(tuple(shape)).astype(dtype)


Fn = Callable[[Any], Any]

# (id, function of one array, input shape)
UNARY_GRAD: list[tuple[str, Fn, tuple[int, ...]]] = [
    ("reduce_sum_0", lambda x: lax.reduce_sum(x, (0,)), (3, 4)),
    ("reduce_sum_02", lambda x: lax.reduce_sum(x, (0, 2)), (2, 3, 4)),
    ("reduce_sum_none", lambda x: lax.reduce_sum(x, ()), (2, 3)),
    ("reduce_max_1", lambda x: lax.reduce_max(x, (1,)), (3, 4)),
    ("reduce_max_02", lambda x: lax.reduce_max(x, (0, 2)), (2, 3, 4)),
    ("reduce_min_0", lambda x: lax.reduce_min(x, (0,)), (3, 4)),
    ("reduce_min_all", lambda x: lax.reduce_min(x, (0, 1)), (3, 4)),
    ("reduce_prod_1", lambda x: lax.reduce_prod(x, (1,)), (3, 4)),
    ("reduce_prod_odd", lambda x: lax.reduce_prod(x, (0, 2)), (3, 2, 5)),
    ("cumsum_0", lambda x: lax.cumsum(x, 0), (5, 3)),
    ("cumsum_1_rev", lambda x: lax.cumsum(x, 1, reverse=True), (3, 5)),
    ("cumprod_1", lambda x: lax.cumprod(x, 1), (3, 5)),
    ("cumprod_0_rev", lambda x: lax.cumprod(x, 0, reverse=True), (6, 2)),
    ("cummax_1", lambda x: lax.cummax(x, 1), (3, 5)),
    ("cummax_0_rev", lambda x: lax.cummax(x, 0, reverse=True), (7, 2)),
    ("cummin_0", lambda x: lax.cummin(x, 0), (6, 3)),
    ("cummin_1_rev", lambda x: lax.cummin(x, 1, reverse=True), (2, 5)),
]


@pytest.mark.parametrize(
    ("fn", "shape"), [c[1:] for c in UNARY_GRAD], ids=[c[0] for c in UNARY_GRAD]
)
def test_unary_grads(fn: Fn, shape: tuple[int, ...]) -> None:
    with enable_x64(True):
        check_grads(fn, (_rand(shape, F64),), 2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name", ["reduce_max_1", "reduce_prod_1", "cumprod_1"])
def test_unary_grads_float32(name: str) -> None:
    fn, shape = {c[0]: c[1:] for c in UNARY_GRAD}[name]
    check_grads(fn, (_rand(shape),), 1, modes=("fwd", "rev"), atol=1e-2, rtol=1e-2)


def test_reduce_max_ties_average_the_tangent() -> None:
    x = np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]], np.float32)
    t = np.array([[1.0, 2.0, 4.0], [3.0, 6.0, 9.0]], np.float32)
    out, t_out = jax.jvp(lambda v: lax.reduce_max(v, (1,)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(out), [3.0, 2.0])
    np.testing.assert_allclose(np.asarray(t_out), [3.0, 6.0])
    _, t_min = jax.jvp(lambda v: lax.reduce_min(v, (1,)), (x,), (t,))
    np.testing.assert_allclose(np.asarray(t_min), [1.0, 6.0])


def _prod_grad_expected(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """d prod(row) / d x[i, k] = product of the row without element k."""
    out = np.empty_like(x)
    for i, k in np.ndindex(*x.shape):
        out[i, k] = np.prod(np.delete(x[i], k))
    return out


def test_reduce_prod_grad_with_zeros() -> None:
    x = np.array([[2.0, 0.0, 3.0], [0.0, 0.0, 4.0], [1.0, 2.0, 3.0]], np.float32)
    g = jax.grad(lambda v: jnp.sum(lax.reduce_prod(v, (1,))))(x)
    np.testing.assert_allclose(np.asarray(g), _prod_grad_expected(x))
    np.testing.assert_allclose(np.asarray(g), [[0, 6, 0], [0, 0, 0], [6, 3, 2]])
    with enable_x64(True):
        check_grads(lambda v: lax.reduce_prod(v, (1,)), (x.astype(F64),), 2)


def _cumprod_grad_expected(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """d sum_i cumprod(x)_i / d x_k = sum over i >= k of the prefix product without x_k."""
    n = x.shape[0]
    return np.array([sum(np.prod(np.delete(x[: i + 1], k)) for i in range(k, n)) for k in range(n)])


@pytest.mark.parametrize("reverse", [False, True])
def test_cumprod_grad_with_zeros(reverse: bool) -> None:
    x = np.array([2.0, 0.0, 3.0, 0.0, 4.0, 5.0], np.float32)
    g = jax.grad(lambda v: jnp.sum(lax.cumprod(v, 0, reverse=reverse)))(x)
    expected = _cumprod_grad_expected(x[::-1])[::-1] if reverse else _cumprod_grad_expected(x)
    np.testing.assert_allclose(np.asarray(g), expected)
    assert np.all(np.isfinite(np.asarray(g)))


@pytest.mark.parametrize(
    ("fn", "expected"),
    [
        (lambda v: lax.cummax(v, 0), [10, 20, 20, 40, 40, 60]),
        (lambda v: lax.cummax(v, 0, reverse=True), [60, 60, 60, 60, 60, 60]),
        (lambda v: lax.cummin(v, 0), [10, 10, 30, 30, 50, 50]),
        (lambda v: lax.cummin(v, 0, reverse=True), [50, 50, 50, 50, 50, 60]),
    ],
    ids=["cummax", "cummax_rev", "cummin", "cummin_rev"],
)
def test_cumulative_extremum_tangent_at_running_argextremum(fn: Fn, expected: list[float]) -> None:
    x = np.array([1.0, 3.0, 0.0, 5.0, -2.0, 7.0], np.float32)
    t = np.array([10.0, 20.0, 30.0, 40.0, 50.0, 60.0], np.float32)
    _, t_out = jax.jvp(fn, (x,), (t,))
    assert np.asarray(t_out).dtype == np.float32
    np.testing.assert_allclose(np.asarray(t_out), expected)


def test_linear_transposes() -> None:
    x = _rand((3, 4))
    ct = _rand((4,), seed=1)
    _, pull = jax.vjp(lambda v: lax.reduce_sum(v, (0,)), x)
    (g,) = pull(ct)
    np.testing.assert_allclose(np.asarray(g), np.broadcast_to(ct, (3, 4)))
    ct2 = _rand((3, 4), seed=2)
    for reverse in (False, True):
        _, pull = jax.vjp(functools.partial(lax.cumsum, axis=1, reverse=reverse), x)
        (g,) = pull(ct2)
        want = np.cumsum(ct2[:, ::-1], 1)[:, ::-1] if not reverse else np.cumsum(ct2, 1)
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-6)


# -- non-differentiable reductions: float0 tangents ----------------------------------------

NONDIFF: list[tuple[str, Fn, np.ndarray[Any, Any]]] = [
    ("reduce_and_bool", lambda x: lax.reduce_and(x, (1,)), np.array([[True, False], [True, True]])),
    ("reduce_or_int", lambda x: lax.reduce_or(x, (0,)), np.arange(6, dtype=np.int32).reshape(2, 3)),
    (
        "reduce_xor_int",
        lambda x: lax.reduce_xor(x, (1,)),
        np.arange(6, dtype=np.int32).reshape(2, 3),
    ),
    (
        "reduce_max_int",
        lambda x: lax.reduce_max(x, (1,)),
        np.arange(6, dtype=np.int32).reshape(2, 3),
    ),
    ("cumsum_int", lambda x: lax.cumsum(x, 1), np.arange(6, dtype=np.int32).reshape(2, 3)),
    ("argmax", lambda x: lax.argmax(x, 1, np.int32), _rand((3, 4))),
    ("argmin", lambda x: lax.argmin(x, 0, np.int32), _rand((3, 4))),
]


def _tangent_for(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    if x.dtype.kind in "biu":
        return np.zeros(x.shape, dtypes.float0)
    return np.ones_like(x)


@pytest.mark.parametrize(("fn", "x"), [c[1:] for c in NONDIFF], ids=[c[0] for c in NONDIFF])
def test_nondifferentiable_tangent_is_float0(fn: Fn, x: np.ndarray[Any, Any]) -> None:
    out, t_out = jax.jvp(fn, (x,), (_tangent_for(x),))
    assert np.asarray(t_out).dtype == dtypes.float0
    assert np.shape(t_out) == np.shape(out)


def test_argmax_inside_grad_is_constant() -> None:
    x = _rand((3, 4))

    def f(v: Any) -> Any:
        i = lax.argmax(v, 1, np.int32)
        return jnp.sum(lax.convert_element_type(i, np.float32) * lax.reduce_max(v, (1,)))

    g = np.asarray(jax.grad(f)(x))
    expected = np.zeros_like(x)
    expected[np.arange(3), x.argmax(1)] = x.argmax(1)
    np.testing.assert_allclose(g, expected)


# -- vmap of the reductions vs a Python loop ------------------------------------------------

# (id, function of one 2-D array, dtype)
UNARY_BATCH: list[tuple[str, Fn, Any]] = [
    ("reduce_sum_0", lambda x: lax.reduce_sum(x, (0,)), np.float32),
    ("reduce_sum_1", lambda x: lax.reduce_sum(x, (1,)), np.float32),
    ("reduce_sum_01", lambda x: lax.reduce_sum(x, (0, 1)), np.float32),
    ("reduce_max_1", lambda x: lax.reduce_max(x, (1,)), np.float32),
    ("reduce_min_0", lambda x: lax.reduce_min(x, (0,)), np.int32),
    ("reduce_prod_1", lambda x: lax.reduce_prod(x, (1,)), np.float32),
    ("reduce_and_0", lambda x: lax.reduce_and(x, (0,)), np.bool_),
    ("reduce_or_1", lambda x: lax.reduce_or(x, (1,)), np.int32),
    ("reduce_xor_01", lambda x: lax.reduce_xor(x, (0, 1)), np.int32),
    ("argmax_0", lambda x: lax.argmax(x, 0, np.int32), np.float32),
    ("argmin_1", lambda x: lax.argmin(x, 1, np.int32), np.float32),
    ("cumsum_0", lambda x: lax.cumsum(x, 0), np.float32),
    ("cumsum_1_rev", lambda x: lax.cumsum(x, 1, reverse=True), np.float32),
    ("cumprod_1", lambda x: lax.cumprod(x, 1), np.float32),
    ("cummax_0_rev", lambda x: lax.cummax(x, 0, reverse=True), np.float32),
    ("cummin_1", lambda x: lax.cummin(x, 1), np.int32),
]


def _batch_input(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray[Any, Any]:
    if np.dtype(dtype) == np.bool_:
        return np.random.default_rng(seed).random(shape) < 0.7
    if np.dtype(dtype).kind == "i":
        return np.random.default_rng(seed).integers(-8, 8, shape).astype(dtype)
    return _rand(shape, dtype, seed)


@pytest.mark.parametrize("in_axis", [0, 1, 2])
@pytest.mark.parametrize(
    ("fn", "dtype"), [c[1:] for c in UNARY_BATCH], ids=[c[0] for c in UNARY_BATCH]
)
def test_unary_vmap(fn: Fn, dtype: Any, in_axis: int) -> None:
    x = _batch_input((3, 4, 5), dtype)
    got = np.asarray(jax.vmap(fn, in_axes=in_axis)(x))
    want = np.stack([np.asarray(fn(np.take(x, i, axis=in_axis))) for i in range(x.shape[in_axis])])
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_nested_vmap_and_vmap_of_grad() -> None:
    x = _rand((2, 3, 4, 5))
    f = lambda v: lax.reduce_max(v, (0,))
    got = jax.vmap(jax.vmap(f, in_axes=1), in_axes=3)(x)
    want = np.stack([np.stack([x[:, j, :, i].max(0) for j in range(3)]) for i in range(5)])
    np.testing.assert_allclose(np.asarray(got), want)
    g = lambda v: jnp.sum(lax.cumprod(v, 0))
    y = _rand((3, 4))
    got_g = jax.vmap(jax.grad(g), in_axes=1)(y)
    want_g = np.stack([np.asarray(jax.grad(g)(y[:, i])) for i in range(4)])
    np.testing.assert_allclose(np.asarray(got_g), want_g, rtol=1e-5)


# -- dot_general -----------------------------------------------------------------------------

DNums = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]

# (id, lhs shape, rhs shape, dimension numbers)
DOTS: list[tuple[str, tuple[int, ...], tuple[int, ...], DNums]] = [
    ("matmul", (3, 4), (4, 5), (((1,), (0,)), ((), ()))),
    ("vecvec", (4,), (4,), (((0,), (0,)), ((), ()))),
    ("matvec_t", (4, 3), (4,), (((0,), (0,)), ((), ()))),
    ("outer", (3,), (2,), (((), ()), ((), ()))),
    ("bmm", (2, 3, 4), (2, 4, 5), (((2,), (1,)), ((0,), (0,)))),
    ("mixed", (3, 2, 4, 5), (5, 2, 4, 6), (((2, 3), (2, 0)), ((1,), (1,)))),
    ("batch_last", (4, 3, 2), (2, 3, 5), (((1,), (1,)), ((2,), (0,)))),
]


def _dot(dn: DNums, **kw: Any) -> Callable[[Any, Any], Any]:
    return lambda a, b: lax.dot_general(a, b, dn, **kw)


@pytest.mark.parametrize(("ls", "rs", "dn"), [c[1:] for c in DOTS], ids=[c[0] for c in DOTS])
def test_dot_general_grads(ls: tuple[int, ...], rs: tuple[int, ...], dn: DNums) -> None:
    with enable_x64(True):
        check_grads(_dot(dn), (_rand(ls, F64), _rand(rs, F64, 1)), 2, modes=("fwd", "rev"))


@pytest.mark.parametrize(("ls", "rs", "dn"), [c[1:] for c in DOTS], ids=[c[0] for c in DOTS])
def test_dot_general_vjp_is_the_transposed_jvp(
    ls: tuple[int, ...], rs: tuple[int, ...], dn: DNums
) -> None:
    lhs, rhs = _rand(ls), _rand(rs, seed=1)
    out, pull = jax.vjp(_dot(dn), lhs, rhs)
    ct = _rand(np.shape(out), seed=2)
    g_lhs, g_rhs = pull(ct)
    assert np.shape(g_lhs) == ls and np.shape(g_rhs) == rs
    # The vjp is the jvp transposed: <ct, J(t_lhs, t_rhs)> == <g_lhs, t_lhs> + <g_rhs, t_rhs>.
    t_lhs, t_rhs = _rand(ls, seed=3), _rand(rs, seed=4)
    _, t_out = jax.jvp(_dot(dn), (lhs, rhs), (t_lhs, t_rhs))
    lhs_side = float(np.sum(ct * np.asarray(t_out)))
    rhs_side = float(np.sum(np.asarray(g_lhs) * t_lhs) + np.sum(np.asarray(g_rhs) * t_rhs))
    np.testing.assert_allclose(lhs_side, rhs_side, rtol=1e-4)


def _insert_batch(
    x: np.ndarray[Any, Any], axis: int | None, size: int, seed: int
) -> np.ndarray[Any, Any]:
    if axis is None:
        return x
    stacked = np.stack([x + np.float32(i) * _rand(x.shape, seed=seed + i) for i in range(size)])
    return np.moveaxis(stacked, 0, axis)


@pytest.mark.parametrize(
    "axes", [(0, 0), (1, 0), (0, None), (None, 0), (None, 1), (-1, None), (None, -1), (1, 2)]
)
@pytest.mark.parametrize(("ls", "rs", "dn"), [c[1:] for c in DOTS], ids=[c[0] for c in DOTS])
def test_dot_general_vmap(
    ls: tuple[int, ...], rs: tuple[int, ...], dn: DNums, axes: tuple[int | None, int | None]
) -> None:
    la, ra = (None if a is None else a % (len(s) + 1) for a, s in zip(axes, (ls, rs)))
    if (la is not None and la > len(ls)) or (ra is not None and ra > len(rs)):
        pytest.skip("batch axis beyond the operand's rank")
    b = 3
    lhs = _insert_batch(_rand(ls), la, b, 10)
    rhs = _insert_batch(_rand(rs, seed=1), ra, b, 20)
    f = _dot(dn)
    got = np.asarray(jax.vmap(f, in_axes=(la, ra))(lhs, rhs))
    pick = lambda x, a, i: x if a is None else np.take(x, i, axis=a)
    want = np.stack([np.asarray(f(pick(lhs, la, i), pick(rhs, ra, i))) for i in range(b)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_dot_general_preferred_element_type() -> None:
    lhs, rhs = _rand((3, 4), np.float16), _rand((4, 2), np.float16, 1)
    f = lambda a, b: lax.dot(a, b, preferred_element_type=np.float32)
    out, t_out = jax.jvp(f, (lhs, rhs), (np.ones_like(lhs), np.zeros_like(rhs)))
    assert np.asarray(out).dtype == np.float32 and np.asarray(t_out).dtype == np.float32
    np.testing.assert_allclose(
        np.asarray(t_out), np.ones((3, 4), np.float32) @ rhs.astype(np.float32), rtol=1e-3
    )
    _, pull = jax.vjp(f, lhs, rhs)
    g_lhs, g_rhs = pull(np.ones((3, 2), np.float32))
    assert np.asarray(g_lhs).dtype == np.float16 and np.asarray(g_rhs).dtype == np.float16
    np.testing.assert_allclose(
        np.asarray(g_lhs, np.float32), np.ones((3, 2)) @ rhs.T.astype(np.float32), rtol=1e-2
    )
    vm = jax.vmap(f, in_axes=(0, None))(np.stack([lhs, lhs]), rhs)
    assert np.asarray(vm).dtype == np.float32


def test_dot_general_integer_operands_have_float0_tangents() -> None:
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    b = np.arange(3, dtype=np.int8)
    f = lambda x, y: lax.dot(x, y, preferred_element_type=np.int32)
    z = np.zeros((2, 3), dtypes.float0), np.zeros((3,), dtypes.float0)
    out, t_out = jax.jvp(f, (a, b), z)
    np.testing.assert_array_equal(np.asarray(out), a.astype(np.int32) @ b.astype(np.int32))
    assert np.asarray(t_out).dtype == dtypes.float0


def test_dot_general_precision_is_kept_by_the_rules() -> None:
    dn: DNums = (((1,), (0,)), ((), ()))
    f = _dot(dn, precision=lax.Precision.HIGHEST)
    lhs, rhs = _rand((3, 4)), _rand((4, 5), seed=1)
    for g in (
        lambda a, b: jax.jvp(f, (a, b), (a, b))[1],
        lambda a, b: jax.vjp(f, a, b)[1](jnp.ones((3, 5), np.float32)),
        lambda a, b: jax.vmap(f, in_axes=(None, 1))(a, jnp.stack([b, b], 1)),
    ):
        text = str(jax.make_jaxpr(g)(lhs, rhs))
        n = text.count("dot_general[")
        assert n >= 1
        assert text.count("precision=(Precision.HIGHEST, Precision.HIGHEST)") == n, text
