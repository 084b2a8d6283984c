"""Distributions, a hierarchical model and gradient-based MCMC (numpyro / blackjax style)."""

import math
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple, Optional, assert_type, override

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax, random
from jax_core.scipy import special, stats
from jax_core.typing import Array, ArrayLike, PRNGKeyArray, Shape

LogDensityFn = Callable[[Array], Array]

# --------------------------------------------------------------------------------------------
# Distributions
# --------------------------------------------------------------------------------------------


class Distribution:
    """Base class: a batch of independent distributions with events of ``event_shape``."""

    batch_shape: Shape = ()
    event_shape: Shape = ()

    def log_prob(self, value: ArrayLike) -> Array:
        raise NotImplementedError

    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        raise NotImplementedError

    def shape(self, sample_shape: Shape = ()) -> Shape:
        return sample_shape + self.batch_shape + self.event_shape

    @property
    def mean(self) -> Array:
        raise NotImplementedError

    @property
    def variance(self) -> Array:
        raise NotImplementedError

    def sample_and_log_prob(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> tuple[Array, Array]:
        value = self.sample(key, sample_shape)
        return value, self.log_prob(value)


class Normal(Distribution):
    def __init__(self, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> None:
        self.loc, self.scale = jnp.broadcast_arrays(jnp.asarray(loc, float), jnp.asarray(scale, float))
        self.batch_shape = self.loc.shape

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        return stats.norm.logpdf(value, self.loc, self.scale)

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        eps = random.normal(key, self.shape(sample_shape))
        return self.loc + self.scale * eps

    def cdf(self, value: ArrayLike) -> Array:
        return special.ndtr((jnp.asarray(value) - self.loc) / self.scale)

    @property
    @override
    def mean(self) -> Array:
        return self.loc

    @property
    @override
    def variance(self) -> Array:
        return self.scale**2


class HalfCauchy(Distribution):
    def __init__(self, scale: ArrayLike = 1.0) -> None:
        self.scale = jnp.asarray(scale, float)
        self.batch_shape = self.scale.shape

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        value = jnp.asarray(value)
        log_p = math.log(2 / math.pi) - jnp.log(self.scale) - jnp.log1p((value / self.scale) ** 2)
        return jnp.where(value < 0, -jnp.inf, log_p)

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        u = random.uniform(key, self.shape(sample_shape))
        return self.scale * jnp.tan(0.5 * jnp.pi * u)


class Gamma(Distribution):
    def __init__(self, concentration: ArrayLike, rate: ArrayLike = 1.0) -> None:
        self.concentration, self.rate = jnp.broadcast_arrays(jnp.asarray(concentration, float), jnp.asarray(rate, float))
        self.batch_shape = self.concentration.shape

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        a, b = self.concentration, self.rate
        normalize = special.xlogy(a, b) - special.gammaln(a)
        return normalize + special.xlogy(a - 1.0, value) - b * value

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        return random.gamma(key, self.concentration, self.shape(sample_shape)) / self.rate

    @property
    @override
    def mean(self) -> Array:
        return self.concentration / self.rate

    @property
    @override
    def variance(self) -> Array:
        return self.concentration / self.rate**2


class Bernoulli(Distribution):
    def __init__(self, logits: ArrayLike) -> None:
        self.logits = jnp.asarray(logits, float)
        self.batch_shape = self.logits.shape

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        # log sigmoid(l) for value 1, log sigmoid(-l) for value 0
        return -jnp.logaddexp(0.0, jnp.where(value, -self.logits, self.logits))

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        return random.bernoulli(key, special.expit(self.logits), self.shape(sample_shape))

    @property
    def probs(self) -> Array:
        return special.expit(self.logits)

    @property
    @override
    def mean(self) -> Array:
        return self.probs


class Categorical(Distribution):
    def __init__(self, logits: ArrayLike) -> None:
        logits = jnp.asarray(logits, float)
        self.logits = logits - special.logsumexp(logits, axis=-1, keepdims=True)
        self.batch_shape = self.logits.shape[:-1]

    @property
    def num_categories(self) -> int:
        return self.logits.shape[-1]

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        idx = jnp.asarray(value, jnp.int32)[..., None]
        logits = jnp.broadcast_to(self.logits, idx.shape[:-1] + (self.num_categories,))
        return jnp.take_along_axis(logits, idx, axis=-1)[..., 0]

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        return random.categorical(key, self.logits, shape=sample_shape + self.batch_shape)

    def entropy(self) -> Array:
        return -jnp.sum(jnp.exp(self.logits) * self.logits, axis=-1)


class Dirichlet(Distribution):
    def __init__(self, concentration: ArrayLike) -> None:
        self.concentration = jnp.asarray(concentration, float)
        self.batch_shape = self.concentration.shape[:-1]
        self.event_shape = self.concentration.shape[-1:]

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        alpha = self.concentration
        normalize = jnp.sum(special.gammaln(alpha), -1) - special.gammaln(jnp.sum(alpha, -1))
        return jnp.sum(special.xlogy(alpha - 1.0, value), axis=-1) - normalize

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        g = random.gamma(key, self.concentration, self.shape(sample_shape))
        return g / jnp.sum(g, axis=-1, keepdims=True)

    @property
    @override
    def mean(self) -> Array:
        return self.concentration / jnp.sum(self.concentration, axis=-1, keepdims=True)


class MultivariateNormal(Distribution):
    def __init__(self, loc: ArrayLike, covariance: ArrayLike) -> None:
        self.loc = jnp.asarray(loc, float)
        self.covariance = jnp.asarray(covariance, float)
        self.scale_tril = jnp.linalg.cholesky(self.covariance)
        self.batch_shape = self.loc.shape[:-1]
        self.event_shape = self.loc.shape[-1:]

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        return stats.multivariate_normal.logpdf(value, self.loc, self.covariance)

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        eps = random.normal(key, self.shape(sample_shape))
        return self.loc + jnp.einsum("...ij,...j->...i", self.scale_tril, eps)

    @property
    @override
    def mean(self) -> Array:
        return self.loc


class MixtureSameFamily(Distribution):
    """A mixture of scalar normals, weighted by ``mixing`` (a Categorical over the last axis)."""

    def __init__(self, mixing: Categorical, components: Normal) -> None:
        self.mixing = mixing
        self.components = components
        self.batch_shape = mixing.batch_shape

    @override
    def log_prob(self, value: ArrayLike) -> Array:
        value = jnp.asarray(value)[..., None]
        return special.logsumexp(self.components.log_prob(value) + self.mixing.logits, axis=-1)

    @override
    def sample(self, key: PRNGKeyArray, sample_shape: Shape = ()) -> Array:
        key_mix, key_comp = random.split(key)
        idx = self.mixing.sample(key_mix, sample_shape)
        draws = self.components.sample(key_comp, sample_shape)
        return jnp.take_along_axis(draws, idx[..., None], axis=-1)[..., 0]


def kl_normal_normal(p: Normal, q: Normal) -> Array:
    var_ratio = (p.scale / q.scale) ** 2
    t1 = ((p.loc - q.loc) / q.scale) ** 2
    return 0.5 * (var_ratio + t1 - 1.0 - jnp.log(var_ratio))


# --------------------------------------------------------------------------------------------
# A hierarchical model: eight schools, non-centred
# --------------------------------------------------------------------------------------------


class SchoolsParams(NamedTuple):
    mu: Array
    log_tau: Array
    theta_tilde: Array


EIGHT_SCHOOLS_Y = np.array([28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0], np.float32)
EIGHT_SCHOOLS_SIGMA = np.array([15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0], np.float32)


def schools_log_density(params: SchoolsParams, y: ArrayLike, sigma: ArrayLike) -> Array:
    """Unnormalized log posterior; ``tau`` is sampled on the log scale (with its Jacobian)."""
    tau = jnp.exp(params.log_tau)
    log_prior = (
        Normal(0.0, 5.0).log_prob(params.mu)
        + HalfCauchy(5.0).log_prob(tau)
        + params.log_tau
        + jnp.sum(Normal().log_prob(params.theta_tilde))
    )
    theta = params.mu + tau * params.theta_tilde
    log_lik = jnp.sum(Normal(theta, sigma).log_prob(y))
    return log_prior + log_lik


def ravel_schools(params: SchoolsParams) -> Array:
    return jnp.concatenate([params.mu[None], params.log_tau[None], params.theta_tilde])


def unravel_schools(flat: Array) -> SchoolsParams:
    return SchoolsParams(mu=flat[0], log_tau=flat[1], theta_tilde=flat[2:])


def flat_schools_log_density(flat: Array) -> Array:
    return schools_log_density(unravel_schools(flat), EIGHT_SCHOOLS_Y, EIGHT_SCHOOLS_SIGMA)


def init_schools(key: PRNGKeyArray, num_schools: int = 8) -> SchoolsParams:
    k_mu, k_tau, k_theta = random.split(key, 3)
    return SchoolsParams(
        mu=random.normal(k_mu),
        log_tau=random.uniform(k_tau, minval=-1.0, maxval=1.0),
        theta_tilde=random.normal(k_theta, (num_schools,)),
    )


def logistic_regression_log_density(w: Array, x: Array, y: Array, prior_scale: float = 1.0) -> Array:
    log_prior = jnp.sum(Normal(0.0, prior_scale).log_prob(w))
    return log_prior + jnp.sum(Bernoulli(x @ w).log_prob(y))


# --------------------------------------------------------------------------------------------
# HMC and MALA kernels
# --------------------------------------------------------------------------------------------


class HMCState(NamedTuple):
    position: Array
    log_density: Array
    log_density_grad: Array


class HMCInfo(NamedTuple):
    acceptance_rate: Array
    is_accepted: Array
    energy: Array
    is_divergent: Array


def init_state(position: Array, log_density_fn: LogDensityFn) -> HMCState:
    log_density, grad = jax.value_and_grad(log_density_fn)(position)
    assert_type(grad, Array)
    return HMCState(position, log_density, grad)


def leapfrog(
    log_density_fn: LogDensityFn,
    state: HMCState,
    momentum: Array,
    step_size: ArrayLike,
    num_steps: int,
    inverse_mass: Array,
) -> tuple[HMCState, Array]:
    """``num_steps`` velocity Verlet steps; returns the final state and momentum."""
    value_and_grad = jax.value_and_grad(log_density_fn)

    def one_step(carry: tuple[HMCState, Array], _: None) -> tuple[tuple[HMCState, Array], None]:
        s, p = carry
        p = p + 0.5 * step_size * s.log_density_grad
        q = s.position + step_size * inverse_mass * p
        log_density, grad = value_and_grad(q)
        p = p + 0.5 * step_size * grad
        return (HMCState(q, log_density, grad), p), None

    (final, p_final), _ = lax.scan(one_step, (state, momentum), None, length=num_steps)
    assert_type(final, HMCState)
    return final, p_final


def kinetic_energy(momentum: Array, inverse_mass: Array) -> Array:
    return 0.5 * jnp.sum(inverse_mass * momentum**2)


def mh_accept(key: PRNGKeyArray, log_ratio: Array, proposal: HMCState, state: HMCState) -> tuple[HMCState, Array, Array]:
    """Metropolis-Hastings: keeps ``proposal`` with probability ``min(1, exp(log_ratio))``."""
    log_ratio = jnp.where(jnp.isnan(log_ratio), -jnp.inf, log_ratio)
    accept_prob = jnp.minimum(1.0, jnp.exp(log_ratio))
    do_accept = jnp.log(random.uniform(key)) < log_ratio
    new_state: HMCState = jax.tree_util.tree_map(
        lambda new, old: jnp.where(do_accept, new, old), proposal, state
    )
    return new_state, accept_prob, do_accept


def hmc_kernel(
    key: PRNGKeyArray,
    state: HMCState,
    log_density_fn: LogDensityFn,
    step_size: float,
    num_integration_steps: int,
    inverse_mass: Optional[Array] = None,
    divergence_threshold: float = 1000.0,
) -> tuple[HMCState, HMCInfo]:
    if inverse_mass is None:
        inverse_mass = jnp.ones_like(state.position)
    key_momentum, key_accept = random.split(key)
    momentum = random.normal(key_momentum, state.position.shape) / jnp.sqrt(inverse_mass)
    proposal, p_new = leapfrog(log_density_fn, state, momentum, step_size, num_integration_steps, inverse_mass)
    energy0 = -state.log_density + kinetic_energy(momentum, inverse_mass)
    energy1 = -proposal.log_density + kinetic_energy(p_new, inverse_mass)
    delta = energy0 - energy1
    new_state, accept_prob, accepted = mh_accept(key_accept, delta, proposal, state)
    energy = jnp.where(accepted, energy1, energy0)
    return new_state, HMCInfo(accept_prob, accepted, energy, -delta > divergence_threshold)


def mala_kernel(key: PRNGKeyArray, state: HMCState, log_density_fn: LogDensityFn, step_size: ArrayLike) -> tuple[HMCState, HMCInfo]:
    """Metropolis-adjusted Langevin: one gradient step plus Gaussian noise, with MH correction."""

    def transition_log_prob(to: HMCState, frm: HMCState) -> Array:
        mean = frm.position + step_size * frm.log_density_grad
        return jnp.sum(Normal(mean, jnp.sqrt(2.0 * step_size)).log_prob(to.position))

    key_noise, key_accept = random.split(key)
    noise = random.normal(key_noise, state.position.shape)
    position = state.position + step_size * state.log_density_grad + jnp.sqrt(2.0 * step_size) * noise
    proposal = init_state(position, log_density_fn)
    log_ratio = (
        proposal.log_density
        - state.log_density
        + transition_log_prob(state, proposal)
        - transition_log_prob(proposal, state)
    )
    new_state, accept_prob, accepted = mh_accept(key_accept, log_ratio, proposal, state)
    return new_state, HMCInfo(accept_prob, accepted, -new_state.log_density, jnp.array(False))


Kernel = Callable[[PRNGKeyArray, HMCState], tuple[HMCState, HMCInfo]]


def sample_chain(kernel: Kernel, key: PRNGKeyArray, initial: HMCState, num_samples: int) -> tuple[HMCState, HMCInfo]:
    def step(state: HMCState, k: Array) -> tuple[HMCState, tuple[HMCState, HMCInfo]]:
        new_state, info = kernel(k, state)
        return new_state, (new_state, info)

    keys = random.split(key, num_samples)
    _, (states, infos) = lax.scan(step, initial, keys)
    assert_type(states, HMCState)
    return states, infos


@partial(jax.jit, static_argnames=("log_density_fn", "num_samples", "num_integration_steps"))
def run_hmc(
    key: PRNGKeyArray,
    position: Array,
    log_density_fn: LogDensityFn,
    step_size: float,
    num_samples: int,
    num_integration_steps: int = 10,
) -> tuple[HMCState, HMCInfo]:
    kernel = partial(
        hmc_kernel, log_density_fn=log_density_fn, step_size=step_size, num_integration_steps=num_integration_steps
    )
    return sample_chain(kernel, key, init_state(position, log_density_fn), num_samples)


def run_chains(key: PRNGKeyArray, positions: Array, log_density_fn: LogDensityFn, step_size: float, num_samples: int) -> tuple[HMCState, HMCInfo]:
    """Independent MALA chains, one per row of ``positions``."""

    def one_chain(k: Array, position: Array) -> tuple[HMCState, HMCInfo]:
        def kernel(kk: PRNGKeyArray, s: HMCState) -> tuple[HMCState, HMCInfo]:
            return mala_kernel(kk, s, log_density_fn, step_size)

        return sample_chain(kernel, k, init_state(position, log_density_fn), num_samples)

    keys = random.split(key, positions.shape[0])
    states, infos = jax.vmap(one_chain)(keys, positions)
    assert_type(infos, HMCInfo)
    return states, infos


# --------------------------------------------------------------------------------------------
# Step size adaptation (dual averaging) and diagnostics
# --------------------------------------------------------------------------------------------


class DualAveragingState(NamedTuple):
    log_step_size: Array
    log_step_size_avg: Array
    step: Array
    avg_error: Array
    mu: Array


def dual_averaging_init(step_size: ArrayLike) -> DualAveragingState:
    log_step = jnp.log(jnp.asarray(step_size, float))
    zero = jnp.zeros_like(log_step)
    return DualAveragingState(log_step, zero, jnp.array(1), zero, jnp.log(10.0) + log_step)


def dual_averaging_update(
    state: DualAveragingState,
    acceptance_rate: Array,
    target: float = 0.8,
    t0: float = 10.0,
    gamma: float = 0.05,
    kappa: float = 0.75,
) -> DualAveragingState:
    step = state.step.astype(jnp.float32)
    eta = 1.0 / (step + t0)
    avg_error = (1.0 - eta) * state.avg_error + eta * (target - acceptance_rate)
    log_step = state.mu - jnp.sqrt(step) / gamma * avg_error
    weight = step**-kappa
    log_avg = weight * log_step + (1.0 - weight) * state.log_step_size_avg
    return DualAveragingState(log_step, log_avg, state.step + 1, avg_error, state.mu)


def find_step_size(
    key: PRNGKeyArray, state: HMCState, log_density_fn: LogDensityFn, num_steps: int = 50, initial: float = 0.1
) -> tuple[Array, HMCState]:
    """Adapts MALA's step size with dual averaging; returns ``(step_size, last_state)``."""

    def step(carry: tuple[HMCState, DualAveragingState], k: Array) -> tuple[tuple[HMCState, DualAveragingState], Array]:
        s, da = carry
        step_size = jnp.exp(da.log_step_size)
        new_s, info = mala_kernel(k, s, log_density_fn, step_size)
        return (new_s, dual_averaging_update(da, info.acceptance_rate)), info.acceptance_rate

    (final, da), _ = lax.scan(step, (state, dual_averaging_init(initial)), random.split(key, num_steps))
    return jnp.exp(da.log_step_size_avg), final


def effective_sample_size(samples: Array) -> Array:
    """ESS per dimension of ``samples`` with shape ``(num_chains, num_draws, ...)`` (Geyer's initial sequence)."""
    num_chains, num_draws = samples.shape[0], samples.shape[1]
    centered = samples - jnp.mean(samples, axis=1, keepdims=True)
    freqs = jnp.fft.rfft(centered, n=2 * num_draws, axis=1)
    acov = jnp.fft.irfft(freqs * jnp.conj(freqs), axis=1)[:, :num_draws] / num_draws
    rho = jnp.mean(acov, axis=0) / jnp.mean(acov[:, :1], axis=0)
    pairs = rho[: num_draws - num_draws % 2].reshape((num_draws // 2, 2) + rho.shape[1:]).sum(axis=1)
    positive = jnp.cumprod(pairs > 0, axis=0).astype(bool)
    tau = -1.0 + 2.0 * jnp.sum(jnp.where(positive, pairs, 0.0), axis=0)
    return num_chains * num_draws / jnp.maximum(tau, 1.0)


def split_rhat(samples: Array) -> Array:
    half = samples.shape[1] // 2
    chains = jnp.concatenate([samples[:, :half], samples[:, half : 2 * half]], axis=0)
    n = chains.shape[1]
    within = jnp.mean(jnp.var(chains, axis=1, ddof=1), axis=0)
    between = n * jnp.var(jnp.mean(chains, axis=1), axis=0, ddof=1)
    return jnp.sqrt(((n - 1) / n * within + between / n) / within)


def summarize(trace: dict[str, Any]) -> dict[str, Array]:
    """Posterior mean and standard deviation; non-finite draws are treated as missing."""
    valid = jnp.isfinite(trace["log_density"])[..., None]
    finite = jnp.where(valid, trace["position"], trace["fill"])
    count = jnp.maximum(jnp.sum(valid, axis=(0, 1)), 1)
    mean = jnp.sum(finite, axis=(0, 1)) / count
    std = jnp.sqrt(jnp.sum(jnp.where(valid, (finite - mean) ** 2, 0.0), axis=(0, 1)) / count)
    return {"mean": mean, "std": std}


if __name__ == "__main__":
    key = random.key(0)
    k1, k2, k3, k4, k5 = random.split(key, 5)

    normal = Normal(jnp.zeros(3), 2.0)
    draws = normal.sample(k1, (4,))
    assert_type(draws, Array)
    assert draws.shape == (4, 3) and normal.log_prob(draws).shape == (4, 3)
    assert abs(float(normal.log_prob(0.0)[0]) - float(stats.norm.logpdf(0.0, 0.0, 2.0))) < 1e-6
    gamma = Gamma(jnp.array([2.0, 3.0]), 0.5)
    g_draws, g_lp = gamma.sample_and_log_prob(k2, (5,))
    assert g_draws.shape == (5, 2) and bool(jnp.all(jnp.isfinite(g_lp)))
    assert abs(float(gamma.log_prob(1.5)[0]) - float(stats.gamma.logpdf(1.5, 2.0, scale=2.0))) < 1e-5
    cat = Categorical(jnp.log(jnp.array([0.2, 0.3, 0.5])))
    assert cat.sample(k3, (7,)).shape == (7,) and abs(float(cat.log_prob(2)) - math.log(0.5)) < 1e-6
    assert float(cat.entropy()) > 0
    bern = Bernoulli(jnp.array([0.0, 2.0]))
    assert abs(float(bern.log_prob(jnp.array([1, 0]))[0]) - math.log(0.5)) < 1e-6
    dirichlet = Dirichlet(jnp.ones(3))
    assert abs(float(dirichlet.log_prob(jnp.array([0.2, 0.3, 0.5]))) - math.log(2.0)) < 1e-5
    mvn = MultivariateNormal(jnp.zeros(2), jnp.array([[2.0, 0.5], [0.5, 1.0]]))
    assert mvn.sample(k4, (3,)).shape == (3, 2) and mvn.log_prob(jnp.zeros(2)).shape == ()
    mixture = MixtureSameFamily(Categorical(jnp.zeros(2)), Normal(jnp.array([-2.0, 2.0]), 0.5))
    assert mixture.sample(k5, (6,)).shape == (6,) and mixture.log_prob(jnp.zeros(4)).shape == (4,)
    assert float(kl_normal_normal(Normal(0.0, 1.0), Normal(0.0, 1.0))) == 0.0
    assert float(HalfCauchy(1.0).log_prob(-1.0)) == -math.inf

    params = init_schools(k1)
    assert_type(params, SchoolsParams)
    lp = schools_log_density(params, EIGHT_SCHOOLS_Y, EIGHT_SCHOOLS_SIGMA)
    grads = jax.grad(schools_log_density)(params, EIGHT_SCHOOLS_Y, EIGHT_SCHOOLS_SIGMA)
    assert_type(grads, SchoolsParams)
    assert grads.theta_tilde.shape == (8,) and bool(jnp.isfinite(lp))
    flat = ravel_schools(params)
    assert unravel_schools(flat).theta_tilde.shape == (8,)

    # HMC on the schools posterior, and vmapped MALA chains on a logistic regression
    samples, info = run_hmc(k2, flat, flat_schools_log_density, 0.05, 30, 5)
    assert samples.position.shape == (30, 10) and 0.0 <= float(jnp.mean(info.acceptance_rate)) <= 1.0

    x_data = random.normal(k3, (20, 2))
    y_data = (x_data @ jnp.array([1.5, -1.0]) > 0).astype(jnp.float32)
    logreg = partial(logistic_regression_log_density, x=x_data, y=y_data)
    step_size, tuned = find_step_size(k4, init_state(jnp.zeros(2), logreg), logreg, num_steps=30)
    assert_type(step_size, Array)
    chains, chain_info = run_chains(k5, jnp.zeros((3, 2)), logreg, float(step_size), 40)
    assert_type(chains, HMCState)
    assert chains.position.shape == (3, 40, 2) and chain_info.is_accepted.shape == (3, 40)
    ess = effective_sample_size(chains.position)
    rhat = split_rhat(chains.position)
    assert ess.shape == (2,) and rhat.shape == (2,)

    trace = {"log_density": chains.log_density, "position": chains.position, "fill": jnp.zeros_like(chains.position)}
    summary = summarize(trace)
    assert float(summary["mean"][0]) > 0 > float(summary["mean"][1]), summary
    print("prob_models: ok", float(step_size), summary["mean"], ess)
