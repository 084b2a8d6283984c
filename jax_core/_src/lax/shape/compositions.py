"""Shape compositions of lax (as JAX 0.12 has them): ``full``/``full_like``/``empty``,
``broadcast_shapes``, ``collapse``, ``broadcast_like``, ``shape_as_value``, and the primitives
``tile``, ``split``, ``stack`` and ``unstack`` (each one block with its rules, lowered as JAX lowers
them: reshapes and a broadcast, slices, broadcasts and a tree of concatenations)."""

from __future__ import annotations

import builtins
import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front
from jax_core._src.lax import elementwise as _lax
from jax_core._src.lax import standard_rules as _base
from jax_core._src.lax.reductions.reduce import reduce_sum
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array


# -- compositions ---------------------------------------------------------------------------------
def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """Broadcasts ``arr`` (NumPy-style, new leading dimensions) to the shape of ``like_arr``."""
    from jax_core._src.lax.shape.dimensions import broadcast_in_dim

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






# -- creation -----------------------------------------------------------------------------------
def full(shape: ShapeLike, fill_value: ArrayLike, dtype: DTypeLike | None = None) -> Array:
    """An array of ``shape`` filled with the scalar ``fill_value`` (cast to ``dtype`` if given).

    Without ``dtype`` the result has ``fill_value``'s dtype and weak type (``full((2,), 3)``
    is a weakly typed int32 array). JAX's ``sharding`` keyword is not supported.
    """
    dims = shape_dims.canonicalize_shape(shape)
    if shape_dims.shape_of(fill_value):
        raise TypeError(
            f"full must be called with scalar fill_value, got fill_value.shape {shape_dims.shape_of(fill_value)}."
        )
    if dtype is None:
        weak = dtypes.is_weakly_typed(fill_value)
        fill_dtype = dtypes.dtype(fill_value, canonicalize=True)
    else:
        weak = False
        fill_dtype = dtypes.canonicalize_dtype(dtype)
    return shape_dims.broadcast(_lax.to_dtype(fill_value, fill_dtype, weak), dims)


def full_like(
    x: ArrayLike,
    fill_value: ArrayLike,
    dtype: DTypeLike | None = None,
    shape: ShapeLike | None = None,
) -> Array:
    """An array like ``x`` (its shape and dtype, unless ``shape``/``dtype`` are given) filled
    with ``fill_value``; weakly typed when ``x`` is and ``dtype`` is ``None``.

    JAX's ``sharding`` argument is not supported.
    """
    fill_shape = shape_dims.shape_of(x) if shape is None else shape_dims.canonicalize_shape(shape)
    weak = dtype is None and dtypes.is_weakly_typed(x)
    dt = (
        dtypes.canonicalize_dtype(dtype)
        if dtype is not None
        else dtypes.dtype(x, canonicalize=True)
    )
    return full(fill_shape, _lax.to_dtype(fill_value, dt, weak))


def empty(shape: ShapeLike, dtype: DTypeLike) -> Array:
    """An array of ``shape`` and ``dtype`` whose values are unspecified (zeros here).

    JAX's ``out_sharding`` keyword is not supported.
    """
    return full(shape, 0, dtype)


# -- shapes -------------------------------------------------------------------------------------
def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to under NumPy's rules.

    Raises ``ValueError`` for incompatible shapes. One shape is returned as given.
    """
    if len(shapes) == 1:
        only: Any = shapes[0]
        return only  # type: ignore[no-any-return]  # JAX returns a single shape unchanged
    if not shapes:
        raise ValueError("broadcast_shapes requires at least one shape")
    tuples = [tuple(int(d) for d in s) for s in shapes]
    try:
        return _base.numpy_broadcast_shapes("broadcast_shapes", *tuples)
    except TypeError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={tuples}") from None


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """``operand`` with dimensions ``[start_dimension, stop_dimension)`` merged into one.

    ``stop_dimension=None`` collapses through the last dimension; negative values count from
    the end, as in a Python slice.
    """
    shape = shape_dims.shape_of(operand)
    lo, hi, _ = builtins.slice(start_dimension, stop_dimension).indices(len(shape))
    if hi < lo:
        raise ValueError(
            f"Invalid dimension range passed to collapse: {shape}[{start_dimension}:{stop_dimension}]"
        )
    new_shape = (*shape[:lo], math.prod(shape[lo:hi]), *shape[hi:])
    return shape_dims.reshape(operand, new_shape)


# -- tile, split, stack, unstack: primitives of their own, as in JAX --------------------------
def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along each dimension ``i`` (``len(reps) == ndim``)."""
    reps_t = tuple(operator.index(r) for r in reps)
    if any(r < 0 for r in reps_t):
        raise ValueError(f"reps must be nonnegative, got {reps_t}")
    return bind_one(tile_p, operand, reps=reps_t)


tile_p: Primitive = Primitive("tile")


def _tile_abstract_eval(x: ShapedArray, *, reps: tuple[int, ...]) -> ShapedArray:
    if x.ndim != len(reps):
        raise TypeError(
            f"reps length must be equal to the ndim of x, got len(reps)={len(reps)} and x.ndim={x.ndim}."
        )
    return ShapedArray(tuple(d * r for d, r in zip(x.shape, reps)), x.dtype, x.weak_type)


def _tile_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, reps: tuple[int, ...]) -> ir.Value[Any]:
    (x_aval,), (aval_out,) = ctx.avals_in, ctx.avals_out
    # (d0, d1, ...) -> (1, d0, 1, d1, ...) -> (r0, d0, r1, d1, ...) -> (r0*d0, r1*d1, ...)
    expanded = ShapedArray(tuple(k for d in x_aval.shape for k in (1, d)), x_aval.dtype)
    reshaped = hlo.reshape(aval_to_ir_type(expanded), x)
    spread = ShapedArray(tuple(k for pair in zip(reps, x_aval.shape) for k in pair), x_aval.dtype)
    broadcast = hlo_util.broadcast_in_dim(reshaped, spread, tuple(range(2 * x_aval.ndim)))
    out: ir.Value[Any] = hlo.reshape(aval_to_ir_type(aval_out), broadcast)
    return out


def _tile_transpose(ct: Any, operand: Any, *, reps: tuple[int, ...]) -> list[Any]:
    if ad_util.is_zero(ct):
        return [ad_util.Zero(operand.aval)]
    if not ad_util.is_undefined_primal(operand):
        return [None]
    shape = operand.aval.shape
    pieces = shape_dims.reshape(ct, tuple(k for pair in zip(reps, shape) for k in pair))
    return [reduce_sum(pieces, tuple(2 * i for i in range(len(shape))))]


def _tile_batch(args: Sequence[Any], dims: Sequence[int | None], *, reps: tuple[int, ...]) -> tuple[Any, int]:
    (x,), d = args, shape_dims.unary_bdim(dims)
    new_reps = list(reps)
    new_reps.insert(d, 1)
    return tile(x, new_reps), d


tile_p.def_rules(
    Rules(
        abstract_eval=_tile_abstract_eval,
        lower=_tile_lower,
        jvp=ad_util.linear_jvp(tile_p),
        transpose=_tile_transpose,
        batch=_tile_batch,
    )
)


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """``operand`` cut along ``axis`` into consecutive pieces of ``sizes`` (which must sum to
    the size of that axis)."""
    x = as_array(operand)
    sizes_t = tuple(operator.index(s) for s in sizes)
    out: list[Array] = split_p.bind(x, sizes=sizes_t, axis=shape_dims.canonicalize_axis(axis, x.ndim))
    return out


split_p: Primitive = Primitive("split", multiple_results=True)


def _split_abstract_eval(operand: ShapedArray, *, sizes: tuple[int, ...], axis: int) -> list[ShapedArray]:
    if any(s < 0 for s in sizes):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {list(sizes)}")
    if operand.shape[axis] != sum(sizes):
        raise ValueError(
            f"Sum of sizes {sum(sizes)} must be equal to dimension {axis} of the operand shape "
            f"{list(operand.shape)}"
        )
    shape = operand.shape
    return [
        ShapedArray((*shape[:axis], s, *shape[axis + 1 :]), operand.dtype, operand.weak_type) for s in sizes
    ]


def _split_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, sizes: tuple[int, ...], axis: int
) -> list[ir.Value[Any]]:
    (x_aval,) = ctx.avals_in
    start = [0] * x_aval.ndim
    limit = list(x_aval.shape)
    outs: list[ir.Value[Any]] = []
    for s in sizes:
        limit[axis] = start[axis] + s
        outs.append(hlo.slice(x, hlo_util.i64_list(start), hlo_util.i64_list(limit), hlo_util.i64_list([1] * x_aval.ndim)))
        start[axis] = limit[axis]
    return outs


def _split_transpose(cts: Sequence[Any], operand: Any, *, sizes: tuple[int, ...], axis: int) -> list[Any]:
    if all(ad_util.is_zero(ct) for ct in cts):
        return [ad_util.Zero(operand.aval)]
    return [shape_assembly.concatenate([ad_util.instantiate_zeros(ct) for ct in cts], axis)]


def _split_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, sizes: tuple[int, ...], axis: int
) -> tuple[list[Any], list[int]]:
    (x,), d = args, shape_dims.unary_bdim(dims)
    return split(x, sizes, axis + 1 if axis >= d else axis), [d] * len(sizes)


split_p.def_rules(
    Rules(
        abstract_eval=_split_abstract_eval,
        lower=_split_lower,
        jvp=ad_util.linear_jvp(split_p),
        transpose=_split_transpose,
        batch=_split_batch,
    )
)


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """``operands`` (same shape and dtype) joined along a new axis ``axis``."""
    arrays = [as_array(op) for op in operands]
    axis = shape_dims.canonicalize_axis(axis, arrays[0].ndim + 1)
    return bind_one(stack_p, *arrays, axis=axis)


stack_p: Primitive = Primitive("stack")


def _stack_abstract_eval(*operands: ShapedArray, axis: int) -> ShapedArray:
    if not operands:
        raise ValueError("stack expects at least one operand, got 0.")
    if len({o.ndim for o in operands}) != 1:
        got = ", ".join(str(o.shape) for o in operands)
        raise ValueError(f"Cannot stack arrays with different numbers of dimensions: got {got}.")
    if len({o.shape for o in operands}) != 1:
        got = ", ".join(str(o.shape) for o in operands)
        raise ValueError(f"All input arrays must have the same shape. Got {got}.")
    if any(o.dtype != operands[0].dtype for o in operands[1:]):
        got = ", ".join(o.dtype.name for o in operands)
        raise TypeError(f"lax.stack requires arguments to have the same dtypes, got {got}.")
    shape = list(operands[0].shape)
    shape.insert(axis, len(operands))
    return ShapedArray(tuple(shape), operands[0].dtype, all(o.weak_type for o in operands))


def _stack_lower(ctx: LoweringRuleContext, *xs: ir.Value[Any], axis: int) -> ir.Value[Any]:
    x_aval = ctx.avals_in[0]
    shape = list(x_aval.shape)
    shape.insert(axis, 1)
    kept = tuple(i for i in range(x_aval.ndim + 1) if i != axis)
    expanded = [
        hlo_util.broadcast_in_dim(x, ShapedArray(tuple(shape), aval.dtype), kept) for x, aval in zip(xs, ctx.avals_in)
    ]
    while len(expanded) > 1:  # a tree of concatenations of at most 16, as JAX builds
        expanded = [hlo.concatenate(expanded[i : i + 16], axis) for i in range(0, len(expanded), 16)]
    return expanded[0]


def _stack_transpose(ct: Any, *operands: Any, axis: int) -> list[Any]:
    if ad_util.is_zero(ct):
        return [ad_util.Zero(o.aval) if ad_util.is_undefined_primal(o) else None for o in operands]
    out: list[Any] = unstack_p.bind(ct, axis=axis)
    return out


def _stack_batch(args: Sequence[Any], dims: Sequence[int | None], *, axis: int) -> tuple[Any, int]:
    d0 = dims[0]
    if d0 is not None and all(d == d0 for d in dims):
        if axis <= d0:
            return stack_p.bind(*args, axis=axis), d0 + 1
        return stack_p.bind(*args, axis=axis + 1), d0
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
    return stack_p.bind(*moved, axis=axis + 1), 0


stack_p.def_rules(
    Rules(
        abstract_eval=_stack_abstract_eval,
        lower=_stack_lower,
        jvp=ad_util.linear_jvp(stack_p),
        transpose=_stack_transpose,
        batch=_stack_batch,
    )
)


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, each without that axis."""
    arr = as_array(x)
    return tuple(unstack_p.bind(arr, axis=shape_dims.canonicalize_axis(axis, arr.ndim)))


unstack_p: Primitive = Primitive("unstack", multiple_results=True)


def _unstack_abstract_eval(operand: ShapedArray, *, axis: int) -> list[ShapedArray]:
    if operand.ndim == 0:
        raise ValueError(
            "unstack requires arrays with rank > 0, however a scalar array of shape "
            f"{operand.shape} was passed."
        )
    shape = operand.shape[:axis] + operand.shape[axis + 1 :]
    return [ShapedArray(shape, operand.dtype, operand.weak_type)] * operand.shape[axis]


def _unstack_lower(ctx: LoweringRuleContext, x: ir.Value[Any], *, axis: int) -> list[ir.Value[Any]]:
    (x_aval,) = ctx.avals_in
    start = [0] * x_aval.ndim
    limit = list(x_aval.shape)
    strides = hlo_util.i64_list([1] * x_aval.ndim)
    outs: list[ir.Value[Any]] = []
    for aval_out in ctx.avals_out:
        limit[axis] = start[axis] + 1
        piece = hlo.slice(x, hlo_util.i64_list(start), hlo_util.i64_list(limit), strides)
        outs.append(hlo.reshape(aval_to_ir_type(aval_out), piece))
        start[axis] = limit[axis]
    return outs


def _unstack_transpose(cts: Sequence[Any], operand: Any, *, axis: int) -> list[Any]:
    if all(ad_util.is_zero(ct) for ct in cts):
        return [ad_util.Zero(operand.aval)]
    return [stack_p.bind(*[ad_util.instantiate_zeros(ct) for ct in cts], axis=axis)]


def _unstack_batch(args: Sequence[Any], dims: Sequence[int | None], *, axis: int) -> tuple[list[Any], list[int]]:
    (x,), d = args, shape_dims.unary_bdim(dims)
    out_axis, out_bdim = (axis, d - 1) if axis < d else (axis + 1, d)
    outs: list[Any] = unstack_p.bind(x, axis=out_axis)
    return outs, [out_bdim] * len(outs)


unstack_p.def_rules(
    Rules(
        abstract_eval=_unstack_abstract_eval,
        lower=_unstack_lower,
        jvp=ad_util.linear_jvp(unstack_p),
        transpose=_unstack_transpose,
        batch=_unstack_batch,
    )
)


def as_array(x: ArrayLike) -> Array:
    """``x`` as a jax_core Array (Python scalars keep their weak type)."""
    out = _lax.to_dtype(x, None, dtypes.is_weakly_typed(x))
    return out if isinstance(out, Array) else shape_dims.broadcast(out, ())




def shape_as_value(shape: Sequence[int]) -> Array | np.ndarray[Any, np.dtype[np.signedinteger[Any]]]:
    """``shape`` as an integer vector: int32, or int64 when a dimension passes the int32 range
    (jax_core's shapes are always constant, so this is a NumPy array, except for the empty shape
    which gives an empty array, as in JAX)."""
    dims = tuple(operator.index(d) for d in shape)
    dtype = np.dtype(np.int64) if any(d > np.iinfo(np.int32).max for d in dims) else np.dtype(np.int32)
    if not dims:
        return full((0,), np.array(0, dtype=dtype))
    return np.asarray(dims, dtype=dtype)
