"""Normalisations along axes: ``softmax``, ``log_softmax``, ``logsumexp``, ``logmeanexp`` and
``standardize``, in JAX's operation order (so results are bit-identical).

``softmax`` follows JAX 0.12's default (``jax_softmax_custom_jvp`` off): the maximum it
subtracts is a ``stop_gradient`` constant, and the function is differentiated through.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import config
from jax_core._src.nn.activations import arraylike
from jax_core._src.numpy.util import check_arraylike, is_arraylike, jitted
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.scipy.special import logsumexp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["log_softmax", "logmeanexp", "softmax", "standardize"]

Axis = int | Sequence[int] | None


def _axis_size(shape: tuple[int, ...], axis: int | Sequence[int]) -> int:
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return math.prod(shape[a] for a in axes)


@jitted(("axis", "keepdims"), inline=False)
def logmeanexp(x: ArrayLike, axis: Axis = None, where: ArrayLike | None = None, keepdims: bool = False) -> Array:
    """``log(mean(exp(x)))`` over ``axis`` computed stably: ``logsumexp(x) - log(n)``, where ``n``
    counts the elements reduced (those ``where`` selects)."""
    lse = logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    shape = tuple(np.shape(x))
    if where is None:
        n = math.prod(shape) if axis is None else _axis_size(shape, axis)
        count = lax.convert_element_type(n, lse.dtype)
    else:
        count = jnp.sum(jnp.broadcast_to(where, shape), axis, dtype=lse.dtype, keepdims=keepdims)
    return lse - jnp.log(count)


@jitted(("axis",), inline=False)
def log_softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``log(softmax(x))`` over ``axis`` (an int, a tuple, or ``None`` for all axes), computed as
    ``x - max - log(sum(exp(x - max)))``; elements ``where`` leaves out are ``-inf``."""
    xa = arraylike("log_softmax", x)
    x_max = jnp.max(xa, axis, where=where, initial=-np.inf, keepdims=True)
    x_safe = xa if where is None else jnp.where(where, xa, -np.inf)
    shifted = x_safe - lax.stop_gradient(x_max)
    shifted_logsumexp = jnp.log(jnp.sum(jnp.exp(shifted), axis, where=where, keepdims=True))
    result = shifted - shifted_logsumexp
    if where is not None:
        return jnp.where(where, result, -np.inf)
    return result


def softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``exp(x) / sum(exp(x))`` over ``axis`` (an int, a tuple, or ``None``), shifted by the
    maximum for stability; elements ``where`` leaves out are 0. An input ``+inf`` gives NaN.
    With ``jax_softmax_custom_jvp`` its derivative is the closed form ``y * (dx - sum(y * dx))``
    (exact where inputs are ``-inf``)."""
    if config.softmax_custom_jvp.value:
        return _softmax_custom_jvp(x, axis, where)
    initial = -np.inf
    x_max = jnp.max(x, axis, where=where, initial=initial, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, initial)
    unnormalized = jnp.exp(x_safe - lax.stop_gradient(x_max))
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    if where is not None:
        result = jnp.where(where, result, 0)
    return result


def _check_arraylike_or_none(name: str, *args: ArrayLike | None) -> None:
    for pos, arg in enumerate(args):
        if arg is not None and not is_arraylike(arg):
            raise TypeError(f"{name} requires ndarray, scalar, or None arguments, got {type(arg)} at position {pos}.")


@jitted(("axis", "algorithm"), inline=False)
def standardize(
    x: ArrayLike,
    axis: Axis = -1,
    mean: ArrayLike | None = None,
    variance: ArrayLike | None = None,
    epsilon: ArrayLike = 1e-5,
    where: ArrayLike | None = None,
    *,
    algorithm: str = "fast",
) -> Array:
    """``(x - mean) / sqrt(variance + epsilon)`` over ``axis``; ``mean`` and ``variance`` default
    to those of ``x`` (of the elements ``where`` selects). ``algorithm="fast"`` computes the
    variance as ``mean(x**2) - mean(x)**2`` clipped at 0, ``"stable"`` as ``mean((x - mean)**2)``."""
    check_arraylike("standardize", x)
    _check_arraylike_or_none("standardize", mean, variance, where)
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = jnp.mean(jnp.square(jnp.subtract(x, mean)), axis, keepdims=True, where=where)
        elif algorithm == "fast":
            variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
            variance = jnp.clip(variance, 0)
        else:
            raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    return jnp.subtract(x, mean) * lax.rsqrt(jnp.add(variance, epsilon))


def _softmax_value(x: ArrayLike, axis: Axis, where: ArrayLike | None, initial: ArrayLike = -np.inf) -> Array:
    x_max = jnp.max(x, axis, where=where, initial=initial, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, initial)
    unnormalized = jnp.exp(x_safe - x_max)
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    if where is not None:
        result = jnp.where(where, result, 0)
    return result


_softmax_custom_jvp = custom_jvp(_softmax_value, nondiff_argnums=(1,))


@_softmax_custom_jvp.defjvp
def _softmax_jvp(axis: Axis, primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Array, Array]:
    x, where, *rest = primals
    y = _softmax_custom_jvp(x, axis, where, *rest)
    x_dot = tangents[0]
    return y, y * (x_dot - (y * x_dot).sum(axis, where=where, keepdims=True))
