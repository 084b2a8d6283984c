"""``logaddexp`` and ``logaddexp2``: ``log(exp(a) + exp(b))`` and its base-2 form without overflow,
each a ``custom_jvp`` with JAX's derivative (smooth where the operands are equal; +inf replaced
in the derivative), as JAX 0.12's ``lax_other`` functions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jax_core._src.lax import elementwise as lax
from jax_core._src.numpy.math import bcast_pair, const_of, inexact_pair, is_kind, isnan, where_sel
from jax_core._src.numpy.util import jitted
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array


@jitted()
def logaddexp(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``log(exp(x1) + exp(x2))`` without overflow (smooth derivative where ``x1 == x2``)."""
    a, b = inexact_pair("logaddexp", x1, x2)
    a, b = bcast_pair(a, b)
    out: Array = _logaddexp(a, b)
    return out


def _logaddexp_impl(a: Array, b: Array) -> Array:
    amax = lax.max(a, b)
    delta = lax.sub(a, b)
    if is_kind(a, np.complexfloating):
        safe = lax.add(amax, lax.log1p(lax.exp(lax.neg(lax.abs(delta)))))
        return lax.select(isnan(delta), lax.add(a, b), safe)
    finite = where_sel(isnan(delta), const_of(delta, 0), delta)
    return lax.select(isnan(delta), lax.add(a, b), lax.add(amax, lax.log1p(lax.exp(lax.neg(lax.abs(finite))))))


def _replace_inf(x: Array) -> Array:
    """``x`` with +inf (in the real part) replaced by 0, as JAX's logaddexp derivatives use it."""
    re_x = lax.real(x) if is_kind(x, np.complexfloating) else x
    return where_sel(lax.eq(re_x, const_of(re_x, np.inf)), const_of(x, 0), x)


def _with_jvp(impl: Any, exp: Any) -> Any:
    """``impl`` as a ``custom_jvp`` with JAX's derivative ``t_a exp(a - out) + t_b exp(b - out)``
    (``exp`` of the base; +inf replaced by 0 so infinite inputs give finite weights)."""
    from jax_core._src.transforms.custom_derivatives import custom_jvp

    f = custom_jvp(impl)

    def jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
        a, b = primals
        ta, tb = tangents
        out = f(a, b)
        t = lax.add(
            lax.mul(ta, exp(lax.sub(_replace_inf(a), _replace_inf(out)))),
            lax.mul(tb, exp(lax.sub(_replace_inf(b), _replace_inf(out)))),
        )
        return out, t

    f.defjvp(jvp)
    return f


_logaddexp: Any = _with_jvp(_logaddexp_impl, lax.exp)


@jitted()
def logaddexp2(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``log2(2**x1 + 2**x2)`` without overflow (JAX 0.12's base-2 evaluation and derivative)."""
    a, b = inexact_pair("logaddexp2", x1, x2)
    a, b = bcast_pair(a, b)
    out: Array = _logaddexp2(a, b)
    return out


def _wrap_between(x: Array, bound: float) -> Array:
    """``x`` wrapped into ``[-bound, bound)``."""
    rem = lax.rem(lax.add(x, const_of(x, bound)), const_of(x, 2 * bound))
    rem = lax.select(lax.lt(rem, const_of(x, 0)), lax.add(rem, const_of(x, 2 * bound)), rem)
    return lax.sub(rem, const_of(x, bound))


def _logaddexp2_impl(a: Array, b: Array) -> Array:
    amax = lax.max(a, b)
    inv_ln2 = np.asarray(1 / np.log(2), amax.dtype)  # strong, as JAX's lax._const: the result is strong
    if is_kind(a, np.complexfloating):  # the imaginary part wrapped into one branch of log2
        delta = lax.sub(lax.add(a, b), lax.mul(amax, const_of(amax, 2)))
        out = lax.add(amax, lax.mul(inv_ln2, lax.log1p(lax.exp2(delta))))
        return lax.complex(lax.real(out), _wrap_between(lax.imag(out), np.pi / np.log(2)))
    delta = lax.sub(a, b)  # NaN for NaNs and for infinities of one sign: then a + b
    smooth = lax.add(amax, lax.mul(inv_ln2, lax.log1p(lax.exp2(lax.neg(lax.abs(delta))))))
    return lax.select(isnan(delta), lax.add(a, b), smooth)


_logaddexp2: Any = _with_jvp(_logaddexp2_impl, lax.exp2)
