"""Where user code was when a value was made: cheap to capture, formatted only on error."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Generator
from types import CodeType, FrameType
from typing import Final

_PKG_DIR: Final = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_STDLIB_CONTEXTLIB: Final = os.path.dirname(os.__file__)


class SourceInfo:
    """A user frame: its code object and instruction offset, formatted lazily; and the names of
    the ``named_scope``s it was in."""

    __slots__ = ("code", "lasti", "lineno", "name_stack")

    code: CodeType
    lasti: int
    lineno: int
    name_stack: tuple[str, ...]

    def __init__(self, code: CodeType, lasti: int, lineno: int, name_stack: tuple[str, ...] = ()) -> None:
        self.code = code
        self.lasti = lasti
        self.lineno = lineno
        self.name_stack = name_stack

    def location(self) -> str:
        """``file:line:col (function)``, as JAX prints it."""
        col = _column(self.code, self.lasti)
        col_part = f":{col}" if col is not None else ""
        return f"{self.code.co_filename}:{self.lineno}{col_part} ({self.code.co_name})"


def _column(code: CodeType, lasti: int) -> int | None:
    for i, (_, _, col, _) in enumerate(code.co_positions()):
        if i == lasti // 2:
            return col
    return None


_extra_exclusions: list[str] = []


def register_exclusion(path: str) -> None:
    """Treats files under ``path`` as internal: ``user_frame`` skips their frames."""
    _extra_exclusions.append(path)


def _is_internal(filename: str) -> bool:
    return (
        filename.startswith(_PKG_DIR)
        or filename.startswith(_STDLIB_CONTEXTLIB)
        or any(filename.startswith(p) for p in _extra_exclusions)
    )


class _Override(threading.local):
    info: SourceInfo | None = None


_override: Final = _Override()


class _NameStack(threading.local):
    names: tuple[str, ...] = ()


_name_stack: Final = _NameStack()


def current_name_stack() -> tuple[str, ...]:
    """The names of the ``named_scope``s open in this thread, outermost first."""
    return _name_stack.names


@contextlib.contextmanager
def named_scope(name: str) -> Generator[None]:
    """Adds ``name`` to the names of the operations staged inside the block: they appear in the
    lowered module's locations and in XLA's ``op_name`` metadata (profiles, HLO dumps)."""
    if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError("named_scope name argument must be a string.")
    previous = _name_stack.names
    _name_stack.names = (*previous, name)
    try:
        yield
    finally:
        _name_stack.names = previous


def swap_name_stack(names: tuple[str, ...]) -> tuple[str, ...]:
    """Makes ``names`` the ``named_scope`` names of this thread; returns the previous ones."""
    previous = _name_stack.names
    _name_stack.names = names
    return previous


def swap_source(info: SourceInfo | None) -> SourceInfo | None:
    """Makes ``info`` what ``user_frame`` answers (``None``: the stack again); returns the previous.

    Interpreters that bind the equations of a stored jaxpr again set each equation's own source
    for its bind, so what they stage still says where the user wrote it (as JAX does)."""
    previous = _override.info
    _override.info = info
    return previous


def user_frame() -> SourceInfo | None:
    """The innermost frame outside jax_core and the standard library, if any (or the source an
    interpreter re-binding a stored equation set with ``swap_source``)."""
    if _override.info is not None:
        return _override.info
    frame: FrameType | None = sys._getframe(1)  # pyright: ignore[reportPrivateUsage]
    while frame is not None:
        code = frame.f_code
        if not _is_internal(code.co_filename):
            return SourceInfo(code, frame.f_lasti, frame.f_lineno, _name_stack.names)
        frame = frame.f_back
    return None


def function_location(fun: object) -> str:
    """``name at file:line`` for a Python function (used in "while tracing" messages)."""
    name = getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)
    code = getattr(fun, "__code__", None)
    if isinstance(code, CodeType):
        return f"{getattr(fun, '__name__', name)} at {code.co_filename}:{code.co_firstlineno}"
    return str(name)
