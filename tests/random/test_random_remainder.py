"""The rest of ``jax_core.random`` (pareto ... multinomial, ``Key``, ``random_gamma_p``) against
real JAX 0.12 on this machine: the same key, shape and dtype give the same bits (values, dtypes
and shapes exactly), bad input the same exception class and message, under ``jit``, ``vmap`` and
``grad`` too, with and without x64."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core
import jax_core.lax
import jax_core.numpy
import jax_core.random
from tests._live_cases import same_outcome_tests
from tests.oracle.client import Call

# Each case costs a compilation on both sides, so the samplers JAX builds from others are sampled
# in their own forms only and their dtype and transformation variants are taken at the parts:
# f is two chisquares, chisquare a loggamma, t a normal and a gamma, ball a generalized_normal
# (a gamma). float16 runs through t and chisquare, x64 through t and loggamma, grad through
# chisquare, gamma, beta (two loggammas) and generalized_normal, vmap through t and chisquare.
SAMPLES = [
    # pareto, t, chisquare, f
    "random.pareto(random.key(0), 2.0, (3,))",
    "random.pareto(random.key(1), jnp.array([1., 2., 3.]))",
    "random.pareto(random.key(1), 2.0, (2, 3), jnp.float16)",
    "random.pareto(random.key(1), jnp.float32(2.), (3,), jnp.bfloat16)",
    "random.pareto(random.PRNGKey(0), 2.0, (3,))",
    "random.pareto(random.key(0, impl='rbg'), 2.0, (3,))",
    "random.t(random.key(0), 3.0, (3,))",
    "random.t(random.key(2), jnp.array([1., 5.]), (3, 2))",
    "random.t(random.key(2), 3., (3,), jnp.float16)",
    "random.chisquare(random.key(0), 3.0, (3,))",
    "random.chisquare(random.key(3), jnp.array([1., 5.]), (3, 2))",
    "random.chisquare(random.key(3), 3., (2,), jnp.float16)",
    "random.f(random.key(0), 2., 3., (3,))",
    "random.f(random.key(4), jnp.array([1., 2.]), 3.)",
    # rademacher, maxwell, double_sided_maxwell, weibull_min
    "random.rademacher(random.key(0), (4,))",
    "random.rademacher(random.key(5), (2, 3), jnp.float32)",
    "random.rademacher(random.key(5), (2, 3), jnp.int8)",
    "random.rademacher(random.key(5), (3,), jnp.uint8)",
    "random.rademacher(random.key(5))",
    "random.maxwell(random.key(0), (3,))",
    "random.maxwell(random.key(6), (2, 2), jnp.bfloat16)",
    "random.double_sided_maxwell(random.key(0), 0., 1., (3,))",
    "random.double_sided_maxwell(random.key(7), jnp.array([0., 1.]), 2.)",
    "random.double_sided_maxwell(random.key(7), jnp.array([0., 1.]), 2., (3,))",
    "random.weibull_min(random.key(0), 1., 2., (3,))",
    "random.weibull_min(random.key(8), jnp.array([1., 2.]), 3., (2,))",
    "random.weibull_min(random.key(8), 1., jnp.array([1., 2.]), (2,), jnp.float16)",
    # orthogonal, generalized_normal, ball
    "random.orthogonal(random.key(0), 3)",
    "random.orthogonal(random.key(9), 3, (2,))",
    "random.orthogonal(random.key(9), 2, m=4)",
    "random.orthogonal(random.key(9), 4, m=2)",
    "random.orthogonal(random.key(9), 3, dtype=jnp.complex64)",
    "random.generalized_normal(random.key(0), 2., (3,))",
    "random.generalized_normal(random.key(10), 1., (3,))",
    "random.generalized_normal(random.key(10), jnp.array([0.5, 3.]), (2,))",
    "random.ball(random.key(0), 3)",
    "random.ball(random.key(11), 4, 1., (2,))",
    "random.ball(random.key(11), 3, 3, (2,))",
    # rayleigh, wald, geometric, triangular, lognormal
    "random.rayleigh(random.key(0), 1., (3,))",
    "random.rayleigh(random.key(12), jnp.array([1., 2.]))",
    "random.rayleigh(random.key(12), 2., (3,), jnp.float16)",
    "random.rayleigh(random.key(12), jnp.arange(3), (3,))",
    "random.wald(random.key(0), 1., (3,))",
    "random.wald(random.key(13), jnp.array([1., 3.]))",
    "random.wald(random.key(13), 2., (3,), jnp.float16)",
    "random.geometric(random.key(0), 0.3, (3,))",
    "random.geometric(random.key(14), jnp.array([0.1, 0.9]))",
    "random.geometric(random.key(14), 0.5, (4,), jnp.int8)",
    "random.geometric(random.key(14), jnp.float16(0.5), (4,))",
    "random.triangular(random.key(0), 0., .5, 1., (3,))",
    "random.triangular(random.key(15), jnp.array([0., 1.]), 2., 3.)",
    "random.triangular(random.key(15), 0., 1., 3., (3,), jnp.float16)",
    "random.lognormal(random.key(0), 1., (3,))",
    "random.lognormal(random.key(16))",
    "random.lognormal(random.key(16), 0.5, (3,), jnp.complex64)",
    "random.lognormal(random.key(16), jnp.array([1., 2.]), (2, 2))",
    # binomial (inversion and BTRS), multinomial
    "random.binomial(random.key(0), 10., 0.3, (3,))",
    "random.binomial(random.key(0), 100., 0.3, (3,))",
    "random.binomial(random.key(17), jnp.array([5., 50., 1000.]), jnp.array([0.1, 0.5, 0.9]))",
    "random.binomial(random.key(17), jnp.array([5, 50, 1000]), 0.7)",
    "random.binomial(random.key(17), jnp.array([np.nan, -1., np.inf, 10.]), jnp.array([0.2, 0.2, 0.2, np.nan]))",
    "random.binomial(random.key(17), 10., 0.3, (3,), jnp.float16)",
    "random.binomial(random.key(17), 10., jnp.array([0.3, 0.8]), (2, 2))",
    "random.multinomial(random.key(0), 10., jnp.array([.2, .3, .5]))",
    "random.multinomial(random.key(18), jnp.array([10., 20.]), jnp.array([[.2, .3, .5], [.1, .1, .8]]))",
    "random.multinomial(random.key(18), 10., jnp.array([.2, .3, .5]), shape=(4,), unroll=2)",
    "random.multinomial(random.key(18), 10., jnp.array([.2, .3, .5]), dtype=jnp.int32)",
    "random.multinomial(random.key(18), 10, jnp.array([.2, .3, .5], jnp.float16))",
    "random.multinomial(random.key(18), 10., jnp.array([.2, .3, .5]), unroll=True)",
    # the loop-free gamma sampler (method='approximate'), and what builds on it
    "random.chisquare(random.key(3), 3.0, (4,), method='approximate')",
    "random.gamma(random.key(0), jnp.array([0.01, 0.5, 3., 100.]), method='approximate')",
    "random.gamma(random.key(0), 2.0, (3,), jnp.float16, method='approximate')",
    "random.loggamma(random.key(1), 0.3, (2, 2), method='approximate')",
    "random.beta(random.key(2), 0.5, 2.0, (4,), method='approximate')",
    "jax.grad(lambda a: random.gamma(random.key(0), a, (3,), method='approximate').sum())(2.0)",
    "jax.vmap(lambda k: random.gamma(k, 2.0, (2,), method='approximate'))(random.split(random.key(0), 3))",
    # the gamma primitive, exposed
    "random.random_gamma_p.bind(random.key(0), jnp.array([0.5, 2.0]), log_space=False)",
    "random.random_gamma_p.bind(random.key(0), jnp.array([0.5, 2.0]), log_space=True)",
    "random.random_gamma_p.name",
    "random.Key(random.key(3))",
]

TRANSFORMED = [
    "jax.jit(random.pareto, static_argnums=2)(random.key(0), 2.0, (3,))",
    "jax.jit(lambda k, n: random.binomial(k, n, 0.4, (3,)))(random.key(1), 30.)",
    "jax.jit(lambda k: random.multinomial(k, 5., jnp.array([0.5, 0.5])))(random.key(1))",
    "jax.vmap(lambda k: random.t(k, 3., (2,)))(random.split(random.key(0), 3))",
    "jax.vmap(lambda k, a: random.chisquare(k, a))(random.split(random.key(0), 3), jnp.array([1., 2., 3.]))",
    "jax.vmap(lambda k: random.binomial(k, 20., 0.4, (2,)))(random.split(random.key(0), 3))",
    "jax.vmap(lambda k: random.multinomial(k, 20., jnp.array([0.4, 0.6])))(random.split(random.key(0), 3))",
    "jax.vmap(lambda k: random.orthogonal(k, 2))(random.split(random.key(0), 3))",
    "jax.vmap(lambda p: random.geometric(random.key(0), p))(jnp.array([0.2, 0.7]))",
    "jax.vmap(lambda k: random.rademacher(k, (2,)))(random.split(random.key(0), 2))",
    "jax.grad(lambda a: random.pareto(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.chisquare(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.rayleigh(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.wald(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.lognormal(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.triangular(random.key(0), 0., a, 3., (3,)).sum())(1.0)",
    "jax.grad(lambda a: random.weibull_min(random.key(0), 1., a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.double_sided_maxwell(random.key(0), a, 2., (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.generalized_normal(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.binomial(random.key(0), 10., a, (3,)).sum())(0.3)",
    "jax.grad(lambda a: random.gamma(random.key(0), a, (3,)).sum())(2.0)",
    "jax.grad(lambda a: random.beta(random.key(0), a, 2., (3,)).sum())(0.7)",
]

X64 = [
    "random.pareto(random.key(0), 2.0, (3,))",
    "random.t(random.key(2), jnp.array([1., 5.]), (3, 2))",
    "random.rademacher(random.key(5), (3,))",
    "random.maxwell(random.key(0), (3,))",
    "random.orthogonal(random.key(9), 3, dtype=jnp.complex128)",
    "random.geometric(random.key(14), 0.5, (4,))",
    "random.geometric(random.key(14), jnp.float32(0.5), (4,))",
    "random.pareto(random.key(1), 2., (3,), jnp.float32)",
    "random.lognormal(random.key(16))",
    "random.binomial(random.key(17), jnp.array([5., 50., 1000.]), jnp.array([0.1, 0.5, 0.9], jnp.float32))",
    "random.multinomial(random.key(18), 10, jnp.array([.2, .3, .5], jnp.float32))",
    "random.loggamma(random.key(1), jnp.array([0.01, 0.5, 3., 100.]), method='approximate')",
    "random.triangular(random.key(0), 0., .5, 1., (3,))",
    "random.wald(random.key(0), 1., (3,))",
]

ERRORS = [
    "random.pareto(random.key(1), 2.0, (3,), jnp.int32)",
    "random.pareto(random.key(1), jnp.array([1., 2.]), (3,))",
    "random.pareto(random.key(1), 2.0, out_sharding=jax.sharding.PartitionSpec())",
    "random.pareto(random.split(random.key(0)), 2.0, (3,))",
    "random.pareto(0, 2.0, (3,))",
    "random.rayleigh(random.key(12), jnp.arange(3.), (3,), jnp.float16)",
    "random.pareto(random.key(1), jnp.float64(2.) if False else jnp.array([1.], jnp.float32), (1,), jnp.bfloat16)",
    "random.chisquare(random.key(3), 3., method='bad')",
    "random.chisquare(random.key(3), 3., (2,), dtype=jnp.int32)",
    "random.maxwell(random.key(6), (2,), jnp.int32)",
    "random.double_sided_maxwell(random.key(7), 0., 2., (3,), jnp.int32)",
    "random.orthogonal(random.key(9), 3, dtype=jnp.int32)",
    "random.orthogonal(random.key(9), 3.5)",
    "random.ball(random.key(11), 3, p=[1, 2])",
    "random.geometric(random.key(14), 0.5, (4,), jnp.float32)",
    "random.geometric(random.key(14), [0.5, 0.2])",
    "random.lognormal(random.key(16), 0.5, (3,), jnp.int32)",
    "random.binomial(random.key(17), 10., 0.3, (3,), jnp.int32)",
    "random.binomial(random.key(17), [10.], 0.3)",
    "random.binomial(random.key(17), 10., jnp.array([0.3, 0.8]), (3,))",
    "random.multinomial(random.key(18), 10., jnp.array([.2, .3, .5]), shape=(4, 2))",
    "random.multinomial(random.key(18), 10., [.2, .8])",
    "random.triangular(random.key(0), 0., 1., 2., (2,), jnp.float16) if False else "
    "random.triangular(random.key(0), jnp.zeros(2), 1., jnp.ones(3))",
    "random.weibull_min(random.key(0), 1., 2., (2,), jnp.int32)",
    "random.wald(random.key(0), 1., (2,), jnp.uint8)",
    "random.rademacher(random.key(0), (2,), 'float33')",
    "jax.jit(lambda d: random.ball(random.key(0), d))(3)",
    "jax.jit(lambda n: random.orthogonal(random.key(0), n))(3)",
]

CALLS = [Call(e) for e in SAMPLES + TRANSFORMED + ERRORS] + [Call(e, x64=True) for e in X64]
live, test_same_as_live_jax = same_outcome_tests(CALLS)


def test_key_is_jaxs_newtype() -> None:
    key = jax_core.random.key(0)
    assert jax_core.random.Key(key) is key
    assert jax_core.random.Key.__name__ == "Key"
    assert getattr(jax_core.random.Key, "__supertype__") is jax_core.Array


def test_random_gamma_p_is_the_gamma_primitive() -> None:
    gamma_p = jax_core.random.random_gamma_p
    assert gamma_p.name == "random_gamma"

    def sample(k: jax_core.Array) -> jax_core.Array:
        return jax_core.random.gamma(k, 2.0, (2,))

    jaxpr = str(jax_core.make_jaxpr(sample)(jax_core.random.key(0)))
    assert "random_gamma" in jaxpr


def test_out_sharding_is_not_implemented() -> None:
    from jax_core.sharding import Mesh, NamedSharding, PartitionSpec

    mesh = Mesh(np.array(jax_core.devices()[:1]), ("x",))
    with pytest.raises(NotImplementedError, match="out_sharding"):
        jax_core.random.pareto(jax_core.random.key(0), 2.0, (2,), out_sharding=NamedSharding(mesh, PartitionSpec()))


def test_samples_have_the_right_moments() -> None:
    """A sanity check independent of JAX: sample means near the distributions' means."""
    key = jax_core.random.key(42)
    n = 20000
    checks = [
        (jax_core.random.pareto(key, 3.0, (n,)), 1.5),
        (jax_core.random.chisquare(key, 4.0, (n,)), 4.0),
        (jax_core.random.binomial(key, 40.0, 0.3, (n,)), 12.0),
        (jax_core.random.geometric(key, 0.25, (n,)), 4.0),
        (jax_core.random.wald(key, 2.0, (n,)), 2.0),
        (jax_core.random.rayleigh(key, 1.0, (n,)), float(np.sqrt(np.pi / 2))),
        (jax_core.random.triangular(key, 0.0, 1.0, 2.0, (n,)), 1.0),
    ]
    for sample, mean in checks:
        np.testing.assert_allclose(float(np.mean(np.asarray(sample))), mean, rtol=0.05)
    counts = np.asarray(jax_core.random.multinomial(key, 100.0, jax_core.numpy.array([0.2, 0.3, 0.5]), shape=(500,)))
    np.testing.assert_array_equal(counts.sum(-1), 100.0)
    q = np.asarray(jax_core.random.orthogonal(key, 4))
    np.testing.assert_allclose(q @ q.T, np.eye(4), atol=1e-5)
    b = np.asarray(jax_core.random.ball(key, 3, 2, (1000,)))
    assert (np.linalg.norm(b, axis=-1) <= 1.0).all()
