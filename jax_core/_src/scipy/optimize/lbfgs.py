"""The limited-memory BFGS method of JAX's ``minimize`` (``method=
'l-bfgs-experimental-do-not-rely-on-this'``; Nocedal & Wright, Algorithms 7.4 and 7.5): the last
``maxcor`` steps and gradient changes stand in for the inverse Hessian (two-loop recursion)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

import jax_core.numpy as jnp
from jax_core._src.lax.control_flow.loops import fori_loop, while_loop
from jax_core._src.numpy.util import ensure_array
from jax_core._src.scipy.optimize.line_search import dot, line_search
from jax_core._src.transforms.ad_signatures import value_and_grad
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


class LBFGSResults(NamedTuple):
    """The state of an L-BFGS minimization (``status``: 0 converged, 1 max iterations, 2 max
    function evaluations, 3 max gradient evaluations, 4 insufficient progress, 5 line search
    failed)."""

    converged: Array
    failed: Array
    k: Array
    nfev: Array
    ngev: Array
    x_k: Array
    f_k: Array
    g_k: Array
    s_history: Array
    y_history: Array
    rho_history: Array
    gamma: Array
    status: Array
    ls_status: Array


def minimize_lbfgs(
    fun: Callable[[Array], ArrayLike],
    x0: Array,
    maxiter: float | None = None,
    norm: float = np.inf,
    maxcor: int = 10,
    ftol: float = 2.220446049250313e-09,
    gtol: float = 1e-05,
    maxfun: float | None = None,
    maxgrad: float | None = None,
    maxls: int = 20,
) -> LBFGSResults:
    """Minimizes ``fun`` from ``x0`` (1-d, real or complex) by L-BFGS with ``maxcor`` corrections."""
    d = len(x0)
    dtype = x0.dtype
    if maxiter is None and maxfun is None and maxgrad is None:
        maxiter = d * 200
    max_iter: float = np.inf if maxiter is None else maxiter
    max_fun: float = np.inf if maxfun is None else maxfun
    max_grad: float = np.inf if maxgrad is None else maxgrad
    f_0, g_0 = value_and_grad(fun)(x0)
    initial = LBFGSResults(
        converged=jnp.array(False, dtype=bool), failed=jnp.array(False, dtype=bool), k=ensure_array(0),
        nfev=ensure_array(1), ngev=ensure_array(1), x_k=x0, f_k=jnp.asarray(f_0), g_k=g_0,
        s_history=jnp.zeros((maxcor, d), dtype=dtype), y_history=jnp.zeros((maxcor, d), dtype=dtype),
        rho_history=jnp.zeros((maxcor,), dtype=dtype), gamma=ensure_array(1.0),
        status=ensure_array(0), ls_status=ensure_array(0),
    )  # fmt: skip

    def cond_fun(state: LBFGSResults) -> Array:
        return (~state.converged) & (~state.failed)

    def body_fun(state: LBFGSResults) -> LBFGSResults:
        p_k = _two_loop_recursion(state)
        ls = line_search(f=fun, xk=state.x_k, pk=p_k, old_fval=state.f_k, gfk=state.g_k, maxiter=maxls)
        s_k = jnp.asarray(ls.a_k).astype(p_k.dtype) * p_k
        x_kp1 = state.x_k + s_k
        f_kp1 = ls.f_k
        g_kp1 = ls.g_k
        y_k = g_kp1 - state.g_k
        rho_k_inv = jnp.real(dot(y_k, s_k))
        rho_k = jnp.reciprocal(rho_k_inv).astype(y_k.dtype)
        gamma = rho_k_inv / jnp.real(dot(jnp.conj(y_k), y_k))
        status = jnp.array(0)
        status = jnp.where(state.f_k - f_kp1 < ftol, 4, status)
        status = jnp.where(state.ngev >= max_grad, 3, status)
        status = jnp.where(state.nfev >= max_fun, 2, status)
        status = jnp.where(state.k >= max_iter, 1, status)
        status = jnp.where(ls.failed, 5, status)
        converged = jnp.linalg.norm(g_kp1, ord=norm) < gtol
        return state._replace(
            converged=converged, failed=(status > 0) & (~converged), k=state.k + 1,
            nfev=state.nfev + ls.nfev, ngev=state.ngev + ls.ngev,
            x_k=x_kp1.astype(state.x_k.dtype), f_k=f_kp1.astype(state.f_k.dtype), g_k=g_kp1.astype(state.g_k.dtype),
            s_history=_push(state.s_history, s_k), y_history=_push(state.y_history, y_k),
            rho_history=_push(state.rho_history, rho_k), gamma=gamma.astype(state.g_k.dtype),
            status=jnp.where(converged, 0, status), ls_status=ls.status,
        )  # fmt: skip

    return while_loop(cond_fun, body_fun, initial)


def _two_loop_recursion(state: LBFGSResults) -> Array:
    dtype = state.rho_history.dtype
    his_size = len(state.rho_history)
    curr_size = jnp.where(state.k < his_size, state.k, his_size)
    q0 = -jnp.conj(state.g_k)
    a_his0 = jnp.zeros_like(state.rho_history)

    def first(j: Array, carry: tuple[Array, Array]) -> tuple[Array, Array]:
        i = his_size - 1 - j
        q, a_his = carry
        a_i = state.rho_history[i] * dot(jnp.conj(state.s_history[i]), q).real.astype(dtype)
        return q - a_i * jnp.conj(state.y_history[i]), a_his.at[i].set(a_i)

    q, a_his = fori_loop(0, curr_size, first, (q0, a_his0))
    q = state.gamma * q

    def second(j: Array, q: Array) -> Array:
        i = his_size - curr_size + j
        b_i = state.rho_history[i] * dot(state.y_history[i], q).real.astype(dtype)
        return q + (a_his[i] - b_i) * state.s_history[i]

    return fori_loop(0, curr_size, second, q)


def _push(history: Array, new: Array) -> Array:
    """``history`` rolled back one row, ``new`` as its last row."""
    return jnp.roll(history, -1, axis=0).at[-1].set(new)
