"""Sample statistics of jax_core.scipy.stats: ``mode``, ``rankdata`` and ``sem`` (JAX's
algorithms: ``unique`` with a static size per column, ranks from a sort and an inverse
permutation, and the standard deviation over ``sqrt(n)``)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.numpy.util import canonicalize_axis, check_arraylike, ensure_array, jitted
from jax_core._src.scipy.special import promote_args_inexact
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_NAN_POLICIES = ("propagate", "omit", "raise")


class ModeResult(NamedTuple):
    """The result of ``mode``: the most common value and how often it occurs."""

    mode: Array
    count: Array  # type: ignore[assignment]  # pyright: ignore[reportIncompatibleMethodOverride]  (JAX's field name)


def _check_nan_policy(name: str, nan_policy: str) -> None:
    if nan_policy not in _NAN_POLICIES:
        raise ValueError(f"Illegal nan_policy value {nan_policy!r}; expected one of {{'propagate', 'omit', 'raise'}}")
    if nan_policy == "omit":
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(
            f"In order to best JIT compile `{name}`, we cannot know whether `x` contains nans. "
            f"Please check if nans exist in `x` outside of the `{name}` function."
        )


def _mode_of_column(x: Array) -> tuple[Array, Array]:
    if x.size == 0:
        nan = jnp.array(np.nan, dtype=dtypes.default_float_dtype())
        return nan, jnp.array(0, dtype=dtypes.default_float_dtype())
    vals, counts = jnp.unique(x, return_counts=True, size=x.size)
    return vals[jnp.argmax(counts)], counts.max()


@jitted(static=("axis", "nan_policy", "keepdims"), inline=False)
def mode(a: ArrayLike, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False) -> ModeResult:
    """The most common value along ``axis`` (the smallest one on ties) and its count; ``axis=None``
    looks at the flattened array."""
    check_arraylike("mode", a)
    x = jnp.atleast_1d(a)
    _check_nan_policy("mode", nan_policy)
    if axis is not None:
        axis = canonicalize_axis(axis, x.ndim)
    shape = x.shape
    if keepdims:
        out_shape = tuple(1 for _ in shape) if axis is None else tuple(1 if i == axis else s for i, s in enumerate(shape))
    else:
        out_shape = () if axis is None else tuple(s for i, s in enumerate(shape) if i != axis)
    if axis is None:
        axis = 0
        x = x.ravel()
    x = jnp.moveaxis(x, axis, 0)
    x = x.reshape(x.shape[0], math.prod(x.shape[1:]))
    vals, counts = vmap(_mode_of_column, in_axes=1)(x)
    return ModeResult(vals.reshape(out_shape), counts.reshape(out_shape))


def _invert_permutation(i: Array) -> Array:
    return jnp.empty_like(i).at[i].set(jnp.arange(i.size, dtype=i.dtype))


def _ranks(a: Array, method: str) -> Array:
    out_dtype = dtypes.default_float_dtype()
    arr, sorter = lax.sort_key_val(a, jnp.arange(a.size))
    inv = _invert_permutation(sorter)
    if method == "ordinal":
        return (inv + 1).astype(out_dtype)
    obs = jnp.concatenate([jnp.array([True]), arr[1:] != arr[:-1]])
    dense = obs.cumsum()[inv]
    if method == "dense":
        return dense.astype(out_dtype)
    count = jnp.nonzero(obs, size=arr.size + 1, fill_value=obs.size)[0].astype(out_dtype)
    if method == "max":
        return count[dense]
    if method == "min":
        return count[dense - 1] + 1
    return 0.5 * (count[dense] + count[dense - 1] + 1)


@jitted(static=("method", "axis", "nan_policy"), inline=False)
def rankdata(a: ArrayLike, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate") -> Array:
    """Ranks of the data from 1, ties resolved by ``method`` ('average', 'min', 'max', 'dense',
    'ordinal'); over the flattened array, or along ``axis``. NaN everywhere if there is a NaN."""
    check_arraylike("rankdata", a)
    _check_nan_policy("rankdata", nan_policy)
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f"unknown method '{method}'")
    if axis is not None:
        return jnp.apply_along_axis(rankdata, axis, a, method)
    flat = jnp.ravel(a)
    out_dtype = dtypes.default_float_dtype()

    def all_nan(v: Array) -> Array:
        return jnp.full_like(v, np.nan, out_dtype)

    def ranked(v: Array) -> Array:
        return _ranks(v, method)

    out: Array = lax.cond(jnp.any(jnp.isnan(flat)), all_nan, ranked, flat)
    return out


@jitted(static=("axis", "nan_policy", "keepdims"), inline=False)
def sem(a: ArrayLike, axis: int | None = 0, ddof: int = 1, nan_policy: str = "propagate", *, keepdims: bool = False) -> Array:
    """Standard error of the mean, ``std(a, ddof) / sqrt(n)`` along ``axis`` (``nan_policy='omit'``
    counts and averages the non-NaN values only)."""
    (b,) = promote_args_inexact("sem", a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return ensure_array(b.std(axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(size).astype(b.dtype))
    if nan_policy == "omit":
        count = (~jnp.isnan(b)).sum(axis, keepdims=keepdims)
        return ensure_array(jnp.nanstd(b, axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(count).astype(b.dtype))
    raise ValueError(f"{nan_policy} is not supported")
