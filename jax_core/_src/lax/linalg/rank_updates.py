"""Low-rank products of real matrices: ``cholesky_update_p`` and ``symmetric_product_p``.

``cholesky_update`` turns the upper factor ``R`` of ``A = R^T R`` into that of ``A + w w^T`` with
``n`` Givens rotations (LINPACK's ``dchud`` without the extra vectors), in ``O(n^2)``;
``symmetric_product`` computes ``alpha A A^T + beta C``. Both lower to lax programs, as JAX's do on
CPU. As in JAX neither has a derivative, and ``cholesky_update`` takes exactly one matrix (no
batch dimensions, no batching rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.control_flow.common import lower_fun
from jax_core._src.lax.linalg.decompositions import front_batcher
from jax_core._src.lax.linalg.dot import Precision, batch_matmul
from jax_core._src.lax.linalg.operand_checks import FLOAT, check_dtypes, split_batch
from jax_core._src.lax.linalg.schur import no_jvp
from jax_core._src.lax.shape.dimensions import transpose
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- cholesky_update ------------------------------------------------------------------------------


def cholesky_update(r_matrix: ArrayLike, w_vector: ArrayLike) -> Array:
    """The upper Cholesky factor of ``A + w w^T`` from that of ``A = R^T R`` (``r_matrix``)."""
    out: Array = cholesky_update_p.bind(r_matrix, w_vector)
    return out


def _cu_abstract_eval(r: ShapedArray, w: ShapedArray) -> ShapedArray:
    _, (r_core, w_core) = split_batch("cholesky_update", [r, w], [2, 1], batching=False)
    if r_core[0] != r_core[1] or w_core[0] != r_core[1]:
        raise ValueError(
            "Rank-1 update to Cholesky decomposition takes a square matrix and a vector of the same size as input. "
            f"Got shapes {r_core} and {w_core} instead"
        )
    check_dtypes("cholesky_update", [r, w], [FLOAT, FLOAT])
    return ShapedArray(r.shape, r.dtype)


def _givens(x: Any, y: Any) -> tuple[Any, Any]:
    """The rotation ``(c, s)`` taking ``(x, y)`` to ``(r, 0)``, scaled against overflow."""
    from jax_core._src.lax.control_flow.conditionals import cond

    def nonzero(x: Any, y: Any) -> tuple[Any, Any]:
        ax, ay = ew.abs(x), ew.abs(y)
        scale = ew.select(ew.gt(ax, ay), ax, ay)
        xs, ys = x / scale, y / scale
        rh = 1 / ew.sqrt(ew.integer_pow(xs, 2) + ew.integer_pow(ys, 2))
        return xs * rh, -ys * rh

    def identity(x: Any, y: Any) -> tuple[Any, Any]:
        return np.ones((), x.dtype), np.zeros((), x.dtype)

    out: tuple[Any, Any] = cond(ew.eq(y, np.zeros((), x.dtype)), identity, nonzero, x, y)
    return out


def _cholesky_update_program(r: Any, z: Any) -> Any:
    for k in range(z.shape[0]):
        c, s = _givens(r[k, k], z[k])
        row = r[k, :]
        row, z = c * row - s * z, c * z + s * row
        r = r.at[k, :].set(row)
    return r


def _cu_lower(ctx: LoweringRuleContext, r: ir.Value[Any], w: ir.Value[Any]) -> list[ir.Value[Any]]:
    def program(a: Any, b: Any) -> list[Any]:
        return [_cholesky_update_program(a, b)]

    return lower_fun(program, ctx.avals_in, [r, w])


def _cu_batch(args: Sequence[Any], dims: Sequence[int | None]) -> Any:
    raise NotImplementedError("Batching rule for 'cholesky_update' not implemented")


cholesky_update_p: Primitive = Primitive("cholesky_update")
cholesky_update_p.def_rules(Rules(abstract_eval=_cu_abstract_eval, lower=_cu_lower, jvp=no_jvp("cholesky_update"), batch=_cu_batch))


# -- symmetric_product ----------------------------------------------------------------------------


def symmetric_product(
    a_matrix: ArrayLike, c_matrix: ArrayLike, *, alpha: float = 1.0, beta: float = 0.0, symmetrize_output: bool = False
) -> Array:
    """``alpha * A @ A.T + beta * C`` for ``A`` ``[..., m, n]`` and symmetric ``C`` ``[..., m, m]``;
    only the lower triangle is guaranteed unless ``symmetrize_output`` mirrors it upward."""
    from jax_core._src.lax.linalg import matrix_ops as mx

    result: Array = symmetric_product_p.bind(a_matrix, c_matrix, alpha=alpha, beta=beta)
    if symmetrize_output:
        nd = result.ndim
        upper = transpose(mx.tril(result, -1), (*range(nd - 2), nd - 1, nd - 2))
        result = mx.tril(result, 0) + upper
    return result


def _sp_abstract_eval(a: ShapedArray, c: ShapedArray, *, alpha: float, beta: float) -> ShapedArray:
    _, (a_core, c_core) = split_batch("symmetric_product", [a, c], [2, 2])
    if a_core[0] != c_core[1] or c_core[0] != c_core[1]:
        raise ValueError(
            "symmetric_update expects a rectangular matrix of shape (m, n) and a square matrix of shape (n, n). "
            f"Got shapes {a_core} and {c_core}."
        )
    check_dtypes("symmetric_product", [a, c], [FLOAT, FLOAT])
    return ShapedArray(c.shape, c.dtype)


def _symmetric_product_program(a: Any, c: Any, alpha: float, beta: float) -> Any:
    nd = a.ndim
    a_t = transpose(a, (*range(nd - 2), nd - 1, nd - 2))
    return alpha * batch_matmul(a, a_t, precision=Precision.HIGHEST) + beta * c


def _sp_lower(ctx: LoweringRuleContext, a: ir.Value[Any], c: ir.Value[Any], *, alpha: float, beta: float) -> list[ir.Value[Any]]:
    def program(x: Any, y: Any) -> list[Any]:
        return [_symmetric_product_program(x, y, alpha, beta)]

    return lower_fun(program, ctx.avals_in, [a, c])


symmetric_product_p: Primitive = Primitive("symmetric_product")
symmetric_product_p.def_rules(
    Rules(abstract_eval=_sp_abstract_eval, lower=_sp_lower, jvp=no_jvp("symmetric_product"), batch=front_batcher(symmetric_product_p))
)
