"""Compiling lowered modules with PjRt, and calling the executables."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib import _jax, xla_client
from jax_core._src.lowering.lower_jaxpr import LoweredModule
from jax_core._src.runtime import client


@dataclasses.dataclass(frozen=True)
class Executable:
    """A compiled computation loaded on one device, with its result handlers."""

    loaded: Any
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    out_shardings: tuple[Any, ...]
    handlers: tuple[Any, ...]
    device: Any

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
        raw: Any = self.loaded.cost_analysis()
        if isinstance(raw, list):
            raw = raw[0] if raw else {}
        return {str(k): float(v) for k, v in dict(raw).items()}


def compile_module(lowered: LoweredModule, device: Any | None = None) -> Executable:
    """Compiles a lowered module for one device."""
    dev = client.default_device() if device is None else device
    options = xla_client.CompileOptions()
    loaded = client.backend().compile_and_load(lowered.module, client.device_list((dev,)), options)
    sharding = client.single_device_sharding(dev)
    handlers = tuple(_jax.array_result_handler(a, sharding, False) for a in lowered.out_avals)
    return Executable(
        loaded,
        lowered.in_avals,
        lowered.out_avals,
        (sharding,) * len(lowered.out_avals),
        handlers,
        dev,
    )
