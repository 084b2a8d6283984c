"""Value-learning and policy-gradient losses in the style of rlax.

Functions act on a single trajectory (time-major, unbatched); ``jax.vmap`` them over a batch.
"""

import dataclasses
from collections.abc import Mapping
from functools import partial
from typing import NamedTuple, Optional, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax, random
from jax_core.scipy import special
from jax_core.typing import Array, ArrayLike, PRNGKeyArray

Params = dict[str, Array]

# --------------------------------------------------------------------------------------------
# Elementwise losses and helpers
# --------------------------------------------------------------------------------------------


def l2_loss(predictions: Array, targets: Optional[Array] = None) -> Array:
    errors = predictions if targets is None else predictions - targets
    return 0.5 * errors**2


def huber_loss(x: Array, delta: float = 1.0) -> Array:
    abs_x = jnp.abs(x)
    quadratic = jnp.minimum(abs_x, delta)
    return 0.5 * quadratic**2 + delta * (abs_x - quadratic)


def batched_index(values: Array, indices: Array) -> Array:
    """``values[i, indices[i]]`` for each row ``i``."""
    return jnp.take_along_axis(values, indices[..., None], axis=-1)[..., 0]


def log_softmax(logits: Array, temperature: float = 1.0) -> Array:
    scaled = logits / temperature
    return scaled - special.logsumexp(scaled, axis=-1, keepdims=True)


def softmax_entropy(logits: Array) -> Array:
    log_probs = log_softmax(logits)
    return -jnp.sum(jnp.exp(log_probs) * log_probs, axis=-1)


def masked_mean(x: Array, mask: Optional[Array] = None) -> Array:
    if mask is None:
        return jnp.mean(x)
    return jnp.sum(x * mask) / jnp.maximum(jnp.sum(mask), 1.0)


def effective_horizon(discount: ArrayLike) -> Array:
    """``1 / (1 - discount)``; the discount is checked when it is concrete."""
    if isinstance(discount, (float, np.ndarray, np.floating)) and np.any(np.asarray(discount) >= 1.0):
        raise ValueError(f"discount must be < 1, got {discount}")
    return jnp.asarray(1.0 / (1.0 - discount))


# --------------------------------------------------------------------------------------------
# Value learning
# --------------------------------------------------------------------------------------------


def td_learning(v_tm1: Array, r_t: Array, discount_t: ArrayLike, v_t: Array, stop_target_gradients: bool = True) -> Array:
    """TD(0) error for a single transition."""
    target = r_t + discount_t * v_t
    target = lax.stop_gradient(target) if stop_target_gradients else target
    return target - v_tm1


def q_learning(q_tm1: Array, a_tm1: Array, r_t: Array, discount_t: ArrayLike, q_t: Array) -> Array:
    target = r_t + discount_t * jnp.max(q_t)
    return lax.stop_gradient(target) - q_tm1[a_tm1]


def double_q_learning(q_tm1: Array, a_tm1: Array, r_t: Array, discount_t: Array, q_t_value: Array, q_t_selector: Array) -> Array:
    best_action = jnp.argmax(q_t_selector)
    target = r_t + discount_t * q_t_value[best_action]
    return lax.stop_gradient(target) - q_tm1[a_tm1]


def expected_sarsa(q_tm1: Array, a_tm1: Array, r_t: Array, discount_t: Array, q_t: Array, probs_a_t: Array) -> Array:
    target = r_t + discount_t * jnp.dot(q_t, probs_a_t)
    return lax.stop_gradient(target) - q_tm1[a_tm1]


def discounted_returns(r_t: Array, discount_t: Array, v_t: ArrayLike) -> Array:
    """Monte-Carlo returns bootstrapped from ``v_t`` (a scalar or the last value)."""
    bootstrap = jnp.broadcast_to(jnp.asarray(v_t), r_t.shape)[-1]

    def body(acc: Array, xs: tuple[Array, Array]) -> tuple[Array, Array]:
        reward, discount = xs
        acc = reward + discount * acc
        return acc, acc

    _, returns = lax.scan(body, bootstrap, (r_t, discount_t), reverse=True)
    return returns


def lambda_returns(
    r_t: Array, discount_t: Array, v_t: Array, lambda_: ArrayLike = 1.0, stop_target_gradients: bool = False
) -> Array:
    """TD(lambda) returns ``G_t = r_t + discount_t ((1 - lambda) v_t + lambda G_{t+1})``."""
    lambda_ = jnp.ones_like(discount_t) * lambda_

    def body(acc: Array, xs: tuple[Array, Array, Array, Array]) -> tuple[Array, Array]:
        reward, discount, value, lam = xs
        acc = reward + discount * ((1.0 - lam) * value + lam * acc)
        return acc, acc

    carry, returns = lax.scan(body, v_t[-1], (r_t, discount_t, v_t, lambda_), reverse=True)
    assert_type(carry, Array)
    return lax.stop_gradient(returns) if stop_target_gradients else returns


def n_step_bootstrapped_returns(r_t: Array, discount_t: Array, v_t: Array, n: int, lambda_t: ArrayLike = 1.0) -> Array:
    """n-step returns, truncated at the end of the sequence (rlax's definition)."""
    seq_len = r_t.shape[0]
    lambda_t = jnp.ones_like(discount_t) * lambda_t
    pad = min(n - 1, seq_len)
    targets = jnp.concatenate([v_t[n - 1 :], jnp.broadcast_to(v_t[-1], (pad,))])
    r_t = jnp.concatenate([r_t, jnp.zeros(n - 1)])
    discount_t = jnp.concatenate([discount_t, jnp.ones(n - 1)])
    lambda_t = jnp.concatenate([lambda_t, jnp.ones(n - 1)])
    v_t = jnp.concatenate([v_t, jnp.broadcast_to(v_t[-1], (n - 1,))])
    for i in reversed(range(n)):
        r_ = r_t[i : i + seq_len]
        discount_ = discount_t[i : i + seq_len]
        lambda_ = lambda_t[i : i + seq_len]
        v_ = v_t[i : i + seq_len]
        targets = r_ + discount_ * ((1.0 - lambda_) * v_ + lambda_ * targets)
    return targets


def td_lambda(
    v_tm1: Array, r_t: Array, discount_t: Array, v_t: Array, lambda_: ArrayLike, stop_target_gradients: bool = True
) -> Array:
    targets = lambda_returns(r_t, discount_t, v_t, lambda_, stop_target_gradients)
    return targets - v_tm1


def truncated_generalized_advantage_estimation(
    r_t: Array, discount_t: Array, lambda_: ArrayLike, values: Array, stop_target_gradients: bool = False
) -> Array:
    """GAE over a trajectory of ``T`` steps; ``values`` has ``T + 1`` entries (with the bootstrap)."""
    lambda_ = jnp.ones_like(discount_t) * lambda_
    delta_t = r_t + discount_t * values[1:] - values[:-1]

    def body(acc: Array, xs: tuple[Array, Array, Array]) -> tuple[Array, Array]:
        delta, discount, lam = xs
        acc = delta + discount * lam * acc
        return acc, acc

    _, advantages = lax.scan(body, jnp.zeros_like(values[0]), (delta_t, discount_t, lambda_), reverse=True)
    return lax.stop_gradient(advantages) if stop_target_gradients else advantages


class VTraceOutput(NamedTuple):
    errors: Array
    pg_advantage: Array
    q_estimate: Array


def vtrace_td_error_and_advantage(
    v_tm1: Array,
    v_t: Array,
    r_t: Array,
    discount_t: Array,
    rho_tm1: Array,
    lambda_: ArrayLike = 1.0,
    clip_rho_threshold: float = 1.0,
    clip_pg_rho_threshold: float = 1.0,
) -> VTraceOutput:
    """V-trace targets (IMPALA) for off-policy actor-critic."""
    c_tm1 = jnp.minimum(1.0, rho_tm1) * lambda_
    clipped_rhos = jnp.minimum(clip_rho_threshold, rho_tm1)
    td_errors = clipped_rhos * (r_t + discount_t * v_t - v_tm1)

    def body(acc: Array, xs: tuple[Array, Array, Array]) -> tuple[Array, Array]:
        td_error, discount, c = xs
        acc = td_error + discount * c * acc
        return acc, acc

    _, corrections = lax.scan(body, jnp.zeros_like(v_t[-1]), (td_errors, discount_t, c_tm1), reverse=True)
    targets = lax.stop_gradient(corrections + v_tm1)
    q_bootstrap = jnp.concatenate([targets[1:], v_t[-1:]])
    q_estimate = r_t + discount_t * q_bootstrap
    pg_advantage = jnp.minimum(clip_pg_rho_threshold, rho_tm1) * (q_estimate - v_tm1)
    return VTraceOutput(targets - v_tm1, pg_advantage, q_estimate)


# --------------------------------------------------------------------------------------------
# Policy gradient losses
# --------------------------------------------------------------------------------------------


def policy_gradient_loss(logits_t: Array, a_t: Array, adv_t: Array, w_t: Optional[Array] = None, use_stop_gradient: bool = True) -> Array:
    """``-sum(w_t * adv_t * log pi(a_t))`` averaged over time."""
    adv_t = lax.stop_gradient(adv_t) if use_stop_gradient else adv_t
    log_pi_a_t = batched_index(log_softmax(logits_t), a_t)
    return -masked_mean(log_pi_a_t * adv_t, w_t)


def entropy_loss(logits_t: Array, w_t: Optional[Array] = None) -> Array:
    return -masked_mean(softmax_entropy(logits_t), w_t)


def clipped_surrogate_pg_loss(prob_ratios_t: Array, adv_t: Array, epsilon: ArrayLike, use_stop_gradient: bool = True) -> Array:
    """PPO's clipped objective, negated for minimization."""
    adv_t = lax.stop_gradient(adv_t) if use_stop_gradient else adv_t
    clipped_ratios_t = jnp.clip(prob_ratios_t, 1.0 - epsilon, 1.0 + epsilon)
    clipped_objective = jnp.fmin(prob_ratios_t * adv_t, clipped_ratios_t * adv_t)
    return -jnp.mean(clipped_objective)


def kl_divergence(logits_p: Array, logits_q: Array) -> Array:
    log_p, log_q = log_softmax(logits_p), log_softmax(logits_q)
    return jnp.sum(jnp.exp(log_p) * (log_p - log_q), axis=-1)


# --------------------------------------------------------------------------------------------
# A small actor-critic agent trained with PPO
# --------------------------------------------------------------------------------------------


class Trajectory(NamedTuple):
    observations: Array  # [T + 1, obs_dim]
    actions: Array  # [T]
    rewards: Array  # [T]
    discounts: Array  # [T]
    behaviour_logits: Array  # [T, num_actions]
    mask: Optional[Array] = None


@dataclasses.dataclass(frozen=True)
class PPOConfig:
    discount: float = 0.99
    gae_lambda: float = 0.95
    clip_epsilon: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    learning_rate: float = 3e-3

    def __post_init__(self) -> None:
        if not 0.0 <= self.discount < 1.0:
            raise ValueError(f"discount must be in [0, 1), got {self.discount}")
        effective_horizon(self.discount)


def init_agent(key: PRNGKeyArray, obs_dim: int, num_actions: int, hidden: int = 16) -> Params:
    k1, k2, k3 = random.split(key, 3)
    scale = 1.0 / np.sqrt(obs_dim)
    return {
        "w_torso": random.normal(k1, (obs_dim, hidden)) * scale,
        "b_torso": jnp.zeros(hidden),
        "w_policy": random.normal(k2, (hidden, num_actions)) * 0.01,
        "w_value": random.normal(k3, (hidden, 1)) * 0.01,
    }


def apply_agent(params: Params, observations: Array) -> tuple[Array, Array]:
    h = jnp.tanh(observations @ params["w_torso"] + params["b_torso"])
    return h @ params["w_policy"], (h @ params["w_value"])[..., 0]


def ppo_loss(params: Params, traj: Trajectory, config: PPOConfig) -> tuple[Array, dict[str, Array]]:
    logits, values = apply_agent(params, traj.observations)
    logits_t = logits[:-1]
    advantages = truncated_generalized_advantage_estimation(
        traj.rewards, traj.discounts * config.discount, config.gae_lambda, lax.stop_gradient(values)
    )
    returns = advantages + lax.stop_gradient(values[:-1])
    advantages = (advantages - jnp.mean(advantages)) / (jnp.std(advantages) + 1e-8)

    log_pi = batched_index(log_softmax(logits_t), traj.actions)
    log_mu = batched_index(log_softmax(traj.behaviour_logits), traj.actions)
    ratios = jnp.exp(log_pi - log_mu)
    pg_loss = clipped_surrogate_pg_loss(ratios, advantages, config.clip_epsilon)
    value_loss = masked_mean(l2_loss(values[:-1], returns), traj.mask)
    ent_loss = entropy_loss(logits_t, traj.mask)
    total = pg_loss + config.value_coef * value_loss + config.entropy_coef * ent_loss
    return total, {"pg_loss": pg_loss, "value_loss": value_loss, "entropy": -ent_loss}


@partial(jax.jit, static_argnames=("config",))
def ppo_update(params: Params, trajs: Trajectory, config: PPOConfig) -> tuple[Params, dict[str, Array]]:
    """One SGD step on the mean PPO loss over a batch of trajectories."""

    def batch_loss(p: Params) -> tuple[Array, dict[str, Array]]:
        losses, logs = jax.vmap(ppo_loss, in_axes=(None, 0, None))(p, trajs, config)
        assert_type(losses, Array)
        return jnp.mean(losses), {k: jnp.mean(v) for k, v in logs.items()}

    (loss, logs), grads = jax.value_and_grad(batch_loss, has_aux=True)(params)
    assert_type(grads, Params)
    new_params: Params = jax.tree_util.tree_map(lambda p, g: p - config.learning_rate * g, params, grads)
    return new_params, {**logs, "loss": loss}


def rollout(key: PRNGKeyArray, params: Params, num_steps: int, obs_dim: int) -> Trajectory:
    """A toy environment: the reward is 1 when the action matches the sign of the first feature."""

    def step(carry: tuple[Array, Array], k: Array) -> tuple[tuple[Array, Array], tuple[Array, Array, Array, Array]]:
        obs, done = carry
        k_act, k_obs = random.split(k)
        logits, _ = apply_agent(params, obs)
        action = random.categorical(k_act, logits)
        reward = (action == (obs[0] > 0)).astype(jnp.float32)
        next_obs = random.normal(k_obs, (obs_dim,))
        done = random.uniform(k_obs) < 0.1
        discount = jnp.where(done, 0.0, 1.0)
        return (next_obs, done), (obs, action, reward, discount)

    k_init, k_steps = random.split(key)
    obs0 = random.normal(k_init, (obs_dim,))
    (last_obs, _), (obs, actions, rewards, discounts) = lax.scan(
        step, (obs0, jnp.array(False)), random.split(k_steps, num_steps)
    )
    observations = jnp.concatenate([obs, last_obs[None]])
    behaviour_logits, _ = apply_agent(params, obs)
    return Trajectory(observations, actions, rewards, discounts, behaviour_logits, jnp.ones(num_steps))


def q_learning_batch_loss(q_tm1: Array, a_tm1: Array, r_t: Array, discount_t: Array, q_t: Array) -> Array:
    errors = jax.vmap(q_learning)(q_tm1, a_tm1, r_t, discount_t, q_t)
    return jnp.mean(huber_loss(errors))


def discount_schedule(discount: ArrayLike, num_steps: int) -> Array:
    """``discount ** t`` for t = 0 .. num_steps - 1, computed on the host."""
    gamma = float(np.asarray(discount))
    return jnp.asarray(gamma ** np.arange(num_steps), jnp.float32)


def tree_weighted_sum(trees: Mapping[str, Params], weights: Mapping[str, float]) -> Params:
    def combine(*leaves: Array) -> Array:
        return sum((w * leaf for w, leaf in zip(weights.values(), leaves)), start=jnp.zeros_like(leaves[0]))

    out: Params = jax.tree_util.tree_map(combine, *trees.values())
    return out


if __name__ == "__main__":
    T = 5
    rewards = jnp.array([1.0, 0.0, 0.0, 1.0, 1.0])
    discounts = jnp.array([0.9, 0.9, 0.9, 0.0, 0.9])
    values = jnp.array([0.5, 0.4, 0.3, 0.2, 0.1, 0.0])

    mc = discounted_returns(rewards, discounts, 0.0)
    lam1 = lambda_returns(rewards, discounts, values[1:], 1.0)
    assert_type(lam1, Array)
    assert float(jnp.max(jnp.abs(mc - lam1))) < 1e-6, (mc, lam1)
    lam0 = lambda_returns(rewards, discounts, values[1:], 0.0)
    assert float(jnp.max(jnp.abs(lam0 - (rewards + discounts * values[1:])))) < 1e-6
    n1 = n_step_bootstrapped_returns(rewards, discounts, values[1:], 1)
    assert float(jnp.max(jnp.abs(n1 - lam0))) < 1e-6
    nT = n_step_bootstrapped_returns(rewards, discounts, values[1:], T, lambda_t=np.float32(1.0))
    assert float(jnp.max(jnp.abs(nT - lam1))) < 1e-6
    td = td_lambda(values[:-1], rewards, discounts, values[1:], 0.9)
    gae = truncated_generalized_advantage_estimation(rewards, discounts, 0.9, values)
    assert_type(gae, Array)
    assert float(jnp.max(jnp.abs(td - gae))) < 1e-5, (td, gae)
    vt = vtrace_td_error_and_advantage(values[:-1], values[1:], rewards, discounts, jnp.ones(T), lambda_=1.0)
    assert_type(vt, VTraceOutput)
    assert float(jnp.max(jnp.abs(vt.errors - td_lambda(values[:-1], rewards, discounts, values[1:], 1.0)))) < 1e-5

    # Batched value losses: vmap over a leading batch axis
    q_tm1 = jnp.arange(12.0).reshape(4, 3)
    actions = jnp.array([0, 1, 2, 1])
    td_batch = jax.vmap(td_learning)(q_tm1[:, 0], jnp.ones(4), jnp.full(4, 0.9), q_tm1[:, 1])
    assert_type(td_batch, Array)
    q_err = jax.vmap(q_learning, in_axes=(0, 0, 0, None, 0))(q_tm1, actions, jnp.ones(4), 0.99, q_tm1[::-1])
    assert q_err.shape == (4,) and td_batch.shape == (4,)
    dq = jax.vmap(double_q_learning)(q_tm1, actions, jnp.ones(4), jnp.full(4, 0.9), q_tm1, q_tm1[::-1])
    es = jax.vmap(expected_sarsa)(q_tm1, actions, jnp.ones(4), jnp.full(4, 0.9), q_tm1, jnp.full((4, 3), 1 / 3))
    assert dq.shape == es.shape == (4,)
    q_grad = jax.grad(q_learning_batch_loss)(q_tm1, actions, jnp.ones(4), jnp.full(4, 0.9), q_tm1 + 1.0)
    assert_type(q_grad, Array)
    assert q_grad.shape == (4, 3)
    batched_gae = jax.vmap(truncated_generalized_advantage_estimation, in_axes=[0, 0, None, 0])(
        jnp.stack([rewards, rewards]), jnp.stack([discounts, discounts]), 0.95, jnp.stack([values, values])
    )
    assert batched_gae.shape == (2, T)

    ratios = jnp.array([[0.5, 1.0, 1.5], [1.1, 0.9, 1.3]])
    advs = jnp.array([[1.0, -1.0, 2.0], [0.5, 0.5, -1.0]])
    clipped = jax.vmap(clipped_surrogate_pg_loss, in_axes=(0, 0, None))(ratios, advs, 0.2)
    assert_type(clipped, Array)
    assert clipped.shape == (2,)
    logits = jnp.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0], [3.0, -1.0, 0.0]])
    pg = policy_gradient_loss(logits, jnp.array([1, 0, 2]), jnp.array([1.0, -0.5, 2.0]))
    pg_masked = policy_gradient_loss(logits, jnp.array([1, 0, 2]), jnp.array([1.0, -0.5, 2.0]), jnp.array([1.0, 1.0, 0.0]))
    ent = entropy_loss(logits)
    assert float(pg) != float(pg_masked) and float(ent) < 0
    pg_grad = jax.grad(policy_gradient_loss)(logits, jnp.array([1, 0, 2]), jnp.array([1.0, -0.5, 2.0]))
    assert_type(pg_grad, Array)
    assert float(jnp.max(jnp.abs(jnp.sum(pg_grad, axis=-1)))) < 1e-6
    assert float(kl_divergence(logits[0], logits[0])) == 0.0

    schedule = discount_schedule(np.float32(0.5), 4)
    assert schedule.tolist() == [1.0, 0.5, 0.25, 0.125]
    assert abs(float(effective_horizon(0.9)) - 10.0) < 1e-4

    # PPO on a toy bandit-like task
    config = PPOConfig(learning_rate=0.1)
    key = random.key(1)
    key, k_init = random.split(key)
    params = init_agent(k_init, obs_dim=3, num_actions=2)
    first_reward = last_reward = 0.0
    logs: dict[str, Array] = {}
    batched_rollout = jax.jit(jax.vmap(rollout, in_axes=(0, None, None, None)), static_argnums=(2, 3))
    for it in range(4):
        key, k_roll = random.split(key)
        trajs = batched_rollout(random.split(k_roll, 4), params, 12, 3)
        assert_type(trajs, Trajectory)
        params, logs = ppo_update(params, trajs, config)
        mean_reward = float(jnp.mean(trajs.rewards))
        first_reward = mean_reward if it == 0 else first_reward
        last_reward = mean_reward
    assert bool(jnp.isfinite(logs["loss"]))
    averaged = tree_weighted_sum({"a": params, "b": params}, {"a": 0.5, "b": 0.5})
    assert float(jnp.max(jnp.abs(averaged["w_torso"] - params["w_torso"]))) < 1e-6
    print("rl_losses: ok", first_reward, last_reward, {k: float(v) for k, v in logs.items()})
