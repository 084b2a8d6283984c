"""``jax.scipy.interpolate``: ``RegularGridInterpolator``, linear or nearest interpolation on a
rectilinear grid (a pytree of its grid, values and fill value, so it passes through ``jit``).

As JAX's (after SciPy's): each query coordinate finds its cell with ``searchsorted`` (clamped to
the grid), and linear interpolation sums the 2**N corners of the cell weighted by the products
of the normalised distances. Each grid axis must be strictly increasing (not checked).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_dtypes_inexact
from jax_core._src.tree.registration import register_pytree_node
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["RegularGridInterpolator"]


def _ndim_coords_from_arrays(points: ArrayLike | tuple[ArrayLike, ...], ndim: int | None = None) -> Array:
    """Query points as one ``(..., ndim)`` array (from a tuple of coordinate arrays, or an array)."""
    if isinstance(points, tuple) and len(points) == 1:
        points = points[0]  # an argument tuple
    if isinstance(points, tuple):
        parts = jnp.broadcast_arrays(*points)
        for other in parts[1:]:
            if other.shape != parts[0].shape:
                raise ValueError("coordinate arrays do not have the same shape")
        out = jnp.empty((*parts[0].shape, len(points)), dtype=float)
        for j, item in enumerate(parts):
            out = out.at[..., j].set(item)
        return out
    check_arraylike("_ndim_coords_from_arrays", points)
    arr = jnp.asarray(points)
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1) if ndim is None else arr.reshape(-1, ndim)
    return arr


class RegularGridInterpolator:
    """Interpolation on a regular (rectilinear) grid, as ``scipy.interpolate.RegularGridInterpolator``.

    ``points``: one strictly increasing coordinate array per grid axis; ``values``: the grid
    values (trailing axes beyond ``len(points)`` are carried along); ``method``: ``"linear"`` or
    ``"nearest"``; ``bounds_error=True`` is not supported (``NotImplementedError``: it could not
    be checked under ``jit``); ``fill_value`` (default NaN; ``None`` extrapolates) is returned
    outside the grid.

    Example::

        f = RegularGridInterpolator((jnp.array([1., 2., 3.]), jnp.array([4., 5., 6.])),
                                    jnp.array([[10., 20., 30.], [40., 50., 60.], [70., 80., 90.]]))
        f(jnp.array([[1.5, 4.5], [2.2, 5.8]]))   # [30., 64.]
    """

    method: str
    bounds_error: bool
    fill_value: Array | None
    grid: tuple[Array, ...]
    values: Array

    def __init__(
        self,
        points: Sequence[ArrayLike],
        values: ArrayLike,
        method: str = "linear",
        bounds_error: bool = False,
        fill_value: ArrayLike | None = np.nan,
    ) -> None:
        if method not in ("linear", "nearest"):
            raise ValueError(f"method {method!r} is not defined")
        self.method = method
        self.bounds_error = bounds_error
        if self.bounds_error:
            raise NotImplementedError("`bounds_error` takes no effect under JIT")
        check_arraylike("RegularGridInterpolator", values)
        if not isinstance(values, (Array, np.ndarray, np.generic)):
            raise AttributeError(f"'{type(values).__name__}' object has no attribute 'ndim'")  # noqa: TRY004 (JAX's class)
        ndim = values.ndim
        if len(points) > ndim:
            raise ValueError(f"there are {len(points)} point arrays, but values has {ndim} dimensions")
        grid_values = ensure_array(promote_dtypes_inexact(values)[0])
        fill: Array | None = None
        if fill_value is not None:
            check_arraylike("RegularGridInterpolator", fill_value)
            fill = jnp.asarray(fill_value)
            if not np.can_cast(fill.dtype, grid_values.dtype, casting="same_kind"):
                raise ValueError("fill_value must be either 'None' or of a type compatible with values")
        self.fill_value = fill
        check_arraylike("RegularGridInterpolator", *points)
        self.grid = tuple(jnp.asarray(p) for p in points)
        self.values = grid_values

    def __call__(self, xi: ArrayLike | tuple[ArrayLike, ...], method: str | None = None) -> Array:
        """The interpolated values at the points ``xi`` (shape ``(..., ndim)``, or a tuple of
        coordinate arrays), with this interpolator's method unless ``method`` is given."""
        method = self.method if method is None else method
        if method not in ("linear", "nearest"):
            raise ValueError(f"method {method!r} is not defined")
        ndim = len(self.grid)
        points = _ndim_coords_from_arrays(xi, ndim=ndim)
        if points.shape[-1] != len(self.grid):
            raise ValueError(
                f"the requested sample points xi have dimension {points.shape[1]}, but this "
                f"RegularGridInterpolator has dimension {ndim}"
            )
        shape = points.shape
        points = points.reshape(-1, shape[-1])
        indices, norm_distances, out_of_bounds = self._find_indices(points.T)
        if method == "linear":
            result = self._evaluate_linear(indices, norm_distances)
        else:
            result = self._evaluate_nearest(indices, norm_distances)
        if not self.bounds_error and self.fill_value is not None:
            bc_shape = result.shape[:1] + (1,) * (result.ndim - 1)
            result = jnp.where(out_of_bounds.reshape(bc_shape), self.fill_value, result)
        return result.reshape(shape[:-1] + self.values.shape[ndim:])

    def _evaluate_linear(self, indices: list[Array], norm_distances: list[Array]) -> Array:
        # broadcasts the weights over the trailing axes of the values
        vslice: tuple[slice | None, ...] = (slice(None),) + (None,) * (self.values.ndim - len(indices))
        corners = itertools.product(*[[i, i + 1] for i in indices])
        values = jnp.asarray(0.0)
        for corner in corners:
            weight = jnp.asarray(1.0)
            for ei, i, yi in zip(corner, indices, norm_distances):
                weight *= jnp.where(ei == i, 1 - yi, yi)
            values += self.values[corner] * weight[vslice]
        return values

    def _evaluate_nearest(self, indices: list[Array], norm_distances: list[Array]) -> Array:
        nearest = [jnp.where(yi <= 0.5, i, i + 1) for i, yi in zip(indices, norm_distances)]
        return self.values[tuple(nearest)]

    def _find_indices(self, xi: Array) -> tuple[list[Array], list[Array], Array]:
        indices: list[Array] = []
        norm_distances: list[Array] = []  # distance to the lower edge, in units of the cell
        out_of_bounds = jnp.zeros((xi.shape[1],), dtype=bool)
        for x, g in zip(xi, self.grid):
            i = jnp.searchsorted(g, x) - 1
            i = jnp.where(i < 0, 0, i)
            i = jnp.where(i > g.size - 2, g.size - 2, i)
            indices.append(i)
            norm_distances.append((x - g[i]) / (g[i + 1] - g[i]))
            if not self.bounds_error:
                out_of_bounds += x < g[0]
                out_of_bounds += x > g[-1]
        return indices, norm_distances, out_of_bounds


def _flatten(obj: RegularGridInterpolator) -> tuple[tuple[Any, ...], tuple[str, bool]]:
    return (obj.grid, obj.values, obj.fill_value), (obj.method, obj.bounds_error)


def _unflatten(aux: tuple[str, bool], children: Sequence[Any]) -> RegularGridInterpolator:
    grid, values, fill_value = children
    return RegularGridInterpolator(grid, values, aux[0], aux[1], fill_value)


register_pytree_node(RegularGridInterpolator, _flatten, _unflatten)
