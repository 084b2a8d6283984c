"""Linear-algebra primitives on LAPACK (CPU): cholesky, lu, qr, eigh, svd, eig, triangular_solve.

Each primitive lowers to jaxlib's LAPACK FFI kernels (``lax/lapack.py``), batched over
leading dimensions, and carries JAX's rules: jvps from the standard matrix-calculus
identities (Murray 2016 for Cholesky, de Hoog et al. for LU, Townsend for QR, Giles for
eigh/SVD), the transpose of ``triangular_solve`` in its right-hand side, and batching by
moving the batch axis to the front.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import Zero, instantiate_zeros, is_undefined_primal, is_zero
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.lax.linalg import lapack
from jax_core._src.lax.linalg import matrix_ops as mx
from jax_core._src.lax.linalg.operand_checks import INT32, check_dtypes, split_batch
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# In the order JAX's message lists them (JAX prints a set; compare its text by class only).
_INEXACT = (np.dtype(np.float32), np.dtype(np.complex128), np.dtype(np.complex64), np.dtype(np.float64))


def _check(name: str, x: ShapedArray, min_ndim: int = 2, square: bool = False) -> None:
    check_dtypes(name, [x], [_INEXACT])
    if x.ndim < min_ndim:
        raise ValueError(f"{name} requires an operand with at least {min_ndim} dimensions, got shape {x.shape}")
    if square and x.shape[-1] != x.shape[-2]:
        raise ValueError(f"{name} requires square matrices, got shape {x.shape}")


def _real(dt: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64) if dt == np.complex128 else dt


def front_batcher(prim: Primitive) -> Any:
    """Batching for primitives batched natively over leading dimensions: batch axis first."""

    def rule(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, Any]:
        size = axis_size(args, dims)
        moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
        out = prim.bind(*moved, **params)
        return (out, [0] * len(out)) if prim.multiple_results else (out, 0)

    return rule


# -- small helpers the rules compute with (matrix_ops: lax versions of NumPy's) -------------


def _H(x: Any) -> Any:
    return mx.conj(mx.swapaxes(x, -1, -2))


def _T(x: Any) -> Any:
    return mx.swapaxes(x, -1, -2)


# -- cholesky --------------------------------------------------------------------------------


def cholesky(x: ArrayLike) -> Array:
    """The lower Cholesky factor of (the lower triangle of) Hermitian positive-definite ``x``; NaN where it fails."""
    out: Array = cholesky_p.bind(x)
    return out


def _cholesky_abstract_eval(x: ShapedArray) -> ShapedArray:
    _check("cholesky", x, square=True)
    return ShapedArray(x.shape, x.dtype)


def _cholesky_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    batch = aval.shape[:-2]
    info_aval = ShapedArray(batch, np.dtype(np.int32))
    res, info = lapack.ffi_call(
        lapack.target("potrf_ffi", aval.dtype), [x], [aval], [aval, info_aval], {"uplo": lapack.char_attr("L")}, aliases={0: 0}
    )
    res = lapack.nan_where_not_ok(lapack.info_ok(info, batch), batch, res, aval)
    mask = lapack.tri_mask(aval.shape)
    zeros = hlo_util.broadcast_in_dim(hlo_util.constant(np.zeros((), aval.dtype)), aval, ())
    return [hlo.select(mask, res, zeros)]


def _cholesky_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    (x,), (sigma_dot,) = primals, tangents
    L = cholesky_p.bind(x)
    if is_zero(sigma_dot):
        return L, Zero.from_primal_value(L)
    n = x.shape[-1]
    # Only the lower triangle of x is read: the tangent is the Hermitian matrix it determines.
    if sigma_dot.dtype.kind == "c":
        from jax_core._src.lax import elementwise as ew

        re, im = ew.real(sigma_dot), ew.imag(sigma_dot)
        sigma_dot = ew.complex(mx.tril(re) + _T(mx.tril(re, -1)), mx.tril(im, -1) - _T(mx.tril(im, -1)))
    else:
        sigma_dot = mx.tril(sigma_dot) + _T(mx.tril(sigma_dot, -1))

    def phi(X: Any) -> Any:
        return mx.tril(X) / (1 + mx.eye(n, dtype=X.dtype))

    tmp = triangular_solve(L, sigma_dot, left_side=False, transpose_a=True, conjugate_a=True, lower=True)
    L_dot = mx.matmul(L, phi(triangular_solve(L, tmp, left_side=True, transpose_a=False, lower=True)))
    return L, L_dot


cholesky_p: Primitive = Primitive("cholesky")
cholesky_p.def_rules(Rules(abstract_eval=_cholesky_abstract_eval, lower=_cholesky_lower, jvp=_cholesky_jvp, batch=front_batcher(cholesky_p)))


# -- triangular_solve ------------------------------------------------------------------------


def triangular_solve(
    a: ArrayLike, b: ArrayLike, *, left_side: bool = False, lower: bool = False, transpose_a: bool = False,
    conjugate_a: bool = False, unit_diagonal: bool = False,
) -> Array:
    """Solves ``op(a) @ x = b`` (``left_side``) or ``x @ op(a) = b`` for triangular ``a``."""
    out: Array = triangular_solve_p.bind(
        a, b, left_side=bool(left_side), lower=bool(lower), transpose_a=bool(transpose_a), conjugate_a=bool(conjugate_a),
        unit_diagonal=bool(unit_diagonal),
    )
    return out


def _ts_abstract_eval(a: ShapedArray, b: ShapedArray, *, left_side: bool, **_: Any) -> ShapedArray:
    _check("triangular_solve", a, square=True)
    if a.dtype != b.dtype:
        raise TypeError(f"triangular_solve requires a and b of one dtype, got {a.dtype} and {b.dtype}")
    if b.ndim != a.ndim or a.shape[:-2] != b.shape[:-2]:
        raise TypeError(f"triangular_solve requires equal batch dimensions, got shapes {a.shape} and {b.shape}")
    common = b.shape[-2] if left_side else b.shape[-1]
    if common != a.shape[-1]:
        raise ValueError(f"Incompatible shapes for arguments to triangular_solve: {a.shape[-2:]} and {b.shape[-2:]}.")
    return ShapedArray(b.shape, b.dtype)


def _ts_lower(
    ctx: LoweringRuleContext, a: ir.Value[Any], b: ir.Value[Any], *, left_side: bool, lower: bool, transpose_a: bool,
    conjugate_a: bool, unit_diagonal: bool,
) -> list[ir.Value[Any]]:
    a_aval, b_aval = ctx.avals_in
    if conjugate_a and not transpose_a:
        a = chlo.conj(a)
        conjugate_a = False
    trans = ("C" if conjugate_a else "T") if transpose_a else "N"
    attrs = {
        "side": lapack.char_attr("L" if left_side else "R"),
        "uplo": lapack.char_attr("L" if lower else "U"),
        "trans_x": lapack.char_attr(trans),
        "diag": lapack.char_attr("U" if unit_diagonal else "N"),
    }
    return lapack.ffi_call(lapack.target("trsm_ffi", a_aval.dtype), [a, b], [a_aval, b_aval], [b_aval], attrs, aliases={1: 0})


def _ts_jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    a, b = primals
    g_a, g_b = tangents
    ans = triangular_solve_p.bind(a, b, **params)
    out: Any = None
    if not is_zero(g_b):
        out = triangular_solve_p.bind(a, g_b, **params)
    if not is_zero(g_a):
        left_side, lower = params["left_side"], params["lower"]
        m, n = b.shape[-2:]
        k = 1 if params["unit_diagonal"] else 0
        ga = mx.tril(g_a, -k) if lower else mx.triu(g_a, k)
        ga = -ga
        ga = _T(ga) if params["transpose_a"] else ga
        ga = mx.conj(ga) if params["conjugate_a"] else ga

        def a_inv(rhs: Any) -> Any:
            return triangular_solve_p.bind(a, rhs, **params)

        if left_side:
            t = a_inv(mx.matmul(ga, ans)) if m > n else mx.matmul(a_inv(ga), ans)
        else:
            t = a_inv(mx.matmul(ans, ga)) if m < n else mx.matmul(ans, a_inv(ga))
        out = t if out is None else out + t
    return ans, Zero.from_primal_value(ans) if out is None else out


def _ts_transpose(ct: Any, a: Any, b: Any, **params: Any) -> list[Any]:
    assert not is_undefined_primal(a) and is_undefined_primal(b)
    if is_zero(ct):
        return [None, Zero(b.aval)]
    flipped = dict(params, transpose_a=not params["transpose_a"])
    return [None, triangular_solve_p.bind(a, instantiate_zeros(ct), **flipped)]


triangular_solve_p: Primitive = Primitive("triangular_solve")
triangular_solve_p.def_rules(
    Rules(abstract_eval=_ts_abstract_eval, lower=_ts_lower, jvp=_ts_jvp, transpose=_ts_transpose, batch=front_batcher(triangular_solve_p))
)


# -- lu ---------------------------------------------------------------------------------------


def lu(x: ArrayLike) -> tuple[Array, Array, Array]:
    """LU decomposition with partial pivoting: ``(lu, pivots, permutation)`` as ``lax.linalg.lu``."""
    lu_, piv = lu_p.bind(x)
    m = lu_.shape[-2]
    return lu_, piv, lu_pivots_to_permutation(piv, m)


def lu_pivots_to_permutation(pivots: ArrayLike, permutation_size: int) -> Array:
    """The permutation that the sequence of row swaps ``pivots`` (int32, ``[..., k]``) applies to
    ``arange(permutation_size)`` (``permutation_size >= k``)."""
    out: Array = lu_pivots_to_permutation_p.bind(pivots, permutation_size=int(permutation_size))
    return out


def _pivots_to_permutation(piv: Any, permutation_size: int) -> Array:
    from jax_core._src.lax.control_flow.loops import fori_loop

    batch = piv.shape[:-1]
    k = piv.shape[-1]
    perm0 = mx.broadcast_to(mx.arange(permutation_size, dtype=np.int32), (*batch, permutation_size))
    flat_p = mx.reshape(perm0, (-1, permutation_size))
    flat_s = mx.reshape(piv, (-1, k))
    rows = mx.arange(flat_p.shape[0])

    def body(i: Any, p: Any) -> Any:
        j = flat_s[:, i]
        x = p[:, i]
        y = p[rows, j]
        p = p.at[:, i].set(y)
        return p.at[rows, j].set(x)

    out = fori_loop(0, k, body, flat_p) if k and flat_p.shape[0] and permutation_size else flat_p
    result: Array = mx.reshape(out, (*batch, permutation_size))
    return result


def _l2p_abstract_eval(pivots: ShapedArray, *, permutation_size: int) -> ShapedArray:
    _, ((k,),) = split_batch("lu_pivots_to_permutation", [pivots], [1])
    if not permutation_size >= k:
        raise ValueError(
            f"Output permutation size {permutation_size} has to exceed the trailing dimension of the pivots. Got pivots size {k}"
        )
    check_dtypes("lu_pivots_to_permutation", [pivots], [INT32])
    return ShapedArray((*pivots.shape[:-1], permutation_size), np.dtype(np.int32))


def _l2p_lower(ctx: LoweringRuleContext, pivots: ir.Value[Any], *, permutation_size: int) -> list[ir.Value[Any]]:
    from jax_core._src.lax.control_flow.common import lower_fun

    def program(p: Any) -> list[Any]:
        return [_pivots_to_permutation(p, permutation_size)]

    return lower_fun(program, ctx.avals_in, [pivots])


def _l2p_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, permutation_size: int) -> tuple[Any, Any]:
    out = lu_pivots_to_permutation_p.bind(primals[0], permutation_size=permutation_size)
    return out, Zero.from_primal_value(out)


lu_pivots_to_permutation_p: Primitive = Primitive("lu_pivots_to_permutation")
lu_pivots_to_permutation_p.def_rules(
    Rules(abstract_eval=_l2p_abstract_eval, lower=_l2p_lower, jvp=_l2p_jvp, batch=front_batcher(lu_pivots_to_permutation_p))
)


def _lu_abstract_eval(x: ShapedArray) -> list[ShapedArray]:
    _check("lu", x)
    k = min(x.shape[-2], x.shape[-1])
    return [ShapedArray(x.shape, x.dtype), ShapedArray((*x.shape[:-2], k), np.dtype(np.int32))]


def _lu_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    lu_aval, piv_aval = ctx.avals_out
    batch = aval.shape[:-2]
    info_aval = ShapedArray(batch, np.dtype(np.int32))
    res, piv, info = lapack.ffi_call(lapack.target("getrf_ffi", aval.dtype), [x], [aval], [lu_aval, piv_aval, info_aval], {}, aliases={0: 0})
    one = hlo_util.broadcast_in_dim(hlo_util.constant(np.ones((), np.int32)), piv_aval, ())
    piv = hlo.subtract(piv, one)
    res = lapack.nan_where_not_ok(lapack.info_ok(info, batch, "GE"), batch, res, lu_aval)
    return [res, piv]


def _lu_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    (a,), (a_dot,) = primals, tangents
    lu_, piv = lu_p.bind(a)
    if is_zero(a_dot):
        return [lu_, piv], [Zero.from_primal_value(lu_), Zero.from_primal_value(piv)]
    m, n = a.shape[-2:]
    k = min(m, n)
    perm = lu_pivots_to_permutation(piv, m)
    x = mx.take_rows(a_dot, perm)
    eye_m = mx.eye(m, dtype=a.dtype)
    l = mx.pad(mx.tril(lu_[..., :, :k], -1), [(0, 0)] * (a.ndim - 1) + [(0, m - k)]) + eye_m
    u_eye = mx.pad(mx.eye(n - k, dtype=a.dtype), ((k, 0), (k, 0)))
    u = mx.pad(mx.triu(lu_[..., :k, :]), [(0, 0)] * (a.ndim - 2) + [(0, n - k), (0, 0)]) + u_eye
    la = triangular_solve(l, x, left_side=True, transpose_a=False, lower=True, unit_diagonal=True)
    lau = triangular_solve(u, la, left_side=False, transpose_a=False, lower=False)
    lu_dot = mx.matmul(l, mx.tril(lau, -1)) + mx.matmul(mx.triu(lau), u)
    return [lu_, piv], [lu_dot, Zero.from_primal_value(piv)]


lu_p: Primitive = Primitive("lu", multiple_results=True)
lu_p.def_rules(Rules(abstract_eval=_lu_abstract_eval, lower=_lu_lower, jvp=_lu_jvp, batch=front_batcher(lu_p)))


# -- geqrf --------------------------------------------------------------------------------------
def geqrf(x: ArrayLike) -> tuple[Array, Array]:
    """LAPACK's Householder QR: ``(a, taus)``, ``r`` in ``a``'s upper triangle and the reflectors
    below it with their scale factors ``taus`` (``min(m, n)`` per matrix). No derivative, as JAX's."""
    a, taus = geqrf_p.bind(x)
    return a, taus


def _geqrf_abstract_eval(x: ShapedArray) -> list[ShapedArray]:
    _check("geqrf", x)
    m, n = x.shape[-2:]
    return [x, ShapedArray((*x.shape[:-2], min(m, n)), x.dtype)]


def _geqrf_lower(ctx: LoweringRuleContext, x: ir.Value[Any]) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    outs = lapack.ffi_call(lapack.target("geqrf_ffi", aval.dtype), [x], [aval], list(ctx.avals_out), {}, aliases={0: 0})
    return list(outs)


def _geqrf_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[Any, Any]:
    raise NotImplementedError(
        "Differentiation rule for 'geqrf' not implemented (as in JAX): differentiate qr, or a "
        "function with its own derivative such as slogdet(method='qr')."
    )


geqrf_p: Primitive = Primitive("geqrf", multiple_results=True)
geqrf_p.def_rules(
    Rules(abstract_eval=_geqrf_abstract_eval, lower=_geqrf_lower, jvp=_geqrf_jvp, batch=front_batcher(geqrf_p))
)


# -- qr ---------------------------------------------------------------------------------------


def qr(x: ArrayLike, *, full_matrices: bool = True) -> tuple[Array, Array]:
    """QR decomposition: ``(q, r)`` with ``q`` ``(m, m)`` (``full_matrices``) or ``(m, k)``."""
    q, r = qr_p.bind(x, full_matrices=bool(full_matrices))
    return q, r


def _qr_abstract_eval(x: ShapedArray, *, full_matrices: bool) -> list[ShapedArray]:
    _check("qr", x)
    m, n = x.shape[-2:]
    k = m if full_matrices else min(m, n)
    b = x.shape[:-2]
    return [ShapedArray((*b, m, k), x.dtype), ShapedArray((*b, k, n), x.dtype)]


def _qr_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, full_matrices: bool) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    q_aval, r_aval = ctx.avals_out
    b = aval.shape[:-2]
    m, n = aval.shape[-2:]
    k = min(m, n)
    tau_aval = ShapedArray((*b, k), aval.dtype)
    a, taus = lapack.ffi_call(lapack.target("geqrf_ffi", aval.dtype), [x], [aval], [aval, tau_aval], {}, aliases={0: 0})
    # r: the upper triangle of the leading (k or m) rows.
    r_rows = r_aval.shape[-2]
    r_full = a
    if r_rows != m:
        r_full = hlo.slice(a, hlo_util.i64_list([0] * aval.ndim), hlo_util.i64_list([*b, r_rows, n]), hlo_util.i64_list([1] * aval.ndim))
    elif r_rows > m:
        raise AssertionError
    mask = lapack.tri_mask(r_aval.shape, lower=False)
    zeros = hlo_util.broadcast_in_dim(hlo_util.constant(np.zeros((), aval.dtype)), r_aval, ())
    r = hlo.select(mask, r_full, zeros)
    # q: orgqr/ungqr on the reflectors, padded to m columns for full_matrices.
    q_cols = q_aval.shape[-1]
    if q_cols > n:
        pad_aval = ShapedArray((*b, m, q_cols), aval.dtype)
        zero = hlo_util.constant(np.zeros((), aval.dtype))
        q_in = hlo.pad(a, zero, hlo_util.i64_list([0] * aval.ndim), hlo_util.i64_list([0] * (aval.ndim - 1) + [q_cols - n]), hlo_util.i64_list([0] * aval.ndim))
        in_aval = pad_aval
    elif q_cols < n:
        in_aval = ShapedArray((*b, m, q_cols), aval.dtype)
        q_in = hlo.slice(a, hlo_util.i64_list([0] * aval.ndim), hlo_util.i64_list([*b, m, q_cols]), hlo_util.i64_list([1] * aval.ndim))
    else:
        in_aval, q_in = aval, a
    name = ("ungqr_ffi" if aval.dtype.kind == "c" else "orgqr_ffi")
    (q,) = lapack.ffi_call(lapack.target(name, aval.dtype), [q_in, taus], [in_aval, tau_aval], [in_aval], {}, aliases={0: 0})
    return [q, r]


def _qr_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, full_matrices: bool) -> tuple[Any, Any]:
    (x,), (dx,) = primals, tangents
    q, r = qr_p.bind(x, full_matrices=full_matrices)
    if is_zero(dx):
        return [q, r], [Zero.from_primal_value(q), Zero.from_primal_value(r)]
    m, n = x.shape[-2:]
    if m < n or (full_matrices and m != n):
        raise NotImplementedError("Unimplemented case of QR decomposition derivative")
    dx_rinv = triangular_solve(r, dx)
    qt_dx_rinv = mx.matmul(_H(q), dx_rinv)
    low = mx.tril(qt_dx_rinv, -1)
    do = low - _H(low)
    eye = mx.eye(n, dtype=do.dtype)
    do = do + eye * (qt_dx_rinv - mx.real(qt_dx_rinv).astype(qt_dx_rinv.dtype))
    dq = mx.matmul(q, do - qt_dx_rinv) + dx_rinv
    dr = mx.matmul(qt_dx_rinv - do, r)
    return [q, r], [dq, dr]


qr_p: Primitive = Primitive("qr", multiple_results=True)
qr_p.def_rules(Rules(abstract_eval=_qr_abstract_eval, lower=_qr_lower, jvp=_qr_jvp, batch=front_batcher(qr_p)))


# -- eigh -------------------------------------------------------------------------------------


def eigh(x: ArrayLike, *, lower: bool = True) -> tuple[Array, Array]:
    """Eigenvectors and (ascending, real) eigenvalues of Hermitian ``x``: ``(v, w)`` as ``lax.linalg.eigh``."""
    v, w = eigh_p.bind(x, lower=bool(lower))
    return v, w


def _eigh_abstract_eval(x: ShapedArray, *, lower: bool) -> list[ShapedArray]:
    _check("eigh", x, square=True)
    return [ShapedArray(x.shape, x.dtype), ShapedArray(x.shape[:-1], _real(x.dtype))]


def _eigh_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, lower: bool) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    v_aval, w_aval = ctx.avals_out
    batch = aval.shape[:-2]
    prefix = "he" if aval.dtype.kind == "c" else "sy"
    attrs = {"mode": lapack.char_attr("V"), "uplo": lapack.char_attr("L" if lower else "U")}
    v, w, info = lapack.ffi_call(
        lapack.target(f"{prefix}evd_ffi", aval.dtype), [x], [aval], [v_aval, w_aval, ShapedArray(batch, np.dtype(np.int32))], attrs, aliases={0: 0}
    )
    ok = lapack.info_ok(info, batch)
    return [lapack.nan_where_not_ok(ok, batch, v, v_aval), lapack.nan_where_not_ok(ok, batch, w, w_aval)]


def _eigh_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, lower: bool) -> tuple[Any, Any]:
    (a,), (a_dot,) = primals, tangents
    v, w_real = eigh_p.bind(a, lower=lower)
    if is_zero(a_dot):
        return [v, w_real], [Zero.from_primal_value(v), Zero.from_primal_value(w_real)]
    n = a.shape[-1]
    w = w_real.astype(a.dtype)
    eye_n = mx.eye(n, dtype=a.dtype)
    Fmat = 1 / (eye_n + w[..., None, :] - w[..., :, None]) - eye_n
    vdag_adot_v = mx.matmul(mx.matmul(_H(v), a_dot), v)
    dv = mx.matmul(v, Fmat * vdag_adot_v)
    dw = mx.real(mx.diagonal(vdag_adot_v, axis1=-2, axis2=-1))
    return [v, w_real], [dv, dw]


eigh_p: Primitive = Primitive("eigh", multiple_results=True)
eigh_p.def_rules(Rules(abstract_eval=_eigh_abstract_eval, lower=_eigh_lower, jvp=_eigh_jvp, batch=front_batcher(eigh_p)))


# -- svd --------------------------------------------------------------------------------------


def svd(x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True) -> Any:
    """Singular values (descending), or ``(s, u, vt)`` with ``compute_uv``."""
    out = svd_p.bind(x, full_matrices=bool(full_matrices), compute_uv=bool(compute_uv))
    return tuple(out) if compute_uv else out[0]


def _svd_abstract_eval(x: ShapedArray, *, full_matrices: bool, compute_uv: bool) -> list[ShapedArray]:
    _check("svd", x)
    m, n = x.shape[-2:]
    k = min(m, n)
    b = x.shape[:-2]
    s = ShapedArray((*b, k), _real(x.dtype))
    if not compute_uv:
        return [s]
    return [s, ShapedArray((*b, m, m if full_matrices else k), x.dtype), ShapedArray((*b, n if full_matrices else k, n), x.dtype)]


def _svd_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, full_matrices: bool, compute_uv: bool) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    b = aval.shape[:-2]
    m, n = aval.shape[-2:]
    k = min(m, n)
    s_aval = ctx.avals_out[0]
    u_aval = ShapedArray((*b, m, m if full_matrices else k), aval.dtype)
    vt_aval = ShapedArray((*b, n if full_matrices else k, n), aval.dtype)
    if m == 0 or n == 0:
        raise NotImplementedError("svd of an empty matrix is not implemented")
    mode = "N" if not compute_uv else ("A" if full_matrices else "S")
    outs = lapack.ffi_call(
        lapack.target("gesdd_ffi", aval.dtype), [x], [aval], [aval, s_aval, u_aval, vt_aval, ShapedArray(b, np.dtype(np.int32))],
        {"mode": lapack.char_attr(mode)}, aliases={0: 0},
    )
    _, s, u, vt, info = outs
    ok = lapack.info_ok(info, b)
    result = [lapack.nan_where_not_ok(ok, b, s, s_aval)]
    if compute_uv:
        result += [lapack.nan_where_not_ok(ok, b, u, u_aval), lapack.nan_where_not_ok(ok, b, vt, vt_aval)]
    return result


def _svd_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, full_matrices: bool, compute_uv: bool) -> tuple[Any, Any]:
    (A,), (dA,) = primals, tangents
    s, U, Vt = svd_p.bind(A, full_matrices=False, compute_uv=True)
    if compute_uv and full_matrices:
        raise NotImplementedError("Singular value decomposition JVP not implemented for full matrices")
    outs = [s, U, Vt] if compute_uv else [s]
    if is_zero(dA):
        return outs, [Zero.from_primal_value(o) for o in outs]
    Ut, V = _H(U), _H(Vt)
    s_dim = s[..., None, :]
    dS = mx.matmul(mx.matmul(Ut, dA), V)
    ds = mx.real(mx.diagonal(dS, 0, -2, -1))
    if not compute_uv:
        return [s], [ds]
    s_diffs = (s_dim + _T(s_dim)) * (s_dim - _T(s_dim))
    s_diffs_zeros = mx.eye(s.shape[-1], dtype=s.dtype)
    F = 1 / (s_diffs + s_diffs_zeros) - s_diffs_zeros
    dSS = s_dim.astype(A.dtype) * dS
    SdS = _T(s_dim.astype(A.dtype)) * dS
    s_zeros = (s == 0).astype(s.dtype)
    s_inv = 1 / (s + s_zeros) - s_zeros
    s_inv_mat = s_inv[..., None, :] * mx.eye(s.shape[-1], dtype=s.dtype)
    dUdV_diag = 0.5 * (dS - _H(dS)) * s_inv_mat.astype(A.dtype)
    dU = mx.matmul(U, F.astype(A.dtype) * (dSS + _H(dSS)) + dUdV_diag)
    dV = mx.matmul(V, F.astype(A.dtype) * (SdS + _H(SdS)))
    m, n = A.shape[-2:]
    if m > n:
        dAV = mx.matmul(dA, V)
        dU = dU + (dAV - mx.matmul(U, mx.matmul(Ut, dAV))) / s_dim.astype(A.dtype)
    if n > m:
        dAHU = mx.matmul(_H(dA), U)
        dV = dV + (dAHU - mx.matmul(V, mx.matmul(Vt, dAHU))) / s_dim.astype(A.dtype)
    return [s, U, Vt], [ds, dU, _H(dV)]


svd_p: Primitive = Primitive("svd", multiple_results=True)
svd_p.def_rules(Rules(abstract_eval=_svd_abstract_eval, lower=_svd_lower, jvp=_svd_jvp, batch=front_batcher(svd_p)))


def _lu_solve(a: Any, b: Any) -> Any:
    """``a^{-1} b`` for square ``a`` (batched), through its LU factorization with partial pivoting."""
    lu_, _, perm = lu(a)
    n = a.shape[-1]
    lower = mx.tril(lu_, -1) + mx.eye(n, lu_.dtype)
    y = triangular_solve(lower, mx.take_rows(b, perm), left_side=True, lower=True, unit_diagonal=True)
    return triangular_solve(mx.triu(lu_), y, left_side=True, lower=False)


# -- eig (general matrices) --------------------------------------------------------------------


def eig(x: ArrayLike, *, compute_left_eigenvectors: bool = False, compute_right_eigenvectors: bool = True) -> Any:
    """Eigenvalues (complex) and optionally left/right eigenvectors of a general square matrix."""
    out = eig_p.bind(x, compute_left_eigenvectors=bool(compute_left_eigenvectors), compute_right_eigenvectors=bool(compute_right_eigenvectors))
    return tuple(out)


def _eig_abstract_eval(x: ShapedArray, *, compute_left_eigenvectors: bool, compute_right_eigenvectors: bool) -> list[ShapedArray]:
    _check("eig", x, square=True)
    cdt = dtypes.to_complex_dtype(x.dtype)
    out = [ShapedArray(x.shape[:-1], cdt)]
    out += [ShapedArray(x.shape, cdt)] * (int(compute_left_eigenvectors) + int(compute_right_eigenvectors))
    return out


def _eig_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, compute_left_eigenvectors: bool, compute_right_eigenvectors: bool) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    b = aval.shape[:-2]
    real = aval.dtype.kind == "f"
    cdt = dtypes.to_complex_dtype(aval.dtype)
    w_aval = ShapedArray(aval.shape[:-1], aval.dtype)
    vec_aval = ShapedArray(aval.shape, cdt)
    info_aval = ShapedArray(b, np.dtype(np.int32))
    avals_out = ([w_aval] if real else []) + [w_aval, vec_aval, vec_aval, info_aval]
    mode: Any = getattr(lapack, "_lapack").eig.ComputationMode
    on, off = mode.kComputeEigenvectors.value, mode.kNoEigenvectors.value
    attrs = {"compute_left": lapack.u8_attr(on if compute_left_eigenvectors else off), "compute_right": lapack.u8_attr(on if compute_right_eigenvectors else off)}
    *w, vl, vr, info = lapack.ffi_call(lapack.target("geev_ffi", aval.dtype), [x], [aval], avals_out, attrs)
    wc: ir.Value[Any] = hlo.complex(w[0], w[1]) if real else w[0]
    ok = lapack.info_ok(info, b)
    out = [lapack.nan_where_not_ok(ok, b, wc, ShapedArray(aval.shape[:-1], cdt))]
    if compute_left_eigenvectors:
        out.append(lapack.nan_where_not_ok(ok, b, vl, vec_aval))
    if compute_right_eigenvectors:
        out.append(lapack.nan_where_not_ok(ok, b, vr, vec_aval))
    return out


def _eig_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, compute_left_eigenvectors: bool, compute_right_eigenvectors: bool) -> tuple[Any, Any]:
    (a,), (da,) = primals, tangents
    outs = eig_p.bind(a, compute_left_eigenvectors=compute_left_eigenvectors, compute_right_eigenvectors=compute_right_eigenvectors)
    if is_zero(da):
        return list(outs), [Zero.from_primal_value(o) for o in outs]
    if compute_left_eigenvectors or compute_right_eigenvectors:
        raise NotImplementedError(
            "The derivatives of eigenvectors are not implemented, only eigenvalues. See https://github.com/jax-ml/jax/issues/2748 for discussion."
        )
    w, v = eig_p.bind(a, compute_left_eigenvectors=False, compute_right_eigenvectors=True)
    dw = mx.diagonal(mx.matmul(_lu_solve(v, da.astype(v.dtype)), v), axis1=-2, axis2=-1)
    return [w], [dw]


eig_p: Primitive = Primitive("eig", multiple_results=True)
eig_p.def_rules(Rules(abstract_eval=_eig_abstract_eval, lower=_eig_lower, jvp=_eig_jvp, batch=front_batcher(eig_p)))
