"""``jax_core.scipy.sparse.linalg``: the Krylov solvers ``cg``, ``bicgstab`` and ``gmres``, on
pytrees of arrays, with ``A`` (and the preconditioner ``M``) a matrix or a linear function.

As in JAX, each solve is a ``lax.custom_linear_solve``: derivatives are taken implicitly (the
solver is applied again to the tangent or cotangent system) rather than through the iterations,
so ``grad``, ``jvp`` and ``vmap`` work and cost one more solve."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, TypeAlias

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax.control_flow.loops import fori_loop, while_loop
from jax_core._src.lax.control_flow.solves import custom_linear_solve
from jax_core._src.lax.elementwise import rsqrt, to_dtype
from jax_core._src.lax.linalg.dot import Precision
from jax_core._src.numpy.util import ensure_array
from jax_core._src.runtime.transfer import device_put
from jax_core._src.scipy.linalg import solve, solve_triangular
from jax_core._src.tree.registration import Partial
from jax_core._src.tree.tree_util import tree_leaves, tree_map, tree_reduce, tree_structure
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["bicgstab", "cg", "gmres"]

PyTree: TypeAlias = Any
"""A pytree of arrays (``b``, ``x0`` and the solution share one structure)."""
Operator: TypeAlias = Callable[[PyTree], PyTree]
"""A linear function on pytrees."""
LinearOperator: TypeAlias = ArrayLike | Operator
"""A square matrix, or a function computing the matrix-vector product on the pytree."""
Solver: TypeAlias = Callable[..., PyTree]
_CgState: TypeAlias = tuple[PyTree, PyTree, Array, PyTree, Array]
_BicgState: TypeAlias = tuple[PyTree, PyTree, PyTree, Array, Array, Array, PyTree, PyTree, Array]
_GsCarry: TypeAlias = tuple[Array, PyTree, Array, Array]
_GsInner: TypeAlias = tuple[Array, Array, PyTree, Array]
_IncCarry: TypeAlias = tuple[Array, Array, PyTree, Array, Array, Array]
_BatchCarry: TypeAlias = tuple[PyTree, Array, Array, Array]
_SolveCarry: TypeAlias = tuple[PyTree, Array, PyTree, Array]


def _dot(a: ArrayLike, b: ArrayLike) -> Array:
    return jnp.dot(a, b, precision=Precision.HIGHEST)


def _vdot(a: ArrayLike, b: ArrayLike) -> Array:
    return jnp.vdot(a, b, precision=Precision.HIGHEST)


def _vdot_real_part(x: Array, y: Array) -> Array:
    """``vdot(x, y).real`` without computing the imaginary part."""
    result = _vdot(x.real, y.real)
    if jnp.iscomplexobj(x) or jnp.iscomplexobj(y):
        result = result + _vdot(x.imag, y.imag)
    return result


def _vdot_real_tree(x: PyTree, y: PyTree) -> Array:
    return _sum(tree_leaves(tree_map(_vdot_real_part, x, y)))


def _vdot_tree(x: PyTree, y: PyTree) -> Array:
    return _sum(tree_leaves(tree_map(_vdot, x, y)))


def _sum(xs: Sequence[Array]) -> Array:
    """Python's ``sum`` (starting from the integer 0, as JAX's)."""
    total: Any = 0
    for x in xs:
        total = total + x
    return jnp.asarray(total)


def _norm(x: PyTree) -> Array:
    xs = tree_leaves(x)
    return jnp.sqrt(_sum([_vdot_real_part(a, a) for a in xs]))


def _mul(scalar: ArrayLike, tree: PyTree) -> PyTree:
    return tree_map(partial(operator.mul, scalar), tree)


def _add(x: PyTree, y: PyTree) -> PyTree:
    return tree_map(operator.add, x, y)


def _sub(x: PyTree, y: PyTree) -> PyTree:
    return tree_map(operator.sub, x, y)


def _identity_fn(x: PyTree) -> PyTree:
    return x


_identity: Operator = Partial(_identity_fn)


def _weak_int(v: int) -> Array:
    """A Python int as the weakly typed array ``lax.while_loop`` makes of it."""
    return ensure_array(v)


def _weak_bool(v: bool) -> Array:
    return ensure_array(v)


def _lattice(leaves: Sequence[ArrayLike]) -> tuple[np.dtype[Any], bool]:
    """JAX's ``lattice_result_type`` of values: their common dtype and whether it is weak."""
    return dtypes.lattice_result_type(*((get_aval(x).dtype, dtypes.is_weakly_typed(x)) for x in leaves))


def _normalize_matvec(f: LinearOperator) -> Operator:
    """``f`` as a function: a callable itself, or the product with a square matrix."""
    if callable(f):
        return f
    if isinstance(f, (np.ndarray, Array)):
        if f.ndim != 2 or f.shape[0] != f.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {f.shape}")
        return partial(_dot, f)
    obj: Any = f  # anything with ``@`` and a square ``shape``
    if hasattr(obj, "__matmul__"):
        if hasattr(obj, "shape") and len(obj.shape) != 2 or obj.shape[0] != obj.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {obj.shape}")

        def matmul(x: PyTree) -> PyTree:
            return obj @ x

        return matmul
    raise TypeError(f"linear operator must be either a function or ndarray: {f}")


def _cg_solve(
    A: Operator, b: PyTree, x0: PyTree, *, maxiter: int, tol: float = 1e-5,
    atol: float = 0.0, M: Operator = _identity,
) -> PyTree:  # fmt: skip
    """Conjugate gradients (Saad, Algorithm 9.1), stopping when ``|r| <= max(tol |b|, atol)``."""
    bs = _vdot_real_tree(b, b)
    atol2 = jnp.maximum(jnp.square(tol) * bs, jnp.square(atol))
    r0 = _sub(b, A(x0))
    p0 = z0 = M(r0)
    dtype = dtypes.result_type(*tree_leaves(p0))
    gamma0 = _vdot_real_tree(r0, z0).astype(dtype)

    def cond_fun(value: _CgState) -> Array:
        _, r, gamma, _, k = value
        rs = gamma.real if M is _identity else _vdot_real_tree(r, r)
        return (rs > atol2) & (k < maxiter)

    def body_fun(value: _CgState) -> _CgState:
        x, r, gamma, p, k = value
        ap = A(p)
        alpha = gamma / _vdot_real_tree(p, ap).astype(dtype)
        x_ = _add(x, _mul(alpha, p))
        r_ = _sub(r, _mul(alpha, ap))
        z_ = M(r_)
        gamma_ = _vdot_real_tree(r_, z_).astype(dtype)
        beta_ = gamma_ / gamma
        p_ = _add(z_, _mul(beta_, p))
        return x_, r_, gamma_, p_, k + 1

    init = (x0, r0, gamma0, p0, _weak_int(0))
    return while_loop(cond_fun, body_fun, init)[0]


def _bicgstab_solve(
    A: Operator, b: PyTree, x0: PyTree, *, maxiter: int, tol: float = 1e-5,
    atol: float = 0.0, M: Operator = _identity,
) -> PyTree:  # fmt: skip
    """BiCGSTAB (van der Vorst), stopping at ``|r| <= max(tol |b|, atol)`` or on breakdown."""
    bs = _vdot_real_tree(b, b)
    atol2 = jnp.maximum(jnp.square(tol) * bs, jnp.square(atol))

    def cond_fun(value: _BicgState) -> Array:
        r, k = value[1], value[-1]
        rs = _vdot_real_tree(r, r)
        return (rs > atol2) & (k < maxiter) & (k >= 0)

    def body_fun(value: _BicgState) -> _BicgState:
        x, r, rhat, alpha, omega, rho, p, q, k = value
        rho_ = _vdot_tree(rhat, r)
        beta = rho_ / rho * alpha / omega
        p_ = _add(r, _mul(beta, _sub(p, _mul(omega, q))))
        phat = M(p_)
        q_ = A(phat)
        alpha_ = rho_ / _vdot_tree(rhat, q_)
        s = _sub(r, _mul(alpha_, q_))
        exit_early = _vdot_real_tree(s, s) < atol2
        shat = M(s)
        t = A(shat)
        omega_ = _vdot_tree(t, s) / _vdot_tree(t, t)
        where = partial(jnp.where, exit_early)
        x_ = tree_map(where, _add(x, _mul(alpha_, phat)), _add(x, _add(_mul(alpha_, phat), _mul(omega_, shat))))
        r_ = tree_map(where, s, _sub(s, _mul(omega_, t)))
        k_ = jnp.where((omega_ == 0) | (alpha_ == 0), -11, k + 1)
        k_ = jnp.where(rho_ == 0, -10, k_)
        return x_, r_, rhat, alpha_, omega_, rho_, p_, q_, k_

    r0 = _sub(b, A(x0))
    dtype, weak = _lattice(tree_leaves(b))
    one = jnp.asarray(to_dtype(1, dtype, weak))
    init: _BicgState = (x0, r0, r0, one, one, one, r0, r0, _weak_int(0))
    return while_loop(cond_fun, body_fun, init)[0]


def _shapes(pytree: PyTree) -> list[tuple[int, ...]]:
    return [np.shape(x) for x in tree_leaves(pytree)]


def _isolve(
    solver: Solver, A: LinearOperator, b: PyTree, x0: PyTree | None = None, *, tol: float = 1e-5,
    atol: float = 0.0, maxiter: int | None = None, M: LinearOperator | None = None, check_symmetric: bool = False,
) -> tuple[PyTree, None]:  # fmt: skip
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    b, x0 = device_put((b, x0))
    if maxiter is None:
        maxiter = 10 * sum(int(np.size(bi)) for bi in tree_leaves(b))
    matvec = _normalize_matvec(A)
    precond = _identity if M is None else _normalize_matvec(M)
    if tree_structure(x0) != tree_structure(b):
        raise ValueError(f"x0 and b must have matching tree structure: {tree_structure(x0)} vs {tree_structure(b)}")
    if _shapes(x0) != _shapes(b):
        raise ValueError(f"arrays in x0 and b must have matching shapes: {_shapes(x0)} vs {_shapes(b)}")
    isolve_solve = partial(solver, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=precond)
    symmetric = (
        all(not issubclass(get_aval(x).dtype.type, np.complexfloating) for x in tree_leaves(b))
        if check_symmetric
        else False
    )
    x = custom_linear_solve(matvec, b, solve=isolve_solve, transpose_solve=isolve_solve, symmetric=symmetric)
    return x, None


def cg(
    A: LinearOperator,
    b: PyTree,
    x0: PyTree | None = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: LinearOperator | None = None,
) -> tuple[PyTree, None]:
    """Solves ``A x = b`` by conjugate gradients (``A`` Hermitian positive definite); returns
    ``(x, None)`` (``info`` is not computed, as in JAX).

    ``A`` and the preconditioner ``M`` (approximating ``A``'s inverse) are matrices or functions
    on ``b``'s pytree; iteration stops at ``norm(residual) <= max(tol * norm(b), atol)`` or after
    ``maxiter`` steps (default ``10 * b.size``). Differentiable and batchable.
    """
    return _isolve(_cg_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M, check_symmetric=True)


def bicgstab(
    A: LinearOperator,
    b: PyTree,
    x0: PyTree | None = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    maxiter: int | None = None,
    M: LinearOperator | None = None,
) -> tuple[PyTree, None]:
    """Solves ``A x = b`` by the biconjugate gradient stabilized method (any nonsingular ``A``);
    returns ``(x, None)``. Arguments as for ``cg``."""
    return _isolve(_bicgstab_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)


def _safe_normalize(x: PyTree, thresh: ArrayLike | None = None) -> tuple[PyTree, Array]:
    """``(x / norm(x), norm(x))``, or zeros and 0 where the norm is not above ``thresh``."""
    norm = _norm(x)
    dtype, weak = _lattice(tree_leaves(x))
    th = jnp.asarray(np.finfo(norm.dtype).eps if thresh is None else thresh)
    th = th.astype(dtype).real
    use_norm = norm > th
    norm_cast = jnp.asarray(to_dtype(norm, dtype, weak))
    normalized = tree_map(lambda y: jnp.where(use_norm, y / norm_cast, 0.0), x)
    return normalized, jnp.where(use_norm, norm, 0.0)


def _project_on_columns(A: PyTree, v: PyTree) -> Array:
    proj = tree_map(lambda X, y: jnp.einsum("...n,...->n", X.conj(), y, precision=Precision.HIGHEST), A, v)
    out: Array = tree_reduce(operator.add, proj)
    return out


def _iterative_classical_gram_schmidt(
    Q: PyTree, x: PyTree, xnorm: Array, max_iterations: int = 2
) -> tuple[PyTree, Array]:
    """Orthogonalizes ``x`` against the columns of ``Q`` (repeated while that loses too much of
    its norm, at most ``max_iterations`` times); returns ``(q, r)`` with ``x = q + Q r``."""
    q0 = tree_leaves(Q)[0]
    r = jnp.zeros(q0.shape[-1], dtype=q0.dtype)
    xnorm_scaled = xnorm / jnp.sqrt(2.0)
    def body_function(carry: _GsCarry) -> _GsCarry:
        k, q, r, qnorm_scaled = carry
        h = _project_on_columns(Q, q)
        q = _sub(q, tree_map(lambda X: _dot(X, h), Q))
        r = _add(r, h)

        def qnorm_cond(c: _GsInner) -> Array:
            return jnp.logical_and(c[1], c[0] < (max_iterations - 1))

        def qnorm(c: _GsInner) -> _GsInner:
            k, _, q, _ = c
            _, qn = _safe_normalize(q)
            return k, _weak_bool(False), q, qn / jnp.sqrt(2.0)

        _, _, q, qnorm_scaled = while_loop(qnorm_cond, qnorm, (k, _weak_bool(True), q, qnorm_scaled))
        return k + 1, q, r, qnorm_scaled

    def cond_function(carry: _GsCarry) -> Array:
        k, _, r, qnorm_scaled = carry
        _, rnorm = _safe_normalize(r)
        return jnp.logical_and(k < (max_iterations - 1), rnorm < qnorm_scaled)

    carry = body_function((_weak_int(0), x, r, xnorm_scaled))
    _, q, r, _ = while_loop(cond_function, body_function, carry)
    return q, r


def _kth_arnoldi_iteration(
    k: Array, A: Operator, M: Operator, basis: PyTree, h_mat: Array
) -> tuple[PyTree, Array, Array]:
    """Extends the Krylov ``basis`` by column ``k + 1`` and fills row ``k`` of ``h_mat``
    (``breakdown`` when the new direction vanishes)."""
    dtype, _ = _lattice(tree_leaves(basis))
    eps = np.finfo(dtype).eps
    v = tree_map(lambda x: x[..., k], basis)
    v = M(A(v))
    _, v_norm_0 = _safe_normalize(v)
    v, h = _iterative_classical_gram_schmidt(basis, v, v_norm_0, max_iterations=2)
    unit_v, v_norm_1 = _safe_normalize(v, thresh=eps * v_norm_0)
    basis = tree_map(lambda X, y: X.at[..., k + 1].set(y), basis, unit_v)
    h = h.at[k + 1].set(v_norm_1.astype(dtype))
    return basis, h_mat.at[k, :].set(h), v_norm_1 == 0.0


def _rotate_vectors(h: Array, i: Array | int, cs: Array, sn: Array) -> Array:
    x1 = h[i]
    y1 = h[i + 1]
    x2 = cs.conj() * x1 - sn.conj() * y1
    y2 = sn * x1 + cs * y1
    return h.at[i].set(x2).at[i + 1].set(y2)


def _givens_rotation(a: Array, b: Array) -> tuple[Array, Array]:
    b_zero = abs(b) == 0
    a_lt_b = abs(a) < abs(b)
    t = -jnp.where(a_lt_b, a, b) / jnp.where(a_lt_b, b, a)
    r = rsqrt(1 + abs(t) ** 2).astype(t.dtype)
    cs = jnp.where(b_zero, 1, jnp.where(a_lt_b, r * t, r))
    sn = jnp.where(b_zero, 0, jnp.where(a_lt_b, r, r * t))
    return cs, sn


def _apply_givens_rotations(h_row: Array, givens: Array, k: Array) -> tuple[Array, Array]:
    """Applies the first ``k`` rotations to ``h_row`` and makes the ``k``-th from it."""

    def apply_ith_rotation(i: Array, row: Array) -> Array:
        return _rotate_vectors(row, i, givens[i, 0], givens[i, 1])

    r_row = fori_loop(0, k, apply_ith_rotation, h_row)
    cs, sn = _givens_rotation(r_row[k], r_row[k + 1])
    givens = givens.at[k, :].set(jnp.stack([cs, sn]))
    return _rotate_vectors(r_row, k, cs, sn), givens


GmresStep: TypeAlias = Callable[
    [Operator, PyTree, PyTree, PyTree, Array, Array, int, Operator], tuple[PyTree, PyTree, Array]
]


def _gmres_incremental(
    A: Operator, b: PyTree, x0: PyTree, unit_residual: PyTree, residual_norm: Array,
    ptol: Array, restart: int, M: Operator,
) -> tuple[PyTree, PyTree, Array]:  # fmt: skip
    """One restart of GMRES, solving the least-squares problem by Givens rotations as it goes
    (stops early when the residual estimate is below ``ptol``)."""
    basis = tree_map(lambda x: jnp.pad(x[..., None], ((0, 0),) * x.ndim + ((0, restart),)), unit_residual)
    dtype = dtypes.result_type(*tree_leaves(b))
    r_mat = jnp.eye(restart, restart + 1, dtype=dtype)
    givens = jnp.zeros((restart, 2), dtype=dtype)
    beta_vec = jnp.zeros((restart + 1), dtype=dtype).at[0].set(residual_norm.astype(dtype))

    def loop_cond(carry: _IncCarry) -> Array:
        return jnp.logical_and(carry[0] < restart, carry[1] > ptol)

    def arnoldi_qr_step(carry: _IncCarry) -> _IncCarry:
        k, _, basis, r_mat, beta_vec, givens = carry
        basis, h_mat, _ = _kth_arnoldi_iteration(k, A, M, basis, r_mat)
        r_row, givens = _apply_givens_rotations(h_mat[k, :], givens, k)
        r_mat = r_mat.at[k, :].set(r_row)
        beta_vec = _rotate_vectors(beta_vec, k, givens[k, 0], givens[k, 1])
        return k + 1, abs(beta_vec[k + 1]), basis, r_mat, beta_vec, givens

    init: _IncCarry = (_weak_int(0), residual_norm, basis, r_mat, beta_vec, givens)
    _, residual_norm, basis, r_mat, beta_vec, _ = while_loop(loop_cond, arnoldi_qr_step, init)
    y = solve_triangular(r_mat[:, :-1].T, beta_vec[:-1])
    x = _add(x0, tree_map(lambda X: _dot(X[..., :-1], y), basis))
    unit_residual, residual_norm = _safe_normalize(M(_sub(b, A(x))))
    return x, unit_residual, residual_norm


def _lstsq(a: Array, b: Array) -> Array:
    a2 = _dot(a.T.conj(), a)
    b2 = _dot(a.T.conj(), b)
    return solve(a2, b2, assume_a="pos")


def _gmres_batched(
    A: Operator, b: PyTree, x0: PyTree, unit_residual: PyTree, residual_norm: Array,
    ptol: Array, restart: int, M: Operator,
) -> tuple[PyTree, PyTree, Array]:  # fmt: skip
    """One restart of GMRES: the whole Arnoldi process, then one least-squares solve."""
    del ptol
    basis = tree_map(lambda x: jnp.pad(x[..., None], ((0, 0),) * x.ndim + ((0, restart),)), unit_residual)
    dtype, weak = _lattice(tree_leaves(b))
    h_mat = jnp.asarray(to_dtype(jnp.eye(restart, restart + 1, dtype=dtype), dtype, weak))

    def loop_cond(carry: _BatchCarry) -> Array:
        return jnp.logical_and(carry[3] < restart, jnp.logical_not(carry[2]))

    def arnoldi_process(carry: _BatchCarry) -> _BatchCarry:
        basis, h_mat, _, k = carry
        basis, h_mat, breakdown = _kth_arnoldi_iteration(k, A, M, basis, h_mat)
        return basis, h_mat, breakdown, k + 1

    init: _BatchCarry = (basis, h_mat, _weak_bool(False), _weak_int(0))
    basis, h_mat, _, _ = while_loop(loop_cond, arnoldi_process, init)
    beta_vec = jnp.zeros_like(h_mat, shape=(restart + 1,)).at[0].set(residual_norm.astype(dtype))
    y = _lstsq(h_mat.T, beta_vec)
    x = _add(x0, tree_map(lambda X: _dot(X[..., :-1], y), basis))
    unit_residual, residual_norm = _safe_normalize(M(_sub(b, A(x))))
    return x, unit_residual, residual_norm


def _gmres_solve(
    A: Operator, b: PyTree, x0: PyTree, atol: Array, ptol: Array, restart: int,
    maxiter: int, M: Operator, gmres_func: GmresStep,
) -> PyTree:  # fmt: skip
    unit_residual, residual_norm = _safe_normalize(M(_sub(b, A(x0))))

    def cond_fun(value: _SolveCarry) -> Array:
        return jnp.logical_and(value[1] < maxiter, value[3] > atol)

    def body_fun(value: _SolveCarry) -> _SolveCarry:
        x, k, unit_residual, residual_norm = value
        x, unit_residual, residual_norm = gmres_func(A, b, x, unit_residual, residual_norm, ptol, restart, M)
        return x, k + 1, unit_residual, residual_norm

    init: _SolveCarry = (x0, _weak_int(0), unit_residual, residual_norm)
    return while_loop(cond_fun, body_fun, init)[0]


def gmres(
    A: LinearOperator,
    b: PyTree,
    x0: PyTree | None = None,
    *,
    tol: float = 1e-5,
    atol: float = 0.0,
    restart: int = 20,
    maxiter: int | None = None,
    M: LinearOperator | None = None,
    solve_method: str = "batched",
) -> tuple[PyTree, Array]:
    """Solves ``A x = b`` by GMRES (any nonsingular ``A``), restarted every ``restart`` Krylov
    steps; returns ``(x, info)`` with ``info`` -1 if the solution is NaN, else 0.

    ``solve_method`` is ``'batched'`` (one least-squares solve per restart) or ``'incremental'``
    (Givens rotations, stopping early); other arguments as for ``cg``.
    """
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    matvec = _normalize_matvec(A)
    precond = _identity if M is None else _normalize_matvec(M)
    b, x0 = device_put((b, x0))
    size = sum(int(np.size(bi)) for bi in tree_leaves(b))
    if maxiter is None:
        maxiter = 10 * size
    restart = min(restart, size)
    if tree_structure(x0) != tree_structure(b):
        raise ValueError(f"x0 and b must have matching tree structure: {tree_structure(x0)} vs {tree_structure(b)}")
    b_norm = _norm(b)
    atol_arr = jnp.maximum(tol * b_norm, atol)
    ptol = _norm(precond(b)) * jnp.minimum(1.0, atol_arr / b_norm)
    gmres_func: GmresStep
    if solve_method == "incremental":
        gmres_func = _gmres_incremental
    elif solve_method == "batched":
        gmres_func = _gmres_batched
    else:
        raise ValueError(f"invalid solve_method {solve_method}, must be either 'incremental' or 'batched'")
    max_k = maxiter

    def _solve(A: Operator, b: PyTree) -> PyTree:
        return _gmres_solve(A, b, x0, atol_arr, ptol, restart, max_k, precond, gmres_func)

    x = custom_linear_solve(matvec, b, solve=_solve, transpose_solve=_solve)
    info = jnp.where(jnp.isnan(_norm(x)), -1, 0)
    return x, info
