"""``Key``: JAX's public name for the type of a PRNG key array (``jax.random.Key``).

In JAX 0.12 it is ``typing.NewType("Key", Array)``: statically a distinct subtype of ``Array``
(so annotations can say "a key"), at run time the identity function (``Key(x) is x``).
"""

from __future__ import annotations

from typing import NewType

from jax_core._src.typing.basearray import Array

Key = NewType("Key", Array)
"""A PRNG key array (``random.key(0)``), as JAX's ``jax.random.Key``: ``Key(x)`` returns ``x``."""
