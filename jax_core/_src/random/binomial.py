"""Counting samplers: ``binomial`` (inversion for ``n * p <= 10``, else Hormann's BTRS
transformed rejection, as TensorFlow and JAX) and ``multinomial`` (a ``scan`` of binomials
over the categories).

JAX 0.12's algorithms op for op, so a key gives the same samples as in JAX.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core import numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.avals import canonical_shape
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.control_flow.loops import while_loop
from jax_core._src.lax.control_flow.scan import scan
from jax_core._src.lax.reductions.cumulative import cumsum
from jax_core._src.lax.shape.compositions import broadcast_shapes
from jax_core._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jax_core._src.random.api import check_prng_key, split_keys
from jax_core._src.random.distributions import arg_shape
from jax_core._src.random.keys import KeyLike
from jax_core._src.random.samplers import check_shape, uniform
from jax_core._src.transforms.api import jit
from jax_core._src.transforms.jit import Inline
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

Shape = tuple[int, ...]
Carry = tuple[Any, ...]

_STIRLING_TAIL = (
    0.0810614667953272,
    0.0413406959554092,
    0.0276779256849983,
    0.02079067210376509,
    0.0166446911898211,
    0.0138761288230707,
    0.0118967099458917,
    0.0104112652619720,
    0.00925546218271273,
    0.00833056343336287,
)
"""``log(k!) - Stirling's approximation`` for ``k = 0 .. 9`` (exact where the series is poor)."""


def _stirling_approx_tail(k: Array) -> Array:
    tail_vals = jnp.array(_STIRLING_TAIL, dtype=k.dtype)
    use_tail_values = k <= 9
    k = lax.clamp(np.array(0.0, k.dtype), k, np.array(9.0, k.dtype))
    kp1sq = (k + 1) * (k + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    k = jnp.floor(k)
    return lax.select(use_tail_values, tail_vals[jnp.asarray(k, dtype="int32")], approx)


@jit(static_argnums=(3, 4, 5), inline=Inline.JAX_EARLY)
def _binomial_inversion(
    key: Array, count: Array, prob: Array, shape: Shape, dtype: np.dtype[Any], max_iters: Any
) -> Array:
    log1minusprob = jnp.log1p(-prob)

    def body_fn(carry: Carry) -> Carry:
        i, num_geom, geom_sum, k = carry
        subkey, k = split_keys(k)
        num_geom_out = lax.select(geom_sum <= count, num_geom + 1, num_geom)
        u = uniform(subkey, shape, prob.dtype)
        geom = jnp.ceil(jnp.log(u) / log1minusprob)
        return i + 1, num_geom_out, geom_sum + geom, k

    def cond_fn(carry: Carry) -> Any:
        i, geom_sum = carry[0], carry[2]
        return (geom_sum <= count).any() & (i < max_iters)

    num_geom_init = jnp.full(shape, 0, prob.dtype)
    geom_sum_init = jnp.full(shape, 0, prob.dtype)
    k_out = while_loop(cond_fn, body_fn, (0, num_geom_init, geom_sum_init, key))[1]
    return (k_out - 1).astype(dtype)


@jit(static_argnums=(3, 4, 5), inline=Inline.JAX_EARLY)
def _btrs(
    key: Array, count: Array, prob: Array, shape: Shape, dtype: np.dtype[Any], max_iters: Any
) -> Array:
    # Hormann's transformed rejection with squeeze (BTRS), 1993.
    stddev = jnp.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = jnp.floor((count + 1) * prob)

    def body_fn(carry: Carry) -> Carry:
        i, k_out, accepted, k_key = carry
        k_key, subkey_0, subkey_1 = split_keys(k_key, 3)
        u = uniform(subkey_0, shape, prob.dtype)
        v = uniform(subkey_1, shape, prob.dtype)
        u = u - 0.5
        us = 0.5 - jnp.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        k = jnp.floor((2 * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        v = jnp.log(v * alpha / (a / (us * us) + b))
        ub = (
            (m + 0.5) * jnp.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * jnp.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * jnp.log(r * (count - k + 1) / (k + 1))
            + _stirling_approx_tail(m)
            + _stirling_approx_tail(count - m)
            - _stirling_approx_tail(k)
            - _stirling_approx_tail(count - k)
        )
        accept2 = v <= ub
        accept = accept1 | (~reject & accept2)
        k_out = lax.select(accept, k, k_out)
        accepted = accepted | accept
        return i + 1, k_out, accepted, k_key

    def cond_fn(carry: Carry) -> Any:
        i, accepted = carry[0], carry[2]
        return (~accepted).any() & (i < max_iters)

    k_init = jnp.full(shape, -1, prob.dtype)
    init = (0, k_init, jnp.full(shape, False, bool), key)
    out: Array = while_loop(cond_fn, body_fn, init)[1]
    return out.astype(dtype)


@jit(static_argnums=(3, 4), inline=Inline.JAX_EARLY)
def _binomial(
    key: Array, count: ArrayLike, prob: ArrayLike, shape: Shape | None, dtype: np.dtype[Any]
) -> Array:
    if shape is None:
        shape = broadcast_shapes(arg_shape(count), arg_shape(prob))
    else:
        check_shape("binomial", shape, arg_shape(count), arg_shape(prob))
    (p_promoted,) = promote_dtypes_inexact(prob)
    p = jnp.asarray(p_promoted)
    n = jnp.broadcast_to(lax.convert_element_type(count, p.dtype), shape)
    p = jnp.broadcast_to(p, shape)
    p_lt_half = p < 0.5
    q = lax.select(p_lt_half, p, 1.0 - p)
    count_nan_or_neg = lax.ne(n, n) | (n < 0.0)
    count_inf = jnp.isinf(n)
    q_is_nan = lax.ne(q, q)
    q_l_0 = q < 0.0
    q = lax.select(q_is_nan | q_l_0, jnp.full_like(q, 0.01), q)
    use_inversion = count_nan_or_neg | (n * q <= 10.0)
    # As np.random.binomial does for a float count.
    n = jnp.floor(n)
    count_inv = lax.select(use_inversion, n, jnp.full_like(n, 0.0))
    count_btrs = lax.select(use_inversion, jnp.full_like(n, 1e4), n)
    q_btrs = lax.select(use_inversion, jnp.full_like(q, 0.5), q)
    max_iters = dtype.type(dtypes.finfo(dtype).max)
    samples = lax.select(
        use_inversion,
        _binomial_inversion(key, count_inv, q, shape, dtype, max_iters),
        _btrs(key, count_btrs, q_btrs, shape, dtype, max_iters),
    )
    # A nan q gives nan, a nan or negative count gives nan, an infinite count inf.
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = lax.select(invalid, jnp.full_like(samples, np.nan, dtype), samples)
    samples = lax.select(
        count_inf & (~invalid), jnp.full_like(samples, np.inf, dtype), samples
    )
    return lax.select(
        p_lt_half | count_nan_or_neg | q_is_nan | count_inf,
        samples,
        n.astype(dtype) - samples,
    )


def binomial(
    key: KeyLike,
    n: ArrayLike,
    p: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
) -> Array:
    """The number of successes in ``n`` Bernoulli(``p``) trials, as floats (float32 by
    default; float64 with x64)."""
    typed, _ = check_prng_key("binomial", key)
    check_arraylike("binomial", n, p)
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    if not dtypes.issubdtype(dt, np.floating):
        raise ValueError(f"dtype argument to `binomial` must be a float dtype, got {dt}")
    shape_t = None if shape is None else canonical_shape(shape, "binomial")
    return _binomial(typed, n, p, shape_t, dt)


def multinomial(
    key: KeyLike,
    n: ArrayLike,
    p: ArrayLike,
    *,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    unroll: int | bool = 1,
) -> Array:
    """Counts of each outcome (``p``'s last axis) in ``n`` trials, drawn as a chain of
    binomials; ``unroll`` is passed to the ``scan`` over the outcomes."""
    typed, _ = check_prng_key("multinomial", key)
    check_arraylike("multinomial", n, p)
    n_p, p_p = promote_dtypes_inexact(n, p)
    n_arr, p_arr = jnp.asarray(n_p), jnp.asarray(p_p)
    if shape is None:
        shape_t: Shape = p_arr.shape[:-1]
    else:
        shape_t = canonical_shape(shape, "multinomial")
        check_shape("multinomial", shape_t, n_arr.shape, p_arr.shape[:-1])
    n_arr = jnp.broadcast_to(n_arr, shape_t)
    p_arr = jnp.broadcast_to(p_arr, (*shape_t, p_arr.shape[-1]))

    def step(remainder: Array, ratio_key: tuple[Array, Array]) -> tuple[Array, Array]:
        ratio, k = ratio_key
        count = binomial(k, remainder, ratio.clip(0, 1), dtype=remainder.dtype)
        return remainder - count, count

    p_arr = jnp.moveaxis(p_arr, -1, 0)
    remaining_probs = cumsum(p_arr, 0, reverse=True)
    ratios = p_arr / jnp.where(remaining_probs == 0, 1, remaining_probs)
    keys = split_keys(typed, ratios.shape[0])
    _, counts = scan(step, n_arr, (ratios, keys), unroll=unroll)
    out_dtype = None if dtype is None else dtypes.check_and_canonicalize_user_dtype(dtype)
    return jnp.moveaxis(counts, 0, -1).astype(out_dtype)


__all__: Sequence[str] = ("binomial", "multinomial")
