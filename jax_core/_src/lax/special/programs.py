"""The lax-op programs that the special-function primitives lower to (``special.py``).

Ported from JAX's ``jax/_src/lax/special.py`` (itself from XLA's ``client/lib/math.cc``): the
regularized incomplete gamma functions by Cephes' power series and continued fraction (as
``while_loop``s that stop when every element has converged), their derivatives in ``a``, the
regularized incomplete beta function by the Lentz-Thompson-Barnett continued fraction, and
``i0e`` by Cephes' Chebyshev expansions. Every program takes operands already broadcast to one
shape and computes in float32 or float64 (``up_and_broadcast`` upcasts float16/bfloat16).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jax_core._src import dtypes
from jax_core._src.core.trace import get_aval
from jax_core._src.lax import elementwise as lax
from jax_core._src.lax.control_flow.loops import while_loop
from jax_core._src.lax.reductions.reduce import reduce_or
from jax_core._src.lax.shape.dimensions import broadcast_in_dim
from jax_core._src.lax.standard_rules import broadcast_shapes
from jax_core._src.typing.basearray import Array

Impl = Callable[..., Array]
"""A special-function program on equally shaped float32/float64 operands."""


def full(x: Any, value: float) -> Array:
    """An array of ``x``'s shape and dtype filled with ``value``."""
    aval = get_aval(x)
    return broadcast_in_dim(np.asarray(value, aval.dtype), aval.shape, ())


def _c(x: Array, value: float) -> np.ndarray[Any, Any]:
    return np.asarray(value, x.dtype)


def _isnan(x: Array) -> Array:
    return lax.ne(x, x)


def _any(pred: Array) -> Array:
    return reduce_or(pred, tuple(range(pred.ndim)))


def _or(*preds: Array) -> Array:
    out = preds[0]
    for p in preds[1:]:
        out = lax.bitwise_or(out, p)
    return out


def up_and_broadcast(impl: Impl) -> Callable[..., Array]:
    """Broadcasts the operands to one shape and runs ``impl`` in float32 for 16-bit floats."""

    def run(*args: Array) -> Array:
        shape = broadcast_shapes("special", *(get_aval(a).shape for a in args))
        xs = [broadcast_in_dim(a, shape, tuple(range(len(shape) - a.ndim, len(shape)))) for a in args]
        dtype = xs[0].dtype
        if dtype in (np.dtype(np.float16), np.dtype(dtypes.bfloat16)):
            return lax.convert_element_type(impl(*(lax.convert_element_type(x, np.float32) for x in xs)), dtype)
        return impl(*xs)

    return run


# -- incomplete gamma ----------------------------------------------------------------------------
class IgammaMode(enum.Enum):
    """What the series / continued fraction evaluate: the value, its a-derivative, or the
    derivative of a Gamma(a) sample with respect to a (the reparameterization gradient)."""

    VALUE = 1
    DERIVATIVE = 2
    SAMPLE_DERIVATIVE = 3


def _igamma_series(ax: Array, x: Array, a: Array, enabled: Array, mode: IgammaMode) -> Array:
    eps = float(dtypes.finfo(a.dtype).eps)

    def cond(vals: tuple[Array, ...]) -> Array:
        return _any(vals[0])

    def body(vals: tuple[Array, ...]) -> tuple[Array, ...]:
        enabled, r, c, ans, x, dc_da, dans_da = vals
        r = r + 1.0
        dc_da = dc_da * (x / r) - (c * x) / (r * r)
        dans_da = dans_da + dc_da
        c = c * (x / r)
        ans = ans + c
        if mode is IgammaMode.VALUE:
            more = lax.bitwise_and(enabled, c / ans > eps)
        else:
            more = lax.bitwise_and(enabled, lax.abs(dc_da / dans_da) > eps)
        new = (r, c, ans, x, dc_da, dans_da)
        return (more, *(lax.select(enabled, n, o) for n, o in zip(new, vals[1:])))

    init: tuple[Array, ...] = (enabled, a, full(a, 1), full(a, 1), x, full(a, 0), full(a, 0))
    _, _, _, ans, _, _, dans_da = while_loop(cond, body, init)
    if mode is IgammaMode.VALUE:
        return (ans * ax) / a
    dlogax_da = lax.log(x) - lax.digamma(a + 1.0)
    if mode is IgammaMode.DERIVATIVE:
        return ax * (ans * dlogax_da + dans_da) / a
    return -(dans_da + ans * dlogax_da) * x / a


def _igammac_continued_fraction(ax: Array, x: Array, a: Array, enabled: Array, mode: IgammaMode) -> Array:
    eps = float(dtypes.finfo(a.dtype).eps)

    def cond(vals: tuple[Array, ...]) -> Array:
        return lax.bitwise_and(vals[5] < 2000.0, _any(vals[0]))

    def body(vals: tuple[Array, ...]) -> tuple[Array, ...]:
        (enabled, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da, dans_da) = vals
        c = c + 1.0
        y = y + 1.0
        z = z + 2.0
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        qk_nonzero = lax.ne(qk, _c(qk, 0))
        r = pk / qk
        t = lax.select(qk_nonzero, lax.abs((ans - r) / r), full(r, 1))
        ans = lax.select(qk_nonzero, r, ans)
        dpk_da = dpkm1_da * z - pkm1 - dpkm2_da * yc + pkm2 * c
        dqk_da = dqkm1_da * z - qkm1 - dqkm2_da * yc + qkm2 * c
        dans_da_new = lax.select(qk_nonzero, (dpk_da - ans * dqk_da) / qk, dans_da)
        grad_change = lax.select(qk_nonzero, lax.abs(dans_da_new - dans_da), full(dans_da, 1))
        rescale = lax.abs(pk) > 1.0 / eps
        scaled = [lax.select(rescale, v * eps, v) for v in (pkm1, pk, qkm1, qk, dpkm1_da, dqkm1_da, dpk_da, dqk_da)]
        pkm2, pkm1, qkm2, qkm1, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da = scaled
        if mode is IgammaMode.VALUE:
            more = lax.bitwise_and(enabled, t > eps)
        else:
            more = lax.bitwise_and(enabled, grad_change > eps)
        new = (ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, dpkm2_da, dqkm2_da, dpkm1_da, dqkm1_da, dans_da_new)
        # the iteration count c (index 4, a scalar) advances for every element
        out = [n if i == 4 else lax.select(enabled, n, o) for i, (n, o) in enumerate(zip(new, vals[1:]))]
        return (more, *out)

    y = 1.0 - a
    z = x + y + 1.0
    pkm1 = x + 1.0
    qkm1 = z * x
    ans = pkm1 / qkm1
    dqkm1_da = -x
    dans_da = (full(x, 0) - ans * dqkm1_da) / qkm1
    init: tuple[Array, ...] = (
        enabled, ans, full(x, 1), y, z, lax.convert_element_type(_c(x, 0), x.dtype), pkm1, qkm1,
        full(x, 1), x, full(x, 0), full(x, 0), full(x, 0), dqkm1_da, dans_da,
    )
    vals = while_loop(cond, body, init)
    ans, dans_da = vals[1], vals[14]
    if mode is IgammaMode.VALUE:
        return ans * ax
    dlogax_da = lax.log(x) - lax.digamma(a)
    if mode is IgammaMode.DERIVATIVE:
        return ax * (ans * dlogax_da + dans_da)
    return -(dans_da + ans * dlogax_da) * x


def _log_ax(a: Array, x: Array) -> tuple[Array, Array]:
    """``(exp(a log x - x - lgamma(a)), whether that underflows)``."""
    ax = a * lax.log(x) - x - lax.lgamma(a)
    underflow = ax < -float(np.log(dtypes.finfo(a.dtype).max))
    return lax.exp(ax), underflow


def _igamma_domain(a: Array, x: Array) -> tuple[Array, Array, Array, Array, Array]:
    is_nan = lax.bitwise_or(_isnan(a), _isnan(x))
    x_inf = lax.eq(x, _c(x, np.inf))
    a_inf = lax.eq(a, _c(a, np.inf))
    a_zero = lax.eq(a, _c(a, 0))
    x_zero = lax.eq(x, _c(x, 0))
    domain_error = _or(x < 0.0, a < 0.0, lax.bitwise_and(a_zero, x_zero), lax.bitwise_and(a_inf, x_inf), is_nan)
    return domain_error, x_inf, a_inf, a_zero, x_zero


def igamma_impl(a: Array, x: Array) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``."""
    domain_error, x_inf, a_inf, _, x_zero = _igamma_domain(a, x)
    use_igammac = lax.bitwise_and(x >= 1.0, x > a)
    ax, underflow = _log_ax(a, x)
    enabled = lax.bitwise_not(_or(x_zero, domain_error, underflow, x_inf, a_inf))
    cf = _igammac_continued_fraction(ax, x, a, lax.bitwise_and(enabled, use_igammac), IgammaMode.VALUE)
    series = _igamma_series(ax, x, a, lax.bitwise_and(enabled, lax.bitwise_not(use_igammac)), IgammaMode.VALUE)
    out = lax.select(use_igammac, 1.0 - cf, series)
    out = lax.select(a_inf, full(a, 0), out)
    out = lax.select(x_zero, full(a, 0), out)
    out = lax.select(x_inf, full(a, 1), out)
    return lax.select(domain_error, full(a, np.nan), out)


def igammac_impl(a: Array, x: Array) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""
    domain_error, x_inf, a_inf, a_zero, _ = _igamma_domain(a, x)
    use_igamma = lax.bitwise_or(x < 1.0, x < a)
    ax, underflow = _log_ax(a, x)
    enabled = lax.bitwise_not(_or(domain_error, underflow, x_inf, a_zero, a_inf))
    series = _igamma_series(ax, x, a, lax.bitwise_and(enabled, use_igamma), IgammaMode.VALUE)
    cf = _igammac_continued_fraction(ax, x, a, lax.bitwise_and(enabled, lax.bitwise_not(use_igamma)), IgammaMode.VALUE)
    out = lax.select(use_igamma, 1.0 - series, cf)
    out = lax.select(a_inf, full(a, 1), out)
    out = lax.select(lax.bitwise_or(x_inf, a_zero), full(out, 0), out)
    return lax.select(domain_error, full(a, np.nan), out)


def _igamma_derivative(a: Array, x: Array, mode: IgammaMode) -> Array:
    is_nan = lax.bitwise_or(_isnan(a), _isnan(x))
    x_zero = lax.eq(x, _c(x, 0))
    domain_error = lax.bitwise_or(x < 0.0, a <= 0.0)
    use_igammac = lax.bitwise_and(x > 1.0, x > a)
    ax, underflow = _log_ax(a, x)
    enabled = lax.bitwise_not(_or(x_zero, domain_error, underflow, is_nan))
    cf = _igammac_continued_fraction(ax, x, a, lax.bitwise_and(enabled, use_igammac), mode)
    series = _igamma_series(ax, x, a, lax.bitwise_and(enabled, lax.bitwise_not(use_igammac)), mode)
    out = lax.select(use_igammac, -cf, series)
    out = lax.select(x_zero, full(out, 0), out)
    return lax.select(lax.bitwise_or(domain_error, is_nan), full(a, np.nan), out)


def igamma_grad_a_impl(a: Array, x: Array) -> Array:
    """``d/da P(a, x)``."""
    return _igamma_derivative(a, x, IgammaMode.DERIVATIVE)


def random_gamma_grad_impl(a: Array, x: Array) -> Array:
    """``d sample / d a`` for a Gamma(a, 1) sample ``x`` (implicit reparameterization)."""
    return _igamma_derivative(a, x, IgammaMode.SAMPLE_DERIVATIVE)


# -- incomplete beta -----------------------------------------------------------------------------
def _lentz_continued_fraction(
    num_iterations: int,
    small: float,
    numerator: Callable[[Array], Array],
    denominator: Callable[[Array], Array],
    like: Array,
) -> Array:
    """Evaluates a continued fraction by the modified Lentz-Thompson-Barnett algorithm."""

    def cond(state: tuple[Array, ...]) -> Array:
        return lax.bitwise_and(state[0] < num_iterations, _any(state[1]))

    def body(state: tuple[Array, ...]) -> tuple[Array, ...]:
        it, unconverged, c_old, d_old, h_old = state
        num, den = numerator(it), denominator(it)
        c = den + num / c_old
        c = lax.select(lax.abs(c) < small, full(c, small), c)
        d = den + num * d_old
        d = lax.select(lax.abs(d) < small, full(d, small), d)
        d = 1.0 / d
        delta = c * d
        h = h_old * delta
        still = lax.bitwise_and(unconverged, lax.abs(delta - 1.0) >= small)
        return (
            it + np.int32(1), still, lax.select(unconverged, c, c_old), lax.select(unconverged, d, d_old),
            lax.select(unconverged, h, h_old),
        )

    den0 = denominator(lax.convert_element_type(np.int32(0), np.int32))
    h = lax.select(lax.abs(den0) < small, full(den0, small), den0)
    unconverged = broadcast_in_dim(np.asarray(True), like.shape, ())
    init: tuple[Array, ...] = (lax.convert_element_type(np.int32(1), np.int32), unconverged, h, full(h, 0), h)
    return while_loop(cond, body, init)[4]


def regularized_incomplete_beta_impl(a: Array, b: Array, x: Array) -> Array:
    """``I_x(a, b)`` by the continued fraction of DLMF 8.17.22 (with the symmetry 8.17.4)."""
    dtype = a.dtype
    shape = a.shape
    a_zero = lax.bitwise_or(lax.eq(a, _c(a, 0)), lax.eq(b, _c(b, np.inf)))
    b_zero = lax.bitwise_or(lax.eq(b, _c(b, 0)), lax.eq(a, _c(a, np.inf)))
    x_zero = lax.eq(x, _c(x, 0))
    x_one = lax.eq(x, _c(x, 1))
    is_nan = _or(_isnan(a), _isnan(b), _isnan(x))
    result_zero = lax.bitwise_or(lax.bitwise_and(b_zero, lax.bitwise_not(x_one)), lax.bitwise_and(a_zero, x_zero))
    result_one = lax.bitwise_or(lax.bitwise_and(a_zero, lax.bitwise_not(x_zero)), lax.bitwise_and(b_zero, x_one))
    result_nan = _or(a < 0.0, b < 0.0, x < 0.0, x > 1.0, lax.bitwise_and(a_zero, b_zero), is_nan)

    fast = x < (a + 1.0) / (a + b + 2.0)
    a, b = lax.select(fast, a, b), lax.select(fast, b, a)
    x = lax.select(fast, x, 1.0 - x)

    def numerator(it: Array) -> Array:
        i = broadcast_in_dim(it, shape, ())
        is_even = lax.eq(lax.rem(i, np.int32(2)), np.int32(0))
        is_one = lax.eq(i, np.int32(1))
        m_int = lax.div(i - np.int32(1), np.int32(2))
        m_zero = lax.eq(m_int, np.int32(0))
        m = lax.convert_element_type(m_int, dtype)
        zero_num = -(a + b) * x / (a + 1.0)
        even = lax.select(m_zero, zero_num, -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0)))
        odd = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m))
        return lax.select(is_one, full(x, 1), lax.select(is_even, even, odd))

    def denominator(it: Array) -> Array:
        i = broadcast_in_dim(it, shape, ())
        return lax.select(lax.eq(i, np.int32(0)), full(x, 0), full(x, 1))

    eps = float(dtypes.finfo(dtype).eps) / 2
    cf = _lentz_continued_fraction(200 if dtype == np.float32 else 600, eps, numerator, denominator, a)
    very_small = float(dtypes.finfo(dtype).tiny) * 2
    lbeta_small_a = lax.lgamma(b) - lax.lgamma(a + b)
    lbeta = lax.lgamma(a) + lbeta_small_a
    factor = lax.select(
        a < very_small,
        lax.exp(lax.log1p(-x) * b - lbeta_small_a),
        lax.exp(lax.log(x) * a + lax.log1p(-x) * b - lbeta) / a,
    )
    result = cf * factor
    result = lax.select(fast, result, 1.0 - result)
    result = lax.select(result_zero, full(a, 0), result)
    result = lax.select(result_one, full(a, 1), result)
    return lax.select(result_nan, full(a, np.nan), result)


# -- i0e -----------------------------------------------------------------------------------------
# Cephes' Chebyshev coefficients of exp(-x) I0(x) on [0, 8] (A) and of sqrt(x) exp(-x) I0(x) on
# (8, inf) (B); float32 uses the trailing terms.
_I0E_A = (
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
    -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
    1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
    -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
    1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
    -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
    1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1,
)
_I0E_B = (
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
    2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
    8.04490411014108831608e-1,
)


def _chebyshev(x: Array, coefficients: Sequence[float]) -> Array:
    b0 = full(x, 0)
    b1 = b0
    b2 = b0
    for c in coefficients:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def bessel_i0e_impl(x: Array) -> Array:
    """``exp(-|x|) I0(x)`` by Cephes' Chebyshev expansions (float32 keeps fewer terms)."""
    f32 = x.dtype == np.float32
    coef_a = _I0E_A[-18:] if f32 else _I0E_A
    coef_b = _I0E_B[-7:] if f32 else _I0E_B
    x = lax.abs(x)
    small = _chebyshev(0.5 * x - 2.0, coef_a)
    large = _chebyshev(32.0 / x - 2.0, coef_b) / lax.sqrt(x)
    return lax.select(x <= 8.0, small, large)
