"""``once``: process-wide objects created lazily, exactly once, whichever threads get there first.

``functools.cache`` does not promise that: threads that miss the cache together all call the
function, and for the PjRt client that meant several clients, whose buffers then reached another
client's executables (``Buffer passed to Execute() ... is on device cpu:0, but replica is
assigned to device cpu:0``). A ``once`` function runs under a lock on a miss, so concurrent first
callers wait for the one result; later calls read it without locking.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Once(Generic[P, R]):
    """A function memoised per (hashable) arguments, each computed by exactly one caller."""

    def __init__(self, fn: Callable[P, R]) -> None:
        self._fn = fn
        self._lock = threading.RLock()  # re-entrant: the function may call another ``once``
        self._results: dict[Hashable, R] = {}
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        try:
            return self._results[key]
        except KeyError:
            pass
        with self._lock:
            if key in self._results:  # another thread computed it while this one waited
                return self._results[key]
            value = self._fn(*args, **kwargs)  # an exception is not remembered: the next call retries
            self._results[key] = value
            return value

    def cache_clear(self) -> None:
        """Forgets every result (tests)."""
        with self._lock:
            self._results.clear()


def once(fn: Callable[P, R]) -> Once[P, R]:
    """Decorator: ``fn``'s result per arguments, computed once even under concurrent first calls."""
    return Once(fn)
