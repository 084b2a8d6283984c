"""The Gauss hypergeometric function, the Fresnel integrals and spherical harmonics for
jax_core.scipy.special: ``hyp2f1`` (Taylor series, terminating series and the digamma
transformation near ``x = 1``, after Pearson, Olver & Porter 2014 and AMS55 15.3), ``fresnel``
(the Cephes rational approximations, single precision for half and single floats) and
``sph_harm_y`` (normalized associated Legendre functions by their three-term recurrences), as JAX
computes them, with JAX's derivative rules."""

from __future__ import annotations

from typing import Any

import numpy as np

import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.core.trace import Tracer
from jax_core._src.numpy.index_tricks import ogrid
from jax_core._src.numpy.util import jitted
from jax_core._src.scipy.special import digamma, gamma, promote_args_inexact
from jax_core._src.transforms.custom_derivatives import custom_jvp
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

# -- fresnel ---------------------------------------------------------------------------------------

# Cephes ``fresnlf`` (single precision): S and C below x**2 = 2.5625, the auxiliary f and g above.
_SN32 = (1.647629463788700e-9, -1.522754752581096e-7, 8.424748808502400e-6, -3.120693124703272e-4,
         7.244727626597022e-3, -9.228055941124598e-2, 5.235987735681432e-1)  # fmt: skip
_CN32 = (1.416802502367354e-8, -1.157231412229871e-6, 5.387223446683264e-5, -1.604381798862293e-3,
         2.818489036795073e-2, -2.467398198317899e-1, 9.999999760004487e-1)  # fmt: skip
_FN32 = (-1.903009855649792e12, 1.355942388050252e11, -4.158143148511033e9, 7.343848463587323e7,
         -8.732356681548485e5, 8.560515466275470e3, -1.032877601091159e2, 2.999401847870011e0)  # fmt: skip
_GN32 = (-1.860843997624650e11, 1.278350673393208e10, -3.779387713202229e8, 6.492611570598858e6,
         -7.787789623358162e4, 8.602931494734327e2, -1.493439396592284e1, 9.999841934744914e-1)  # fmt: skip

# Cephes ``fresnl`` (double precision): numerator / denominator pairs.
_SN64 = (-2.99181919401019853726e3, 7.08840045257738576863e5, -6.29741486205862506537e7,
         2.54890880573376359104e9, -4.42979518059697779103e10, 3.18016297876567817986e11)  # fmt: skip
_SD64 = (1.00000000000000000000e0, 2.81376268889994315696e2, 4.55847810806532581675e4,
         5.17343888770096400730e6, 4.19320245898111231129e8, 2.24411795645340920940e10,
         6.07366389490084639049e11)  # fmt: skip
_CN64 = (-4.98843114573573548651e-8, 9.50428062829859605134e-6, -6.45191435683965050962e-4,
         1.88843319396703850064e-2, -2.05525900955013891793e-1, 9.99999999999999998822e-1)  # fmt: skip
_CD64 = (3.99982968972495980367e-12, 9.15439215774657478799e-10, 1.25001862479598821474e-7,
         1.22262789024179030997e-5, 8.68029542941784300606e-4, 4.12142090722199792936e-2,
         1.00000000000000000118e0)  # fmt: skip
_FN64 = (4.21543555043677546506e-1, 1.43407919780758885261e-1, 1.15220955073585758835e-2,
         3.45017939782574027900e-4, 4.63613749287867322088e-6, 3.05568983790257605827e-8,
         1.02304514164907233465e-10, 1.72010743268161828879e-13, 1.34283276233062758925e-16,
         3.76329711269987889006e-20)  # fmt: skip
_FD64 = (1.00000000000000000000e0, 7.51586398353378947175e-1, 1.16888925859191382142e-1,
         6.44051526508858611005e-3, 1.55934409164153020873e-4, 1.84627567348930545870e-6,
         1.12699224763999035261e-8, 3.60140029589371370404e-11, 5.88754533621578410010e-14,
         4.52001434074129701496e-17, 1.25443237090011264384e-20)  # fmt: skip
_GN64 = (5.04442073643383265887e-1, 1.97102833525523411709e-1, 1.87648584092575249293e-2,
         6.84079380915393090172e-4, 1.15138826111884280931e-5, 9.82852443688422223854e-8,
         4.45344415861750144738e-10, 1.08268041139020870318e-12, 1.37555460633261799868e-15,
         8.36354435630677421531e-19, 1.86958710162783235106e-22)  # fmt: skip
_GD64 = (1.00000000000000000000e0, 1.47495759925128324529e0, 3.37748989120019970451e-1,
         2.53603741420338795122e-2, 8.14679107184306179049e-4, 1.27545075667729118702e-5,
         1.04314589657571990585e-7, 4.60680728146520428211e-10, 1.10273215066240270757e-12,
         1.38796531259578871258e-15, 8.39158816283118707363e-19, 1.86958710162783236342e-22)  # fmt: skip


@jitted(inline=False)
def _sincospi_half_square(x: Array) -> tuple[Array, Array]:
    """``sin(pi x**2 / 2)`` and ``cos(pi x**2 / 2)`` without forming ``x**2`` in full: with
    ``s = x mod 2`` the angle over pi reduces to ``s (x - s/2) mod 2`` exactly."""
    x = jnp.abs(x)
    s = jnp.fmod(x, 2.0)
    r = jnp.fmod(s * (x - s / 2), 2.0)
    sin = jnp.where(r < 0.5, jnp.sin(np.pi * r), jnp.where(r > 1.5, jnp.sin(np.pi * (r - 2.0)), -jnp.sin(np.pi * (r - 1.0))))
    cos = jnp.where(r == 0.5, 0.0, jnp.where(r < 1.0, -jnp.sin(np.pi * (r - 0.5)), jnp.sin(np.pi * (r - 1.5))))
    return sin, cos


def _poly(coeffs: tuple[float, ...], x: Array, dtype: type[np.floating[Any]]) -> Array:
    return jnp.polyval(jnp.array(coeffs, dtype=dtype), x)


@custom_jvp
def _fresnel(x: ArrayLike) -> tuple[Array, Array]:
    (xa,) = promote_args_inexact("fresnel", x)
    original_dtype = xa.dtype
    if dtypes.issubdtype(xa.dtype, np.complexfloating):
        raise NotImplementedError("Support for complex-valued inputs is not implemented yet.")
    if xa.dtype in (np.dtype(np.float32), np.dtype(np.float16), np.dtype(dtypes.bfloat16)):
        single = True
        xa = xa.astype(np.float32)  # the single-precision coefficients need at least float32
    elif xa.dtype == np.float64:
        single = False
    else:
        raise NotImplementedError(f"Support for {xa.dtype} dtype is not implemented yet.")
    ft: type[np.floating[Any]] = np.float32 if single else np.float64

    ax = jnp.abs(xa)
    x2 = ax * ax
    t = x2 * x2
    if single:
        s_small = ax * x2 * _poly(_SN32, t, ft)
        c_small = ax * _poly(_CN32, t, ft)
    else:
        s_small = ax * x2 * _poly(_SN64, t, ft) / _poly(_SD64, t, ft)
        c_small = ax * _poly(_CN64, t, ft) / _poly(_CD64, t, ft)

    sinpi, cospi = _sincospi_half_square(ax)
    s_large: Array | float
    c_large: Array | float
    if single:
        s_large = c_large = 0.5
    else:
        c_large = 0.5 + 1 / (np.pi * ax) * sinpi
        s_large = 0.5 - 1 / (np.pi * ax) * cospi

    t = np.pi * x2
    u = 1.0 / (t * t)
    t = 1.0 / t
    if single:
        f = 1.0 - u * _poly(_FN32, u, ft)
        g = t * _poly(_GN32, u, ft)
    else:
        f = 1.0 - u * _poly(_FN64, u, ft) / _poly(_FD64, u, ft)
        g = t * _poly(_GN64, u, ft) / _poly(_GD64, u, ft)
    t = np.pi * ax
    c_mid = 0.5 + (f * sinpi - g * cospi) / t
    s_mid = 0.5 - (f * cospi + g * sinpi) / t

    isinf = jnp.isinf(xa)
    small = x2 < 2.5625
    large = ax > 36974.0
    s = jnp.where(isinf, 0.5, jnp.where(small, s_small, jnp.where(large, s_large, s_mid)))
    c = jnp.where(isinf, 0.5, jnp.where(small, c_small, jnp.where(large, c_large, c_mid)))
    neg = xa < 0.0
    s = jnp.where(neg, -s, s)
    c = jnp.where(neg, -c, c)
    if original_dtype != xa.dtype:
        s, c = s.astype(original_dtype), c.astype(original_dtype)
    return s, c


@_fresnel.defjvp
def _fresnel_jvp(primals: tuple[ArrayLike], tangents: tuple[Array]) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
    (x,), (x_dot,) = primals, tangents
    out = _fresnel(x)
    sinpi, cospi = _sincospi_half_square(jnp.asarray(x))  # dS/dx = sin(pi x**2 / 2), dC/dx = cos(...)
    return out, (sinpi * x_dot, cospi * x_dot)


def fresnel(x: ArrayLike) -> tuple[Array, Array]:
    """The Fresnel integrals ``(S(x), C(x))``: ``S(x) = int_0^x sin(pi t**2 / 2) dt`` and
    ``C(x) = int_0^x cos(pi t**2 / 2) dt``, for real ``x`` (accurate on ``[-10, 10]``; half
    precision is computed in float32)."""
    return _fresnel(x)


# -- hyp2f1 ----------------------------------------------------------------------------------------

_State = tuple[Any, ...]


def _terminating(a: Array, b: Array, c: Array, x: Array) -> Array:
    """The finite sum when ``a`` or ``b`` is a non-positive integer (the one of larger magnitude,
    unless ``c`` is a non-positive integer the sum would reach)."""
    eps = dtypes.finfo(x.dtype).eps * 50
    ib = jnp.round(b)
    c_blocks = jnp.logical_and(c % 1 == 0, jnp.logical_and(c <= 0, c > b))
    swap = jnp.logical_and(b < a, jnp.logical_and(jnp.abs(b - ib) < eps, jnp.logical_not(c_blocks)))
    a, b = jnp.where(swap, b, a), jnp.where(swap, a, b)
    a = jnp.abs(a)

    def body(i: Array, state: _State) -> _State:
        total, term = state
        term = term * (-(a - i + 1) / (c + i - 1) * (b + i - 1) / i * x)
        return total + term, term

    one = jnp.array(1, dtype=x.dtype)
    out: Array = lax.fori_loop(jnp.array(1, dtype=a.dtype), a + 1, body, (one, one))[0]
    return out


def _taylor(a: Array, b: Array, c: Array, x: Array) -> Array:
    rtol = dtypes.finfo(x.dtype).eps

    def body(state: _State) -> _State:
        total, k, term = state
        total = total + term
        term = term * ((a + k - 1) * (b + k - 1) / (c + k - 1) / k * x)
        return total, k + 1, term

    def cond(state: _State) -> Array:
        total, k, term = state
        out: Array = (k < 250) & (lax.abs(term) > rtol * lax.abs(total))
        return out

    init = (jnp.array(0, dtype=x.dtype), jnp.array(1, dtype=x.dtype), jnp.array(1, dtype=x.dtype))
    out: Array = lax.while_loop(cond, body, init)[0]
    return out


def _digamma_transform(a: Array, b: Array, c: Array, x: Array) -> Array:
    """``2F1`` near ``x = 1`` when ``c - a - b`` is (close to) an integer: AMS55 15.3.10-12."""
    rtol = dtypes.finfo(x.dtype).eps
    d = c - a - b
    s = 1 - x
    rd = jnp.round(d)
    e = jnp.where(rd >= 0, d, -d)
    d1 = jnp.where(rd >= 0, d, jnp.array(0, dtype=d.dtype))
    d2 = jnp.where(rd >= 0, jnp.array(0, dtype=d.dtype), d)
    ard = jnp.where(rd >= 0, rd, -rd).astype("int32")
    ax = jnp.log(s)

    y = digamma(1.0) + digamma(1.0 + e) - digamma(a + d1) - digamma(b + d1) - ax
    y = y / gamma(e + 1.0)
    p = (a + d1) * (b + d1) * s / gamma(e + 2.0)

    def cond(state: _State) -> Array:
        q, t, y = state[6], state[9], state[10]
        out: Array = jnp.logical_and(t < 250, jnp.abs(q) >= rtol * jnp.abs(y))
        return out

    def body(state: _State) -> _State:
        a, ax, b, d1, e, p, q, r, s, t, y = state
        r = digamma(1.0 + t) + digamma(1.0 + t + e) - digamma(a + t + d1) - digamma(b + t + d1) - ax
        q = p * r
        y = y + q
        p = p * (s * (a + t + d1) / (t + 1.0))
        p = p * ((b + t + d1) / (t + 1.0 + e))
        return a, ax, b, d1, e, p, q, r, s, t + 1.0, y

    init = (a, ax, b, d1, e, p, y, jnp.array(0, dtype=x.dtype), s, jnp.array(1, dtype=x.dtype), y)
    y = lax.while_loop(cond, body, init)[10]

    def finite_part(y: Array) -> Array:
        def for_body(i: Array, state: _State) -> _State:
            a, b, d2, e, p, s, t, y1 = state
            r = 1.0 - e + t
            p = p * (s * (a + t + d2) * (b + t + d2) / r)
            t = t + 1.0
            p = p / t
            return a, b, d2, e, p, s, t, y1 + p

        one = jnp.array(1, dtype=x.dtype)
        y1: Array = lax.fori_loop(1, ard, for_body, (a, b, d2, e, one, s, jnp.array(0, dtype=x.dtype), one))[-1]
        gc = gamma(c)
        y1 = y1 * (gamma(e) * gc / (gamma(a + d1) * gamma(b + d1)))
        y = y * (gc / (gamma(a + d2) * gamma(b + d2)))
        y = jnp.where((ard & 1) != 0, -y, y)
        q = s**rd
        return jnp.where(rd > 0, y * q + y1, y + y1 * q)

    return jnp.where(rd == 0, y * gamma(c) / (gamma(a) * gamma(b)), finite_part(y))


def _terminating_or_series(a: Array, b: Array, c: Array, x: Array) -> Array:
    eps = dtypes.finfo(x.dtype).eps * 50
    d = c - a - b
    ia, ib, id_ = jnp.round(a), jnp.round(b), jnp.round(d)
    neg_int_a = jnp.logical_and(a <= 0, jnp.abs(a - ia) < eps)
    neg_int_b = jnp.logical_and(b <= 0, jnp.abs(b - ib) < eps)
    terminates = jnp.logical_or(neg_int_a, neg_int_b)
    index = jnp.where(jnp.logical_and(x > 0.9, jnp.logical_not(terminates)),
                      jnp.where(jnp.abs(d - id_) >= eps, 0, 1),
                      jnp.where(terminates, 2, 0))  # fmt: skip
    return lax.select_n(index, _taylor(a, b, c, x), _digamma_transform(a, b, c, x), _terminating(a, b, c, x))


def _hyp2f1_scalar(a: ArrayLike, b: ArrayLike, c: ArrayLike, x: ArrayLike) -> Array:
    aa, ba, ca, xa = promote_args_inexact("hyp2f1", a, b, c, x)
    eps = dtypes.finfo(xa.dtype).eps * 50
    d = ca - aa - ba
    s = 1 - xa
    c_a = ca - aa
    c_b = ca - ba
    id_ = jnp.round(d)
    where, or_, and_, not_ = jnp.where, jnp.logical_or, jnp.logical_and, jnp.logical_not
    index = where(or_(xa == 0, and_(or_(aa == 0, ba == 0), ca != 0)), 0,
              where(or_(ca == 0, and_(ca < 0, ca % 1 == 0)), 1,
                where(and_(d <= -1, not_(and_(jnp.abs(d - id_) >= eps, s < 0))), 2,
                  where(and_(d <= 0, xa == 1), 1,
                    where(and_(xa < 1, ba == ca), 3,
                      where(and_(xa < 1, aa == ca), 4,
                        where(xa > 1, 1, where(xa == 1, 5, 6))))))))  # fmt: skip
    return lax.select_n(
        index,
        jnp.array(1, dtype=xa.dtype),
        jnp.array(np.inf, dtype=xa.dtype),
        s**d * _terminating_or_series(c_a, c_b, ca, xa),
        s ** (-aa),
        s ** (-ba),
        gamma(ca) * gamma(d) / (gamma(c_a) * gamma(c_b)),
        _terminating_or_series(aa, ba, ca, xa),
    )


_hyp2f1_vectorized = jitted(inline=False)(jnp.vectorize(_hyp2f1_scalar))


def _param_derivative_scalar(which: str, a: Array, b: Array, c: Array, x: Array) -> Array:
    """``d 2F1 / d{a,b,c}`` as the series of the terms weighted by differences of digammas."""
    precision = dtypes.finfo(x.dtype).eps

    def body(state: _State) -> _State:
        total, k, term = state
        if which == "a":
            weight = digamma(a + k) - digamma(a)
        elif which == "b":
            weight = digamma(b + k) - digamma(b)
        else:
            weight = digamma(c) - digamma(c + k)
        total = total + term * weight
        term = term * ((a + k) * (b + k) / (c + k) / (k + 1) * x)
        return total, k + 1, term

    def cond(state: _State) -> Array:
        total, k, term = state
        out: Array = (k < 250) & (lax.abs(term) / lax.abs(total) > precision)
        return out

    init: _State = (0, 1, a * b / c * x)
    result: Array = lax.while_loop(cond, body, init)[0]
    return result


def _da(a: Array, b: Array, c: Array, x: Array) -> Array:
    return _param_derivative_scalar("a", a, b, c, x)


def _db(a: Array, b: Array, c: Array, x: Array) -> Array:
    return _param_derivative_scalar("b", a, b, c, x)


def _dc(a: Array, b: Array, c: Array, x: Array) -> Array:
    return _param_derivative_scalar("c", a, b, c, x)


_hyp2f1_da = jitted(inline=False)(jnp.vectorize(_da))
_hyp2f1_db = jitted(inline=False)(jnp.vectorize(_db))
_hyp2f1_dc = jitted(inline=False)(jnp.vectorize(_dc))


@custom_jvp
def _hyp2f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, x: ArrayLike) -> Array:
    out: Array = _hyp2f1_vectorized(a, b, c, x)
    return out


@jitted(inline=False)
def _hyp2f1_dx(a: Array, b: Array, c: Array, x: Array) -> Array:
    return a * b / c * _hyp2f1(a + 1, b + 1, c + 1, x)


def _jvp_a(g: Array, ans: Array, a: Array, b: Array, c: Array, x: Array) -> Array:
    out: Array = _hyp2f1_da(a, b, c, x) * g
    return out


def _jvp_b(g: Array, ans: Array, a: Array, b: Array, c: Array, x: Array) -> Array:
    out: Array = _hyp2f1_db(a, b, c, x) * g
    return out


def _jvp_c(g: Array, ans: Array, a: Array, b: Array, c: Array, x: Array) -> Array:
    out: Array = _hyp2f1_dc(a, b, c, x) * g
    return out


def _jvp_x(g: Array, ans: Array, a: Array, b: Array, c: Array, x: Array) -> Array:
    return _hyp2f1_dx(a, b, c, x) * g


_hyp2f1.defjvps(_jvp_a, _jvp_b, _jvp_c, _jvp_x)


def hyp2f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, x: ArrayLike) -> Array:
    """The Gauss hypergeometric function ``2F1(a, b; c; x) = sum_k (a)_k (b)_k / (c)_k x**k / k!``
    for real arguments (``x <= 1``; ``inf`` beyond). Large values may lose accuracy in float32."""
    return _hyp2f1(a, b, c, x)


# -- associated Legendre functions and sph_harm_y --------------------------------------------------


def _recurrence_masks(l_max: int, is_normalized: bool, dtype: np.dtype[Any]) -> tuple[Array, Array]:
    """The coefficients of ``P_l^m = d0 x P_{l-1}^m - d1 P_{l-2}^m`` for the entries above the
    first off-diagonal, laid out as ``[step, m, l]`` planes so that step ``i`` updates ``l = i + m``."""
    m_mat, l_mat = jnp.meshgrid(jnp.arange(l_max + 1, dtype=dtype), jnp.arange(l_max + 1, dtype=dtype), indexing="ij")
    if is_normalized:
        c0 = l_mat * l_mat
        c1 = m_mat * m_mat
        c2 = 2.0 * l_mat
        c3 = (l_mat - 1.0) * (l_mat - 1.0)
        d0 = jnp.sqrt((4.0 * c0 - 1.0) / (c0 - c1))
        d1 = jnp.sqrt(((c2 + 1.0) * (c3 - c1)) / ((c2 - 3.0) * (c0 - c1)))
    else:
        d0 = (2.0 * l_mat - 1.0) / (l_mat - m_mat)
        d1 = (l_mat + m_mat - 1.0) / (l_mat - m_mat)
    above1 = jnp.triu_indices(l_max + 1, 1)
    above2 = jnp.triu_indices(l_max + 1, 2)
    zeros = jnp.zeros((l_max + 1, l_max + 1), dtype=dtype)
    d0_mask = zeros.at[above1].set(d0[above1])
    d1_mask = zeros.at[above2].set(d1[above2])
    i, j, k = ogrid[: l_max + 1, : l_max + 1, : l_max + 1]
    plane = (i + j - k == 0).astype(dtype)
    return jnp.einsum("jk,ijk->ijk", d0_mask, plane), jnp.einsum("jk,ijk->ijk", d1_mask, plane)


@jitted(static_argnums=(0, 2), inline=False)
def _associated_legendre(l_max: int, x: Array, is_normalized: bool) -> Array:
    """``P_l^m(x)`` for ``0 <= m, l <= l_max`` as an ``(m, l, len(x))`` array (zero for
    ``m > l``), normalized so that the spherical harmonics are orthonormal when asked."""
    p = jnp.zeros((l_max + 1, l_max + 1, x.shape[0]), dtype=x.dtype)
    a_idx = jnp.arange(1, l_max + 1, dtype=x.dtype)
    b_idx = jnp.arange(l_max, dtype=x.dtype)
    first: ArrayLike
    if is_normalized:
        first = 0.5 / jnp.sqrt(np.pi)
        f_a = jnp.cumprod(-1 * jnp.sqrt(1.0 + 0.5 / a_idx))
        f_b = jnp.sqrt(2.0 * b_idx + 3.0)
    else:
        first = 1.0
        f_a = jnp.cumprod(1.0 - 2.0 * a_idx)
        f_b = 2.0 * b_idx + 1.0
    p = p.at[(0, 0)].set(first)

    # the diagonal P_l^l, then the first off-diagonal P_{l+1}^l
    y = jnp.cumprod(jnp.broadcast_to(jnp.sqrt(1.0 - x * x), (l_max, x.shape[0])), axis=0)
    p_diag = first * jnp.einsum("i,ij->ij", f_a, y)
    rows, cols = jnp.diag_indices(l_max + 1)
    p = p.at[(rows[1:], cols[1:])].set(p_diag)
    p_off = jnp.einsum("ij,ij->ij", jnp.einsum("i,j->ij", f_b, x), p[jnp.diag_indices(l_max)])
    p = p.at[(rows[:l_max], cols[:l_max] + 1)].set(p_off)

    d0_3d, d1_3d = _recurrence_masks(l_max, is_normalized, x.dtype)

    def step(i: Array, pv: Array) -> Array:
        shifted_x = jnp.einsum("ijk,k->ijk", jnp.roll(pv, shift=1, axis=1), x)
        h = jnp.einsum("ij,ijk->ijk", d0_3d[i], shifted_x) - jnp.einsum("ij,ijk->ijk", d1_3d[i], jnp.roll(pv, shift=2, axis=1))
        return pv + h

    p = p.astype(dtypes.result_type(p, x, d0_3d))
    if l_max > 1:
        p = lax.fori_loop(2, l_max + 1, step, p)
    return p


@jitted(static_argnums=(4,), inline=False)
def _sph_harm(n: Array, m: Array, theta: Array, phi: Array, n_max: int) -> Array:
    legendre = _associated_legendre(n_max, jnp.cos(theta), True)
    value = legendre.at[abs(m), n, jnp.arange(len(n))].get(mode="clip")
    angle = abs(m) * phi
    phase = lax.complex(jnp.cos(angle), jnp.sin(angle))
    harmonics = lax.complex(value * jnp.real(phase), value * jnp.imag(phase))
    # Y_n^{-m} = (-1)**m conj(Y_n^m)
    return jnp.where(m < 0, (-1.0) ** abs(m) * jnp.conjugate(harmonics), harmonics)


def sph_harm_y(n: Array, m: Array, theta: Array, phi: Array, diff_n: int | None = None, n_max: int | None = None) -> Array:
    """Spherical harmonics ``Y_n^m(theta, phi)`` (``theta`` the colatitude, ``phi`` the longitude),
    orthonormal on the sphere, for 1-D ``n`` and ``m`` with ``|m| <= n``. ``n_max`` (JAX's extra
    argument) is the largest degree, static under transformations; degrees above it are clipped.
    ``diff_n`` (derivatives) is not supported."""
    if diff_n is not None:
        raise NotImplementedError("The 'diff_n' argument to jax.scipy.special.sph_harm_y is not supported.")
    if jnp.isscalar(theta):
        theta = jnp.array([theta])
    degree: Any = np.max(n) if n_max is None else n_max  # pyright: ignore[reportUnknownMemberType, reportArgumentType]
    if isinstance(degree, Tracer):
        degree.concretization_error(
            "The `n_max` argument of `jax.scipy.special.sph_harm_y` must be statically specified to use `sph_harm_y` "
            "within JAX transformations."
        )
    return _sph_harm(n, m, theta, phi, int(degree))
