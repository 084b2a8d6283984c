"""jax_core.scipy.stats against scipy.stats (float32)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.stats as ss

import jax_core as jax
import jax_core.numpy as jnp
import jax_core.scipy.stats as jst

X = np.linspace(-4, 6, 41).astype(np.float32)
U = np.linspace(0.01, 0.99, 25).astype(np.float32)
K = np.array([-1, 0, 1, 2, 3, 7, 2.5], np.float32)

CASES: list[tuple[str, str, tuple[Any, ...], np.ndarray]] = []
for _dist, _args in [("norm", (0.5, 2.0)), ("expon", (-1.0, 1.5)), ("laplace", (0.3, 1.2)), ("logistic", (0.3, 1.2)),
                     ("uniform", (-1.0, 3.0))]:
    for _m in ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]:
        if hasattr(getattr(jst, _dist), _m):
            CASES.append((_dist, _m, _args, U if _m in ("ppf", "isf") else X))
CASES += [
    ("beta", "logpdf", (2.0, 3.5), np.linspace(0.01, 0.99, 21).astype(np.float32)),
    ("beta", "pdf", (0.7, 1.5), np.linspace(-0.5, 1.5, 21).astype(np.float32)),
    ("gamma", "logpdf", (2.5, 0.0, 1.5), np.linspace(0.01, 9, 21).astype(np.float32)),
    ("gamma", "pdf", (0.8,), np.linspace(-1, 9, 21).astype(np.float32)),
    ("t", "logpdf", (3.0, 0.5, 2.0), X),
    ("t", "pdf", (7.5,), X),
    ("poisson", "logpmf", (3.5,), K),
    ("poisson", "pmf", (0.5, 1.0), K),
    ("bernoulli", "logpmf", (0.3,), K),
    ("bernoulli", "pmf", (0.3,), K),
    ("bernoulli", "cdf", (0.3,), K),
    ("bernoulli", "ppf", (0.3,), U),
]


@pytest.mark.parametrize("dist,method,args,x", CASES, ids=[f"{c[0]}.{c[1]}" for c in CASES])
def test_against_scipy(dist: str, method: str, args: tuple[Any, ...], x: np.ndarray) -> None:
    got = getattr(getattr(jst, dist), method)(x, *args)
    assert got.dtype == np.float32
    want = getattr(getattr(ss, dist), method)(x.astype(np.float64), *args)
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-5, atol=2e-6)


def test_multivariate_normal() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 3))
    cov = (a @ a.T + np.eye(3)).astype(np.float32)
    mean = rng.standard_normal(3).astype(np.float32)
    x = rng.standard_normal((2, 4, 3)).astype(np.float32)
    want = ss.multivariate_normal(mean, cov).logpdf(x)
    np.testing.assert_allclose(np.asarray(jst.multivariate_normal.logpdf(x, mean, cov)), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jst.multivariate_normal.pdf(x[0, 0], mean, cov)), np.exp(want[0, 0]), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jst.multivariate_normal.logpdf(np.float32(0.5), np.float32(0.0), np.float32(2.0))),
                               ss.norm.logpdf(0.5, 0, np.sqrt(2.0)), rtol=1e-6)
    g = jax.grad(lambda m: jst.multivariate_normal.logpdf(jnp.asarray(x[0, 0]), m, jnp.asarray(cov)))(jnp.asarray(mean))
    np.testing.assert_allclose(np.asarray(g), np.linalg.solve(cov, x[0, 0] - mean), rtol=1e-4)


def test_grads_and_jit() -> None:
    assert float(jax.grad(jst.norm.logpdf)(1.0, 0.0, 2.0)) == pytest.approx(-0.25)
    assert float(jax.grad(jst.norm.cdf)(0.0)) == pytest.approx(1 / np.sqrt(2 * np.pi))
    assert float(jax.grad(jst.gamma.logpdf)(2.0, 3.0)) == pytest.approx(0.0)
    f = jax.jit(jst.t.logpdf)
    np.testing.assert_allclose(np.asarray(f(X, 4.0)), ss.t.logpdf(X, 4.0), rtol=2e-5)
    v = jax.vmap(jst.poisson.logpmf, in_axes=(0, None))(jnp.arange(4.0), 2.0)
    np.testing.assert_allclose(np.asarray(v), ss.poisson.logpmf(np.arange(4), 2.0), rtol=1e-5)


# -- CDFs on lax.igamma / lax.igammac / lax.betainc ---------------------------------------------------
B01 = np.linspace(-0.2, 1.2, 29)
G = np.concatenate([[-1.0, 0.0], np.linspace(0.01, 30, 40)])
CDF_CASES: list[tuple[str, str, tuple[Any, ...], np.ndarray]] = [
    (dist, m, args, x)
    for dist, args, x in [
        ("beta", (2.0, 3.5), B01), ("beta", (0.6, 0.8, -0.1, 1.3), B01), ("beta", (12.0, 30.0), B01),
        ("gamma", (2.5,), G), ("gamma", (0.4, 0.5, 2.0), G), ("gamma", (40.0,), G * 2),
        ("chi2", (3.0,), G), ("chi2", (17.0, 1.0, 0.5), G),
    ]
    for m in ("cdf", "logcdf", "sf", "logsf")
] + [("chi2", m, (4.0,), G) for m in ("logpdf", "pdf")] + [
    ("poisson", "cdf", (3.5,), np.array([-1.0, 0, 1, 2.5, 3, 7, 20])),
    ("poisson", "cdf", (40.0, 2.0), np.array([0.0, 10, 41, 60, 100])),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dist,method,args,x", CDF_CASES, ids=[f"{c[0]}.{c[1]}{c[2]}" for c in CDF_CASES])
def test_cdfs_against_scipy(dist: str, method: str, args: tuple[Any, ...], x: np.ndarray, dtype: type[np.floating[Any]]) -> None:
    from jax_core._src.config import enable_x64

    xs = x.astype(dtype)
    with enable_x64(dtype == np.float64):
        got = getattr(getattr(jst, dist), method)(xs, *(dtype(a) for a in args))
    assert got.dtype == dtype
    with np.errstate(divide="ignore"):
        want = getattr(getattr(ss, dist), method)(xs.astype(np.float64), *args)
    rtol, atol = (2e-4, 2e-6) if dtype == np.float32 else (1e-9, 1e-13)
    if method in ("logcdf", "logsf", "logpdf"):  # log of a tiny probability: relative error of the value
        atol = atol * 10
        # as in JAX, log(cdf) is -inf where cdf underflows the dtype
        want = np.where(want < np.log(np.finfo(dtype).tiny), np.asarray(got, np.float64), want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


def test_cdf_grads_jit_vmap() -> None:
    from jax_core._src.config import enable_x64

    with enable_x64(True):
        g = float(jax.grad(jst.gamma.cdf)(2.0, 3.0))
        assert g == pytest.approx(ss.gamma.pdf(2.0, 3.0), rel=1e-10)
        g = float(jax.grad(jst.beta.cdf)(0.3, 2.0, 3.0))
        assert g == pytest.approx(ss.beta.pdf(0.3, 2.0, 3.0), rel=1e-10)
        g = float(jax.grad(jst.chi2.sf)(2.0, 3.0))
        assert g == pytest.approx(-ss.chi2.pdf(2.0, 3.0), rel=1e-10)
        g = float(jax.grad(jst.gamma.cdf, argnums=1)(2.0, 3.0))
        h = 1e-6
        assert g == pytest.approx((ss.gamma.cdf(2.0, 3.0 + h) - ss.gamma.cdf(2.0, 3.0 - h)) / (2 * h), rel=1e-6)
    x = np.linspace(0.05, 0.95, 7).astype(np.float32)
    np.testing.assert_allclose(np.asarray(jax.jit(jst.beta.cdf)(x, 2.0, 3.0)), ss.beta.cdf(x, 2, 3), rtol=1e-5)
    v = jax.vmap(jst.gamma.cdf, in_axes=(None, 0))(np.float32(2.0), jnp.array([0.5, 1.0, 4.0]))
    np.testing.assert_allclose(np.asarray(v), ss.gamma.cdf(2.0, [0.5, 1.0, 4.0]), rtol=1e-5)


def test_poisson_entropy_matches_jax() -> None:
    from pathlib import Path

    from jax_core._src.config import enable_x64

    with np.load(Path(__file__).resolve().parent.parent / "data" / "lax_special_jax.npz") as npz:
        data = {k: npz[k] for k in npz.files if "poisson_entropy" in k}
    for dt in ("float32", "float64"):
        mu, want = data[f"poisson_entropy_{dt}/arg0"], data[f"poisson_entropy_{dt}/out0"]
        with enable_x64(dt == "float64"):
            got = np.asarray(jst.poisson.entropy(mu))
        assert got.dtype == want.dtype
        # float32: lgamma rounds differently from JAX's float32 lgamma
        np.testing.assert_allclose(got, want, rtol=2e-5 if dt == "float32" else 1e-12)
    np.testing.assert_allclose(want[:3], ss.poisson.entropy(mu[:3]), rtol=1e-9)  # (JAX truncates at 35 terms)
    with enable_x64(True):
        mu = data["grad_poisson_entropy/arg0"]
        g = jax.vmap(jax.grad(jst.poisson.entropy))(mu)
        np.testing.assert_allclose(np.asarray(g), data["grad_poisson_entropy/out0"], rtol=1e-10)
    assert jst.poisson.entropy(np.array([[1.0, 2.0]]), np.array([[0.0], [1.0]])).shape == (2, 2)
