"""jvp, transpose and batching rules of the elementwise primitives and convert_element_type.

Gradients are checked numerically (``check_grads``, float64) in forward and reverse mode to
second order; binary ops also with NumPy-style broadcast operands (so the transposes must
``unbroadcast``). Non-differentiable ops must give float0 (or zero) tangents. ``vmap`` is
checked against a Python loop over the batch, with operands batched at different axes,
unbatched, and of lower rank.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import jax_core as jax
from jax_core import lax
from jax_core._src import dtypes
from jax_core._src.config import enable_x64
from jax_core._src.interpreters.ad_util import Zero
from jax_core._src.lax import elementwise as ew
from jax_core._src.lax.elementwise import trigamma
from jax_core.test_util import check_grads

Fn = Callable[..., Any]
Arr = np.ndarray[Any, Any]


@pytest.fixture(autouse=True)
def _x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def _u(lo: float, hi: float, *shape: int, seed: int = 0) -> Arr:
    return np.random.default_rng(seed + 7 * len(shape) + sum(shape)).uniform(lo, hi, size=shape)


def _pm(lo: float, hi: float, *shape: int, seed: int = 0) -> Arr:
    """Values with magnitude in [lo, hi] and random signs (away from 0)."""
    sign = np.where(_u(0, 1, *shape, seed=seed + 1) < 0.5, -1.0, 1.0)
    return sign * _u(lo, hi, *shape, seed=seed)


Domain = Callable[..., Arr]
ANY: Domain = lambda *s, seed=0: _u(-2, 2, *s, seed=seed)
POS: Domain = lambda *s, seed=0: _u(0.5, 2, *s, seed=seed)
UNIT: Domain = lambda *s, seed=0: _u(-0.8, 0.8, *s, seed=seed)
NONZERO: Domain = lambda *s, seed=0: _pm(0.3, 2, *s, seed=seed)

# (primitive name, function, operand domain)
UNARY: list[tuple[str, Fn, Domain]] = [
    ("neg", lax.neg, ANY),
    ("abs", lax.abs, NONZERO),
    ("exp", lax.exp, ANY),
    ("exp2", lax.exp2, ANY),
    ("log", lax.log, POS),
    ("log1p", lax.log1p, POS),
    ("expm1", lax.expm1, ANY),
    ("tanh", lax.tanh, ANY),
    ("logistic", lax.logistic, ANY),
    ("sin", lax.sin, ANY),
    ("cos", lax.cos, ANY),
    ("tan", lax.tan, UNIT),
    ("asin", lax.asin, UNIT),
    ("acos", lax.acos, UNIT),
    ("atan", lax.atan, ANY),
    ("sinh", lax.sinh, ANY),
    ("cosh", lax.cosh, ANY),
    ("asinh", lax.asinh, ANY),
    ("acosh", lax.acosh, lambda *s, seed=0: _u(1.5, 3, *s, seed=seed)),
    ("atanh", lax.atanh, UNIT),
    ("sqrt", lax.sqrt, POS),
    ("rsqrt", lax.rsqrt, POS),
    ("cbrt", lax.cbrt, NONZERO),
    ("erf", lax.erf, ANY),
    ("erf_inv", lax.erf_inv, UNIT),
    ("lgamma", lax.lgamma, POS),
    ("digamma", lax.digamma, POS),
    ("square", lax.square, ANY),
    ("one_minus_square", lax.one_minus_square, ANY),
    ("integer_pow", lambda x: lax.integer_pow(x, 3), ANY),
]

BINARY: list[tuple[str, Fn, Domain, Domain]] = [
    ("add", lax.add, ANY, ANY),
    ("sub", lax.sub, ANY, ANY),
    ("mul", lax.mul, ANY, ANY),
    ("div", lax.div, ANY, NONZERO),
    # x/y in (1.1, 1.9): away from rem's jumps.
    (
        "rem",
        lax.rem,
        lambda *s, seed=0: _u(2.2, 3.0, *s, seed=seed),
        lambda *s, seed=0: _u(1.6, 2.0, *s, seed=seed),
    ),
    ("pow", lax.pow, POS, ANY),
    ("max", lax.max, ANY, ANY),
    ("min", lax.min, ANY, ANY),
    ("atan2", lax.atan2, NONZERO, NONZERO),
    ("nextafter", lax.nextafter, ANY, ANY),
]

# Shapes of (x, y): equal, NumPy-broadcast both ways, lower rank, scalar.
BINARY_SHAPES = [((2, 3), (2, 3)), ((2, 3), (2, 1)), ((2, 1), (1, 3)), ((), (2, 3))]  # lax: equal ranks or rank 0


def _sum_sin(f: Fn) -> Fn:
    """A scalar, non-linear function of ``f``'s output (so second derivatives are non-trivial)."""
    return lambda *a: lax.reduce_sum(lax.sin(f(*a)), tuple(range(np.ndim(f(*a)))))


@pytest.mark.parametrize("name,f,dom", UNARY, ids=[c[0] for c in UNARY])
def test_unary_grads(name: str, f: Fn, dom: Domain) -> None:
    check_grads(f, (dom(2, 3),), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name,f,dx,dy", BINARY, ids=[c[0] for c in BINARY])
@pytest.mark.parametrize("shapes", BINARY_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_binary_grads(
    name: str, f: Fn, dx: Domain, dy: Domain, shapes: tuple[tuple[int, ...], ...]
) -> None:
    x, y = dx(*shapes[0]), dy(*shapes[1], seed=1)
    check_grads(f, (x, y), order=2, modes=("fwd", "rev"))
    # Each operand alone (the other a constant): the transposes of linear ops see one
    # UndefinedPrimal.
    check_grads(lambda x: f(x, y), (x,), order=1, modes=("rev",))
    check_grads(lambda y: f(x, y), (y,), order=1, modes=("rev",))


@pytest.mark.parametrize("y", [-3, -1, 0, 1, 2, 5])
def test_integer_pow_grads(y: int) -> None:
    check_grads(lambda x: lax.integer_pow(x, y), (NONZERO(4),), order=2, modes=("fwd", "rev"))


def test_lgamma_digamma_negative_arguments() -> None:
    x = _u(-1.8, -1.2, 5)
    check_grads(lax.lgamma, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lax.digamma, (x,), order=2, modes=("fwd", "rev"))


def test_trigamma_values() -> None:
    # polygamma(1, x) from real JAX (jax.scipy.special.polygamma, float64).
    x = np.array([0.3, 1.0, 2.5, -1.5, 10.0, 1e-3, 100.0, -0.7])
    want = [
        12.245364546107734,
        1.6449340668482264,
        0.49035775610023491,
        9.3792466449891219,
        0.10516633568168574,
        1000001.6425331958,
        0.010050166663333573,
        14.286180872638338,
    ]
    np.testing.assert_allclose(np.asarray(trigamma(x)), want, rtol=1e-12)
    np.testing.assert_allclose(
        np.asarray(jax.grad(lax.digamma)(np.float64(2.5))), want[2], rtol=1e-12
    )


def test_complex_ops_grads() -> None:
    # complex, real, imag, conj (linear) and the complex jvps of abs, sign, mul and exp,
    # through real-valued functions of real inputs.
    def f(x: Any, y: Any) -> Any:
        z = lax.complex(x, y)
        w = lax.mul(lax.exp(z), lax.conj(lax.mul(z, z)))
        return lax.add(lax.add(lax.real(w), lax.imag(w)), lax.abs(z))

    check_grads(f, (NONZERO(2, 3), NONZERO(1, 3, seed=1)), order=2, modes=("fwd", "rev"))
    g = lambda x, y: lax.imag(lax.sign(lax.complex(x, y)))
    check_grads(g, (NONZERO(4), NONZERO(4, seed=1)), order=1, modes=("fwd", "rev"))


def test_transpose_values() -> None:
    # Cotangents against explicit expectations, with broadcasting (unbroadcast sums).
    x, y = ANY(2, 3), ANY(1, 3, seed=1)  # lax broadcasts size-1 dimensions of equal ranks
    ct = ANY(2, 3, seed=2)
    for f, want in [
        (lax.add, (ct, ct.sum(0, keepdims=True))),
        (lax.sub, (ct, -ct.sum(0, keepdims=True))),
        (lax.mul, (ct * y, (ct * x).sum(0, keepdims=True))),
    ]:
        _, vjp = jax.vjp(f, x, y)
        for got, w in zip(vjp(ct), want):
            np.testing.assert_allclose(np.asarray(got), w, rtol=1e-12)
    _, vjp = jax.vjp(lambda x: lax.div(x, y), x)
    np.testing.assert_allclose(np.asarray(vjp(ct)[0]), ct / y, rtol=1e-12)
    _, vjp = jax.vjp(lambda x: lax.div(x, 2.0), np.float64(3.0))
    np.testing.assert_allclose(np.asarray(vjp(np.float64(1.0))[0]), 0.5)
    # complex(x, y) with y broadcast; real/imag transposes embed back into the complex plane.
    _, vjp = jax.vjp(lax.complex, x, y)
    ctc = ct + 2j * ct
    gx, gy = vjp(ctc)
    np.testing.assert_allclose(np.asarray(gx), ct, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gy), (-2 * ct).sum(0, keepdims=True), rtol=1e-12)
    z = x + 1j * x
    np.testing.assert_allclose(np.asarray(jax.vjp(lax.real, z)[1](ct)[0]), ct + 0j)
    np.testing.assert_allclose(np.asarray(jax.vjp(lax.imag, z)[1](ct)[0]), -1j * ct)
    np.testing.assert_allclose(np.asarray(jax.vjp(lax.conj, z)[1](ctc)[0]), np.conj(ctc))
    np.testing.assert_allclose(np.asarray(jax.vjp(lax.neg, x)[1](ct)[0]), -ct)


def _pair(a: Any, b: Any) -> float:
    """The pairing JAX's transposes are adjoint under: Re(sum(a * b)) (bilinear, real part)."""
    return float(np.real(np.sum(np.asarray(a) * np.asarray(b))))


X23, Y3, Z23 = ANY(2, 3), ANY(1, 3, seed=1), ANY(2, 3, seed=2) + 1j * ANY(2, 3, seed=3)
# (primitive, operands, which are linear): every transpose rule, with broadcast operands.
TRANSPOSES: list[tuple[Any, list[Arr], list[bool]]] = [
    (ew.neg_p, [X23], [True]),
    (ew.real_p, [Z23], [True]),
    (ew.imag_p, [Z23], [True]),
    (ew.conj_p, [Z23], [True]),
    (ew.add_p, [X23, Y3], [True, True]),
    (ew.add_p, [Y3, X23], [True, False]),
    (ew.sub_p, [X23, Y3], [True, True]),
    (ew.sub_p, [Y3, X23], [False, True]),
    (ew.mul_p, [X23, Y3], [True, False]),
    (ew.mul_p, [Y3, X23], [False, True]),
    (ew.mul_p, [Z23, Z23[:1]], [False, True]),
    (ew.div_p, [Y3, X23], [True, False]),
    (ew.complex_p, [X23, Y3], [True, True]),
    (ew.complex_p, [Y3, X23], [False, True]),
    (ew.select_n_p, [X23 > 0, X23, Z23.real], [False, True, True]),
    (
        ew.select_n_p,
        [np.array([[0, 2, 1], [1, 0, 2]], np.int32), X23, X23, X23],
        [False, False, True, True],
    ),
    (ew.select_n_p, [np.bool_(False), X23], [False, True]),
]


@pytest.mark.parametrize(
    "prim,args,linear", TRANSPOSES, ids=[f"{c[0]}-{i}" for i, c in enumerate(TRANSPOSES)]
)
def test_transpose_rules_are_adjoint(prim: Any, args: list[Arr], linear: list[bool]) -> None:
    # <ct, L(t)> == <L^T(ct), t> for the map t -> prim(t) in the linear operands, and each
    # cotangent has its operand's exact shape and dtype.
    from jax_core._src.core.avals import ShapedArray
    from jax_core._src.interpreters.ad_util import UndefinedPrimal

    def rand(a: Arr, seed: int) -> Arr:
        r = ANY(*a.shape, seed=seed)
        return (r + 1j * ANY(*a.shape, seed=seed + 1) if a.dtype.kind == "c" else r).astype(a.dtype)

    ts = [rand(a, 10 + 2 * i) if lin else a for i, (a, lin) in enumerate(zip(args, linear))]
    # The map is affine in the linear operands when the others are constants: drop its offset.
    offset = prim.bind(*(np.zeros_like(t) if lin else t for t, lin in zip(ts, linear)))
    out = np.asarray(prim.bind(*ts)) - np.asarray(offset)
    ct = rand(out, 5)
    undefined = [
        UndefinedPrimal(ShapedArray(a.shape, a.dtype)) if lin else a for a, lin in zip(args, linear)
    ]
    cts = prim.rule("transpose")(ct, *undefined)
    assert len(cts) == len(args)
    for c, a, lin in zip(cts, args, linear):
        if not lin:
            assert c is None
            continue
        assert np.asarray(c).shape == a.shape and np.asarray(c).dtype == a.dtype
    lhs = _pair(ct, out)
    rhs = sum(_pair(c, t) for c, t, lin in zip(cts, ts, linear) if lin)
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


def test_div_transpose_in_divisor_raises() -> None:
    from jax_core._src.core.avals import ShapedArray
    from jax_core._src.interpreters.ad_util import UndefinedPrimal

    y = UndefinedPrimal(ShapedArray((3,), np.dtype(np.float64)))
    with pytest.raises(RuntimeError, match="nonlinear div can't be transposed"):
        ew.div_p.rule("transpose")(np.ones(3), np.ones(3), y)


def test_convert_element_type_transpose_is_adjoint() -> None:
    from jax_core._src.core.avals import ShapedArray
    from jax_core._src.interpreters.ad_util import UndefinedPrimal
    from jax_core._src.lax.elementwise.conversions import convert_element_type_p

    rule = convert_element_type_p.rule("transpose")
    for src, dst in [
        (np.float32, np.float64),
        (np.float64, np.complex128),
        (np.complex128, np.float64),
    ]:
        x = (X23 + (1j * Y3 if np.dtype(src).kind == "c" else 0)).astype(src)
        ct = (ANY(2, 3, seed=4) + (2j * X23 if np.dtype(dst).kind == "c" else 0)).astype(dst)
        out = convert_element_type_p.bind(x, new_dtype=np.dtype(dst), weak_type=False)
        (c,) = rule(
            ct,
            UndefinedPrimal(ShapedArray(x.shape, np.dtype(src))),
            new_dtype=np.dtype(dst),
            weak_type=False,
        )
        assert np.asarray(c).dtype == src and np.asarray(c).shape == x.shape
        np.testing.assert_allclose(_pair(ct, out), _pair(c, x), rtol=1e-6)
    (c,) = rule(
        np.ones(3),
        UndefinedPrimal(ShapedArray((3,), np.dtype(np.int32))),
        new_dtype=np.dtype(np.float64),
        weak_type=False,
    )
    assert isinstance(c, Zero) and c.aval.dtype == dtypes.float0


def test_max_min_split_ties() -> None:
    x = np.array([1.0, 2.0, 3.0])
    y = np.array([1.0, 3.0, 2.0])
    for f, wx, wy in [(lax.max, [0.5, 0, 1], [0.5, 1, 0]), (lax.min, [0.5, 1, 0], [0.5, 0, 1])]:
        total = lambda a, b, f=f: lax.reduce_sum(f(a, b), (0,))
        _, tx = jax.jvp(f, (x, y), (np.ones(3), np.zeros(3)))
        _, ty = jax.jvp(f, (x, y), (np.zeros(3), np.ones(3)))
        np.testing.assert_array_equal(np.asarray(tx), wx)
        np.testing.assert_array_equal(np.asarray(ty), wy)
        gx, gy = jax.grad(total, argnums=(0, 1))(x, y)
        np.testing.assert_array_equal(np.asarray(gx), wx)
        np.testing.assert_array_equal(np.asarray(gy), wy)


def test_pow_at_zero() -> None:
    # JAX: d/dy 0**y is 0 (log is taken of 1 where x == 0); d/dx x**2 at 0 is 0.
    gx, gy = jax.grad(lax.pow, argnums=(0, 1))(np.float64(0.0), np.float64(2.0))
    assert float(gx) == 0.0 and float(gy) == 0.0
    gx, gy = jax.grad(lax.pow, argnums=(0, 1))(np.float64(2.0), np.float64(3.0))
    np.testing.assert_allclose([float(gx), float(gy)], [12.0, 8 * np.log(2.0)])


def test_abs_sqrt_values() -> None:
    x = np.array([-2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(jax.jvp(lax.abs, (x,), (np.ones(2),))[1]), [-1.0, 1.0])
    z = np.array([3.0 + 4.0j])
    _, t = jax.jvp(lax.abs, (z,), (np.array([1.0 + 0j]),))
    np.testing.assert_allclose(np.asarray(t), [0.6])


# -- select_n ---------------------------------------------------------------------------------
def test_select_n_grads() -> None:
    pred = np.array([[True, False, True], [False, False, True]])
    idx = np.array([[0, 1, 2], [2, 1, 0]], np.int32)
    a, b, c = ANY(2, 3), ANY(2, 3, seed=1), ANY(2, 3, seed=2)
    check_grads(lambda a, b: lax.select_n(pred, a, b), (a, b), order=2, modes=("fwd", "rev"))
    check_grads(
        lambda a, b, c: lax.select_n(idx, a, b, c), (a, b, c), order=2, modes=("fwd", "rev")
    )
    check_grads(
        lambda a, b: lax.select_n(np.bool_(True), a, b), (a, b), order=2, modes=("fwd", "rev")
    )
    check_grads(lambda a: lax.select_n(pred, a), (a,), order=1, modes=("fwd", "rev"))
    # The cotangent goes to the chosen case only (one case alone linear, the other constant).
    ct = ANY(2, 3, seed=3)
    _, vjp = jax.vjp(lambda b: lax.select_n(idx, a, b, c), b)
    np.testing.assert_array_equal(np.asarray(vjp(ct)[0]), np.where(idx == 1, ct, 0.0))
    _, vjp = jax.vjp(lambda a, b: lax.select_n(pred, a, b), a, b)
    ga, gb = vjp(ct)
    np.testing.assert_array_equal(np.asarray(ga), np.where(pred, 0.0, ct))
    np.testing.assert_array_equal(np.asarray(gb), np.where(pred, ct, 0.0))


# -- convert_element_type ---------------------------------------------------------------------
def test_convert_element_type_grads() -> None:
    x = ANY(2, 3)
    f32 = lambda x: lax.convert_element_type(lax.mul(x, x), np.float32)
    check_grads(
        lambda x: lax.convert_element_type(f32(x), np.float64),
        (x,),
        order=2,
        modes=("fwd", "rev"),
        atol=1e-2,
        rtol=1e-2,
    )
    g = jax.grad(lambda x: lax.reduce_sum(f32(x), (0, 1)))(x)
    assert np.asarray(g).dtype == np.float64
    np.testing.assert_allclose(np.asarray(g), 2 * x, rtol=1e-6)
    # float -> complex -> real part: the transpose converts back (keeping the real part).
    to_c = lambda x: lax.real(
        lax.mul(lax.convert_element_type(x, np.complex128), np.complex128(1 + 2j))
    )
    check_grads(to_c, (x,), order=2, modes=("fwd", "rev"))
    # float -> int has a zero tangent and a zero gradient.
    _, t = jax.jvp(lambda x: lax.convert_element_type(x, np.int32), (x,), (np.ones_like(x),))
    assert np.asarray(t).dtype == dtypes.float0 and np.asarray(t).shape == x.shape
    g = jax.grad(
        lambda x: lax.reduce_sum(
            lax.mul(x, lax.convert_element_type(lax.convert_element_type(x, np.int32), np.float64)),
            (0, 1),
        )
    )(x)
    np.testing.assert_allclose(np.asarray(g), np.trunc(x))


# -- non-differentiable ops -------------------------------------------------------------------
I = np.array([[3, -5, 7], [0, 12, -1]], np.int32)
J = np.array([[1, 2, 3], [2, 1, 0]], np.int32)
F = np.array([[-1.5, 0.25, 2.5], [3.0, -0.5, 1.75]])
G = np.array([[1.5, 0.25, -2.5], [3.0, 0.5, 1.0]])

INT_CASES: list[tuple[str, Fn, list[Arr]]] = [
    ("not", lax.bitwise_not, [I]),
    ("population_count", lax.population_count, [I]),
    ("clz", lax.clz, [I]),
    ("and", lax.bitwise_and, [I, J]),
    ("or", lax.bitwise_or, [I, J]),
    ("xor", lax.bitwise_xor, [I, J]),
    ("shift_left", lax.shift_left, [I, J]),
    ("shift_right_arithmetic", lax.shift_right_arithmetic, [I, J]),
    ("shift_right_logical", lax.shift_right_logical, [I, J]),
    ("int_add", lax.add, [I, J]),
    ("int_mul", lax.mul, [I, J]),
    ("int_div", lax.div, [I, J + 4]),
    ("int_rem", lax.rem, [I, J + 4]),
    ("int_max", lax.max, [I, J]),
    ("int_neg", lax.neg, [I]),
    ("int_abs", lax.abs, [I]),
    ("int_sign", lax.sign, [I]),
    ("int_square", lax.square, [I]),
    ("int_integer_pow", lambda x: lax.integer_pow(x, 3), [I]),
    *[(n, getattr(lax, n), [F, G]) for n in ("eq", "ne", "lt", "le", "gt", "ge")],
    ("is_finite", lax.is_finite, [F]),
    ("int_select_n", lambda p, a: lax.select_n(p, a, lax.neg(a)), [F > 0, I]),
]


@pytest.mark.parametrize("f,args", [c[1:] for c in INT_CASES], ids=[c[0] for c in INT_CASES])
def test_integer_and_bool_results_have_float0_tangents(f: Fn, args: list[Arr]) -> None:
    tangents = [
        np.zeros(a.shape, dtypes.float0) if a.dtype.kind in "biu" else np.ones_like(a) for a in args
    ]
    out, t = jax.jvp(f, tuple(args), tuple(tangents))
    t = np.asarray(t)
    assert t.dtype == dtypes.float0 and t.shape == np.shape(out)


ZERO_CASES: list[tuple[str, Fn]] = [
    ("floor", lax.floor),
    ("ceil", lax.ceil),
    ("round", lax.round),
    ("round_even", lambda x: lax.round(x, 1)),
    ("sign", lax.sign),
]


@pytest.mark.parametrize("f", [c[1] for c in ZERO_CASES], ids=[c[0] for c in ZERO_CASES])
def test_piecewise_constant_ops_have_zero_tangents(f: Fn) -> None:
    _, t = jax.jvp(f, (F,), (np.ones_like(F),))
    np.testing.assert_array_equal(np.asarray(t), np.zeros_like(F))
    np.testing.assert_array_equal(
        np.asarray(jax.grad(lambda x: lax.reduce_sum(f(x), (0, 1)))(F)), np.zeros_like(F)
    )


def test_jvp_rules_return_symbolic_zeros() -> None:
    # The rules themselves: integer outputs get a float0 Zero, floats a Zero of their dtype.
    _, t = ew.eq_p.rule("jvp")([F, G], [np.ones_like(F), Zero.from_primal_value(G)])
    assert isinstance(t, Zero) and t.aval.dtype == dtypes.float0
    _, t = ew.floor_p.rule("jvp")([F], [np.ones_like(F)])
    assert isinstance(t, Zero) and t.aval.dtype == np.float64


# -- vmap -------------------------------------------------------------------------------------
def _loop(f: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> Arr:
    """``vmap(f, in_axes)(*args)`` as a Python loop over the batch."""
    size = next(np.shape(a)[ax] for a, ax in zip(args, in_axes) if ax is not None)
    outs = [
        f(*(a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)))
        for i in range(size)
    ]
    return np.stack([np.asarray(o) for o in outs])


def check_vmap(f: Fn, args: Sequence[Any], in_axes: Sequence[int | None]) -> None:
    out = jax.vmap(f, in_axes=tuple(in_axes))(*args)
    np.testing.assert_allclose(np.asarray(out), _loop(f, args, in_axes), rtol=1e-12, atol=0)


@pytest.mark.parametrize("name,f,dom", UNARY, ids=[c[0] for c in UNARY])
def test_unary_vmap(name: str, f: Fn, dom: Domain) -> None:
    check_vmap(f, [dom(4, 2, 3)], [0])
    check_vmap(f, [dom(2, 4, 3)], [1])
    # The jvp rule's operations batch too.
    g = lambda x: jax.grad(lambda x: lax.reduce_sum(f(x), (0,)))(x)
    check_vmap(g, [dom(2, 3)], [1])


# (x shape, y shape, in_axes): same axis, different axes, unbatched operands, lower-rank
# operands batched or not, and NumPy broadcasting inside each example.
BINARY_VMAP = [
    ((4, 2, 3), (4, 2, 3), (0, 0)),
    ((4, 2, 3), (2, 3, 4), (0, 2)),
    ((2, 4, 3), (2, 3), (1, None)),
    ((2, 3), (1, 4, 3), (None, 1)),
    ((4, 2, 3), (1, 3), (0, None)),
    ((2, 3, 4), (4, 1, 3), (2, 0)),
    ((4, 2, 1), (1, 3, 4), (0, 2)),
    ((4,), (2, 3), (0, None)),
]


@pytest.mark.parametrize("name,f,dx,dy", BINARY, ids=[c[0] for c in BINARY])
def test_binary_vmap(name: str, f: Fn, dx: Domain, dy: Domain) -> None:
    for sx, sy, axes in BINARY_VMAP:
        check_vmap(f, [dx(*sx), dy(*sy, seed=1)], axes)
    # vmap of the gradient (the jvp and transpose rules' ops, including unbroadcast).
    g = jax.grad(lambda x, y: lax.reduce_sum(f(x, y), (0, 1)), argnums=(0, 1))
    check_vmap(
        lambda x, y: lax.add(g(x, y)[0], g(x, y)[1]),
        [dx(4, 2, 3), dy(1, 4, 3, seed=1)],
        (0, 1),
    )


@pytest.mark.parametrize("f,args", [c[1:] for c in INT_CASES], ids=[c[0] for c in INT_CASES])
def test_integer_and_bool_vmap(f: Fn, args: list[Arr]) -> None:
    # All operands batched (at axis 1), then the first alone.
    batched = [np.stack([a, a[::-1]], 1) for a in args]
    check_vmap(f, batched, [1] * len(args))
    if len(args) > 1:
        check_vmap(f, [batched[0], *args[1:]], [1] + [None] * (len(args) - 1))


@pytest.mark.parametrize("f", [c[1] for c in ZERO_CASES], ids=[c[0] for c in ZERO_CASES])
def test_piecewise_constant_vmap(f: Fn) -> None:
    check_vmap(f, [np.stack([F, -F, 2 * F], 2)], [2])


def test_complex_vmap() -> None:
    x, y = NONZERO(4, 3), NONZERO(3, seed=1)
    f = lambda x, y: lax.real(lax.mul(lax.conj(lax.complex(x, y)), lax.sign(lax.complex(y, x))))
    check_vmap(f, [x, y], (0, None))
    check_vmap(f, [x, np.stack([y] * 4, 1)], (0, 1))
    check_vmap(lambda x: lax.imag(lax.complex(x, x)), [x], (1,))


_W = np.array([True, False, True, True])
_WF = np.arange(12).reshape(4, 3) % 3 == 0
SELECT_VMAP: list[tuple[Arr, int | None, Arr, int | None, Arr, int | None]] = [
    (_W, 0, ANY(3, 4), 1, ANY(3, 4, seed=1), 1),  # a scalar `which` per example
    (_W, 0, ANY(4, 3), 0, ANY(3, seed=1), None),
    (np.array(True), None, ANY(3, 4), 1, ANY(4, 3, seed=1), 0),  # unbatched scalar `which`
    (_WF, 0, ANY(3, 4), 1, ANY(4, 3, seed=1), 0),
    (_WF[0], None, ANY(4, 3), 0, ANY(3, 4, seed=1), 1),  # unbatched full-shape `which`
    (_WF.T, 1, ANY(3), None, ANY(3, seed=1), None),  # only `which` batched
]


@pytest.mark.parametrize("w,wax,a,aax,b,bax", SELECT_VMAP)
def test_select_n_vmap(
    w: Arr, wax: int | None, a: Arr, aax: int | None, b: Arr, bax: int | None
) -> None:
    check_vmap(lambda w, a, b: lax.select_n(w, a, b), [w, a, b], (wax, aax, bax))


def test_select_n_int_which_vmap() -> None:
    idx = np.array([[0, 1, 2], [2, 1, 0], [1, 1, 1], [0, 0, 2]], np.int32)
    a, b, c = ANY(4, 3), ANY(3, 4, seed=1), ANY(3, seed=2)
    check_vmap(lambda w, a, b, c: lax.select_n(w, a, b, c), [idx, a, b, c], (0, 0, 1, None))
    check_vmap(
        lambda w, a, b, c: lax.select_n(w, a, b, c),
        [np.array([0, 2, 1, 1], np.int32), a, b, c],
        (0, 0, 1, None),
    )


def test_convert_element_type_vmap() -> None:
    x = ANY(4, 3) * 5
    check_vmap(lambda x: lax.convert_element_type(x, np.int32), [x], (1,))
    check_vmap(lambda x: lax.convert_element_type(x, np.float32), [x], (0,))
    check_vmap(lambda x: lax.convert_element_type(x, np.complex128), [x], (0,))


COVERED: frozenset[str] = frozenset(
    [c[0] for c in UNARY]
    + [c[0] for c in BINARY]
    + [c[0] for c in INT_CASES if not c[0].startswith("int_")]
    + [c[0] for c in ZERO_CASES if c[0] != "round_even"]
    + ["complex", "real", "imag", "conj", "select_n", "convert_element_type"]
)
