"""The named axes in scope (``vmap(..., axis_name=...)``), for collectives like ``psum``.

The environment is dynamically scoped: a transformation that binds a name extends it
while the function runs, so a ``jit`` traced inside still sees the name.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Generator, Hashable


class _AxisEnv(threading.local):
    axes: tuple[tuple[Hashable, int], ...] = ()


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


def axis_size(name: Hashable) -> int:
    """The size of the innermost axis called ``name``; ``NameError`` if none is bound."""
    for n, size in reversed(_env.axes):
        if n == name:
            return size
    bound = [n for n, _ in _env.axes]
    raise NameError(f"unbound axis name: {name}. The following axis names (e.g. defined by vmap) are available to collective operations: {bound}")
