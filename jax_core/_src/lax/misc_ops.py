"""Small lax operations: ``clamp``, ``reduce_precision``, ``rng_bit_generator``, and ``top_k``
with JAX's ``axis``/``is_stable`` keywords (over ``sorting.top_k``).

Each primitive is one ``Rules`` record with JAX's rules: ``clamp``'s jvp routes the tangent of
whichever operand is selected; ``reduce_precision`` is linear (its jvp and transpose apply it to
the tangent); ``rng_bit_generator`` has zero tangents and batches as JAX does (one generator call
on the first key of the batch, whose state alone advances).
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core._src.lax.api as lax
from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    Zero,
    instantiate_zeros,
    is_undefined_primal,
    per_arg_jvp,
)
from jax_core._src.interpreters.batching_util import (
    axis_size,
    bdim_at_front,
    moveaxis,
    vectorized_batcher,
)
from jax_core._src.lax.base import is_any, is_real_float, naryop_abstract_eval, unop_abstract_eval
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

Value = ir.Value[Any]


# -- clamp ----------------------------------------------------------------------------------------
def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:
    """Elementwise clamp: ``min`` where ``x < min``, ``max`` where ``x > max``, else ``x``.

    ``min`` and ``max`` are scalars or have ``x``'s shape; all three share one dtype.
    """
    out: Array = clamp_p.bind(min, x, max)
    return out


_clamp_dtypes = naryop_abstract_eval("clamp", is_any)


def _clamp_abstract_eval(lo: ShapedArray, x: ShapedArray, hi: ShapedArray) -> ShapedArray:
    if lo.shape and lo.shape != x.shape:
        raise TypeError(f"clamp requires min.shape == operand.shape or min.shape == (), got min.shape={lo.shape}, operand.shape={x.shape}.")
    if hi.shape and hi.shape != x.shape:
        raise TypeError(f"clamp requires max.shape == operand.shape or max.shape == (), got max.shape={hi.shape}, operand.shape={x.shape}.")
    out = _clamp_dtypes(lo, x, hi)
    return ShapedArray(x.shape, out.dtype, out.weak_type)


def _clamp_lower(ctx: LoweringRuleContext, lo: Value, x: Value, hi: Value) -> Value:
    out: Value = hlo.clamp(lo, x, hi)
    return out


def _where(pred: Any, g: Any, x: Any) -> Any:
    from jax_core._src.lax.shape_ops import broadcast_in_dim

    shape = get_aval(x).shape
    g = g if get_aval(g).shape == shape else broadcast_in_dim(g, shape, ())
    zeros = broadcast_in_dim(np.zeros((), get_aval(g).dtype), shape, ())
    return lax.select(pred, g, zeros)


def _clamp_dmin(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lax.bitwise_and(lax.gt(lo, x), lax.lt(lo, hi)), g, x)


def _clamp_dx(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lax.bitwise_and(lax.gt(x, lo), lax.lt(x, hi)), g, x)


def _clamp_dmax(g: Any, lo: Any, x: Any, hi: Any) -> Any:
    return _where(lax.lt(hi, x), g, x)


def _clamp_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    from jax_core._src.lax.shape_ops import broadcast_in_dim

    lo, x, hi = args
    lo_d, x_d, hi_d = dims
    if lo_d is None and hi_d is None and x_d is not None and get_aval(lo).ndim == get_aval(hi).ndim == 0:
        return clamp(lo, x, hi), x_d
    size = axis_size(args, dims)
    x_shape = get_aval(x).shape
    if x_d is not None:
        x_shape = x_shape[:x_d] + x_shape[x_d + 1 :]
    full = (size, *x_shape)
    moved: list[Any] = []
    for v, d in zip(args, dims):
        if d is None and get_aval(v).ndim == 0 and v is not x:
            moved.append(v)  # an unbatched scalar bound stays a scalar
            continue
        v = bdim_at_front(v, d, size)
        if get_aval(v).shape != full:
            v = broadcast_in_dim(v, full, (0,))  # a batched scalar: one bound per example
        moved.append(v)
    return clamp(*moved), 0


clamp_p = Primitive("clamp")
clamp_p.def_rules(
    Rules(
        abstract_eval=_clamp_abstract_eval,
        lower=_clamp_lower,
        jvp=per_arg_jvp(clamp_p, _clamp_dmin, _clamp_dx, _clamp_dmax),
        batch=_clamp_batch,
    )
)


# -- reduce_precision -----------------------------------------------------------------------------
def reduce_precision(operand: float | ArrayLike, exponent_bits: int, mantissa_bits: int) -> Array:
    """Rounds ``operand`` to a float format with ``exponent_bits`` and ``mantissa_bits`` (XLA's
    ReducePrecision), keeping its dtype."""
    out: Array = reduce_precision_p.bind(
        operand, exponent_bits=operator.index(exponent_bits), mantissa_bits=operator.index(mantissa_bits)
    )
    return out


_reduce_precision_dtypes = unop_abstract_eval("reduce_precision", is_real_float)


def _reduce_precision_abstract_eval(x: ShapedArray, *, exponent_bits: int, mantissa_bits: int) -> ShapedArray:
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {exponent_bits}")
    if mantissa_bits < 0:
        raise ValueError(f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}")
    return _reduce_precision_dtypes(x)


def _reduce_precision_lower(ctx: LoweringRuleContext, x: Value, *, exponent_bits: int, mantissa_bits: int) -> Value:
    i32 = ir.IntegerType.get_signless(32)
    out: Value = hlo.reduce_precision(x, ir.IntegerAttr.get(i32, exponent_bits), ir.IntegerAttr.get(i32, mantissa_bits))
    return out


def _reduce_precision_jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[Any, Any]:
    out = reduce_precision_p.bind(*primals, **params)
    (t,) = tangents
    return out, t if isinstance(t, Zero) else reduce_precision_p.bind(t, **params)


def _reduce_precision_transpose(ct: Any, x: Any, **params: Any) -> list[Any]:
    assert is_undefined_primal(x)
    return [reduce_precision_p.bind(instantiate_zeros(ct), **params)]


reduce_precision_p = Primitive("reduce_precision")
reduce_precision_p.def_rules(
    Rules(
        abstract_eval=_reduce_precision_abstract_eval,
        lower=_reduce_precision_lower,
        jvp=_reduce_precision_jvp,
        transpose=_reduce_precision_transpose,
        batch=vectorized_batcher(reduce_precision_p),
    )
)


# -- rng_bit_generator ----------------------------------------------------------------------------
class RandomAlgorithm(enum.IntEnum):
    """Describes which PRNG algorithm to use for rng_bit_generator."""

    RNG_DEFAULT = 0
    "The platform's default algorithm."

    RNG_THREE_FRY = 1
    "The Threefry-2x32 PRNG algorithm."

    RNG_PHILOX = 2
    "The Philox-4x32 PRNG algorithm."

    def __str__(self) -> str:
        return self.name


_RBG_DTYPES = frozenset(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))


def rng_bit_generator(
    key: ArrayLike,
    shape: Sequence[int],
    dtype: DTypeLike = np.uint32,
    algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT,
    *,
    out_sharding: None = None,
) -> tuple[Array, Array]:
    """Stateless PRNG bit generator (XLA's RngBitGenerator): ``(new_key, bits)``.

    ``key`` is a ``uint32[4]`` (or ``uint64[2]``) state; ``bits`` has ``shape`` and an unsigned
    ``dtype``. ``out_sharding`` other than ``None`` is not implemented.
    """
    if out_sharding is not None:
        raise NotImplementedError("rng_bit_generator: out_sharding is not implemented in jax_core")
    shape_t = tuple(operator.index(d) for d in shape)
    dt = dtypes.check_and_canonicalize_user_dtype(dtype, "rng_bit_generator")
    if np.dtype(dt) not in _RBG_DTYPES:
        raise TypeError(f"rng_bit_generator: unsupported dtype {np.dtype(dt)}")
    new_key, bits = rng_bit_generator_p.bind(key, shape=shape_t, dtype=np.dtype(dt), algorithm=RandomAlgorithm(algorithm), out_sharding=None)
    return new_key, bits


def _rbg_abstract_eval(
    key: ShapedArray, *, shape: tuple[int, ...], dtype: np.dtype[Any], algorithm: RandomAlgorithm, out_sharding: None
) -> list[ShapedArray]:
    ok = (key.shape == (4,) and key.dtype == np.uint32) or (key.shape == (2,) and key.dtype == np.uint64)
    if not ok:
        raise TypeError(f"rng_bit_generator: key must be a uint32[4] or uint64[2] array, got {key.str_short()}")
    return [ShapedArray(key.shape, key.dtype, key.weak_type), ShapedArray(shape, dtype)]


def _rbg_lower(
    ctx: LoweringRuleContext, key: Value, *, shape: tuple[int, ...], dtype: np.dtype[Any], algorithm: RandomAlgorithm,
    out_sharding: None,
) -> list[Value]:
    u32 = ir.IntegerType.get_unsigned(32)
    u64 = ir.IntegerType.get_unsigned(64)
    key_aval, out_aval = ctx.avals_out
    is_u32 = key_aval.dtype == np.uint32
    if is_u32:
        key = hlo.bitcast_convert(ir.RankedTensorType.get([2], u64), hlo.reshape(ir.RankedTensorType.get([2, 2], u32), key))
    attr = hlo.RngAlgorithmAttr.get({0: "DEFAULT", 1: "THREE_FRY", 2: "PHILOX"}[int(algorithm)])
    gen_dtype = dtype if dtype in (np.dtype(np.uint32), np.dtype(np.uint64)) else np.dtype(np.uint32)
    op = hlo.RngBitGeneratorOp(key.type, aval_to_ir_type(ShapedArray(shape, gen_dtype)), attr, key)
    out_key, bits = op.results
    if is_u32:
        out_key = hlo.reshape(aval_to_ir_type(key_aval), hlo.bitcast_convert(ir.RankedTensorType.get([2, 2], u32), out_key))
    if gen_dtype != dtype:
        bits = hlo.convert(aval_to_ir_type(out_aval), bits)
    return [out_key, bits]


def _rbg_jvp(primals: Sequence[Any], tangents: Sequence[Any], **params: Any) -> tuple[list[Any], list[Any]]:
    outs = rng_bit_generator_p.bind(*primals, **params)
    return list(outs), [Zero.from_primal_value(o) for o in outs]


def _rbg_batch(args: Sequence[Any], dims: Sequence[int | None], *, shape: tuple[int, ...], **params: Any) -> tuple[list[Any], list[int | None]]:
    from jax_core._src.lax.shape_ops import reshape
    from jax_core._src.lax.slicing import dynamic_update_slice
    from jax_core._src.lax.slicing import slice as lax_slice

    (keys,), (d,) = args, dims
    if d is None:
        return list(rng_bit_generator_p.bind(keys, shape=shape, **params)), [None, None]
    keys = moveaxis(keys, d, 0)
    size, width = get_aval(keys).shape
    key = reshape(lax_slice(keys, (0, 0), (1, width)), (width,))
    new_key, bits = rng_bit_generator_p.bind(key, shape=(size, *shape), **params)
    new_keys = dynamic_update_slice(keys, reshape(new_key, (1, width)), (0, 0))
    return [new_keys, bits], [0, 0]


rng_bit_generator_p = Primitive("rng_bit_generator", multiple_results=True)
rng_bit_generator_p.def_rules(Rules(abstract_eval=_rbg_abstract_eval, lower=_rbg_lower, jvp=_rbg_jvp, batch=_rbg_batch))


# -- top_k with JAX's keywords --------------------------------------------------------------------
def top_k(operand: ArrayLike, k: int, *, axis: int = -1, is_stable: bool = True) -> tuple[Array, Array]:
    """The ``k`` largest entries of ``operand`` along ``axis`` and their indices.

    Ties keep the lower index first (the selection is always stable, so ``is_stable=False``
    gives one of the orders JAX may give).
    """
    from jax_core._src.lax.sorting import top_k as _top_k

    aval = get_aval(operand)
    ndim = aval.ndim
    ax = operator.index(axis)
    if not -ndim <= ax < ndim:
        raise ValueError(f"axis {ax} is out of bounds for array of dimension {ndim}")
    k = operator.index(k)
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    if k > aval.shape[ax]:
        raise ValueError(
            f"k argument to top_k must be no larger than size along axis; got k={k} with "
            f"shape={list(aval.shape)} and axis={ax % ndim}"
        )
    ax %= ndim
    if ax == ndim - 1:
        return _top_k(operand, k)
    vals, idx = _top_k(moveaxis(operand, ax, ndim - 1), k)
    return moveaxis(vals, ndim - 1, ax), moveaxis(idx, ndim - 1, ax)
