"""Lowering: jaxprs to StableHLO modules through jaxlib's MLIR bindings."""
