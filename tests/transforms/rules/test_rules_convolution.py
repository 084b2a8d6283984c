"""Rules of conv_general_dilated: the bilinear jvp and the transposes w.r.t. lhs and rhs
(numerical gradients, order 2, forward and reverse, float64) through strides, lhs/rhs dilation,
negative padding, feature and batch groups and non-default layouts; batching against a Python
loop with either or both operands batched at different axes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jax_core as jax
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

COVERED = frozenset({"conv_general_dilated"})

rng = np.random.default_rng(2)


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


# (id, lhs shape, rhs shape, strides, padding, lhs_dilation, rhs_dilation, dimension_numbers, fgc, bgc)
GEOMETRIES: list[tuple[Any, ...]] = [
    ("1d_stride_same", (2, 2, 7), (3, 2, 3), (2,), "SAME", None, None, None, 1, 1),
    ("1d_lhs_dil_neg_pad", (1, 2, 5), (2, 2, 3), (2,), [(2, -1)], (3,), (1,), None, 1, 1),
    ("2d_dilations_nhwc", (1, 5, 4, 2), (2, 2, 2, 3), (2, 1), [(1, 0), (1, 2)], (1, 2), (2, 1), ("NHWC", "HWIO", "NHWC"), 1, 1),
    ("2d_feature_groups", (2, 4, 4, 3), (4, 2, 2, 2), (1, 2), "VALID", None, (2, 1), None, 2, 1),
    ("1d_depthwise_stride", (1, 3, 7), (6, 1, 3), (2,), [(1, 1)], None, (2,), None, 3, 1),
    ("1d_batch_groups", (4, 2, 6), (4, 2, 3), (2,), [(1, 0)], (1,), (2,), None, 1, 2),
    ("2d_batch_groups_cnhw", (2, 3, 4, 4), (2, 3, 2, 2), (1, 1), "SAME", None, None, ("CNHW", "IOHW", "NCHW"), 1, 3),
    ("3d_small", (1, 2, 3, 3, 3), (2, 2, 2, 1, 2), (1, 2, 1), [(0, 1), (1, 0), (1, 1)], (1, 1, 2), None, None, 1, 1),
]
IDS = [g[0] for g in GEOMETRIES]


def _conv_fn(case: tuple[Any, ...]) -> Callable[[Any, Any], Any]:
    _, _, _, strides, padding, ld, rd, dn, fgc, bgc = case
    return lambda a, b: lax.conv_general_dilated(a, b, strides, padding, ld, rd, dn, fgc, bgc)


@pytest.mark.parametrize("case", GEOMETRIES, ids=IDS)
def test_grads_order_2(case: tuple[Any, ...]) -> None:
    f = _conv_fn(case)
    x, w = rng.standard_normal(case[1]), rng.standard_normal(case[2])
    check_grads(f, (x, w), order=2, modes=("fwd", "rev"))


def test_grads_complex_and_transpose_wrapper() -> None:
    x = rng.standard_normal((1, 2, 5)) + 1j * rng.standard_normal((1, 2, 5))
    w = rng.standard_normal((3, 2, 2)) + 1j * rng.standard_normal((3, 2, 2))
    check_grads(lambda a, b: lax.conv_general_dilated(a, b, (2,), "SAME", rhs_dilation=(2,)), (x, w), order=1, modes=("fwd", "rev"))
    xt, wt = rng.standard_normal((1, 4, 2)), rng.standard_normal((3, 3, 2))
    f = lambda a, b: lax.conv_transpose(a, b, (2,), "SAME", transpose_kernel=True)
    check_grads(f, (xt, wt), order=2, modes=("fwd", "rev"))


def test_vjp_is_the_adjoint_and_keeps_dtypes() -> None:
    """<ct, conv(x, w)> == <vjp_x(ct), x> == <vjp_w(ct), w>; preferred_element_type cotangents
    come back in the operands' dtype, as in JAX."""
    case = GEOMETRIES[3]
    f = _conv_fn(case)
    x, w = rng.standard_normal(case[1]), rng.standard_normal(case[2])
    out, vjp = jax.vjp(f, x, w)
    ct = rng.standard_normal(out.shape)
    gx, gw = vjp(ct)
    total = float(np.sum(ct * np.asarray(out)))
    np.testing.assert_allclose(float(np.sum(np.asarray(gx) * x)), total, rtol=1e-10)
    np.testing.assert_allclose(float(np.sum(np.asarray(gw) * w)), total, rtol=1e-10)
    x32, w32 = rng.standard_normal((1, 2, 5)).astype(np.float32), rng.standard_normal((3, 2, 2)).astype(np.float32)
    loss = lambda a, b: lax.conv(a, b, (1,), "SAME", preferred_element_type=np.float64).sum()
    gx32, gw32 = jax.grad(loss, (0, 1))(x32, w32)
    assert gx32.dtype == np.float32 and gw32.dtype == np.float32


def _batched(shape: tuple[int, ...], axis: int, size: int = 3) -> np.ndarray[Any, Any]:
    return np.moveaxis(rng.standard_normal((size, *shape)), 0, axis)


@pytest.mark.parametrize("case", GEOMETRIES, ids=IDS)
@pytest.mark.parametrize("which", ["both", "lhs", "rhs"])
def test_vmap_matches_loop(case: tuple[Any, ...], which: str) -> None:
    f = _conv_fn(case)
    ls, rs = case[1], case[2]
    for lax_, rax in ((0, 0), (len(ls), 1), (2, len(rs))):
        xb = _batched(ls, lax_) if which != "rhs" else rng.standard_normal(ls)
        wb = _batched(rs, rax) if which != "lhs" else rng.standard_normal(rs)
        in_axes = (lax_ if which != "rhs" else None, rax if which != "lhs" else None)
        got = jax.vmap(f, in_axes=in_axes)(xb, wb)
        want = np.stack([
            np.asarray(f(np.take(xb, i, lax_) if which != "rhs" else xb, np.take(wb, i, rax) if which != "lhs" else wb))
            for i in range(3)
        ])
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)


def test_vmap_size_zero_and_nested() -> None:
    case = GEOMETRIES[3]
    f = _conv_fn(case)
    x, w = rng.standard_normal((0, *case[1])), rng.standard_normal(case[2])
    out = jax.vmap(f, in_axes=(0, None))(x, w)
    assert out.shape == (0, *f(x[0] if len(x) else rng.standard_normal(case[1]), w).shape)
    # per-example gradients: vmap of grad batches the transposed convolutions
    xs, wb = rng.standard_normal((3, *case[1])), rng.standard_normal(case[2])
    grads = jax.vmap(jax.grad(lambda a, b: (f(a, b) ** 2).sum(), 1), in_axes=(0, None))(xs, wb)
    loop = np.stack([np.asarray(jax.grad(lambda a, b: (f(a, b) ** 2).sum(), 1)(xs[i], wb)) for i in range(3)])
    np.testing.assert_allclose(np.asarray(grads), loop, rtol=1e-10)


def test_patches_and_local_compose_with_transformations() -> None:
    """conv_general_dilated_patches/_local are compositions: gradients and vmap go through the
    conv and dot_general rules."""
    x, w = rng.standard_normal((1, 2, 4, 3)), rng.standard_normal((3, 8, 4, 2))
    local = lambda a, b: lax.conv_general_dilated_local(a, b, (1, 2), "SAME", (2, 2))  # noqa: E731
    check_grads(local, (x, w), order=2, modes=("fwd", "rev"))
    patches = lambda a: lax.conv_general_dilated_patches(a, (2, 2), (1, 1), "VALID")  # noqa: E731
    xb = rng.standard_normal((3, 1, 2, 4, 3))
    want = np.stack([np.asarray(patches(xb[i])) for i in range(3)])
    np.testing.assert_allclose(np.asarray(jax.vmap(patches)(xb)), want, rtol=1e-12)
