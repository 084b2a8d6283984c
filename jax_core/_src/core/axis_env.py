"""The named axes in scope (``vmap(..., axis_name=...)``), for collectives like ``psum``.

The environment is dynamically scoped: a transformation that binds a name extends it
while the function runs, so a ``jit`` traced inside still sees the name.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Generator, Hashable
from typing import Any


class _AxisEnv(threading.local):
    axes: tuple[tuple[Hashable, int], ...] = ()
    manual: frozenset[Hashable] = frozenset()
    """The mesh axes of the enclosing ``shard_map`` bodies whose variance is checked."""


_env = _AxisEnv()


@contextlib.contextmanager
def extend_axis_env(name: Hashable, size: int) -> Generator[None]:
    """Binds axis ``name`` of ``size`` for the duration of a ``with`` block."""
    prev = _env.axes
    _env.axes = (*prev, (name, size))
    try:
        yield
    finally:
        _env.axes = prev


def bound_axes() -> tuple[tuple[Hashable, int], ...]:
    """The named axes in scope, outermost first, with their sizes."""
    return _env.axes


def axis_size(name: Hashable) -> int:
    """The size of the innermost axis called ``name``; ``NameError`` if none is bound."""
    for n, size in reversed(_env.axes):
        if n == name:
            return size
    bound = [n for n, _ in _env.axes]
    raise NameError(f"unbound axis name: {name}. The following axis names (e.g. defined by vmap) are available to collective operations: {bound}")


@contextlib.contextmanager
def manual_axes(names: frozenset[Hashable]) -> Generator[None]:
    """Inside a ``shard_map`` body with ``check_vma``: values carry the mesh axes they vary over."""
    prev = _env.manual
    _env.manual = prev | names
    try:
        yield
    finally:
        _env.manual = prev


def checked_manual_axes() -> frozenset[Hashable]:
    """The mesh axes whose variance is tracked here (empty outside ``shard_map``)."""
    return _env.manual


_pvary: list[Callable[[Any, tuple[Hashable, ...]], Any]] = []


def register_pvary(cast: Callable[[Any, tuple[Hashable, ...]], Any]) -> None:
    """lax registers ``pvary`` (invariant to varying over mesh axes), which staging inserts."""
    _pvary[:] = [cast]


def pvary(x: Any, axes: tuple[Hashable, ...]) -> Any:
    """``x`` cast to vary over ``axes`` as well (``lax.pcast(x, axes, to="varying")``)."""
    return _pvary[0](x, axes)
