"""lax.reduce_window (monoid and generic, variadic) and lax.cumlogsumexp: values against a NumPy
reference across ranks, strides, padding, base and window dilation and dtypes; JAX-specific
behaviour (SAME pads, tie-breaking of pooling gradients, the generic jvp) and bad input against
values and messages recorded from JAX (tools/record_windowed_reductions.py), and against live JAX.

The recorded values are compared

* exactly for reduce_window and its derivatives: the inputs ``X`` and ``P`` hold small integers,
  and sums, products, maxima, squares and quarters of them are integers or quarters far below
  ``2**24``, which float32 holds exactly, so no operation rounds and the order does not matter;
* within ``EPS_UNITS * eps * M`` for cumlogsumexp and its gradients, which go through ``exp`` and
  ``log1p`` (host math: the last bits depend on the CPU). Each of the at most ``n = 6`` logaddexp
  steps of a scan rounds quantities of size ``<= 1 + log n + max|x|``, so a value carries an error
  of at most ``n`` such roundings; a gradient is a sum of at most ``n`` weights
  ``exp(x_i - y_j) <= 1``, each off relatively by its exponent's error. Hence
  ``M = n**2 (1 + log n + max|x|)`` for both, and ``EPS_UNITS = 8``. Measured across AVX-512,
  AVX2 and SSE4.2 the largest difference is 0.001 of that (0.6 eps); a wrong formula is off by
  ``O(0.1)``.

The live tests evaluate every recorded case under real JAX on this machine (``tests/oracle``) and
require bit equality.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from tests.lax._helpers import BOOL, F32, I32, arange, assert_within, live_params
from tests.oracle.client import Call, Outcome, assert_same, evaluate, here, need, prefetch

DATA = json.loads((pathlib.Path(__file__).parent.parent / "data" / "windowed_reductions_jax.json").read_text())
Pads = Sequence[tuple[int, int]]


def np_reduce_window(
    x: np.ndarray[Any, Any],
    init: Any,
    op: Callable[[Any, Any], Any],
    dims: Sequence[int],
    strides: Sequence[int],
    pads: Pads,
    base: Sequence[int] | None = None,
    wdil: Sequence[int] | None = None,
) -> np.ndarray[Any, Any]:
    """XLA's ReduceWindow by loops: holes of base dilation and padding hold ``init``."""
    base = base or (1,) * x.ndim
    wdil = wdil or (1,) * x.ndim
    shape = [0 if d == 0 else 1 + b * (d - 1) for d, b in zip(x.shape, base)]
    dilated = np.full(shape, init, x.dtype)
    dilated[tuple(slice(None, None, b) for b in base)] = x
    # negative pads crop, positive pads add init values
    crop = tuple(slice(max(-lo, 0), d - max(-hi, 0)) for d, (lo, hi) in zip(shape, pads))
    widths = np.array([(max(lo, 0), max(hi, 0)) for lo, hi in pads], np.int64).reshape(x.ndim, 2)
    padded = np.pad(dilated[crop], widths, constant_values=init) if x.ndim else dilated
    win = [1 + r * (w - 1) for w, r in zip(dims, wdil)]
    out_shape = [max((p - w) // s + 1, 0) for p, w, s in zip(padded.shape, win, strides)]
    out = np.full(out_shape, init, x.dtype)
    for idx in itertools.product(*map(range, out_shape)):
        acc = np.asarray(init, x.dtype)
        for k in itertools.product(*map(range, dims)):
            pos = tuple(i * s + j * r for i, s, j, r in zip(idx, strides, k, wdil))
            acc = op(acc, padded[pos])
        out[idx] = acc
    return out


def _input(shape: Sequence[int], dtype: np.dtype[Any], seed: int = 0) -> np.ndarray[Any, Any]:
    if dtype == BOOL:
        return np.random.default_rng(seed).random(tuple(shape)) > 0.5
    if dtype == I32:
        return np.random.default_rng(seed).integers(-9, 10, tuple(shape)).astype(dtype)
    return np.random.default_rng(seed).standard_normal(tuple(shape)).astype(dtype)


# (id, shape, window_dimensions, strides, padding, base_dilation, window_dilation)
CONFIGS: list[tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...], Any, Any, Any]] = [
    ("r1_valid", (7,), (3,), (1,), "VALID", None, None),
    ("r1_same_stride", (7,), (3,), (2,), "SAME", None, None),
    ("r1_explicit", (6,), (2,), (3,), ((2, 1),), None, None),
    ("r1_neg_pad", (6,), (2,), (1,), ((-1, 2),), None, None),
    ("r2_same", (4, 5), (2, 3), (1, 2), "SAME", None, None),
    ("r2_same_lower", (5, 4), (3, 2), (2, 2), "SAME_LOWER", None, None),
    ("r2_base_dil", (3, 4), (2, 2), (1, 1), ((1, 0), (0, 1)), (2, 1), None),
    ("r2_win_dil", (6, 5), (2, 2), (1, 2), "VALID", None, (2, 2)),
    ("r2_both_dil", (4, 4), (3, 2), (2, 1), "SAME", (2, 3), (1, 2)),
    ("r2_window_too_big", (3, 4), (4, 2), (1, 1), "VALID", None, None),
    ("r3", (3, 4, 5), (2, 1, 3), (1, 1, 2), ((0, 1), (1, 1), (2, 0)), None, None),
    ("r4_nhwc_pool", (2, 5, 4, 3), (1, 2, 2, 1), (1, 2, 2, 1), "SAME", None, None),
    ("r0", (), (), (), (), None, None),
]

MONOIDS: list[tuple[str, Callable[..., Any], Callable[[Any, Any], Any], Callable[[np.dtype[Any]], Any], list[np.dtype[Any]]]] = [
    ("sum", lax.add, np.add, lambda dt: np.array(0, dt), [F32, I32]),
    ("max", lax.max, np.maximum, lambda dt: np.array(-np.inf if dt == F32 else (np.iinfo(dt).min if dt == I32 else False), dt), [F32, I32, BOOL]),
    ("min", lax.min, np.minimum, lambda dt: np.array(np.inf if dt == F32 else (np.iinfo(dt).max if dt == I32 else True), dt), [F32, I32, BOOL]),
]


def _pads(shape: Sequence[int], dims: Sequence[int], strides: Sequence[int], padding: Any, wdil: Any) -> Pads:
    if not isinstance(padding, str):
        return padding  # type: ignore[no-any-return]
    win = [1 + r * (w - 1) for w, r in zip(dims, wdil or (1,) * len(dims))]
    return lax.padtype_to_pads(shape, win, strides, padding)


@pytest.mark.parametrize("cfg", CONFIGS, ids=[c[0] for c in CONFIGS])
@pytest.mark.parametrize("monoid", MONOIDS, ids=[m[0] for m in MONOIDS])
def test_monoid_values_vs_numpy(cfg: Any, monoid: Any) -> None:
    _, shape, dims, strides, padding, base, wdil = cfg
    name, lax_op, np_op, identity, dts = monoid
    for dt in dts:
        x = _input(shape, dt)
        init = identity(dt)
        out = lax.reduce_window(x, init, lax_op, dims, strides, padding, base, wdil)
        pads = _pads(shape, dims, strides, padding, wdil)
        expected = np_reduce_window(x, init, np_op, dims, strides, pads, base, wdil)
        got = np.asarray(out)
        assert got.dtype == expected.dtype and got.shape == expected.shape, (name, dt)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
        jaxpr = str(jax.make_jaxpr(lambda v, init=init: lax.reduce_window(v, init, lax_op, dims, strides, padding, base, wdil))(x))
        assert f"reduce_window_{name}[" in jaxpr


@pytest.mark.parametrize("cfg", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_generic_values_vs_numpy(cfg: Any) -> None:
    _, shape, dims, strides, padding, base, wdil = cfg
    x = _input(shape, F32)
    pads = _pads(shape, dims, strides, padding, wdil)
    out = lax.reduce_window(x, np.float32(1), lax.mul, dims, strides, padding, base, wdil)
    expected = np_reduce_window(x, np.float32(1), np.multiply, dims, strides, pads, base, wdil)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-5)
    # lax.add with a traced init value (not known to be 0) takes the generic path
    out2 = jax.jit(lambda v, i: lax.reduce_window(v, i, lax.add, dims, strides, padding, base, wdil))(x, np.float32(0))
    np.testing.assert_allclose(np.asarray(out2), np_reduce_window(x, np.float32(0), np.add, dims, strides, pads, base, wdil), rtol=1e-5, atol=1e-5)
    xi = _input(shape, I32)
    low = np.int32(np.iinfo(np.int32).min)
    out3 = lax.reduce_window(xi, low, lambda a, b: lax.max(a, b), dims, strides, padding, base, wdil)
    np.testing.assert_array_equal(np.asarray(out3), np_reduce_window(xi, low, np.maximum, dims, strides, pads, base, wdil))


def test_variadic_argmax_pooling() -> None:
    x = _input((5, 6), F32, seed=3)
    idx = np.arange(30, dtype=np.int32).reshape(5, 6)

    def pick(a: tuple[Any, Any], b: tuple[Any, Any]) -> tuple[Any, Any]:
        take_a = lax.ge(a[0], b[0])
        return lax.select(take_a, a[0], b[0]), lax.select(take_a, a[1], b[1])

    vals, where = lax.reduce_window((x, idx), (np.float32(-np.inf), np.int32(-1)), pick, (2, 3), (1, 2), "SAME")
    pads = _pads((5, 6), (2, 3), (1, 2), "SAME", None)
    np.testing.assert_array_equal(np.asarray(vals), np_reduce_window(x, -np.inf, np.maximum, (2, 3), (1, 2), pads))
    np.testing.assert_array_equal(np.asarray(vals), x.reshape(-1)[np.asarray(where)])
    d = {"a": x, "b": x * 2}
    out = lax.reduce_window(d, {"a": np.float32(0), "b": np.float32(1)}, lambda p, q: {"a": p["a"] + q["a"], "b": p["b"] * q["b"]}, (2, 2), (1, 1), "VALID")
    assert set(out) == {"a", "b"}
    np.testing.assert_allclose(np.asarray(out["b"]), np_reduce_window(x * 2, np.float32(1), np.multiply, (2, 2), (1, 1), ((0, 0), (0, 0))), rtol=1e-5)


def test_default_strides_and_padding() -> None:
    x = arange((3, 4), F32)
    np.testing.assert_array_equal(np.asarray(lax.reduce_window(x, 0.0, lax.add, (2, 2))), [[10, 14, 18], [26, 30, 34]])
    np.testing.assert_array_equal(np.asarray(lax.reduce_window(x, 0.0, lax.add, (2, 2), None, "SAME")).shape, (3, 4))


def test_cumlogsumexp_vs_numpy() -> None:
    x = _input((4, 6), F32, seed=5)
    for axis, reverse in itertools.product((0, 1), (False, True)):
        got = np.asarray(lax.cumlogsumexp(x, axis, reverse))
        xr = np.flip(x, axis) if reverse else x
        want = np.logaddexp.accumulate(xr.astype(np.float64), axis=axis)
        want = np.flip(want, axis) if reverse else want
        np.testing.assert_allclose(got, want.astype(F32), rtol=1e-5, atol=1e-6)
    assert np.asarray(lax.cumlogsumexp(np.zeros((0, 3), F32), 0)).shape == (0, 3)
    np.testing.assert_array_equal(np.asarray(lax.cumlogsumexp(np.array([-np.inf, -np.inf, 0.0], F32))), [-np.inf, -np.inf, 0.0])


def _env() -> dict[str, Any]:
    env: dict[str, Any] = {"jax": jax, "jnp": jnp, "lax": lax, "np": np}
    env.update({k: eval(v, env) for k, v in DATA["inputs"].items()})
    return env


CASES: list[dict[str, Any]] = DATA["cases"]
IDS = [str(i) for i in range(len(CASES))]
EPS_UNITS = 8


def _call(case: dict[str, Any]) -> Call:
    inputs = {k: v for k, v in _env().items() if k in DATA["inputs"] and re.search(rf"\b{k}\b", case["expr"])}
    return Call(case["expr"], inputs)


def _host_math_bound(case: dict[str, Any]) -> float:
    """``EPS_UNITS * eps * M`` (module docstring) for a cumlogsumexp case, 0 for the exact ones."""
    if "cumlogsumexp" not in case["expr"]:
        return 0.0
    n, x = 6, np.concatenate([np.ravel(v) for v in _call(case).inputs.values()])
    return EPS_UNITS * float(np.finfo(np.float32).eps) * n**2 * (1 + np.log(n) + np.abs(x[np.isfinite(x)]).max())


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_matches_recorded_jax(case: dict[str, Any]) -> None:
    want = np.asarray(case["value"], case["dtype"])
    ours = here(_call(case))
    assert ours.leaves is not None, ours.describe()
    if _host_math_bound(case) == 0.0 and want.dtype == F32:  # exact: integers and quarters
        assert np.array_equal(want, np.round(want * 4) / 4), case["expr"]
    assert_within(ours.leaves[0], want, _host_math_bound(case), case["expr"])


# jax_core differentiates cumlogsumexp by a Hillis-Steele prefix scan of (value, tangent) pairs;
# JAX by jvp of lax.associative_scan: the same logaddexp steps, combined in another order.
KNOWN_LIVE_DIFFERENCES: dict[str, tuple[bool, str]] = {
    str(i): (True, "cumlogsumexp's jvp combines its scan in another order than JAX's associative_scan")
    for i, case in enumerate(CASES) if case["expr"].startswith("jax.grad(lambda v: lax.cumlogsumexp")
}


prefetch([_call(c) for c in CASES])


@pytest.fixture(scope="module")
def live() -> dict[str, Outcome]:
    need()
    return dict(zip(IDS, evaluate([_call(c) for c in CASES]), strict=True))


@pytest.mark.parametrize("index", live_params(IDS, KNOWN_LIVE_DIFFERENCES))
def test_bit_identical_to_live_jax(index: str, live: dict[str, Outcome]) -> None:
    call = _call(CASES[int(index)])
    assert_same(here(call), live[index], call.expr)


@pytest.mark.parametrize("case", DATA["jaxprs"], ids=[str(i) for i in range(len(DATA["jaxprs"]))])
def test_jaxpr_text_matches_jax(case: dict[str, Any]) -> None:
    assert str(eval(case["expr"], _env())) == case["text"]


@pytest.mark.parametrize("case", DATA["errors"], ids=[str(i) for i in range(len(DATA["errors"]))])
def test_errors_match_jax(case: dict[str, Any]) -> None:
    with pytest.raises(Exception) as info:
        eval(case["expr"], _env())
    assert type(info.value).__name__ == case["error"], (case["expr"], info.value)
    assert str(info.value) == case["message"]


def test_integer_cumlogsumexp_and_closed_over_tracers() -> None:
    with pytest.raises(OverflowError, match="cannot convert float infinity to integer"):
        lax.cumlogsumexp(np.arange(4, dtype=np.int32))

    def f(x: Any, s: Any) -> Any:
        return lax.reduce_window(x, 0.0, lambda a, b: a + b * s, (2,), (1,), "VALID")

    with pytest.raises(NotImplementedError, match="Reduction computations can't close over Tracers"):
        jax.jit(f)(np.ones(4, F32), np.ones(4, F32))
