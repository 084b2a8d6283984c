"""Exchanging arrays with other libraries through DLPack (``jax.dlpack``)."""

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.runtime.dlpack import from_dlpack as from_dlpack
from jax_core._src.runtime.dlpack import is_supported_dtype as is_supported_dtype
