"""The Schur and Hessenberg forms of square matrices: ``schur_p`` and ``hessenberg_p`` on LAPACK.

``schur`` lowers to LAPACK's ``gees`` (the real or complex Schur form ``T`` and, optionally, the
Schur vectors ``Z`` with ``A = Z T Z^H``); ``hessenberg`` to ``gehrd`` (the upper Hessenberg form
with the Householder reflectors packed below its first subdiagonal, and their scale factors).
Batch elements whose LAPACK call fails are NaN. As in JAX, neither has a derivative (only CPU
kernels exist, and JAX registers no jvp), and both batch over leading dimensions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lax.linalg import lapack
from jax_core._src.lax.linalg.decompositions import front_batcher
from jax_core._src.lax.linalg.operand_checks import INEXACT, check_dtypes, split_batch
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def no_jvp(name: str) -> Callable[..., Any]:
    """The jvp rule of a primitive JAX does not differentiate: JAX's error, at differentiation time."""

    def rule(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> Any:
        raise NotImplementedError(f"Differentiation rule for '{name}' not implemented")

    return rule


def _enum_attr(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_unsigned(8), int(value))


def _i32_attr(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(32), int(value))


# -- schur ------------------------------------------------------------------------------------


def schur(
    x: ArrayLike, *, compute_schur_vectors: bool = True, sort_eig_vals: bool = False,
    select_callable: Callable[..., Any] | None = None,
) -> tuple[Array, Array]:
    """The Schur decomposition ``A = Q U Q^H`` of square ``x``: ``(U, Q)`` (only ``U``, in a
    1-tuple, without ``compute_schur_vectors``). ``sort_eig_vals`` and ``select_callable`` are
    accepted for JAX's signature; sorting is not implemented (as in JAX on CPU)."""
    out = schur_p.bind(
        x, compute_schur_vectors=bool(compute_schur_vectors), sort_eig_vals=bool(sort_eig_vals),
        select_callable=select_callable,
    )
    return tuple(out)


def _schur_abstract_eval(x: ShapedArray, *, compute_schur_vectors: bool, **unused: Any) -> list[ShapedArray]:
    _, (dims,) = split_batch("schur", [x], [2])
    if dims[0] != dims[1]:
        raise ValueError(f"The input to schur must be a square matrix. Got shape {dims}.")
    check_dtypes("schur", [x], [INEXACT])
    out = ShapedArray(x.shape, x.dtype)
    return [out, out] if compute_schur_vectors else [out]


def _schur_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, compute_schur_vectors: bool, sort_eig_vals: bool,
    select_callable: Callable[..., Any] | None,
) -> list[ir.Value[Any]]:
    del select_callable
    if sort_eig_vals:
        raise NotImplementedError("The sort feature of LAPACK's gees routine is not implemented.")
    aval = ctx.avals_in[0]
    batch = aval.shape[:-2]
    info_aval = ShapedArray(batch, np.dtype(np.int32))
    w_aval = ShapedArray(aval.shape[:-1], aval.dtype)
    real = aval.dtype.kind == "f"
    avals_out = [aval, aval, w_aval, w_aval, info_aval, info_aval] if real else [aval, aval, w_aval, info_aval, info_aval]
    modes: Any = getattr(lapack, "_lapack").schur
    mode = modes.ComputationMode.kComputeSchurVectors if compute_schur_vectors else modes.ComputationMode.kNoComputeSchurVectors
    attrs = {"mode": _enum_attr(mode.value), "sort": _enum_attr(modes.Sort.kNoSortEigenvalues.value)}
    t, z, *_, info = lapack.ffi_call(lapack.target("gees_ffi", aval.dtype), [x], [aval], avals_out, attrs, aliases={0: 0})
    ok = lapack.info_ok(info, batch)
    out = [lapack.nan_where_not_ok(ok, batch, t, aval)]
    if compute_schur_vectors:
        out.append(lapack.nan_where_not_ok(ok, batch, z, aval))
    return out


schur_p: Primitive = Primitive("schur", multiple_results=True)
schur_p.def_rules(Rules(abstract_eval=_schur_abstract_eval, lower=_schur_lower, jvp=no_jvp("schur"), batch=front_batcher(schur_p)))


# -- hessenberg -------------------------------------------------------------------------------


def hessenberg(a: ArrayLike) -> tuple[Array, Array]:
    """The upper Hessenberg reduction of square ``a``: ``(a, taus)``, the Hessenberg matrix in the
    upper triangle and first subdiagonal, the Householder reflectors below, and their scale factors."""
    h, taus = hessenberg_p.bind(a)
    return h, taus


def _hessenberg_abstract_eval(a: ShapedArray) -> list[ShapedArray]:
    _, (dims,) = split_batch("hessenberg", [a], [2])
    if dims[0] != dims[-1]:
        raise ValueError(f"Argument to Hessenberg reduction must have shape [..., n, n], got shape {dims}")
    check_dtypes("hessenberg", [a], [INEXACT])
    return [ShapedArray(a.shape, a.dtype), ShapedArray((*a.shape[:-2], a.shape[-1] - 1), a.dtype)]


def _hessenberg_lower(ctx: LoweringRuleContext, a: ir.Value[Any]) -> list[ir.Value[Any]]:
    aval = ctx.avals_in[0]
    h_aval, taus_aval = ctx.avals_out
    batch = aval.shape[:-2]
    n = aval.shape[-1]
    avals_out = [h_aval, taus_aval, ShapedArray(batch, np.dtype(np.int32))]
    h, taus, info = lapack.ffi_call(
        lapack.target("gehrd_ffi", aval.dtype), [a], [aval], avals_out, {"low": _i32_attr(1), "high": _i32_attr(n)}, aliases={0: 0}
    )
    ok = lapack.info_ok(info, batch)
    return [lapack.nan_where_not_ok(ok, batch, h, h_aval), lapack.nan_where_not_ok(ok, batch, taus, taus_aval)]


hessenberg_p: Primitive = Primitive("hessenberg", multiple_results=True)
hessenberg_p.def_rules(
    Rules(abstract_eval=_hessenberg_abstract_eval, lower=_hessenberg_lower, jvp=no_jvp("hessenberg"), batch=front_batcher(hessenberg_p))
)
