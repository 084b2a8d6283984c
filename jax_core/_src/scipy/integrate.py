"""``jax.scipy.integrate``: ``trapezoid``, the composite trapezoidal rule (``jnp.trapezoid``
compiled as one function with a static ``axis``, as JAX's)."""

from __future__ import annotations

from jax_core._src.numpy.numeric import trapezoid as _jnp_trapezoid
from jax_core._src.numpy.util import jitted
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["trapezoid"]


@jitted(static=("axis",), inline=False)
def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0, axis: int = -1) -> Array:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, as
    ``scipy.integrate.trapezoid``: over the sample points ``x``, or spacing ``dx`` when ``x`` is
    ``None``.

    Example::

        trapezoid(jnp.array([1, 2, 3, 2, 3, 2, 1]))                               # 13.0
        trapezoid(jnp.array([1, 2, 3, 2, 3, 2, 1]), jnp.array([0, 2, 5, 7, 10, 15, 20]))  # 43.0
    """
    return _jnp_trapezoid(y, x, dx, axis)
