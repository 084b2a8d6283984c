"""Shape primitives: broadcasting, reshaping, transposition, squeezing, concatenation,
padding, reversal and iota.

Primitive names, parameter names and error messages follow JAX 0.12, so staged
jaxprs print as JAX prints them.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import Tracer, get_aval
from jax_core._src.interpreters import ad_util, array_ops
from jax_core._src.interpreters.batching_util import moveaxis
from jax_core._src.lax.elementwise import conversions as _convert
from jax_core._src.lax.standard_rules import bind_one
from jax_core._src.core.shape_poly import is_symbolic_dim
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import dynamic_shapes
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, ShapeLike, SupportsJaxArray, shape_entries
from jax_core._src.typing.basearray import Array


def _asarray(x: ArrayLike) -> Array:
    """``x`` as an ``Array`` (``lax.asarray``): arrays pass through, host values convert."""
    if isinstance(x, Array):
        return x
    return bind_one(
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


def check_nonnegative(fun_name: str, arg_name: str, obj: tuple[int, ...]) -> None:
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
    seq = shape_entries(shape)
    out: list[int] = []
    for d in seq:
        if isinstance(d, Tracer):
            d.concretization_error(context)
        if is_symbolic_dim(d):  # shape polymorphism
            out.append(cast(int, d))
            continue
        try:
            out.append(operator.index(d))
        except TypeError:
            raise TypeError(
                f"Shapes must be 1D sequences of concrete values of integer type, got {shape!r}."
            ) from None
    return tuple(out)


def unary_bdim(dims: Sequence[int | None]) -> int:
    """The batch dimension of a unary primitive's (batched) operand."""
    (d,) = dims  # a unary primitive's operand is batched whenever its rule runs
    if d is None:
        raise ValueError("a unary batching rule was called with an unbatched operand")
    return d


def int_tuple(xs: Sequence[int] | np.ndarray[Any, Any]) -> tuple[int, ...]:
    """``xs`` as a tuple of Python ints."""
    return tuple(cast(int, x) if is_symbolic_dim(x) else operator.index(x) for x in xs)


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
    return bind_one(
        broadcast_in_dim_p,
        operand,
        shape=shape_t,
        # NumPy integers stay as given (JAX's jaxprs print those as ``np.int64(...)``).
        broadcast_dimensions=tuple(d if isinstance(d, np.integer) else operator.index(d) for d in broadcast_dimensions),
    )


broadcast_in_dim_p: Primitive = Primitive("broadcast_in_dim")


def _broadcast_in_dim_abstract_eval(
    operand: ShapedArray, *, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> ShapedArray:
    check_nonnegative("broadcast_in_dim", "shape", shape)
    check_nonnegative("broadcast_in_dim", "broadcast_dimensions", broadcast_dimensions)
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
    return dynamic_shapes.broadcast_in_dim(aval_to_ir_type(ctx.avals_out[0]), x, broadcast_dimensions, shape)


def _broadcast_in_dim_pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    # As JAX prints it: the shape is on the output binder; empty dimensions are omitted.
    dims = params["broadcast_dimensions"]
    return [("broadcast_dimensions", dims)] if dims else []


def _broadcast_in_dim_transpose(
    ct: Any, operand: Any, *, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> list[Any]:
    from jax_core._src.lax.reductions.reduce import reduce_sum

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
    (x,), d = args, unary_bdim(dims)
    size = get_aval(x).shape[d]
    new_dims = (0, *(np.add(1, broadcast_dimensions)))  # numpy ints, which JAX's jaxprs print as np.int64(...)
    return broadcast_in_dim(moveaxis(x, d, 0), (size, *shape), new_dims), 0


def _broadcast_in_dim_forward(
    operand: ShapedArray, *, shape: tuple[int, ...], broadcast_dimensions: tuple[int, ...]
) -> list[int | None]:
    """Staging: a broadcast to the operand's own shape is the operand (JAX's forwarding rule)."""
    return [0 if operand.shape == shape else None]


broadcast_in_dim_p.def_rules(
    Rules(
        abstract_eval=_broadcast_in_dim_abstract_eval,
        lower=_broadcast_in_dim_lower,
        jvp=ad_util.linear_jvp(broadcast_in_dim_p),
        transpose=_broadcast_in_dim_transpose,
        batch=_broadcast_in_dim_batch,
        pp=_broadcast_in_dim_pp,
        forward=_broadcast_in_dim_forward,
    )
)


def broadcast(operand: ArrayLike, sizes: Sequence[int]) -> Array:
    """Adds leading dimensions of sizes ``sizes`` to ``operand`` (``lax.broadcast``)."""
    if len(sizes) == 0:
        return _asarray(operand)
    ndim = len(shape_of(operand))
    dims = tuple(range(len(sizes), len(sizes) + ndim))
    return broadcast_in_dim(operand, (*int_tuple(sizes), *shape_of(operand)), dims)


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
        dims = int_tuple(dimensions)
        same_dims = dims == tuple(range(len(shape_of(operand))))
    if shape_of(operand) and same_shape and same_dims and isinstance(operand, Array):
        return operand
    return bind_one(
        reshape_p,
        operand,
        new_sizes=sizes,
        dimensions=None if dims is None or same_dims else dims,
        sharding=None,
    )


reshape_p: Primitive = Primitive("reshape")


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
    return dynamic_shapes.reshape(aval_to_ir_type(ctx.avals_out[0]), x, new_sizes)


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
    (x,), d = args, unary_bdim(dims)
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
    perm = int_tuple(permutation)
    if perm == tuple(range(len(shape_of(operand)))) and isinstance(operand, Array):
        return operand
    return bind_one(transpose_p, operand, permutation=perm)


transpose_p: Primitive = Primitive("transpose")


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
    (x,), d = args, unary_bdim(dims)
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
    return bind_one(squeeze_p, array, dimensions=dims)


squeeze_p: Primitive = Primitive("squeeze")


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
    return dynamic_shapes.reshape(aval_to_ir_type(ctx.avals_out[0]), x, ctx.avals_out[0].shape)


def _squeeze_transpose(ct: Any, *, dimensions: tuple[int, ...]) -> Array:
    return expand_dims(ct, dimensions)


def _squeeze_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, dimensions: tuple[int, ...]
) -> tuple[Any, int]:
    (x,), d = args, unary_bdim(dims)
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


# The interpreters (autodiff, batching) build values with these; see interpreters/array_ops.py.
array_ops.register("broadcast_in_dim", broadcast_in_dim)
array_ops.register("expand_dims", expand_dims)
array_ops.register("reshape", reshape)
array_ops.register("transpose", transpose)
