"""More of JAX 0.12's ``lax``: ``erfc`` and ``log2`` (primitives, as in JAX),
``optimization_barrier`` (a multiple-result primitive over a pytree), and the compositions
``broadcast_like``, ``index_take`` and ``reduce_window_shape_tuple``.

Rules follow JAX's: ``erfc``'s jvp is ``-2/sqrt(pi) exp(-x^2) t``, ``log2``'s ``t / (x log 2)``;
both batch elementwise. ``optimization_barrier`` applies one barrier to the primals and another
to the nonzero tangents (JAX 0.12's ``_opt_barrier_jvp``), transposes to a barrier over the
nonzero cotangents, and batches as the identity on the batch dimensions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core._src.lax.api as lax
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import Zero, is_undefined_primal, per_arg_jvp
from jax_core._src.interpreters.batching_util import vectorized_batcher
from jax_core._src.lax.base import is_float, is_real_float, lower_with, unop_abstract_eval
from jax_core._src.lax.convolution_shapes import dilate_shape
from jax_core._src.lib.mlir import chlo, hlo, ir
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.tree.tree_util import tree_flatten, tree_unflatten
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

Value = ir.Value[Any]


def _c(x: Any, value: float) -> np.ndarray[Any, Any]:
    """A scalar constant of ``x``'s dtype."""
    return np.asarray(value, get_aval(x).dtype)


# -- erfc -----------------------------------------------------------------------------------------
def erfc(x: ArrayLike, /) -> Array:
    r"""Elementwise complementary error function: :math:`\mathrm{erfc}(x) = 1 - \mathrm{erf}(x)`.

    ``x`` must have a real floating-point dtype; unlike ``1 - erf(x)`` the result keeps its
    relative precision for large ``x``.
    """
    out: Array = erfc_p.bind(x)
    return out


def _erfc_d(g: Any, x: Any, **params: Any) -> Any:
    return lax.mul(_c(x, -2 / np.sqrt(np.pi)), lax.mul(g, lax.exp(lax.neg(lax.square(x)))))


erfc_p = Primitive("erfc")
erfc_p.def_rules(
    Rules(
        abstract_eval=unop_abstract_eval("erfc", is_real_float),
        lower=lower_with(chlo.erfc),
        jvp=per_arg_jvp(erfc_p, _erfc_d),
        batch=vectorized_batcher(erfc_p),
    )
)


# -- log2 -----------------------------------------------------------------------------------------
def log2(x: ArrayLike, /) -> Array:
    r"""Elementwise base-2 logarithm: :math:`\log_2(x)`.

    ``x`` must have a floating-point or complex dtype. Lowered as ``log(x) / log(2)``, as
    JAX lowers it.
    """
    out: Array = log2_p.bind(x)
    return out


def _log2_lower(ctx: LoweringRuleContext, x: Value) -> Value:
    two = hlo.constant(ir.DenseElementsAttr.get(np.asarray(2, ctx.avals_in[0].dtype), type=x.type))
    out: Value = hlo.divide(hlo.log(x), hlo.log(two))
    return out


def _log2_d(g: Any, x: Any, **params: Any) -> Any:
    return lax.div(g, lax.mul(x, lax.log(_c(x, 2))))


log2_p = Primitive("log2")
log2_p.def_rules(
    Rules(
        abstract_eval=unop_abstract_eval("log2", is_float),
        lower=_log2_lower,
        jvp=per_arg_jvp(log2_p, _log2_d),
        batch=vectorized_batcher(log2_p),
    )
)


# -- optimization_barrier -------------------------------------------------------------------------
def optimization_barrier[T](operand: T, /) -> T:
    """Prevents the compiler from moving operations across the barrier.

    ``operand`` is a pytree of arrays; the result has the same structure and values. Every
    output of the barrier that is used is evaluated before any operation that depends on one of
    the barrier's outputs; the barrier also prevents common-subexpression elimination and
    fusion across it. It has no effect outside a compiled function.
    """
    leaves, treedef = tree_flatten(operand)
    out: list[Any] = optimization_barrier_p.bind(*leaves)
    result: T = tree_unflatten(treedef, out)
    return result


def _barrier_abstract_eval(*avals: ShapedArray) -> list[ShapedArray]:
    return list(avals)


def _barrier_lower(ctx: LoweringRuleContext, *args: Value) -> list[Value]:
    if not args:
        return []
    barrier = hlo.OptimizationBarrierOp(list(args))
    return list(barrier.results)


def _barrier_nonzero(values: Sequence[Any]) -> list[Any]:
    """A barrier over the non-``Zero`` entries of ``values``; ``Zero`` entries pass through."""
    nz = [v for v in values if not isinstance(v, Zero)]
    if not nz:
        return list(values)
    out = iter(optimization_barrier_p.bind(*nz))
    return [v if isinstance(v, Zero) else next(out) for v in values]


def _barrier_jvp(primals: Sequence[Any], tangents: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    primals_out: list[Any] = optimization_barrier_p.bind(*primals)
    return primals_out, _barrier_nonzero(tangents)


def _barrier_transpose(cts: Sequence[Any], *args: Any) -> list[Any]:
    out = _barrier_nonzero(cts)
    return [ct if is_undefined_primal(a) else None for ct, a in zip(out, args)]


def _barrier_batch(
    args: Sequence[Any], dims: Sequence[int | None]
) -> tuple[list[Any], list[int | None]]:
    out: list[Any] = optimization_barrier_p.bind(*args)
    return out, list(dims)


optimization_barrier_p = Primitive("optimization_barrier", multiple_results=True)
optimization_barrier_p.def_rules(
    Rules(
        abstract_eval=_barrier_abstract_eval,
        lower=_barrier_lower,
        jvp=_barrier_jvp,
        transpose=_barrier_transpose,
        batch=_barrier_batch,
    )
)


# -- compositions ---------------------------------------------------------------------------------
def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """Broadcasts ``arr`` (NumPy-style, new leading dimensions) to the shape of ``like_arr``."""
    from jax_core._src.lax.shape_ops import broadcast_in_dim

    aval = get_aval(arr)
    shape = get_aval(like_arr).shape
    nlead = len(shape) - len(aval.shape)
    if nlead < 0:
        raise ValueError(
            f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}"
        )
    if not all(a in (1, s) for a, s in zip(aval.shape, shape[nlead:])):
        name = aval.dtype.name
        have, want = ",".join(map(str, aval.shape)), ",".join(map(str, shape))
        raise ValueError(
            f"Incompatible types for broadcasting: input type={name}[{have}] and requested type={name}[{want}]"
        )
    return broadcast_in_dim(arr, shape, tuple(range(nlead, len(shape))))


def index_take(src: ArrayLike, idxs: Sequence[ArrayLike], axes: Sequence[int]) -> Array:
    """Gathers ``src`` at the integer index arrays ``idxs``, one per axis in ``axes``.

    The index arrays share one 1-D shape ``(n,)``; indices wrap modulo each axis's size. The
    result has shape ``(n, *rest)`` where ``rest`` are the dimensions of ``src`` not in ``axes``.
    """
    from jax_core._src.lax.gather_scatter import GatherDimensionNumbers, gather
    from jax_core._src.lax.shape_ops import concatenate, expand_dims

    src_shape = get_aval(src).shape
    indices = concatenate([expand_dims(i, (1,)) for i in idxs], 1)
    ind_aval = get_aval(indices)
    max_idx = expand_dims(
        np.array([src_shape[ax] for ax in axes], ind_aval.dtype), tuple(range(ind_aval.ndim - 1))
    )
    indices = lax.rem(indices, max_idx)
    indices = lax.select(
        lax.lt(indices, _c(indices, 0)), lax.add(indices, max_idx), indices
    )  # Python's %
    slice_sizes = list(src_shape)
    for ax in axes:
        slice_sizes[ax] = 1
    offset_dims = tuple(range(1, len(src_shape) - ind_aval.shape[1] + 1))
    dnums = GatherDimensionNumbers(
        offset_dims=offset_dims, collapsed_slice_dims=tuple(axes), start_index_map=tuple(axes)
    )
    return gather(src, indices, dimension_numbers=dnums, slice_sizes=tuple(slice_sizes))


def reduce_window_shape_tuple(
    operand_shape: Sequence[int],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """The output shape of a ``reduce_window`` over ``operand_shape`` (JAX's helper)."""
    if base_dilation is not None:
        operand_shape = dilate_shape(operand_shape, base_dilation)
    if window_dilation is not None:
        window_dimensions = dilate_shape(window_dimensions, window_dilation)
    padded = tuple(d + lo + hi for d, (lo, hi) in zip(operand_shape, padding))
    return tuple(
        max((d - w) // s + 1, 0) for d, w, s in zip(padded, window_dimensions, window_strides)
    )
