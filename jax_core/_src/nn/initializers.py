"""``jax_core.nn.initializers``: functions ``init(key, shape, dtype=None, out_sharding=None)`` that
draw layer parameters (the Keras/Sonnet definitions), and the constructors that make them.

Every draw uses ``jax_core.random`` in JAX's order of operations, so the same key gives the same
bits as ``jax.nn.initializers``. ``out_sharding`` takes a ``NamedSharding`` (the result is placed
with it); a bare ``PartitionSpec`` needs a mesh context, which jax_core has not (JAX's error).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax, random
from jax_core._src import dtypes
from jax_core._src.core.avals import canonical_shape
from jax_core._src.nn.one_hot import OutShardingType, check_out_sharding, place
from jax_core._src.random.distributions import orthogonal as _random_orthogonal
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = [
    "Initializer", "constant", "delta_orthogonal", "glorot_normal", "glorot_uniform", "he_normal",
    "he_uniform", "kaiming_normal", "kaiming_uniform", "lecun_normal", "lecun_uniform", "normal",
    "ones", "orthogonal", "truncated_normal", "uniform", "variance_scaling", "xavier_normal",
    "xavier_uniform", "zeros",
]  # fmt: skip

RealNumeric: TypeAlias = ArrayLike
"""A scale or standard deviation: a Python or NumPy scalar, or a scalar array."""
Axes: TypeAlias = int | Sequence[int]
FanMode: TypeAlias = Literal["fan_in", "fan_out", "fan_avg", "fan_geo_avg"]
Distribution: TypeAlias = Literal["truncated_normal", "normal", "uniform"]

# The standard deviation of a standard normal truncated to [-2, 2], and of the modulus of a complex
# standard normal truncated to |z| <= 2: dividing by it restores the requested variance.
_TRUNCATED_STDDEV = 0.87962566103423978
_COMPLEX_TRUNCATED_STDDEV = 0.95311164380491208


@runtime_checkable
class Initializer(Protocol):
    """What every initializer is: called with a PRNG key, a shape, an optional dtype (default: the
    default float type) and an optional ``out_sharding``, it returns a new array."""

    def __call__(
        self, key: Array, shape: Sequence[int], dtype: DTypeLike | None = None, out_sharding: OutShardingType = None
    ) -> Array:
        raise NotImplementedError


def _float_default(dtype: DTypeLike | None) -> DTypeLike:
    return dtypes.default_float_dtype() if dtype is None else dtype


def zeros(key: Array, shape: Sequence[int], dtype: DTypeLike | None = None, out_sharding: OutShardingType = None) -> Array:
    """An initializer that returns zeros (``key`` is not used)."""
    sharding = check_out_sharding(out_sharding, "jnp.zeros")
    return place(jnp.zeros(shape, _float_default(dtype)), sharding)


def ones(key: Array, shape: Sequence[int], dtype: DTypeLike | None = None, out_sharding: OutShardingType = None) -> Array:
    """An initializer that returns ones (``key`` is not used)."""
    sharding = check_out_sharding(out_sharding, "jnp.ones")
    return place(jnp.ones(shape, _float_default(dtype)), sharding)


def constant(value: ArrayLike, dtype: DTypeLike | None = None) -> Initializer:
    """Builds an initializer that returns arrays filled with ``value``."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        sharding = check_out_sharding(out_sharding, "nn.initializers.constant")
        return place(jnp.full(shape, value, dtype=_float_default(dtype)), sharding)

    return init


def uniform(scale: RealNumeric = 1e-2, dtype: DTypeLike | None = None) -> Initializer:
    """Builds an initializer drawing uniformly from ``[0, scale)``."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        dt = _float_default(dtype)
        sharding = check_out_sharding(out_sharding, "uniform")
        return place(random.uniform(key, shape, dt) * jnp.array(scale, dt), sharding)

    return init


def _scaled_normal(key: Array, shape: Sequence[int], dtype: DTypeLike, scale: Array) -> Array:
    """Normal draws times ``scale``; for real dtypes as ``sqrt(2) * erf_inv(u)`` with ``u`` uniform
    on ``(-1, 1)`` (JAX's formulation, which keeps the same bits)."""
    dt = dtypes.check_and_canonicalize_user_dtype(dtype)
    if dtypes.issubdtype(dt, np.floating):
        lo = np.nextafter(np.array(-1.0, dt), np.array(0.0, dt), dtype=dt)
        hi = np.array(1.0, dt)
        u = random.uniform(key, shape, dt, lo, hi)
        return (jnp.array(np.sqrt(2), dt) * scale) * lax.erf_inv(u)
    return random.normal(key, shape, dt) * scale


def normal(stddev: RealNumeric = 1e-2, dtype: DTypeLike | None = None) -> Initializer:
    """Builds an initializer drawing from a normal distribution of mean 0 and deviation ``stddev``."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        dt = _float_default(dtype)
        sharding = check_out_sharding(out_sharding, "uniform")
        return place(_scaled_normal(key, shape, dt, jnp.array(stddev, dt)), sharding)

    return init


def truncated_normal(
    stddev: RealNumeric = 1e-2, dtype: DTypeLike | None = None, lower: RealNumeric = -2.0, upper: RealNumeric = 2.0
) -> Initializer:
    """Builds an initializer drawing ``stddev * z`` with ``z`` a standard normal truncated to
    ``[lower, upper]`` (so the result's deviation is below ``stddev``)."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        dt = _float_default(dtype)
        sharding = check_out_sharding(out_sharding, "truncated_normal")
        return place(random.truncated_normal(key, lower, upper, shape, dt) * jnp.array(stddev, dt), sharding)

    return init


def _size(shape: Sequence[int], axes: Axes) -> int:
    return shape[axes] if isinstance(axes, int) else math.prod(shape[i] for i in axes)


def _compute_fans(
    shape: Sequence[int], in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = ()
) -> tuple[float, float]:
    """``(fan_in, fan_out)`` of a weight shape: the input and output sizes times the receptive
    field (every axis that is neither input, output nor batch)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(
            f"Can't compute input and output sizes of a {len(shape)}-dimensional weights tensor with "
            "default in_axis. Must be at least 2D or specify in_axis explicitly."
        )
    in_size, out_size, batch_size = _size(shape, in_axis), _size(shape, out_axis), _size(shape, batch_axis)
    denominator = in_size * out_size * batch_size
    receptive_field_size = math.prod(shape) / denominator if denominator != 0 else 0
    return in_size * receptive_field_size, out_size * receptive_field_size


def _real_dtype(dtype: DTypeLike) -> np.dtype[Any]:
    """The type of a value's real part (``float32`` for ``complex64``), as NumPy gives it."""
    return np.real(np.zeros((), dtype)).dtype


def _complex_uniform(key: Array, shape: Sequence[int], dtype: DTypeLike) -> Array:
    """Complex values uniform on the unit-variance disk: modulus ``sqrt(2 u)``, uniform phase."""
    key_r, key_theta = random.split(key)
    real_dtype = _real_dtype(dtype)
    cdt = dtypes.to_complex_dtype(real_dtype)
    r = jnp.sqrt(2 * random.uniform(key_r, shape, real_dtype)).astype(cdt)
    theta = 2 * np.pi * random.uniform(key_theta, shape, real_dtype).astype(cdt)
    return r * jnp.exp(1j * theta)


def _complex_truncated_normal(key: Array, upper: float, shape: Sequence[int], dtype: DTypeLike) -> Array:
    """A complex normal truncated to ``|z| <= upper``: inverse-CDF modulus, uniform phase."""
    key_r, key_theta = random.split(key)
    real_dtype = _real_dtype(dtype)
    cdt = dtypes.to_complex_dtype(real_dtype)
    t = (1 - jnp.exp(jnp.array(-(upper**2), cdt))) * random.uniform(key_r, shape, real_dtype).astype(cdt)
    r = jnp.sqrt(-jnp.log(1 - t))
    theta = 2 * np.pi * random.uniform(key_theta, shape, real_dtype).astype(cdt)
    return r * jnp.exp(1j * theta)


def variance_scaling(
    scale: RealNumeric,
    mode: FanMode,
    distribution: Distribution,
    in_axis: Axes = -2,
    out_axis: Axes = -1,
    batch_axis: Axes = (),
    dtype: DTypeLike | None = None,
) -> Initializer:
    """Builds an initializer with variance ``scale / n``, ``n`` being the fan-in, fan-out, their
    mean or their geometric mean (``mode``), drawn from a truncated normal, a normal or a uniform
    distribution (``distribution``); complex dtypes draw the modulus and a uniform phase.
    ``in_axis``/``out_axis``/``batch_axis`` say which axes of the shape are which."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        shape_t = canonical_shape(shape, "")
        dt = _float_default(dtype)
        fan_in, fan_out = _compute_fans(shape_t, in_axis, out_axis, batch_axis)
        if mode == "fan_in":
            denominator = fan_in
        elif mode == "fan_out":
            denominator = fan_out
        elif mode == "fan_avg":
            denominator = (fan_in + fan_out) / 2
        elif mode == "fan_geo_avg":
            denominator = (fan_in * fan_out) ** 0.5
        else:
            raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
        variance = jnp.array(scale / denominator if denominator != 0 else 0, dtype=dt)  # pyright: ignore[reportOperatorIssue]
        sharding = check_out_sharding(out_sharding, distribution)
        real = dtypes.issubdtype(dt, np.floating)
        if distribution == "truncated_normal":
            if real:
                stddev = jnp.sqrt(variance) / jnp.array(_TRUNCATED_STDDEV, dt)
                return place(random.truncated_normal(key, -2, 2, shape_t, dt) * stddev, sharding)
            stddev = jnp.sqrt(variance) / jnp.array(_COMPLEX_TRUNCATED_STDDEV, dt)
            return place(_complex_truncated_normal(key, 2, shape_t, dt) * stddev, sharding)
        if distribution == "normal":
            return place(_scaled_normal(key, shape_t, dt, jnp.sqrt(variance)), sharding)
        if distribution == "uniform":
            if real:
                return place(random.uniform(key, shape_t, dt, -1) * jnp.sqrt(3 * variance), sharding)
            return place(_complex_uniform(key, shape_t, dt) * jnp.sqrt(variance), sharding)
        raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")

    return init


def glorot_uniform(
    in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DTypeLike | None = None
) -> Initializer:
    """Glorot (Xavier) uniform: ``variance_scaling(1.0, "fan_avg", "uniform")``."""
    return variance_scaling(1.0, "fan_avg", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


xavier_uniform = glorot_uniform


def glorot_normal(
    in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DTypeLike | None = None
) -> Initializer:
    """Glorot (Xavier) normal: ``variance_scaling(1.0, "fan_avg", "truncated_normal")``."""
    return variance_scaling(
        1.0, "fan_avg", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype
    )


xavier_normal = glorot_normal


def lecun_uniform(
    in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DTypeLike | None = None
) -> Initializer:
    """LeCun uniform: ``variance_scaling(1.0, "fan_in", "uniform")``."""
    return variance_scaling(1.0, "fan_in", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


def lecun_normal(
    in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DTypeLike | None = None
) -> Initializer:
    """LeCun normal: ``variance_scaling(1.0, "fan_in", "truncated_normal")``."""
    return variance_scaling(
        1.0, "fan_in", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype
    )


def he_uniform(
    in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DTypeLike | None = None
) -> Initializer:
    """He (Kaiming) uniform: ``variance_scaling(2.0, "fan_in", "uniform")``."""
    return variance_scaling(2.0, "fan_in", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


kaiming_uniform = he_uniform


def he_normal(
    in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: DTypeLike | None = None
) -> Initializer:
    """He (Kaiming) normal: ``variance_scaling(2.0, "fan_in", "truncated_normal")``."""
    return variance_scaling(
        2.0, "fan_in", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype
    )


kaiming_normal = he_normal


def _no_out_sharding(out_sharding: OutShardingType, name: str) -> None:
    if out_sharding is not None:
        raise NotImplementedError(
            f"jax.nn.initializers.{name} does not take out_sharding (as in JAX): pass None and place "
            "the result with jax.device_put."
        )


def orthogonal(scale: RealNumeric = 1.0, column_axis: int = -1, dtype: DTypeLike | None = None) -> Initializer:
    """Builds an initializer of (semi-)orthogonal matrices: the shape is flattened to
    ``(size // shape[column_axis], shape[column_axis])``, drawn from ``random.orthogonal``, times
    ``scale``. Needs at least two dimensions."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        _no_out_sharding(out_sharding, "orthogonal")
        dt = _float_default(dtype)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if any(dim == 0 for dim in shape):
            return jnp.zeros(shape, dtype=dt)
        n_rows, n_cols = math.prod(shape) // shape[column_axis], shape[column_axis]
        q = _random_orthogonal(key, n_rows, (), dt, n_cols)
        q = jnp.reshape(q, (*(int(d) for d in np.delete(np.asarray(shape), column_axis)), shape[column_axis]))
        q = jnp.moveaxis(q, -1, column_axis)
        return jnp.array(scale, dt) * q

    return init


def delta_orthogonal(scale: RealNumeric = 1.0, column_axis: int = -1, dtype: DTypeLike | None = None) -> Initializer:
    """Builds the delta-orthogonal initializer of convolution kernels (3-, 4- or 5-D, with
    ``shape[-1] >= shape[-2]``): zeros except an orthogonal matrix at the spatial centre
    (Xiao et al. 2018, arXiv:1806.05393)."""

    def init(key: Array, shape: Sequence[int], dtype: DTypeLike | None = dtype, out_sharding: OutShardingType = None) -> Array:
        _no_out_sharding(out_sharding, "delta_orthogonal")
        dt = _float_default(dtype)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho_matrix = orthogonal(scale=scale, column_axis=column_axis, dtype=dt)(key, shape[-2:])
        w = jnp.zeros(shape, dtype=dt)
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        return w.at[(*centre, ...)].set(ortho_matrix)

    return init
