"""Continuous samplers built on ``uniform``: ``uniform``, ``normal``, ``truncated_normal``,
``bernoulli``, ``exponential``, ``laplace``, ``logistic``, ``gumbel``, ``cauchy``, and
``randint``.

Each is JAX 0.12's algorithm op for op (the bits are the same: tests compare against
streams recorded from JAX): a public function checks its arguments with JAX's errors,
then a jitted ``_name`` (static shape and dtype) computes, so a jaxpr shows one ``jit``
equation per sampler, as JAX's does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jax_core import numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.avals import canonical_shape
from jax_core._src.core.trace import get_aval
from jax_core._src.lax.ad_ops import stop_gradient
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.elementwise import bitcast_convert_type
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.shape.compositions import broadcast_shapes
from jax_core._src.random.api import check_prng_key, random_bits, split_keys
from jax_core._src.random.keys import KeyLike
from jax_core._src.transforms.api import jit
from jax_core._src.typing import ArrayLike, DTypeLike, ShapeLike
from jax_core._src.typing.basearray import Array

Shape = tuple[int, ...]
UINT_DTYPES: dict[int, np.dtype[Any]] = {
    8: np.dtype("uint8"),
    16: np.dtype("uint16"),
    32: np.dtype("uint32"),
    64: np.dtype("uint64"),
}
"""The unsigned dtype of each bit width."""


def check_shape(name: str, shape: Shape, *param_shapes: Shape) -> None:
    """JAX's check that parameter shapes broadcast to exactly ``shape``."""
    if param_shapes:
        shape_ = broadcast_shapes(shape, *param_shapes)  # lax's: JAX's message when incompatible
        if shape != shape_:
            raise ValueError(
                f"{name} parameter shapes must be broadcast-compatible with shape argument, and the "
                "result of broadcasting the shapes must equal the shape argument, but got result "
                f"{shape_} for shape argument {shape}."
            )


def float_dtype(
    name: str, dtype: DTypeLike | None, *, allow_complex: bool = False
) -> np.dtype[Any]:
    """The sampler's canonical float dtype (default float32, float64 with x64), JAX's errors."""
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    if allow_complex:
        if not dtypes.issubdtype(dt, np.inexact):
            raise ValueError(
                f"dtype argument to `{name}` must be a float or complex dtype, got {dt}"
            )
    elif not dtypes.issubdtype(dt, np.floating):
        raise ValueError(f"dtype argument to `{name}` must be a float dtype, got {dt}")
    return dt


def _shape_of(x: ArrayLike) -> Shape:
    return get_aval(x).shape


# -- uniform ---------------------------------------------------------------------------


def uniform(
    key: KeyLike,
    shape: ShapeLike = (),
    dtype: DTypeLike | None = None,
    minval: ArrayLike = 0.0,
    maxval: ArrayLike = 1.0,
) -> Array:
    """Uniform floats in ``[minval, maxval)`` of ``shape`` (default float32)."""
    typed, _ = check_prng_key("uniform", key)
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    shape_t = canonical_shape(shape, "uniform")
    if not dtypes.issubdtype(dt, np.floating):
        raise ValueError(f"dtype argument to `uniform` must be a float dtype, got {dt}")
    return _uniform(typed, minval, maxval, shape_t, dt)


@jit(static_argnums=(3, 4))
def _uniform(
    key: Array, minval: ArrayLike, maxval: ArrayLike, shape: Shape, dtype: np.dtype[Any]
) -> Array:
    check_shape("uniform", shape)
    lo = shape_dims.broadcast_to_rank(lax.convert_element_type(minval, dtype), len(shape))
    hi = shape_dims.broadcast_to_rank(lax.convert_element_type(maxval, dtype), len(shape))
    finfo = dtypes.finfo(dtype)
    nbits, nmant = int(finfo.bits), int(finfo.nmant)
    if nbits not in (8, 16, 32, 64):
        raise TypeError(f"uniform only accepts 8-, 16-, 32-, or 64-bit dtypesgot {dtype}.")
    rng_bits = 8 if nmant < 8 else nbits
    bits = random_bits(key, rng_bits, shape)
    uint_dtype = UINT_DTYPES[nbits]
    if rng_bits != nbits:
        bits = lax.convert_element_type(bits, uint_dtype)
    float_bits = lax.shift_right_logical(bits, np.asarray(rng_bits - nmant, uint_dtype))
    float_bits = lax.bitwise_or(float_bits, np.array(1.0, dtype).view(uint_dtype))
    floats = lax.sub(bitcast_convert_type(float_bits, dtype), np.array(1.0, dtype))
    scaled = lax.add(lax.mul(floats, lax.sub(hi, lo)), lo)
    return lax.max(lo, shape_dims.reshape(scaled, shape))


# -- normal ----------------------------------------------------------------------------


def normal(key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None) -> Array:
    """Standard normal floats (or complex: real and imaginary parts each of variance 1/2)."""
    typed, _ = check_prng_key("normal", key)
    shape_t = canonical_shape(shape, "normal")
    dt = dtypes.check_and_canonicalize_user_dtype(float if dtype is None else dtype)
    if not dtypes.issubdtype(dt, np.inexact):
        raise ValueError(f"dtype argument to `normal` must be a float or complex dtype, got {dt}")
    return _normal(typed, shape_t, dt)


@jit(static_argnums=(1, 2))
def _normal(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    if dtypes.issubdtype(dtype, np.complexfloating):
        sqrt2 = np.array(np.sqrt(2), dtype)
        key_re, key_im = split_keys(key)
        real_dtype = dtypes.to_floating_dtype(dtype)
        re = lax.convert_element_type(_normal_real(key_re, shape, real_dtype), dtype)
        im = lax.convert_element_type(_normal_real(key_im, shape, real_dtype), dtype)
        return jnp.true_divide(jnp.add(re, jnp.multiply(1j, im)), sqrt2)
    return _normal_real(key, shape, dtype)


@jit(static_argnums=(1, 2))
def _normal_real(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_shape("normal", shape)
    lo = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype), dtype=dtype)
    hi = np.array(1.0, dtype)
    u = uniform(key, shape, dtype, lo, hi)
    return lax.mul(np.array(np.sqrt(2), dtype), lax.erf_inv(u))


# -- truncated_normal ------------------------------------------------------------------


def truncated_normal(
    key: KeyLike,
    lower: ArrayLike,
    upper: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: DTypeLike | None = None,
) -> Array:
    """Standard normal floats truncated to the open interval ``(lower, upper)``."""
    shape_t = None if shape is None else canonical_shape(shape, "truncated_normal")
    typed, _ = check_prng_key("truncated_normal", key)
    dt = float_dtype("truncated_normal", dtype)
    return _truncated_normal(typed, lower, upper, shape_t, dt)


@jit(static_argnums=(3, 4))
def _truncated_normal(
    key: Array, lower: ArrayLike, upper: ArrayLike, shape: Shape | None, dtype: np.dtype[Any]
) -> Array:
    if shape is None:
        shape = np.broadcast_shapes(_shape_of(lower), _shape_of(upper))
    else:
        check_shape("truncated_normal", shape, _shape_of(lower), _shape_of(upper))
    sqrt2 = np.array(np.sqrt(2), dtype)
    lo = lax.convert_element_type(lower, dtype)
    hi = lax.convert_element_type(upper, dtype)
    a = lax.erf(lax.div(lo, sqrt2))
    b = lax.erf(lax.div(hi, sqrt2))
    u = uniform(key, shape, dtype, minval=a, maxval=b)
    out = lax.mul(sqrt2, lax.erf_inv(u))
    # Clamp to the open interval: rounding (or u == a) may land on a bound.
    lo_open = lax.nextafter(stop_gradient(lo), np.array(np.inf, dtype))
    hi_open = lax.nextafter(stop_gradient(hi), np.array(-np.inf, dtype))
    return jnp.minimum(jnp.maximum(out, lo_open), hi_open)


# -- bernoulli -------------------------------------------------------------------------


def bernoulli(
    key: KeyLike, p: ArrayLike = 0.5, shape: ShapeLike | None = None, mode: str = "low"
) -> Array:
    """Booleans that are true with probability ``p`` (``mode="high"`` for tiny ``p``)."""
    shape_t = None if shape is None else canonical_shape(shape, "bernoulli")
    if mode not in ("high", "low"):
        raise ValueError(f"got {mode=}, expected 'high' or 'low'")
    typed, _ = check_prng_key("bernoulli", key)
    dt = dtypes.dtype(p, canonicalize=True)
    if not dtypes.issubdtype(dt, np.floating):
        raise TypeError(f"bernoulli probability `p` must have a floating dtype, got {dt}.")
    return _bernoulli(typed, lax.convert_element_type(p, dt), shape_t, mode)


@jit(static_argnums=(2, 3))
def _bernoulli(key: Array, p: Array, shape: Shape | None, mode: str) -> Array:
    if shape is None:
        shape = p.shape
    else:
        check_shape("bernoulli", shape, p.shape)
    dtype = p.dtype
    if mode == "high":
        u1, u2 = uniform(key, (2, *shape), dtype)
        u2 = jnp.multiply(u2, 2.0 ** -int(dtypes.finfo(dtype).nmant))
        return jnp.less(u2, jnp.subtract(p, u1))
    return jnp.less(uniform(key, shape, dtype), p)


# -- exponential, laplace, logistic, cauchy --------------------------------------------


def exponential(key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None) -> Array:
    """Exponential floats (rate 1)."""
    typed, _ = check_prng_key("exponential", key)
    dt = float_dtype("exponential", dtype)
    return _exponential(typed, canonical_shape(shape, "exponential"), dt)


@jit(static_argnums=(1, 2))
def _exponential(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_shape("exponential", shape)
    u = uniform(key, shape, dtype)
    return lax.neg(lax.log1p(lax.neg(u)))  # log(1 - u): the domain of log is (0, 1]


def laplace(key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None) -> Array:
    """Laplace floats (location 0, scale 1)."""
    typed, _ = check_prng_key("laplace", key)
    dt = float_dtype("laplace", dtype)
    return _laplace(typed, canonical_shape(shape, "laplace"), dt)


@jit(static_argnums=(1, 2))
def _laplace(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_shape("laplace", shape)
    u = uniform(key, shape, dtype, minval=-1.0 + float(dtypes.finfo(dtype).epsneg), maxval=1.0)
    return lax.mul(lax.sign(u), lax.log1p(lax.neg(lax.abs(u))))


def logistic(key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None) -> Array:
    """Logistic floats (location 0, scale 1)."""
    typed, _ = check_prng_key("logistic", key)
    dt = float_dtype("logistic", dtype)
    return _logistic(typed, canonical_shape(shape, "logistic"), dt)


@jit(static_argnums=(1, 2))
def _logistic(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_shape("logistic", shape)
    x = uniform(key, shape, dtype, minval=float(dtypes.finfo(dtype).tiny), maxval=1.0)
    return lax.sub(lax.log(x), lax.log1p(lax.neg(x)))


def cauchy(key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None) -> Array:
    """Cauchy floats (location 0, scale 1)."""
    typed, _ = check_prng_key("cauchy", key)
    dt = float_dtype("cauchy", dtype)
    return _cauchy(typed, canonical_shape(shape, "cauchy"), dt)


@jit(static_argnums=(1, 2))
def _cauchy(key: Array, shape: Shape, dtype: np.dtype[Any]) -> Array:
    check_shape("cauchy", shape)
    u = uniform(key, shape, dtype, minval=float(dtypes.finfo(dtype).eps), maxval=1.0)
    pi = np.array(np.pi, dtype)
    return lax.tan(lax.mul(pi, lax.sub(u, np.array(0.5, dtype))))


# -- gumbel ----------------------------------------------------------------------------


def gumbel(
    key: KeyLike, shape: ShapeLike = (), dtype: DTypeLike | None = None, mode: str | None = None
) -> Array:
    """Gumbel floats; ``mode`` ``"low"`` (default), ``"high"`` or ``"highest"`` trades cost
    for the largest representable sample."""
    typed, _ = check_prng_key("gumbel", key)
    dt = float_dtype("gumbel", dtype)
    shape_t = canonical_shape(shape, "gumbel")
    mode = "low" if mode is None else mode
    if mode not in ("highest", "high", "low"):
        raise ValueError(f"Must provide valid mode for gumbel got: {mode}")
    return _gumbel(typed, shape_t, dt, mode)


def _safe_int_to_float(bits: Array) -> Array:
    """``uint32[2, ...]`` as float32 in (0, 1), using all 64 bits (JAX's helper)."""
    finfo = dtypes.finfo(np.float32)
    nbits, nmant, minexp = int(finfo.bits), int(finfo.nmant), int(finfo.minexp)
    u32 = np.uint32
    hiclz, loclz = lax.clz(bits)
    hi, lo = bits
    mantissa = lax.bitwise_or(
        lax.shift_left(hi, hiclz),
        jnp.where(
            jnp.equal(hiclz, 32),
            lax.shift_left(lo, loclz),
            lax.shift_right_logical(lo, jnp.subtract(u32(nbits), hiclz)),
        ),
    )
    mantissa = lax.shift_right_logical(mantissa, np.array(nbits - nmant - 1, u32))
    mantissa = lax.bitwise_and(mantissa, np.array((1 << nmant) - 1, u32))
    exp = lax.shift_left(
        jnp.subtract(u32(-minexp), jnp.where(jnp.equal(hiclz, 32), jnp.add(u32(32), loclz), hiclz)),
        np.array(nmant, u32),
    )
    exp = lax.bitwise_and(exp, np.array((1 << (nbits - 2)) - (1 << (nmant - 1)), u32))
    return bitcast_convert_type(lax.bitwise_or(exp, mantissa), np.float32)


@jit(static_argnums=(1, 2, 3))
def _gumbel(key: Array, shape: Shape, dtype: np.dtype[Any], mode: str) -> Array:
    check_shape("gumbel", shape)
    info = dtypes.finfo(dtype)
    if dtype == np.float32 and mode == "highest":
        u32 = np.uint32
        bits = random_bits(key, 32, (2, *shape))
        neg = lax.bitwise_not(bits)
        lo_bits = neg[1]
        carry = jnp.stack(
            [jnp.equal(lo_bits, u32(0xFFFFFFFF)), jnp.ones_like(lo_bits, dtype=bool)]
        ).astype(u32)
        neg = jnp.add(neg, carry)
        flip_mask = jnp.less(bits[0], u32(1 << 31))
        x = _safe_int_to_float(jnp.where(flip_mask, bits, neg))
        small = jnp.negative(jnp.log(jnp.negative(jnp.log1p(jnp.negative(x)))))  # log1p on (0, 0.5)
        large = jnp.negative(jnp.log(jnp.negative(jnp.log(x))))  # log on [0.5, 1)
        out: Array = jnp.where(flip_mask, small, large)
        return out
    if mode in ("high", "highest"):
        high, low = _uniform(key, 0.0, 1.0, (2, *shape), dtype)
        nmant = int(info.nmant)
        step = max(2.0 ** -(2 * nmant + 1), float(info.tiny))
        x = jnp.where(
            jnp.greater_equal(high, 0.5),
            high,
            jnp.add(jnp.add(high, jnp.multiply(2.0**-nmant, low)), step),
        )
        return jnp.negative(jnp.log(jnp.negative(jnp.log1p(jnp.negative(x)))))
    u = _uniform(key, float(info.tiny), 1.0, shape, dtype)
    return jnp.negative(jnp.log(jnp.negative(jnp.log(u))))


# -- randint ---------------------------------------------------------------------------


def randint(
    key: KeyLike,
    shape: ShapeLike,
    minval: ArrayLike,
    maxval: ArrayLike,
    dtype: DTypeLike | None = None,
) -> Array:
    """Uniform integers in ``[minval, maxval)`` (int32 by default; slightly biased unless the
    range is a power of two, as JAX's)."""
    typed, _ = check_prng_key("randint", key)
    dt = dtypes.check_and_canonicalize_user_dtype(int if dtype is None else dtype)
    shape_t = canonical_shape(shape, "randint")
    if not dtypes.issubdtype(dt, np.integer):
        raise TypeError(f"randint only accepts integer dtypes, got {dt}")
    info = dtypes.iinfo(dt)
    sampling = dt
    if info.bits < 32:  # sample in 32 bits to avoid biased results
        sampling = np.dtype("int32")
        minval = jnp.minimum(
            jnp.maximum(jnp.asarray(minval).astype("int32"), int(info.min)), int(info.max)
        )
        maxval = jnp.minimum(
            jnp.maximum(jnp.asarray(maxval).astype("int32"), int(info.min)), int(info.max) + 1
        )
    return _randint(typed, minval, maxval, shape_t, sampling).astype(dt)


def _convert_and_clip_integer(val: Array, dtype: np.dtype[Any]) -> Array:
    """``val`` converted to ``dtype``, clipped to its range instead of wrapping."""
    lo = max(int(dtypes.iinfo(dtype).min), int(dtypes.iinfo(val.dtype).min))
    hi = min(int(dtypes.iinfo(dtype).max), int(dtypes.iinfo(val.dtype).max))
    clipped = lax.min(lax.max(val, np.asarray(lo, val.dtype)), np.asarray(hi, val.dtype))
    return lax.convert_element_type(clipped, dtype)


@jit(static_argnums=(3, 4))
def _randint(
    key: Array, minval: ArrayLike, maxval: ArrayLike, shape: Shape, dtype: np.dtype[Any]
) -> Array:
    check_shape("randint", shape, _shape_of(minval), _shape_of(maxval))
    lo_arr, hi_arr = jnp.asarray(minval), jnp.asarray(maxval)
    if not dtypes.issubdtype(lo_arr.dtype, np.integer):
        lo_arr = lo_arr.astype(int)
    if not dtypes.issubdtype(hi_arr.dtype, np.integer):
        hi_arr = hi_arr.astype(int)
    # Where maxval exceeds the dtype's range (randint(key, shape, 0, 256, 'uint8')).
    top = _convert_and_clip_integer(jnp.array(dtypes.iinfo(dtype).max, dtype), hi_arr.dtype)
    maxval_out_of_range = lax.gt(hi_arr, top)
    lo = shape_dims.broadcast_to_rank(_convert_and_clip_integer(lo_arr, dtype), len(shape))
    hi = shape_dims.broadcast_to_rank(_convert_and_clip_integer(hi_arr, dtype), len(shape))
    nbits = int(dtypes.iinfo(dtype).bits)
    if nbits not in (8, 16, 32, 64):
        raise TypeError(f"randint only accepts 8-, 16-, 32-, or 64-bit dtypes, got {dtype}")
    k1, k2 = split_keys(key)
    higher_bits, lower_bits = random_bits(k1, nbits, shape), random_bits(k2, nbits, shape)
    unsigned = UINT_DTYPES[nbits]
    one = np.asarray(1, unsigned)
    span = lax.convert_element_type(lax.sub(hi, lo), unsigned)
    span = lax.select(lax.le(hi, lo), jnp.full_like(span, 1), span)  # maxval <= minval: minval
    span = lax.select(
        jnp.logical_and(maxval_out_of_range, jnp.greater(hi, lo)), lax.add(span, one), span
    )
    # (a * b) % N = ((a % N) * (b % N)) % N, for a remainder of 2 * nbits random bits.
    multiplier = lax.rem(np.asarray(2 ** (nbits // 2), unsigned), span)
    multiplier = lax.rem(lax.mul(multiplier, multiplier), span)
    offset = lax.add(lax.mul(lax.rem(higher_bits, span), multiplier), lax.rem(lower_bits, span))
    offset = lax.rem(offset, span)
    return lax.add(lo, lax.convert_element_type(offset, dtype))


__all__: Sequence[str] = (
    "bernoulli",
    "cauchy",
    "exponential",
    "gumbel",
    "laplace",
    "logistic",
    "normal",
    "randint",
    "truncated_normal",
    "uniform",
)
