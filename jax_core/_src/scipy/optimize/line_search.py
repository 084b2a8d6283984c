"""The strong-Wolfe line search of JAX's ``minimize`` (Nocedal & Wright, Algorithms 3.5 and 3.6):
bracketing steps, then a zoom by cubic, quadratic or bisection interpolation, all in
``lax.while_loop``s so it runs under ``jit``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.lax.control_flow.loops import while_loop
from jax_core._src.lax.linalg.dot import Precision
from jax_core._src.numpy.util import ensure_array, promote_dtypes_inexact
from jax_core._src.transforms.ad_signatures import value_and_grad
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

ScalarFn = Callable[[Array], Array]


def dot(a: ArrayLike, b: ArrayLike) -> Array:
    """``jnp.dot`` at ``Precision.HIGHEST``, as the optimizers use it."""
    return jnp.dot(a, b, precision=Precision.HIGHEST)


def _cubicmin(a: Array, fa: Array, fpa: Array, b: Array, fb: Array, c: Array, fc: Array) -> Array:
    """The minimizer of the cubic through (a, fa), (b, fb), (c, fc) with slope fpa at a."""
    dtype = dtypes.result_type(a, fa, fpa, b, fb, c, fc)
    db = b - a
    dc = c - a
    denom = (db * dc) ** 2 * (db - dc)
    d1 = jnp.array([[dc**2, -(db**2)], [-(dc**3), db**3]], dtype=dtype)
    d2 = jnp.array([fb - fa - fpa * db, fc - fa - fpa * dc], dtype=dtype)
    coef = dot(d1, d2) / denom
    big_a, big_b = coef[0], coef[1]
    radical = big_b * big_b - 3.0 * big_a * fpa
    return a + (-big_b + jnp.sqrt(radical)) / (3.0 * big_a)


def _quadmin(a: Array, fa: Array, fpa: Array, b: Array, fb: Array) -> Array:
    """The minimizer of the quadratic through (a, fa), (b, fb) with slope fpa at a."""
    db = b - a
    big_b = (fb - fa - fpa * db) / (db**2)
    return a - fpa / (2.0 * big_b)


def binary_replace(bit: Array, old: Mapping[str, ArrayLike], new: Mapping[str, ArrayLike]) -> dict[str, Array]:
    """``new[key]`` where ``bit`` holds, else ``old[key]``, for every key of ``new``."""
    return {key: jnp.where(bit, value, old[key]) for key, value in new.items()}


class _ZoomState(NamedTuple):
    done: Array
    failed: Array
    j: Array
    a_lo: Array
    phi_lo: Array
    dphi_lo: Array
    a_hi: Array
    phi_hi: Array
    dphi_hi: Array
    a_rec: Array
    phi_rec: Array
    a_star: Array
    phi_star: Array
    dphi_star: Array
    g_star: Array
    nfev: Array
    ngev: Array


def _w(x: ArrayLike) -> Array:
    """A Python scalar as a weakly typed array (what ``lax.while_loop`` makes of it)."""
    return ensure_array(x)


def _zoom(
    restricted: Callable[[Array], tuple[Array, Array, Array]],
    wolfe_one: Callable[[Array, Array], Array],
    wolfe_two: Callable[[Array], Array],
    a_lo: Array, phi_lo: Array, dphi_lo: Array,
    a_hi: Array, phi_hi: Array, dphi_hi: Array,
    g_0: Array,
    pass_through: Array,
) -> _ZoomState:  # fmt: skip
    """Algorithm 3.6: narrows [a_lo, a_hi] to a step meeting the strong Wolfe conditions (runs
    no iteration when ``pass_through``)."""
    state = _ZoomState(
        done=_w(False), failed=_w(False), j=_w(0),
        a_lo=a_lo, phi_lo=phi_lo, dphi_lo=dphi_lo, a_hi=a_hi, phi_hi=phi_hi, dphi_hi=dphi_hi,
        a_rec=(a_lo + a_hi) / 2.0, phi_rec=(phi_lo + phi_hi) / 2.0,
        a_star=_w(1.0), phi_star=phi_lo, dphi_star=dphi_lo, g_star=g_0, nfev=_w(0), ngev=_w(0),
    )  # fmt: skip
    delta1, delta2 = 0.2, 0.1

    def body(state: _ZoomState) -> _ZoomState:
        dalpha = state.a_hi - state.a_lo
        a = jnp.minimum(state.a_hi, state.a_lo)
        b = jnp.maximum(state.a_hi, state.a_lo)
        cchk = delta1 * dalpha
        qchk = delta2 * dalpha
        threshold = jnp.where(np.finfo(dalpha.dtype).bits < 64, 1e-5, 1e-10)
        state = state._replace(failed=state.failed | (dalpha <= threshold))
        a_cubic = _cubicmin(state.a_lo, state.phi_lo, state.dphi_lo, state.a_hi, state.phi_hi, state.a_rec, state.phi_rec)
        use_cubic = (state.j > 0) & (a_cubic > a + cchk) & (a_cubic < b - cchk)
        a_quad = _quadmin(state.a_lo, state.phi_lo, state.dphi_lo, state.a_hi, state.phi_hi)
        use_quad = (~use_cubic) & (a_quad > a + qchk) & (a_quad < b - qchk)
        a_bisect = (state.a_lo + state.a_hi) / 2.0
        use_bisect = (~use_cubic) & (~use_quad)
        a_j = jnp.where(use_cubic, a_cubic, state.a_rec)
        a_j = jnp.where(use_quad, a_quad, a_j)
        a_j = jnp.where(use_bisect, a_bisect, a_j)

        phi_j, dphi_j, g_j = restricted(a_j)
        phi_j = phi_j.astype(state.phi_lo.dtype)
        dphi_j = dphi_j.astype(state.dphi_lo.dtype)
        g_j = g_j.astype(state.g_star.dtype)
        state = state._replace(nfev=state.nfev + 1, ngev=state.ngev + 1)

        hi_to_j = wolfe_one(a_j, phi_j) | (phi_j >= state.phi_lo)
        star_to_j = wolfe_two(dphi_j) & (~hi_to_j)
        hi_to_lo = (dphi_j * (state.a_hi - state.a_lo) >= 0.0) & (~hi_to_j) & (~star_to_j)
        lo_to_j = (~hi_to_j) & (~star_to_j)

        old = state._asdict()
        state = state._replace(
            **binary_replace(hi_to_j, old, dict(a_hi=a_j, phi_hi=phi_j, dphi_hi=dphi_j, a_rec=state.a_hi, phi_rec=state.phi_hi))
        )
        state = state._replace(
            done=star_to_j | state.done,
            **binary_replace(star_to_j, state._asdict(), dict(a_star=a_j, phi_star=phi_j, dphi_star=dphi_j, g_star=g_j)),
        )
        state = state._replace(
            **binary_replace(
                hi_to_lo, state._asdict(),
                dict(a_hi=state.a_lo, phi_hi=state.phi_lo, dphi_hi=state.dphi_lo, a_rec=state.a_hi, phi_rec=state.phi_hi),
            )
        )  # fmt: skip
        state = state._replace(
            **binary_replace(lo_to_j & ~hi_to_lo, state._asdict(), dict(a_rec=state.a_lo, phi_rec=state.phi_lo))
        )
        state = state._replace(
            **binary_replace(lo_to_j, state._asdict(), dict(a_lo=a_j, phi_lo=phi_j, dphi_lo=dphi_j))
        )
        state = state._replace(j=state.j + 1)
        return state._replace(failed=state.failed | (state.j >= 30))

    return while_loop(lambda s: (~s.done) & (~pass_through) & (~s.failed), body, state)


class _LineSearchState(NamedTuple):
    done: Array
    failed: Array
    i: Array
    a_i1: Array
    phi_i1: Array
    dphi_i1: Array
    nfev: Array
    ngev: Array
    a_star: Array
    phi_star: Array
    dphi_star: Array
    g_star: Array


class LineSearchResults(NamedTuple):
    """What ``line_search`` returns: the step ``a_k``, the function value ``f_k`` and gradient
    ``g_k`` there, evaluation counts, and ``status`` (0 passed, 1 zoom failed, 3 maxiter)."""

    failed: Array
    nit: Array
    nfev: Array
    ngev: Array
    k: Array
    a_k: Array
    f_k: Array
    g_k: Array
    status: Array


def line_search(
    f: Callable[[Array], ArrayLike],
    xk: ArrayLike,
    pk: ArrayLike,
    old_fval: ArrayLike | None = None,
    old_old_fval: ArrayLike | None = None,
    gfk: ArrayLike | None = None,
    c1: float = 1e-4,
    c2: float = 0.9,
    maxiter: int = 20,
) -> LineSearchResults:
    """A step along ``pk`` from ``xk`` satisfying the strong Wolfe conditions with constants
    ``c1`` (sufficient decrease) and ``c2`` (curvature), as JAX's ``line_search``."""
    x, p = (ensure_array(v) for v in promote_dtypes_inexact(xk, pk))

    def restricted(t: ArrayLike) -> tuple[Array, Array, Array]:
        t_arr = jnp.array(t, dtype=p.dtype)
        phi, g = value_and_grad(f)(x + t_arr * p)
        return jnp.asarray(phi), jnp.real(dot(g, p)), g

    if old_fval is None or gfk is None:
        phi_0, dphi_0, g_0 = restricted(0)
    else:
        phi_0 = jnp.asarray(old_fval)
        g_0 = jnp.asarray(gfk)
        dphi_0 = jnp.real(dot(g_0, p))
    if old_old_fval is not None:
        candidate = 1.01 * 2 * (phi_0 - old_old_fval) / dphi_0
        start_value = jnp.where(candidate > 1, 1.0, candidate)
    else:
        start_value = _w(1)

    def wolfe_one(a_i: Array, phi_i: Array) -> Array:
        return phi_i > phi_0 + c1 * a_i * dphi_0

    def wolfe_two(dphi_i: Array) -> Array:
        return jnp.abs(dphi_i) <= -c2 * dphi_0

    counted = 1 if (old_fval is None or gfk is None) else 0
    state = _LineSearchState(
        done=jnp.array(False, dtype=bool), failed=jnp.array(False, dtype=bool), i=_w(1),
        a_i1=_w(0.0), phi_i1=phi_0, dphi_i1=dphi_0, nfev=_w(counted), ngev=_w(counted),
        a_star=_w(0.0), phi_star=phi_0, dphi_star=dphi_0, g_star=g_0,
    )  # fmt: skip

    def body(state: _LineSearchState) -> _LineSearchState:
        a_i = jnp.where(state.i == 1, start_value, state.a_i1 * 2.0)
        phi_i, dphi_i, g_i = restricted(a_i)
        state = state._replace(nfev=state.nfev + 1, ngev=state.ngev + 1)
        star_to_zoom1 = wolfe_one(a_i, phi_i) | ((phi_i >= state.phi_i1) & (state.i > 1))
        star_to_i = wolfe_two(dphi_i) & (~star_to_zoom1)
        star_to_zoom2 = (dphi_i >= 0.0) & (~star_to_zoom1) & (~star_to_i)
        zoom1 = _zoom(restricted, wolfe_one, wolfe_two, state.a_i1, state.phi_i1, state.dphi_i1,
                      a_i, phi_i, dphi_i, g_0, ~star_to_zoom1)  # fmt: skip
        state = state._replace(nfev=state.nfev + zoom1.nfev, ngev=state.ngev + zoom1.ngev)
        zoom2 = _zoom(restricted, wolfe_one, wolfe_two, a_i, phi_i, dphi_i,
                      state.a_i1, state.phi_i1, state.dphi_i1, g_0, ~star_to_zoom2)  # fmt: skip
        state = state._replace(nfev=state.nfev + zoom2.nfev, ngev=state.ngev + zoom2.ngev)
        star_keys = ("a_star", "phi_star", "dphi_star", "g_star")
        z1 = zoom1._asdict()
        state = state._replace(
            done=star_to_zoom1 | state.done,
            failed=(star_to_zoom1 & zoom1.failed) | state.failed,
            **binary_replace(star_to_zoom1, state._asdict(), {k: z1[k] for k in star_keys}),
        )
        state = state._replace(
            done=star_to_i | state.done,
            **binary_replace(star_to_i, state._asdict(), dict(a_star=a_i, phi_star=phi_i, dphi_star=dphi_i, g_star=g_i)),
        )
        z2 = zoom2._asdict()
        state = state._replace(
            done=star_to_zoom2 | state.done,
            failed=(star_to_zoom2 & zoom2.failed) | state.failed,
            **binary_replace(star_to_zoom2, state._asdict(), {k: z2[k] for k in star_keys}),
        )
        return state._replace(i=state.i + 1, a_i1=a_i, phi_i1=phi_i, dphi_i1=dphi_i)

    state = while_loop(lambda s: (~s.done) & (s.i <= maxiter) & (~s.failed), body, state)
    status = jnp.where(state.failed, jnp.array(1), jnp.where(state.i > maxiter, jnp.array(3), jnp.array(0)))
    alpha_k = jnp.asarray(state.a_star)
    alpha_k = jnp.where(
        (np.finfo(alpha_k.dtype).bits != 64) & (jnp.abs(alpha_k) < 1e-8), jnp.sign(alpha_k) * 1e-8, alpha_k
    )
    return LineSearchResults(
        failed=state.failed | (~state.done), nit=state.i - 1, nfev=state.nfev, ngev=state.ngev, k=state.i,
        a_k=alpha_k, f_k=state.phi_star, g_k=state.g_star, status=status,
    )  # fmt: skip
