"""The loop-free approximate Gamma sampler behind ``gamma``/``loggamma``/``beta``
``(method='approximate')``, JAX 0.12's algorithm op for op.

A base draw at the boosted shape ``a + 4`` comes from the chi-square quantile series
(``Gamma(a) = chi2(2a) / 2``: the cube of a degree-6 polynomial in a standard normal, with
coefficients quadratic in ``1 / nu``; Goldstein's Algorithm 451, Johnson-Kotz-Balakrishnan
eq. 18.37, the leading constant 1 instead of the published 1.0000886); Stuart's identity
``log G_a = log G_{a+n} + sum_k log(U_k) / (a + k)`` carries the small-``a`` behaviour, with
``log U_k`` drawn as ``-Exponential(1)``. It computes in at least float32 and narrows at the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core import numpy as jnp
from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.elementwise.polynomial import polynomial
from jax_core._src.random.api import split_keys
from jax_core._src.random.samplers import _exponential, _normal  # pyright: ignore[reportPrivateUsage]
from jax_core._src.transforms.api import jit
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

Shape = tuple[int, ...]

CHI2_QUANTILE_COEF: tuple[tuple[float, float, float], ...] = (
    (1.0, -0.2237368, -0.01513904),
    (0.4713941, 0.02607083, -0.008986007),
    (0.0001348028, 0.01128186, 0.02277679),
    (-0.008553069, -0.01153761, -0.01323293),
    (0.00312558, 0.005169654, -0.006950356),
    (-0.0008426812, 0.00253001, 0.001060438),
    (0.00009780499, -0.001450117, 0.001565326),
)
"""Row ``k``: the coefficients of ``x**k * nu**(-k/2)`` as a quadratic in ``1 / nu``."""
NUM_BOOSTS = 4
"""Stuart boosting steps: the series is evaluated at shape ``a + 4 >= 4``."""


def _loggamma_chisquare(key: Array, a: Array) -> Array:
    """``log Gamma(a, 1)`` from the chi-square quantile series (accurate for ``a >= 4``)."""
    nu = 2 * a
    x = _normal(key, a.shape, a.dtype)
    u = 1 / nu
    t = x * lax.rsqrt(nu)  # x**k * nu**(-k/2) = t**k: Horner in t
    row_coeffs = [polynomial(u, row) for row in CHI2_QUANTILE_COEF]
    poly = polynomial(t, row_coeffs)
    poly = jnp.maximum(poly, dtypes.finfo(a.dtype).tiny)  # never reached; guards log
    return jnp.log(a) + 3 * jnp.log(poly)


@jit(static_argnums=(2, 3, 4))
def gamma_approx(
    key: Array, a: ArrayLike, shape: Shape, dtype: np.dtype[Any], log_space: bool
) -> Array:
    """Approximate ``Gamma(a, 1)`` samples (their logs with ``log_space``) of ``shape``."""
    compute_dtype = np.dtype("float32") if dtypes.finfo(dtype).bits < 32 else dtype
    alpha = lax.convert_element_type(a, compute_dtype)
    if get_aval(alpha).shape != shape:
        alpha = jnp.broadcast_to(alpha, shape)
    key_base, key_boost = split_keys(key)
    n = NUM_BOOSTS
    log_base = _loggamma_chisquare(key_base, alpha + n)
    k = jnp.arange(n, dtype=compute_dtype).reshape((n,) + (1,) * len(shape))
    log_u = -_exponential(key_boost, (n, *shape), compute_dtype)
    log_sample = log_base + jnp.sum(log_u / (alpha[None, ...] + k), axis=0)
    out = log_sample if log_space else lax.exp(log_sample)
    return lax.convert_element_type(out, dtype)
