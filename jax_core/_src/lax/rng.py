"""``rng_bit_generator``: XLA's stateful-looking random bit generator, with JAX's ``RandomAlgorithm``.

Zero tangents; batching runs one generator call on the first key of the batch, whose state
alone advances, as JAX does."""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import (
    Zero,
)
from jax_core._src.interpreters.batching_util import (
    moveaxis,
)
from jax_core._src.lax.standard_rules import no_batch, no_jvp
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


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
    ctx: LoweringRuleContext, key: ir.Value[Any], *, shape: tuple[int, ...], dtype: np.dtype[Any], algorithm: RandomAlgorithm,
    out_sharding: None,
) -> list[ir.Value[Any]]:
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
    from jax_core._src.lax.indexing.slicing import dynamic_update_slice
    from jax_core._src.lax.indexing.slicing import slice as lax_slice
    from jax_core._src.lax.shape.dimensions import reshape

    (keys,), (d,) = args, dims
    if d is None:
        return list(rng_bit_generator_p.bind(keys, shape=shape, **params)), [None, None]
    keys = moveaxis(keys, d, 0)
    size, width = get_aval(keys).shape
    key = reshape(lax_slice(keys, (0, 0), (1, width)), (width,))
    new_key, bits = rng_bit_generator_p.bind(key, shape=(size, *shape), **params)
    new_keys = dynamic_update_slice(keys, reshape(new_key, (1, width)), (0, 0))
    return [new_keys, bits], [0, 0]


rng_bit_generator_p: Primitive = Primitive("rng_bit_generator", multiple_results=True)
rng_bit_generator_p.def_rules(Rules(abstract_eval=_rbg_abstract_eval, lower=_rbg_lower, jvp=_rbg_jvp, batch=_rbg_batch))


# -- rng_uniform ----------------------------------------------------------------------------------
def rng_uniform(a: ArrayLike, b: ArrayLike, shape: Sequence[int]) -> Array:
    """Stateful uniform values in ``[a, b)`` of ``shape`` (XLA's ``RngUniform``); experimental,
    as in JAX: the values depend on the backend and are not reproducible across calls."""
    out: Array = rng_uniform_p.bind(a, b, shape=tuple(operator.index(d) for d in shape))
    return out


rng_uniform_p: Primitive = Primitive("rng_uniform")


def _rng_uniform_abstract_eval(a: ShapedArray, b: ShapedArray, *, shape: tuple[int, ...]) -> ShapedArray:
    if a.dtype != b.dtype:
        raise ValueError(f"Arguments to rng_uniform must have identical dtypes, got {a.dtype} and {b.dtype}.")
    if a.shape != () or b.shape != ():
        raise ValueError(f"Arguments to rng_uniform must be scalars; got shapes {a.shape} and {b.shape}.")
    return ShapedArray(shape, a.dtype, a.weak_type and b.weak_type)


def _rng_uniform_lower(
    ctx: LoweringRuleContext, a: ir.Value[Any], b: ir.Value[Any], *, shape: tuple[int, ...]
) -> ir.Value[Any]:
    dims = hlo_util.constant(np.array(ctx.avals_out[0].shape, np.int64))
    uniform = hlo.RngDistributionAttr.get("UNIFORM")
    op = hlo.RngOp(a, b, dims, uniform, results=[aval_to_ir_type(ctx.avals_out[0])])
    out: ir.Value[Any] = op.result
    return out


rng_uniform_p.def_rules(
    Rules(
        abstract_eval=_rng_uniform_abstract_eval,
        lower=_rng_uniform_lower,
        jvp=no_jvp("rng_uniform"),
        batch=no_batch("rng_uniform"),
    )
)
