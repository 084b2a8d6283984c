"""One configuration option: a global value with a thread-local override, as in JAX.

Options are jaxlib ``Config`` objects so that jaxlib's C++ jit fast path reads the same values
(x64 is part of its cache key; disable_jit bypasses it). Each has a global value (``config.update``,
or the ``JAX_*`` environment variable read at import) and a thread-local override (the option's
context manager, also usable as a decorator). A parser validates and normalizes every new value
with JAX's exception classes and messages; hooks let the runtime follow a change (the transfer
guards are jaxlib state).
"""

from __future__ import annotations

import enum
import functools
import os
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, Generic, Literal, Protocol, TypeVar, cast

from jax_core._src.lib import jax_ext

_T = TypeVar("_T")
_F = TypeVar("_F", bound=Callable[..., Any])

# What an option is for on jax_core's CPU runtime:
#   "effect": jax_core implements its meaning;
#   "other-platforms": it configures only GPU/TPU/Pallas/jax2tf machinery, so on CPU (as in JAX on
#      a CPU-only machine) setting it changes nothing;
#   "default-only": jax_core does not implement it yet; its default is the behaviour jax_core has,
#      and setting another value raises NotImplementedError rather than being silently ignored.
Support = Literal["effect", "other-platforms", "default-only"]


class _ConfigState(Protocol[_T]):
    """jaxlib's C++ ``config.Config``: a global value with a thread-local override."""

    @property
    def value(self) -> _T: ...
    def get_global(self) -> _T: ...
    def set_global(self, value: _T, /) -> None: ...
    def swap_local(self, value: object, /) -> object: ...
    def set_local(self, value: object, /) -> None: ...


_UNSET: object = jax_ext.config.unset  # a thread-local override that is not set


class _NoDefault:
    pass


NO_DEFAULT: Any = _NoDefault()


def bool_env(name: str, default: bool) -> bool:
    """The boolean value of environment variable ``name`` (JAX's spellings), or ``default``."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in ("y", "yes", "t", "true", "on", "1"):
        return True
    if value in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"invalid truth value {raw!r} for environment variable {name}")


class Flag(Generic[_T]):
    """One configuration option (JAX's ``State``): ``.value`` is the value in force in this thread;
    calling it gives a context manager (or decorator) that overrides it in this thread."""

    __slots__ = ("name", "help", "kind", "choices", "support", "_state", "_parser", "_cm_default",
                 "_global_hook", "_local_hook", "default", "__name__")  # fmt: skip

    def __init__(
        self,
        name: str,
        default: _T,
        help: str,
        *,
        kind: str,
        parser: Callable[[Any], _T],
        choices: Sequence[object] = (),
        support: Support = "effect",
        include_in_jit_key: bool = False,
        include_in_trace_context: bool = False,
        context_manager_default: object = NO_DEFAULT,
        global_hook: Callable[[_T], None] | None = None,
        local_hook: Callable[[_T | None], None] | None = None,
    ) -> None:
        self.name: str = name
        self.__name__: str = name.removeprefix("jax_")
        self.help: str = help
        self.kind: str = kind
        self.choices: tuple[object, ...] = tuple(choices)
        self.support: Support = support
        self.default: _T = default
        self._parser = parser
        self._cm_default = context_manager_default
        self._global_hook = global_hook
        self._local_hook = local_hook
        self._state = cast(
            _ConfigState[_T],
            jax_ext.config.Config(
                name,
                default,
                include_in_jit_key=include_in_jit_key,
                include_in_trace_context=include_in_trace_context,
            ),
        )
        if global_hook is not None:
            global_hook(default)

    @property
    def value(self) -> _T:
        """The value in force in this thread."""
        return self._state.value

    def get_global(self) -> _T:
        """The process-wide value."""
        return self._state.get_global()

    def parse(self, value: object) -> _T:
        """``value`` validated and normalized, or JAX's error for it."""
        parsed = self._parser(value)
        if self.support == "default-only" and parsed != self.default:
            raise NotImplementedError(
                f"jax_core does not implement the config option {self.name}={parsed!r} yet; only "
                f"its default, {self.default!r}, is supported."
            )
        return parsed

    def set_global(self, value: object) -> None:
        """Sets the process-wide value (what ``config.update`` does)."""
        parsed = self.parse(value)
        self._state.set_global(parsed)
        if self._global_hook is not None:
            self._global_hook(parsed)

    def __call__(self, new_val: _T = NO_DEFAULT) -> FlagContext[_T]:
        """A context manager (or decorator) that sets the option in this thread."""
        if new_val is NO_DEFAULT:
            if self._cm_default is NO_DEFAULT:
                raise TypeError(
                    f"Context manager for {self.__name__} config option requires an argument "
                    "representing the new value for the config option."
                )
            return FlagContext(self, self.parse(self._cm_default))
        return FlagContext(self, self.parse(new_val))

    def __bool__(self) -> bool:
        raise TypeError(
            f"bool() not supported for instances of type '{type(self).__name__}' "
            f"(did you mean to use '{type(self).__name__}.value' instead?)"
        )

    def _enter(self, value: _T) -> object:
        prev = self._state.swap_local(value)
        if self._local_hook is not None:
            self._local_hook(value)
        return prev

    def _exit(self, prev: object) -> None:
        self._state.set_local(prev)
        if self._local_hook is not None:
            self._local_hook(None if prev is _UNSET else cast(_T, prev))

    @property
    def jaxlib_state(self) -> object:
        """The underlying jaxlib ``Config`` object."""
        return self._state


class FlagContext(Generic[_T]):
    """A thread-local override of one option: a context manager, or a decorator."""

    __slots__ = ("flag", "new_val", "_prev")

    def __init__(self, flag: Flag[_T], new_val: _T) -> None:
        self.flag: Flag[_T] = flag
        self.new_val: _T = new_val
        self._prev: list[object] = []

    def __enter__(self) -> None:
        self._prev.append(self.flag._enter(self.new_val))  # pyright: ignore[reportPrivateUsage]

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.flag._exit(self._prev.pop())  # pyright: ignore[reportPrivateUsage]

    def __call__(self, func: _F) -> _F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with FlagContext(self.flag, self.new_val):
                return func(*args, **kwargs)

        return cast(_F, wrapper)


# ----------------------------------------------------------------------------------------------
# Constructors, one per kind of value, with JAX's validation and messages.

_REGISTRY: dict[str, Flag[Any]] = {}
CONTEXT_MANAGER_OPTIONS: set[str] = set()


_FlagT = TypeVar("_FlagT", bound="Flag[Any]")


def _register(flag: _FlagT, *, context_manager: bool = True) -> _FlagT:
    if flag.name in _REGISTRY:
        raise ValueError(f"Config option {flag.name} already defined")
    _REGISTRY[flag.name] = flag
    if context_manager:
        CONTEXT_MANAGER_OPTIONS.add(flag.name)
    return flag


def registry() -> dict[str, Flag[Any]]:
    """Every option by name."""
    return _REGISTRY


def bool_state(
    name: str, default: bool, help: str, *, support: Support = "effect", context_manager: bool = True,
    include_in_jit_key: bool = False, include_in_trace_context: bool | None = None,
    global_hook: Callable[[bool], None] | None = None, local_hook: Callable[[bool | None], None] | None = None,
) -> Flag[bool]:  # fmt: skip
    """A boolean option: any value is accepted and converted with ``bool``, as in JAX."""
    return _register(
        Flag(name, bool_env(name.upper(), default), help, kind="bool", parser=bool, support=support,
             include_in_jit_key=include_in_jit_key,
             include_in_trace_context=include_in_jit_key if include_in_trace_context is None else include_in_trace_context,
             context_manager_default=True, global_hook=global_hook, local_hook=local_hook),
        context_manager=context_manager,
    )  # fmt: skip


def optional_bool_state(name: str, default: bool | None, help: str, *, support: Support = "effect") -> Flag[bool | None]:
    """A boolean option that may be None."""

    def parser(value: object) -> bool | None:
        return None if value is None else bool(value)

    env = None if default is None else bool_env(name.upper(), default)
    return _register(Flag(name, env, help, kind="optional_bool", parser=parser, support=support))


def _env_choice(name: str, default: str | None, choices: Sequence[str]) -> str | None:
    value = os.getenv(name.upper(), default)
    if value is not None and value not in choices:
        raise ValueError(f'Invalid value "{value}" for JAX flag {name}')
    return value


def enum_state(
    name: str, choices: Sequence[str], default: str, help: str, *, support: Support = "effect",
    include_in_jit_key: bool = False,
) -> Flag[str]:  # fmt: skip
    """An option whose value is one of ``choices`` (strings)."""

    def parser(value: object) -> str:
        if type(value) is not str or value not in choices:
            raise ValueError(f"new enum value must be in {list(choices)}, got {value} of type {type(value)}.")
        return value

    initial = cast(str, _env_choice(name, default, choices))
    return _register(
        Flag(name, initial, help, kind="enum", parser=parser, choices=choices, support=support,
             include_in_jit_key=include_in_jit_key, include_in_trace_context=include_in_jit_key),
    )  # fmt: skip


def optional_enum_state(
    name: str, choices: Sequence[str], default: str | None, help: str, *, support: Support = "effect",
    include_in_jit_key: bool = False, global_hook: Callable[[str | None], None] | None = None,
    local_hook: Callable[[str | None], None] | None = None,
) -> Flag[str | None]:  # fmt: skip
    """An option whose value is one of ``choices`` or None."""

    def parser(value: object) -> str | None:
        if value is not None and (type(value) is not str or value not in choices):
            raise ValueError(
                f"new enum value must be None or in {list(choices)}, got {value} of type {type(value)}."
            )
        return value

    initial = _env_choice(name, default, choices)
    return _register(
        Flag(name, initial, help, kind="optional_enum", parser=parser, choices=choices, support=support,
             include_in_jit_key=include_in_jit_key, include_in_trace_context=include_in_jit_key,
             global_hook=global_hook, local_hook=local_hook),
    )  # fmt: skip


_E = TypeVar("_E", bound=enum.Enum)


class EnumFlag(Flag[_E]):
    """An option whose value is an enum member; its value's string is accepted too."""

    __slots__ = ()

    def __call__(self, new_val: _E | str = NO_DEFAULT) -> FlagContext[_E]:
        return super().__call__(cast(_E, new_val))


def enum_class_state(
    name: str, enum_class: type[_E], default: _E, help: str, *, support: Support = "effect",
    include_in_jit_key: bool = False,
) -> EnumFlag[_E]:  # fmt: skip
    """An option whose value is a member of ``enum_class`` (its value's string also accepted)."""

    def parser(value: object) -> _E:
        return enum_class(value)  # JAX's ValueError ("'x' is not a valid NumpyDtypePromotion")

    raw = os.getenv(name.upper())
    try:
        initial = default if raw is None else enum_class(raw)
    except ValueError:
        raise ValueError(f'Invalid value "{raw}" for JAX flag {name}') from None
    return _register(
        EnumFlag(name, initial, help, kind="enum_class", parser=parser,
             choices=[m.value if isinstance(m.value, str) else m.name.lower() for m in enum_class],
             support=support, include_in_jit_key=include_in_jit_key, include_in_trace_context=include_in_jit_key),
    )  # fmt: skip


def int_state(
    name: str, default: int | None, help: str, *, support: Support = "effect", context_manager: bool = True,
    validator: Callable[[int], None] | None = None,
) -> Flag[int | None]:  # fmt: skip
    """An integer option (None allowed as a new value, as in JAX)."""
    raw = os.getenv(name.upper())
    if raw is not None:
        try:
            default = int(raw)
        except ValueError:
            raise ValueError(f'Invalid value "{raw}" for JAX flag {name}') from None

    def parser(value: object) -> int | None:
        if value is not None and not isinstance(value, int):
            raise ValueError(f"new int config value must be None or of type int, got {value} of type {type(value)}")
        if value is not None and validator is not None:
            validator(value)
        return value

    return _register(Flag(name, default, help, kind="int", parser=parser, support=support), context_manager=context_manager)


def float_state(name: str, default: float, help: str, *, support: Support = "effect") -> Flag[float]:
    """A floating-point option."""
    raw = os.getenv(name.upper())
    if raw is not None:
        try:
            default = float(raw)
        except ValueError:
            raise ValueError(f'Invalid value "{raw}" for JAX flag {name}') from None

    def parser(value: object) -> float:
        if not isinstance(value, (float, int)):
            raise ValueError(
                f"new float config value must be None or of type float, got {value} of type {type(value)}"
            )
        return value

    return _register(Flag(name, default, help, kind="float", parser=parser, support=support))


def string_state(
    name: str, default: str | None, help: str, *, support: Support = "effect", optional: bool = False,
    context_manager: bool = True, global_hook: Callable[[str | None], None] | None = None,
) -> Flag[str | None]:  # fmt: skip
    """A string option (``optional``: None allowed)."""
    default = os.getenv(name.upper(), default)

    def parser(value: object) -> str | None:
        if optional and value is not None and not isinstance(value, str):
            raise ValueError(f"new string config value must be None or of type str, got {value} of type {type(value)}.")
        if not optional and not isinstance(value, str):
            raise TypeError(f"new string config value must be of type str, got {value} of type {type(value)}.")
        return cast(str | None, value)

    return _register(
        Flag(name, default, help, kind="optional_str" if optional else "str", parser=parser, support=support,
             global_hook=global_hook),
        context_manager=context_manager,
    )  # fmt: skip


def object_state(
    name: str, default: object, help: str, *, parser: Callable[[Any], object], support: Support = "effect",
    include_in_jit_key: bool = False,
) -> Flag[Any]:  # fmt: skip
    """An option whose value is an object (e.g. ``jax_default_device``: a device or a platform name)."""
    return _register(
        Flag(name, default, help, kind="object", parser=parser, support=support,
             include_in_jit_key=include_in_jit_key, include_in_trace_context=include_in_jit_key),
    )  # fmt: skip
