"""Special functions by recurrences, series and quadrature for jax_core.scipy.special:
``bessel_jn`` (Miller's backward recurrence), ``hyp1f1`` (Kummer's series, its asymptotic
expansion beyond ``|x| = 100``) and ``owens_t`` (13-point Gauss-Legendre quadrature), as JAX
computes them, with JAX's derivative rules."""

from __future__ import annotations

import operator
from functools import partial
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.numpy.util import ensure_array, jitted, promote_dtypes_inexact
from jax_core._src.scipy import special_tables as tables
from jax_core._src.scipy.special import digamma, gamma, promote_args_inexact
from jax_core._src.scipy.special import lax_const as _c
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- bessel_jn -------------------------------------------------------------------------------------

_JnCarry = tuple[Array, Array, Array, Array]


def _jn_step(carry: _JnCarry, k: Array) -> tuple[_JnCarry, Array]:
    f0, f1, bs, z = carry
    f = 2.0 * (k + 1.0) * f1 / z - f0
    bs = lax.cond(jnp.mod(k, 2) == 0, lambda u: u[0] + 2.0 * u[1], lambda u: u[0], (bs, f))
    return (f1, f, bs, z), f


def _bessel_jn_scalar(z: Array, *, v: int, n_iter: int = 50) -> Array:
    """``J_0 .. J_v`` at one point: the recurrence run down from ``n_iter`` and normalized by
    ``J_0 + 2 (J_2 + J_4 + ...) = 1``."""
    init: _JnCarry = (ensure_array(jnp.asarray(_c(z, 0.0))), ensure_array(jnp.asarray(_c(z, 1e-16))),
                      ensure_array(jnp.asarray(_c(z, 0.0))), z)  # fmt: skip
    (_, _, bs, _), vals = lax.scan(_jn_step, init, lax.iota(z.dtype, n_iter + 1), reverse=True)
    return vals[: v + 1] / (bs - vals[0])


def _concrete_int(value: Any, what: str, convert: Any) -> int:
    if isinstance(value, Tracer):
        value.concretization_error(what)
    out: int = convert(value)
    return out


@jitted(static=("v", "n_iter"), inline=False)
def bessel_jn(z: ArrayLike, *, v: int, n_iter: int = 50) -> Array:
    """Bessel functions of the first kind of orders ``0 .. v`` at ``z`` (a leading axis of size
    ``v + 1``), by Miller's backward recurrence from order ``n_iter``."""
    (zp,) = promote_dtypes_inexact(jnp.asarray(z))
    za = ensure_array(zp)
    if dtypes.issubdtype(za.dtype, np.complexfloating):
        raise ValueError("complex input not supported.")
    order = _concrete_int(v, "Argument v of bessel_jn.", operator.index)
    iters = _concrete_int(n_iter, "Argument n_iter of bessel_jn.", int)
    fun: Any = partial(_bessel_jn_scalar, v=order, n_iter=iters)
    for _ in range(za.ndim):
        fun = vmap(fun)
    return jnp.moveaxis(fun(za), -1, 0)


# -- hyp1f1 ----------------------------------------------------------------------------------------

_SeriesState = tuple[Any, Any, Any]


def _series_cond(eps: float) -> Any:
    def cond(state: _SeriesState) -> Array:
        total, k, term = state
        out: Array = (k < 250) & (lax.abs(term) / lax.abs(total) > eps)
        return out

    return cond


def _hyp1f1_series(a: Array, b: Array, x: Array) -> Array:
    def body(state: _SeriesState) -> _SeriesState:
        total, k, term = state
        return total + term, k + 1, term * ((a + k) / (b + k) * x / (k + 1))

    return jnp.asarray(lax.while_loop(_series_cond(float(dtypes.finfo(x.dtype).eps)), body, (1, 1, a / b * x))[0])


def _hyp1f1_asymptotic(a: Array, b: Array, x: Array) -> Array:
    def body(state: _SeriesState) -> _SeriesState:
        total, k, term = state
        return total + term, k + 1, term * ((b - a + k) * (1 - a + k) / (k + 1) / x)

    init = (1, 1, (b - a) * (1 - a) / x)
    total = lax.while_loop(_series_cond(float(dtypes.finfo(x.dtype).eps)), body, init)[0]
    return gamma(b) / gamma(a) * lax.exp(x) * x ** (a - b) * total


def _hyp1f1_scalar(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    aa, ba, xa = promote_args_inexact("hyp1f1", a, b, x)
    if dtypes.issubdtype(xa.dtype, np.complexfloating):
        raise ValueError("hyp1f1 does not support complex-valued inputs.")
    result: Array = lax.cond(lax.abs(xa) < 100, _hyp1f1_series, _hyp1f1_asymptotic, aa, ba, xa)
    index = (aa == 0) * 1 + ((aa == ba) & (aa != 0)) * 2 + ((ba == 0) & (aa != 0)) * 3
    return lax.select_n(index, result, jnp.array(1, dtype=xa.dtype), jnp.exp(xa), jnp.array(np.inf, dtype=xa.dtype))


_hyp1f1_vectorized = jitted(inline=False)(jnp.vectorize(_hyp1f1_scalar))


def _hyp1f1_param_derivative(which: str, a: Array, b: Array, x: Array) -> Array:
    def body(state: _SeriesState) -> _SeriesState:
        total, k, term = state
        weight = digamma(a + k) - digamma(a) if which == "a" else digamma(b) - digamma(b + k)
        return total + term * weight, k + 1, term * ((a + k) / (b + k) * x / (k + 1))

    return jnp.asarray(lax.while_loop(_series_cond(float(dtypes.finfo(x.dtype).eps)), body, (0, 1, a / b * x))[0])


_hyp1f1_da = jitted(inline=False)(jnp.vectorize(partial(_hyp1f1_param_derivative, "a")))
_hyp1f1_db = jitted(inline=False)(jnp.vectorize(partial(_hyp1f1_param_derivative, "b")))


@custom_jvp
def _hyp1f1(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    out: Array = _hyp1f1_vectorized(a, b, x)
    return out


@jitted(inline=False)
def _hyp1f1_dx(a: Array, b: Array, x: Array) -> Array:
    return a / b * _hyp1f1(a + 1, b + 1, x)


def _hyp1f1_jvp_a(g: Array, ans: Array, a: Array, b: Array, x: Array) -> Array:
    out: Array = _hyp1f1_da(a, b, x) * g
    return out


def _hyp1f1_jvp_b(g: Array, ans: Array, a: Array, b: Array, x: Array) -> Array:
    out: Array = _hyp1f1_db(a, b, x) * g
    return out


def _hyp1f1_jvp_x(g: Array, ans: Array, a: Array, b: Array, x: Array) -> Array:
    return _hyp1f1_dx(a, b, x) * g


_hyp1f1.defjvps(_hyp1f1_jvp_a, _hyp1f1_jvp_b, _hyp1f1_jvp_x)


def hyp1f1(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)`` for real arguments: its
    series below ``|x| = 100`` (at most 250 terms), the asymptotic expansion above."""
    return _hyp1f1(a, b, x)


# -- owens_t ---------------------------------------------------------------------------------------


def _owens_t_quadrature(h: Array, a: Array) -> Array:
    nodes = jnp.expand_dims(tables.OWENS_T_NODES, tuple(range(a.ndim)))
    r = jnp.square(a)[..., None] * nodes
    integrand = jnp.exp(-0.5 * jnp.square(h)[..., None] * (1.0 + r)) / (1.0 + r)
    return a * (integrand @ tables.OWENS_T_WEIGHTS)


@custom_jvp
def _owens_t(h: Array, a: Array) -> Array:
    h = jnp.abs(h)
    abs_a = jnp.abs(a)
    root2 = _c(h, np.sqrt(2))
    h_scaled = h / root2
    small_a = jnp.where(abs_a <= 1.0, abs_a, jnp.reciprocal(abs_a))
    small_h = jnp.where(abs_a <= 1.0, h, abs_a * h)
    result = _owens_t_quadrature(small_h, small_a)
    result = jnp.where(small_h == 0.0, jnp.arctan(small_a) / (2 * np.pi), result)
    result = jnp.where(small_a == 1.0, 0.125 * lax.erfc(-small_h / root2) * lax.erfc(small_h / root2), result)
    erfc_h = lax.erfc(h_scaled)
    erfc_ah = lax.erfc(abs_a * h_scaled)
    # |a| > 1: T(h, a) = (Phi(h) + Phi(ah)) / 2 - Phi(h) Phi(ah) - T(ah, 1/a), in erf or erfc form
    flipped = jnp.where(
        abs_a * h <= 0.67,
        0.25 - 0.25 * lax.erf(h_scaled) * lax.erf(abs_a * h_scaled) - result,
        0.25 * (erfc_h + erfc_ah - erfc_h * erfc_ah) - result,
    )
    result = lax.sign(a) * jnp.where(abs_a > 1.0, flipped, result)
    return jnp.where(jnp.isnan(a) | jnp.isnan(h), jnp.full_like(result, np.nan), result)


@_owens_t.defjvp
def _owens_t_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    h, a = jnp.asarray(primals[0]), jnp.asarray(primals[1])
    dh, da = tangents
    result = _owens_t(h, a)
    root2 = _c(h, np.sqrt(2))
    d_h = -lax.exp(-0.5 * lax.square(h)) * lax.erf(a * h / root2) / (2.0 * _c(h, np.sqrt(2.0 * np.pi)))
    d_a = lax.exp(-0.5 * (lax.square(a) + 1.0) * lax.square(h)) / (2.0 * np.pi * (lax.square(a) + 1.0))
    return result, (d_h * dh + d_a * da).astype(result.dtype)


def owens_t(h: ArrayLike, a: ArrayLike) -> Array:
    """Owen's T function ``T(h, a) = 1/(2 pi) int_0^a exp(-h**2 (1 + x**2) / 2) / (1 + x**2) dx``."""
    ha, aa = promote_args_inexact("owens_t", h, a)
    return _owens_t(ha, aa)
