"""Runge-Kutta integrators, root finders and Krylov solvers, in the style of diffrax and jax.scipy.

Vector fields are ``f(t, y, args) -> dy/dt`` on flat arrays; solvers are pure functions that
compose with ``jit``, ``vmap`` and ``grad``.
"""

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import NamedTuple, Optional, assert_type

import numpy as np

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core.typing import Array, ArrayLike

VectorField = Callable[[Array, Array, Array], Array]


# --------------------------------------------------------------------------------------------
# Butcher tableaux and explicit Runge-Kutta steps
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ButcherTableau:
    """Coefficients of an explicit Runge-Kutta method; ``b_err`` is ``b - b_hat`` if embedded."""

    c: tuple[float, ...]
    a: tuple[tuple[float, ...], ...]
    b: tuple[float, ...]
    order: int
    b_err: Optional[tuple[float, ...]] = None

    @property
    def num_stages(self) -> int:
        return len(self.c)

    @property
    def fsal(self) -> bool:
        return self.b_err is not None and self.a[-1] == self.b[:-1]


EULER = ButcherTableau(c=(0.0,), a=((),), b=(1.0,), order=1)
MIDPOINT = ButcherTableau(c=(0.0, 0.5), a=((), (0.5,)), b=(0.0, 1.0), order=2)
RK4 = ButcherTableau(
    c=(0.0, 0.5, 0.5, 1.0),
    a=((), (0.5,), (0.0, 0.5), (0.0, 0.0, 1.0)),
    b=(1 / 6, 1 / 3, 1 / 3, 1 / 6),
    order=4,
)

_DOPRI5_B = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
_DOPRI5_B_HAT = (5179 / 57600, 0.0, 7571 / 16695, 393 / 640, -92097 / 339200, 187 / 2100, 1 / 40)
DOPRI5 = ButcherTableau(
    c=(0.0, 1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0),
    a=(
        (),
        (1 / 5,),
        (3 / 40, 9 / 40),
        (44 / 45, -56 / 15, 32 / 9),
        (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
        (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
        (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
    ),
    b=_DOPRI5_B,
    order=5,
    b_err=tuple(float(x) for x in np.subtract(_DOPRI5_B, _DOPRI5_B_HAT)),
)


def _rk_stages(tableau: ButcherTableau, f: VectorField, t: Array, y: Array, dt: Array, args: Array) -> list[Array]:
    ks: list[Array] = []
    for ci, ai in zip(tableau.c, tableau.a):
        yi = y
        for aij, kj in zip(ai, ks):
            if aij != 0.0:
                yi = yi + dt * aij * kj
        ks.append(f(t + ci * dt, yi, args))
    return ks


def _combine(weights: tuple[float, ...], ks: list[Array]) -> Array:
    return sum((w * k for w, k in zip(weights, ks) if w != 0.0), start=jnp.zeros_like(ks[0]))


def rk_step(tableau: ButcherTableau, f: VectorField, t: Array, y: Array, dt: Array, args: Array) -> tuple[Array, Optional[Array]]:
    """One step of ``tableau``; returns ``(y1, error_estimate)`` (``None`` if not embedded)."""
    ks = _rk_stages(tableau, f, t, y, dt, args)
    y1 = y + dt * _combine(tableau.b, ks)
    if tableau.b_err is None:
        return y1, None
    return y1, dt * _combine(tableau.b_err, ks)


def euler_step(f: VectorField, t: Array, y: Array, dt: Array, args: Array) -> Array:
    return y + dt * f(t, y, args)


def rk4_step(f: VectorField, t: Array, y: Array, dt: Array, args: Array) -> Array:
    y1, _ = rk_step(RK4, f, t, y, dt, args)
    return y1


def dopri5_step(f: VectorField, t: Array, y: Array, dt: Array, args: Array) -> tuple[Array, Array]:
    y1, err = rk_step(DOPRI5, f, t, y, dt, args)
    assert err is not None
    return y1, err


@jax.custom_jvp
def rms_norm(x: Array) -> Array:
    """Root mean square, with a zero (not NaN) derivative at the origin."""
    return jnp.sqrt(jnp.mean(x**2))


@rms_norm.defjvp
def _rms_norm_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,) = primals
    (x_dot,) = tangents
    out = rms_norm(x)
    safe_out = jnp.where(out == 0, 1.0, out)
    t_out = jnp.where(out == 0, 0.0, jnp.mean(x * x_dot) / safe_out)
    return out, t_out


def scaled_error_norm(err: Array, y0: Array, y1: Array, rtol: ArrayLike, atol: ArrayLike) -> Array:
    scale = atol + rtol * jnp.maximum(jnp.abs(y0), jnp.abs(y1))
    return rms_norm(err / scale)


# --------------------------------------------------------------------------------------------
# Fixed-step integration
# --------------------------------------------------------------------------------------------


@partial(jax.jit, static_argnames=("f", "num_steps", "method"))
def integrate_fixed(
    f: VectorField, y0: Array, t0: ArrayLike, t1: ArrayLike, args: Array, num_steps: int = 100, method: str = "rk4"
) -> Array:
    """Integrates from ``t0`` to ``t1`` with ``num_steps`` equal steps of a fixed-step method."""
    start = jnp.asarray(t0)
    dt = (jnp.asarray(t1) - start) / num_steps
    step = {"euler": euler_step, "rk4": rk4_step}[method]

    def body(i: Array, y: Array) -> Array:
        return step(f, start + i * dt, y, dt, args)

    return lax.fori_loop(0, num_steps, body, y0)


def integrate_switch(f: VectorField, y0: Array, ts: Array, args: Array, method: ArrayLike) -> Array:
    """Like ``integrate_fixed`` on a time grid, with the method chosen by a traced index."""

    def step(y: Array, t_pair: Array) -> tuple[Array, Array]:
        t, t_next = t_pair[0], t_pair[1]
        dt = t_next - t

        def euler(y_: Array) -> Array:
            return euler_step(f, t, y_, dt, args)

        def midpoint(y_: Array) -> Array:
            y1, _ = rk_step(MIDPOINT, f, t, y_, dt, args)
            return y1

        def rk4(y_: Array) -> Array:
            return rk4_step(f, t, y_, dt, args)

        y_next = lax.switch(method, [euler, midpoint, rk4], y)
        return y_next, y_next

    pairs = jnp.stack([ts[:-1], ts[1:]], axis=-1)
    _, ys = lax.scan(step, y0, pairs)
    return jnp.concatenate([y0[None], ys], axis=0)


# --------------------------------------------------------------------------------------------
# Adaptive integration (Dormand-Prince 5(4) with a PI-free step size controller)
# --------------------------------------------------------------------------------------------


class SolverState(NamedTuple):
    t: Array
    y: Array
    dt: Array
    num_accepted: Array
    num_rejected: Array


class Solution(NamedTuple):
    ts: Array
    ys: Array
    num_steps: Array
    num_rejected: Array


@dataclasses.dataclass(frozen=True)
class StepSizeController:
    rtol: float = 1e-6
    atol: float = 1e-8
    safety: float = 0.9
    factor_min: float = 0.2
    factor_max: float = 10.0
    dt_min: float = 0.0

    def adapt(self, dt: Array, err_norm: Array, order: int) -> tuple[Array, Array]:
        """Returns ``(accept, next_dt)`` for a step with scaled error ``err_norm``."""
        accept = err_norm <= 1.0
        safe_err = jnp.where(err_norm == 0.0, 1.0, err_norm)
        factor = self.safety * safe_err ** (-1.0 / order)
        factor = jnp.where(err_norm == 0.0, self.factor_max, factor)
        factor = jnp.clip(factor, self.factor_min, self.factor_max)
        factor = jnp.where(accept, factor, jnp.minimum(factor, 1.0))
        return accept, jnp.maximum(dt * factor, self.dt_min)


def initial_step_size(f: VectorField, t0: Array, y0: Array, args: Array, order: int, rtol: float, atol: float) -> Array:
    """Hairer-Norsett-Wanner heuristic for the first step."""
    f0 = f(t0, y0, args)
    scale = atol + jnp.abs(y0) * rtol
    d0 = rms_norm(y0 / scale)
    d1 = rms_norm(f0 / scale)
    h0 = jnp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    y1 = y0 + h0 * f0
    f1 = f(t0 + h0, y1, args)
    d2 = rms_norm((f1 - f0) / scale) / h0
    h1 = jnp.where(
        jnp.maximum(d1, d2) <= 1e-15,
        jnp.maximum(1e-6, h0 * 1e-3),
        (0.01 / jnp.maximum(d1, d2)) ** (1.0 / (order + 1.0)),
    )
    return jnp.minimum(100.0 * h0, h1)


def _adaptive_solve(
    f: VectorField,
    y0: Array,
    t0: Array,
    t1: Array,
    args: Array,
    dt0: Array,
    controller: StepSizeController,
    max_steps: int,
) -> SolverState:
    def cond_fun(state: SolverState) -> Array:
        return (state.t < t1) & (state.num_accepted + state.num_rejected < max_steps)

    def body_fun(state: SolverState) -> SolverState:
        dt = jnp.minimum(state.dt, t1 - state.t)
        y1, err = dopri5_step(f, state.t, state.y, dt, args)
        err_norm = scaled_error_norm(err, state.y, y1, controller.rtol, controller.atol)
        accept, next_dt = controller.adapt(dt, err_norm, DOPRI5.order)
        proposal = SolverState(
            t=state.t + dt,
            y=y1,
            dt=next_dt,
            num_accepted=state.num_accepted + 1,
            num_rejected=state.num_rejected,
        )
        rejected = state._replace(dt=next_dt, num_rejected=state.num_rejected + 1)
        def select(a: Array, r: Array) -> Array:
            return jnp.where(accept, a, r)

        selected: SolverState = jax.tree_util.tree_map(select, proposal, rejected)
        return selected

    init = SolverState(t0, y0, dt0, jnp.array(0), jnp.array(0))
    final = lax.while_loop(cond_fun, body_fun, init)
    assert_type(final, SolverState)
    return final


@partial(jax.jit, static_argnames=("f", "max_steps", "controller"))
def odeint(
    f: VectorField,
    y0: Array,
    ts: Array,
    args: Array,
    *,
    controller: StepSizeController = StepSizeController(),
    max_steps: int = 4096,
) -> Solution:
    """Solves ``dy/dt = f(t, y, args)`` and returns the solution at each time in ``ts``."""
    dt0 = initial_step_size(f, ts[0], y0, args, DOPRI5.order, controller.rtol, controller.atol)

    def interval(carry: tuple[Array, Array, Array, Array], t_pair: Array) -> tuple[tuple[Array, Array, Array, Array], Array]:
        y, dt, n_acc, n_rej = carry
        state = _adaptive_solve(f, y, t_pair[0], t_pair[1], args, dt, controller, max_steps)
        carry = (state.y, state.dt, n_acc + state.num_accepted, n_rej + state.num_rejected)
        return carry, state.y

    pairs = jnp.stack([ts[:-1], ts[1:]], axis=-1)
    init = (y0, dt0, jnp.array(0), jnp.array(0))
    (_, _, n_acc, n_rej), ys = lax.scan(interval, init, pairs)
    return Solution(ts=ts, ys=jnp.concatenate([y0[None], ys]), num_steps=n_acc, num_rejected=n_rej)


# --------------------------------------------------------------------------------------------
# Nonlinear solvers
# --------------------------------------------------------------------------------------------


class NewtonState(NamedTuple):
    x: Array
    residual_norm: Array
    iteration: Array
    converged: Array


def newton_solve(fn: Callable[[Array], Array], x0: Array, *, tol: float = 1e-6, maxiter: int = 50, damping: float = 1.0) -> NewtonState:
    """Damped Newton iteration for ``fn(x) = 0``, with a gradient step where the Jacobian is singular."""

    def cond_fun(state: NewtonState) -> Array:
        return ~state.converged & (state.iteration < maxiter)

    def body_fun(state: NewtonState) -> NewtonState:
        r = fn(state.x)
        jac = jax.jacfwd(fn)(state.x)
        assert_type(jac, Array)
        newton_dx = jnp.linalg.solve(jac, -r)
        dx = lax.cond(
            jnp.all(jnp.isfinite(newton_dx)),
            lambda d: d,
            lambda d: -(jac.T @ r),
            newton_dx,
        )
        x = state.x + damping * dx
        res = jnp.linalg.norm(fn(x))
        return NewtonState(x, res, state.iteration + 1, res < tol)

    r0 = jnp.linalg.norm(fn(x0))
    return lax.while_loop(cond_fun, body_fun, NewtonState(x0, r0, jnp.array(0), r0 < tol))


def fixed_point(fn: Callable[[Array], Array], x0: Array, *, tol: float = 1e-6, maxiter: int = 200) -> tuple[Array, Array]:
    """Iterates ``x <- fn(x)`` until the update is below ``tol``; returns ``(x, iterations)``."""

    def cond_fun(carry: tuple[Array, Array, Array]) -> Array:
        _, delta, k = carry
        return (delta > tol) & (k < maxiter)

    def body_fun(carry: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
        x, _, k = carry
        x_new = fn(x)
        return x_new, jnp.max(jnp.abs(x_new - x)), k + 1

    x, _, k = lax.while_loop(cond_fun, body_fun, (x0, jnp.array(jnp.inf), jnp.array(0)))
    return x, k


def _root(f: Callable[[Array, Array], Array], x0: Array, theta: Array) -> Array:
    def g(x: Array) -> Array:
        return f(x, theta)

    return newton_solve(g, lax.stop_gradient(x0), tol=1e-7).x


root = jax.custom_vjp(_root, nondiff_argnums=(0,))
"""``x*`` with ``f(x*, theta) = 0``, differentiable in ``theta`` by the implicit function theorem."""


def _root_fwd(f: Callable[[Array, Array], Array], x0: Array, theta: Array) -> tuple[Array, tuple[Array, Array]]:
    x_star = root(f, x0, theta)
    return x_star, (x_star, theta)


def _root_bwd(f: Callable[[Array, Array], Array], res: tuple[Array, Array], x_bar: Array) -> tuple[Array, Array]:
    x_star, theta = res
    jac_x = jax.jacfwd(f, argnums=0)(x_star, theta)
    u = jnp.linalg.solve(jac_x.T, -x_bar)

    def f_theta(t: Array) -> Array:
        return f(x_star, t)

    _, pullback = jax.vjp(f_theta, theta)
    (theta_bar,) = pullback(u)
    return jnp.zeros_like(x_star), theta_bar


root.defvjp(_root_fwd, _root_bwd)


# --------------------------------------------------------------------------------------------
# Conjugate gradient (jax.scipy.sparse.linalg.cg)
# --------------------------------------------------------------------------------------------


class CGState(NamedTuple):
    x: Array
    r: Array
    p: Array
    gamma: Array
    k: Array


def _vdot_real(x: Array, y: Array) -> Array:
    return jnp.vdot(x, y).real


def _identity(x: Array) -> Array:
    return x


def cg(
    A: Callable[[Array], Array],
    b: Array,
    x0: Optional[Array] = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: Optional[int] = None,
    M: Optional[Callable[[Array], Array]] = None,
) -> tuple[Array, CGState]:
    """Solves ``A x = b`` for a symmetric positive definite ``A`` given as a matrix-free operator."""
    if maxiter is None:
        maxiter = 10 * b.size
    precond = _identity if M is None else M
    x_init = jnp.zeros_like(b) if x0 is None else x0

    b_norm2 = _vdot_real(b, b)
    atol2 = jnp.maximum(jnp.square(tol) * b_norm2, jnp.square(atol))

    def cond_fun(state: CGState) -> Array:
        rs = _vdot_real(state.r, state.r)
        return (rs > atol2) & (state.k < maxiter)

    def body_fun(state: CGState) -> CGState:
        ap = A(state.p)
        alpha = state.gamma / _vdot_real(state.p, ap)
        x = state.x + alpha * state.p
        r = state.r - alpha * ap
        z = precond(r)
        gamma = _vdot_real(r, z)
        beta = gamma / state.gamma
        p = z + beta * state.p
        return CGState(x, r, p, gamma, state.k + 1)

    r0 = b - A(x_init)
    z0 = precond(r0)
    init = CGState(x_init, r0, z0, _vdot_real(r0, z0), jnp.array(0))
    final = lax.while_loop(cond_fun, body_fun, init)
    return final.x, final


def jacobi_preconditioner(diag: Array) -> Callable[[Array], Array]:
    inv = jnp.where(diag != 0, 1.0 / diag, 1.0)

    def apply(x: Array) -> Array:
        return inv * x

    return apply


def implicit_euler_step(f: VectorField, t: Array, y: Array, dt: Array, args: Array, *, newton_iters: int = 8) -> Array:
    """Backward Euler: solves ``z - y - dt f(t + dt, z) = 0`` with Newton, each linear solve by CG."""
    t1 = t + dt

    def residual(z: Array) -> Array:
        return z - y - dt * f(t1, z, args)

    def newton_iter(i: Array, z: Array) -> Array:
        r = residual(z)
        _, jvp_fn = jax.linearize(residual, z)

        def normal_op(v: Array) -> Array:
            _, vjp_fn = jax.vjp(residual, z)
            (out,) = vjp_fn(jvp_fn(v))
            return out

        _, vjp_fn = jax.vjp(residual, z)
        (rhs,) = vjp_fn(-r)
        dz, _ = cg(normal_op, rhs, tol=1e-8, maxiter=4 * z.size)
        return z + dz

    return lax.fori_loop(0, newton_iters, newton_iter, y + dt * f(t, y, args))


# --------------------------------------------------------------------------------------------
# Example systems and a demo
# --------------------------------------------------------------------------------------------


def lotka_volterra(t: Array, y: Array, args: Array) -> Array:
    alpha, beta, gamma, delta = args[0], args[1], args[2], args[3]
    prey, predator = y[0], y[1]
    return jnp.stack([alpha * prey - beta * prey * predator, delta * prey * predator - gamma * predator])


def decay(t: Array, y: Array, args: Array) -> Array:
    return -args * y


def stiff_linear(t: Array, y: Array, args: Array) -> Array:
    matrix = jnp.array([[-args[0], 1.0], [0.0, -args[1]]])
    return matrix @ y


def _sqrt_residual(x: Array, theta: Array) -> Array:
    return x**2 - theta


def _kepler_residual(e_anom: Array, params: Array) -> Array:
    mean_anom, ecc = params[0], params[1]
    return e_anom - ecc * jnp.sin(e_anom) - mean_anom


def final_prey(args: Array, y0: Array) -> Array:
    sol: Array = integrate_fixed(lotka_volterra, y0, 0.0, 1.0, args, num_steps=50)
    return sol[0]


def decay_at_one(rate: Array) -> Array:
    sol = odeint(decay, jnp.ones(3), jnp.array([0.0, 0.5, 1.0]), rate)
    return jnp.sum(sol.ys[-1])


if __name__ == "__main__":
    y0 = jnp.array([1.0, 0.5])
    lv_args = jnp.array([1.5, 1.0, 3.0, 1.0])
    t0, dt = jnp.array(0.0), jnp.array(0.1)

    y_rk4 = rk4_step(lotka_volterra, t0, y0, dt, lv_args)
    y_dp, err = dopri5_step(lotka_volterra, t0, y0, dt, lv_args)
    assert_type(y_rk4, Array)
    assert_type(rk_step(EULER, lotka_volterra, t0, y0, dt, lv_args), tuple[Array, Optional[Array]])
    assert float(jnp.max(jnp.abs(y_rk4 - y_dp))) < 1e-4 and float(jnp.max(jnp.abs(err))) < 1e-4

    y_fixed: Array = integrate_fixed(lotka_volterra, y0, 0.0, 1.0, lv_args, num_steps=20)
    jitted_rk4 = jax.jit(rk4_step, static_argnames="f")
    assert_type(jitted_rk4(lotka_volterra, t0, y0, dt, lv_args), Array)
    ts = jnp.linspace(0.0, 1.0, 6)
    sol: Solution = odeint(lotka_volterra, y0, ts, lv_args)
    assert sol.ys.shape == (6, 2)
    assert float(jnp.max(jnp.abs(sol.ys[-1] - y_fixed))) < 1e-3, (sol.ys[-1], y_fixed)

    grid_sol = integrate_switch(lotka_volterra, y0, ts, lv_args, 2)
    euler_sol = integrate_switch(lotka_volterra, y0, ts, lv_args, jnp.array(0))
    assert grid_sol.shape == euler_sol.shape == (6, 2)

    exact = jnp.exp(-jnp.array(2.0))
    decay_sol = odeint(decay, jnp.ones(3), jnp.array([0.0, 1.0]), jnp.array(2.0))
    assert float(jnp.max(jnp.abs(decay_sol.ys[-1] - exact))) < 1e-5

    # vmap over initial conditions and gradients through the solvers
    y0s = jnp.array([[1.0, 0.5], [0.8, 0.4], [1.2, 0.6]])
    batched = jax.vmap(final_prey, in_axes=(None, 0))(lv_args, y0s)
    assert_type(batched, Array)
    assert batched.shape == (3,)
    d_args = jax.grad(final_prey)(lv_args, y0)
    assert_type(d_args, Array)
    assert d_args.shape == (4,)
    d_rate = jax.jacfwd(decay_at_one)(jnp.array(1.0))  # while_loop: forward mode only
    assert_type(d_rate, Array)
    assert abs(float(d_rate) + 3 * float(jnp.exp(-1.0))) < 1e-3, d_rate

    # Newton, fixed point, implicit differentiation
    newton = newton_solve(lambda x: _sqrt_residual(x, jnp.array([2.0, 9.0])), jnp.ones(2))
    assert_type(newton, NewtonState)
    assert bool(newton.converged) and float(jnp.max(jnp.abs(newton.x - jnp.array([2.0**0.5, 3.0])))) < 1e-5
    cos_fp, iters = fixed_point(jnp.cos, jnp.array(1.0))
    assert_type(cos_fp, Array)
    assert abs(float(cos_fp) - 0.739085) < 1e-5 and int(iters) > 5

    theta = jnp.array([4.0, 16.0])
    x_star = root(_sqrt_residual, jnp.ones(2), theta)
    assert_type(x_star, Array)

    def sum_of_roots(th: Array) -> Array:
        return jnp.sum(root(_sqrt_residual, jnp.ones(2), th))

    d_theta = jax.grad(sum_of_roots)(theta)
    assert_type(d_theta, Array)
    assert float(jnp.max(jnp.abs(d_theta - 0.5 / jnp.sqrt(theta)))) < 1e-4, d_theta
    kepler = root(_kepler_residual, jnp.array([1.0]), jnp.array([1.0, 0.3]))
    assert abs(float(_kepler_residual(kepler, jnp.array([1.0, 0.3]))[0])) < 1e-5

    # conjugate gradient, with and without a preconditioner
    key_mat = jnp.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    rhs = jnp.array([1.0, 2.0, 3.0])

    def matvec(v: Array) -> Array:
        return key_mat @ v

    x_cg, info = cg(matvec, rhs, tol=1e-6)
    assert_type(info, CGState)
    x_pcg, _ = cg(matvec, rhs, M=jacobi_preconditioner(jnp.diag(key_mat)), maxiter=10)
    x_ref = jnp.linalg.solve(key_mat, rhs)
    assert float(jnp.max(jnp.abs(x_cg - x_ref))) < 1e-4 and float(jnp.max(jnp.abs(x_pcg - x_ref))) < 1e-4

    @jax.jit
    def jit_cg(b: Array) -> Array:
        return cg(matvec, b)[0]

    assert float(jnp.max(jnp.abs(jit_cg(rhs) - x_ref))) < 1e-4

    # implicit Euler on a stiff system stays bounded with a large step
    stiff_args = jnp.array([50.0, 2.0])
    y_imp = implicit_euler_step(stiff_linear, t0, y0, jnp.array(0.5), stiff_args)
    assert_type(y_imp, Array)
    assert float(jnp.max(jnp.abs(y_imp))) < 1.0, y_imp
    print("ode_solvers: ok", sol.num_steps, sol.ys[-1])
