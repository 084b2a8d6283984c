"""Device-local array layouts (``jax.experimental.layout``): ``Layout``, ``Format`` and
``with_layout_constraint``."""

from jax_core._src.lax.layout_ops import with_layout_constraint as with_layout_constraint
from jax_core._src.layout.formats import Format as Format
from jax_core._src.layout.formats import Layout as Layout

__all__ = ["Format", "Layout", "with_layout_constraint"]
