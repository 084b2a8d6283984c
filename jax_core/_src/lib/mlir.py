"""jaxlib's MLIR bindings (the only place jax_core imports them from).

The dialect op builders (``hlo.add``, ``chlo.erf``, ...) are generated code whose
stubs are incomplete, so they are exposed as ``Any``: lowering rules annotate the
``ir.Value`` results they produce instead.
"""

from __future__ import annotations

from typing import Any

from jaxlib.mlir import ir as ir
from jaxlib.mlir.dialects import chlo as _chlo
from jaxlib.mlir.dialects import func as _func
from jaxlib.mlir.dialects import mhlo as _mhlo
from jaxlib.mlir.dialects import sdy as _sdy
from jaxlib.mlir.dialects import stablehlo as _stablehlo
from jaxlib.mlir._mlir_libs import _jax_mlir_ext  # pyright: ignore[reportMissingModuleSource]

hlo: Any = _stablehlo
"""The StableHLO dialect's op builders."""
chlo: Any = _chlo
"""The CHLO dialect's op builders (ops XLA expands, such as ``erf``)."""
func: Any = _func
"""The func dialect (``func.FuncOp``, ``func.ReturnOp``)."""
mhlo: Any = _mhlo
"""The MHLO dialect (only its registration is used)."""
sdy: Any = _sdy
"""The Shardy dialect (only its registration is used)."""
register_dialects: Any = _jax_mlir_ext.register_dialects
"""Registers jaxlib's dialects with an MLIR ``DialectRegistry``."""
