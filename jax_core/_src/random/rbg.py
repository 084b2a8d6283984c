"""The ``rbg`` and ``unsafe_rbg`` PRNG implementations (keys ``key<rbg>``, ``key<urbg>``): random
bits from XLA's ``RngBitGenerator`` (``lax.rng_bit_generator``), keys of four ``uint32`` words.

As JAX's: a seed gives two copies of the threefry seed words; ``rbg`` splits and folds in each
half with threefry2x32, ``unsafe_rbg`` derives new keys from the generator itself (every 10th
block of bits). The functions take a leading batch of keys (``uint32[*S, 4]``) as JAX's ``vmap``
over them does, including its rule for a batch of generator keys: the bits of all of them come
from the first key (``rng_bit_generator``'s batching rule).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jax_core._src.core.trace import get_aval
from jax_core._src.export.serialization import DTYPE_KEY_RBG, DTYPE_KEY_UNSAFE_RBG, register_dtype_code
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.rng import rng_bit_generator
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.random.keys import KeyTy, PRNGImpl, Shape, register_prng
from jax_core._src.random.threefry import threefry_fold_in, threefry_seed, threefry_split
from jax_core._src.typing.basearray import Array


def _shape(x: Any) -> Shape:
    return get_aval(x).shape


def _generate(data: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    """``rng_bit_generator`` bits of ``shape`` for each key of ``data`` (``uint32[*S, 4]``):
    ``[*S, *shape]``, all from the first key when there is a batch (JAX's batching rule)."""
    batch = _shape(data)[:-1]
    if not batch:
        return rng_bit_generator(data, shape, dtype)[1]
    first = shape_dims.reshape(slicing.slice(shape_dims.reshape(data, (math.prod(batch), 4)), (0, 0), (1, 4)), (4,))
    return rng_bit_generator(first, (*batch, *shape), dtype)[1]


def rbg_seed(seeds: Array) -> Array:
    """``uint32[*S, 4]``: the threefry seed words, twice."""
    half = threefry_seed(seeds)
    return shape_assembly.concatenate([half, half], len(_shape(half)) - 1)


def _halves(data: Array) -> Array:
    """``uint32[*S, 2, 2]``: each key's two threefry halves."""
    return shape_dims.reshape(data, (*_shape(data)[:-1], 2, 2))


def rbg_split(data: Array, shape: Shape) -> Array:
    """``uint32[*S, *shape, 4]``: each half of each key split with threefry2x32."""
    batch = _shape(data)[:-1]
    parts = threefry_split(_halves(data), shape)  # [*S, 2, *shape, 2]
    nb, ns = len(batch), len(shape)
    perm = (*range(nb), *range(nb + 1, nb + 1 + ns), nb, nb + 1 + ns)
    return shape_dims.reshape(shape_dims.transpose(parts, perm), (*batch, *shape, 4))


def rbg_fold_in(data: Array, msgs: Array) -> Array:
    """``uint32[*S, 4]``: ``msgs`` folded into each half of each key with threefry2x32."""
    halves = _halves(data)
    out = threefry_fold_in(halves, shape_dims.expand_dims(msgs, (len(_shape(msgs)),)))
    return shape_dims.reshape(out, (*_shape(out)[:-2], 4))


def rbg_random_bits(data: Array, bit_width: int, shape: Shape) -> Array:
    """``uint<bit_width>[*S, *shape]`` from XLA's generator."""
    if bit_width not in (8, 16, 32, 64):
        raise TypeError("requires 8-, 16-, 32- or 64-bit field width.")
    return _generate(data, shape, np.dtype(f"uint{bit_width}"))


def unsafe_rbg_split(data: Array, shape: Shape) -> Array:
    """``uint32[*S, *shape, 4]``: every 10th block of the generator's bits, as new keys."""
    batch = _shape(data)[:-1]
    num = math.prod(shape)
    blocks = _generate(data, (10 * num, 4), np.dtype(np.uint32))  # [*S, 10 num, 4]
    nb = len(batch)
    picked = slicing.slice(blocks, (0,) * (nb + 2), (*batch, 10 * num, 4), (*(1,) * nb, 10, 1))
    return shape_dims.reshape(picked, (*batch, *shape, 4))


def unsafe_rbg_fold_in(data: Array, msgs: Array) -> Array:
    """``data`` xor the last block of the generator's bits seeded by ``msgs``."""
    seeds = rbg_seed(msgs)  # [*M, 4]
    blocks = _generate(seeds, (10, 4), np.dtype(np.uint32))  # [*M, 10, 4]
    m = len(_shape(msgs))
    last = shape_dims.squeeze(slicing.slice(blocks, (*(0,) * m, 9, 0), (*_shape(msgs), 10, 4)), (m,))
    out = np.broadcast_shapes(_shape(data), _shape(last))
    data_b = shape_dims.broadcast_in_dim(data, out, tuple(range(len(out) - len(_shape(data)), len(out))))
    last_b = shape_dims.broadcast_in_dim(last, out, tuple(range(len(out) - len(_shape(last)), len(out))))
    return lax.bitwise_xor(data_b, last_b)


rbg_prng_impl: PRNGImpl = PRNGImpl(
    key_shape=(4,),
    seed=rbg_seed,
    split=rbg_split,
    random_bits=rbg_random_bits,
    fold_in=rbg_fold_in,
    name="rbg",
    tag="rbg",
)
"""``jax.random.key(0, impl="rbg")``: XLA's generator for bits, threefry2x32 for keys."""

unsafe_rbg_prng_impl: PRNGImpl = PRNGImpl(
    key_shape=(4,),
    seed=rbg_seed,
    split=unsafe_rbg_split,
    random_bits=rbg_random_bits,
    fold_in=unsafe_rbg_fold_in,
    name="unsafe_rbg",
    tag="urbg",
)
"""``jax.random.key(0, impl="unsafe_rbg")``: XLA's generator for bits and keys."""

register_prng(rbg_prng_impl)
register_prng(unsafe_rbg_prng_impl)
register_dtype_code(KeyTy(rbg_prng_impl), DTYPE_KEY_RBG)  # jax.export's codes for the key dtypes
register_dtype_code(KeyTy(unsafe_rbg_prng_impl), DTYPE_KEY_UNSAFE_RBG)
