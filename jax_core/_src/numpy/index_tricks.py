"""NumPy's index tricks over jax_core arrays: ``mgrid``, ``ogrid`` (grids from slices),
``r_``, ``c_`` (concatenation by indexing, with string directives) and ``s_``,
``index_exp`` (NumPy's own index-expression builders, as in JAX).

A slice ``start:stop:step`` stands for ``arange(start, stop, step)``; a complex step
``start:stop:nj`` for ``linspace(start, stop, n)`` (the end point included). Slice bounds
must be concrete (a traced bound raises ``ConcretizationTypeError``).

    >>> jnp.mgrid[0:2, 0:3].shape
    (2, 2, 3)
    >>> jnp.r_[1:4, 0, jnp.array([7, 8])]
    Array([1, 2, 3, 0, 7, 8], dtype=int32)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, overload

import numpy as np

if TYPE_CHECKING:
    from numpy.lib._index_tricks_impl import IndexExpression

from jax_core._src.core.trace import Tracer
from jax_core._src.numpy.creation import arange, array, linspace, meshgrid
from jax_core._src.numpy.shape import concatenate, expand_dims, stack, transpose
from jax_core._src.numpy.util import promote_dtypes
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

IndexItem: TypeAlias = ArrayLike | str | slice | Sequence[Any]
"""What ``r_``/``c_`` take between the brackets: arrays, scalars, nested sequences, slices
and (first only) a string directive."""


def _concrete(value: Any, what: str) -> Any:
    if isinstance(value, Tracer):
        value.concretization_error(what)
    return value


def _grid_1d(s: slice, op_name: str) -> Array:
    """The values a slice stands for: ``arange``, or ``linspace`` for a complex step."""
    start = _concrete(s.start, f"slice start of jnp.{op_name}") or 0
    stop = _concrete(s.stop, f"slice stop of jnp.{op_name}")
    step = _concrete(s.step, f"slice step of jnp.{op_name}") or 1
    if np.iscomplex(step):
        return linspace(start, stop, int(abs(step)))
    return arange(start, stop, step)


def _promoted(keys: tuple[slice, ...], op_name: str) -> list[ArrayLike]:
    return promote_dtypes(*(_grid_1d(k, op_name) for k in keys))


class MGridClass:
    """Dense coordinate grids from slices (NumPy's ``mgrid``): ``jnp.mgrid[0:2, 0:3]`` is
    ``stack(meshgrid(arange(2), arange(3), indexing='ij'))``, shape ``(2, 2, 3)``; one slice
    gives its 1-D values; ``jnp.mgrid[0:1:5j]`` five points from 0 to 1."""

    def __getitem__(self, key: slice | tuple[slice, ...]) -> Array:
        if isinstance(key, slice):
            return _grid_1d(key, "mgrid")
        grids = meshgrid(*_promoted(key, "mgrid"), indexing="ij", sparse=False)
        if not grids:
            return arange(0)
        return stack(grids, 0)


class OGridClass:
    """Open (sparse) coordinate grids from slices (NumPy's ``ogrid``): ``jnp.ogrid[0:2, 0:3]``
    is ``[arange(2)[:, None], arange(3)[None, :]]``; one slice gives its 1-D values."""

    @overload
    def __getitem__(self, key: slice) -> Array: ...
    @overload
    def __getitem__(self, key: tuple[slice, ...]) -> list[Array]: ...
    def __getitem__(self, key: slice | tuple[slice, ...]) -> Array | list[Array]:
        if isinstance(key, slice):
            return _grid_1d(key, "ogrid")
        return list(meshgrid(*_promoted(key, "ogrid"), indexing="ij", sparse=True))


def _directive(directive: str, params: list[int]) -> list[int]:
    """``[axis, ndmin, trans1d, matrix]`` from a string directive: ``'r'``, ``'c'``, or up to
    three comma-separated integers overriding the defaults."""
    if directive == "r":
        return [*params[:3], 0]
    if directive == "c":
        return [*params[:3], 1]
    vec: list[Any] = directive.split(",")
    if len(vec) < 4:
        vec += params[len(vec) :]
    else:  # anything after the first three integers is ignored
        vec = [*vec[:3], params[-1]]
    try:
        return [int(v) for v in vec]
    except ValueError as err:
        raise ValueError(f"could not understand directive {directive!r}") from err


class AxisConcatenator:
    """Concatenation by indexing: ``obj[a, b, 0:3, ...]`` joins its items along ``axis``
    after raising each to ``ndmin`` dimensions (a raised 1-D item's axis goes where
    ``trans1d`` says). A leading string directive changes these: ``'axis,ndmin,trans1d'``,
    or ``'r'``/``'c'`` to make a 1-D result a row/column matrix."""

    axis: int = 0
    ndmin: int = 1
    trans1d: int = -1
    op_name: str = "r_"

    def __getitem__(self, key: IndexItem | tuple[IndexItem, ...]) -> Array:
        items: tuple[IndexItem, ...] = key if isinstance(key, tuple) else (key,)
        params = [self.axis, self.ndmin, self.trans1d, -1]
        first = items[0]  # an empty tuple raises IndexError, as in JAX
        if isinstance(first, str):
            params = _directive(first, params)
            items = items[1:]
        axis, ndmin, trans1d, matrix = params

        parts: list[Array] = []
        for item in items:
            if isinstance(item, slice):
                obj = _grid_1d(item, self.op_name)
                item_ndim = 0
            elif isinstance(item, str):
                raise ValueError("string directive must be placed at the beginning")
            else:
                obj = array(item, copy=False)
                item_ndim = obj.ndim
            obj = array(obj, copy=False, ndmin=ndmin)
            if trans1d != -1 and ndmin - item_ndim > 0:
                order = tuple(range(ndmin))
                # How far the original axes move left (mod ndmin: no overflow).
                num_lshifts = ndmin - abs(ndmin + trans1d + 1) % ndmin
                obj = transpose(obj, order[num_lshifts:] + order[:num_lshifts])
            parts.append(obj)

        res = concatenate(tuple(parts), axis=axis)
        if matrix != -1 and res.ndim == 1:
            res = expand_dims(res, matrix)  # a row (axis 0) or column (axis 1) matrix
        return res

    def __len__(self) -> int:
        return 0


class RClass(AxisConcatenator):
    """Concatenation along the first axis (NumPy's ``r_``): ``jnp.r_[-1:2, 0, [5, 6]]`` is
    ``[-1, 0, 1, 0, 5, 6]``; ``jnp.r_['0,2', [1, 2], [3, 4]]`` stacks rows;
    ``jnp.r_['r', [1, 2], [3]]`` is the row matrix ``[[1, 2, 3]]``."""

    axis = 0
    ndmin = 1
    trans1d = -1
    op_name = "r_"


class CClass(AxisConcatenator):
    """Concatenation along the last axis, items raised to 2-D as columns (NumPy's ``c_``):
    ``jnp.c_[[1, 2], [3, 4]]`` is ``[[1, 3], [2, 4]]``."""

    axis = -1
    ndmin = 2
    trans1d = 0
    op_name = "c_"


mgrid: MGridClass = MGridClass()
"""Dense grids: ``jnp.mgrid[0:2, 0:3]`` (see ``MGridClass``)."""
ogrid: OGridClass = OGridClass()
"""Open grids: ``jnp.ogrid[0:2, 0:3]`` (see ``OGridClass``)."""
r_: RClass = RClass()
"""Row-wise concatenation: ``jnp.r_[1:3, [7, 8]]`` (see ``RClass``)."""
c_: CClass = CClass()
"""Column-wise concatenation: ``jnp.c_[[1, 2], [3, 4]]`` (see ``CClass``)."""
s_: IndexExpression[Literal[False]] = np.s_
"""NumPy's slice builder: ``jnp.s_[1:3, ::2]`` is ``(slice(1, 3), slice(None, None, 2))``."""
index_exp: IndexExpression[Literal[True]] = np.index_exp
"""NumPy's index builder, always a tuple: ``jnp.index_exp[2]`` is ``(2,)``."""

__all__: Sequence[str] = ("c_", "index_exp", "mgrid", "ogrid", "r_", "s_")
