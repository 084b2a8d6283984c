"""lax special functions (``_src/lax/special.py``): values against scipy and recorded JAX values,
jit and vmap, the jvp and batching rules, and JAX's errors.

``tests/data/lax_special_jax.npz`` is written by ``tools/record_lax_special.py`` (real JAX);
it pins JAX's values at the domain edges and the functions scipy lacks (``igamma_grad_a``,
``random_gamma_grad``).
"""

from __future__ import annotations

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

Fn = Callable[..., Any]
Arr = np.ndarray[Any, Any]

COVERED: frozenset[str] = frozenset(
    {"igamma", "igammac", "igamma_grad_a", "regularized_incomplete_beta", "polygamma", "zeta", "bessel_i0e", "bessel_i1e"}
)

with np.load(Path(__file__).resolve().parent.parent / "data" / "lax_special_jax.npz") as _npz:
    DATA: dict[str, np.ndarray[Any, Any]] = {k: _npz[k] for k in _npz.files}
_RECORDED = sorted({k.split("/")[0] for k in DATA})


@pytest.fixture
def x64() -> Iterator[None]:
    with enable_x64(True):
        yield


def _case(case: str) -> tuple[dict[str, Any], list[Arr], list[Arr]]:
    call = json.loads(str(DATA[f"{case}/call"]))
    args = [DATA[f"{case}/arg{i}"] for i in range(sum(1 for k in DATA if k.startswith(f"{case}/arg")))]
    outs = [DATA[f"{case}/out{i}"] for i in range(call["nout"])]
    return call, args, outs


_LAX_CASES = [c for c in _RECORDED if json.loads(str(DATA[f"{c}/call"]))["module"] in ("lax", "grad0", "grad1")
              and not c.startswith(("rbg", "reduce_precision"))]


@pytest.mark.parametrize("case", _LAX_CASES)
def test_matches_recorded_jax(case: str) -> None:
    call, args, (want,) = _case(case)
    fn: Fn = getattr(lax, call["fn"])
    with enable_x64(True):
        if call["module"] == "lax":
            got = np.asarray(fn(*args))
        else:
            argnum = int(call["module"][-1])
            got = np.asarray(jax.vmap(jax.grad(fn, argnum))(*args))
    assert got.dtype == want.dtype
    f32 = want.dtype == np.float32
    # The chlo-lowered ops (polygamma, zeta, bessel_i1e) match JAX to rounding; the lax programs
    # run the same iterations as JAX, up to the rounding of fused operations.
    rtol = 2e-5 if f32 else 1e-12
    if call["fn"] in ("igamma_grad_a", "random_gamma_grad") or call["module"] != "lax":
        rtol = 1e-4 if f32 else 1e-10
    # float32 atol: 1 - P(a, x) near 0 loses digits to cancellation (lgamma rounds differently).
    np.testing.assert_allclose(got, want, rtol=rtol, atol=2e-6 if f32 else 1e-300, equal_nan=True)


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
