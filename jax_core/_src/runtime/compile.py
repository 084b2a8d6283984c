"""Compiling lowered modules with PjRt, and calling the executables."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from jax_core._src import dtypes
from jax_core._src.backend import client
from jax_core._src.backend.client import CompileOptions, CppSharding, LoadedExecutable
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib import jax_ext, xla_client
from jax_core._src.lowering.lower_jaxpr import LoweredModule

if TYPE_CHECKING:
    from jax_core._src.sharding.shardings import Device

# ``xla_client.CompileOptions`` comes from the stubless ``_jax`` extension (see client.py).
_xc: ModuleType = xla_client


@dataclasses.dataclass(frozen=True)
class Executable:
    """A compiled computation loaded on one device, with its result handlers."""

    loaded: LoadedExecutable
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    out_shardings: tuple[CppSharding, ...]
    handlers: tuple[object, ...]  # jaxlib ``ResultHandler``s, opaque to Python
    device: Device

    def call(self, args: Sequence[Any]) -> list[Any]:
        """Runs on device arrays; returns device arrays (asynchronously computed)."""
        results = self.loaded.execute_sharded(args)
        outs: list[Any] = results.consume_with_handlers(list(self.handlers))
        return outs

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


def _result_handler(aval: ShapedArray, sharding: CppSharding) -> object:
    """Builds an output array from its buffer; an extended dtype's (a PRNG key's) wraps its data."""
    if dtypes.is_extended_dtype(aval.dtype):
        rules: Any = aval.dtype._rules  # pyright: ignore[reportPrivateUsage]
        physical = jax_ext.array_result_handler(rules.physical_aval(aval), sharding, False)
        return physical.wrap(functools.partial(rules.wrap, aval))
    return jax_ext.array_result_handler(aval, sharding, False)


def compile_module(lowered: LoweredModule, device: Device | None = None) -> Executable:
    """Compiles a lowered module for one device."""
    dev = client.default_device() if device is None else device
    options = cast(CompileOptions, _xc.CompileOptions())
    loaded = client.backend().compile_and_load(lowered.module, client.device_list((dev,)), options)
    sharding = client.single_device_sharding(dev)
    handlers: tuple[object, ...] = tuple(_result_handler(a, sharding) for a in lowered.out_avals)
    return Executable(
        loaded,
        lowered.in_avals,
        lowered.out_avals,
        (sharding,) * len(lowered.out_avals),
        handlers,
        dev,
    )
