"""jaxlib's MLIR bindings (the only place jax_core imports them from).

The dialect op builders (``hlo.add``, ``chlo.erf``, ...) are generated code whose
stubs are incomplete, so they are exposed as ``Any``: lowering rules annotate the
``ir.Value`` results they produce instead.
"""

from __future__ import annotations

import importlib
from typing import Any

import jaxlib.mlir._mlir_libs._jax_mlir_ext as _jax_mlir_ext
from jaxlib.mlir import ir as ir

# The dialect modules are plain generated Python without stubs; imported by name
# so that checkers see exactly the ``Any`` declared below.
hlo: Any = importlib.import_module("jaxlib.mlir.dialects.stablehlo")
"""The StableHLO dialect's op builders."""
chlo: Any = importlib.import_module("jaxlib.mlir.dialects.chlo")
"""The CHLO dialect's op builders (ops XLA expands, such as ``erf``)."""
func: Any = importlib.import_module("jaxlib.mlir.dialects.func")
"""The func dialect (``func.FuncOp``, ``func.ReturnOp``)."""
mhlo: Any = importlib.import_module("jaxlib.mlir.dialects.mhlo")
"""The MHLO dialect (only its registration is used)."""
sdy: Any = importlib.import_module("jaxlib.mlir.dialects.sdy")
"""The Shardy dialect (only its registration is used)."""

register_dialects = _jax_mlir_ext.register_dialects
"""Registers jaxlib's dialects with an MLIR ``DialectRegistry``."""

_jax_mlir = importlib.import_module("jaxlib._jax").mlir
serialize_portable_artifact: Any = _jax_mlir.serialize_portable_artifact
"""StableHLO module (text or bytecode) -> a portable artifact for a target StableHLO version."""
deserialize_portable_artifact: Any = _jax_mlir.deserialize_portable_artifact
"""A portable artifact -> the StableHLO module text."""
refine_polymorphic_shapes: Any = _jax_mlir.refine_polymorphic_shapes
"""Refines the dynamic shapes of a module's bytecode."""
hlo_to_stablehlo: Any = _jax_mlir.hlo_to_stablehlo
"""A serialized HLO module proto -> StableHLO bytecode."""
