"""Optimizers as ``(init_fun, update_fun, get_params)`` triples (``jax.example_libraries.optimizers``).

An optimizer is written for one array (``init(x0) -> state``, ``update(i, g, state)
-> state``, ``get_params(state) -> x``) and the :func:`optimizer` decorator lifts it
to pytrees of parameters: the state of a whole tree is an :class:`OptimizerState`
(the flattened per-leaf states and the tree structures), itself a pytree, so it
passes through ``jit``. As in JAX these are examples; Optax is the full library.

::

    opt_init, opt_update, get_params = optimizers.sgd(1e-3)
    opt_state = opt_init(params)
    for i in range(num_steps):
        grads = jax.grad(loss)(get_params(opt_state))
        opt_state = opt_update(i, grads, opt_state)
"""

from __future__ import annotations

import functools
from collections.abc import Callable as Callable
from collections.abc import Iterator
from typing import Any as Any
from typing import NamedTuple as NamedTuple

from jax_core import numpy as jnp
from jax_core import tree_util
from jax_core._src.lib import utils as _jaxlib_utils
from jax_core._src.tree.tree_util import PyTreeDef

safe_map: Callable[..., list[Any]] = _jaxlib_utils.safe_map
"""``map`` returning a list that raises ``ValueError`` when its iterables' lengths differ."""
safe_zip: Callable[..., list[tuple[Any, ...]]] = _jaxlib_utils.safe_zip
"""``zip`` returning a list that raises ``ValueError`` when its arguments' lengths differ."""
map = safe_map
zip = safe_zip


def unzip2(xys: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Splits an iterable of pairs into a tuple of firsts and a tuple of seconds."""
    xs: list[Any] = []
    ys: list[Any] = []
    for x, y in xys:
        xs.append(x)
        ys.append(y)
    return tuple(xs), tuple(ys)


class OptimizerState(NamedTuple):
    """The state of a pytree optimizer: each leaf's flattened state and the tree structures."""

    packed_state: Any
    tree_def: PyTreeDef
    subtree_defs: Any


tree_util.register_pytree_node(
    OptimizerState,
    lambda xs: ((xs.packed_state,), (xs.tree_def, xs.subtree_defs)),
    lambda data, xs: OptimizerState(xs[0], data[0], data[1]),
)

Array = Any
Params = Any  # a pytree of arrays
State = Any  # one leaf's optimizer state
Updates = Params  # gradients have the parameters' structure
InitFn = Callable[[Params], OptimizerState]
Step = int
UpdateFn = Callable[[Step, Updates, OptimizerState], OptimizerState]
ParamsFn = Callable[[OptimizerState], Params]


class Optimizer(NamedTuple):
    """An ``(init_fn, update_fn, params_fn)`` triple."""

    init_fn: InitFn
    update_fn: UpdateFn
    params_fn: ParamsFn


Schedule = Callable[[Step], float]

_LeafTriple = tuple[
    Callable[[Params], State],
    Callable[[Step, Updates, Params], Params],
    Callable[[State], Params],
]


def optimizer[**P](opt_maker: Callable[P, _LeafTriple]) -> Callable[P, Optimizer]:
    """Lifts an optimizer written for single arrays to pytrees of parameters.

    ``opt_maker(*args)`` returns ``(init, update, get_params)`` acting on one array;
    the decorated function returns an :class:`Optimizer` whose functions act on any
    pytree of arrays, keeping the state as an :class:`OptimizerState`.
    """

    @functools.wraps(opt_maker)
    def tree_opt_maker(*args: P.args, **kwargs: P.kwargs) -> Optimizer:
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree: Params) -> OptimizerState:
            x0_flat, tree = tree_util.tree_flatten(x0_tree)
            initial_states = [init(x0) for x0 in x0_flat]
            states_flat, subtrees = unzip2(map(tree_util.tree_flatten, initial_states))
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i: Step, grad_tree: Updates, opt_state: OptimizerState) -> OptimizerState:
            states_flat, tree, subtrees = opt_state
            grad_flat, tree2 = tree_util.tree_flatten(grad_tree)
            if tree2 != tree:
                raise TypeError(
                    "optimizer update function was passed a gradient tree that did not "
                    "match the parameter tree structure with which it was initialized: "
                    f"parameter tree {tree} and grad tree {tree2}."
                )
            states = map(tree_util.tree_unflatten, subtrees, states_flat)
            new_states = map(functools.partial(update, i), grad_flat, states)
            new_states_flat, subtrees2 = unzip2(map(tree_util.tree_flatten, new_states))
            for subtree, subtree2 in zip(subtrees, subtrees2):
                if subtree2 != subtree:
                    raise TypeError(
                        "optimizer update function produced an output structure that did "
                        f"not match its input structure: input {subtree} and output {subtree2}."
                    )
            return OptimizerState(new_states_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state: OptimizerState) -> Params:
            states_flat, tree, subtrees = opt_state
            states = map(tree_util.tree_unflatten, subtrees, states_flat)
            params = map(get_params, states)
            return tree_util.tree_unflatten(tree, params)

        return Optimizer(tree_init, tree_update, tree_get_params)

    return tree_opt_maker


# ---------------------------------------------------------------------------- optimizers


def _with_buffers(update: Callable[[Step, Updates, State], State], buffers: int) -> _LeafTriple:
    """The triple of an optimizer whose per-array state is ``(x, *buffers)``: ``init`` starts
    each of the ``buffers`` (velocity, moment estimates, ...) at zeros, ``get_params`` reads ``x``."""

    def init(x0: Array) -> State:
        return (x0, *(jnp.zeros_like(x0) for _ in range(buffers)))

    def get_params(state: State) -> Array:
        return state[0]

    return init, update, get_params


@optimizer
def sgd(step_size: float | Schedule) -> _LeafTriple:
    """Stochastic gradient descent; ``step_size`` is a scalar or a schedule of the step index."""
    schedule = make_schedule(step_size)

    def init(x0: Array) -> Array:
        return x0

    def update(i: Step, g: Array, x: Array) -> Array:
        return x - schedule(i) * g

    def get_params(x: Array) -> Array:
        return x

    return init, update, get_params


@optimizer
def momentum(step_size: float | Schedule, mass: float) -> _LeafTriple:
    """SGD with momentum ``mass`` (the velocity is ``mass * v + g``)."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, velocity = state
        velocity = mass * velocity + g
        x = x - schedule(i) * velocity
        return x, velocity

    return _with_buffers(update, 1)


@optimizer
def nesterov(step_size: float | Schedule, mass: float) -> _LeafTriple:
    """SGD with Nesterov momentum ``mass``."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, velocity = state
        velocity = mass * velocity + g
        x = x - schedule(i) * (mass * velocity + g)
        return x, velocity

    return _with_buffers(update, 1)


@optimizer
def adagrad(step_size: float | Schedule, momentum: float = 0.9) -> _LeafTriple:
    """Adagrad (Duchi et al. 2011) with an optional ``momentum`` on the scaled gradient."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, g_sq, m = state
        g_sq += jnp.square(g)
        g_sq_inv_sqrt = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * g_sq_inv_sqrt) + momentum * m
        x = x - schedule(i) * m
        return x, g_sq, m

    return _with_buffers(update, 2)


@optimizer
def rmsprop(step_size: float | Schedule, gamma: float = 0.9, eps: float = 1e-8) -> _LeafTriple:
    """RMSProp with decay ``gamma`` and ``eps`` added under the square root."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        x = x - schedule(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x, avg_sq_grad

    return _with_buffers(update, 1)


@optimizer
def rmsprop_momentum(
    step_size: float | Schedule, gamma: float = 0.9, eps: float = 1e-8, momentum: float = 0.9
) -> _LeafTriple:
    """RMSProp with momentum (it keeps a momentum buffer besides the squared-gradient average)."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + schedule(i) * g / jnp.sqrt(avg_sq_grad + eps)
        x = x - mom
        return x, avg_sq_grad, mom

    return _with_buffers(update, 2)


@optimizer
def adam(
    step_size: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> _LeafTriple:
    """Adam (Kingma & Ba 2015): moment decays ``b1``/``b2``, bias-corrected, ``eps`` for stability."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, m, v = state
        m = (1 - b1) * g + b1 * m  # first moment estimate
        v = (1 - b2) * jnp.square(g) + b2 * v  # second moment estimate
        mhat = m / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))  # bias corrections
        vhat = v / (1 - jnp.asarray(b2, m.dtype) ** (i + 1))
        x = x - schedule(i) * mhat / (jnp.sqrt(vhat) + eps)
        return x, m, v

    return _with_buffers(update, 2)


@optimizer
def adamax(
    step_size: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> _LeafTriple:
    """AdaMax, Adam's variant with an exponentially weighted infinity norm."""
    schedule = make_schedule(step_size)

    def update(i: Step, g: Array, state: State) -> State:
        x, m, u = state
        m = (1 - b1) * g + b1 * m  # first moment estimate
        u = jnp.maximum(b2 * u, jnp.abs(g))  # weighted infinity norm
        x = x - (schedule(i) / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))) * m / (u + eps)
        return x, m, u

    return _with_buffers(update, 2)


def _splice(seq: Any, i: int, x: list[Any]) -> list[Any]:
    lst = list(seq)
    lst[i : i + 1] = x
    return lst


def _broadcast_into(ndim: int, x: Array, axis: int) -> Array:
    idx = _splice([None] * ndim, axis, [slice(None)])
    return x[tuple(idx)]


@optimizer
def sm3(step_size: float | Schedule, momentum: float = 0.9) -> _LeafTriple:
    """SM3 (Anil et al. 2019): one accumulator per axis instead of one per entry."""
    schedule = make_schedule(step_size)

    def init(x0: Array) -> State:
        x_shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        vs = [jnp.zeros(sz, dtype=x0.dtype) for sz in x0.shape]
        return x0, jnp.zeros_like(x0), vs, x_shape

    def update(i: Step, g: Array, state: State) -> State:
        x, m, vs, x_shape = state
        vs = [_broadcast_into(g.ndim, v, axis) for axis, v in enumerate(vs)]
        accum = functools.reduce(jnp.minimum, vs) + jnp.square(g)
        accum_inv_sqrt = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * accum_inv_sqrt) + momentum * m
        x = x - schedule(i) * m
        vs = [accum.max(_splice(range(x.ndim), j, [])) for j in range(x.ndim)]
        return x, m, vs, x_shape

    def get_params(state: State) -> Array:
        x, _, _, x_shape = state
        return x.reshape(x_shape)

    return init, update, get_params


# ---------------------------------------------------------------------------- schedules


def constant(step_size: Any) -> Schedule:
    """The schedule that is ``step_size`` at every step."""

    def schedule(i: Step) -> Any:
        return step_size

    return schedule


def exponential_decay(step_size: Any, decay_steps: Any, decay_rate: Any) -> Schedule:
    """``step_size * decay_rate ** (i / decay_steps)``."""

    def schedule(i: Step) -> Any:
        return step_size * decay_rate ** (i / decay_steps)

    return schedule


def inverse_time_decay(
    step_size: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False
) -> Schedule:
    """``step_size / (1 + decay_rate * i / decay_steps)`` (with ``floor`` when ``staircase``)."""
    if staircase:

        def schedule(i: Step) -> Any:
            return step_size / (1 + decay_rate * jnp.floor(i / decay_steps))

    else:

        def schedule(i: Step) -> Any:
            return step_size / (1 + decay_rate * i / decay_steps)

    return schedule


def polynomial_decay(
    step_size: Any, decay_steps: Any, final_step_size: Any, power: float = 1.0
) -> Schedule:
    """Decays from ``step_size`` to ``final_step_size`` over ``decay_steps`` as ``(1 - t) ** power``."""

    def schedule(step_num: Step) -> Any:
        step = jnp.minimum(step_num, decay_steps)
        step_mult = (1 - step / decay_steps) ** power
        return step_mult * (step_size - final_step_size) + final_step_size

    return schedule


def piecewise_constant(boundaries: Any, values: Any) -> Schedule:
    """``values[k]`` where ``k`` is the number of ``boundaries`` the step index has passed."""
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ValueError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ValueError("boundaries length must be one shorter than values length")

    def schedule(i: Step) -> Any:
        return values[jnp.sum(i > boundaries)]

    return schedule


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    """A schedule unchanged, a scalar as the :func:`constant` schedule (``TypeError`` otherwise)."""
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# ---------------------------------------------------------------------------- utilities


def l2_norm(tree: Any) -> Array:
    """The l2 norm of all the arrays of a pytree together (useful for weight decay)."""
    leaves, _ = tree_util.tree_flatten(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree: Any, max_norm: Any) -> Any:
    """Scales a pytree of gradients down so that its :func:`l2_norm` is at most ``max_norm``."""
    norm = l2_norm(grad_tree)

    def normalize(g: Array) -> Array:
        return jnp.where(norm < max_norm, g, g * (max_norm / norm))

    return tree_util.tree_map(normalize, grad_tree)


class JoinPoint:
    """Marks the boundary between two joined (nested) pytrees."""

    def __init__(self, subtree: Any) -> None:
        self.subtree = subtree

    # Pytrees of arrays look iterable; so does a join point.
    def __iter__(self) -> Iterator[Any]:
        yield self.subtree


def unpack_optimizer_state(opt_state: OptimizerState) -> Any:
    """An :class:`OptimizerState` as the parameter pytree with a :class:`JoinPoint` per leaf.

    Each join point holds that leaf's state pytree; useful for serializing a state.
    """
    states_flat, tree_def, subtree_defs = opt_state
    subtrees = map(tree_util.tree_unflatten, subtree_defs, states_flat)
    sentinels = [JoinPoint(subtree) for subtree in subtrees]
    return tree_util.tree_unflatten(tree_def, sentinels)


def pack_optimizer_state(marked_pytree: Any) -> OptimizerState:
    """The inverse of :func:`unpack_optimizer_state`."""
    sentinels, tree_def = tree_util.tree_flatten(marked_pytree)
    if not all(isinstance(s, JoinPoint) for s in sentinels):
        raise AssertionError(
            "pack_optimizer_state takes the pytree unpack_optimizer_state returns: every "
            "leaf must be a JoinPoint."
        )
    subtrees = [s.subtree for s in sentinels]
    states_flat, subtree_defs = unzip2(map(tree_util.tree_flatten, subtrees))
    return OptimizerState(states_flat, tree_def, subtree_defs)
