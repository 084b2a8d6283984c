"""Tridiagonal matrices on LAPACK: the reduction ``tridiagonal_p`` (``sytrd``/``hetrd``) and the
solver ``tridiagonal_solve_p`` (``gtsv``, or jaxlib's perturbed LU for singular systems).

``tridiagonal`` reduces a symmetric (Hermitian) matrix to ``Q T Q^H`` with ``T`` tridiagonal: it
returns the packed matrix, ``T``'s diagonal ``d`` and off-diagonal ``e`` (real) and the reflector
scales. It has no derivative, as in JAX. ``tridiagonal_solve`` solves ``A X = B`` for the
tridiagonal ``A`` given by its three diagonals; its jvp, its transpose in ``B`` and its batching
rule are JAX's (unbatched diagonals fold the batch into ``B``'s columns).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import Zero, add_tangents, instantiate_zeros, is_undefined_primal, is_zero
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front, moveaxis
from jax_core._src.lax.linalg import lapack
from jax_core._src.lax.linalg import matrix_ops as mx
from jax_core._src.lax.linalg.decompositions import front_batcher
from jax_core._src.lax.linalg.operand_checks import INEXACT, check_dtypes, real_dtype, split_batch
from jax_core._src.lax.linalg.schur import no_jvp
from jax_core._src.lax.shape.assembly import concatenate
from jax_core._src.lax.shape.dimensions import expand_dims
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- tridiagonal --------------------------------------------------------------------------------


def tridiagonal(a: ArrayLike, *, lower: bool = True) -> tuple[Array, Array, Array, Array]:
    """Reduces symmetric/Hermitian ``a`` (its ``lower`` or upper triangle) to tridiagonal form:
    ``(a, d, e, taus)`` — the packed result, the diagonal, the first sub/superdiagonal and the
    Householder scale factors."""
    arr, d, e, taus = tridiagonal_p.bind(a, lower=bool(lower))
    return arr, d, e, taus


def _tri_abstract_eval(a: ShapedArray, *, lower: bool) -> list[ShapedArray]:
    _, (dims,) = split_batch("tridiagonal", [a], [2])
    if dims[0] != dims[1] or dims[1] == 0:
        raise ValueError(f"The input to tridiagonal must be a square matrix. Got shape {dims}.")
    check_dtypes("tridiagonal", [a], [INEXACT])
    batch, n = a.shape[:-2], a.shape[-1]
    rdt = real_dtype(a.dtype)
    return [
        ShapedArray(a.shape, a.dtype), ShapedArray((*batch, n), rdt), ShapedArray((*batch, n - 1), rdt),
        ShapedArray((*batch, n - 1), a.dtype),
    ]  # fmt: skip


def _tri_lower(ctx: LoweringRuleContext, a: ir.Value[Any], *, lower: bool) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    batch = aval.shape[:-2]
    name = "hetrd_ffi" if aval.dtype.kind == "c" else "sytrd_ffi"
    avals_out = [*ctx.avals_out, ShapedArray(batch, np.dtype(np.int32))]
    *outs, info = lapack.ffi_call(
        lapack.target(name, aval.dtype), [a], [aval], avals_out, {"uplo": lapack.char_attr("L" if lower else "U")}, aliases={0: 0}
    )
    ok = lapack.info_ok(info, batch)
    return [lapack.nan_where_not_ok(ok, batch, x, av) for x, av in zip(outs, ctx.avals_out, strict=True)]


tridiagonal_p: Primitive = Primitive("tridiagonal", multiple_results=True)
tridiagonal_p.def_rules(
    Rules(abstract_eval=_tri_abstract_eval, lower=_tri_lower, jvp=no_jvp("tridiagonal"), batch=front_batcher(tridiagonal_p))
)


# -- tridiagonal_solve ----------------------------------------------------------------------------


def tridiagonal_solve(dl: ArrayLike, d: ArrayLike, du: ArrayLike, b: ArrayLike, *, perturb_singular: bool = False) -> Array:
    """Solves ``A X = B`` for tridiagonal ``A`` with lower diagonal ``dl`` (``dl[0] = 0``), diagonal
    ``d`` and upper diagonal ``du`` (``du[-1] = 0``), each ``[..., m]``; ``b`` is ``[..., m, n]``.
    ``perturb_singular`` perturbs tiny pivots so that singular systems give finite results."""
    out: Array = tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=bool(perturb_singular))
    return out


def _ts_abstract_eval(dl: ShapedArray, d: ShapedArray, du: ShapedArray, b: ShapedArray, *, perturb_singular: bool) -> ShapedArray:
    split_batch("tridiagonal_solve", [dl, d, du, b], [1, 1, 1, 2])
    if dl.shape != d.shape or dl.shape != du.shape:
        raise TypeError("tridiagonal_solve requires that all diagonal arguments have the same shape.")
    if dl.shape != b.shape[:-1]:
        raise TypeError("tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the dimensions of the diagonal arguments.")
    check_dtypes("tridiagonal_solve", [dl, d, du, b], [INEXACT] * 4)
    return ShapedArray(b.shape, b.dtype)


def _ts_lower(
    ctx: LoweringRuleContext, dl: ir.Value[Any], d: ir.Value[Any], du: ir.Value[Any], b: ir.Value[Any], *, perturb_singular: bool
) -> list[ir.Value[Any]]:
    b_aval = ctx.avals_in[-1]
    batch = b_aval.shape[:-2]
    gtsv = lapack.target("gtsv_ffi", b_aval.dtype)
    if perturb_singular:
        return lapack.ffi_call("tridiagonal_solve_perturbed_ffi", [dl, d, du, b], list(ctx.avals_in), [b_aval], {})
    info_aval = ShapedArray(batch, np.dtype(np.int32))
    *_, x, info = lapack.ffi_call(
        gtsv, [dl, d, du, b], list(ctx.avals_in), [*ctx.avals_in, info_aval], {}, aliases={0: 0, 1: 1, 2: 2, 3: 3}
    )
    return [lapack.nan_where_not_ok(lapack.info_ok(info, batch), batch, x, b_aval)]


def _tridiagonal_product(dl: Any, d: Any, du: Any, b: Any) -> Any:
    nd = b.ndim
    y = expand_dims(d, (nd - 1,)) * b
    below = expand_dims(dl[..., 1:], (nd - 1,)) * b[..., :-1, :]
    above = expand_dims(du[..., :-1], (nd - 1,)) * b[..., 1:, :]
    pads_below = [(0, 0)] * (nd - 2) + [(1, 0), (0, 0)]
    pads_above = [(0, 0)] * (nd - 2) + [(0, 1), (0, 0)]
    return y + mx.pad(below, pads_below) + mx.pad(above, pads_above)


def _ts_jvp(primals: Sequence[Any], tangents: Sequence[Any], *, perturb_singular: bool) -> tuple[Any, Any]:
    *diags, _ = primals
    *diags_dot, b_dot = tangents
    ans = tridiagonal_solve_p.bind(*primals, perturb_singular=perturb_singular)
    if all(is_zero(t) for t in diags_dot):
        rhs = b_dot
    else:
        dl_dot, d_dot, du_dot = (instantiate_zeros(t) for t in diags_dot)
        rhs = add_tangents(b_dot, -_tridiagonal_product(dl_dot, d_dot, du_dot, ans))
    if is_zero(rhs):
        return ans, Zero.from_primal_value(ans)
    return ans, tridiagonal_solve_p.bind(*diags, rhs, perturb_singular=perturb_singular)


def _ts_transpose(ct: Any, dl: Any, d: Any, du: Any, b: Any, *, perturb_singular: bool) -> list[Any]:
    assert not (is_undefined_primal(dl) or is_undefined_primal(d) or is_undefined_primal(du)) and is_undefined_primal(b)
    if is_zero(ct):
        return [None, None, None, Zero(b.aval)]
    last = du.ndim - 1
    dl_t = concatenate([mx.pad(du[..., -1:] * 0, [(0, 0)] * du.ndim), du[..., :-1]], last)
    du_t = concatenate([dl[..., 1:], dl[..., :1] * 0], last)
    return [None, None, None, tridiagonal_solve_p.bind(dl_t, d, du_t, instantiate_zeros(ct), perturb_singular=perturb_singular)]


def _ts_batch(args: Sequence[Any], dims: Sequence[int | None], *, perturb_singular: bool) -> tuple[Any, int]:
    dl, d, du, b = args
    bdl, bd, bdu, bb = dims
    if bdl is None and bd is None and bdu is None:
        assert bb is not None
        b = moveaxis(b, bb, b.ndim - 2)
        flat = mx.reshape(b, (*b.shape[:-3], b.shape[-3], b.shape[-2] * b.shape[-1]))
        out = tridiagonal_solve_p.bind(dl, d, du, flat, perturb_singular=perturb_singular)
        return mx.reshape(out, b.shape), b.ndim - 2
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, dim, size) for x, dim in zip(args, dims, strict=True)]
    return tridiagonal_solve_p.bind(*moved, perturb_singular=perturb_singular), 0


tridiagonal_solve_p: Primitive = Primitive("tridiagonal_solve")
tridiagonal_solve_p.def_rules(
    Rules(abstract_eval=_ts_abstract_eval, lower=_ts_lower, jvp=_ts_jvp, transpose=_ts_transpose, batch=_ts_batch)
)
