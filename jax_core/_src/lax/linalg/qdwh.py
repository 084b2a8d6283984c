"""The QR-based dynamically weighted Halley iteration (QDWH) for the polar decomposition.

Nakatsukasa, Bai and Gygi (2010) and Nakatsukasa and Higham (2013): scale ``x`` so its singular
values lie in ``(0, 1]``, then iterate ``U <- e U + (a - e) U (I + c U^H U)^{-1}`` with weights
``(a, b, c)`` chosen from a running lower bound ``l`` on the smallest singular value, so that the
iteration converges in at most six steps in double precision. Steps with a large ``c`` (badly
conditioned) are computed with a QR factorization of ``[sqrt(c) U; I]``, the rest with a
Cholesky factorization; after the scheduled steps, fixed-weight Halley steps run until the update
is below ``cbrt(5 eps)``. The result is ``x = u h`` with ``u`` unitary and ``h`` Hermitian
positive semidefinite.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.control_flow.loops import fori_loop, while_loop
from jax_core._src.lax.indexing.slicing import dynamic_index_in_dim, dynamic_slice_in_dim, dynamic_update_slice_in_dim
from jax_core._src.lax.indexing.slicing import slice as lax_slice
from jax_core._src.lax.linalg import matrix_ops as mx
from jax_core._src.lax.linalg.decompositions import cholesky, qr, triangular_solve
from jax_core._src.lax.reductions.reduce import reduce_max, reduce_sum
from jax_core._src.lax.shape.assembly import broadcasted_iota
from jax_core._src.lax.shape.assembly import pad as lax_pad
from jax_core._src.lax.shape.compositions import as_array
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_CHOLESKY_CUTOFF = 100


def _mask(x: Any, dims: tuple[int | None, ...], alternative: Any = 0) -> Any:
    mask: Any = None
    for i, d in enumerate(dims):
        if d is not None:
            inside = ew.lt(broadcasted_iota(np.int32, x.shape, i), np.int32(d))
            mask = inside if mask is None else ew.bitwise_and(mask, inside)
    if mask is None:
        return x
    alt = mx.broadcast_to(ew.convert_element_type(alternative, x.dtype), x.shape)
    return ew.select(mask, x, alt)


def _H(x: Any) -> Any:
    return mx.conj(mx.swapaxes(x, -1, -2))


def _fro(x: Any) -> Any:
    return ew.sqrt(reduce_sum(mx.real(x * mx.conj(x)), (0, 1)))


def _qr_step(u: Any, m: int, n: int, params: Any) -> Any:
    a_minus_e_by_sqrt_c, sqrt_c, e = params
    big_m, big_n = u.shape
    top = sqrt_c * u
    y = dynamic_update_slice_in_dim(lax_pad(top, np.zeros((), u.dtype), [(0, big_n, 0), (0, 0, 0)]), mx.eye(big_n, u.dtype), m, 0)
    q, _ = qr(y, full_matrices=False)
    q1 = _mask(lax_slice(q, (0, 0), (big_m, big_n)), (m, n))
    q2 = _H(_mask(dynamic_slice_in_dim(q, m, big_n, 0), (n, n)))
    return e * u + a_minus_e_by_sqrt_c * mx.matmul(q1, q2)


def _cholesky_step(u: Any, m: int, n: int, params: Any) -> Any:
    a_minus_e, c, e = params
    big_n = u.shape[1]
    eye = mx.eye(big_n, u.dtype)
    x = c * mx.matmul(_H(u), u) + eye
    x = _mask(x, (n, n), eye)
    y = mx.tril(cholesky(x))
    z = mx.conj(triangular_solve(y, mx.swapaxes(u, 0, 1), left_side=True, lower=True, conjugate_a=True))
    z = _H(triangular_solve(y, z, left_side=True, lower=True, transpose_a=True, conjugate_a=True))
    return e * u + a_minus_e * z


def _weights(eps: float, max_iterations: int) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """The scheduled ``(QR, Cholesky)`` step parameters, from the lower bound ``l = eps``."""
    l, tol_l = eps, 10.0 * eps / 2.0
    qr_steps: list[tuple[float, float, float]] = []
    chol_steps: list[tuple[float, float, float]] = []
    k = 0
    while l + tol_l < 1 and k < max_iterations:
        k += 1
        l2 = l * l
        dd = (4 * (1 / l2 - 1) / l2) ** (1 / 3)
        sqd = (1.0 + dd) ** (1 / 2)
        a = sqd + (2 - dd + 2 * (2 - l2) / (l2 * sqd)) ** (1 / 2)
        b = (a - 1) ** 2 / 4
        c = a + b - 1
        l = l * (a + b * l2) / (1 + c * l2)
        e = b / c
        if c > _CHOLESKY_CUTOFF:
            qr_steps.append(((a - e) / c ** (1 / 2), c ** (1 / 2), e))
        else:
            chol_steps.append((a - e, c, e))
    return qr_steps, chol_steps


def qdwh(
    x: ArrayLike, *, is_hermitian: bool = False, max_iterations: int | None = None, eps: float | None = None,
    dynamic_shape: tuple[int, int] | None = None,
) -> tuple[Array, Array, Array, Array]:
    """The polar decomposition ``x = u h`` of a full-rank ``M x N`` matrix (``M >= N``) by QDWH:
    ``(u, h, num_iters, is_converged)``. ``is_hermitian`` is unused (kept for compatibility);
    ``eps`` sets the tolerance ``|x_k - x_{k-1}| < |x_k| (4 eps)^(1/3)``; ``max_iterations``
    (default 10) bounds the steps; ``dynamic_shape`` gives the true ``(m, n)`` of a padded ``x``."""
    del is_hermitian
    xa = as_array(x)
    max_iter = 10 if max_iterations is None else operator.index(max_iterations)
    big_m, big_n = xa.shape
    if big_m < big_n:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    if dynamic_shape is not None:
        m, n = dynamic_shape
        xa = _mask(xa, (m, n))
    else:
        m, n = big_m, big_n
    tol = float(dtypes.finfo(xa.dtype).eps) if eps is None else float(eps)
    abs_x = ew.abs(xa)
    one_norm = ew.max(np.zeros((), abs_x.dtype), reduce_max(reduce_sum(abs_x, (0,)), (0,)))
    inf_norm = ew.max(np.zeros((), abs_x.dtype), reduce_max(reduce_sum(abs_x, (1,)), (0,)))
    alpha_inverse = ew.rsqrt(one_norm) * ew.rsqrt(inf_norm)
    alpha_inverse = ew.select(ew.eq(one_norm, np.zeros((), one_norm.dtype)), np.ones((), one_norm.dtype), alpha_inverse)
    u = xa * ew.convert_element_type(alpha_inverse, xa.dtype)
    tol_norm = ew.cbrt(np.asarray(10.0 * tol / 2.0, dtype=abs_x.dtype))
    qr_steps, chol_steps = _weights(tol, max_iter)

    def run(u: Any, steps: list[tuple[float, float, float]], step: Any, test: bool) -> tuple[Any, Any]:
        if not steps:
            return u, np.bool_(True)
        coefs = np.asarray(steps).astype(xa.dtype)

        def body(k: Any, state: tuple[Any, Any]) -> tuple[Any, Any]:
            prev, _ = state
            params = dynamic_index_in_dim(coefs, k, 0, keepdims=False)
            new = step(prev, m, n, (params[0], params[1], params[2]))
            return new, (ew.gt(_fro(new - prev), tol_norm) if test else np.bool_(True))

        out: tuple[Any, Any] = fori_loop(0, len(steps), body, (u, np.bool_(True)))
        return out

    u, _ = run(u, qr_steps, _qr_step, False)
    u, not_converged = run(u, chol_steps, _cholesky_step, True)
    fixed = tuple(np.asarray(v, xa.dtype) for v in (3 - 1 / 3, 3, 1 / 3))

    def cond(state: tuple[Any, Any, Any]) -> Any:
        k, _, nc = state
        return ew.bitwise_and(nc, ew.lt(k, np.int32(max_iter)))

    def body(state: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        k, prev, _ = state
        new = _cholesky_step(prev, m, n, fixed)
        return k + 1, new, ew.gt(_fro(new - prev), tol_norm)

    start = len(qr_steps) + len(chol_steps)
    num_iters, u, not_converged = while_loop(cond, body, (start, u, ew.convert_element_type(not_converged, np.bool_)))
    u = 1.5 * u - 0.5 * mx.matmul(u, mx.matmul(_H(u), u))
    h = mx.matmul(_H(u), xa)
    h = (h + _H(h)) / 2
    return u, h, as_array(num_iters), ew.bitwise_not(not_converged)


