"""The rest of ``jax_core.scipy.stats`` (cauchy, gennorm, gumbel_l/r, pareto, truncnorm, vonmises,
wrapcauchy, dirichlet, betabinom, binom, geom, nbinom, multinomial, mode, rankdata, sem,
gaussian_kde) against live JAX (bit for bit: the same XLA operations in the same order), plus a
sanity check of the densities against SciPy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import scipy.stats as ss

import jax_core as jax
import jax_core.numpy as jnp
import jax_core.scipy.stats as jst
from tests.oracle.client import Call, Outcome, assert_same, live_fixture


def here(call: Call) -> Outcome:
    """jax_core's outcome of ``call`` (``tests.oracle.client.here`` over only the modules these
    expressions use, so a half-built unrelated submodule cannot break them)."""
    import jax_core.scipy.special  # noqa: F401
    from jax_core._src.config import enable_x64

    env = {"jax": jax, "jnp": jnp, "lax": jax.lax, "random": jax.random, "jsp": jax.scipy, "np": np, **call.inputs}
    with enable_x64(call.x64):
        try:
            value = eval(call.expr, env)
            return Outcome(leaves=tuple(np.asarray(v) for v in jax.tree_util.tree_leaves(value)))
        except Exception as err:  # noqa: BLE001  (compared with what JAX raised)
            return Outcome(error=type(err).__name__, message=str(err))

X = np.array([-np.inf, -4.0, -1.5, -0.0, 0.0, 0.3, 1.0, 2.5, 7.0, np.inf, np.nan], np.float32)
# All of one length, so that each eager operation compiles once for them all (on both sides).
Q = np.array([-0.1, 0.0, 1e-6, 0.1, 0.25, 0.5, 0.7, 0.999, 1.0, 1.1, np.nan], np.float32)
K = np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0, 2.5, np.nan], np.float32)
ANG = np.array([-7.0, -1.0, 0.0, 0.5, 1.5, 3.0, 6.0, 2 * np.pi, 7.0, 12.0, np.nan], np.float32)
X64 = X.astype(np.float64)

# distribution: (methods, extra positional parameters, the x array's name, the methods also run on
# float64). Every method runs on float32; float64 where the dtype picks constants (log_ndtr's
# thresholds in truncnorm, the incomplete gamma function in gennorm's cdf) and one method of each
# other distribution (their code is the same in either dtype).
CONT = {
    "cauchy": (["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], "", "x", ["logpdf"]),
    "gumbel_l": (["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], "", "x", ["logpdf"]),
    "gumbel_r": (["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], "", "x", ["logpdf"]),
    "pareto": (["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], ", 2.5", "x", ["logpdf"]),
    "gennorm": (["logpdf", "pdf", "cdf"], ", 1.5", "x", ["logpdf", "cdf"]),
    "truncnorm": (["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"], ", -1.0, 2.0", "x", ["logpdf", "logsf"]),
    "vonmises": (["logpdf", "pdf"], ", 2.0", "ang", ["logpdf"]),
    "wrapcauchy": (["logpdf", "pdf"], ", 0.4", "ang", ["logpdf"]),
}
EXPRS: list[tuple[str, dict[str, Any], bool]] = []
for _d, (_ms, _extra, _xn, _ms64) in CONT.items():
    for _m in _ms:
        EXPRS.append((f"jsp.stats.{_d}.{_m}({_xn}{_extra})", {}, False))
    for _m in _ms64:
        EXPRS.append((f"jsp.stats.{_d}.{_m}({'x64' if _xn == 'x' else 'ang.astype(np.float64)'}{_extra})", {}, True))
    EXPRS.append((f"jax.grad(lambda v: jsp.stats.{_d}.{_ms[0]}(v{_extra}))(0.75)", {}, False))
    EXPRS.append((f"jax.vmap(lambda v: jsp.stats.{_d}.{_ms[1]}(v{_extra}))({_xn}[1:-1])", {}, False))
EXPRS += [
    # loc / scale, broadcasting, weak scalars, integer inputs
    ("jsp.stats.cauchy.logpdf(x, 1.0, 2.0)", {}, False),
    ("jsp.stats.cauchy.cdf(jnp.arange(4), jnp.array([[0.5], [1.0]]), 2)", {}, False),
    ("jsp.stats.cauchy.ppf(q, 1.0, 2.0)", {}, False),
    ("jsp.stats.cauchy.isf(q, 1.0, 2.0)", {}, False),
    ("jsp.stats.cauchy.ppf(q.astype(np.float64))", {}, True),
    ("jsp.stats.cauchy.pdf(2)", {}, False),
    ("jsp.stats.cauchy.pdf(jnp.float16(0.5), jnp.bfloat16(1))", {}, False),
    ("jsp.stats.gumbel_l.logpdf(x, 0.5, jnp.array([-1.0, 0.0, 2.0])[:, None])", {}, False),
    ("jsp.stats.gumbel_r.logpdf(x, 0.5, jnp.array([-1.0, 0.0, 2.0])[:, None])", {}, False),
    ("jsp.stats.gumbel_l.ppf(q, 0.5, 2.0)", {}, False),
    ("jsp.stats.gumbel_r.ppf(q, 0.5, 2.0)", {}, False),
    ("jsp.stats.gumbel_r.ppf(q.astype(np.float64))", {}, True),
    ("jsp.stats.pareto.ppf(q, 2.0, 0.5, 3.0)", {}, False),
    ("jsp.stats.pareto.logpdf(x, jnp.array([0.5, 3.0])[:, None], 1.0, 2.0)", {}, False),
    ("jsp.stats.gennorm.logpdf(x, jnp.array([0.5, 1.0, 2.0, 8.0])[:, None])", {}, False),
    ("jsp.stats.gennorm.cdf(x, jnp.array([0.5, 1.0, 2.0, 8.0])[:, None])", {}, False),
    ("jsp.stats.truncnorm.logpdf(x, -1.0, 2.0, 0.5, 2.0)", {}, False),
    ("jsp.stats.truncnorm.logpdf(x, 2.0, -1.0)", {}, False),
    ("jsp.stats.truncnorm.logpdf(x, jnp.array([-9.0, 1.0, -3.0]), jnp.array([-8.0, 5.0, 3.0]))[..., None]", {}, False),
    ("jsp.stats.truncnorm.cdf(x[:, None], jnp.array([-9.0, 1.0, -3.0, 4.0]), jnp.array([-8.0, 5.0, 3.0, 30.0]))", {}, False),
    ("jsp.stats.truncnorm.sf(x[:, None], jnp.array([-9.0, 1.0, -3.0]), jnp.array([-8.0, 5.0, 3.0]), 1.0, 2.0)", {}, False),
    ("jsp.stats.truncnorm.logcdf(x64, -2.0, 3.0)", {}, True),
    ("jsp.stats.vonmises.logpdf(ang, jnp.array([-1.0, 0.0, 0.5, 30.0])[:, None])", {}, False),
    ("jsp.stats.wrapcauchy.logpdf(ang, jnp.array([-0.5, 0.0, 0.5, 1.0])[:, None])", {}, False),
    # discrete
    ("jsp.stats.binom.logpmf(k, 4, 0.3)", {}, False),
    ("jsp.stats.binom.pmf(k, 4, jnp.array([0.0, 0.3, 1.0])[:, None], 1)", {}, False),
    ("jsp.stats.binom.pmf(k, 0, 0.3)", {}, False),
    ("jsp.stats.binom.logpmf(k.astype(np.float64), 6.0, 0.25)", {}, True),
    ("jsp.stats.betabinom.logpmf(k, 4, 2.0, 3.0)", {}, False),
    ("jsp.stats.betabinom.pmf(k, jnp.array([-1.0, 0.0, 4.0])[:, None], 0.5, 1.5, 1)", {}, False),
    ("jsp.stats.betabinom.pmf(k, 4, jnp.array([-1.0, 0.0, 2.0])[:, None], 3.0)", {}, False),
    ("jsp.stats.betabinom.logpmf(k.astype(np.float64), 5, 2.0, 3.0)", {}, True),
    ("jsp.stats.geom.logpmf(k, 0.3)", {}, False),
    ("jsp.stats.geom.pmf(k, jnp.array([0.0, 0.3, 1.0])[:, None], 1)", {}, False),
    ("jsp.stats.nbinom.logpmf(k, 4, 0.3)", {}, False),
    ("jsp.stats.nbinom.pmf(k, 2.5, jnp.array([0.0, 0.3, 1.0])[:, None], 1)", {}, False),
    ("jsp.stats.multinomial.logpmf(jnp.array([1, 2, 1]), 4, jnp.array([0.2, 0.5, 0.3]))", {}, False),
    ("jsp.stats.multinomial.pmf(jnp.array([[1, 2, 1], [0, 0, 4], [1, 1, 1]]), 4, jnp.array([0.2, 0.5, 0.3]))", {}, False),
    ("jsp.stats.multinomial.pmf(jnp.array([0, 4]), jnp.array(4), jnp.array([0.0, 1.0]))", {}, False),
    ("jsp.stats.multinomial.logpmf(jnp.array([1.0, 2.0]), 3, jnp.array([0.5, 0.5]))", {}, False),
    ("jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([1.0, 2.0, 3.0]))", {}, False),
    ("jsp.stats.dirichlet.pdf(jnp.array([0.2, 0.3]), jnp.array([1.0, 2.0, 3.0]))", {}, False),
    ("jsp.stats.dirichlet.logpdf(jnp.array([[0.2, 0.5], [0.3, 0.6], [0.5, 0.1]]), jnp.array([1.5, 2.0, 0.5]))", {}, False),
    ("jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.9, 0.5]), jnp.array([1.0, 2.0, 3.0]))", {}, False),
    ("jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), jnp.array([[1.0, 2.0, 3.0]]))", {}, False),
    ("jsp.stats.dirichlet.logpdf(jnp.array([0.2]), jnp.array([1.0, 2.0, 3.0]))", {}, False),
    ("jsp.stats.multinomial.logpmf(jnp.array([1, 2]), 3, [0.5, 0.5])", {}, False),
    ("jsp.stats.cauchy.logpdf([1.0], 0.0, 1.0)", {}, False),
    # transformations
    ("jax.grad(jsp.stats.binom.logpmf, argnums=2)(2.0, 5.0, 0.3)", {}, False),
    ("jax.grad(jsp.stats.betabinom.logpmf, argnums=(2, 3))(2.0, 5.0, 1.5, 2.5)", {}, False),
    ("jax.grad(jsp.stats.nbinom.logpmf, argnums=(1, 2))(2.0, 5.0, 0.3)", {}, False),
    ("jax.grad(jsp.stats.geom.logpmf, argnums=1)(2.0, 0.3)", {}, False),
    ("jax.grad(lambda a: jsp.stats.dirichlet.logpdf(jnp.array([0.2, 0.3, 0.5]), a).sum())(jnp.array([1.0, 2.0, 3.0]))", {}, False),
    ("jax.grad(lambda p: jsp.stats.multinomial.logpmf(jnp.array([1, 2, 1]), 4, p))(jnp.array([0.2, 0.5, 0.3]))", {}, False),
    ("jax.vmap(jsp.stats.binom.pmf, in_axes=(0, None, 0))(k[:4], 4.0, jnp.array([0.1, 0.2, 0.3, 0.4]))", {}, False),
    ("jax.jit(jsp.stats.cauchy.ppf)(q)", {}, False),
    # (truncnorm's methods are jitted on both sides, as this counts: jit of one compiles again)
    ("str(jax.make_jaxpr(jsp.stats.truncnorm.logpdf)(1.0, -1.0, 2.0)).count('jit')", {}, False),
    ("jax.grad(lambda v: jsp.stats.gumbel_r.logsf(v))(jnp.float32(0.25))", {}, False),
    ("jax.grad(lambda v: jsp.stats.truncnorm.logcdf(v, -1.0, 2.0))(0.5)", {}, False),
    # sample statistics
    ("jsp.stats.mode(jnp.array([[1, 2, 2], [3, 3, 1]]))", {}, False),
    ("jsp.stats.mode(jnp.array([[1, 2, 2], [3, 3, 1]]), axis=1, keepdims=True)", {}, False),
    ("jsp.stats.mode(jnp.array([[1.0, 2.0, 2.0], [3.0, np.nan, 1.0]]), axis=None)", {}, False),
    ("jsp.stats.mode(jnp.array([[1.0, 2.0, 2.0], [3.0, np.nan, 1.0]]), axis=None, keepdims=True)", {}, False),
    ("jsp.stats.mode(jnp.zeros((0, 3)))", {}, False),
    ("jsp.stats.mode(5.0)", {}, False),
    ("jsp.stats.mode(jnp.arange(6).reshape(2, 3), axis=-1)", {}, False),
    ("jsp.stats.mode(jnp.arange(6).reshape(2, 3), axis=2)", {}, False),
    ("jsp.stats.mode(jnp.arange(6), nan_policy='omit')", {}, False),
    ("jsp.stats.mode(jnp.arange(6), nan_policy='raise')", {}, False),
    ("jsp.stats.mode(jnp.arange(6), nan_policy='bad')", {}, False),
    ("jsp.stats.mode([1, 2])", {}, False),
    ("jsp.stats.rankdata(jnp.array([3.0, 1.0, 3.0, 2.0, 3.0]))", {}, False),
    ("[jsp.stats.rankdata(jnp.array([3, 1, 3, 2, 3, 1]), m) for m in ('average', 'min', 'max', 'dense', 'ordinal')]", {}, False),
    ("jsp.stats.rankdata(jnp.array([[3, 1, 2], [1, 1, 0]]), 'min', axis=1)", {}, False),
    ("jsp.stats.rankdata(jnp.array([[3, 1, 2], [1, 1, 0]]), axis=0)", {}, False),
    ("jsp.stats.rankdata(jnp.array([[3, 1, 2], [1, 1, 0]]))", {}, False),
    ("jsp.stats.rankdata(jnp.array([1.0, np.nan, 0.0]))", {}, False),
    ("jsp.stats.rankdata(jnp.array([1.0, 2.0]), 'foo')", {}, False),
    ("jsp.stats.rankdata(jnp.array([1.0, 2.0]), nan_policy='omit')", {}, False),
    ("jsp.stats.rankdata(jnp.array([3.0, 1.0]).astype(np.float64), 'average')", {}, True),
    ("jsp.stats.sem(jnp.arange(12.0).reshape(3, 4))", {}, False),
    ("jsp.stats.sem(jnp.arange(12.0).reshape(3, 4), axis=1, ddof=0, keepdims=True)", {}, False),
    ("jsp.stats.sem(jnp.arange(12).reshape(3, 4), axis=None)", {}, False),
    ("jsp.stats.sem(jnp.array([1.0, np.nan, 3.0, 4.0]), nan_policy='omit')", {}, False),
    ("jsp.stats.sem(jnp.array([1.0, 2.0]), nan_policy='raise')", {}, False),
    ("jsp.stats.sem(jnp.arange(6.0).astype(np.float64))", {}, True),
    ("jax.grad(lambda v: jsp.stats.sem(v))(jnp.array([1.0, 2.0, 4.0]))", {}, False),
    ("jax.vmap(jsp.stats.sem)(jnp.arange(12.0).reshape(3, 4))", {}, False),
    # gaussian_kde
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])).evaluate(jnp.array([0.0, 1.0, 3.0]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2]), 'silverman').logpdf(jnp.array([0.0, 1.0]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2]), 0.3, weights=jnp.arange(1.0, 6.0)).pdf(1.0)", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2]), lambda k: 0.5 * k.neff ** -0.2)(1.0)", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([[0.1, 0.5, 1.2, 2.0, 2.2], [1.0, 0.4, 0.3, 2.0, -1.0]])).evaluate(jnp.array([[0.0, 1.0], [0.5, 0.5]]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([[0.1, 0.5, 1.2, 2.0, 2.2], [1.0, 0.4, 0.3, 2.0, -1.0]])).evaluate(jnp.array([0.0, 1.0]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([[0.1, 0.5, 1.2, 2.0, 2.2], [1.0, 0.4, 0.3, 2.0, -1.0]])).evaluate(jnp.array([0.0, 1.0, 2.0]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])).integrate_box_1d(0.0, 1.0)", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])).integrate_gaussian(0.5, 1.0)", {}, False),
    ("(lambda k: k.integrate_kde(jsp.stats.gaussian_kde(jnp.array([0.3, 0.9, 1.1]))))(jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])).resample(random.key(3), (4,))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])).resample(random.key(3))", {}, False),
    ("jax.tree_util.tree_leaves(jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2])))", {}, False),
    ("(lambda k: (k.d, k.n))(jsp.stats.gaussian_kde(jnp.ones((2, 4)) * jnp.arange(4.0)))", {}, False),
    ("jax.jit(lambda k, p: k.evaluate(p))(jsp.stats.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0])), jnp.array([0.3]))", {}, False),
    ("jax.grad(lambda d: jsp.stats.gaussian_kde(d).logpdf(0.7)[0])(jnp.array([0.1, 0.5, 1.2, 2.0]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0]))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0]), 'foo')", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0]) + 0j)", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0]), weights=jnp.ones(2))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0]), weights=jnp.ones((3, 1)))", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0])).integrate_box([0.0], [1.0])", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0])).set_bandwidth('scott')", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0])).integrate_box_1d(jnp.zeros(2), 1.0)", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0])).integrate_gaussian(jnp.zeros(2), 1.0)", {}, False),
    ("jsp.stats.gaussian_kde(jnp.array([1.0, 2.0, 4.0])).integrate_kde(jsp.stats.gaussian_kde(jnp.ones((2, 3)) * jnp.arange(3.0)))", {}, False),
    ("jsp.stats.gaussian_kde([1.0, 2.0])", {}, False),
]

INPUTS = {"x": X, "x64": X64, "q": Q, "k": K, "ang": ANG}
CALLS = [Call(e, {n: v for n, v in INPUTS.items() if n in e}, x64) for e, _, x64 in EXPRS]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=[c.expr for c in CALLS])
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None)


SCIPY_CASES = [
    ("cauchy", "logpdf", (0.5, 2.0)), ("cauchy", "cdf", (0.5, 2.0)), ("cauchy", "logsf", ()),
    ("gumbel_l", "logpdf", (0.5, 2.0)), ("gumbel_l", "cdf", ()), ("gumbel_l", "logsf", ()),
    ("gumbel_r", "logpdf", (0.5, 2.0)), ("gumbel_r", "sf", ()), ("gumbel_r", "logcdf", ()),
    ("pareto", "logpdf", (2.5, -5.0, 1.5)), ("pareto", "cdf", (2.5, -5.0, 1.5)),
    ("gennorm", "logpdf", (1.5,)), ("gennorm", "cdf", (1.5,)),
    ("truncnorm", "logpdf", (-1.0, 2.0)), ("truncnorm", "cdf", (-1.0, 2.0)), ("truncnorm", "logsf", (-1.0, 2.0)),
    ("vonmises", "logpdf", (2.0,)), ("wrapcauchy", "logpdf", (0.4,)),
]  # fmt: skip


@pytest.mark.parametrize("dist,method,args", SCIPY_CASES, ids=[f"{d}.{m}" for d, m, _ in SCIPY_CASES])
def test_against_scipy(dist: str, method: str, args: tuple[float, ...]) -> None:
    # as long as X: jitted methods reuse what the live comparisons compiled
    x = np.linspace(-3, 5, len(X)).astype(np.float32)
    if dist == "wrapcauchy":
        x = np.linspace(0.1, 6.0, len(X)).astype(np.float32)
    got = np.asarray(getattr(getattr(jst, dist), method)(x, *args))
    want = getattr(getattr(ss, dist), method)(x.astype(np.float64), *args)
    np.testing.assert_allclose(got, want, rtol=5e-5, atol=1e-6)


@pytest.mark.parametrize("dist,args", [("binom", (6, 0.3)), ("betabinom", (6, 2.0, 3.0)), ("geom", (0.3,)), ("nbinom", (3.5, 0.4))])
def test_discrete_against_scipy(dist: str, args: tuple[float, ...]) -> None:
    k = np.arange(-1, len(K) - 1).astype(np.float32)  # as long as K (the same compiled programs)
    got = np.asarray(getattr(jst, dist).logpmf(k, *args))
    want = getattr(ss, dist).logpmf(k.astype(np.float64), *args)
    np.testing.assert_allclose(got, want, rtol=5e-5, atol=1e-5)


def test_sample_statistics_against_scipy() -> None:
    data = np.array([[3, 1, 2, 2], [1, 1, 0, 5], [2, 2, 2, 1]], np.float32)
    for method in ("average", "min", "max", "dense", "ordinal"):
        np.testing.assert_array_equal(jst.rankdata(data, method), ss.rankdata(data, method))
    np.testing.assert_allclose(jst.sem(data, axis=1), ss.sem(data, axis=1), rtol=1e-6)
    m = jst.mode(data, axis=0)
    want = ss.mode(data, axis=0)
    np.testing.assert_array_equal(m.mode, want.mode)
    np.testing.assert_array_equal(m.count, want.count)
    kde_data = np.array([[0.1, 0.5, 1.2, 2.0, 2.2], [1.0, 0.4, 0.3, 2.0, -1.0]])
    pts = np.array([[0.0, 1.0, 2.0], [0.5, 0.5, 0.0]])
    np.testing.assert_allclose(jst.gaussian_kde(kde_data.astype(np.float32))(pts.astype(np.float32)),
                               ss.gaussian_kde(kde_data)(pts), rtol=1e-5)  # fmt: skip


def test_kde_is_a_pytree_under_jit_and_vmap() -> None:
    kde = jst.gaussian_kde(jnp.array([0.1, 0.5, 1.2, 2.0, 2.2]))
    leaves, tree = jax.tree_util.tree_flatten(kde)
    again = jax.tree_util.tree_unflatten(tree, leaves)
    assert isinstance(again, jst.gaussian_kde)
    out = jax.jit(lambda k: k.pdf(jnp.array([0.5, 1.5])))(kde)
    np.testing.assert_allclose(out, kde.pdf(jnp.array([0.5, 1.5])), rtol=1e-6)
    with pytest.raises(AttributeError):
        kde.neff = jnp.ones(())  # type: ignore[misc]  # frozen dataclass
