"""The Faddeeva function and the scaled complementary error function for
jax_core.scipy.special: ``wofz`` and ``erfcx``.

``wofz`` is JAX's: Weideman's N = 32 rational approximation in the upper half plane, reflected
below by ``w(-z) = 2 exp(-z**2) - w(z)``, with the derivative ``-2 z w(z) + 2i / sqrt(pi)``.
``erfcx`` of complex ``z`` is ``w(iz)``, as JAX's. For real ``x`` JAX evaluates piecewise
polynomial fits; jax_core evaluates ``w(ix)`` by the same rational approximation (agreeing with
JAX to a few ulps in float32, about 1e-13 relative in float64), with JAX's derivative
``2 x erfcx(x) - 2 / sqrt(pi)``.
"""

from __future__ import annotations

import math

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax import elementwise
from jax_core._src.numpy.util import check_arraylike, ensure_array, promote_shapes
from jax_core._src.scipy import special_tables as tables
from jax_core._src.scipy.special import lax_const as _c
from jax_core._src.scipy.special import promote_args_inexact
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)




def promote_args_complex(name: str, *args: ArrayLike) -> list[Array]:
    """JAX's ``promote_args_complex``: array-like check, promotion to the complex type of the
    common dtype (weak type kept), NumPy rank promotion."""
    check_arraylike(name, *args)
    pairs = [(get_aval(a).dtype, get_aval(a).weak_type if isinstance(a, Array) else dtypes.is_weakly_typed(a)) for a in args]
    to_dtype, weak = dtypes.lattice_result_type(*pairs)
    complex_dtype = dtypes.to_complex_dtype(to_dtype)
    converted: list[ArrayLike] = [elementwise.to_dtype(a, complex_dtype, weak) for a in args]
    return [ensure_array(a) for a in promote_shapes(name, *converted)]


def _wofz_upper(z: Array) -> Array:
    re = lax.real(z)
    big_l = lax.complex(_c(re, tables.WOFZ_L), _c(re, 0.0))
    iz = lax.complex(lax.neg(lax.imag(z)), re)
    denom = big_l - iz
    zz = (big_l + iz) / denom
    p = jnp.polyval(jnp.asarray(tables.WOFZ_C, dtype=zz.dtype), zz)
    inv_sqrt_pi = lax.complex(_c(re, 1.0 / np.sqrt(np.pi)), _c(re, 0.0))
    return 2 * p / (denom * denom) + inv_sqrt_pi / denom


@custom_jvp
def _wofz(z: Array) -> Array:
    upper = lax.ge(lax.imag(z), _c(lax.real(z), 0.0))
    w_upper = _wofz_upper(lax.select(upper, z, lax.neg(z)))
    reflected = 2 * lax.exp(lax.neg(z * z)) - w_upper
    return lax.select(upper, w_upper, reflected)


def _wofz_derivative(g: Array, ans: Array, z: Array) -> Array:
    z = jnp.asarray(z)
    re = lax.real(z)
    return g * (lax.neg(2 * z * ans) + lax.complex(_c(re, 0.0), _c(re, _TWO_OVER_SQRT_PI)))


_wofz.defjvps(_wofz_derivative)


def wofz(z: ArrayLike) -> Array:
    """The Faddeeva function ``w(z) = exp(-z**2) erfc(-iz)`` (complex result)."""
    (za,) = promote_args_complex("wofz", z)
    return _wofz(za)


def _erfcx_real_impl(x: Array) -> Array:
    iz = lax.complex(lax.full_like(x, 0.0), x)
    out = lax.real(_wofz(iz))
    # exp(x**2) overflows below about -sqrt(log(max)): erfcx is inf there (and at -inf).
    return jnp.where(x == -np.inf, np.inf, jnp.where(x == np.inf, 0.0, out)).astype(x.dtype)


@custom_jvp
def _erfcx_real(x: Array) -> Array:
    return _erfcx_real_impl(x)


@_erfcx_real.defjvp
def _erfcx_real_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    x = jnp.asarray(primals[0])
    ans = _erfcx_real(x)
    return ans, tangents[0] * (2 * x * ans - _c(x, _TWO_OVER_SQRT_PI))


def erfcx(x: ArrayLike) -> Array:
    """The scaled complementary error function ``exp(x**2) erfc(x)`` (``w(ix)``; complex inputs
    too; half-precision inputs computed in float32)."""
    (xa,) = promote_args_inexact("erfcx", x)
    if dtypes.issubdtype(xa.dtype, np.complexfloating):
        return _wofz(lax.complex(lax.neg(lax.imag(xa)), lax.real(xa)))
    if dtypes.finfo(xa.dtype).bits < 32:
        return _erfcx_real(xa.astype(np.float32)).astype(xa.dtype)
    return _erfcx_real(xa)
