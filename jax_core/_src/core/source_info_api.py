"""JAX's ``source_info_util`` over jax_core's source tracking (``source_info.py``).

jax_core records, for each staged operation, the innermost user frame and the names of the open
``named_scope``s (a tuple of strings). This module gives the richer view ``jax.extend`` exposes:

* ``NameStack``: scopes and transformations (``jvp``, ``vmap``, ...), rendered as JAX does
  (``"outer/jvp(inner)"``). The name stack in force is the ``named_scope`` names; the context
  managers here (``extend_name_stack``, ``set_name_stack``, ``transform_name_stack``,
  ``reset_name_stack``) set those names to the rendering of their ``NameStack``, so operations
  staged inside carry it into lowered locations, and ``current_name_stack`` reads them back
  (with any ``named_scope`` opened since as scopes).
* ``SourceInfo``: a jaxlib ``Traceback`` plus a ``NameStack``; ``current()`` captures one,
  ``summarize`` formats its innermost user frames (``register_exclusion`` hides more files).
* ``user_context(traceback)``: operations staged inside are attributed to ``traceback``'s user
  frame, and an exception raised inside is chained to that traceback (JAX's
  ``JaxStackTraceBeforeTransformation``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import itertools
import os
import re
import sysconfig
import threading
import types
from collections.abc import Callable, Generator, Iterator
from typing import Any, NamedTuple, Protocol, TypeVar, cast

from jax_core._src import lib as _lib
from jax_core._src.core import source_info as _tracking

F = TypeVar("F", bound=Callable[..., Any])


class Traceback(Protocol):
    """jaxlib's ``Traceback`` (``xla_client.Traceback``): the Python frames of a point in time."""

    def raw_frames(self) -> tuple[list[types.CodeType], list[int]]:
        """The code objects and instruction offsets, innermost first."""
        ...

    def as_python_traceback(self) -> types.TracebackType | None:
        """The frames as a Python traceback."""
        ...


_Tb: Any = getattr(_lib, "xla_client").Traceback  # noqa: B009  (_jax has no stubs)


def _get_traceback() -> Traceback | None:
    tb: Traceback | None = _Tb.get_traceback()
    return tb


class Frame(NamedTuple):
    """One frame of a traceback, with its source span."""

    file_name: str
    function_name: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int


# -- which files are the user's -------------------------------------------------------------------
_PKG_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(_tracking.__file__))))
_exclude_paths: list[str] = [
    _PKG_DIR + os.sep,
    sysconfig.get_path("stdlib"),
    os.path.dirname(contextlib.__file__),
]


@functools.cache
def _exclude_regex() -> re.Pattern[str]:
    return re.compile("|".join(f"^{re.escape(p)}" for p in _exclude_paths))


@functools.cache
def is_user_filename(filename: str) -> bool:
    """Whether frames of ``filename`` are the user's: not in jax_core, the standard library or a
    registered exclusion (files ending in ``_test.py`` always are, as in JAX)."""
    return filename.endswith("_test.py") or _exclude_regex().search(filename) is None


def register_exclusion(path: str) -> None:
    """Treats files under ``path`` as internal: their frames are skipped in summaries and in the
    source lines staged equations are attributed to."""
    _exclude_paths.append(path)
    _tracking.register_exclusion(path)
    _exclude_regex.cache_clear()
    is_user_filename.cache_clear()


def _frame_of(code: types.CodeType, lasti: int) -> Frame:
    start_line, start_col, end_line, end_col = _Tb.code_addr2location(code, lasti)
    return Frame(code.co_filename, code.co_qualname, start_line, start_col, end_line, end_col)


def user_frames(traceback: Traceback | None) -> Iterator[Frame]:
    """The user's frames of ``traceback``, innermost first."""
    codes, lastis = traceback.raw_frames() if traceback is not None else ([], [])
    return (_frame_of(c, i) for c, i in zip(codes, lastis) if is_user_filename(c.co_filename))


# -- name stacks ----------------------------------------------------------------------------------
class Scope(NamedTuple):
    """A named scope of a name stack."""

    name: str

    def wrap(self, stack: list[str]) -> None:
        """Adds this scope's name to the rendering (built innermost first)."""
        stack.append(self.name)


class Transform(NamedTuple):
    """A transformation of a name stack: it wraps the name of the scope it applies to."""

    name: str

    def wrap(self, stack: list[str]) -> None:
        """Wraps the innermost rendered scope as ``name(scope)``."""
        if stack:
            stack[-1] = f"{self.name}({stack[-1]})"
        else:
            stack.append(f"{self.name}()")


@dataclasses.dataclass(frozen=True, slots=True)
class NameStack:
    """Scopes and transformations, outermost first; ``str`` renders them as JAX does."""

    stack: tuple[Scope | Transform, ...] = ()

    def extend(self, name: str) -> NameStack:
        """This stack with the scope ``name`` added."""
        return NameStack((*self.stack, Scope(name)))

    def transform(self, transform_name: str) -> NameStack:
        """This stack with the transformation ``transform_name`` added."""
        return NameStack((*self.stack, Transform(transform_name)))

    def __getitem__(self, idx: slice) -> NameStack:
        return NameStack(self.stack[idx])

    def __len__(self) -> int:
        return len(self.stack)

    def __add__(self, other: NameStack) -> NameStack:
        return NameStack(self.stack + other.stack)

    def __radd__(self, other: NameStack) -> NameStack:
        return NameStack(other.stack + self.stack)

    def scopes(self) -> tuple[str, ...]:
        """The rendered scope names, outermost first (``str`` joins them with ``/``)."""
        rendered: list[str] = []
        for elem in reversed(self.stack):
            elem.wrap(rendered)
        return tuple(reversed(rendered))

    def __str__(self) -> str:
        return "/".join(self.scopes())


def new_name_stack(name: str = "") -> NameStack:
    """An empty name stack, or one with the single scope ``name``."""
    return NameStack().extend(name) if name else NameStack()


class SourceInfo:
    """Where an operation came from: a traceback (or ``None``) and a name stack."""

    __slots__ = ("name_stack", "traceback")

    traceback: Traceback | None
    name_stack: NameStack

    def __init__(self, traceback: Traceback | None, name_stack: NameStack) -> None:
        self.traceback = traceback
        self.name_stack = name_stack

    def replace(
        self, *, traceback: Traceback | None = None, name_stack: NameStack | None = None
    ) -> SourceInfo:
        """A copy with ``traceback`` and/or ``name_stack`` replaced (``None``: kept)."""
        return SourceInfo(
            self.traceback if traceback is None else traceback,
            self.name_stack if name_stack is None else name_stack,
        )


def new_source_info() -> SourceInfo:
    """A source info with no traceback and an empty name stack."""
    return SourceInfo(None, NameStack())


def _summarize_frame(frame: Frame) -> str:
    col = f":{frame.start_column}" if frame.start_column != 0 else ""
    return f"{frame.file_name}:{frame.start_line}{col} ({frame.function_name})"


def summarize(source_info: SourceInfo, num_frames: int = 1) -> str:
    """The ``num_frames`` innermost user frames of ``source_info``, outermost first, one a line:
    ``file:line:column (function)``."""
    frames = itertools.islice(user_frames(source_info.traceback), num_frames)
    return "\n".join(reversed([_summarize_frame(f) for f in frames]))


# -- the current context --------------------------------------------------------------------------
class _Context(threading.local):
    traceback: Traceback | None = None
    name_stack: NameStack = NameStack()
    names: tuple[str, ...] = ()  # the ``named_scope`` names ``name_stack`` was last set as


_context = _Context()


def _swap_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Sets the ``named_scope`` names of this thread; returns the previous ones."""
    return _tracking.swap_name_stack(names)


def current_name_stack() -> NameStack:
    """The name stack in force: the last one set here, plus any ``named_scope`` opened since."""
    names = _tracking.current_name_stack()
    base = _context.names
    if names[: len(base)] == base:
        extra = names[len(base) :]
        return _context.name_stack + NameStack(tuple(Scope(n) for n in extra))
    return NameStack(tuple(Scope(n) for n in names))


def current() -> SourceInfo:
    """The source info of this point: the traceback set by ``user_context`` (else this one) and the
    current name stack."""
    tb = _context.traceback if _context.traceback is not None else _get_traceback()
    return SourceInfo(tb, current_name_stack())


class _NameStackContext:
    """Base of the context managers that replace the name stack for a block (or a function)."""

    __slots__ = ("_prev",)

    def _new_stack(self) -> NameStack:
        raise NotImplementedError

    def __enter__(self) -> NameStack:
        stack = self._new_stack()
        scopes = stack.scopes()
        self._prev = (_context.name_stack, _context.names, _swap_names(scopes))
        _context.name_stack, _context.names = stack, scopes
        return stack

    def __exit__(self, *exc: object) -> None:
        _context.name_stack, _context.names, names = self._prev
        _swap_names(names)

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self._fresh():
                return func(*args, **kwargs)

        return cast(F, wrapper)

    def _fresh(self) -> _NameStackContext:
        raise NotImplementedError


class extend_name_stack(_NameStackContext):
    """Within the block (or calls of the decorated function), the name stack has the scope
    ``name`` added; ``with`` gives the new stack."""

    __slots__ = ("name",)

    name: str

    def __init__(self, name: str) -> None:
        self.name = name

    def _new_stack(self) -> NameStack:
        return current_name_stack().extend(self.name)

    def _fresh(self) -> _NameStackContext:
        return extend_name_stack(self.name)


class transform_name_stack(_NameStackContext):
    """Within the block (or calls of the decorated function), the name stack has the
    transformation ``name`` added (rendered ``name(scope)``)."""

    __slots__ = ("name",)

    name: str

    def __init__(self, name: str) -> None:
        self.name = name

    def _new_stack(self) -> NameStack:
        return current_name_stack().transform(self.name)

    def _fresh(self) -> _NameStackContext:
        return transform_name_stack(self.name)


class set_name_stack(_NameStackContext):
    """Within the block (or calls of the decorated function), the name stack is ``name_stack``."""

    __slots__ = ("name_stack",)

    name_stack: NameStack

    def __init__(self, name_stack: NameStack) -> None:
        self.name_stack = name_stack

    def _new_stack(self) -> NameStack:
        return self.name_stack

    def _fresh(self) -> _NameStackContext:
        return set_name_stack(self.name_stack)


@contextlib.contextmanager
def reset_name_stack() -> Generator[None]:
    """Within the block, the name stack is empty."""
    with set_name_stack(NameStack()):
        yield


# -- user_context ---------------------------------------------------------------------------------
class JaxStackTraceBeforeTransformation(Exception):
    """The cause attached to an error raised inside ``user_context``: the user's traceback of the
    operation being transformed when it happened."""


_MESSAGE = (
    "The preceding stack trace is the source of the JAX operation that, once transformed by JAX, "
    "triggered the following exception.\n\n--------------------"
)


def _has_user_context(e: BaseException | None) -> bool:
    while e is not None:
        if isinstance(e, JaxStackTraceBeforeTransformation):
            return True
        e = e.__cause__
    return False


def _user_python_traceback(tb: types.TracebackType | None) -> types.TracebackType | None:
    """``tb`` with the frames outside the user's code left out."""
    frames: list[types.TracebackType] = []
    while tb is not None:
        if is_user_filename(tb.tb_frame.f_code.co_filename):
            frames.append(tb)
        tb = tb.tb_next
    out: types.TracebackType | None = None
    for t in reversed(frames):
        out = types.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def _tracking_info(
    traceback: Traceback | None, names: tuple[str, ...]
) -> _tracking.SourceInfo | None:
    """jax_core's record of ``traceback``'s innermost user frame (what staged operations keep)."""
    if traceback is None:
        return None
    codes, lastis = traceback.raw_frames()
    for code, lasti in zip(codes, lastis):
        if is_user_filename(code.co_filename):
            line: int = _Tb.code_addr2line(code, lasti)
            return _tracking.SourceInfo(code, lasti, line, names)
    return None


class user_context:
    """Within the block, the current source is ``traceback`` (and ``name_stack`` if given):
    operations staged inside are attributed to its user frame, and an exception raised inside
    gets that traceback as its cause (``JaxStackTraceBeforeTransformation``)."""

    __slots__ = ("_prev", "name_stack", "traceback")

    traceback: Traceback | None
    name_stack: NameStack | None

    def __init__(self, traceback: Traceback | None, *, name_stack: NameStack | None = None) -> None:
        self.traceback = traceback
        self.name_stack = name_stack

    def __enter__(self) -> None:
        stack = self.name_stack if self.name_stack is not None else current_name_stack()
        scopes = stack.scopes()
        tracked = _tracking_info(self.traceback, scopes)
        self._prev = (
            _context.traceback, _context.name_stack, _context.names, _swap_names(scopes),
            _tracking.swap_source(tracked) if tracked is not None else None, tracked is not None,
        )  # fmt: skip
        if self.traceback is not None:
            _context.traceback = self.traceback
        _context.name_stack, _context.names = stack, scopes

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: types.TracebackType | None,
    ) -> None:
        _context.traceback, _context.name_stack, _context.names, names, source, swapped = self._prev
        _swap_names(names)
        if swapped:
            _tracking.swap_source(source)
        if exc_value is None or self.traceback is None or _has_user_context(exc_value):
            return
        user_tb = _user_python_traceback(self.traceback.as_python_traceback())
        if user_tb is None:
            return
        msg = f"{type(exc_value).__name__}: {exc_value}"
        cause = JaxStackTraceBeforeTransformation(f"{msg}\n\n{_MESSAGE}").with_traceback(user_tb)
        cause.__context__ = exc_value.__context__
        cause.__cause__ = exc_value.__cause__
        cause.__suppress_context__ = exc_value.__suppress_context__
        exc_value.__context__ = None
        exc_value.__cause__ = cause
