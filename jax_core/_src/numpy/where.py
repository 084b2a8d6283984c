"""``where``: elementwise selection with broadcasting and promotion, staged as JAX stages it (one
``jit[name=_where]`` equation, which also keeps an eager call from materializing the broadcast
forms of scalar arguments)."""

from __future__ import annotations

from jax_core._src.lax import elementwise as lax
from jax_core._src.numpy import shape as jshape
from jax_core._src.numpy.util import check_arraylike, ensure_array, jitted, promote_dtypes
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


def select_promoted(condition: ArrayLike, x: ArrayLike, y: ArrayLike) -> Array:
    """``where``'s selection traced inline (no equation of its own): for library code where JAX
    selects with ``lax.select`` rather than ``jnp.where``."""
    cond = lax.as_bool(condition)
    a, b = promote_dtypes(x, y)
    shape = jshape.broadcast_shapes(jshape.shape(cond), jshape.shape(a), jshape.shape(b))
    return lax.select(jshape.broadcast_to(cond, shape), jshape.broadcast_to(ensure_array(a), shape), jshape.broadcast_to(ensure_array(b), shape))


@jitted(inline=False)
def _where(condition: ArrayLike, x: ArrayLike, y: ArrayLike) -> Array:
    check_arraylike("where", condition, x, y)
    return select_promoted(condition, x, y)


where_jit = _where
"""``where`` without its argument check, as one ``jit[name=_where]`` (JAX's ``util._where``): for
library code where JAX calls ``jnp.where``."""


def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x`` where ``condition`` is true, else ``y`` (broadcast together, dtypes promoted).

    The one-argument form ``where(condition)`` (``nonzero``) is ``jnp.where`` in indexing_funcs.
    """
    check_arraylike("where", condition, x, y)
    return _where(condition, x, y)
