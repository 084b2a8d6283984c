"""Layouts check their arguments: a ``Layout`` orders dimensions by number, a ``Format`` holds a
layout (or ``Layout.AUTO`` or ``None``) and a sharding."""

import jax_core.numpy as jnp
from jax_core.experimental.layout import Format, Layout

x = jnp.ones((4, 8))
Layout(("rows", "cols"))  # E: Iterable[int]
Format(3)  # E:
Format(None, "cpu")  # E:
m2m: tuple[str, ...] = x.format.layout.major_to_minor  # E: "tuple[int, ...]"
