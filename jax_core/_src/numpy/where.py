"""``where``: elementwise selection with broadcasting and promotion."""

from __future__ import annotations

from jax_core._src.lax import elementwise as lax
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_dtypes
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x`` where ``condition`` is true, else ``y`` (broadcast together, dtypes promoted).

    The one-argument form ``where(condition)`` (``nonzero``) is not supported here; use
    ``jnp.nonzero`` with a static ``size``.
    """
    check_arraylike("where", condition, x, y)
    cond = lax.as_bool(condition)
    a, b = promote_dtypes(x, y)
    shape = jshape.broadcast_shapes(jshape.shape(cond), jshape.shape(a), jshape.shape(b))
    return lax.select(jshape.broadcast_to(cond, shape), jshape.broadcast_to(ensure_array(a), shape), jshape.broadcast_to(ensure_array(b), shape))
