"""``jax.scipy.special.rel_entr`` and ``kl_div``, as JAX writes them (which follows scipy).

``log(p / q)`` is taken by ``log1p((p - q) / q)`` near ``p == q``, by ``log(p / q)`` while the
ratio is a normal number and by ``log p - log q`` otherwise; ``kl_div`` uses a Taylor series
for ``|p/q - 1| < 0.05`` so it stays non-negative. Their derivatives are custom (JAX's), giving
the one-sided limits at ``p == 0``.
"""

from __future__ import annotations

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.numpy.util import jitted
from jax_core._src.scipy.special import promote_args_inexact
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def _c(x: Array, v: float) -> Array:
    return jnp.full_like(x, v)


def _masks(p: Array, q: Array) -> tuple[Array, Array, Array, Array, Array]:
    """``(nan, both > 0, p == 0 <= q, safe p, safe q)``."""
    nan = jnp.isnan(p) | jnp.isnan(q)
    both_pos = (p > 0) & (q > 0)
    p_zero = (p == 0) & (q >= 0)
    return nan, both_pos, p_zero, jnp.where(both_pos, p, 1.0), jnp.where(both_pos, q, 1.0)


def _log_p_over_q(p: Array, q: Array) -> tuple[Array, Array, Array, Array, Array]:
    """``(log(p/q), p/q, near one, p - q there, (p - q)/q there)`` for positive ``p``, ``q``."""
    ratio = p / q
    near_one = (ratio > 0.5) & (ratio < 2.0)
    normal = (ratio > float(dtypes.finfo(p.dtype).tiny)) & (ratio < np.inf)
    near_p = jnp.where(near_one, p, 1.0)
    near_q = jnp.where(near_one, q, 1.0)
    delta = near_p - near_q
    u = delta / near_q
    log_ratio = jnp.where(
        near_one, lax.log1p(u), jnp.where(normal, lax.log(jnp.where(normal, ratio, 1.0)), lax.log(p) - lax.log(q))
    )
    return log_ratio, ratio, near_one, delta, u


def _rel_entr_fn(p: Array, q: Array, kl: bool) -> Array:
    nan, both_pos, p_zero, sp, sq = _masks(p, q)
    log_ratio, _, near_one, delta, u = _log_p_over_q(sp, sq)
    log_val = sp * log_ratio
    if kl:
        poly = 1 / 2 - u * (1 / 6 - u * (1 / 12 - u * (1 / 20 - u * (1 / 30))))
        small_u = near_one & (lax.abs(u) < 0.05)
        pos = jnp.where(small_u, delta * u * poly, log_val - (sp - sq))
    else:
        pos = log_val
    edge = jnp.where(p_zero, q if kl else _c(p, 0.0), _c(p, np.inf))
    return jnp.where(nan, _c(p, np.nan), jnp.where(both_pos, pos, edge))


_rel_entr = custom_jvp(_rel_entr_fn, nondiff_argnums=(2,))


@_rel_entr.defjvp
def _rel_entr_jvp(kl: bool, primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    p, q = jnp.asarray(primals[0]), jnp.asarray(primals[1])
    p_dot, q_dot = tangents
    ans = _rel_entr(p, q, kl)
    nan, both_pos, p_zero, sp, sq = _masks(p, q)
    log_ratio, ratio, _, _, _ = _log_p_over_q(sp, sq)
    if kl:
        finite = sq < np.inf
        fp, fq = jnp.where(finite, sp, 1.0), jnp.where(finite, sq, 1.0)
        dp_pos, dq_pos = log_ratio, -jnp.where(finite, (fp - fq) / fq, -1.0)
    else:
        dp_pos, dq_pos = log_ratio + 1.0, -ratio
    zero = _c(p, 0.0)
    dp = jnp.where(nan, _c(p, np.nan), jnp.where(both_pos, dp_pos, zero))
    dq = jnp.where(nan, _c(p, np.nan), jnp.where(both_pos, dq_pos, jnp.where(p_zero, _c(p, 1.0 if kl else 0.0), zero)))
    return ans, (p_dot * dp + q_dot * dq).astype(ans.dtype)


def _check(name: str, *args: ArrayLike) -> tuple[Array, Array]:
    p, q = jnp.broadcast_arrays(*promote_args_inexact(name, *args))
    if dtypes.issubdtype(p.dtype, np.complexfloating):
        raise ValueError(f"{name} does not support complex-valued inputs.")
    return p, q


@jitted()
def rel_entr(p: ArrayLike, q: ArrayLike) -> Array:
    """Elementwise relative entropy ``p log(p/q)`` (0 at ``p == 0 <= q``, ``inf`` otherwise)."""
    pa, qa = _check("rel_entr", p, q)
    return _rel_entr(pa, qa, False)


@jitted()
def kl_div(p: ArrayLike, q: ArrayLike) -> Array:
    """Elementwise Kullback-Leibler divergence ``p log(p/q) - p + q`` (``q`` at ``p == 0``)."""
    pa, qa = _check("kl_div", p, q)
    return _rel_entr(pa, qa, True)
