"""jvp, transpose and batching rules of the shape primitives: broadcast_in_dim, concatenate,
iota, pad, reshape, rev, squeeze and transpose.

Gradients are checked numerically (``check_grads``, float64) in forward and reverse mode to
second order; ``vmap`` is checked against a Python loop over the batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from jax_core.test_util import check_grads

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.config import enable_x64
from jax_core._src.interpreters.ad_util import Zero
from jax_core._src.lax.shape import assembly as shape_assembly

COVERED: frozenset[str] = frozenset(
    {"broadcast_in_dim", "concatenate", "iota", "pad", "reshape", "rev", "squeeze", "transpose"}
)

Fn = Callable[..., Any]


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def _rand(*shape: int, seed: int = 0) -> np.ndarray[Any, Any]:
    return np.random.default_rng(seed + sum(shape)).normal(size=shape)


def _loop(f: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> np.ndarray[Any, Any]:
    """``vmap(f, in_axes)(*args)`` as a Python loop over the batch."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = [
        f(*(a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)))
        for i in range(size)
    ]
    return np.stack([np.asarray(o) for o in outs])


def check_vmap(f: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> None:
    out = jax.vmap(f, in_axes=tuple(in_axes))(*args)
    np.testing.assert_allclose(np.asarray(out), _loop(f, args, in_axes), rtol=1e-12, atol=0)


# (id, function of float operands, operand shapes)
CASES: list[tuple[str, Fn, list[tuple[int, ...]]]] = [
    ("broadcast_in_dim", lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), [(3, 1)]),
    ("broadcast_in_dim_unsorted", lambda x: lax.broadcast_in_dim(x, (2, 3), (1, 0)), [(3, 2)]),
    ("broadcast_in_dim_scalar", lambda x: lax.broadcast_in_dim(x, (2, 2), ()), [()]),
    ("concatenate", lambda x, y: lax.concatenate([x, y, x], 1), [(2, 3), (2, 1)]),
    ("concatenate_const", lambda x: lax.concatenate([np.ones((2, 2)), x], 0), [(1, 2)]),
    ("pad", lambda x, v: lax.pad(x, v, [(1, 2, 0), (0, 1, 2)]), [(2, 3), ()]),
    ("pad_negative", lambda x, v: lax.pad(x, v, [(-1, 2, 1), (2, -2, 0)]), [(3, 4), ()]),
    ("pad_const_value", lambda x: lax.pad(x, np.float64(0), [(-1, -1, 2)]), [(4,)]),
    ("reshape", lambda x: lax.reshape(x, (6, 4)), [(2, 3, 4)]),
    ("reshape_dimensions", lambda x: lax.reshape(x, (4, 6), (2, 0, 1)), [(2, 3, 4)]),
    ("rev", lambda x: lax.rev(x, (0, 2)), [(2, 3, 4)]),
    ("squeeze", lambda x: lax.squeeze(x, (0, 2)), [(1, 3, 1, 2)]),
    ("transpose", lambda x: lax.transpose(x, (2, 0, 1)), [(2, 3, 4)]),
]


@pytest.mark.parametrize("f,shapes", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_grads(f: Fn, shapes: list[tuple[int, ...]]) -> None:
    args = [_rand(*s, seed=i) for i, s in enumerate(shapes)]
    check_grads(lambda *a: jnp.sin(f(*a)), tuple(args), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("f,shapes", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_vmap(f: Fn, shapes: list[tuple[int, ...]]) -> None:
    size = 3
    # Every operand batched at axis 0, then at its last axis; then each operand alone.
    for last in (False, True):
        args = [_rand(*((*s, size) if last else (size, *s)), seed=i) for i, s in enumerate(shapes)]
        check_vmap(f, args, [len(s) if last else 0 for s in shapes])
    if len(shapes) > 1:
        for k in range(len(shapes)):
            args = [_rand(*((size, *s) if i == k else s), seed=i) for i, s in enumerate(shapes)]
            check_vmap(f, args, [0 if i == k else None for i in range(len(shapes))])


def test_transpose_values() -> None:
    # The transposes against explicit expectations (not just consistency with jvp).
    x = _rand(3, 1)
    _, vjp = jax.vjp(lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), x)
    (ct,) = vjp(np.ones((2, 3, 4)))
    np.testing.assert_allclose(np.asarray(ct), np.full((3, 1), 8.0))
    x = np.arange(12.0).reshape(3, 4)
    y, vjp = jax.vjp(lambda x: lax.pad(x, np.float64(0), [(-1, 1, 1), (1, -2, 0)]), x)
    ct = np.arange(y.size, dtype=np.float64).reshape(y.shape)
    (got,) = vjp(ct)
    # pad(x) puts x[1:, :2] at positions [1::2, 1:]; its transpose reads them back.
    want = np.zeros((3, 4))
    want[1:, :2] = ct[1::2, 1:]
    np.testing.assert_allclose(np.asarray(got), want)


def test_pad_batched_padding_value() -> None:
    x, v = _rand(2, 3), np.array([1.0, -2.0, 5.0])
    f = lambda x, v: lax.pad(x, v, [(1, 1, 1), (0, 2, 0)])
    check_vmap(f, [x, v], [None, 0])
    check_vmap(f, [np.stack([x, 2 * x, 3 * x], 1), v], [1, 0])


def test_integer_operands_have_float0_tangents() -> None:
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    for f in (
        lambda x: lax.reshape(x, (3, 2)),
        lambda x: lax.transpose(x, (1, 0)),
        lambda x: lax.pad(x, np.int32(7), [(1, 0, 1), (0, 1, 0)]),
        lambda x: lax.concatenate([x, x], 0),
        lambda x: lax.broadcast_in_dim(x, (4, 2, 3), (1, 2)),
    ):
        _, t = jax.jvp(f, (x,), (np.zeros(x.shape, dtypes.float0),))
        assert np.asarray(t).dtype == dtypes.float0


def test_iota_rules() -> None:
    params = {"dtype": np.dtype(np.float32), "shape": (2, 3), "dimension": 1, "sharding": None}
    out, t = shape_assembly.iota_p.rule("jvp")([], [], **params)
    assert isinstance(t, Zero) and t.aval.shape == (2, 3) and t.aval.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), np.broadcast_to(np.arange(3.0), (2, 3)))
    params["dtype"] = np.dtype(np.int32)
    _, t = shape_assembly.iota_p.rule("jvp")([], [], **params)
    assert isinstance(t, Zero) and t.aval.dtype == dtypes.float0
    out, d = shape_assembly.iota_p.rule("batch")([], [], **params)
    assert d is None and np.asarray(out).shape == (2, 3)
    with pytest.raises(TypeError, match="iota takes no operands"):
        shape_assembly.iota_p.rule("batch")([np.ones(2)], [0], **params)
    # iota inside differentiated and batched functions is a constant.
    f = lambda x: x * lax.iota(np.float64, 4)
    np.testing.assert_allclose(
        np.asarray(jax.grad(lambda x: f(x).sum())(np.ones(4))), np.arange(4.0)
    )
    check_vmap(f, [_rand(3, 4)], [0])
