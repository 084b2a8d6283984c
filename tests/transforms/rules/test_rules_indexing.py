"""jvp, transpose and batching rules of the indexing primitives: slice, dynamic_slice,
dynamic_update_slice, gather and the scatters (scatter, scatter-add, -mul, -min, -max),
directly through lax and through NumPy indexing (``x[idx]``, ``x.at[idx]``).

Gradients are checked numerically (``check_grads``, float64) in forward and reverse mode;
``vmap`` is checked against a Python loop over the batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.config import enable_x64
from jax_core._src.core.avals import ShapedArray
from jax_core._src.interpreters.ad_util import UndefinedPrimal
from jax_core._src.lax.indexing import dimension_numbers as gs_dimension_numbers
from jax_core._src.lax.indexing import scatter as gs_scatter
from jax_core.test_util import check_grads

COVERED: frozenset[str] = frozenset(
    {
        "slice",
        "dynamic_slice",
        "dynamic_update_slice",
        "gather",
        "scatter",
        "scatter-add",
        "scatter-mul",
        "scatter-min",
        "scatter-max",
    }
)

Fn = Callable[..., Any]


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def _rand(*shape: int, seed: int = 0) -> np.ndarray[Any, Any]:
    return np.random.default_rng(seed + 7 * sum(shape)).normal(size=shape)


def _loop(f: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> np.ndarray[Any, Any]:
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = [
        f(*(a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)))
        for i in range(size)
    ]
    return np.stack([np.asarray(o) for o in outs])


def check_vmap(f: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> None:
    """``vmap(f)`` equals the loop; each in_axes entry batches that operand at that axis."""
    out = jax.vmap(f, in_axes=tuple(in_axes))(*args)
    np.testing.assert_allclose(np.asarray(out), _loop(f, args, in_axes), rtol=1e-12, atol=0)


def _batched(x: np.ndarray[Any, Any], axis: int | None, size: int = 3) -> np.ndarray[Any, Any]:
    """``x`` with a batch of ``size`` distinct variants stacked at ``axis`` (``None``: as is)."""
    if axis is None:
        return x
    if x.dtype.kind == "f":
        variants = [x * (k + 1) + k for k in range(size)]
    else:  # index arrays: cycle the values so each batch element reads elsewhere
        variants = [np.roll(x, k) for k in range(size)]
    return np.stack(variants, axis)


def check_vmap_axes(
    f: Fn, args: Sequence[np.ndarray[Any, Any]], axes_list: Sequence[Sequence[int | None]]
) -> None:
    for axes in axes_list:
        check_vmap(f, [_batched(a, ax) for a, ax in zip(args, axes)], axes)


def _grads(f: Fn, *args: Any, order: int = 2) -> None:
    check_grads(f, args, order=order, modes=("fwd", "rev"))


# -- slice, dynamic_slice, dynamic_update_slice ------------------------------------------


@pytest.mark.parametrize("strides", [None, (2, 3)])
def test_slice(strides: tuple[int, ...] | None) -> None:
    f = lambda x: lax.slice(x, (1, 0), (5, 4), strides)
    _grads(f, _rand(6, 5))
    check_vmap_axes(f, [_rand(6, 5)], [[0], [1], [2]])


def test_slice_transpose_values() -> None:
    x = _rand(6, 5)
    y, vjp = jax.vjp(lambda x: lax.slice(x, (1, 0), (6, 4), (2, 3)), x)
    ct = np.arange(y.size, dtype=np.float64).reshape(y.shape) + 1
    want = np.zeros((6, 5))
    want[1:6:2, 0:4:3] = ct
    np.testing.assert_array_equal(np.asarray(vjp(ct)[0]), want)


@pytest.mark.parametrize("starts", [(1, 2), (-1, 0), (9, 1)], ids=["inside", "negative", "clamped"])
def test_dynamic_slice(starts: tuple[int, int]) -> None:
    idx = [np.int32(s) for s in starts]
    f = lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3))
    _grads(lambda x: f(x, *idx), _rand(5, 6))
    x = _rand(5, 6)
    i, j = np.array(idx[0]), np.array(idx[1])
    check_vmap_axes(f, [x, i, j], [[0, None, None], [1, None, None]])
    ii, jj = np.array([0, 3, 4], np.int32), np.array([2, 0, 5], np.int32)
    for axes in ([None, 0, None], [None, 0, 0], [0, 0, None], [2, None, 0]):
        args = [
            _batched(x, axes[0]),
            ii if axes[1] is not None else i,
            jj if axes[2] is not None else j,
        ]
        check_vmap(f, args, axes)


def test_dynamic_slice_grad_under_vmap() -> None:
    # Per-example gradients through batched start indices (a gather) and its transpose.
    x, ii = _rand(3, 5, 4), np.array([0, 2, 4], np.int32)
    g = jax.vmap(
        jax.grad(lambda x, i: jnp.sum(jnp.sin(lax.dynamic_slice(x, (i, np.int32(1)), (2, 2)))))
    )
    got = np.asarray(g(x, ii))
    for b in range(3):
        want = np.zeros((5, 4))
        s = min(int(ii[b]), 3)
        want[s : s + 2, 1:3] = np.cos(x[b, s : s + 2, 1:3])
        np.testing.assert_allclose(got[b], want, rtol=1e-12)


def test_dynamic_update_slice() -> None:
    i, j = np.int32(1), np.int32(3)
    f = lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j))
    _grads(lambda x, u: f(x, u, i, j), _rand(4, 5), _rand(2, 3))
    _grads(lambda x, u: f(x, u, np.int32(-1), np.int32(4)), _rand(4, 5), _rand(2, 3))  # clamped
    x, u = _rand(4, 5), _rand(2, 3)
    ii, jj = np.array([0, 2, 3], np.int32), np.array([4, 0, 1], np.int32)
    for axes in (
        [0, None, None, None],
        [None, 1, None, None],
        [1, 0, None, None],
        [None, None, 0, None],
        [0, None, 0, 0],
        [None, 2, None, 0],
    ):
        args = [
            _batched(x, axes[0]),
            _batched(u, axes[1]),
            ii if axes[2] is not None else i,
            jj if axes[3] is not None else j,
        ]
        check_vmap(f, args, axes)


# -- gather -------------------------------------------------------------------------------

ROWS = gs_dimension_numbers.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
WINDOWS = gs_dimension_numbers.GatherDimensionNumbers(
    offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)
)


@pytest.mark.parametrize("mode", ["promise_in_bounds", "clip", "fill"])
def test_gather_rows(mode: str) -> None:
    idx = np.array([[3], [0], [3], [1]], np.int32)
    if mode != "promise_in_bounds":
        idx = np.array([[3], [0], [7], [-2], [3]], np.int32)  # out of bounds rows
    fill = 2.5 if mode == "fill" else None  # a constant fill, so finite differences see 0
    f = lambda x, idx: lax.gather(x, idx, ROWS, (1, 3), mode=mode, fill_value=fill)
    _grads(lambda x: f(x, idx), _rand(5, 3))
    x = _rand(5, 3)
    check_vmap_axes(f, [x, idx], [[0, None], [2, None], [None, 0], [None, 1], [1, 0], [0, 1]])


def test_gather_windows_grad_and_vmap() -> None:
    idx = np.array([[0, 1], [2, 0], [1, 1]], np.int32)
    f = lambda x, idx: lax.gather(x, idx, WINDOWS, (2, 3), mode="clip")
    _grads(lambda x: f(x, idx), _rand(4, 5))
    check_vmap_axes(f, [_rand(4, 5), idx], [[0, None], [None, 0], [2, 1]])


def test_gather_transpose_values() -> None:
    # Repeated indices accumulate in the transpose (a scatter-add).
    x = _rand(5, 3)
    idx = np.array([[3], [0], [3]], np.int32)
    _, vjp = jax.vjp(lambda x: lax.gather(x, idx, ROWS, (1, 3)), x)
    ct = np.arange(9.0).reshape(3, 3)
    want = np.zeros((5, 3))
    np.add.at(want, idx[:, 0], ct)
    np.testing.assert_array_equal(np.asarray(vjp(ct)[0]), want)


def test_gather_batching_dims_transpose() -> None:
    # vmap over operand and indices makes a gather with batching dims; its transpose is a
    # scatter-add with batching dims (grad of vmap), and vmap of that batches again.
    x, idx = _rand(3, 5, 2), np.array([[[1], [4]], [[0], [0]], [[2], [3]]], np.int32)
    f = jax.vmap(lambda x, i: lax.gather(x, i, ROWS, (1, 2)))
    _grads(lambda x: f(x, idx), x)
    g = jax.grad(lambda x, i: jnp.sum(f(x, i) ** 2))
    check_vmap(g, [_batched(x, 0, 2), _batched(idx, 0, 2)], [0, 0])
    check_vmap(g, [_batched(x, 1, 2), idx], [1, None])


# -- scatters -----------------------------------------------------------------------------

SROWS = gs_dimension_numbers.ScatterDimensionNumbers(
    update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)
UNIQUE = np.array([[3], [0], [1]], np.int32)
REPEATED = np.array([[3], [0], [3], [1]], np.int32)
SCATTERS: dict[str, Callable[..., Any]] = {
    "scatter": lax.scatter,
    "scatter-add": lax.scatter_add,
    "scatter-mul": lax.scatter_mul,
    "scatter-min": lax.scatter_min,
    "scatter-max": lax.scatter_max,
}


def _scatter_fn(name: str, unique: bool, mode: str | None = None) -> Fn:
    op = SCATTERS[name]
    return lambda x, i, u: op(x, i, u, SROWS, unique_indices=unique, mode=mode)


def _spread(n: int, seed: int) -> np.ndarray[Any, Any]:
    """Distinct values 0.37 apart, offset by seed: no ties between operand (even seed) and
    updates (odd seed), so min/max are differentiable and finite differences see no kink."""
    return np.random.default_rng(seed).permutation(n) * 0.37 - 1.0 + 0.185 * (seed % 2)


@pytest.mark.parametrize("name", list(SCATTERS))
@pytest.mark.parametrize("unique", [True, False], ids=["unique", "repeated"])
def test_scatter_grads(name: str, unique: bool) -> None:
    idx = UNIQUE if unique else REPEATED
    x = _spread(15, 0).reshape(5, 3)
    u = _spread(3 * len(idx), 1).reshape(len(idx), 3)
    f = _scatter_fn(name, unique)
    if name == "scatter-mul" and not unique:
        # As in JAX: only the operand is differentiable with repeated indices.
        _grads(lambda x: f(x, idx, u), x)
        with pytest.raises(NotImplementedError, match="unique_indices=True"):
            jax.grad(lambda u: jnp.sum(f(x, idx, u)))(u)
        return
    order = 2
    _grads(lambda x, u: f(x, idx, u), x, u, order=order)


@pytest.mark.parametrize("name", list(SCATTERS))
def test_scatter_vmap(name: str) -> None:
    f = _scatter_fn(name, False)
    args = [_rand(5, 3), REPEATED, _rand(4, 3, seed=1)]
    check_vmap_axes(
        f,
        args,
        [
            [0, None, None],
            [None, None, 1],
            [None, 0, None],
            [1, None, 0],
            [0, 0, 0],
            [None, 1, 2],
            [2, 0, None],
        ],
    )


@pytest.mark.parametrize("name", ["scatter-min", "scatter-max"])
def test_scatter_extremal_ties(name: str) -> None:
    # Tied winners share the tangent equally (the operand too, if it is retained); as JAX.
    op = SCATTERS[name]
    x, u = np.array([1.0, 5.0]) * (1 if name == "scatter-min" else -1), np.array([1.0, 1.0])
    u = u * (1 if name == "scatter-min" else -1)
    dn = gs_dimension_numbers.ScatterDimensionNumbers((), (0,), (0,))
    idx = np.array([[0], [0]], np.int32)
    gx, gu = jax.grad(lambda x, u: jnp.sum(op(x, idx, u, dn)), argnums=(0, 1))(x, u)
    np.testing.assert_allclose(np.asarray(gx), [1 / 3, 1.0], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gu), [1 / 3, 1 / 3], rtol=1e-12)


def test_scatter_transpose_values() -> None:
    x, u = _rand(5, 3), _rand(3, 3)
    f = _scatter_fn("scatter", True)
    _, vjp = jax.vjp(lambda x, u: f(x, UNIQUE, u), x, u)
    ct = np.arange(15.0).reshape(5, 3)
    gx, gu = vjp(ct)
    want_x = ct.copy()
    want_x[UNIQUE[:, 0]] = 0
    np.testing.assert_array_equal(np.asarray(gx), want_x)
    np.testing.assert_array_equal(np.asarray(gu), ct[UNIQUE[:, 0]])


def test_scatter_transpose_requires_unique_indices() -> None:
    rule = gs_scatter.scatter_p.rule("transpose")
    params = {
        "update_jaxpr": None,
        "update_consts": (),
        "dimension_numbers": SROWS,
        "indices_are_sorted": False,
        "unique_indices": False,
        "mode": gs_dimension_numbers.GatherScatterMode.FILL_OR_DROP,
    }
    u = UndefinedPrimal(ShapedArray((4, 3), np.dtype(np.float64)))
    with pytest.raises(NotImplementedError, match="unique_indices=True"):
        rule(np.ones((5, 3)), np.ones((5, 3)), REPEATED, u, **params)


def test_scatter_add_clip_and_drop_modes() -> None:
    idx = np.array([[4], [9], [-3]], np.int32)  # the last two out of bounds
    for mode in ("clip", "drop"):
        f = _scatter_fn("scatter-add", False, mode)
        _grads(lambda x, u, f=f: f(x, idx, u), _rand(5, 3), _rand(3, 3))


def test_scatter_integer_indices_have_float0_tangents() -> None:
    f = lambda i: lax.scatter_add(np.ones((5, 3)), i, np.ones((4, 3)), SROWS)
    _, t = jax.jvp(f, (REPEATED,), (np.zeros(REPEATED.shape, dtypes.float0),))
    np.testing.assert_array_equal(np.asarray(t), np.zeros((5, 3)))
    g = jax.grad(lambda x, i: jnp.sum(lax.gather(x, i, ROWS, (1, 3))), argnums=1, allow_int=True)
    assert np.asarray(g(np.ones((5, 3)), REPEATED)).dtype == dtypes.float0


# -- through NumPy indexing ------------------------------------------------------------------

GETITEMS: list[tuple[str, Callable[[Any], Any]]] = [
    ("int_array", lambda x: x[np.array([3, 0, 3, -1])]),
    ("basic_slice", lambda x: x[1:3]),
    ("strided_reversed", lambda x: x[::-2, 1:]),
    ("int_and_slice", lambda x: x[:, 1]),
    ("mixed_advanced", lambda x: x[np.array([[0, 2], [1, 1]]), 1:3]),
    ("two_arrays", lambda x: x[np.array([0, 4]), np.array([2, 1])]),
    ("ellipsis_newaxis", lambda x: x[..., None, np.array([0, 0])]),
]


@pytest.mark.parametrize("f", [g[1] for g in GETITEMS], ids=[g[0] for g in GETITEMS])
def test_getitem(f: Callable[[Any], Any]) -> None:
    x = _rand(5, 4)
    _grads(f, x, order=1)  # second order: the lax gather/slice tests above
    check_vmap(f, [_batched(x, 0)], [0])
    check_vmap(f, [_batched(x, 2)], [2])


def test_getitem_batched_indices() -> None:
    x = _rand(5, 4)
    f = lambda x, i: jnp.asarray(x)[i]
    check_vmap(f, [x, np.array([0, 4, -1], np.int32)], [None, 0])  # traced scalar index
    check_vmap(f, [_batched(x, 0), np.array([0, 4, 2], np.int32)], [0, 0])
    check_vmap(f, [x, np.array([[0, 1], [4, 4], [2, 3]], np.int32)], [None, 0])
    check_vmap(f, [_batched(x, 1), np.array([[0, 1], [4, 4], [2, 3]], np.int32)], [1, 0])
    g = jax.vmap(jax.grad(lambda x, i: jnp.sum(jnp.sin(jnp.asarray(x)[i]))), in_axes=(None, 0))
    got = np.asarray(g(x, np.array([0, 4, 2], np.int32)))
    for b, i in enumerate([0, 4, 2]):
        want = np.zeros((5, 4))
        want[i] = np.cos(x[i])
        np.testing.assert_allclose(got[b], want, rtol=1e-12)


AT_UPDATES = ["set", "add", "mul", "min", "max"]


@pytest.mark.parametrize("kind", AT_UPDATES)
@pytest.mark.parametrize(
    "index",
    [np.array([3, 0, 3]), (slice(1, 3), 2), np.array([[0, 4]])],
    ids=["repeated", "slice", "2d"],
)
def test_at_update(kind: str, index: Any) -> None:
    x = _spread(20, 2).reshape(5, 4)
    shape = np.shape(np.zeros((5, 4))[index])
    u = _spread(int(np.prod(shape)), 3).reshape(shape)

    def f(x: Any, u: Any) -> Any:
        return getattr(jnp.asarray(x).at[index], kind)(u)

    if kind == "mul":
        _grads(lambda x: f(x, u), x)  # gradients wrt updates need unique indices (as JAX)
    else:
        _grads(f, x, u, order=2 if isinstance(index, np.ndarray) and index.ndim == 1 else 1)
    check_vmap_axes(f, [x, u], [[0, None], [1, 0]])


def test_at_set_grad_values() -> None:
    # With repeated indices one update wins; only it gets a gradient, and the overwritten
    # operand elements get none.
    x = np.arange(5.0)
    u = np.array([10.0, 20.0, 30.0])
    idx = np.array([1, 3, 1])
    out = jnp.asarray(x).at[idx].set(u)
    gx, gu = jax.grad(lambda x, u: jnp.sum(x.at[idx].set(u) * np.arange(1.0, 6.0)), argnums=(0, 1))(
        x, u
    )
    np.testing.assert_array_equal(np.asarray(gx), [1.0, 0.0, 3.0, 0.0, 5.0])
    winner = 0 if np.asarray(out)[1] == 10.0 else 2
    want_u = np.zeros(3)
    want_u[winner], want_u[1] = 2.0, 4.0
    np.testing.assert_array_equal(np.asarray(gu), want_u)
