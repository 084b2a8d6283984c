"""Shape primitives: broadcasting, reshaping, transposition, squeezing, concatenation,
padding, reversal and iota.

Primitive names, parameter names and error messages follow JAX 0.12, so staged
jaxprs print as JAX prints them.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters import ad_util
from jax_core._src.interpreters.batching_util import axis_size, bdim_at_front, moveaxis
from jax_core._src.lax import convert as _convert
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike, SupportsJaxArray
from jax_core._src.typing.basearray import Array


def _bind(prim: Primitive, *args: Any, **params: Any) -> Array:
    out: Array = prim.bind(*args, **params)
    return out


def _asarray(x: ArrayLike) -> Array:
    """``x`` as an ``Array`` (``lax.asarray``): arrays pass through, host values convert."""
    if isinstance(x, Array):
        return x
    return _bind(
        _convert.convert_element_type_p,
        x,
        new_dtype=dtypes.dtype(x, canonicalize=True),
        weak_type=dtypes.is_weakly_typed(x),
    )


def canonicalize_axis(axis: int, num_dims: int) -> int:
    """An axis in ``[-num_dims, num_dims)`` as a non-negative axis, with JAX's error."""
    axis = operator.index(axis)
    if not -num_dims <= axis < num_dims:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {num_dims}")
    return axis + num_dims if axis < 0 else axis


def _check_nonnegative(fun_name: str, arg_name: str, obj: tuple[int, ...]) -> None:
    """JAX's check that a static shape-like parameter has no negative entries."""
    if not all(d >= 0 for d in obj):
        raise TypeError(f"{fun_name} {arg_name} must have every element be nonnegative, got {obj}.")


def shape_of(x: ArrayLike) -> tuple[int, ...]:
    """``np.shape`` for an ``ArrayLike`` (a Python scalar has shape ``()``)."""
    if isinstance(x, (Array, np.ndarray, np.generic)):
        return tuple(x.shape)
    if isinstance(x, SupportsJaxArray):
        return x.__jax_array__().shape
    return ()


def canonicalize_shape(shape: ShapeLike, context: str = "") -> tuple[int, ...]:
    """A user shape (an int or a sequence of ints) as a tuple (sizes are checked later)."""
    seq: Sequence[int] = (shape,) if isinstance(shape, (int, np.integer)) else shape
    out: list[int] = []
    for d in seq:
        if isinstance(d, Tracer):
            d.concretization_error(context)
        try:
            out.append(operator.index(d))
        except TypeError:
            raise TypeError(
                f"Shapes must be 1D sequences of concrete values of integer type, got {shape!r}."
            ) from None
    return tuple(out)


def _unary_bdim(dims: Sequence[int | None]) -> int:
    (d,) = dims  # a unary primitive's operand is batched whenever its rule runs
    if d is None:
        raise ValueError("a unary batching rule was called with an unbatched operand")
    return d


def _int_tuple(xs: Sequence[int] | np.ndarray[Any, Any]) -> tuple[int, ...]:
    return tuple(operator.index(x) for x in xs)


# -- broadcast_in_dim -------------------------------------------------------------------


def broadcast_in_dim(
    operand: ArrayLike, shape: ShapeLike, broadcast_dimensions: Sequence[int]
) -> Array:
    """Broadcasts ``operand`` to ``shape``; operand dimension ``i`` becomes output
    dimension ``broadcast_dimensions[i]`` (XLA's BroadcastInDim)."""
    shape_t = canonicalize_shape(shape, "broadcast_in_dim shape")
    if (
        len(shape_of(operand)) == len(shape_t)
        and not len(broadcast_dimensions)
        and isinstance(operand, Array)
    ):
        return operand
    return _bind(
        broadcast_in_dim_p,
        operand,
        shape=shape_t,
        broadcast_dimensions=_int_tuple(broadcast_dimensions),
    )


broadcast_in_dim_p = Primitive("broadcast_in_dim")


def _broadcast_in_dim_abstract_eval(
    operand: ShapedArray, *, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> ShapedArray:
    _check_nonnegative("broadcast_in_dim", "shape", shape)
    _check_nonnegative("broadcast_in_dim", "broadcast_dimensions", broadcast_dimensions)
    ndim = operand.ndim
    if ndim != len(broadcast_dimensions):
        raise TypeError(
            "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; "
            f"got broadcast_dimensions {broadcast_dimensions} for operand ndim {ndim}."
        )
    if len(shape) < ndim:
        raise TypeError(
            "broadcast_in_dim target broadcast shape must have equal or higher rank to the "
            f"operand shape; got operand ndim {ndim} and target broadcast ndim {len(shape)}."
        )
    if not set(broadcast_dimensions).issubset(range(len(shape))):
        raise TypeError(
            "broadcast_in_dim broadcast_dimensions must be a subset of output dimensions, "
            f"got {broadcast_dimensions} for operand ndim {ndim} and shape {shape}."
        )
    if not all(operand.shape[i] in (1, shape[broadcast_dimensions[i]]) for i in range(ndim)):
        raise TypeError(
            "broadcast_in_dim operand dimension sizes must either be 1, or be equal to their "
            "corresponding dimensions in the target broadcast shape; got operand of shape "
            f"{operand.shape}, target broadcast shape {shape}, broadcast_dimensions "
            f"{broadcast_dimensions} "
        )
    if len(broadcast_dimensions) != len(set(broadcast_dimensions)):
        raise TypeError(
            "broadcast_in_dim broadcast_dimensions must not contain duplicates, "
            f"got broadcast_dimensions {broadcast_dimensions}"
        )
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _broadcast_in_dim_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    *,
    shape: tuple[int, ...],
    broadcast_dimensions: tuple[int, ...],
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.broadcast_in_dim(
        aval_to_ir_type(ctx.avals_out[0]), x, list(broadcast_dimensions)
    )
    return out


def _broadcast_in_dim_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    # As JAX prints it: the shape is on the output binder; empty dimensions are omitted.
    dims = params["broadcast_dimensions"]
    return [("broadcast_dimensions", dims)] if dims else []


def _broadcast_in_dim_transpose(
    ct: Any, operand: Any, *, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> list[Any]:
    from jax_core._src.lax.reductions import reduce_sum

    op_shape = operand.aval.shape
    # Size-1 operand dimensions may have been broadcast: sum them too, then restore them.
    unit = tuple(i for i, d in enumerate(op_shape) if d == 1)
    kept = tuple(d for i, d in enumerate(broadcast_dimensions) if i not in unit)
    axes = tuple(i for i in range(len(shape)) if i not in kept)
    out = reduce_sum(ct, axes) if axes else ct
    order = sorted(kept)  # reduce_sum leaves the kept dimensions in output order
    out = transpose(out, [order.index(d) for d in kept])
    return [expand_dims(out, unit) if unit else out]


def _broadcast_in_dim_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    shape: tuple[int, ...],
    broadcast_dimensions: tuple[int, ...],
) -> tuple[Any, int]:
    (x,), d = args, _unary_bdim(dims)
    size = get_aval(x).shape[d]
    new_dims = (0, *(b + 1 for b in broadcast_dimensions))
    return broadcast_in_dim(moveaxis(x, d, 0), (size, *shape), new_dims), 0


broadcast_in_dim_p.def_rules(
    Rules(
        abstract_eval=_broadcast_in_dim_abstract_eval,
        lower=_broadcast_in_dim_lower,
        jvp=ad_util.linear_jvp(broadcast_in_dim_p),
        transpose=_broadcast_in_dim_transpose,
        batch=_broadcast_in_dim_batch,
        pp=_broadcast_in_dim_pp,
    )
)


def broadcast(operand: ArrayLike, sizes: Sequence[int]) -> Array:
    """Adds leading dimensions of sizes ``sizes`` to ``operand`` (``lax.broadcast``)."""
    if len(sizes) == 0:
        return _asarray(operand)
    ndim = len(shape_of(operand))
    dims = tuple(range(len(sizes), len(sizes) + ndim))
    return broadcast_in_dim(operand, (*_int_tuple(sizes), *shape_of(operand)), dims)


def broadcast_to_rank(x: ArrayLike, rank: int) -> Array:
    """Adds leading size-1 dimensions to ``x`` until it has rank ``rank``."""
    ndim = len(shape_of(x))
    if ndim == rank:
        return _asarray(x)
    return broadcast(x, (1,) * (rank - ndim))


def expand_dims(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Inserts size-1 dimensions at positions ``dimensions`` of the result."""
    if len(set(dimensions)) != len(dimensions):
        raise ValueError(f"repeated axis in lax.expand_dims: {dimensions}")
    ndim_out = len(shape_of(array)) + len(dimensions)
    dims = [canonicalize_axis(i, ndim_out) for i in dimensions]
    if len(set(dims)) != len(dims):
        raise ValueError(f"repeated axis in lax.expand_dims: {dims}")
    dims_set = frozenset(dims)
    result_shape = list(shape_of(array))
    for i in sorted(dims_set):
        result_shape.insert(i, 1)
    broadcast_dims = [i for i in range(ndim_out) if i not in dims_set]
    return broadcast_in_dim(array, result_shape, broadcast_dims)


# -- reshape ----------------------------------------------------------------------------


def reshape(
    operand: ArrayLike, new_sizes: ShapeLike, dimensions: Sequence[int] | None = None
) -> Array:
    """Reshapes ``operand`` to ``new_sizes``, optionally transposing it by ``dimensions`` first."""
    sizes = canonicalize_shape(new_sizes, "reshape new_sizes")
    same_shape = shape_of(operand) == sizes
    if dimensions is None:
        dims: tuple[int, ...] | None = None
        same_dims = True
    else:
        dims = _int_tuple(dimensions)
        same_dims = dims == tuple(range(len(shape_of(operand))))
    if shape_of(operand) and same_shape and same_dims and isinstance(operand, Array):
        return operand
    return _bind(
        reshape_p,
        operand,
        new_sizes=sizes,
        dimensions=None if dims is None or same_dims else dims,
        sharding=None,
    )


reshape_p = Primitive("reshape")


def _reshape_abstract_eval(
    operand: ShapedArray,
    *,
    new_sizes: tuple[int, ...],
    dimensions: tuple[int, ...] | None,
    sharding: None,
) -> ShapedArray:
    if not all(d >= 0 for d in new_sizes):
        raise TypeError(f"reshape new_sizes must all be positive, got {new_sizes}.")
    if math.prod(new_sizes) != operand.size:
        raise TypeError(
            f"reshape total size must be unchanged, got new_sizes {new_sizes} (of total size "
            f"{math.prod(new_sizes)}) for shape {operand.shape} (of total size {operand.size})."
        )
    if dimensions is not None and set(dimensions) != set(range(operand.ndim)):
        raise TypeError(
            "reshape dimensions must be a permutation of operand dimensions, "
            f"got dimensions {dimensions} for shape {operand.shape}."
        )
    return ShapedArray(new_sizes, operand.dtype, operand.weak_type)


def _reshape_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    *,
    new_sizes: tuple[int, ...],
    dimensions: tuple[int, ...] | None,
    sharding: None,
) -> ir.Value[Any]:
    if dimensions is not None:
        x = hlo.transpose(x, list(dimensions))
    out: ir.Value[Any] = hlo.reshape(aval_to_ir_type(ctx.avals_out[0]), x)
    return out


def _reshape_transpose(
    ct: Any,
    operand: Any,
    *,
    new_sizes: tuple[int, ...],
    dimensions: tuple[int, ...] | None,
    sharding: None,
) -> list[Any]:
    shape = operand.aval.shape
    if dimensions is None:
        return [reshape(ct, shape)]
    out = reshape(ct, tuple(shape[d] for d in dimensions))
    return [transpose(out, np.argsort(dimensions))]


def _reshape_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    new_sizes: tuple[int, ...],
    dimensions: tuple[int, ...] | None,
    sharding: None,
) -> tuple[Any, int]:
    (x,), d = args, _unary_bdim(dims)
    size = get_aval(x).shape[d]
    new_dims = None if dimensions is None else (0, *(i + 1 for i in dimensions))
    return reshape(moveaxis(x, d, 0), (size, *new_sizes), new_dims), 0


reshape_p.def_rules(
    Rules(
        abstract_eval=_reshape_abstract_eval,
        lower=_reshape_lower,
        jvp=ad_util.linear_jvp(reshape_p),
        transpose=_reshape_transpose,
        batch=_reshape_batch,
    )
)


# -- transpose --------------------------------------------------------------------------


def transpose(operand: ArrayLike, permutation: Sequence[int] | np.ndarray[Any, Any]) -> Array:
    """Permutes the dimensions of ``operand``: output dimension ``i`` is ``permutation[i]``."""
    perm = _int_tuple(permutation)
    if perm == tuple(range(len(shape_of(operand)))) and isinstance(operand, Array):
        return operand
    return _bind(transpose_p, operand, permutation=perm)


transpose_p = Primitive("transpose")


def _transpose_abstract_eval(operand: ShapedArray, *, permutation: tuple[int, ...]) -> ShapedArray:
    if tuple(sorted(permutation)) != tuple(range(operand.ndim)):
        raise TypeError(
            "transpose permutation isn't a permutation of operand dimensions, "
            f"got permutation {permutation} for operand shape {operand.shape}."
        )
    shape = tuple(operand.shape[i] for i in permutation)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _transpose_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, permutation: tuple[int, ...]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.transpose(x, list(permutation))
    return out


def _transpose_transpose(ct: Any, *, permutation: tuple[int, ...]) -> Array:
    return transpose(ct, np.argsort(permutation))


def _transpose_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, permutation: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), d = args, _unary_bdim(dims)
    perm = (d, *(i if i < d else i + 1 for i in permutation))
    return transpose(x, perm), 0


transpose_p.def_rules(
    Rules(
        abstract_eval=_transpose_abstract_eval,
        lower=_transpose_lower,
        jvp=ad_util.linear_jvp(transpose_p),
        transpose=ad_util.linear_transpose(_transpose_transpose),
        batch=_transpose_batch,
    )
)


# -- squeeze ----------------------------------------------------------------------------


def squeeze(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Removes the size-1 dimensions ``dimensions`` (negative axes allowed)."""
    ndim = len(shape_of(array))
    dims = tuple(sorted(canonicalize_axis(i, ndim) for i in dimensions))
    if not dims and isinstance(array, Array):
        return array
    return _bind(squeeze_p, array, dimensions=dims)


squeeze_p = Primitive("squeeze")


def _squeeze_abstract_eval(operand: ShapedArray, *, dimensions: tuple[int, ...]) -> ShapedArray:
    dims_set = set(dimensions)
    if len(dims_set) != len(dimensions):
        raise ValueError(f"dimensions are not unique: {dimensions}")
    if not all(0 <= d < operand.ndim for d in dims_set):
        raise ValueError(f"dimensions outside range [0, ndim): {dimensions}")
    if any(operand.shape[d] != 1 for d in dimensions):
        raise ValueError(
            "cannot select an axis to squeeze out which has size not equal to one, "
            f"got shape={operand.shape} and dimensions={dimensions}"
        )
    shape = tuple(s for i, s in enumerate(operand.shape) if i not in dims_set)
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def _squeeze_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, dimensions: tuple[int, ...]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.reshape(aval_to_ir_type(ctx.avals_out[0]), x)
    return out


def _squeeze_transpose(ct: Any, *, dimensions: tuple[int, ...]) -> Array:
    return expand_dims(ct, dimensions)


def _squeeze_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimensions: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), d = args, _unary_bdim(dims)
    return squeeze(moveaxis(x, d, 0), tuple(i + 1 for i in dimensions)), 0


squeeze_p.def_rules(
    Rules(
        abstract_eval=_squeeze_abstract_eval,
        lower=_squeeze_lower,
        jvp=ad_util.linear_jvp(squeeze_p),
        transpose=ad_util.linear_transpose(_squeeze_transpose),
        batch=_squeeze_batch,
    )
)


# -- concatenate ------------------------------------------------------------------------


def concatenate(operands: Array | Sequence[ArrayLike], dimension: int) -> Array:
    """Joins ``operands`` along ``dimension`` (all other dimensions must agree)."""
    ops: list[ArrayLike] = list(operands)
    if len(ops) == 0:
        raise ValueError("concatenate requires a non-empty sequences of arrays")
    if len(ops) == 1 and isinstance(ops[0], Array):
        return ops[0]
    return _bind(concatenate_p, *ops, dimension=operator.index(dimension))


concatenate_p = Primitive("concatenate")


def _concatenate_abstract_eval(*operands: ShapedArray, dimension: int) -> ShapedArray:
    if not operands:
        raise TypeError("concatenate expects at least one operand, got 0.")
    if len({o.ndim for o in operands}) != 1:
        raise TypeError(
            "Cannot concatenate arrays with different numbers of dimensions: got "
            f"{', '.join(str(o.shape) for o in operands)}."
        )
    if not 0 <= dimension < operands[0].ndim:
        raise TypeError(
            f"concatenate dimension out of bounds: dimension {dimension} for shapes "
            f"{', '.join(str(o.shape) for o in operands)}."
        )
    others = [o.shape[:dimension] + o.shape[dimension + 1 :] for o in operands]
    if others[:-1] != others[1:]:
        raise TypeError(
            "Cannot concatenate arrays with shapes that differ in dimensions other than the one "
            f"being concatenated: concatenating along dimension {dimension} for shapes "
            f"{', '.join(str(o.shape) for o in operands)}."
        )
    if any(o.dtype != operands[0].dtype for o in operands[1:]):
        raise TypeError(
            "lax.concatenate requires arguments to have the same dtypes, got "
            f"{', '.join(o.dtype.name for o in operands)}. (Tip: jnp.concatenate is a similar "
            "function that does automatic type promotion on inputs)."
        )
    first = operands[0].shape
    size = sum(o.shape[dimension] for o in operands)
    shape = first[:dimension] + (size,) + first[dimension + 1 :]
    return ShapedArray(shape, operands[0].dtype, all(o.weak_type for o in operands))


def _concatenate_lower(
    ctx: LoweringRuleContext, *xs: ir.Value[Any], dimension: int
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.concatenate(list(xs), dimension)
    return out


def _concatenate_transpose(ct: Any, *operands: Any, dimension: int) -> list[Any]:
    from jax_core._src.lax.slicing import slice as slice_

    ct_shape, start = get_aval(ct).shape, 0
    out: list[Any] = []
    for x in operands:
        n = (x.aval if ad_util.is_undefined_primal(x) else get_aval(x)).shape[dimension]
        lo = tuple(start if i == dimension else 0 for i in range(len(ct_shape)))
        hi = tuple(start + n if i == dimension else d for i, d in enumerate(ct_shape))
        out.append(slice_(ct, lo, hi) if ad_util.is_undefined_primal(x) else None)
        start += n
    return out


def _concatenate_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimension: int
) -> tuple[Any, int]:
    size = axis_size(args, dims)
    moved = [bdim_at_front(x, d, size) for x, d in zip(args, dims)]
    return concatenate(moved, dimension + 1), 0


concatenate_p.def_rules(
    Rules(
        abstract_eval=_concatenate_abstract_eval,
        lower=_concatenate_lower,
        jvp=ad_util.linear_jvp(concatenate_p),
        transpose=_concatenate_transpose,
        batch=_concatenate_batch,
    )
)


# -- pad --------------------------------------------------------------------------------


def pad(
    operand: ArrayLike, padding_value: ArrayLike, padding_config: Sequence[tuple[int, int, int]]
) -> Array:
    """Pads ``operand`` with ``padding_value``: ``(low, high, interior)`` per dimension.

    Negative ``low``/``high`` remove elements from the edges.
    """
    config = tuple(
        (operator.index(lo), operator.index(hi), operator.index(it))
        for lo, hi, it in padding_config
    )
    return _bind(pad_p, operand, padding_value, padding_config=config)


pad_p = Primitive("pad")


def _pad_abstract_eval(
    operand: ShapedArray,
    padding_value: ShapedArray,
    *,
    padding_config: tuple[tuple[int, int, int], ...],
) -> ShapedArray:
    if padding_value.ndim != 0:
        raise ValueError(
            f"padding_value must be a scalar; got np.shape(padding_value)={padding_value.shape}"
        )
    if len(padding_config) != operand.ndim:
        raise ValueError(
            "length of padding_config must equal the number of axes of operand, got "
            f"padding_config {padding_config} for operand shape {operand.shape}"
        )
    if not all(i >= 0 for _, _, i in padding_config):
        raise ValueError(
            "interior padding in padding_config must be nonnegative, got padding_config "
            f"{padding_config}"
        )
    shape = tuple(
        lo + hi + (0 if d == 0 else d + (d - 1) * it)
        for (lo, hi, it), d in zip(padding_config, operand.shape)
    )
    if not all(d >= 0 for d in shape):
        raise ValueError(
            f"Dimension size after padding is not at least 0, got result shape {shape}, for "
            f"padding_config {padding_config} and operand shape {operand.shape}"
        )
    if operand.dtype != padding_value.dtype:
        raise TypeError(
            f"pad operand and padding_value must be same dtype: got {operand.dtype} and "
            f"{padding_value.dtype}."
        )
    return ShapedArray(shape, operand.dtype, operand.weak_type and padding_value.weak_type)


def _pad_lower(
    ctx: LoweringRuleContext,
    x: ir.Value[Any],
    padding_value: ir.Value[Any],
    *,
    padding_config: tuple[tuple[int, int, int], ...],
) -> ir.Value[Any]:
    low, high, interior = ([c[k] for c in padding_config] for k in range(3))
    out: ir.Value[Any] = hlo.pad(x, padding_value, low, high, interior)
    return out


def _pad_transpose(
    ct: Any, operand: Any, padding_value: Any, *, padding_config: tuple[tuple[int, int, int], ...]
) -> list[Any]:
    from jax_core._src.lax.api import sub
    from jax_core._src.lax.reductions import reduce_sum
    from jax_core._src.lax.slicing import slice as slice_

    aval = get_aval(ct)
    # Undo the edge padding (cropping what it added, re-adding as zeros what negative
    # padding cropped), then step over the interior padding.
    unpad = tuple((-lo, -hi, 0) for lo, hi, _ in padding_config)
    unpadded = pad(ct, np.zeros((), aval.dtype), unpad)
    shape = get_aval(unpadded).shape
    strides = tuple(it + 1 for _, _, it in padding_config)
    t_operand = slice_(unpadded, (0,) * len(shape), shape, strides)
    t_padv = None
    if ad_util.is_undefined_primal(padding_value):
        axes = tuple(range(aval.ndim))
        t_padv = sub(reduce_sum(ct, axes), reduce_sum(t_operand, axes))
    return [t_operand if ad_util.is_undefined_primal(operand) else None, t_padv]


def _pad_batch(
    args: Sequence[Any],
    dims: Sequence[int | None],
    *,
    padding_config: tuple[tuple[int, int, int], ...],
) -> tuple[Any, int]:
    from jax_core._src.lax.api import select

    (x, padv), (xd, pd) = args, dims
    size = axis_size(args, dims)
    x = bdim_at_front(x, xd, size)
    config = ((0, 0, 0), *padding_config)
    if pd is None:
        return pad(x, padv, config), 0
    # A batched padding value: pad with zeros, then select the padding positions by a mask.
    aval = get_aval(x)
    out = pad(x, np.zeros((), aval.dtype), config)
    mask = pad(broadcast_in_dim(True, aval.shape, ()), np.False_, config)
    return select(mask, out, broadcast_in_dim(padv, get_aval(out).shape, (0,))), 0


pad_p.def_rules(
    Rules(
        abstract_eval=_pad_abstract_eval,
        lower=_pad_lower,
        jvp=ad_util.linear_jvp(pad_p),
        transpose=_pad_transpose,
        batch=_pad_batch,
    )
)


# -- rev --------------------------------------------------------------------------------


def rev(operand: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Reverses ``operand`` along each of ``dimensions``."""
    return _bind(rev_p, operand, dimensions=_int_tuple(dimensions))


rev_p = Primitive("rev")


def _rev_abstract_eval(operand: ShapedArray, *, dimensions: tuple[int, ...]) -> ShapedArray:
    _check_nonnegative("rev", "dimensions", dimensions)
    if len(set(dimensions)) != len(dimensions):
        raise TypeError(f"rev dimensions must be unique, got {dimensions}.")
    if dimensions and not max(dimensions) < operand.ndim:
        raise TypeError(
            "rev dimensions must all be less than operand ndim, got dimensions "
            f"{dimensions} for operand ndim {operand.ndim}."
        )
    return operand


def _rev_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], *, dimensions: tuple[int, ...]
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.reverse(x, list(dimensions))
    return out


def _rev_transpose(ct: Any, *, dimensions: tuple[int, ...]) -> Array:
    return rev(ct, dimensions)


def _rev_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimensions: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), d = args, _unary_bdim(dims)
    return rev(x, tuple(i + 1 if i >= d else i for i in dimensions)), d


rev_p.def_rules(
    Rules(
        abstract_eval=_rev_abstract_eval,
        lower=_rev_lower,
        jvp=ad_util.linear_jvp(rev_p),
        transpose=ad_util.linear_transpose(_rev_transpose),
        batch=_rev_batch,
    )
)


# -- iota -------------------------------------------------------------------------------


def iota(dtype: DTypeLike, size: int) -> Array:
    """The vector ``[0, 1, ..., size - 1]`` of dtype ``dtype``."""
    return broadcasted_iota(dtype, (size,), 0)


def broadcasted_iota(dtype: DTypeLike, shape: ShapeLike, dimension: int) -> Array:
    """An array of ``shape`` whose values count up along ``dimension``."""
    dt = dtypes.check_and_canonicalize_user_dtype(dtype, "broadcasted_iota")
    shape_t = canonicalize_shape(shape, "broadcasted_iota shape")
    if isinstance(dimension, Tracer):
        dimension.concretization_error("dimension argument of lax.broadcasted_iota")
    return _bind(
        iota_p, dtype=dt, shape=shape_t, dimension=operator.index(dimension), sharding=None
    )


iota_p = Primitive("iota")


def _iota_abstract_eval(
    *, dtype: np.dtype[Any], shape: tuple[int, ...], dimension: int, sharding: None
) -> ShapedArray:
    _check_nonnegative("iota", "shape", shape)
    if not (dtypes.issubdtype(dtype, np.integer) or dtypes.issubdtype(dtype, np.inexact)):
        raise TypeError(
            f"iota does not accept dtype {dtype.name}. Accepted dtypes are subtypes of "
            "integer, complexfloating, floating."
        )
    if not 0 <= dimension < len(shape):
        raise ValueError(
            f"iota dimension must be between 0 and len(shape), got dimension={dimension} for "
            f"shape={shape}"
        )
    return ShapedArray(shape, dtype)


def _iota_lower(
    ctx: LoweringRuleContext,
    *,
    dtype: np.dtype[Any],
    shape: tuple[int, ...],
    dimension: int,
    sharding: None,
) -> ir.Value[Any]:
    out: ir.Value[Any] = hlo.iota(aval_to_ir_type(ctx.avals_out[0]), dimension)
    return out


def _iota_batch(args: Sequence[Any], dims: Sequence[int | None], **params: Any) -> tuple[Any, None]:
    # iota has no operands, so vmap never calls this; were it called, nothing varies.
    if args:
        raise TypeError(f"iota takes no operands, got {len(args)}")
    return iota_p.bind(**params), None


iota_p.def_rules(
    Rules(
        abstract_eval=_iota_abstract_eval,
        lower=_iota_lower,
        jvp=ad_util.zero_jvp(iota_p),
        batch=_iota_batch,
    )
)
