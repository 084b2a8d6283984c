"""jax_core.numpy functions are differentiable: numerical gradient checks (float64) on a sample
that covers every module (math, reductions, manipulation, indexing, products, einsum, sorting,
statistics, numeric, linalg, fft)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import jax_core.numpy as jnp
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads

rng = np.random.default_rng(4)
X = rng.uniform(0.5, 2.0, (3, 4))
V = rng.uniform(-1, 1, 5)
S = rng.standard_normal((3, 3)) + 3 * np.eye(3)


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


CASES: list[tuple[str, Callable[..., Any], tuple[Any, ...]]] = [
    ("log10", jnp.log10, (X,)),
    ("logaddexp", jnp.logaddexp, (X, X[::-1])),
    ("hypot", jnp.hypot, (X, X[::-1])),
    ("sinc", jnp.sinc, (X,)),
    ("power", lambda x: jnp.power(x, 2.5), (X,)),
    ("var", lambda x: jnp.var(x, axis=0), (X,)),
    ("std_where", lambda x: jnp.std(x, where=x > 1.0), (X,)),
    ("nanmean", lambda x: jnp.nanmean(jnp.where(x > 1.5, jnp.nan, x)), (X,)),
    ("cumprod", lambda x: jnp.cumprod(x, axis=1), (X,)),
    ("max", lambda x: jnp.max(x, axis=1), (X,)),
    ("pad_reflect", lambda x: jnp.pad(x, 2, mode="reflect"), (X,)),
    ("roll_tile", lambda x: jnp.tile(jnp.roll(x, 1, 1), 2), (X,)),
    ("take_along_axis", lambda x: jnp.take_along_axis(x, jnp.argsort(x, 1), 1), (X,)),
    ("at_add", lambda x: jnp.asarray(x).at[jnp.array([0, 0, 2])].add(x[1]), (X,)),
    ("einsum", lambda x, y: jnp.einsum("ij,kj,k->i", x, y, y[:, 0]), (X, X)),
    ("tensordot_kron", lambda x: jnp.kron(jnp.tensordot(x, x, ((1,), (1,))), x[:1, :2]), (X,)),
    ("cross", lambda x: jnp.cross(x[:, :3], x[:, 1:]), (X,)),
    ("sort", lambda x: jnp.sort(x, axis=0), (X,)),
    ("median_quantile", lambda x: jnp.quantile(x, jnp.array([0.2, 0.7]), axis=1), (X,)),
    ("cov", lambda x: jnp.cov(x), (X,)),
    ("interp", lambda v: jnp.interp(v, jnp.linspace(-1.0, 1.0, 4), jnp.array([0.0, 1.0, 4.0, 9.0])), (V,)),
    ("convolve", lambda v: jnp.convolve(v, v[:3], "same"), (V,)),
    ("polyval", lambda v: jnp.polyval(v[:3], v), (V,)),
    ("trapezoid_gradient", lambda v: jnp.trapezoid(jnp.gradient(v) * v), (V,)),
    ("linalg_solve", lambda a: jnp.linalg.solve(a, jnp.ones(3)), (S,)),
    ("linalg_det_inv", lambda a: jnp.linalg.det(a) * jnp.linalg.inv(a), (S,)),
    ("linalg_norm_nuc", lambda a: jnp.linalg.norm(a, "nuc"), (S,)),
    ("linalg_pinv", lambda a: jnp.linalg.pinv(a[:, :2]), (S,)),
    ("linalg_eigh", lambda a: jnp.linalg.eigvalsh(a @ a.T), (S,)),
    ("fft", lambda v: jnp.abs(jnp.fft.rfft(v, n=8)), (V,)),
]


@pytest.mark.parametrize("name,fn,args", CASES, ids=[c[0] for c in CASES])
def test_grads(name: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    check_grads(fn, args, order=1, modes=["fwd", "rev"], atol=2e-4, rtol=2e-4)
