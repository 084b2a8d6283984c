"""lax special functions (``_src/lax/special.py``): values against scipy, against values recorded
from JAX and against live JAX, jit and vmap, the jvp and batching rules, and JAX's errors.

``tests/data/lax_special_jax.npz`` is written by ``tools/record_lax_special.py`` (real JAX on one
machine); it pins JAX's values at the domain edges and the functions scipy lacks
(``igamma_grad_a``, ``random_gamma_grad``). Every recorded value passes through ``exp``, ``log``,
``lgamma``, ``digamma``, a series or a continued fraction, which XLA compiles for the host CPU
(SSE4.2, AVX2 and AVX-512 round differently; so do JAX's and jax_core's lgamma), so none is
compared exactly. Special values the functions return by a select (0, 1, inf, NaN at the domain
edges) must match exactly; every other value within ``EPS_UNITS * eps * M``, where ``M`` bounds
how much rounding error a correct evaluation can carry (``magnitude``):

* igamma, igammac: ``exp(t)`` times a series or continued fraction, ``t = a log x - x - lgamma(a)``.
  Rounding ``t``'s terms costs ``eps * S`` with ``S = |a log x| + |x| + |lgamma(a)|`` (``t`` itself
  is much smaller: cancellation), which ``exp`` turns into a relative error of the value computed;
  that is the result, or its complement where the result is ``1 -`` it (x > max(1, a) for igamma,
  x < max(1, a) for igammac). ``M = (1 + S) |computed| + |result|``.
* igamma_grad_a (and jax.grad of igamma in a): the same ``exp(t)`` times a series (continued
  fraction) and its a-derivative. Their derivative terms go through three-term recurrences whose
  rounding adds up to about 25 eps relative (measured: SSE4.2, a = 1.5, x = 2), counted as
  ``RECURRENCE = 16``; and ``log x - digamma`` cancels, costing ``eps (|log x| + |digamma|)``
  times about ``P`` (``Q`` on the continued-fraction side): ``M = (RECURRENCE + 1 + S) |result|
  + P (|log x| + |digamma|)``. random_gamma_grad is that divided by the gamma density, computed
  without ``exp(t)``: ``M = RECURRENCE |result| + P (|log x| + |digamma|) / density``. jax.grad of
  igammac in x is minus the density: ``M = (1 + S) |result|``.
* betainc: as igamma, with ``S = |a log x| + |b log1p(-x)| + |lgamma a| + |lgamma b| + |lgamma(a+b)|``
  and the complement where ``x >= (a + 1) / (a + b + 2)``.
* zeta(s, q), polygamma(m, x) = +-m! zeta(m + 1, x): sums of ``(q + k)^-s = exp(-s log(q + k))``,
  each with relative error ``eps (1 + |s log|q + k||)``; ``M = |result| (1 + |s| max_k |log|q + k||)``
  over the first terms (k < 16). digamma (m = 0) is a Lanczos sum around ``log(x + 7.5)``:
  ``M = |result| + 1 + log(|x| + 8)``.
* bessel_i0e, bessel_i1e: Cephes' Chebyshev series, a few ulps relative (``M = |result|``); their
  derivatives ``i1e - sign(x) i0e`` and ``i0e - i1e / x - sign(x) i1e`` cancel: ``M`` is the sum
  of those terms' magnitudes.

``EPS_UNITS = 8``: across AVX-512, AVX2 and SSE4.2 (``XLA_FLAGS=--xla_cpu_max_isa=...``), jax_core
and live JAX stay within 2.64 of these units of the recording (bessel_i1e, float32, SSE4.2); a
wrong formula is off by far more (``test_recorded_tolerances_stay_tight``).

The live tests evaluate each recorded call under real JAX on this machine (``tests/oracle``) and
require bit equality.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.special as ss

import jax_core as jax
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads
from tests.lax._helpers import (
    LGAMMA_FLOAT32,
    assert_within,
    live_params,
    live_special,
    prefetch_special,
    special_call,
    special_outputs,
)
from tests.oracle.client import Outcome, assert_same, here

Fn = Callable[..., Any]
Arr = np.ndarray[Any, Any]

COVERED: frozenset[str] = frozenset(
    {"igamma", "igammac", "igamma_grad_a", "regularized_incomplete_beta", "polygamma", "zeta", "bessel_i0e", "bessel_i1e"}
)

with np.load(Path(__file__).resolve().parent.parent / "data" / "lax_special_jax.npz") as _npz:
    DATA: dict[str, np.ndarray[Any, Any]] = {k: _npz[k] for k in _npz.files}
_RECORDED = sorted({k.split("/")[0] for k in DATA})
EPS_UNITS = 8


@pytest.fixture
def x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def _recorded_call(case: str) -> dict[str, Any]:
    call: dict[str, Any] = json.loads(str(DATA[f"{case}/call"]))
    return call


_LAX_CASES = [c for c in _RECORDED if _recorded_call(c)["module"] in ("lax", "grad0", "grad1")
              and not c.startswith(("rbg", "reduce_precision"))]


@functools.cache
def _ours(case: str) -> Outcome:
    return here(special_call(DATA, case))


# -- the error model (module docstring): float64 magnitudes from the recorded inputs --------------
def _gamma_terms(a: Arr, x: Arr) -> Arr:
    """``S = |a log x| + |x| + |lgamma(a)|``: what ``a log x - x - lgamma(a)`` is rounded from."""
    return np.abs(a * np.log(x)) + np.abs(x) + np.abs(ss.gammaln(a))


def _as_computed(want: Arr, complement: Arr) -> Arr:
    return np.where(complement, np.abs(1 - want), np.abs(want))


def _igamma(a: Arr, x: Arr, want: Arr) -> Arr:
    return (1 + _gamma_terms(a, x)) * _as_computed(want, (x >= 1) & (x > a)) + np.abs(want)


def _igammac(a: Arr, x: Arr, want: Arr) -> Arr:
    return (1 + _gamma_terms(a, x)) * _as_computed(want, (x < 1) | (x < a)) + np.abs(want)


def _cancelled(a: Arr, x: Arr) -> Arr:
    """``c (|log x| + |digamma|)``: the rounding of ``log x - digamma`` (``a + 1`` and ``c = P`` on
    the series side, ``a`` and ``c = Q`` on the continued fraction's), which the derivative in a
    multiplies by about ``c``."""
    cf = (x > 1) & (x > a)
    c = np.where(cf, ss.gammaincc(a, x), ss.gammainc(a, x))
    return c * (np.abs(np.log(x)) + np.abs(ss.digamma(np.where(cf, a, a + 1))))


RECURRENCE = 16  # eps relative for the a-derivatives' recurrences (module docstring)


def _igamma_grad_a(a: Arr, x: Arr, want: Arr) -> Arr:
    return (RECURRENCE + 1 + _gamma_terms(a, x)) * np.abs(want) + _cancelled(a, x)


def _random_gamma_grad(a: Arr, x: Arr, want: Arr) -> Arr:
    density = np.exp((a - 1) * np.log(x) - x - ss.gammaln(a))  # igamma_grad_a / this: no exp(t)
    return RECURRENCE * np.abs(want) + _cancelled(a, x) / density


def _betainc(a: Arr, b: Arr, x: Arr, want: Arr) -> Arr:
    s = np.abs(a * np.log(x)) + np.abs(b * np.log1p(-x)) + np.abs(ss.gammaln(a)) + np.abs(ss.gammaln(b)) + np.abs(ss.gammaln(a + b))
    return (1 + s) * _as_computed(want, x >= (a + 1) / (a + b + 2)) + np.abs(want)


def _zeta(s: Arr, q: Arr, want: Arr) -> Arr:
    log_terms = np.abs(np.log(np.abs(q[..., None] + np.arange(16)))).max(-1)
    return np.abs(want) * (1 + np.abs(s) * log_terms)


def _polygamma(m: Arr, x: Arr, want: Arr) -> Arr:
    return np.where(m == 0, np.abs(want) + 1 + np.log(np.abs(x) + 8), _zeta(m + 1, x, want))


def _relative(x: Arr, want: Arr) -> Arr:
    return np.abs(want)


def _d_bessel_i0e(x: Arr, want: Arr) -> Arr:
    return ss.i0e(x) + np.abs(ss.i1e(x))


def _d_bessel_i1e(x: Arr, want: Arr) -> Arr:
    return ss.i0e(x) + np.abs(ss.i1e(x)) + np.abs(np.divide(ss.i1e(x), x, out=np.full_like(x, 0.5), where=x != 0))


def _density(a: Arr, x: Arr, want: Arr) -> Arr:
    return (1 + _gamma_terms(a, x)) * np.abs(want)


MODELS: dict[tuple[str, str], Callable[..., Arr]] = {
    ("lax", "igamma"): _igamma,
    ("lax", "igammac"): _igammac,
    ("lax", "igamma_grad_a"): _igamma_grad_a,
    ("grad0", "igamma"): _igamma_grad_a,
    ("lax", "random_gamma_grad"): _random_gamma_grad,
    ("grad1", "igammac"): _density,
    ("lax", "betainc"): _betainc,
    ("lax", "zeta"): _zeta,
    ("lax", "polygamma"): _polygamma,
    ("lax", "bessel_i0e"): _relative,
    ("lax", "bessel_i1e"): _relative,
    ("grad0", "bessel_i0e"): _d_bessel_i0e,
    ("grad0", "bessel_i1e"): _d_bessel_i1e,
}


def magnitude(case: str, want: Arr) -> Arr:
    """``M`` of the module docstring for the recorded ``case`` (inf where the value is exact)."""
    call = _recorded_call(case)
    args = [a.astype(np.float64) for a in special_call(DATA, case).inputs.values()]
    with np.errstate(all="ignore"):
        return MODELS[call["module"], call["fn"]](*args, want.astype(np.float64))


def tolerance(case: str, want: Arr) -> Arr:
    return EPS_UNITS * float(np.finfo(want.dtype).eps) * magnitude(case, want)


@pytest.mark.parametrize("case", _LAX_CASES)
def test_matches_recorded_jax(case: str) -> None:
    ours = _ours(case)
    assert ours.leaves is not None, ours.describe()
    (want,) = special_outputs(DATA, case)
    assert_within(ours.leaves[0], want, tolerance(case, want), case)


def test_recorded_tolerances_stay_tight() -> None:
    """The model allows rounding, not a wrong formula: a median allowance of at most 1e-4
    (float32) or 1e-12 (float64) relative to the value, 2e-2 or 1e-10 at worst (igammac(1e-3, 0.5)
    = 5.6e-4, which is 1 - P(1e-3, 0.5) = 1 - 0.99944: float32 cannot do better), and a value
    off by 1e-3 relative fails."""
    for case in _LAX_CASES:
        (want,) = special_outputs(DATA, case)
        allowed = tolerance(case, want)
        ok = np.isfinite(allowed) & (want != 0)
        relative = allowed[ok] / np.abs(want[ok])
        median, worst = (1e-4, 2e-2) if want.dtype == np.float32 else (1e-12, 1e-10)
        assert np.median(relative) <= median and relative.max() <= worst, case
    (want,) = special_outputs(DATA, "igammac_float32")
    with pytest.raises(AssertionError, match="outside the tolerance"):
        assert_within(want * np.float32(1 + 1e-3), want, tolerance("igammac_float32", want))


KNOWN_LIVE_DIFFERENCES: dict[str, tuple[bool, str]] = {
    f"{fn}_float32": (True, LGAMMA_FLOAT32) for fn in ("igamma", "igammac", "igamma_grad_a", "betainc")
}


prefetch_special(DATA, _LAX_CASES)


@pytest.fixture(scope="module")
def live() -> dict[str, Outcome]:
    return live_special(DATA, _LAX_CASES)


@pytest.mark.parametrize("case", live_params(_LAX_CASES, KNOWN_LIVE_DIFFERENCES))
def test_bit_identical_to_live_jax(case: str, live: dict[str, Outcome]) -> None:
    assert_same(_ours(case), live[case], special_call(DATA, case).expr)


# -- against scipy, both dtypes ----------------------------------------------------------------------
def _grid(lo: float, hi: float, n: int, seed: int) -> Arr:
    return np.random.default_rng(seed).uniform(lo, hi, n)


CASES: list[tuple[str, Fn, Fn, list[Arr]]] = [
    ("igamma", lax.igamma, ss.gammainc, [_grid(0.01, 40, 200, 0), _grid(0, 60, 200, 1)]),
    ("igammac", lax.igammac, ss.gammaincc, [_grid(0.01, 40, 200, 2), _grid(0, 60, 200, 3)]),
    ("betainc", lax.betainc, ss.betainc, [_grid(0.05, 30, 200, 4), _grid(0.05, 30, 200, 5), _grid(0, 1, 200, 6)]),
    ("polygamma", lax.polygamma, ss.polygamma, [np.arange(200) % 5 * 1.0, _grid(0.05, 30, 200, 7)]),
    ("zeta", lax.zeta, ss.zeta, [_grid(1.1, 12, 200, 8), _grid(0.05, 30, 200, 9)]),
    ("bessel_i0e", lax.bessel_i0e, ss.i0e, [_grid(-100, 100, 200, 10)]),
    ("bessel_i1e", lax.bessel_i1e, ss.i1e, [_grid(-100, 100, 200, 11)]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,fn,ref,args", CASES, ids=[c[0] for c in CASES])
def test_against_scipy(name: str, fn: Fn, ref: Fn, args: list[Arr], dtype: type[np.floating[Any]]) -> None:
    typed = [a.astype(dtype) for a in args]
    want = ref(*(a.astype(np.float64) for a in typed))
    with enable_x64(dtype == np.float64):
        got = fn(*typed)
        jitted = jax.jit(fn)(*typed)
    assert got.dtype == dtype and got.shape == want.shape
    rtol, atol = (1e-3, 2e-6) if dtype == np.float32 else (1e-9, 1e-13)
    if name == "polygamma":
        rtol = 1e-3 if dtype == np.float32 else 1e-7
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(got))


def test_random_gamma_grad_is_implicit_derivative(x64: None) -> None:
    # d sample / d a = -(dP/da) / (dP/dx) at the sample: check against scipy by finite differences.
    a = np.array([0.3, 1.0, 2.5, 7.0, 30.0])
    x = np.array([0.2, 1.5, 2.0, 9.0, 25.0])
    h = 1e-6
    dp_da = (ss.gammainc(a + h, x) - ss.gammainc(a - h, x)) / (2 * h)
    density = np.exp(-x + (a - 1) * np.log(x) - ss.gammaln(a))
    np.testing.assert_allclose(np.asarray(lax.random_gamma_grad(a, x)), -dp_da / density, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(lax.igamma_grad_a(a, x)), dp_da, rtol=1e-6)


def test_16_bit_floats_compute_in_float32() -> None:
    a = np.array([0.5, 2.0, 9.0], np.float16)
    x = np.array([1.0, 1.5, 10.0], np.float16)
    out = lax.igamma(a, x)
    assert out.dtype == np.float16
    np.testing.assert_allclose(np.asarray(out, np.float32), ss.gammainc(a, x), rtol=2e-3)
    assert lax.bessel_i0e(np.float16(1.0)).dtype == np.float16


def test_broadcasting_scalar_operand() -> None:
    x = np.linspace(0.1, 5, 6).astype(np.float32).reshape(2, 3)
    np.testing.assert_allclose(np.asarray(lax.igamma(np.float32(2.0), x)), ss.gammainc(2.0, x), rtol=1e-5)
    np.testing.assert_allclose(
        np.asarray(lax.betainc(np.float32(2.0), np.float32(3.0), x / 6)), ss.betainc(2.0, 3.0, x / 6), rtol=1e-5
    )


# -- rules -----------------------------------------------------------------------------------------
POS_A = np.array([[0.7, 1.5, 3.0], [6.0, 0.4, 2.2]])
POS_X = np.array([[0.5, 2.0, 2.5], [8.0, 0.9, 1.1]])


@pytest.mark.parametrize("f", [lax.igamma, lax.igammac], ids=["igamma", "igammac"])
def test_igamma_grads(f: Fn, x64: None) -> None:
    check_grads(lambda x: f(POS_A, x), (POS_X,), order=2, modes=("fwd", "rev"))
    check_grads(lambda a: f(a, POS_X), (POS_A,), order=1, modes=("fwd", "rev"), rtol=1e-4)
    check_grads(f, (POS_A, POS_X), order=1, modes=("fwd", "rev"), rtol=1e-4)


def test_igamma_grad_a_grads(x64: None) -> None:
    check_grads(lambda x: lax.igamma_grad_a(POS_A, x), (POS_X,), order=1, modes=("fwd", "rev"), rtol=1e-4)
    with pytest.raises(NotImplementedError, match="igamma_grad_a with respect to a"):
        jax.grad(lambda a: lax.igamma_grad_a(a, 2.0))(1.5)


def test_betainc_grads(x64: None) -> None:
    a, b = np.array([0.8, 2.0, 5.0]), np.array([1.5, 3.0, 0.9])
    x = np.array([0.2, 0.5, 0.7])
    check_grads(lambda x: lax.betainc(a, b, x), (x,), order=2, modes=("fwd", "rev"))
    with pytest.raises(ValueError, match="Betainc gradient with respect to a and b not supported."):
        jax.grad(lambda a: lax.betainc(a, 2.0, 0.5))(1.0)


def test_polygamma_zeta_grads(x64: None) -> None:
    m = np.array([0.0, 1.0, 2.0])
    x = np.array([0.7, 2.0, 4.5])
    check_grads(lambda x: lax.polygamma(m, x), (x,), order=2, modes=("fwd", "rev"))
    with pytest.raises(ValueError, match="polygamma gradient with respect to m is not supported"):
        jax.grad(lambda m: lax.polygamma(m, 2.0))(1.0)
    s = np.array([2.0, 3.5, 6.0])
    check_grads(lambda q: lax.zeta(s, q), (x,), order=2, modes=("fwd", "rev"))
    with pytest.raises(NotImplementedError, match="zeta with respect to its first argument"):
        jax.grad(lambda s: lax.zeta(s, 2.0))(3.0)


def test_bessel_grads(x64: None) -> None:
    x = np.array([-3.0, -0.4, 0.3, 2.0, 9.5])
    check_grads(lax.bessel_i0e, (x,), order=2, modes=("fwd", "rev"))
    check_grads(lax.bessel_i1e, (x,), order=2, modes=("fwd", "rev"))
    # bessel_i1e' at (nearly) 0 is 1/2
    assert float(jax.grad(lax.bessel_i1e)(0.0)) == 0.5


def _loop(f: Fn, args: list[Arr], in_axes: list[int | None]) -> Arr:
    size = next(a.shape[d] for a, d in zip(args, in_axes) if d is not None)
    rows = [np.asarray(f(*(a if d is None else np.take(a, i, axis=d) for a, d in zip(args, in_axes)))) for i in range(size)]
    return np.stack(rows)


VMAP: list[tuple[str, Fn, list[Arr]]] = [
    ("igamma", lax.igamma, [POS_A, POS_X]),
    ("igammac", lax.igammac, [POS_A, POS_X]),
    ("igamma_grad_a", lax.igamma_grad_a, [POS_A, POS_X]),
    ("betainc", lax.betainc, [POS_A, POS_A + 1, POS_X / 10]),
    ("polygamma", lax.polygamma, [np.floor(POS_A), POS_X]),
    ("zeta", lax.zeta, [POS_A + 1.5, POS_X]),
    ("bessel_i0e", lax.bessel_i0e, [POS_X - 1]),
    ("bessel_i1e", lax.bessel_i1e, [POS_X - 1]),
]


@pytest.mark.parametrize("name,f,args", VMAP, ids=[v[0] for v in VMAP])
def test_vmap_matches_loop(name: str, f: Fn, args: list[Arr]) -> None:
    args32 = [a.astype(np.float32) for a in args]
    n = len(args32)
    for axes in ([0] * n, [1] * n, [0] + [None] * (n - 1), [None] * (n - 1) + [1]):
        if all(d is None for d in axes):
            continue
        bd = next(d for d in axes if d is not None)
        fixed = [a if d is not None else np.take(a, 0, axis=bd) for a, d in zip(args32, axes)]
        got = np.asarray(jax.vmap(f, in_axes=tuple(axes))(*fixed))
        np.testing.assert_allclose(got, _loop(f, fixed, axes), rtol=1e-6)


# -- errors (JAX's classes and messages) ----------------------------------------------------------
ERRORS: list[tuple[str, Callable[[], object], type[Exception], str]] = [
    ("igamma_int", lambda: lax.igamma(1, 2),
     TypeError, "igamma does not accept dtype int32 at position 0. Accepted dtypes at position 0 are subtypes of floating."),
    ("igamma_mixed", lambda: lax.igamma(np.float32(1), np.float16(2)),
     TypeError, "lax.igamma requires arguments to have the same dtypes, got float32, float16. (Tip: jnp.igamma is a similar function that does automatic type promotion on inputs)."),
    ("bessel_i0e_int", lambda: lax.bessel_i0e(1),
     TypeError, "bessel_i0e does not accept dtype int32. Accepted dtypes are subtypes of floating."),
    ("polygamma_int", lambda: lax.polygamma(1, 2.0),
     TypeError, "polygamma does not accept dtype int32 at position 0. Accepted dtypes at position 0 are subtypes of floating."),
    ("betainc_int", lambda: lax.betainc(1.0, 2.0, 3),
     TypeError, "regularized_incomplete_beta does not accept dtype int32 at position 2. Accepted dtypes at position 2 are subtypes of floating."),
]


@pytest.mark.parametrize("name,call,exc,msg", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(name: str, call: Callable[[], object], exc: type[Exception], msg: str) -> None:
    with pytest.raises(exc) as info:
        call()
    assert str(info.value) == msg


def test_jaxpr_names_the_primitives() -> None:
    text = str(jax.make_jaxpr(lambda a, b, x: lax.betainc(a, b, lax.igamma(a, x)))(1.0, 2.0, 0.5))
    assert "regularized_incomplete_beta" in text and "igamma" in text
