"""threefry2x32, JAX's default PRNG, written with jax_core's integer lax ops.

The functions here act on physical key data (``uint32[*S, 2]`` for keys of shape ``S``)
and are traced into the lowering of the key primitives, so XLA sees plain ``uint32``
adds, xors, shifts and ors. They follow JAX 0.12 with ``jax_threefry_partitionable``
on (its default): ``split`` and ``random_bits`` hash a 64-bit counter laid out over the
output shape (``iota_2x32_shape``), so the bits are bit-identical to JAX's. A batch of
keys is handled by broadcasting (the hash is elementwise), which gives the same bits as
JAX's ``vmap`` over keys.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.core.trace import get_aval
from jax_core._src.export.serialization import DTYPE_KEY_FRY, register_dtype_code
from jax_core._src.lax.control_flow.loops import fori_loop
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.indexing import slicing
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.random.keys import KeyTy, PRNGImpl, Shape, register_prng
from jax_core._src.typing.basearray import Array

_U32 = np.dtype(np.uint32)
_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_KS_PARITY = np.uint32(0x1BD11BDA)


def _shape(x: Any) -> Shape:
    return get_aval(x).shape


def _broadcast(x: Any, shape: Shape, leading: bool = False) -> Array:
    """``x`` broadcast to ``shape``, aligned at the front (``leading``) or at the back."""
    src = _shape(x)
    if src == shape and isinstance(x, Array):
        return x
    start = 0 if leading else len(shape) - len(src)
    return shape_dims.broadcast_in_dim(x, shape, tuple(range(start, start + len(src))))


def _rotate_left(x: Array, d: Any) -> Array:
    d32 = np.uint32(d) if isinstance(d, int) else d
    return lax.bitwise_or(
        lax.shift_left(x, d32), lax.shift_right_logical(x, lax.sub(np.uint32(32), d32))
    )


def _apply_round(v: list[Array], rot: Any) -> list[Array]:
    v0 = lax.add(v[0], v[1])
    v1 = _rotate_left(v[1], rot)
    return [v0, lax.bitwise_xor(v0, v1)]


def _rotate_list(xs: list[Any]) -> list[Any]:
    return xs[1:] + xs[:1]


def _rolled_loop_step(
    i: Any, state: tuple[list[Array], list[Array], list[Array]]
) -> tuple[list[Array], list[Array], list[Array]]:
    x, ks, rotations = state
    for r in rotations[0]:
        x = _apply_round(x, r)
    count = lax.convert_element_type(lax.add(i, 1), _U32)
    new_x = [lax.add(x[0], ks[0]), lax.add(lax.add(x[1], ks[1]), count)]
    return new_x, _rotate_list(ks), _rotate_list(rotations)


def threefry2x32(k1: Array, k2: Array, x1: Array, x2: Array) -> tuple[Array, Array]:
    """The threefry2x32 hash of counters ``(x1, x2)`` under key ``(k1, k2)`` (``uint32``; the
    keys may be scalars): 20 rounds as a loop of five, as JAX's CPU lowering (so XLA fuses
    the surrounding computation as it does for JAX)."""
    rotations = [np.array(_ROTATIONS[0], _U32), np.array(_ROTATIONS[1], _U32)]
    ks = [k1, k2, lax.bitwise_xor(lax.bitwise_xor(k1, k2), _KS_PARITY)]
    x = [lax.add(x1, ks[0]), lax.add(x2, ks[1])]
    init = (x, _rotate_list(ks), [shape_dims.broadcast_in_dim(r, (4,), (0,)) for r in rotations])
    out, _, _ = fori_loop(0, 5, _rolled_loop_step, init)
    return out[0], out[1]


def iota_2x32_shape(shape: Shape) -> tuple[Array, Array]:
    """The flat index of every position of ``shape`` as a 64-bit counter ``(hi, lo)``."""
    from jax_core._src.random.primitives import iota_2x32_shape_p

    if not shape:
        zero = shape_dims.broadcast_in_dim(np.uint32(0), (), ())
        return zero, zero
    hi, lo = iota_2x32_shape_p.bind(shape=tuple(shape))
    return hi, lo


def _key_halves(data: Array) -> tuple[Array, Array]:
    """The two ``uint32`` words of each key of the data array ``uint32[*S, 2]``."""
    shape = _shape(data)
    n = len(shape) - 1
    first = slicing.slice(data, (0,) * len(shape), (*shape[:n], 1))
    second = slicing.slice(data, (*(0,) * n, 1), shape)
    return shape_dims.squeeze(first, (n,)), shape_dims.squeeze(second, (n,))


def _hash_over(data: Array, shape: Shape) -> tuple[Array, Array]:
    """The hash of every position of ``shape`` under every key: ``uint32[*S, *shape]`` twice."""
    k1, k2 = _key_halves(data)
    keys_shape = _shape(k1)
    out = (*keys_shape, *shape)
    hi, lo = iota_2x32_shape(shape)
    if keys_shape:
        k1, k2 = _broadcast(k1, out, leading=True), _broadcast(k2, out, leading=True)
    return threefry2x32(k1, k2, _broadcast(hi, out), _broadcast(lo, out))


def _stack_last(a: Array, b: Array) -> Array:
    n = len(_shape(a))
    return shape_assembly.concatenate(
        [shape_dims.expand_dims(a, (n,)), shape_dims.expand_dims(b, (n,))], n
    )


def threefry_seed(seeds: Array) -> Array:
    """Key data from integer seeds: the seed's high and low 32 bits (``uint32[*S, 2]``)."""
    dt = get_aval(seeds).dtype
    high = lax.convert_element_type(lax.shift_right_logical(seeds, np.asarray(32, dt)), _U32)
    low = lax.convert_element_type(seeds, _U32)  # == seed & 0xFFFFFFFF, as a uint32
    return _stack_last(high, low)


def threefry_split(data: Array, shape: Shape) -> Array:
    """``uint32[*S, *shape, 2]``: new keys from each key (JAX's fold-like split)."""
    b1, b2 = _hash_over(data, shape)
    return _stack_last(b1, b2)


def threefry_fold_in(data: Array, msgs: Array) -> Array:
    """Keys with ``msgs`` (``uint32``, broadcast against the keys) folded in."""
    k1, k2 = _key_halves(data)
    out = np.broadcast_shapes(_shape(k1), _shape(msgs))
    zero = _broadcast(np.uint32(0), out)
    if _shape(k1) != out:
        k1, k2 = _broadcast(k1, out), _broadcast(k2, out)
    b1, b2 = threefry2x32(k1, k2, zero, _broadcast(msgs, out))
    return _stack_last(b1, b2)


def threefry_random_bits(data: Array, bit_width: int, shape: Shape) -> Array:
    """``uint<bit_width>[*S, *shape]`` random bits from each key (partitionable)."""
    if bit_width not in (8, 16, 32, 64):
        raise TypeError("requires 8-, 16-, 32- or 64-bit field width.")
    b1, b2 = _hash_over(data, shape)
    if bit_width == 64:
        u64 = np.dtype(np.uint64)
        hi, lo = lax.convert_element_type(b1, u64), lax.convert_element_type(b2, u64)
        return lax.bitwise_or(lax.shift_left(hi, np.uint64(32)), lo)
    bits = lax.bitwise_xor(b1, b2)
    if bit_width == 32:
        return bits
    return lax.convert_element_type(bits, np.dtype(f"uint{bit_width}"))


threefry_prng_impl: PRNGImpl = PRNGImpl(
    key_shape=(2,),
    seed=threefry_seed,
    split=threefry_split,
    random_bits=threefry_random_bits,
    fold_in=threefry_fold_in,
    name="threefry2x32",
    tag="fry",
)
"""JAX's default PRNG implementation (keys ``key<fry>``, data ``uint32[2]``)."""

register_prng(threefry_prng_impl)
register_dtype_code(KeyTy(threefry_prng_impl), DTYPE_KEY_FRY)  # jax.export's code for key<fry>
