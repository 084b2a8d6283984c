"""Compiling lowered modules with PjRt, and calling the executables."""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src.backend import client
from jax_core._src.backend.client import CompileOptions, CppSharding, LoadedExecutable
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect
from jax_core._src.core.tokens import AbstractToken, Token, abstract_token
from jax_core._src.lib import jax_ext, xla_client
from jax_core._src.lowering.lower_jaxpr import LoweredModule
from jax_core._src.runtime import compilation_cache
from jax_core._src.runtime.tokens import runtime_tokens

if TYPE_CHECKING:
    from jax_core._src.sharding.shardings import Device, Sharding

# ``xla_client.CompileOptions`` comes from the stubless ``_jax`` extension (see client.py).
_xc: ModuleType = xla_client


_custom_layouts_compiled: list[bool] = [False]


def custom_layouts_compiled() -> bool:
    """Whether some executable was compiled for a non-default (or automatic) layout, so arrays in
    non-default layouts may exist (``runtime/relayout.py`` checks arguments from then on)."""
    return _custom_layouts_compiled[0]


def note_custom_layouts() -> None:
    """Records that arrays in non-default layouts may exist from now on."""
    _custom_layouts_compiled[0] = True


@dataclasses.dataclass(frozen=True)
class Executable:
    """A compiled computation loaded on one device, with its result handlers."""

    loaded: LoadedExecutable
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    out_shardings: tuple[CppSharding, ...]
    handlers: tuple[object, ...]  # jaxlib ``ResultHandler``s, opaque to Python
    device: Device
    committed: bool = False
    """Whether its results are committed to ``device``."""
    ordered_effects: tuple[Effect, ...] = ()
    """Its first arguments and results are the tokens of these (``runtime/tokens.py``)."""
    has_effects: bool = False
    """Whether it has effects (calls then go through the runtime tokens, and never through jit's
    C++ fast path)."""
    input_shardings: tuple[Sharding, ...] | None = None
    """Where each argument must be (an SPMD executable's; ``None``: on ``device``)."""
    output_shardings: tuple[Sharding, ...] | None = None
    """Where each result is (an SPMD executable's; ``None``: on ``device``)."""
    devices: tuple[Device, ...] = ()
    """Every device it runs on (an SPMD executable's, in partition order; else ``(device,)``)."""
    custom_layouts: bool = False
    """Whether it was compiled for some non-default (or automatic) parameter or result layout."""

    @functools.cached_property
    def parameter_layouts(self) -> tuple[Any, ...]:
        """The jaxlib ``PjRtLayout`` of each argument (tokens left out), as XLA compiled it."""
        raw: Any = self.loaded
        return tuple(raw.get_parameter_layouts())[len(self.ordered_effects) :]

    @functools.cached_property
    def output_layouts(self) -> tuple[Any, ...]:
        """The jaxlib ``PjRtLayout`` of each result (tokens left out), as XLA compiled it."""
        raw: Any = self.loaded
        return tuple(raw.get_output_layouts())[len(self.ordered_effects) :]

    def __post_init__(self) -> None:
        if self.custom_layouts:  # its results may be in non-default layouts
            note_custom_layouts()

    def call(self, args: Sequence[Any]) -> list[Any]:
        """Runs on device arrays; returns device arrays (asynchronously computed)."""
        if self.has_effects:
            return self._call_with_tokens(args)
        results = self.loaded.execute_sharded(args)
        outs: list[Any] = results.consume_with_handlers(list(self.handlers))
        return outs

    def _call_with_tokens(self, args: Sequence[Any]) -> list[Any]:
        effects = self.ordered_effects
        tokens_in = runtime_tokens.token_inputs(effects, self.device)
        results = self.loaded.execute_sharded([*tokens_in, *args], with_tokens=True)
        runtime_token = results.consume_token()
        handlers = [*(_token_handler(self.device) for _ in effects), *self.handlers]
        outs: list[Any] = results.consume_with_handlers(handlers)
        runtime_tokens.set_outputs(effects, outs[: len(effects)], runtime_token, self.device)
        return outs[len(effects) :]

    def as_text(self) -> str:
        """The optimized HLO text of the compiled computation."""
        texts: list[str] = [m.to_string() for m in self.loaded.hlo_modules()]
        return "\n".join(texts)

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates (flops, bytes accessed, ...)."""
        raw = self.loaded.cost_analysis()
        if isinstance(raw, list):
            entries = cast(list[object], raw)
            if not entries:
                return {}
            raw = entries[0]
        return {str(k): float(v) for k, v in dict(cast(Mapping[str, Any], raw)).items()}


def _result_handler(aval: ShapedArray, sharding: CppSharding, committed: bool = False) -> object:
    """Builds an output array from its buffer; an extended dtype's (a PRNG key's) wraps its data,
    a token's buffer becomes a ``Token``."""
    if isinstance(aval, AbstractToken):
        buffer = jax_ext.array_result_handler(ShapedArray(aval.shape, aval.dtype), sharding, committed)
        return buffer.wrap(Token)
    if dtypes.is_extended_dtype(aval.dtype):
        rules: Any = aval.dtype._rules  # pyright: ignore[reportPrivateUsage]
        physical = jax_ext.array_result_handler(rules.physical_aval(aval), sharding, committed)
        return physical.wrap(functools.partial(rules.wrap, aval))
    return jax_ext.array_result_handler(aval, sharding, committed)


def _token_handler(device: Device) -> object:
    return _result_handler(abstract_token, client.single_device_sharding(device))


def _module_name(lowered: LoweredModule) -> str:
    with lowered.context:
        name = lowered.module.operation.attributes["sym_name"]
    return str(name).strip('"')


class CompilerEffortLevel(enum.Enum):
    """How hard XLA optimizes for run time (``jax_optimization_level``) or memory fitting
    (``jax_memory_fitting_level``): ``O0`` (least) to ``O3`` (most); ``UNKNOWN``: XLA's default."""

    UNKNOWN = 0
    O0 = 9
    O1 = 19
    O2 = 29
    O3 = 39

    @classmethod
    def _missing_(cls, value: object) -> CompilerEffortLevel | None:
        return cls.__members__.get(value) if isinstance(value, str) else None


_ON_BUILD_OPTIONS = ("optimization_level", "memory_fitting_level")


def compile_options(compiler_options: Mapping[str, Any] | None = None) -> Any:
    """XLA's compile options: the effort levels of the config, ``jax_disable_most_optimizations``,
    and ``compiler_options`` (XLA debug options by name, e.g. ``{"xla_cpu_enable_fast_math":
    True}``, as ``Lowered.compile(compiler_options)`` takes them)."""
    options: Any = _xc.CompileOptions()
    build = options.executable_build_options
    build.optimization_level = CompilerEffortLevel(config.optimization_level.value).value
    build.memory_fitting_level = CompilerEffortLevel(config.memory_fitting_level.value).value
    overrides = dict(compiler_options or {})
    for name in _ON_BUILD_OPTIONS:
        if name in overrides:
            setattr(build, name, CompilerEffortLevel(overrides.pop(name)).value)
    if overrides:
        options.env_option_overrides = [(k, v if isinstance(v, (str, bool, int, float)) else str(v)) for k, v in overrides.items()]
    if config.disable_most_optimizations.value:
        debug = build.debug_options
        debug.xla_backend_optimization_level = 0
        debug.xla_llvm_disable_expensive_passes = True
    return options


def compile_module(
    lowered: LoweredModule,
    device: Device | None = None,
    compiler_options: Mapping[str, Any] | None = None,
    *,
    committed: bool = False,
) -> Executable:
    """Compiles a lowered module for one device (default: the default device; with
    ``compiler_options``, see ``compile_options``); its results are ``committed`` to it or not."""
    dev = client.default_device() if device is None else device
    options_any = compile_options(compiler_options)
    options_any.device_assignment = _xc.DeviceAssignment.create(np.array([[dev.id]]))
    options = cast(CompileOptions, options_any)
    backend = client.backend()
    devices = client.device_list((dev,))
    if lowered.host_callbacks:  # Python callables cannot be serialized: never cached on disk
        loaded = backend.compile_and_load(lowered.module, devices, options, list(lowered.host_callbacks))
    elif compilation_cache.cache_dir() is None:
        loaded = backend.compile_and_load(lowered.module, devices, options)
    else:
        raw: Any = backend
        key = compilation_cache.cache_key(
            _module_name(lowered), lowered.as_text(), cast(Any, options).SerializeAsString(),
            backend.platform, str(getattr(dev, "device_kind", "")),
        )  # fmt: skip
        loaded = compilation_cache.compile_or_load(
            key,
            lambda: backend.compile_and_load(lowered.module, devices, options),
            lambda exe: bytes(raw.serialize_executable(exe)),
            lambda data: raw.deserialize_executable(data, devices, options),
        )
    sharding = client.single_device_sharding(dev)
    handlers: tuple[object, ...] = tuple(_result_handler(a, sharding, committed) for a in lowered.out_avals)
    return Executable(
        loaded,
        lowered.in_avals,
        lowered.out_avals,
        (sharding,) * len(lowered.out_avals),
        handlers,
        dev,
        committed,
        lowered.ordered_effects,
        lowered.has_effects,
        custom_layouts=lowered.custom_layouts,
    )
