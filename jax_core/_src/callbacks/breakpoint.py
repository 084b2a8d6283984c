"""``debug.breakpoint``: an interactive debugger where a program calls it, eager or staged.

When called, it captures the Python stack (the caller's frame and those above it; with
``filter_frames`` jax_core's own frames are left out) and each frame's local variables. Locals
that are tracers (values being staged) are passed to a ``debug.callback`` and so arrive as
arrays when the program runs; everything else is kept as it was. When the callback runs, the
chosen debugger backend gets the frames (``DebuggerFrame``, innermost first). As JAX's, it runs
once per element under ``vmap`` and with the primal values under ``grad``.

Backends are registered by name with a priority (``register_debugger``); ``"cli"`` (``jdb``, in
``debugger_cli``) has priority -1. An unknown ``backend`` name falls back to the registered one
of highest priority, as in JAX.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any, Final, Protocol, cast, overload

from jax_core._src.callbacks.debugger_cli import DebuggerFrame, run_cli_debugger
from jax_core._src.callbacks.debugging import debug_callback
from jax_core._src.callbacks.pure import pure_callback
from jax_core._src.core.trace import Tracer
from jax_core._src.lax.ad_ops import stop_gradient
from jax_core._src.tree.tree_util import PyTreeDef, tree_flatten, tree_unflatten

_PKG_DIR: Final = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# -- backends -------------------------------------------------------------------------------------
class Debugger(Protocol):
    """A debugger backend: called with the captured frames (innermost first), the id of the
    thread the breakpoint runs on (``None`` on the main thread) and ``breakpoint``'s extra
    keyword arguments."""

    def __call__(
        self, frames: list[DebuggerFrame], thread_id: int | None, **kwargs: Any
    ) -> None: ...


_debuggers: dict[str, tuple[int, Debugger]] = {}
_debug_lock: Final = threading.Lock()  # one debugger session at a time, whatever the thread


def register_debugger(name: str, debugger: Debugger, priority: int) -> None:
    """Makes ``debugger`` the backend ``name``; without a ``backend`` (or with an unknown one),
    the registered backend of highest priority is used."""
    if name in _debuggers:
        raise ValueError(f'Debugger with name "{name}" already registered.')
    _debuggers[name] = (priority, debugger)


def get_debugger(backend: str | None = None) -> Debugger:
    """The backend named ``backend`` if registered, else the one of highest priority (the first
    registered among equals)."""
    if backend is not None and backend in _debuggers:
        return _debuggers[backend][1]
    if not _debuggers:
        raise ValueError("No debuggers registered!")
    return max(_debuggers.values(), key=lambda entry: entry[0])[1]


register_debugger("cli", run_cli_debugger, -1)


# -- capturing frames -----------------------------------------------------------------------------
class _CantFlatten:
    """Stands for a local variable whose pytree flattening raised."""

    def __repr__(self) -> str:
        return "<cant_flatten>"


_CANT_FLATTEN: Final = _CantFlatten()


@dataclasses.dataclass(frozen=True, slots=True)
class _FrameLayout:
    """A captured frame without its variables' leaves: where it is, and each local's name and
    pytree structure (its leaves are laid out one local after another)."""

    filename: str
    source: list[str]
    lineno: int
    offset: int | None
    names: tuple[str, ...]
    trees: tuple[PyTreeDef, ...]

    def rebuild(self, leaves: Iterator[Any]) -> DebuggerFrame:
        local_values = {
            name: tree_unflatten(tree, list(itertools.islice(leaves, tree.num_leaves)))
            for name, tree in zip(self.names, self.trees, strict=True)
        }
        return DebuggerFrame(self.filename, local_values, {}, self.source, self.lineno, self.offset)


def _is_jax_core(filename: str) -> bool:
    return filename.startswith(_PKG_DIR + os.sep)


def _source(frame: FrameType) -> tuple[list[str], int | None]:
    """The frame's function (or module) source lines and the current line's index in them."""
    try:
        lines, start = inspect.getsourcelines(frame)
    except (OSError, TypeError):
        return [], None
    source = "".join(lines).split("\n")
    offset = frame.f_lineno - max(start, 1)
    if not 0 <= offset < len(source):  # e.g. code from exec: no reliable source
        return [], None
    return source, offset


def _flatten_local(value: object) -> tuple[list[Any], PyTreeDef]:
    try:
        return tree_flatten(value)
    except Exception:  # noqa: BLE001  (as JAX: any failure to flatten shows as <cant_flatten>)
        return tree_flatten(_CANT_FLATTEN)


def _capture(
    start: FrameType | None, filter_frames: bool, num_frames: int | None
) -> tuple[list[_FrameLayout], list[Any]]:
    """The layouts of the frames from ``start`` outward, and their locals' leaves in order."""
    frames: list[FrameType] = []
    while start is not None:
        if not (filter_frames and _is_jax_core(start.f_code.co_filename)):
            frames.append(start)
        start = start.f_back
    if num_frames is not None:
        frames = frames[:num_frames]
    layouts: list[_FrameLayout] = []
    leaves: list[Any] = []
    for frame in frames:
        names: list[str] = []
        trees: list[PyTreeDef] = []
        for name, value in dict(frame.f_locals).items():
            value_leaves, tree = _flatten_local(value)
            names.append(name)
            trees.append(tree)
            leaves.extend(value_leaves)
        source, offset = _source(frame)
        layouts.append(
            _FrameLayout(
                frame.f_code.co_filename, source, frame.f_lineno, offset, tuple(names), tuple(trees)
            )
        )
    return layouts, leaves


def _enter_debugger(
    layouts: Sequence[_FrameLayout],
    is_dynamic: Sequence[bool],
    static: Sequence[Any],
    backend: str | None,
    kwargs: dict[str, Any],
) -> Callable[..., None]:
    """The host callback: rebuilds the frames with the dynamic leaves it is called with and runs
    the backend on them."""

    def callback(*dynamic: Any) -> None:
        dyn_it, static_it = iter(dynamic), iter(static)
        leaves = iter([next(dyn_it) if d else next(static_it) for d in is_dynamic])
        frames = [layout.rebuild(leaves) for layout in layouts]
        thread_id = (
            None if threading.current_thread() is threading.main_thread() else threading.get_ident()
        )
        debugger = get_debugger(backend)
        with _debug_lock:
            debugger(frames, thread_id, **kwargs)

    return callback


# -- breakpoint -----------------------------------------------------------------------------------
@overload
def breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: None = None,
    **kwargs: Any,
) -> None: ...
@overload
def breakpoint[T](
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: T,
    **kwargs: Any,
) -> T: ...
def breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    **kwargs: Any,
) -> Any:
    """Stops the program here and opens an interactive debugger, as ``jax.debug.breakpoint``.

    Eagerly it stops at once; in staged code (``jit``, ``vmap``, ``scan``, ...) it stops when the
    compiled program reaches it, with the values of the captured frames' traced locals as arrays
    (under ``vmap`` once per batch element). The default ``"cli"`` backend reads commands at the
    ``(jdb) `` prompt: ``p``/``pp`` and expressions, ``u``/``d``, ``l``, ``w``, ``c`` and ``q``.

    Args:
      backend: the name of a registered debugger; by default (or when it is not registered) the
        registered one of highest priority, which is ``"cli"`` unless another was registered.
      filter_frames: leave jax_core's internal frames out of the captured stack.
      num_frames: capture only this many frames, from the caller outward.
      ordered: order the breakpoint with the other ordered effects (``debug.print(ordered=True)``,
        ordered ``io_callback``), as those are ordered among themselves.
      token: instead of ``ordered``, a pytree of arrays: the breakpoint runs once its value is
        computed, and the value is returned unchanged; pass it on to the rest of the computation
        (when the result is unused, the breakpoint may be removed as dead code).
      **kwargs: passed to the backend (the cli takes ``stdin``, ``stdout`` and ``completekey``).

    Returns:
      ``token`` unchanged when given, else ``None``.
    """
    if token is not None and ordered:
        raise ValueError("`ordered` and `token` are mutually exclusive arguments.")
    layouts, leaves = _capture(sys._getframe(1), filter_frames, num_frames)  # pyright: ignore[reportPrivateUsage]
    is_dynamic = [isinstance(leaf, Tracer) for leaf in leaves]
    dynamic = [leaf for leaf, d in zip(leaves, is_dynamic) if d]
    static = [leaf for leaf, d in zip(leaves, is_dynamic) if not d]
    callback = _enter_debugger(layouts, is_dynamic, static, backend, kwargs)
    if token is None:
        debug_callback(callback, *dynamic, ordered=ordered)
        return None

    def with_token(value: Any, *flat: Any) -> Any:
        callback(*flat)
        return value

    token, dynamic = stop_gradient((token, dynamic))
    # The result has the token's structure, shapes and dtypes (any pytree: no overload to pick).
    return cast(Any, pure_callback(with_token, token, token, *dynamic))
