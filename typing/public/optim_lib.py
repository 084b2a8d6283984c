"""Gradient transformations in the style of optax, written against jax_core.

An optimiser is a ``GradientTransformation``: a pair of pure functions,
``init(params) -> state`` and ``update(updates, state, params) -> (updates, state)``.
Transformations compose with ``chain``; ``apply_updates`` adds the final updates to the
parameters. Parameters, updates and states are pytrees.
"""

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Optional, Protocol, TypeVar, Union, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import Array, lax
from jax_core.typing import ArrayLike, DTypeLike

PyTree = Any
Params = PyTree
Updates = PyTree
OptState = PyTree

Numeric = Union[Array, float, int]
Schedule = Callable[[Numeric], Numeric]
ScalarOrSchedule = Union[float, Array, Schedule]
MaskOrFn = Union[None, PyTree, Callable[[Params], PyTree]]

P = TypeVar("P")

NO_PARAMS_MSG = (
    "You are using a transformation that requires the current value of parameters, but you "
    "are not passing `params` when calling `update`."
)


# --------------------------------------------------------------------------------------
# Base types
# --------------------------------------------------------------------------------------


class TransformInitFn(Protocol):
    """Builds the initial state of a transformation from the parameters."""

    def __call__(self, params: Params) -> OptState: ...


class TransformUpdateFn(Protocol):
    """Transforms a pytree of updates, returning them with the new state."""

    def __call__(
        self, updates: Updates, state: OptState, params: Optional[Params] = None
    ) -> tuple[Updates, OptState]: ...


class TransformUpdateExtraArgsFn(Protocol):
    """An update function that also takes extra keyword arguments (a loss value...)."""

    def __call__(
        self,
        updates: Updates,
        state: OptState,
        params: Optional[Params] = None,
        **extra_args: Any,
    ) -> tuple[Updates, OptState]: ...


class GradientTransformation(NamedTuple):
    """A pair of pure functions implementing a gradient transformation."""

    init: TransformInitFn
    update: TransformUpdateFn


class GradientTransformationExtraArgs(NamedTuple):
    """A gradient transformation whose ``update`` takes extra keyword arguments."""

    init: TransformInitFn
    update: TransformUpdateExtraArgsFn


AnyTransformation = Union[GradientTransformation, GradientTransformationExtraArgs]


class EmptyState(NamedTuple):
    """The state of stateless transformations."""


class MaskedNode(NamedTuple):
    """A node standing for a masked-out leaf: a pytree with no leaves."""


def with_extra_args_support(tx: AnyTransformation) -> GradientTransformationExtraArgs:
    """Wraps a transformation so that its update accepts (and ignores) extra arguments."""
    if isinstance(tx, GradientTransformationExtraArgs):
        return tx
    inner_update = tx.update

    def update(
        updates: Updates, state: OptState, params: Optional[Params] = None, **extra_args: Any
    ) -> tuple[Updates, OptState]:
        del extra_args
        return inner_update(updates, state, params)

    return GradientTransformationExtraArgs(tx.init, update)


# --------------------------------------------------------------------------------------
# Tree utilities
# --------------------------------------------------------------------------------------


def tree_zeros_like(tree: PyTree, dtype: DTypeLike | None = None) -> PyTree:
    return jax.tree.map(lambda x: jnp.zeros_like(x, dtype=dtype), tree)


def tree_full_like(tree: PyTree, fill_value: ArrayLike, dtype: DTypeLike | None = None) -> PyTree:
    return jax.tree.map(lambda x: jnp.full_like(x, fill_value, dtype=dtype), tree)


def tree_add(tree_x: PyTree, tree_y: PyTree) -> PyTree:
    return jax.tree.map(lambda x, y: x + y, tree_x, tree_y)


def tree_sub(tree_x: PyTree, tree_y: PyTree) -> PyTree:
    return jax.tree.map(lambda x, y: x - y, tree_x, tree_y)


def tree_scalar_mul(scalar: ArrayLike, tree: PyTree) -> PyTree:
    return jax.tree.map(lambda x: scalar * x, tree)


def tree_add_scalar_mul(tree_x: PyTree, scalar: ArrayLike, tree_y: PyTree) -> PyTree:
    """``tree_x + scalar * tree_y``, leafwise."""
    return jax.tree.map(lambda x, y: x + scalar * y, tree_x, tree_y)


def tree_vdot(tree_x: PyTree, tree_y: PyTree) -> Array:
    products = jax.tree.leaves(jax.tree.map(lambda x, y: jnp.vdot(x, y), tree_x, tree_y))
    return sum(products, start=jnp.zeros(()))


def tree_l2_norm(tree: PyTree, squared: bool = False) -> Array:
    squares = [jnp.sum(jnp.square(jnp.abs(x))) for x in jax.tree.leaves(tree)]
    total = sum(squares, start=jnp.zeros(()))
    return total if squared else jnp.sqrt(total)


def tree_cast(tree: PyTree, dtype: DTypeLike | None) -> PyTree:
    if dtype is None:
        return tree
    return jax.tree.map(lambda x: x.astype(dtype), tree)


def tree_all_finite(tree: PyTree) -> Array:
    leaves = jax.tree.leaves(tree)
    flags = [jnp.all(jnp.isfinite(x)) for x in leaves]
    return jnp.all(jnp.stack(flags)) if flags else jnp.array(True)


def tree_update_moment(updates: Updates, moments: Updates, decay: float, order: int) -> Updates:
    """The exponential moving average of the ``order``-th power of the updates."""
    return jax.tree.map(
        lambda g, t: (1 - decay) * (g**order) + decay * t if g is not None else None,
        updates,
        moments,
        is_leaf=lambda x: x is None,
    )


def tree_update_moment_per_elem_norm(
    updates: Updates, moments: Updates, decay: float, order: int
) -> Updates:
    """Like ``tree_update_moment``, of ``|g| ** order`` (real norms for complex updates)."""

    def orderth_norm(g: Array) -> Array:
        if jnp.isrealobj(g):
            return g**order
        half_order = order / 2
        if half_order.is_integer():
            return jnp.square(jnp.abs(g)) ** int(half_order)
        return jnp.abs(g) ** order

    return jax.tree.map(
        lambda g, t: (1 - decay) * orderth_norm(g) + decay * t if g is not None else None,
        updates,
        moments,
        is_leaf=lambda x: x is None,
    )


def tree_bias_correction(moment: Updates, decay: float, count: Array) -> Updates:
    bias_correction = 1 - decay**count
    return jax.tree.map(lambda t: t / bias_correction.astype(t.dtype), moment)


def safe_int32_increment(count: Array) -> Array:
    """Increments ``count``, saturating at the largest int32."""
    max_int32 = jnp.iinfo(jnp.int32).max
    one = jnp.array(1, dtype=jnp.int32)
    return jnp.where(count < max_int32, count + one, max_int32)


def apply_updates(params: P, updates: Updates) -> P:
    """Adds ``updates`` to ``params``, keeping each parameter's dtype."""
    new_params: P = jax.tree.map(
        lambda p, u: None if p is None else jnp.asarray(p + u).astype(jnp.asarray(p).dtype),
        params,
        updates,
        is_leaf=lambda x: x is None,
    )
    return new_params


def incremental_update(new_tensors: P, old_tensors: P, step_size: ArrayLike) -> P:
    """Polyak averaging: ``step_size * new + (1 - step_size) * old``, leafwise."""
    averaged: P = jax.tree.map(
        lambda new, old: step_size * new + (1.0 - step_size) * old, new_tensors, old_tensors
    )
    return averaged


def periodic_update(new_tensors: P, old_tensors: P, steps: Array, update_period: int) -> P:
    """Returns ``new_tensors`` every ``update_period`` steps, ``old_tensors`` otherwise."""
    return lax.cond(
        steps % update_period == 0, lambda _: new_tensors, lambda _: old_tensors, None
    )


# --------------------------------------------------------------------------------------
# Schedules
# --------------------------------------------------------------------------------------


def constant_schedule(value: float) -> Schedule:
    return lambda count: value


def polynomial_schedule(
    init_value: float,
    end_value: float,
    power: float,
    transition_steps: int,
    transition_begin: int = 0,
) -> Schedule:
    if transition_steps <= 0:
        return lambda count: init_value

    def schedule(count: Numeric) -> Array:
        steps = jnp.clip(jnp.asarray(count) - transition_begin, 0, transition_steps)
        frac = 1 - steps / transition_steps
        return (init_value - end_value) * (frac**power) + end_value

    return schedule


def linear_schedule(
    init_value: float, end_value: float, transition_steps: int, transition_begin: int = 0
) -> Schedule:
    return polynomial_schedule(init_value, end_value, 1, transition_steps, transition_begin)


def exponential_decay(
    init_value: float,
    transition_steps: int,
    decay_rate: float,
    transition_begin: int = 0,
    staircase: bool = False,
    end_value: Optional[float] = None,
) -> Schedule:
    """``init_value * decay_rate ** (count / transition_steps)``, optionally clipped."""

    def schedule(count: Numeric) -> Array:
        decreased = jnp.asarray(count) - transition_begin
        p = decreased / transition_steps
        if staircase:
            p = jnp.floor(p)
        value = jnp.where(decreased <= 0, init_value, init_value * jnp.power(decay_rate, p))
        if end_value is not None:
            clip = jnp.maximum if decay_rate < 1.0 else jnp.minimum
            value = clip(value, end_value)
        return value

    return schedule


def cosine_decay_schedule(
    init_value: float, decay_steps: int, alpha: float = 0.0, exponent: float = 1.0
) -> Schedule:
    if decay_steps <= 0:
        raise ValueError(f"decay_steps must be positive, got {decay_steps}")

    def schedule(count: Numeric) -> Array:
        count = jnp.minimum(count, decay_steps)
        cosine_decay = 0.5 * (1 + jnp.cos(jnp.pi * count / decay_steps))
        decayed = (1 - alpha) * cosine_decay**exponent + alpha
        return init_value * decayed

    return schedule


def piecewise_constant_schedule(
    init_value: float, boundaries_and_scales: Optional[Mapping[int, float]] = None
) -> Schedule:
    """Multiplies the value by ``scale`` once the count passes each boundary."""
    items = sorted((boundaries_and_scales or {}).items())

    def schedule(count: Numeric) -> Array:
        v = jnp.asarray(init_value)
        for boundary, scale in items:
            v = v * jnp.where(jnp.asarray(count) < boundary, 1.0, scale)
        return v

    return schedule


def join_schedules(schedules: Sequence[Schedule], boundaries: Sequence[int]) -> Schedule:
    """Runs ``schedules[i + 1]`` after ``boundaries[i]`` steps, with the count restarted."""

    def schedule(step: Numeric) -> Numeric:
        output = schedules[0](step)
        for boundary, next_schedule in zip(boundaries, schedules[1:]):
            output = jnp.where(step < boundary, output, next_schedule(step - boundary))
        return output

    return schedule


def warmup_cosine_decay_schedule(
    init_value: float,
    peak_value: float,
    warmup_steps: int,
    decay_steps: int,
    end_value: float = 0.0,
    exponent: float = 1.0,
) -> Schedule:
    alpha = 0.0 if peak_value == 0.0 else end_value / peak_value
    return join_schedules(
        [
            linear_schedule(init_value, peak_value, warmup_steps),
            cosine_decay_schedule(peak_value, decay_steps - warmup_steps, alpha, exponent),
        ],
        [warmup_steps],
    )


# --------------------------------------------------------------------------------------
# Transformations
# --------------------------------------------------------------------------------------


def identity() -> GradientTransformation:
    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: EmptyState, params: Optional[Params] = None
    ) -> tuple[Updates, EmptyState]:
        del params
        return updates, state

    return GradientTransformation(init_fn, update_fn)


def scale(step_size: ArrayLike) -> GradientTransformation:
    """Multiplies the updates by a constant."""

    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: EmptyState, params: Optional[Params] = None
    ) -> tuple[Updates, EmptyState]:
        del params
        return tree_scalar_mul(step_size, updates), state

    return GradientTransformation(init_fn, update_fn)


class ScaleByScheduleState(NamedTuple):
    step: Array


def scale_by_schedule(step_size_fn: Schedule) -> GradientTransformation:
    """Multiplies the updates by ``step_size_fn(count)``."""

    def init_fn(params: Params) -> ScaleByScheduleState:
        del params
        return ScaleByScheduleState(step=jnp.zeros([], jnp.int32))

    def update_fn(
        updates: Updates, state: ScaleByScheduleState, params: Optional[Params] = None
    ) -> tuple[Updates, ScaleByScheduleState]:
        del params
        step_size = step_size_fn(state.step)
        updates = jax.tree.map(lambda g: jnp.array(step_size, dtype=g.dtype) * g, updates)
        return updates, ScaleByScheduleState(step=safe_int32_increment(state.step))

    return GradientTransformation(init_fn, update_fn)


def scale_by_learning_rate(
    learning_rate: ScalarOrSchedule, *, flip_sign: bool = True
) -> GradientTransformation:
    m = -1 if flip_sign else 1
    if isinstance(learning_rate, (int, float, Array)):
        return scale(m * learning_rate)
    schedule = learning_rate
    return scale_by_schedule(lambda count: m * schedule(count))


class ScaleByAdamState(NamedTuple):
    step: Array
    mu: Updates
    nu: Updates
    nu_max: Optional[Updates] = None


def scale_by_adam(
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    eps_root: float = 0.0,
    mu_dtype: DTypeLike | None = None,
    *,
    nesterov: bool = False,
    amsgrad: bool = False,
) -> GradientTransformation:
    """Rescales updates by Adam's moment estimates (Kingma & Ba, 2014)."""

    def init_fn(params: Params) -> ScaleByAdamState:
        mu = tree_zeros_like(params, dtype=mu_dtype)
        nu = tree_zeros_like(params)
        nu_max = tree_zeros_like(params) if amsgrad else None
        return ScaleByAdamState(jnp.zeros([], jnp.int32), mu, nu, nu_max)

    def update_fn(
        updates: Updates, state: ScaleByAdamState, params: Optional[Params] = None
    ) -> tuple[Updates, ScaleByAdamState]:
        del params
        mu = tree_update_moment(updates, state.mu, b1, 1)
        nu = tree_update_moment_per_elem_norm(updates, state.nu, b2, 2)
        count_inc = safe_int32_increment(state.step)
        if nesterov:
            mu_hat = jax.tree.map(
                lambda m, g: b1 * m / (1 - b1 ** (count_inc + 1)) + (1 - b1) * g / (1 - b1**count_inc),
                mu,
                updates,
            )
        else:
            mu_hat = tree_bias_correction(mu, b1, count_inc)
        nu_hat = tree_bias_correction(nu, b2, count_inc)
        nu_max: Optional[Updates] = None
        if state.nu_max is not None:
            nu_max = jax.tree.map(jnp.maximum, state.nu_max, nu_hat)
            nu_hat = nu_max
        updates = jax.tree.map(
            lambda m, v: None if m is None else m / (jnp.sqrt(v + eps_root) + eps),
            mu_hat,
            nu_hat,
            is_leaf=lambda x: x is None,
        )
        return updates, ScaleByAdamState(count_inc, tree_cast(mu, mu_dtype), nu, nu_max)

    return GradientTransformation(init_fn, update_fn)


class ScaleByRmsState(NamedTuple):
    nu: Updates
    mu: Optional[Updates]


def scale_by_rms(
    decay: float = 0.9, eps: float = 1e-8, initial_scale: float = 0.0, centered: bool = False
) -> GradientTransformation:
    """Divides updates by the root mean square of past gradients (centered: their std)."""

    def init_fn(params: Params) -> ScaleByRmsState:
        nu = tree_full_like(params, initial_scale)
        mu = tree_zeros_like(params) if centered else None
        return ScaleByRmsState(nu=nu, mu=mu)

    def update_fn(
        updates: Updates, state: ScaleByRmsState, params: Optional[Params] = None
    ) -> tuple[Updates, ScaleByRmsState]:
        del params
        nu = tree_update_moment_per_elem_norm(updates, state.nu, decay, 2)
        if state.mu is None:
            updates = jax.tree.map(lambda g, n: g * lax.rsqrt(n + eps), updates, nu)
            return updates, ScaleByRmsState(nu=nu, mu=None)
        mu = tree_update_moment(updates, state.mu, decay, 1)
        updates = jax.tree.map(
            lambda g, m, n: g * lax.rsqrt(n - jnp.square(m) + eps), updates, mu, nu
        )
        return updates, ScaleByRmsState(nu=nu, mu=mu)

    return GradientTransformation(init_fn, update_fn)


class TraceState(NamedTuple):
    trace: Params


def trace(
    decay: float, nesterov: bool = False, accumulator_dtype: DTypeLike | None = None
) -> GradientTransformation:
    """Momentum: accumulates ``decay * trace + g``."""

    def init_fn(params: Params) -> TraceState:
        return TraceState(trace=tree_zeros_like(params, dtype=accumulator_dtype))

    def update_fn(
        updates: Updates, state: TraceState, params: Optional[Params] = None
    ) -> tuple[Updates, TraceState]:
        del params
        new_trace = jax.tree.map(lambda g, t: g + decay * t, updates, state.trace)
        if nesterov:
            updates = jax.tree.map(lambda g, t: g + decay * t, updates, new_trace)
        else:
            updates = new_trace
        return updates, TraceState(trace=tree_cast(new_trace, accumulator_dtype))

    return GradientTransformation(init_fn, update_fn)


class ScaleByLionState(NamedTuple):
    step: Array
    mu: Updates


def scale_by_lion(b1: float = 0.9, b2: float = 0.99) -> GradientTransformation:
    """The sign of an interpolation of momentum and gradient (Chen et al., 2023)."""

    def init_fn(params: Params) -> ScaleByLionState:
        return ScaleByLionState(step=jnp.zeros([], jnp.int32), mu=tree_zeros_like(params))

    def update_fn(
        updates: Updates, state: ScaleByLionState, params: Optional[Params] = None
    ) -> tuple[Updates, ScaleByLionState]:
        del params
        updates_new = jax.tree.map(
            lambda g, m: jnp.sign((1.0 - b1) * g + b1 * m), updates, state.mu
        )
        mu = tree_update_moment(updates, state.mu, b2, 1)
        return updates_new, ScaleByLionState(step=safe_int32_increment(state.step), mu=mu)

    return GradientTransformation(init_fn, update_fn)


def clip(max_delta: ArrayLike) -> GradientTransformation:
    """Clips each update to ``[-max_delta, max_delta]``."""

    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: EmptyState, params: Optional[Params] = None
    ) -> tuple[Updates, EmptyState]:
        del params
        updates = jax.tree.map(lambda g: jnp.clip(g, -jnp.asarray(max_delta), max_delta), updates)
        return updates, state

    return GradientTransformation(init_fn, update_fn)


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    """Rescales the updates so that their global L2 norm is at most ``max_norm``."""

    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: EmptyState, params: Optional[Params] = None
    ) -> tuple[Updates, EmptyState]:
        del params
        g_norm = tree_l2_norm(updates)
        trigger = jnp.squeeze(g_norm < max_norm)

        def clip_fn(t: Array) -> Array:
            return lax.select(trigger, t, (t / g_norm.astype(t.dtype)) * max_norm)

        return jax.tree.map(clip_fn, updates), state

    return GradientTransformation(init_fn, update_fn)


class MaskedState(NamedTuple):
    inner_state: Any


def _mask_pytree(pytree: PyTree, mask_tree: PyTree) -> PyTree:
    return jax.tree.map(lambda m, p: p if m else MaskedNode(), mask_tree, pytree)


def masked(inner: GradientTransformation, mask: Union[PyTree, Callable[[Params], PyTree]]) -> GradientTransformation:
    """Applies ``inner`` only where ``mask`` (a pytree of bools, or a function of the
    parameters returning one) is true; elsewhere the updates pass through."""

    def mask_tree_for(params: PyTree) -> PyTree:
        return mask(params) if callable(mask) else mask

    def init_fn(params: Params) -> MaskedState:
        mask_tree = mask_tree_for(params)
        return MaskedState(inner_state=inner.init(_mask_pytree(params, mask_tree)))

    def update_fn(
        updates: Updates, state: MaskedState, params: Optional[Params] = None
    ) -> tuple[Updates, MaskedState]:
        mask_tree = mask_tree_for(updates)
        masked_updates = _mask_pytree(updates, mask_tree)
        masked_params = None if params is None else _mask_pytree(params, mask_tree)
        new_masked, new_inner = inner.update(masked_updates, state.inner_state, masked_params)
        new_updates = jax.tree.map(
            lambda m, new_u, old_u: new_u if m else old_u, mask_tree, new_masked, updates
        )
        return new_updates, MaskedState(inner_state=new_inner)

    return GradientTransformation(init_fn, update_fn)


def add_decayed_weights(weight_decay: ArrayLike = 0.0, mask: MaskOrFn = None) -> GradientTransformation:
    """Adds ``weight_decay * params`` to the updates (decoupled weight decay)."""

    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: EmptyState, params: Optional[Params] = None
    ) -> tuple[Updates, EmptyState]:
        if params is None:
            raise ValueError(NO_PARAMS_MSG)
        updates = jax.tree.map(lambda g, p: g + weight_decay * p, updates, params)
        return updates, state

    if mask is not None:
        return masked(GradientTransformation(init_fn, update_fn), mask)
    return GradientTransformation(init_fn, update_fn)


def chain(*args: AnyTransformation) -> GradientTransformationExtraArgs:
    """Applies the transformations in sequence; extra arguments reach each of them."""
    transforms = [with_extra_args_support(t) for t in args]
    init_fns = tuple(t.init for t in transforms)
    update_fns = tuple(t.update for t in transforms)

    def init_fn(params: Params) -> tuple[OptState, ...]:
        return tuple(fn(params) for fn in init_fns)

    def update_fn(
        updates: Updates,
        state: tuple[OptState, ...],
        params: Optional[Params] = None,
        **extra_args: Any,
    ) -> tuple[Updates, tuple[OptState, ...]]:
        if len(update_fns) != len(state):
            raise ValueError(
                "The number of updates and states has to be the same in chain! Make sure you "
                "have called init first!"
            )
        new_state: list[OptState] = []
        for s, fn in zip(state, update_fns):
            updates, new_s = fn(updates, s, params, **extra_args)
            new_state.append(new_s)
        return updates, tuple(new_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


class ApplyIfFiniteState(NamedTuple):
    notfinite_count: Array
    last_finite: Array
    total_notfinite: Array
    inner_state: Any


def apply_if_finite(inner: GradientTransformation, max_consecutive_errors: int) -> GradientTransformation:
    """Skips (zeroes) updates containing NaN or Inf, up to ``max_consecutive_errors`` in a row."""

    def init_fn(params: Params) -> ApplyIfFiniteState:
        return ApplyIfFiniteState(
            notfinite_count=jnp.zeros([], jnp.int32),
            last_finite=jnp.array(True, jnp.bool_),
            total_notfinite=jnp.zeros([], jnp.int32),
            inner_state=inner.init(params),
        )

    def update_fn(
        updates: Updates, state: ApplyIfFiniteState, params: Optional[Params] = None
    ) -> tuple[Updates, ApplyIfFiniteState]:
        inner_state = state.inner_state
        isfinite = tree_all_finite(updates)
        new_updates, new_inner = inner.update(updates, inner_state, params)
        reject = jnp.logical_and(
            jnp.logical_not(isfinite), state.notfinite_count < max_consecutive_errors
        )
        new_updates = jax.tree.map(
            lambda u: jnp.where(reject, jnp.zeros_like(u), u), new_updates
        )
        new_inner = jax.tree.map(
            lambda new, old: jnp.where(reject, old, new), new_inner, inner_state
        )
        notfinite_count = jnp.where(isfinite, jnp.zeros([], jnp.int32), state.notfinite_count + 1)
        return new_updates, ApplyIfFiniteState(
            notfinite_count=notfinite_count,
            last_finite=isfinite,
            total_notfinite=jnp.where(isfinite, state.total_notfinite, state.total_notfinite + 1),
            inner_state=new_inner,
        )

    return GradientTransformation(init_fn, update_fn)


class EmaState(NamedTuple):
    step: Array
    ema: Params


def ema(decay: float, debias: bool = True, accumulator_dtype: DTypeLike | None = None) -> GradientTransformation:
    """Replaces the updates by their exponential moving average."""

    def init_fn(params: Params) -> EmaState:
        return EmaState(
            step=jnp.zeros([], jnp.int32), ema=tree_zeros_like(params, dtype=accumulator_dtype)
        )

    def update_fn(
        updates: Updates, state: EmaState, params: Optional[Params] = None
    ) -> tuple[Updates, EmaState]:
        del params
        updates = new_ema = tree_update_moment(updates, state.ema, decay, order=1)
        count_inc = safe_int32_increment(state.step)
        if debias:
            updates = tree_bias_correction(new_ema, decay, count_inc)
        return updates, EmaState(step=count_inc, ema=tree_cast(new_ema, accumulator_dtype))

    return GradientTransformation(init_fn, update_fn)


class LookaheadState(NamedTuple):
    fast_state: OptState
    steps_since_sync: Array


class LookaheadParams(NamedTuple):
    """The fast weights, trained by the inner optimiser, and the slow weights."""

    fast: Params
    slow: Params

    @classmethod
    def init_synced(cls, params: Params) -> "LookaheadParams":
        return cls(fast=params, slow=params)


def lookahead(
    fast_optimizer: AnyTransformation,
    sync_period: int,
    slow_step_size: float,
    reset_state: bool = False,
) -> GradientTransformation:
    """Lookahead (Zhang et al., 2019): every ``sync_period`` steps the slow weights move
    towards the fast ones and the fast weights are reset to them."""
    if sync_period < 1:
        raise ValueError("Synchronization period must be >= 1.")
    fast = with_extra_args_support(fast_optimizer)

    def init_fn(params: LookaheadParams) -> LookaheadState:
        return LookaheadState(
            fast_state=fast.init(params.fast), steps_since_sync=jnp.zeros([], jnp.int32)
        )

    def update_fn(
        updates: LookaheadParams, state: LookaheadState, params: Optional[Params] = None
    ) -> tuple[LookaheadParams, LookaheadState]:
        if not isinstance(params, LookaheadParams):
            raise ValueError("lookahead needs the parameters, as LookaheadParams")
        fast_updates, fast_state = fast.update(updates.fast, state.fast_state, params.fast)
        sync_next = state.steps_since_sync == sync_period - 1
        new_fast = apply_updates(params.fast, fast_updates)
        slow_updates = jax.tree.map(
            lambda f, s: jnp.where(sync_next, slow_step_size * (f - s), jnp.zeros_like(s)),
            new_fast,
            params.slow,
        )
        fast_updates = jax.tree.map(
            lambda u, f, s: jnp.where(sync_next, s + slow_step_size * (f - s) - f + u, u),
            fast_updates,
            new_fast,
            params.slow,
        )
        if reset_state:
            initial = fast.init(params.fast)
            fast_state = jax.tree.map(
                lambda current, init: jnp.where(sync_next, init, current), fast_state, initial
            )
        steps = (state.steps_since_sync + 1) % sync_period
        return LookaheadParams(fast_updates, slow_updates), LookaheadState(fast_state, steps)

    return GradientTransformation(init_fn, update_fn)


class ReduceLROnPlateauState(NamedTuple):
    scale: Array
    best_value: Array
    plateau_count: Array
    cooldown_count: Array
    step: Array
    avg_value: Optional[Array]


def reduce_on_plateau(
    factor: float = 0.1,
    patience: int = 10,
    rtol: float = 1e-4,
    atol: float = 0.0,
    cooldown: int = 0,
    accumulation_size: int = 1,
    min_scale: float = 0.0,
) -> GradientTransformationExtraArgs:
    """Multiplies updates by a scale that drops by ``factor`` when the loss (``value=``)
    stops improving for ``patience`` accumulated steps."""

    def init_fn(params: Params) -> ReduceLROnPlateauState:
        del params
        return ReduceLROnPlateauState(
            scale=jnp.ones([], jnp.float32),
            best_value=jnp.asarray(float("inf"), jnp.float32),
            plateau_count=jnp.zeros([], jnp.int32),
            cooldown_count=jnp.zeros([], jnp.int32),
            step=jnp.zeros([], jnp.int32),
            avg_value=jnp.zeros([], jnp.float32) if accumulation_size > 1 else None,
        )

    def on_plateau_check(state: ReduceLROnPlateauState, value: Array) -> ReduceLROnPlateauState:
        has_improved = jnp.where(value < (1 - rtol) * state.best_value - atol, 1, 0)
        new_best = jnp.where(has_improved, value, state.best_value)
        curr_plateau = jnp.where(has_improved, 0, state.plateau_count + 1)
        in_cooldown = state.cooldown_count > 0
        curr_plateau = jnp.where(in_cooldown, 0, curr_plateau)
        reduce = curr_plateau > patience
        new_scale = jnp.where(reduce, jnp.maximum(state.scale * factor, min_scale), state.scale)
        new_cooldown = jnp.where(
            reduce, cooldown, jnp.where(in_cooldown, state.cooldown_count - 1, 0)
        )
        return state._replace(
            scale=new_scale,
            best_value=new_best,
            plateau_count=jnp.where(reduce, 0, curr_plateau),
            cooldown_count=new_cooldown,
        )

    def update_fn(
        updates: Updates,
        state: ReduceLROnPlateauState,
        params: Optional[Params] = None,
        **extra_args: Any,
    ) -> tuple[Updates, ReduceLROnPlateauState]:
        del params
        value = jnp.asarray(extra_args["value"], jnp.float32)
        count = state.step + 1
        if state.avg_value is None:
            new_state = on_plateau_check(state._replace(step=count), value)
        else:
            avg = state.avg_value + (value - state.avg_value) / ((count - 1) % accumulation_size + 1)
            full = count % accumulation_size == 0
            checked = on_plateau_check(state, avg)
            new_state = jax.tree.map(
                lambda a, b: jnp.where(full, a, b), checked, state._replace(avg_value=avg)
            )
            new_state = new_state._replace(
                step=count, avg_value=jnp.where(full, jnp.zeros_like(avg), avg)
            )
        scaled = tree_scalar_mul(new_state.scale, updates)
        return scaled, new_state

    return GradientTransformationExtraArgs(init_fn, update_fn)


class MultiStepsState(NamedTuple):
    mini_step: Array
    gradient_step: Array
    inner_state: Any
    acc_grads: Updates


def multi_steps(inner: AnyTransformation, every_k_schedule: int) -> GradientTransformationExtraArgs:
    """Gradient accumulation: averages ``every_k_schedule`` gradients, then applies ``inner``
    to their mean; the updates in between are zero."""
    inner_tx = with_extra_args_support(inner)

    def init_fn(params: Params) -> MultiStepsState:
        return MultiStepsState(
            mini_step=jnp.zeros([], jnp.int32),
            gradient_step=jnp.zeros([], jnp.int32),
            inner_state=inner_tx.init(params),
            acc_grads=tree_zeros_like(params),
        )

    def update_fn(
        updates: Updates,
        state: MultiStepsState,
        params: Optional[Params] = None,
        **extra_args: Any,
    ) -> tuple[Updates, MultiStepsState]:
        acc_grads = jax.tree.map(
            lambda a, g: a + (g - a) / (state.mini_step + 1).astype(a.dtype), state.acc_grads, updates
        )

        def final_step(acc: Updates, inner_state: OptState) -> tuple[Updates, MultiStepsState]:
            new_updates, new_inner = inner_tx.update(acc, inner_state, params, **extra_args)
            new_state = MultiStepsState(
                mini_step=jnp.zeros([], jnp.int32),
                gradient_step=safe_int32_increment(state.gradient_step),
                inner_state=new_inner,
                acc_grads=tree_zeros_like(acc),
            )
            return new_updates, new_state

        def mid_step(acc: Updates, inner_state: OptState) -> tuple[Updates, MultiStepsState]:
            new_state = MultiStepsState(
                mini_step=state.mini_step + 1,
                gradient_step=state.gradient_step,
                inner_state=inner_state,
                acc_grads=acc,
            )
            return tree_zeros_like(updates), new_state

        emit = state.mini_step == every_k_schedule - 1
        return lax.cond(emit, final_step, mid_step, acc_grads, state.inner_state)

    return GradientTransformationExtraArgs(init_fn, update_fn)


# --------------------------------------------------------------------------------------
# Optimisers
# --------------------------------------------------------------------------------------


def sgd(
    learning_rate: ScalarOrSchedule, momentum: Optional[float] = None, nesterov: bool = False
) -> GradientTransformationExtraArgs:
    return chain(
        trace(decay=momentum, nesterov=nesterov) if momentum is not None else identity(),
        scale_by_learning_rate(learning_rate),
    )


def adam(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    *,
    nesterov: bool = False,
) -> GradientTransformationExtraArgs:
    return chain(
        scale_by_adam(b1=b1, b2=b2, eps=eps, nesterov=nesterov),
        scale_by_learning_rate(learning_rate),
    )


def adamw(
    learning_rate: ScalarOrSchedule,
    b1: float = 0.9,
    b2: float = 0.999,
    eps: float = 1e-8,
    weight_decay: float = 1e-4,
    mask: MaskOrFn = None,
    *,
    amsgrad: bool = False,
) -> GradientTransformationExtraArgs:
    return chain(
        scale_by_adam(b1=b1, b2=b2, eps=eps, amsgrad=amsgrad),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


def rmsprop(
    learning_rate: ScalarOrSchedule,
    decay: float = 0.9,
    eps: float = 1e-8,
    centered: bool = False,
    momentum: Optional[float] = None,
) -> GradientTransformationExtraArgs:
    return chain(
        scale_by_rms(decay=decay, eps=eps, centered=centered),
        scale_by_learning_rate(learning_rate),
        trace(decay=momentum) if momentum is not None else identity(),
    )


def lion(learning_rate: ScalarOrSchedule, b1: float = 0.9, b2: float = 0.99, weight_decay: float = 1e-3) -> GradientTransformationExtraArgs:
    return chain(
        scale_by_lion(b1=b1, b2=b2),
        add_decayed_weights(weight_decay),
        scale_by_learning_rate(learning_rate),
    )


# --------------------------------------------------------------------------------------
# Losses
# --------------------------------------------------------------------------------------


def l2_loss(predictions: Array, targets: Optional[Array] = None) -> Array:
    errors = predictions - targets if targets is not None else predictions
    return 0.5 * jnp.square(errors)


def huber_loss(predictions: Array, targets: Array, delta: float = 1.0) -> Array:
    errors = predictions - targets
    abs_errors = jnp.abs(errors)
    quadratic = jnp.minimum(abs_errors, delta)
    return 0.5 * quadratic**2 + delta * (abs_errors - quadratic)


def softmax_cross_entropy(logits: Array, labels: Array) -> Array:
    log_probs = logits - jax.scipy.special.logsumexp(logits, axis=-1, keepdims=True)
    return -jnp.sum(labels * log_probs, axis=-1)


def softmax_cross_entropy_with_integer_labels(logits: Array, labels: Array) -> Array:
    logits_max = jnp.max(logits, axis=-1, keepdims=True)
    shifted = logits - lax.stop_gradient(logits_max)
    label_logits = jnp.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    return jnp.log(jnp.sum(jnp.exp(shifted), axis=-1)) - label_logits


def sigmoid_binary_cross_entropy(logits: Array, labels: ArrayLike) -> Array:
    log_p = -jnp.logaddexp(0.0, -logits)
    log_not_p = -jnp.logaddexp(0.0, logits)
    labels = jnp.asarray(labels)
    return -labels * log_p - (1.0 - labels) * log_not_p


def one_hot(labels: Array, num_classes: int) -> Array:
    return (labels[..., None] == jnp.arange(num_classes)).astype(jnp.float32)


def global_norm(tree: PyTree) -> Array:
    return tree_l2_norm(tree)


# --------------------------------------------------------------------------------------
# Demo
# --------------------------------------------------------------------------------------

LinearParams = dict[str, Array]
Batch = tuple[Array, Array]


def _init_linear(key: Array, n_in: int, n_out: int) -> LinearParams:
    w_key, _ = jax.random.split(key)
    w = jax.random.normal(w_key, (n_in, n_out)) / math.sqrt(n_in)
    return {"w": w, "b": jnp.zeros((n_out,))}


def _loss(params: LinearParams, batch: Batch) -> tuple[Array, dict[str, Array]]:
    x, y = batch
    pred = x @ params["w"] + params["b"]
    loss = jnp.mean(huber_loss(pred, y))
    return loss, {"mse": jnp.mean(l2_loss(pred, y)) * 2.0}


def _decay_mask(params: LinearParams) -> dict[str, bool]:
    return {name: p.ndim > 1 for name, p in params.items()}


def _make_step(
    optimizer: GradientTransformationExtraArgs,
) -> Callable[[LinearParams, OptState, Batch], tuple[LinearParams, OptState, Array]]:
    @jax.jit
    def step(params: LinearParams, opt_state: OptState, batch: Batch) -> tuple[LinearParams, OptState, Array]:
        (loss, aux), grads = jax.value_and_grad(_loss, has_aux=True)(params, batch)
        assert_type(grads, LinearParams)
        assert_type(aux, dict[str, Array])
        updates, opt_state = optimizer.update(grads, opt_state, params, value=loss)
        new_params = apply_updates(params, updates)
        assert_type(new_params, LinearParams)
        return new_params, opt_state, loss
    return step


def _make_multi_step(
    optimizer: GradientTransformationExtraArgs, num_steps: int
) -> Callable[[LinearParams, OptState, Batch], tuple[tuple[LinearParams, OptState], Array]]:
    """``num_steps`` optimiser steps in one compiled loop; returns the losses."""

    @jax.jit
    def run(params: LinearParams, opt_state: OptState, batch: Batch) -> tuple[tuple[LinearParams, OptState], Array]:
        def body(
            carry: tuple[LinearParams, OptState], _: None
        ) -> tuple[tuple[LinearParams, OptState], Array]:
            p, s = carry
            (loss, _aux), grads = jax.value_and_grad(_loss, has_aux=True)(p, batch)
            updates, s = optimizer.update(grads, s, p, value=loss)
            return (apply_updates(p, updates), s), loss

        (params, opt_state), losses = lax.scan(body, (params, opt_state), None, length=num_steps)
        assert_type(params, LinearParams)
        assert_type(losses, Array)
        return (params, opt_state), losses

    return run


def _fit(optimizer: GradientTransformationExtraArgs, params: LinearParams, batch: Batch, steps: int) -> tuple[LinearParams, list[float]]:
    step = _make_step(optimizer)
    opt_state = optimizer.init(params)
    losses: list[float] = []
    for _ in range(steps):
        params, opt_state, loss = step(params, opt_state, batch)
        assert_type(loss, Array)
        losses.append(float(loss))
    return params, losses


def _demo() -> None:
    key = jax.random.PRNGKey(0)
    data_key, init_key = jax.random.split(key)
    x = jax.random.normal(data_key, (32, 4))
    true_w = jnp.arange(4.0).reshape(4, 1)
    y = x @ true_w + 0.5
    batch: Batch = (x, y)
    params = _init_linear(init_key, 4, 1)
    assert_type(params, LinearParams)

    schedule = warmup_cosine_decay_schedule(0.0, 0.1, warmup_steps=5, decay_steps=60)
    lr0 = schedule(0)
    lr5 = schedule(5)
    assert abs(float(jnp.asarray(lr5)) - 0.1) < 1e-6 and float(jnp.asarray(lr0)) == 0.0
    decayed = exponential_decay(1.0, 10, 0.5, staircase=True, end_value=0.3)
    assert abs(float(jnp.asarray(decayed(25))) - 0.3) < 1e-6
    piecewise = piecewise_constant_schedule(1.0, {10: 0.1, 20: 0.1})
    assert abs(float(jnp.asarray(piecewise(15))) - 0.1) < 1e-6

    optimizers: dict[str, GradientTransformationExtraArgs] = {
        "sgd": sgd(0.05, momentum=0.9, nesterov=True),
        "adamw": chain(
            clip_by_global_norm(10.0), adamw(schedule, weight_decay=1e-4, mask=_decay_mask)
        ),
        "adam-nesterov": adam(0.05, nesterov=True),
        "rmsprop": rmsprop(0.01, centered=True, momentum=0.5),
        "lion": lion(0.01),
        "plateau": chain(
            adam(0.05), reduce_on_plateau(factor=0.5, patience=2, accumulation_size=2)
        ),
        "finite": chain(apply_if_finite(scale_by_adam(amsgrad=True), 3), scale(-0.05), clip(1.0)),
    }
    for name, opt in optimizers.items():
        _, losses = _fit(opt, params, batch, steps=25)
        assert losses[-1] < losses[0], (name, losses[0], losses[-1])

    # Many steps in one scan; gradient accumulation over 4 micro-steps.
    run = _make_multi_step(multi_steps(adam(0.05), every_k_schedule=4), num_steps=40)
    (fitted, _), scan_losses = run(params, multi_steps(adam(0.05), 4).init(params), batch)
    assert_type(fitted, LinearParams)
    assert float(scan_losses[-1]) < float(scan_losses[0])
    assert float(tree_l2_norm(tree_sub(fitted, params))) > 0.0
    assert_type(tree_l2_norm(fitted), Array)
    loss_value, metrics = jax.jit(_loss)(fitted, batch)
    assert_type(metrics, dict[str, Array])
    assert_type(safe_int32_increment(jnp.array(2**31 - 1, jnp.int32)), Array)
    assert int(safe_int32_increment(jnp.array(2**31 - 1, jnp.int32))) == 2**31 - 1
    norm_shape = jax.eval_shape(tree_l2_norm, params)
    assert_type(norm_shape, jax.ShapeDtypeStruct)
    assert norm_shape.shape == ()
    assert float(loss_value) < float(_loss(params, batch)[0])

    # A NaN gradient is skipped by apply_if_finite.
    guarded = apply_if_finite(scale_by_adam(), max_consecutive_errors=2)
    g_state = guarded.init(params)
    bad = jax.tree.map(lambda p: jnp.full_like(p, jnp.nan), params)
    skipped, g_state = guarded.update(bad, g_state, params)
    assert all(bool(jnp.all(u == 0)) for u in jax.tree.leaves(skipped))
    assert int(g_state.total_notfinite) == 1

    # EMA of the parameters, and of the updates.
    ema_params = params
    for _ in range(3):
        ema_params = incremental_update(apply_updates(params, {"w": 1.0, "b": 1.0}), ema_params, 0.5)
    assert_type(ema_params, LinearParams)
    assert abs(float(ema_params["b"][0]) - 0.875) < 1e-6
    ema_tx = ema(0.9)
    ema_updates, ema_state = ema_tx.update(params, ema_tx.init(params))
    assert jnp.allclose(ema_updates["w"], params["w"], atol=1e-5)
    assert int(ema_state.step) == 1
    synced = periodic_update(params, ema_params, jnp.array(4), update_period=2)
    assert_type(synced, LinearParams)

    # Lookahead wraps its parameters.
    la = lookahead(adam(0.05), sync_period=3, slow_step_size=0.5)
    la_params = LookaheadParams.init_synced(params)
    la_state = la.init(la_params)
    for _ in range(6):
        grads, _aux = jax.grad(_loss, has_aux=True)(la_params.fast, batch)
        assert_type(grads, LinearParams)
        la_updates, la_state = la.update(LookaheadParams(grads, grads), la_state, la_params)
        la_params = apply_updates(la_params, la_updates)
        assert_type(la_params, LookaheadParams)
    assert float(_loss(la_params.slow, batch)[0]) < float(_loss(params, batch)[0])

    # Per-example gradient norms with vmap, as used for clipping in DP-SGD.
    def example_loss(p: LinearParams, xi: Array, yi: Array) -> Array:
        return _loss(p, (xi[None], yi[None]))[0]

    per_example = jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))(params, x, y)
    assert_type(per_example, LinearParams)
    norms = jax.vmap(global_norm)(per_example)
    assert_type(norms, Array)
    assert norms.shape == (32,)
    total = tree_vdot(per_example, per_example)
    assert jnp.allclose(total, jnp.sum(norms**2), rtol=1e-4)
    assert np.asarray(norms).dtype == np.float32

    ce = softmax_cross_entropy(jnp.zeros((2, 3)), one_hot(jnp.array([0, 2]), 3))
    ce_int = softmax_cross_entropy_with_integer_labels(jnp.zeros((2, 3)), jnp.array([0, 2]))
    assert jnp.allclose(ce, ce_int) and jnp.allclose(ce, jnp.log(3.0))
    bce = sigmoid_binary_cross_entropy(jnp.zeros(4), np.ones(4, np.float32))
    assert jnp.allclose(bce, jnp.log(2.0))
    print("optim_lib demo: ok")


if __name__ == "__main__":
    _demo()
