"""jax_core's version and the jaxlib versions it was built and tested against."""

from __future__ import annotations

__version__ = "0.1.0"
"""jax_core's own version."""

MINIMUM_JAXLIB_VERSION: tuple[int, ...] = (0, 12, 0)
"""The oldest jaxlib jax_core runs on."""

SUPPORTED_API_VERSIONS: frozenset[int] = frozenset({505})
"""jaxlib extension API versions (``xla_client._version``) jax_core understands."""
