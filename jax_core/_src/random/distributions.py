"""Samplers composed from the basic ones: ``pareto``, ``t``, ``chisquare``, ``f``,
``rademacher``, ``maxwell``, ``double_sided_maxwell``, ``weibull_min``, ``orthogonal``,
``generalized_normal``, ``ball``, ``rayleigh``, ``wald``, ``geometric``, ``triangular`` and
``lognormal``.

Each is JAX 0.12's algorithm op for op, so a key gives the same bits as in JAX: a public
function checks its arguments (JAX's order and errors), then a jitted ``_name`` (static
shape and dtype) computes. JAX's keyword-only ``out_sharding`` (explicit sharding mode)
is accepted; anything but ``None`` raises ``NotImplementedError``.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from jax_core import numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.avals import canonical_shape
from jax_core._src.core.trace import Tracer
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.shape.compositions import broadcast_shapes
from jax_core._src.numpy import linalg as jnp_linalg
from jax_core._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jax_core._src.random.api import check_prng_key, split_keys
from jax_core._src.random.keys import KeyLike
from jax_core._src.random.samplers import (
    bernoulli,
    check_shape,
    exponential,
    normal,
    uniform,
)
from jax_core._src.random.samplers_extra import gamma, loggamma
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.transforms.api import jit
from jax_core._src.transforms.jit import Inline
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

Shape = tuple[int, ...]
OutSharding = NamedSharding | PartitionSpec | None
"""JAX's ``out_sharding`` parameter of the samplers (only ``None`` is implemented)."""


# -- argument checks (JAX's) -------------------------------------------------------------


def check_out_sharding(name: str, out_sharding: OutSharding) -> None:
    """``out_sharding`` must be ``None``: jax_core has no mesh context (a ``PartitionSpec``
    raises JAX's error for one outside a mesh) and no explicit sharding mode."""
    if isinstance(out_sharding, PartitionSpec):
        raise ValueError(
            "Using PartitionSpec when you are not under a mesh context is not allowed. Please "
            "pass a NamedSharding instance or enter into a mesh context via `jax.set_mesh`. "
            f"Got {out_sharding}"
        )
    if out_sharding is not None:
        raise NotImplementedError(
            f"jax_core.random.{name}(out_sharding=...) is not implemented: jax_core has no "
            "explicit sharding mode. Pass out_sharding=None and place the result with "
            "jax_core.device_put(result, sharding)."
        )


def float_dtype(name: str, dtype: DTypeLike | None) -> np.dtype[Any]:
    """The canonical float dtype of a sampler (default float32, float64 with x64)."""
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    if not dtypes.issubdtype(dt, np.floating):
        raise ValueError(f"dtype argument to `{name}` must be a float dtype, got {dt}")
    return dt


def arg_shape(x: object) -> Shape:
    """``np.shape`` of a parameter (arrays, tracers, scalars, nested lists)."""
    shape_attr: object = getattr(x, "shape", None)  # arrays and tracers: no host copy
    if isinstance(shape_attr, tuple):
        return tuple(int(d) for d in cast("tuple[int, ...]", shape_attr))
    return tuple(int(d) for d in np.asarray(x).shape)


def check_broadcast_shapes(name: str, shape: ShapeLike | None, *args: object) -> Shape:
    """The sample shape: ``shape``, which the parameters must broadcast to, or theirs."""
    arg_shapes = [arg_shape(a) for a in args]
    if shape is None:
        return broadcast_shapes(*arg_shapes) if arg_shapes else ()
    shape_t = canonical_shape(shape, name)
    check_shape(name, shape_t, *arg_shapes)
    return shape_t


def check_all_safe_to_cast(name: str, dtype: np.dtype[Any], *args: object) -> None:
    """Every parameter must convert to ``dtype`` as promotion would (no narrowing)."""
    for arg in args:
        if not dtypes.safe_to_cast(arg, dtype):
            raise dtypes.TypePromotionError(
                f"In arguments to {name}, cannot safely cast argument of type "
                f"{jnp.asarray(arg).dtype} to {dtype}"
            )


def concrete_index(value: int, name: str) -> int:
    """A static integer argument (``n``, ``d``): tracers raise JAX's concretization error."""
    if isinstance(value, Tracer):
        value.concretization_error(f"The error occurred in jax.random.{name}()")
    return operator.index(value)


def _const(x: Array, value: float) -> np.ndarray[Any, Any]:
    return np.array(value, x.dtype)


# -- pareto, t, chisquare, f -------------------------------------------------------------


def pareto(
    key: KeyLike,
    b: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Pareto floats on ``[1, inf)`` with shape parameter ``b`` (density ``b / x**(b + 1)``)."""
    typed, _ = check_prng_key("pareto", key)
    dt = float_dtype("pareto", dtype)
    shape_t = check_broadcast_shapes("pareto", shape, b)
    check_all_safe_to_cast("pareto", dt, b)
    check_out_sharding("pareto", out_sharding)
    return _pareto(typed, b, shape_t, dt)


@jit(static_argnums=(2, 3))
def _pareto(key: Array, b: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    b_arr = lax.convert_element_type(b, dtype)
    e = exponential(key, shape, dtype)
    return lax.exp(jnp.true_divide(e, b_arr))


def t(
    key: KeyLike,
    df: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Student's t floats with ``df`` degrees of freedom."""
    typed, _ = check_prng_key("t", key)
    dt = float_dtype("t", dtype)
    shape_t = check_broadcast_shapes("t", shape, df)
    check_out_sharding("t", out_sharding)
    check_all_safe_to_cast("t", dt, df)
    return _t(typed, df, shape_t, dt)


@jit(static_argnums=(2, 3))
def _t(key: Array, df: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_shape("t", shape, arg_shape(df))
    df_arr = lax.convert_element_type(df, dtype)
    key_n, key_g = split_keys(key)
    n = normal(key_n, shape, dtype)
    half_df = lax.div(df_arr, _const(n, 2))
    g = gamma(key_g, half_df, shape, dtype)
    return jnp.multiply(n, jnp.sqrt(jnp.true_divide(half_df, g)))


def chisquare(
    key: KeyLike,
    df: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    method: str = "exact",
    out_sharding: OutSharding = None,
) -> Array:
    """Chi-square floats with ``df`` degrees of freedom (twice a Gamma(df / 2) sample)."""
    typed, _ = check_prng_key("chisquare", key)
    if method not in {"exact", "approximate"}:
        raise ValueError(
            "method argument to `chisquare` must be one of {'exact', 'approximate'}, "
            f"got {method!r}"
        )
    dt = float_dtype("chisquare", dtype)
    shape_t = check_broadcast_shapes("chisquare", shape, df)
    check_all_safe_to_cast("chisquare", dt, df)
    check_out_sharding("chisquare", out_sharding)
    return _chisquare(typed, df, method, shape_t, dt)


@jit(static_argnums=(2, 3, 4))
def _chisquare(key: Array, df: ArrayLike, method: str, shape: Shape, dtype: np.dtype[Any]) -> Array:
    df_arr = lax.convert_element_type(df, dtype)
    two = _const(df_arr, 2)
    half_df = lax.div(df_arr, two)
    log_g = loggamma(key, half_df, shape, dtype, method=method)
    return lax.mul(jnp.exp(log_g), two)


def f(
    key: KeyLike,
    dfnum: ArrayLike,
    dfden: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """F-distributed floats: the ratio of two chi-square samples over their degrees of freedom."""
    typed, _ = check_prng_key("f", key)
    dt = float_dtype("f", dtype)
    shape_t = check_broadcast_shapes("f", shape, dfnum, dfden)
    check_out_sharding("f", out_sharding)
    check_all_safe_to_cast("f", dt, dfnum, dfden)
    return _f(typed, dfnum, dfden, shape_t, dt)


@jit(static_argnums=(3, 4))
def _f(key: Array, dfnum: ArrayLike, dfden: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    dfden_arr = lax.convert_element_type(dfden, dtype)
    dfnum_arr = lax.convert_element_type(dfnum, dtype)
    key_dfd, key_dfn = split_keys(key)
    chi2_dfn = chisquare(key_dfn, dfnum_arr, shape, dtype)
    chi2_dfd = chisquare(key_dfd, dfden_arr, shape, dtype)
    num = jnp.true_divide(chi2_dfn, dfnum_arr)
    den = jnp.true_divide(chi2_dfd, dfden_arr)
    return lax.div(num, den)


# -- rademacher, maxwell, double_sided_maxwell, weibull_min ------------------------------


def rademacher(
    key: KeyLike,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """-1 or 1 with equal probability (int32 by default; int64 with x64)."""
    typed, _ = check_prng_key("rademacher", key)
    dt = dtypes.check_and_canonicalize_user_dtype(int if dtype is None else dtype)
    shape_t = canonical_shape(shape, "rademacher")
    check_out_sharding("rademacher", out_sharding)
    return _rademacher(typed, shape_t, dt)


@jit(static_argnums=(1, 2))
def _rademacher(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    samples = bernoulli(key, 0.5, shape).astype(dtype)
    return jnp.subtract(jnp.multiply(2, samples), 1).astype(dtype)


def maxwell(
    key: KeyLike,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """One-sided Maxwell floats: the norm of three standard normal samples."""
    typed, _ = check_prng_key("maxwell", key)
    dt = float_dtype("maxwell", dtype)
    shape_t = canonical_shape(shape, "maxwell")
    check_out_sharding("maxwell", out_sharding)
    return _maxwell(typed, shape_t, dt)


@jit(static_argnums=(1, 2))
def _maxwell(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    norm_rvs = normal(key, (*shape, 3), dtype)
    return jnp_linalg.norm(norm_rvs, axis=-1)


def double_sided_maxwell(
    key: KeyLike,
    loc: ArrayLike,
    scale: ArrayLike,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
) -> Array:
    """Double-sided Maxwell floats centred on ``loc`` with scale ``scale``; the result's shape
    is ``shape + broadcast(loc, scale).shape``."""
    typed, _ = check_prng_key("double_sided_maxwell", key)
    dt = float_dtype("double_sided_maxwell", dtype)
    shape_t = canonical_shape(shape, "double_sided_maxwell")
    return _double_sided_maxwell(typed, loc, scale, shape_t, dt)


@jit(static_argnums=(3, 4))
def _double_sided_maxwell(
    key: Array, loc: ArrayLike, scale: ArrayLike, shape: Shape, dtype: np.dtype[Any]
) -> Array:
    params_shapes = broadcast_shapes(arg_shape(loc), arg_shape(scale))
    if not shape:
        shape = params_shapes
    shape = shape + params_shapes
    maxwell_key, rademacher_key = split_keys(key)
    maxwell_rvs = maxwell(maxwell_key, shape, dtype)
    random_sign = rademacher(rademacher_key, shape, dtype)
    return jnp.add(jnp.multiply(jnp.multiply(random_sign, maxwell_rvs), scale), loc)


def weibull_min(
    key: KeyLike,
    scale: ArrayLike,
    concentration: ArrayLike,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
) -> Array:
    """Weibull floats with ``scale`` and ``concentration`` (inverse-CDF sampling)."""
    typed, _ = check_prng_key("weibull_min", key)
    dt = float_dtype("weibull_min", dtype)
    shape_t = canonical_shape(shape, "weibull_min")
    return _weibull_min(typed, scale, concentration, shape_t, dt)


@jit(static_argnums=(3, 4))
def _weibull_min(
    key: Array, scale: ArrayLike, concentration: ArrayLike, shape: Shape, dtype: np.dtype[Any]
) -> Array:
    u = uniform(key, shape, dtype, 0, 1)
    base = jnp.negative(jnp.log1p(jnp.negative(u)))
    return jnp.multiply(jnp.power(base, jnp.true_divide(1.0, concentration)), scale)


# -- orthogonal, generalized_normal, ball ------------------------------------------------


def orthogonal(
    key: KeyLike,
    n: int,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
    m: int | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Matrices drawn uniformly from O(n) (U(n) for complex dtypes), of shape
    ``(*shape, n, m)``; semi-orthogonal when ``m != n``."""
    m_ = n if m is None else m
    shape_t = canonical_shape(shape, "orthogonal")
    typed, _ = check_prng_key("orthogonal", key)
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    check_shape("orthogonal", shape_t)
    n = concrete_index(n, "orthogonal")
    m_ = concrete_index(m_, "orthogonal")
    check_out_sharding("orthogonal", out_sharding)
    return _orthogonal(typed, n, m_, shape_t, dt)


@jit(static_argnums=(1, 2, 3, 4))
def _orthogonal(key: Array, n: int, m: int, shape: Shape, dtype: np.dtype[Any]) -> Array:
    z = normal(key, (*shape, max(n, m), min(n, m)), dtype)
    q, r = jnp_linalg.qr(z)
    d = jnp_linalg.diagonal(r)
    x = jnp.multiply(q, jnp.expand_dims(jnp.sign(d), -2))
    return x.mT if n < m else x


def generalized_normal(
    key: KeyLike,
    p: ArrayLike,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Generalized normal floats with shape parameter ``p`` (density ``exp(-|x|**p)``)."""
    shape_t = canonical_shape(shape, "generalized_normal")
    typed, _ = check_prng_key("generalized_normal", key)
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    check_shape("generalized_normal", shape_t)
    check_out_sharding("generalized_normal", out_sharding)
    return _generalized_normal(typed, p, shape_t, dt)


@jit(static_argnums=(2, 3))
def _generalized_normal(key: Array, p: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    keys = split_keys(key)
    inv_p = jnp.true_divide(1, p)
    g = gamma(keys[0], inv_p, shape, dtype)
    r = rademacher(keys[1], shape, dtype)
    return jnp.multiply(r, jnp.power(g, jnp.true_divide(1, p)))


def ball(
    key: KeyLike,
    d: int,
    p: ArrayLike = 2,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Points drawn uniformly from the unit Lp ball in ``d`` dimensions, of shape
    ``(*shape, d)``."""
    check_arraylike("ball", p)
    shape_t = canonical_shape(shape, "ball")
    typed, _ = check_prng_key("ball", key)
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    check_shape("ball", shape_t)
    d = concrete_index(d, "ball")
    check_out_sharding("ball", out_sharding)
    return _ball(typed, p, d, shape_t, dt)


@jit(static_argnums=(2, 3, 4))
def _ball(key: Array, p: ArrayLike, d: int, shape: Shape, dtype: np.dtype[Any]) -> Array:
    k1, k2 = split_keys(key)
    g = generalized_normal(k1, p, (*shape, d), dtype)
    e = exponential(k2, shape, dtype)
    total = jnp.add(jnp.power(jnp.abs(g), p).sum(-1), e)
    return jnp.true_divide(g, jnp.power(total, jnp.true_divide(1, p))[..., None])


# -- rayleigh, wald, geometric, triangular, lognormal ------------------------------------


def rayleigh(
    key: KeyLike,
    scale: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Rayleigh floats with ``scale`` (inverse-CDF sampling)."""
    typed, _ = check_prng_key("rayleigh", key)
    dt = float_dtype("rayleigh", dtype)
    shape_t = check_broadcast_shapes("rayleigh", shape, scale)
    check_out_sharding("rayleigh", out_sharding)
    check_all_safe_to_cast("rayleigh", dt, scale)
    return _rayleigh(typed, scale, shape_t, dt)


@jit(static_argnums=(2, 3))
def _rayleigh(key: Array, scale: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    u = uniform(key, shape, dtype)
    scale_arr = jnp.broadcast_to(jnp.asarray(scale).astype(dtype), shape)
    log_u = lax.log(u)
    n_two = _const(scale_arr, -2)
    sqrt_u = lax.sqrt(lax.mul(log_u, n_two))
    return lax.mul(scale_arr, sqrt_u)


def wald(
    key: KeyLike,
    mean: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Wald (inverse Gaussian) floats with ``mean``."""
    typed, _ = check_prng_key("wald", key)
    dt = float_dtype("wald", dtype)
    shape_t = check_broadcast_shapes("wald", shape, mean)
    check_out_sharding("wald", out_sharding)
    check_all_safe_to_cast("wald", dt, mean)
    return _wald(typed, mean, shape_t, dt)


@jit(static_argnums=(2, 3))
def _wald(key: Array, mean: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    k1, k2 = split_keys(key, 2)
    mu = jnp.broadcast_to(jnp.asarray(mean).astype(dtype), shape)
    v = normal(k1, shape, dtype)
    z = uniform(k2, shape, dtype)
    y = lax.integer_pow(v, 2)
    y_sq = lax.integer_pow(y, 2)
    mean_sq = lax.integer_pow(mu, 2)
    sqrt_term = lax.sqrt(4 * mu * y + mean_sq * y_sq)
    x = mu + mean_sq * y / 2 - mu / 2 * sqrt_term
    return lax.select(lax.le(z, mu / (mu + x)), x, mean_sq / x)


def geometric(
    key: KeyLike,
    p: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """The number of Bernoulli(``p``) trials up to the first success (int32 by default)."""
    typed, _ = check_prng_key("geometric", key)
    dt = dtypes.check_and_canonicalize_user_dtype(int if dtype is None else dtype)
    if not dtypes.issubdtype(dt, np.integer):
        raise ValueError(f"dtype argument to `geometric` must be an int dtype, got {dt}")
    shape_t = check_broadcast_shapes("geometric", shape, p)
    check_out_sharding("geometric", out_sharding)
    return _geometric(typed, p, shape_t, dt)


@jit(static_argnums=(2, 3))
def _geometric(key: Array, p: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_arraylike("geometric", p)
    (prob,) = promote_dtypes_inexact(p)
    prob_arr = jnp.asarray(prob)
    u = uniform(key, shape, prob_arr.dtype)
    u = jnp.where(jnp.equal(u, 0), 1, u)
    log_u = lax.log(u)
    log_one_minus_p = jnp.broadcast_to(lax.log1p(lax.neg(prob_arr)), shape)
    g = jnp.add(lax.floor(lax.div(log_u, log_one_minus_p)), 1)
    return g.astype(dtype)


def triangular(
    key: KeyLike,
    left: ArrayLike,
    mode: ArrayLike,
    right: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Triangular floats on ``[left, right]`` peaking at ``mode`` (inverse-CDF sampling)."""
    typed, _ = check_prng_key("triangular", key)
    dt = float_dtype("triangular", dtype)
    shape_t = check_broadcast_shapes("triangular", shape, left, mode, right)
    check_out_sharding("triangular", out_sharding)
    check_all_safe_to_cast("triangular", dt, left, mode, right)
    return _triangular(typed, left, mode, right, shape_t, dt)


@jit(static_argnums=(4, 5), inline=Inline.JAX_EARLY)
def _triangular(
    key: Array, left: ArrayLike, mode: ArrayLike, right: ArrayLike, shape: Shape,
    dtype: np.dtype[Any],
) -> Array:  # fmt: skip
    lo = jnp.broadcast_to(lax.convert_element_type(left, dtype), shape)
    hi = jnp.broadcast_to(lax.convert_element_type(right, dtype), shape)
    peak = jnp.broadcast_to(lax.convert_element_type(mode, dtype), shape)
    fc = (peak - lo) / (hi - lo)
    u = uniform(key, shape, dtype)
    out1 = lo + lax.sqrt(u * (hi - lo) * (peak - lo))
    out2 = hi - lax.sqrt((1 - u) * (hi - lo) * (hi - peak))
    return lax.select(u < fc, out1, out2)


def lognormal(
    key: KeyLike,
    sigma: ArrayLike = np.float32(1),
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
    *,
    out_sharding: OutSharding = None,
) -> Array:
    """Log-normal floats: ``exp`` of normal samples with standard deviation ``sigma``."""
    typed, _ = check_prng_key("lognormal", key)
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    if not dtypes.issubdtype(dt, np.inexact):
        raise ValueError(
            f"dtype argument to `lognormal` must be a float or complex dtype, got {dt}"
        )
    shape_t = check_broadcast_shapes("lognormal", shape, sigma)
    check_out_sharding("lognormal", out_sharding)
    check_all_safe_to_cast("lognormal", dt, sigma)
    return _lognormal(typed, sigma, shape_t, dt)


@jit(static_argnums=(2, 3), inline=Inline.JAX_EARLY)
def _lognormal(key: Array, sigma: ArrayLike, shape: Shape, dtype: np.dtype[Any]) -> Array:
    sigma_arr = lax.convert_element_type(sigma, dtype)
    return lax.exp(jnp.multiply(normal(key, shape, dtype), sigma_arr))


__all__: Sequence[str] = (
    "ball",
    "chisquare",
    "double_sided_maxwell",
    "f",
    "generalized_normal",
    "geometric",
    "lognormal",
    "maxwell",
    "orthogonal",
    "pareto",
    "rademacher",
    "rayleigh",
    "t",
    "triangular",
    "wald",
    "weibull_min",
)
