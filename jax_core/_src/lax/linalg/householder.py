"""Householder reflectors on LAPACK: ``householder_product_p`` (``orgqr``/``ungqr``), ``ormqr_p``
(``ormqr``/``unmqr``) and the column-pivoted QR factorization ``geqp3_p``.

A QR factorization stores ``Q`` as elementary reflectors ``H_i = I - tau_i v_i v_i^H`` (``v_i``
below the diagonal of column ``i``, unit diagonal implied). ``householder_product`` forms their
product, ``ormqr`` applies it (or its adjoint) to a matrix from either side without forming it,
and ``geqp3`` computes the reflectors of ``a[:, jpvt]`` with LAPACK's column pivoting. As in
JAX, none of them has a derivative; all batch over leading dimensions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lax.linalg import lapack
from jax_core._src.lax.linalg.decompositions import front_batcher
from jax_core._src.lax.linalg.operand_checks import INEXACT, check_dtypes, split_batch
from jax_core._src.lax.linalg.schur import no_jvp
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_INTS = tuple(np.dtype(d) for d in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64))

# -- householder_product ----------------------------------------------------------------------


def householder_product(a: ArrayLike, taus: ArrayLike) -> Array:
    """The product of the elementary Householder reflectors held in ``a`` (``[..., m, n]``, below
    the diagonal) with scale factors ``taus`` (``[..., k]``, ``k <= min(m, n)``): an orthogonal
    (unitary) matrix of ``a``'s shape."""
    out: Array = householder_product_p.bind(a, taus)
    return out


def _hp_abstract_eval(a: ShapedArray, taus: ShapedArray) -> ShapedArray:
    _, (a_core, t_core) = split_batch("householder_product", [a, taus], [2, 1])
    m, n = a_core
    if m < n:
        raise ValueError(f"The first argument to householder_product must have at least as many rows as columns, got shape {a_core}")
    if t_core[0] > min(m, n):
        raise ValueError(
            "The second argument to householder_product must not have more rows than the minimum of the first argument's rows and columns."
        )
    check_dtypes("householder_product", [a, taus], [INEXACT, INEXACT])
    return ShapedArray(a.shape, a.dtype)


def _hp_lower(ctx: LoweringRuleContext, a: ir.Value[Any], taus: ir.Value[Any]) -> list[ir.Value[Any]]:
    a_aval, t_aval = ctx.avals_in
    name = "ungqr_ffi" if a_aval.dtype.kind == "c" else "orgqr_ffi"
    return lapack.ffi_call(lapack.target(name, a_aval.dtype), [a, taus], [a_aval, t_aval], [ctx.avals_out[0]], {}, aliases={0: 0})


householder_product_p: Primitive = Primitive("householder_product")
householder_product_p.def_rules(
    Rules(abstract_eval=_hp_abstract_eval, lower=_hp_lower, jvp=no_jvp("householder_product"), batch=front_batcher(householder_product_p))
)


# -- ormqr --------------------------------------------------------------------------------------


def ormqr(a: ArrayLike, taus: ArrayLike, c: ArrayLike, *, left: bool = True, transpose: bool = False) -> Array:
    """``Q @ c`` (``left``) or ``c @ Q`` for the ``Q`` of the reflectors ``(a, taus)`` of a QR
    factorization, without forming ``Q``; ``transpose`` uses ``Q^T`` (``Q^H`` if complex)."""
    out: Array = ormqr_p.bind(a, taus, c, left=bool(left), transpose=bool(transpose))
    return out


def _ormqr_abstract_eval(a: ShapedArray, taus: ShapedArray, c: ShapedArray, *, left: bool, transpose: bool) -> ShapedArray:
    _, (a_core, _t, c_core) = split_batch("ormqr", [a, taus, c], [2, 1, 2])
    m = a_core[0]
    if left and c_core[0] != m:
        raise ValueError(
            "ormqr with left=True expects c to have the same number of rows as the Householder matrix a. "
            f"Got a shape {a_core} and c shape {c_core}."
        )
    if not left and c_core[1] != m:
        raise ValueError(
            "ormqr with left=False expects c to have the same number of columns as the Householder matrix a has rows. "
            f"Got a shape {a_core} and c shape {c_core}."
        )
    check_dtypes("ormqr", [a, taus, c], [INEXACT, INEXACT, INEXACT])
    return ShapedArray(c.shape, c.dtype)


def _ormqr_lower(
    ctx: LoweringRuleContext, a: ir.Value[Any], taus: ir.Value[Any], c: ir.Value[Any], *, left: bool, transpose: bool
) -> list[ir.Value[Any]]:
    a_aval = ctx.avals_in[0]
    name = "unmqr_ffi" if a_aval.dtype.kind == "c" else "ormqr_ffi"
    attrs = {"left": ir.BoolAttr.get(left), "transpose": ir.BoolAttr.get(transpose)}
    return lapack.ffi_call(lapack.target(name, a_aval.dtype), [a, taus, c], list(ctx.avals_in), [ctx.avals_out[0]], attrs, aliases={2: 0})


ormqr_p: Primitive = Primitive("ormqr")
ormqr_p.def_rules(Rules(abstract_eval=_ormqr_abstract_eval, lower=_ormqr_lower, jvp=no_jvp("ormqr"), batch=front_batcher(ormqr_p)))


# -- geqp3 --------------------------------------------------------------------------------------


def geqp3(a: ArrayLike, jpvt: ArrayLike, *, use_magma: bool | None = None) -> tuple[Array, Array, Array]:
    """Column-pivoted QR: ``(a, jpvt, taus)`` with ``r`` in ``a``'s upper triangle, the reflectors
    below it, and the (1-based, LAPACK's) column order ``jpvt``."""
    a_out, jpvt_out, taus = geqp3_p.bind(a, jpvt, use_magma=use_magma)
    return a_out, jpvt_out, taus


def _geqp3_abstract_eval(a: ShapedArray, jpvt: ShapedArray, *, use_magma: bool | None) -> list[ShapedArray]:
    _, (a_core, _j) = split_batch("geqp3", [a, jpvt], [2, 1])
    check_dtypes("geqp3", [a, jpvt], [INEXACT, _INTS], same=False)
    m, n = a_core
    return [ShapedArray(a.shape, a.dtype), ShapedArray(jpvt.shape, jpvt.dtype), ShapedArray((*a.shape[:-2], min(m, n)), a.dtype)]


def _geqp3_lower(ctx: LoweringRuleContext, a: ir.Value[Any], jpvt: ir.Value[Any], *, use_magma: bool | None) -> list[ir.Value[Any]]:
    a_aval = ctx.avals_in[0]
    return lapack.ffi_call(
        lapack.target("geqp3_ffi", a_aval.dtype), [a, jpvt], list(ctx.avals_in), list(ctx.avals_out), {}, aliases={0: 0, 1: 1}
    )


geqp3_p: Primitive = Primitive("geqp3", multiple_results=True)
geqp3_p.def_rules(Rules(abstract_eval=_geqp3_abstract_eval, lower=_geqp3_lower, jvp=no_jvp("geqp3"), batch=front_batcher(geqp3_p)))


