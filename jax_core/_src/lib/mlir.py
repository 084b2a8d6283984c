"""jaxlib's MLIR bindings (the only place jax_core imports them from)."""

from __future__ import annotations

from jaxlib.mlir import ir as ir
from jaxlib.mlir.dialects import chlo as chlo
from jaxlib.mlir.dialects import func as func
from jaxlib.mlir.dialects import mhlo as mhlo
from jaxlib.mlir.dialects import sdy as sdy
from jaxlib.mlir.dialects import stablehlo as hlo
from jaxlib.mlir._mlir_libs._jax_mlir_ext import register_dialects as register_dialects  # pyright: ignore

__all__ = ["ir", "chlo", "func", "mhlo", "sdy", "hlo", "register_dialects"]
