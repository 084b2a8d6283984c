"""The key primitives: ``random_seed``, ``random_wrap``, ``random_unwrap``, ``random_bits``,
``random_split``, ``random_fold_in`` (JAX's names), and ``iota_2x32_shape``.

Each takes and/or returns key avals (``key<fry>[*S]``) and acts on every key of a key
array, so batching moves nothing but the batch axis (keys' axes lead, the key data is
last). Their lowering traces the implementation's function (``threefry.py``) on the
physical data; eager calls compile that one-primitive lowering like every other
primitive. Keys carry no derivative: the jvp rules give zero (``float0``) tangents.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.ad_util import zero_jvp
from jax_core._src.interpreters.batching_util import (
    axis_size,
    bdim_at_front,
    moveaxis,
    vectorized_batcher,
)
from jax_core._src.lib.mlir import hlo, ir
from jax_core._src.lowering import hlo as hlo_util
from jax_core._src.lowering.ir_types import aval_to_ir_type
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext
from jax_core._src.random.keys import (
    PRNGImpl,
    Shape,
    is_key_dtype,
    key_aval,
    key_impl_of,
    physical_aval,
)
from jax_core._src.random.physical import lower_fun

_U32 = np.dtype(np.uint32)


def _check_key_aval(name: str, aval: ShapedArray) -> None:
    if not is_key_dtype(aval.dtype):
        raise TypeError(f"{name} takes key array operand, got keys.dtype={aval.dtype}")


# -- random_seed ---------------------------------------------------------------------
random_seed_p: Primitive = Primitive("random_seed")


def _random_seed_abstract_eval(seeds: ShapedArray, *, impl: PRNGImpl) -> ShapedArray:
    if not dtypes.issubdtype(seeds.dtype, np.integer):
        raise TypeError(f"PRNG key seed must be an integer; got JitTracer({seeds})")
    return key_aval(impl, seeds.shape)


def _random_seed_lower(
    ctx: LoweringRuleContext, seeds: ir.Value[Any], *, impl: PRNGImpl
) -> list[ir.Value[Any]]:
    return lower_fun(impl.seed, ctx, seeds)


random_seed_p.def_rules(
    Rules(
        abstract_eval=_random_seed_abstract_eval,
        lower=_random_seed_lower,
        jvp=zero_jvp(random_seed_p),
        batch=vectorized_batcher(random_seed_p),
    )
)


# -- random_wrap / random_unwrap -----------------------------------------------------
random_wrap_p: Primitive = Primitive("random_wrap")


def _random_wrap_abstract_eval(base_arr: ShapedArray, *, impl: PRNGImpl) -> ShapedArray:
    n = len(impl.key_shape)
    if base_arr.dtype != _U32 or base_arr.shape[base_arr.ndim - n :] != impl.key_shape:
        raise TypeError(
            f"random_wrap expects uint32 key data of shape (..., {impl.key_shape}), got {base_arr}"
        )
    return key_aval(impl, base_arr.shape[: base_arr.ndim - n])


def _identity_lower(
    ctx: LoweringRuleContext, x: ir.Value[Any], **params: Any
) -> list[ir.Value[Any]]:
    return [x]


def _random_wrap_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, impl: PRNGImpl
) -> tuple[Any, int]:
    (x,), (d,) = args, dims
    assert d is not None
    return random_wrap_p.bind(moveaxis(x, d, 0), impl=impl), 0


random_wrap_p.def_rules(
    Rules(
        abstract_eval=_random_wrap_abstract_eval,
        lower=_identity_lower,
        jvp=zero_jvp(random_wrap_p),
        batch=_random_wrap_batch,
    )
)

random_unwrap_p: Primitive = Primitive("random_unwrap")


def _random_unwrap_abstract_eval(keys: ShapedArray) -> ShapedArray:
    _check_key_aval("random_unwrap", keys)
    return physical_aval(keys)


def _random_unwrap_impl(keys: Any) -> Any:
    # As JAX's: a concrete key array's data is at hand (no computation, so keys spread over
    # other processes' devices unwrap too).
    from jax_core._src.random.keys import PRNGKeyArray

    if isinstance(keys, PRNGKeyArray):
        return keys._base_array  # pyright: ignore[reportPrivateUsage]
    raise TypeError(f"random_unwrap takes a PRNG key array, got {type(keys)}")


random_unwrap_p.def_rules(
    Rules(
        abstract_eval=_random_unwrap_abstract_eval,
        impl=_random_unwrap_impl,
        lower=_identity_lower,
        jvp=zero_jvp(random_unwrap_p),
        batch=vectorized_batcher(random_unwrap_p),
    )
)


# -- random_bits ---------------------------------------------------------------------
random_bits_p: Primitive = Primitive("random_bits")


def _random_bits_abstract_eval(keys: ShapedArray, *, bit_width: int, shape: Shape) -> ShapedArray:
    _check_key_aval("random_bits", keys)
    return ShapedArray((*keys.shape, *shape), np.dtype(f"uint{bit_width}"))


def _random_bits_lower(
    ctx: LoweringRuleContext, keys: ir.Value[Any], *, bit_width: int, shape: Shape
) -> list[ir.Value[Any]]:
    impl = key_impl_of(ctx.avals_in[0])

    def bits(data: Any) -> Any:
        return impl.random_bits(data, bit_width, shape)

    return lower_fun(bits, ctx, keys)


random_bits_p.def_rules(
    Rules(
        abstract_eval=_random_bits_abstract_eval,
        lower=_random_bits_lower,
        jvp=zero_jvp(random_bits_p),
        batch=vectorized_batcher(random_bits_p),
    )
)


# -- random_split --------------------------------------------------------------------
random_split_p: Primitive = Primitive("random_split")


def _random_split_abstract_eval(keys: ShapedArray, *, shape: Shape) -> ShapedArray:
    _check_key_aval("random_split", keys)
    return key_aval(key_impl_of(keys), (*keys.shape, *shape))


def _random_split_lower(
    ctx: LoweringRuleContext, keys: ir.Value[Any], *, shape: Shape
) -> list[ir.Value[Any]]:
    impl = key_impl_of(ctx.avals_in[0])

    def split(data: Any) -> Any:
        return impl.split(data, shape)

    return lower_fun(split, ctx, keys)


random_split_p.def_rules(
    Rules(
        abstract_eval=_random_split_abstract_eval,
        lower=_random_split_lower,
        jvp=zero_jvp(random_split_p),
        batch=vectorized_batcher(random_split_p),
    )
)


# -- random_fold_in ------------------------------------------------------------------
random_fold_in_p: Primitive = Primitive("random_fold_in")


def _random_fold_in_abstract_eval(keys: ShapedArray, msgs: ShapedArray) -> ShapedArray:
    _check_key_aval("random_fold_in", keys)
    if msgs.dtype != _U32:
        raise TypeError(f"random_fold_in expects uint32 data, got {msgs.dtype}")
    try:
        shape = np.broadcast_shapes(keys.shape, msgs.shape)
    except ValueError:
        raise TypeError(
            f"random_fold_in got incompatible shapes for broadcasting: {keys.shape}, {msgs.shape}."
        ) from None
    return key_aval(key_impl_of(keys), shape)


def _random_fold_in_lower(
    ctx: LoweringRuleContext, keys: ir.Value[Any], msgs: ir.Value[Any]
) -> list[ir.Value[Any]]:
    impl = key_impl_of(ctx.avals_in[0])
    return lower_fun(impl.fold_in, ctx, keys, msgs)


def _random_fold_in_batch(args: Sequence[Any], dims: Sequence[int | None]) -> tuple[Any, int]:
    """Batched operands move to the front; an unbatched message (a scalar) stays unbatched and
    broadcasts (as JAX's broadcasting batcher: ``unsafe_rbg`` then derives one block of bits)."""
    size = axis_size(args, dims)
    keys, msgs = (
        x if d is None and get_aval(x).ndim == 0 else bdim_at_front(x, d, size) for x, d in zip(args, dims)
    )
    return random_fold_in_p.bind(keys, msgs), 0


random_fold_in_p.def_rules(
    Rules(
        abstract_eval=_random_fold_in_abstract_eval,
        lower=_random_fold_in_lower,
        jvp=zero_jvp(random_fold_in_p),
        batch=_random_fold_in_batch,
    )
)


# -- iota_2x32_shape -----------------------------------------------------------------
iota_2x32_shape_p: Primitive = Primitive("iota_2x32_shape", multiple_results=True)
"""The flat index of each position of ``shape`` as two ``uint32`` arrays (high, low words),
computed in ``uint64`` (JAX's lowering, which XLA's partitioner recognises)."""


def _iota_2x32_shape_abstract_eval(*, shape: Shape) -> list[ShapedArray]:
    return [ShapedArray(shape, _U32)] * 2


def _iota_2x32_shape_lower(ctx: LoweringRuleContext, *, shape: Shape) -> list[ir.Value[Any]]:
    u64 = ShapedArray(shape, np.dtype(np.uint64))
    u64_type = aval_to_ir_type(u64)

    def splat(v: int) -> ir.Value[Any]:
        return hlo_util.broadcast_in_dim(hlo_util.constant(np.asarray(v, np.uint64)), u64, ())

    strides = [int(np.prod(shape[i + 1 :], dtype=np.int64)) for i in range(len(shape))]
    terms = [hlo.multiply(splat(s), hlo.iota(u64_type, i)) for i, s in enumerate(strides)]
    counts = functools.reduce(hlo.add, terms)
    shifted = hlo.shift_right_logical(counts, splat(32))
    u32_type = aval_to_ir_type(ctx.avals_out[0])
    return [hlo.convert(u32_type, shifted), hlo.convert(u32_type, counts)]


def _iota_2x32_shape_batch(
    args: Sequence[Any], dims: Sequence[int | None], *, shape: Shape
) -> tuple[Any, Any]:
    return iota_2x32_shape_p.bind(shape=shape), [None, None]  # no operands: never batched


iota_2x32_shape_p.def_rules(
    Rules(
        abstract_eval=_iota_2x32_shape_abstract_eval,
        lower=_iota_2x32_shape_lower,
        jvp=zero_jvp(iota_2x32_shape_p),
        batch=_iota_2x32_shape_batch,
    )
)

__all__ = [
    "iota_2x32_shape_p",
    "random_bits_p",
    "random_fold_in_p",
    "random_seed_p",
    "random_split_p",
    "random_unwrap_p",
    "random_wrap_p",
]
