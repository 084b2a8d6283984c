"""Configuration flags (``jax_enable_x64``, ``jax_disable_jit``) and the ``config`` object.

Flags are jaxlib ``Config`` objects so that jaxlib's C++ jit fast path reads the
same values (x64 is part of its cache key; disable_jit bypasses it). Each flag has
a global value (``config.update``) and a thread-local override (the context
managers), exactly as in JAX.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator
from typing import Generic, Protocol, TypeVar, cast

from jax_core._src.lib import jax_ext, jax_jit

_T = TypeVar("_T")


class _ConfigState(Protocol[_T]):
    """jaxlib's C++ ``config.Config``: a global value with a thread-local override."""

    @property
    def value(self) -> _T: ...
    def set_global(self, value: _T, /) -> None: ...
    def swap_local(self, value: _T, /) -> object: ...
    def set_local(self, value: object, /) -> None: ...


def _config_state(
    name: str, default: _T, *, include_in_jit_key: bool, include_in_trace_context: bool
) -> _ConfigState[_T]:
    """A new jaxlib ``Config`` (what jaxlib's C++ jit fast path reads flags from)."""
    return cast(
        _ConfigState[_T],
        jax_ext.config.Config(
            name,
            default,
            include_in_jit_key=include_in_jit_key,
            include_in_trace_context=include_in_trace_context,
        ),
    )


def _bool_env(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "t", "yes", "y", "on"):
        return True
    if value in ("0", "false", "f", "no", "n", "off", ""):
        return False
    raise ValueError(f"invalid truth value {raw!r} for environment variable {name}")


class Flag(Generic[_T]):
    """One configuration flag: a global value with a thread-local override."""

    __slots__ = ("name", "help", "_state")

    def __init__(self, name: str, default: _T, help: str, *, include_in_jit_key: bool) -> None:
        self.name = name
        self.help = help
        self._state: _ConfigState[_T] = _config_state(
            name, default, include_in_jit_key=include_in_jit_key, include_in_trace_context=True
        )

    @property
    def value(self) -> _T:
        """The value in force in this thread."""
        return self._state.value

    def set_global(self, value: _T) -> None:
        """Sets the process-wide value (what ``config.update`` does)."""
        self._state.set_global(value)

    @contextlib.contextmanager
    def __call__(self, value: _T) -> Generator[None]:
        """Overrides the flag in this thread for the duration of a ``with`` block."""
        prev = self._state.swap_local(value)
        try:
            yield
        finally:
            self._state.set_local(prev)

    @property
    def jaxlib_state(self) -> object:
        """The underlying jaxlib ``Config`` object."""
        return self._state


enable_x64: Flag[bool] = Flag(
    "jax_enable_x64",
    _bool_env("JAX_ENABLE_X64", False),
    "Enable 64-bit types (float64, int64, complex128).",
    include_in_jit_key=True,
)
disable_jit: Flag[bool] = Flag(
    "jax_disable_jit",
    _bool_env("JAX_DISABLE_JIT", False),
    "Run jit-decorated functions op by op, without compiling them.",
    include_in_jit_key=False,
)
_post_hook: _ConfigState[Callable[..., None] | None] = _config_state(
    "jax_post_hook", None, include_in_jit_key=False, include_in_trace_context=False
)

jax_jit.set_enable_x64_state(enable_x64.jaxlib_state)
jax_jit.set_disable_jit_state(disable_jit.jaxlib_state)
jax_jit.set_post_hook_state(_post_hook)

_FLAGS: dict[str, Flag[bool]] = {f.name: f for f in (enable_x64, disable_jit)}


class Config:
    """The ``jax_core.config`` object: ``config.update(name, value)`` and attribute reads."""

    def update(self, name: str, value: bool) -> None:
        """Sets flag ``name`` (e.g. ``"jax_enable_x64"``) globally."""
        flag = _FLAGS.get(name)
        if flag is None:
            raise AttributeError(
                f"Unrecognized config option: {name}. Known options: {', '.join(sorted(_FLAGS))}"
            )
        # Guards callers that are not type-checked.
        if not isinstance(value, bool):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"config option {name} takes a bool, got {value!r}")
        flag.set_global(value)

    def read(self, name: str) -> bool:
        """Returns the value of flag ``name`` in force in this thread."""
        flag = _FLAGS.get(name)
        if flag is None:
            raise AttributeError(f"Unrecognized config option: {name}")
        return flag.value

    @property
    def jax_enable_x64(self) -> bool:
        """Whether 64-bit types are enabled."""
        return enable_x64.value

    @property
    def jax_disable_jit(self) -> bool:
        """Whether jit is disabled."""
        return disable_jit.value

    @property
    def x64_enabled(self) -> bool:
        """Alias of ``jax_enable_x64``."""
        return enable_x64.value

    def trace_context(self) -> tuple[object, ...]:
        """The flag values that tracing depends on (part of every trace cache key)."""
        return (enable_x64.value,)


config: Config = Config()
"""The configuration object: ``config.update("jax_enable_x64", True)``."""
