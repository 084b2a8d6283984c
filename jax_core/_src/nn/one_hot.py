"""``one_hot``: indices to one-hot vectors, along a positional axis or a ``vmap``-named one; and
the ``out_sharding`` argument ``one_hot`` and the initializers share."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Hashable
from typing import Any, TypeAlias

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.core.axis_env import axis_size
from jax_core._src.core.trace import Tracer
from jax_core._src.numpy.util import jitted
from jax_core._src.runtime.transfer import device_put
from jax_core._src.sharding.shardings import NamedSharding, PartitionSpec
from jax_core._src.typing import DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = ["OutShardingType", "one_hot"]

OutShardingType: TypeAlias = NamedSharding | PartitionSpec | None
"""What an ``out_sharding`` argument accepts (JAX's alias of the same name)."""


def check_out_sharding(out_sharding: object, api_name: str) -> NamedSharding | None:
    """JAX's ``canonicalize_sharding`` without a mesh context (jax_core has none): a
    ``NamedSharding`` is kept, a bare ``PartitionSpec`` is JAX's ``ValueError``, anything else
    its ``TypeError``."""
    if out_sharding is None:
        return None
    if not isinstance(out_sharding, (NamedSharding, PartitionSpec)):
        raise TypeError(
            f"`out_sharding` argument of {api_name} only supports instances of `NamedSharding` or "
            f"`PartitionSpec`. Got {out_sharding} of type: {type(out_sharding)}"
        )
    if isinstance(out_sharding, PartitionSpec):
        raise ValueError(
            "Using PartitionSpec when you are not under a mesh context is not allowed. Please pass "
            f"a NamedSharding instance or enter into a mesh context via `jax.set_mesh`. Got {out_sharding}"
        )
    return out_sharding


def place(x: Array, sharding: NamedSharding | None) -> Array:
    """``x`` laid out as ``sharding`` asks (unchanged for ``None`` and under a trace)."""
    if sharding is None or isinstance(x, Tracer):
        return x
    placed: Array = device_put(x, sharding)
    return placed


def concrete_dim(value: object, context: str) -> int:
    """``operator.index(value)``; JAX's ``ConcretizationTypeError`` (with ``context``) for a traced
    value whose value is unknown."""
    if isinstance(value, Tracer):
        concrete = value.to_concrete_value()
        if concrete is None:
            value.concretization_error(context)
        return operator.index(concrete)
    return operator.index(value)  # type: ignore[arg-type]  # TypeError as JAX's for a non-index


_NUM_CLASSES = "The error arose in jax.nn.one_hot argument `num_classes`."


@jitted(("num_classes", "dtype", "axis"), inline=False)
def _one_hot(x: Array, num_classes: int, dtype: DTypeLike, axis: int | Hashable) -> Array:
    ndim = x.ndim
    if not isinstance(axis, int):  # a vmap axis name: compare with the position along it
        size = axis_size(axis)
        if num_classes != size:
            raise ValueError(f"Expected num_classes to match the size of axis {axis}, but {num_classes} != {size}")
        return jnp.asarray(x == lax.axis_index(axis), dtype=dtype)
    if not -(ndim + 1) <= axis < ndim + 1:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim + 1}")
    out_axis = axis % (ndim + 1)
    lhs = lax.expand_dims(x, (axis,))
    rhs_shape = [1] * ndim
    rhs_shape.insert(out_axis, num_classes)
    rhs = lax.broadcasted_iota(x.dtype, rhs_shape, out_axis)
    return (lhs == rhs).astype(dtype)


def one_hot(
    x: Any,
    num_classes: int,
    *,
    dtype: Any | None = None,
    axis: int | Hashable = -1,
    out_sharding: NamedSharding | PartitionSpec | None = None,
) -> Array:
    """One-hot encodes the indices ``x``: a new axis ``axis`` of length ``num_classes`` holds 1
    at each index and 0 elsewhere (indices outside ``[0, num_classes)`` give all zeros). ``dtype``
    defaults to the default float type; ``axis`` may also name a ``vmap`` axis."""
    num_classes = concrete_dim(num_classes, _NUM_CLASSES)
    x_arr = jnp.asarray(x)
    if not dtypes.isdtype(x_arr.dtype, "integral"):
        warnings.warn(
            f"jax.nn.one_hot input should be integer-typed; got dtype={x_arr.dtype}", DeprecationWarning, stacklevel=2
        )
    out_dtype = dtypes.default_float_dtype() if dtype is None else dtype
    sharding = check_out_sharding(out_sharding, "jax.nn.one_hot")
    if isinstance(axis, bool) or not isinstance(axis, int) and hasattr(axis, "__index__"):
        axis = operator.index(axis)  # type: ignore[arg-type]
    return place(_one_hot(x_arr, num_classes, out_dtype, axis), sharding)
