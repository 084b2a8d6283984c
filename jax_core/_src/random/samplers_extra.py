"""Samplers built on the basic ones: ``categorical``, ``choice``, ``permutation``, ``gamma``
(``loggamma``), ``beta``, ``dirichlet``, ``poisson`` and ``multivariate_normal``.

JAX 0.12's algorithms, op for op. ``gamma`` is a primitive (``random_gamma``) as in JAX:
its lowering vmaps the Marsaglia-Tsang rejection sampler over every (key, shape
parameter) pair, so the samples do not depend on how the call is batched.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from jax_core import numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray, canonical_shape
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters.ad_util import Zero, is_zero
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.lax.ad_ops import stop_gradient
from jax_core._src.lax.control_flow.loops import while_loop
from jax_core._src.lax.control_flow.scan import map as lax_map
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.sorting import sort_key_val, top_k
from jax_core._src.lax.special.functions import random_gamma_grad
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.random.api import check_prng_key, random_bits, random_wrap, split_keys
from jax_core._src.random.gamma_approx import gamma_approx
from jax_core._src.random.keys import KeyLike, key_impl_of
from jax_core._src.random.physical import lower_fun
from jax_core._src.random.samplers import (
    check_shape,
    exponential,
    float_dtype,
    gumbel,
    normal,
    randint,
    uniform,
)
from jax_core._src.transforms.api import jit
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

Shape = tuple[int, ...]


def _shape_of(x: ArrayLike) -> Shape:
    return get_aval(x).shape


def _canonicalize_axis(axis: int, ndim: int) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis % ndim


def _check_arraylike(name: str, *args: object) -> None:
    for pos, arg in enumerate(args):
        if not (isinstance(arg, (Array, np.ndarray, np.generic)) or np.isscalar(arg)) or isinstance(
            arg, str
        ):
            raise TypeError(
                f"{name} requires ndarray or scalar arguments, got {type(arg)} at position {pos}."
            )


# -- permutation -----------------------------------------------------------------------


def permutation(
    key: KeyLike, x: int | ArrayLike, axis: int = 0, independent: bool = False
) -> Array:
    """A random permutation of ``arange(x)`` (int ``x``) or of ``x`` along ``axis``
    (every slice independently with ``independent=True``)."""
    typed, _ = check_prng_key("permutation", key)
    _check_arraylike("permutation", x)
    ndim = get_aval(x).ndim
    axis = _canonicalize_axis(axis, ndim or 1)
    if not ndim:
        if not dtypes.issubdtype(dtypes.dtype(x), np.integer):
            raise TypeError("x must be an integer or at least 1-dimensional")
        if isinstance(x, Tracer):
            x.concretization_error("argument x of jax.random.permutation()")
        r = operator.index(cast(Any, x))
        return _shuffle(typed, jnp.arange(r), axis)
    arr = jnp.asarray(x)
    if independent or arr.ndim == 1:
        return _shuffle(typed, arr, axis)
    ind = _shuffle(typed, jnp.arange(arr.shape[axis]), 0)
    return jnp.take(arr, ind, axis, unique_indices=True)


@jit(static_argnums=(2,))
def _shuffle(key: Array, x: Array, axis: int) -> Array:
    # Sorting by random 32-bit keys, repeated until collisions are unlikely (JAX's rounds).
    exponent = 3
    uint32max = int(np.iinfo(np.uint32).max)
    num_rounds = int(np.ceil(exponent * np.log(max(1, x.size)) / np.log(uint32max)))
    for _ in range(num_rounds):
        key, subkey = split_keys(key)
        sort_keys = random_bits(subkey, 32, x.shape)
        _, x = sort_key_val(sort_keys, x, axis)
    return x


# -- choice ----------------------------------------------------------------------------


def choice(
    key: KeyLike,
    a: int | ArrayLike,
    shape: Sequence[int] = (),
    replace: bool = True,
    p: ArrayLike | None = None,
    axis: int = 0,
    mode: str | None = None,
) -> Array:
    """Samples of ``a`` (or ``arange(a)``) along ``axis``, with or without replacement,
    uniformly or with probabilities ``p``."""
    typed, _ = check_prng_key("choice", key)
    if not isinstance(shape, Sequence):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"shape argument of jax.random.choice must be a sequence, got {shape}")
    _check_arraylike("choice", a)
    arr = jnp.asarray(a)
    if arr.ndim == 0:
        if isinstance(a, Tracer):
            a.concretization_error("The error occurred in jax.random.choice()")
        n_inputs = operator.index(cast(Any, a))
    else:
        axis = _canonicalize_axis(axis, arr.ndim)
        n_inputs = arr.shape[axis]
    shape = tuple(shape)
    n_draws = math.prod(shape)
    if n_draws == 0:
        return jnp.zeros(shape, dtype=arr.dtype)
    if n_inputs <= 0:
        raise ValueError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise ValueError(
            f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) when 'replace=False'"
        )
    if p is None:
        if replace:
            ind = randint(typed, shape, 0, n_inputs)
            result = ind if arr.ndim == 0 else jnp.take(arr, ind, axis)
        else:
            slices = (slice(None),) * axis + (slice(n_draws),)
            result = permutation(typed, n_inputs if arr.ndim == 0 else arr, axis)[slices]
    else:
        _check_arraylike("choice", p)
        p_arr = jnp.asarray(p)
        if not dtypes.issubdtype(p_arr.dtype, np.inexact):
            p_arr = p_arr.astype(dtypes.to_inexact_dtype(p_arr.dtype))
        if p_arr.shape != (n_inputs,):
            raise ValueError(
                "p must be None or a 1D vector with the same size as a.shape[axis]. "
                f"p has shape {p_arr.shape} and a.shape[axis] is {n_inputs}."
            )
        if replace:
            p_cuml = jnp.cumsum(p_arr)
            r = p_cuml[-1] * (1 - uniform(typed, shape, dtype=p_cuml.dtype))
            ind = jnp.searchsorted(p_cuml, r).astype(int)
        else:
            g = gumbel(typed, (n_inputs,), dtype=p_arr.dtype, mode=mode) + jnp.log(p_arr)
            ind = top_k(g, n_draws)[1].astype(int)
        result = ind if arr.ndim == 0 else jnp.take(arr, ind, axis)
    out_shape = shape if arr.ndim == 0 else arr.shape[0:axis] + shape + arr.shape[axis + 1 :]
    return result.reshape(out_shape)


# -- categorical -----------------------------------------------------------------------


def categorical(
    key: KeyLike,
    logits: ArrayLike,
    axis: int = -1,
    shape: ShapeLike | None = None,
    replace: bool = True,
    mode: str | None = None,
) -> Array:
    """Category indices drawn from ``softmax(logits, axis)`` (Gumbel-max; Gumbel-top-k
    without replacement)."""
    typed, _ = check_prng_key("categorical", key)
    _check_arraylike("categorical", logits)
    logits_arr = jnp.asarray(logits)
    batch_shape = tuple(np.delete(np.array(logits_arr.shape, dtype=np.int64), axis).tolist())
    if shape is None:
        shape_t: Shape = batch_shape
    else:
        shape_t = canonical_shape(shape, "categorical")
        check_shape("categorical", shape_t, batch_shape)
    shape_prefix = shape_t[: len(shape_t) - len(batch_shape)]
    if replace:
        if axis >= 0:
            axis -= logits_arr.ndim
        logits_shape = list(shape_t[len(shape_t) - len(batch_shape) :])
        logits_shape.insert(axis % logits_arr.ndim, logits_arr.shape[axis])
        g = gumbel(typed, (*shape_prefix, *logits_shape), logits_arr.dtype, mode=mode)
        return jnp.argmax(
            g + shape_dims.expand_dims(logits_arr, tuple(range(len(shape_prefix)))), axis=axis
        )
    logits_arr = logits_arr + gumbel(typed, logits_arr.shape, logits_arr.dtype, mode=mode)
    k = math.prod(shape_prefix)
    if k > logits_arr.shape[axis]:
        raise ValueError(
            f"Number of samples without replacement ({k}) cannot exceed number of categories ({logits_arr.shape[axis]})."
        )
    ax = axis % logits_arr.ndim
    perm = (*(i for i in range(logits_arr.ndim) if i != ax), ax)
    _, indices = top_k(shape_dims.transpose(logits_arr, perm), k)
    dimensions = (indices.ndim - 1, *range(indices.ndim - 1))
    return shape_dims.reshape(indices, shape_t, dimensions)


# -- gamma -----------------------------------------------------------------------------


def _gamma_one(key: Array, alpha: Array, log_space: bool) -> Array:
    """One Gamma(alpha) sample (Marsaglia and Tsang's rejection method), as JAX's."""
    dtype = alpha.dtype

    def const(v: float) -> np.ndarray[Any, Any]:
        return np.array(v, dtype)

    zero, one, two, minus_one = const(0), const(1), const(2), const(-1)
    one_over_two, one_over_three, squeeze_const = const(0.5), const(1.0 / 3.0), const(0.0331)
    # alpha < 1 is boosted: Gamma(alpha) ~ Gamma(alpha + 1) * Uniform() ** (1 / alpha).
    boost_mask = lax.ge(alpha, one)
    alpha_orig = alpha
    alpha = lax.select(boost_mask, alpha, lax.add(alpha, one))
    d = lax.sub(alpha, one_over_three)
    c = lax.div(one_over_three, lax.sqrt(d))

    def _cond_fn(kXVU: tuple[Any, ...]) -> Array:
        _, X, V, U = kXVU
        return lax.bitwise_and(
            lax.ge(U, lax.sub(one, lax.mul(squeeze_const, lax.mul(X, X)))),
            lax.ge(
                lax.log(U),
                lax.add(lax.mul(X, one_over_two), lax.mul(d, lax.add(lax.sub(one, V), lax.log(V)))),
            ),
        )

    def _body_fn(kXVU: tuple[Any, ...]) -> tuple[Any, ...]:
        def _next_kxv(kxv: tuple[Any, ...]) -> tuple[Any, ...]:
            k, subkey = split_keys(kxv[0])
            x = normal(subkey, (), dtype=dtype)
            v = lax.add(one, lax.mul(x, c))
            return k, x, v

        k, x_key, U_key = split_keys(kXVU[0], 3)
        _, x, v = while_loop(lambda kxv: lax.le(kxv[2], zero), _next_kxv, (x_key, zero, minus_one))
        X = lax.mul(x, x)
        V = lax.mul(lax.mul(v, v), v)
        U = uniform(U_key, (), dtype=dtype)
        return k, X, V, U

    key, subkey = split_keys(key)
    _, _, V, _ = while_loop(_cond_fn, _body_fn, (key, zero, one, two))
    if log_space:
        log_samples = lax.neg(exponential(subkey, (), dtype=dtype))
        log_boost = lax.select(
            jnp.logical_or(boost_mask, jnp.equal(log_samples, 0)),
            zero,
            lax.mul(log_samples, lax.div(one, alpha_orig)),
        )
        return lax.add(lax.add(lax.log(d), lax.log(V)), log_boost)
    samples = 1 - uniform(subkey, (), dtype=dtype)
    boost = lax.select(boost_mask, one, lax.pow(samples, lax.div(one, alpha_orig)))
    return lax.mul(lax.mul(d, V), boost)


def _gamma_impl(key: Array, a: Array, *, log_space: bool) -> Array:
    a_shape = a.shape
    split_count = math.prod(a_shape[key.ndim :])
    keys = key.reshape(-1)
    keys = vmap(split_keys, in_axes=(0, None))(keys, split_count)
    keys = keys.reshape(-1)
    alphas = a.reshape(-1)
    samples = vmap(functools.partial(_gamma_one, log_space=log_space))(keys, alphas)
    return jnp.reshape(samples, a_shape)


random_gamma_p: Primitive = Primitive("random_gamma")


def _random_gamma_abstract_eval(
    key: ShapedArray, a: ShapedArray, *, log_space: bool
) -> ShapedArray:
    return ShapedArray(a.shape, a.dtype)


def _random_gamma_lower(
    ctx: LoweringRuleContext, key: ir.Value[Any], a: ir.Value[Any], *, log_space: bool
) -> list[ir.Value[Any]]:
    impl = key_impl_of(ctx.avals_in[0])

    def sample(data: Array, alpha: Array) -> Array:
        return _gamma_impl(random_wrap(data, impl=impl), alpha, log_space=log_space)

    return lower_fun(sample, ctx, key, a)


def _gamma_grad(sample: Array, a: Array, *, log_space: bool) -> Array:
    """d sample / d a by implicit differentiation of the CDF (``lax.random_gamma_grad``), one
    element at a time (a ``lax.map``, as JAX does on CPU: the same bits as JAX's)."""
    samples = jnp.reshape(sample, -1)
    alphas = jnp.reshape(a, -1)
    if log_space:
        # d log(x) = dx / x; exp(log x) may round to 0: use the smallest normal float instead.
        samples = lax.exp(samples)
        tiny = jnp.full_like(samples, jnp.finfo(samples.dtype).tiny)
        samples = lax.select(lax.eq(samples, np.array(0, sample.dtype)), tiny, samples)

        def grad_one(args: tuple[Array, Array]) -> Array:
            return lax.div(random_gamma_grad(*args), args[1])
    else:

        def grad_one(args: tuple[Array, Array]) -> Array:
            return random_gamma_grad(*args)

    grads: Array = lax_map(grad_one, (alphas, samples))
    return grads.reshape(a.shape)


def _random_gamma_jvp(
    primals: Sequence[Any], tangents: Sequence[Any], *, log_space: bool
) -> tuple[Any, Any]:
    key, a = primals
    out = random_gamma_p.bind(key, a, log_space=log_space)
    if is_zero(tangents[1]):
        return out, Zero.from_primal_value(out)
    return out, lax.mul(tangents[1], _gamma_grad(out, a, log_space=log_space))


def _random_gamma_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, log_space: bool
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    k, a = (bdim_at_front(x, d, size) for x, d in zip(args, dims))
    return random_gamma_p.bind(k, a, log_space=log_space), 0


random_gamma_p.def_rules(
    Rules(
        abstract_eval=_random_gamma_abstract_eval,
        lower=_random_gamma_lower,
        jvp=_random_gamma_jvp,
        batch=_random_gamma_batch,
    )
)


def _check_method(name: str, method: str) -> None:
    if method not in ("exact", "approximate"):
        raise ValueError(
            f"method argument to `{name}` must be one of {{'exact', 'approximate'}}, got {method!r}"
        )


def _gamma_checks(
    name: str, key: KeyLike, dtype: DTypeLike | None, shape: ShapeLike | None, method: str
) -> tuple[Array, np.dtype[Any], Shape | None]:
    typed, _ = check_prng_key(name, key)
    _check_method(name, method)
    dt = float_dtype("gamma", dtype)
    return typed, dt, None if shape is None else canonical_shape(shape, name)


def _gamma_approximate(
    key: Array, a: ArrayLike, shape: Shape | None, dtype: np.dtype[Any], log_space: bool
) -> Array:
    if shape is None:
        shape = _shape_of(a)
    else:
        check_shape("gamma", shape, _shape_of(a))
    return gamma_approx(key, a, shape, dtype, log_space)


def gamma(
    key: KeyLike,
    a: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    method: str = "exact",
) -> Array:
    """Gamma(a, 1) floats (Marsaglia-Tsang rejection sampling; ``method='approximate'``: a
    loop-free chi-square quantile series, slightly biased)."""
    typed, dt, shape_t = _gamma_checks("gamma", key, dtype, shape, method)
    if method == "approximate":
        return _gamma_approximate(typed, a, shape_t, dt, False)
    return _gamma(typed, a, shape_t, dt, False)


def loggamma(
    key: KeyLike,
    a: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    method: str = "exact",
) -> Array:
    """``log`` of Gamma(a, 1) samples, computed in log space (accurate for small ``a``)."""
    typed, dt, shape_t = _gamma_checks("loggamma", key, dtype, shape, method)
    if method == "approximate":
        return _gamma_approximate(typed, a, shape_t, dt, True)
    return _gamma(typed, a, shape_t, dt, True)


@jit(static_argnums=(2, 3, 4))
def _gamma(
    key: Array, a: ArrayLike, shape: Shape | None, dtype: np.dtype[Any], log_space: bool
) -> Array:
    if shape is None:
        shape = _shape_of(a)
    else:
        check_shape("gamma", shape, _shape_of(a))
    alpha = lax.convert_element_type(a, dtype)
    if alpha.shape != shape:
        alpha = jnp.broadcast_to(alpha, shape)
    out: Array = random_gamma_p.bind(key, alpha, log_space=log_space)
    return out


# -- beta, dirichlet -------------------------------------------------------------------


def beta(
    key: KeyLike,
    a: ArrayLike,
    b: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    method: str = "exact",
) -> Array:
    """Beta(a, b) floats, from two log-gamma samples."""
    typed, _ = check_prng_key("beta", key)
    _check_method("beta", method)
    dt = float_dtype("beta", dtype)
    for arg in (a, b):
        if not dtypes.safe_to_cast(arg, dt):
            raise dtypes.TypePromotionError(
                f"In arguments to beta, cannot safely cast argument of type {jnp.asarray(arg).dtype} to {dt}"
            )
    if shape is None:
        shape_t = np.broadcast_shapes(_shape_of(a), _shape_of(b))
    else:
        shape_t = canonical_shape(shape, "beta")
        check_shape("beta", shape_t, _shape_of(a), _shape_of(b))
    return _beta(typed, a, b, method, shape_t, dt)


@jit(static_argnums=(3, 4, 5))
def _beta(
    key: Array, a: ArrayLike, b: ArrayLike, method: str, shape: Shape, dtype: np.dtype[Any]
) -> Array:
    check_shape("beta", shape, _shape_of(a), _shape_of(b))
    a_arr = jnp.broadcast_to(lax.convert_element_type(a, dtype), shape)
    b_arr = jnp.broadcast_to(lax.convert_element_type(b, dtype), shape)
    key_a, key_b = split_keys(key)
    log_gamma_a = loggamma(key_a, a_arr, shape, dtype, method=method)
    log_gamma_b = loggamma(key_b, b_arr, shape, dtype, method=method)
    # gamma_a / (gamma_a + gamma_b) without losing precision.
    log_max = lax.max(log_gamma_a, log_gamma_b)
    gamma_a_scaled = jnp.exp(log_gamma_a - log_max)
    gamma_b_scaled = jnp.exp(log_gamma_b - log_max)
    return gamma_a_scaled / (gamma_a_scaled + gamma_b_scaled)


def dirichlet(
    key: KeyLike, alpha: ArrayLike, shape: ShapeLike | None = None, dtype: DTypeLike | None = None
) -> Array:
    """Dirichlet(alpha) float vectors (normalised log-gamma samples) over alpha's last axis."""
    typed, _ = check_prng_key("dirichlet", key)
    dt = float_dtype("dirichlet", dtype)
    shape_t = None if shape is None else canonical_shape(shape, "dirichlet")
    return _dirichlet(typed, alpha, shape_t, dt)


@jit(static_argnums=(2, 3))
def _dirichlet(key: Array, alpha: ArrayLike, shape: Shape | None, dtype: np.dtype[Any]) -> Array:
    alpha_shape = _shape_of(alpha)
    if not len(alpha_shape) >= 1:
        raise ValueError(
            f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == {len(alpha_shape)}"
        )
    if shape is None:
        shape = alpha_shape[:-1]
    else:
        check_shape("dirichlet", shape, alpha_shape[:-1])
    alpha_arr = lax.convert_element_type(alpha, dtype)
    log_gamma_samples = loggamma(key, alpha_arr, shape + alpha_shape[-1:], dtype)
    return _softmax_last(log_gamma_samples)


def _softmax_last(x: Array) -> Array:
    """``jax.nn.softmax(x, -1)``: exp(x - max) / sum, as JAX computes it."""
    x_max = jnp.max(x, -1, keepdims=True)
    unnormalized = jnp.exp(x - stop_gradient(x_max))
    return unnormalized / jnp.sum(unnormalized, -1, keepdims=True)


# -- poisson ---------------------------------------------------------------------------


def poisson(
    key: KeyLike,
    lam: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    method: str = "exact",
) -> Array:
    """Poisson(lam) integers (Knuth's algorithm below 10, transformed rejection above)."""
    typed, _ = check_prng_key("poisson", key)
    _check_method("poisson", method)
    dt = dtypes.check_and_canonicalize_user_dtype(int if dtype is None else dtype)
    shape_t = _shape_of(lam) if shape is None else canonical_shape(shape, "poisson")
    if method == "approximate":
        raise NotImplementedError(
            "jax_core.random.poisson(method='approximate') is not implemented; use method='exact'."
        )
    lam_arr = lax.convert_element_type(jnp.broadcast_to(lam, shape_t), np.float32)
    return _poisson(typed, lam_arr, shape_t, dt)


def _poisson_knuth(
    key: Array, lam: Array, shape: Shape, dtype: np.dtype[Any], max_iters: Any
) -> Array:
    def body_fn(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        i, k, rng, log_prod = carry
        rng, subkey = split_keys(rng)
        k = lax.select(log_prod > -lam, k + 1, k)
        u = uniform(subkey, shape, np.float32)
        return i + 1, k, rng, log_prod + jnp.log(u)

    def cond_fn(carry: tuple[Any, ...]) -> Any:
        i, log_prod = carry[0], carry[3]
        return (log_prod > -lam).any() & (i < max_iters)

    k_init = jnp.full(shape, 0, dtype)
    log_rate_init = jnp.full(shape, 0, np.float32)
    k = while_loop(cond_fn, body_fn, (0, k_init, key, log_rate_init))[1]
    return (k - 1).astype(dtype)


def _poisson_rejection(
    key: Array, lam: Array, shape: Shape, dtype: np.dtype[Any], max_iters: Any
) -> Array:
    # Transformed rejection due to Hormann.
    log_lam = lax.log(lam)
    b = 0.931 + 2.53 * lax.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def body_fn(carry: tuple[Any, ...]) -> tuple[Any, ...]:
        i, k_out, accepted, k = carry
        k, subkey_0, subkey_1 = split_keys(k, 3)
        u = uniform(subkey_0, shape, lam.dtype) - 0.5
        v = uniform(subkey_1, shape, lam.dtype)
        u_shifted = 0.5 - abs(u)
        kk = lax.floor((2 * a / u_shifted + b) * u + lam + 0.43)
        s = lax.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -lam + kk * log_lam - lax.lgamma(kk + 1)
        accept1 = (u_shifted >= 0.07) & (v <= v_r)
        reject = (kk < 0) | ((u_shifted < 0.013) & (v > u_shifted))
        accept2 = s <= t
        accept = accept1 | (~reject & accept2)
        k_out = lax.select(accept, kk, k_out)
        accepted = accepted | accept
        return i + 1, k_out, accepted, k

    def cond_fn(carry: tuple[Any, ...]) -> Any:
        i, _, accepted, _ = carry
        return (~accepted).any() & (i < max_iters)

    k_init = jnp.full(shape, -1, lam.dtype)
    accepted = jnp.full(shape, False, np.dtype("bool"))
    k = while_loop(cond_fn, body_fn, (0, k_init, accepted, key))[1]
    return k.astype(dtype)


@jit(static_argnums=(2, 3))
def _poisson(key: Array, lam: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    use_knuth = jnp.not_equal(lam, lam) | (lam < 10)
    lam_knuth = lax.select(use_knuth, lam, jnp.full_like(lam, 0.0))
    # The acceptance probability of rejection sampling tends to 89%: any large value.
    lam_rejection = lax.select(use_knuth, jnp.full_like(lam, 1e5), lam)
    max_iters = dtype.type(dtypes.iinfo(dtype).max)
    result = lax.select(
        use_knuth,
        _poisson_knuth(key, lam_knuth, shape, dtype, max_iters),
        _poisson_rejection(key, lam_rejection, shape, dtype, max_iters),
    )
    return lax.select(lam == 0, jnp.zeros_like(result), result)


# -- multivariate_normal ---------------------------------------------------------------


def multivariate_normal(
    key: KeyLike,
    mean: ArrayLike,
    cov: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    method: str = "cholesky",
) -> Array:
    """Multivariate normal vectors with ``mean`` (``(..., n)``) and covariance ``cov``
    (``(..., n, n)``), the factor of ``cov`` from ``method`` (``"cholesky"``, ``"eigh"``,
    ``"svd"``)."""
    typed, _ = check_prng_key("multivariate_normal", key)
    mean_arr, cov_arr = jnp.asarray(mean), jnp.asarray(cov)
    inexact = dtypes.result_type(mean_arr, cov_arr)
    if not dtypes.issubdtype(inexact, np.inexact):
        inexact = dtypes.to_inexact_dtype(inexact)
    mean_arr, cov_arr = mean_arr.astype(inexact), cov_arr.astype(inexact)
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    dt = mean_arr.dtype if dtype is None else dtypes.check_and_canonicalize_user_dtype(dtype)
    if not dtypes.issubdtype(dt, np.floating):
        raise ValueError(f"dtype argument to `multivariate_normal` must be a float dtype, got {dt}")
    shape_t = None if shape is None else canonical_shape(shape, "multivariate_normal")
    return _multivariate_normal(typed, mean_arr, cov_arr, shape_t, dt, method)


def _factor(cov: Array, method: str) -> Array:
    from jax_core import numpy as jnp_module

    linalg: Any = getattr(jnp_module, "linalg", None)
    fn: Any = getattr(linalg, method, None)
    if fn is None:
        raise NotImplementedError(
            f"jax_core.random.multivariate_normal(method={method!r}) needs jax_core.numpy.linalg.{method}, "
            "which jax_core does not have yet."
        )
    if method == "svd":
        u, s, _ = fn(cov)
        out: Array = u * jnp.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = fn(cov)
        out = v * jnp.sqrt(w[..., None, :])
    else:
        out = fn(cov)
    return out


@jit(static_argnums=(3, 4, 5))
def _multivariate_normal(
    key: Array, mean: Array, cov: Array, shape: Shape | None, dtype: np.dtype[Any], method: str
) -> Array:
    if not mean.ndim >= 1:
        raise ValueError(
            f"multivariate_normal requires mean.ndim >= 1, got mean.ndim == {mean.ndim}"
        )
    if not cov.ndim >= 2:
        raise ValueError(f"multivariate_normal requires cov.ndim >= 2, got cov.ndim == {cov.ndim}")
    n = mean.shape[-1]
    if cov.shape[-2:] != (n, n):
        raise ValueError(
            f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, but got cov.shape == {cov.shape}."
        )
    if shape is None:
        shape = np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2])
    else:
        check_shape("normal", shape, mean.shape[:-1], cov.shape[:-2])
    factor = _factor(cov, method)
    normal_samples = normal(key, shape + mean.shape[-1:], dtype)
    out: Array = mean + jnp.einsum("...ij,...j->...i", factor, normal_samples)
    return out
