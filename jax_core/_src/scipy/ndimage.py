"""``jax.scipy.ndimage``: ``map_coordinates`` (nearest and linear interpolation of an N-d array
at given coordinates, with SciPy's boundary modes as SciPy documents them).

Each dimension gives one (order 0) or two (order 1) integer positions with weights; the result
sums, over every combination, the product of the weights times the input there (``cval`` where
a position is outside the input in ``'constant'`` mode), as JAX computes it.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core._src import dtypes
from jax_core._src.lax.elementwise.arithmetic import round as lax_round
from jax_core._src.numpy.util import jitted
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["map_coordinates"]

_Index = Callable[[Array, int], Array]


def _mirror_index(index: Array, size: int) -> Array:
    s = size - 1  # the half-period of the triangular wave |x - round(x)|, scaled to integers
    return jnp.abs((index + s) % (2 * s) - s)


def _reflect_index(index: Array, size: int) -> Array:
    return jnp.floor_divide(_mirror_index(2 * index + 1, 2 * size + 1) - 1, 2)


def _constant_index(index: Array, size: int) -> Array:
    return index


def _nearest_index(index: Array, size: int) -> Array:
    return jnp.clip(index, 0, size - 1)


def _wrap_index(index: Array, size: int) -> Array:
    return index % size


_INDEX_FIXERS: dict[str, _Index] = {
    "constant": _constant_index,
    "nearest": _nearest_index,
    "wrap": _wrap_index,
    "mirror": _mirror_index,
    "reflect": _reflect_index,
}


def _round_half_away_from_zero(a: Array) -> Array:
    return a if dtypes.issubdtype(a.dtype, np.integer) else lax_round(a)


def _nearest_nodes(coordinate: Array) -> list[tuple[Array, Any]]:
    index = _round_half_away_from_zero(coordinate).astype(np.int32)
    return [(index, coordinate.dtype.type(1))]


def _linear_nodes(coordinate: Array) -> list[tuple[Array, Any]]:
    lower = jnp.floor(coordinate)
    upper_weight = coordinate - lower
    lower_weight = 1 - upper_weight
    index = lower.astype(np.int32)
    return [(index, lower_weight), (index + 1, upper_weight)]


@jitted(static_argnums=(2, 3, 4), inline=False)
def _map_coordinates(
    input: ArrayLike, coordinates: Sequence[ArrayLike], order: int, mode: str, cval: ArrayLike
) -> Array:
    values = jnp.asarray(input)
    coords = [jnp.asarray(c) for c in coordinates]
    fill = jnp.asarray(cval, values.dtype)
    if len(coordinates) != values.ndim:
        raise ValueError(
            "coordinates must be a sequence of length input.ndim, but "
            f"{len(coordinates)} != {values.ndim}"
        )
    fix_index = _INDEX_FIXERS.get(mode)
    if fix_index is None:
        raise NotImplementedError(
            f"jax.scipy.ndimage.map_coordinates does not yet support mode {mode}. "
            f"Currently supported modes are {set(_INDEX_FIXERS)}."
        )
    if order == 0:
        nodes_of: Callable[[Array], list[tuple[Array, Any]]] = _nearest_nodes
    elif order == 1:
        nodes_of = _linear_nodes
    else:
        raise NotImplementedError("jax.scipy.ndimage.map_coordinates currently requires order<=1")
    per_dim: list[list[tuple[Array, Array | bool, Any]]] = []
    for coordinate, size in zip(coords, values.shape, strict=True):
        nodes: list[tuple[Array, Array | bool, Any]] = []
        for index, weight in nodes_of(coordinate):
            valid: Array | bool = (0 <= index) & (index < size) if mode == "constant" else True
            nodes.append((fix_index(index, size), valid, weight))
        per_dim.append(nodes)
    terms: list[Array] = []
    for combo in itertools.product(*per_dim):
        indices = tuple(i for i, _, _ in combo)
        validities = [v for _, v, _ in combo]
        weights = [w for _, _, w in combo]
        if all(v is True for v in validities):
            contribution = values[indices]
        else:
            inside = validities[0]
            for v in validities[1:]:
                inside = inside & v
            contribution = jnp.where(inside, values[indices], fill)
        terms.append(functools.reduce(operator.mul, weights) * contribution)
    result = sum(terms[1:], terms[0])
    if dtypes.issubdtype(values.dtype, np.integer):
        result = _round_half_away_from_zero(result)
    return result.astype(values.dtype)


def map_coordinates(
    input: ArrayLike,
    coordinates: Sequence[ArrayLike],
    order: int,
    mode: str = "constant",
    cval: ArrayLike = 0.0,
) -> Array:
    """``input`` interpolated at ``coordinates`` (one array per dimension of ``input``), as
    ``scipy.ndimage.map_coordinates``.

    ``order``: 0 (nearest) or 1 (linear); higher orders raise ``NotImplementedError``.
    ``mode``: ``'constant'`` (``cval`` outside; SciPy's ``'grid-constant'``), ``'nearest'``,
    ``'mirror'``, ``'wrap'`` (SciPy's ``'grid-wrap'``) or ``'reflect'``. ``order``, ``mode`` and
    ``cval`` are static (``cval`` must be hashable).

    Example::

        map_coordinates(jnp.arange(12.0).reshape(3, 4), [jnp.array([0.5, 1.5]), jnp.array([1.5, 2.5])], order=1)
        # [3.5, 8.5]
    """
    return _map_coordinates(input, coordinates, order, mode, cval)
