"""``lax.clamp``, ``lax.reduce_precision``, ``lax.rng_bit_generator`` and the sorting exports
(``lax.sort``, ``lax.sort_key_val``, ``lax.top_k``): values, recorded JAX outputs, rules, errors.

The outputs recorded from JAX (``tests/data/lax_special_jax.npz``) are compared exactly: they are
the same on every CPU by construction. ``rng_bit_generator``'s keys and bits are integers from
integer arithmetic, and ``reduce_precision`` rounds each float to a narrower format with round to
nearest even, one exactly specified result per input (XLA lowers it to integer bit operations).
The live tests evaluate the same calls under real JAX on this machine (``tests/oracle``) and
require bit equality.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax
from jax_core._src.config import enable_x64
from jax_core.test_util import check_grads
from tests.lax._helpers import live_special, prefetch_special, special_call
from tests.oracle.client import Outcome, assert_same, here

COVERED: frozenset[str] = frozenset({"clamp", "reduce_precision", "rng_bit_generator"})

with np.load(Path(__file__).resolve().parent.parent / "data" / "lax_special_jax.npz") as _npz:
    DATA: dict[str, np.ndarray[Any, Any]] = {k: _npz[k] for k in _npz.files}


@pytest.fixture
def x64() -> Iterator[None]:
    with enable_x64(True):
        yield


RECORDED = sorted({k.split("/")[0] for k in DATA if k.startswith(("rbg_", "reduce_precision_"))})


def _recorded(case: str) -> tuple[dict[str, Any], list[np.ndarray[Any, Any]]]:
    call = json.loads(str(DATA[f"{case}/call"]))
    return call, [DATA[f"{case}/out{i}"] for i in range(call["nout"])]


# -- clamp -----------------------------------------------------------------------------------------
def test_clamp_values_and_jit() -> None:
    x = np.array([-2.0, -0.5, 0.3, 1.0, 4.0, np.nan], np.float32)
    want = np.clip(x, -1, 1)
    np.testing.assert_array_equal(np.asarray(lax.clamp(np.float32(-1), x, np.float32(1))), want)
    lo, hi = np.full(6, -1, np.float32), np.full(6, 1, np.float32)
    np.testing.assert_array_equal(np.asarray(jax.jit(lax.clamp)(lo, x, hi)), want)
    assert lax.clamp(np.int32(0), np.arange(-2, 3, dtype=np.int32), np.int32(1)).tolist() == [0, 0, 0, 1, 1]


def test_clamp_grads(x64: None) -> None:
    x = np.array([-2.0, -0.5, 0.3, 0.9, 4.0])
    lo, hi = np.full(5, -1.0), np.full(5, 1.0)
    check_grads(lax.clamp, (lo, x, hi), order=2, modes=("fwd", "rev"))
    g_lo, g_x, g_hi = jax.grad(lambda a, b, c: lax.clamp(a, b, c).sum(), (0, 1, 2))(-1.0, x, 1.0)
    assert (float(g_lo), float(g_hi)) == (1.0, 1.0)
    np.testing.assert_array_equal(np.asarray(g_x), [0, 1, 1, 1, 0])


@pytest.mark.parametrize(
    "axes",
    [(0, 0, 0), (None, 0, None), (0, None, None), (None, None, 0), (1, 1, None), (None, 1, 1)],
    ids=str,
)
def test_clamp_vmap_matches_loop(axes: tuple[int | None, int | None, int | None]) -> None:
    rng = np.random.default_rng(0)
    full = [rng.uniform(-2, 2, (3, 4)).astype(np.float32) for _ in range(3)]
    full[0] -= 1.5
    full[2] += 1.5
    bd = next(d for d in axes if d is not None)
    args = [f if d is not None else np.take(f, 0, axis=bd) for f, d in zip(full, axes)]
    if axes == (0, None, None):
        args = [args[0][:, 0], np.take(full[1], 0, axis=0), np.float32(1.0)]  # batched scalar min
    got = np.asarray(jax.vmap(lax.clamp, in_axes=axes)(*args))
    size = 3 if bd == 0 else 4
    loop = np.stack([np.asarray(lax.clamp(*(a if d is None else np.take(a, i, axis=d) for a, d in zip(args, axes)))) for i in range(size)])
    np.testing.assert_array_equal(got, loop)


def test_clamp_errors() -> None:
    with pytest.raises(TypeError) as info:
        lax.clamp(jnp.zeros(2), jnp.ones(3), 1.0)
    assert str(info.value) == "clamp requires min.shape == operand.shape or min.shape == (), got min.shape=(2,), operand.shape=(3,)."
    with pytest.raises(TypeError) as info:
        lax.clamp(0, jnp.ones(3), 1.0)
    assert str(info.value).startswith("lax.clamp requires arguments to have the same dtypes, got int32, float32, float32.")


# -- reduce_precision -----------------------------------------------------------------------------
@pytest.mark.parametrize("bits", [(5, 10), (8, 7), (4, 3), (11, 52)], ids=str)
def test_reduce_precision_matches_jax(bits: tuple[int, int]) -> None:
    e, m = bits
    (want,) = _recorded(f"reduce_precision_{e}_{m}")[1]
    v = DATA[f"reduce_precision_{e}_{m}/arg0"]
    got = lax.reduce_precision(v, e, m)
    np.testing.assert_array_equal(np.asarray(got), want)
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda x: lax.reduce_precision(x, e, m))(v)), want)


def test_reduce_precision_rules(x64: None) -> None:
    x = np.array([0.3, -1.7, 2.25])
    f = lambda x: lax.reduce_precision(x, 11, 52)  # exact in float64: derivatives are the identity's
    check_grads(f, (x,), order=2, modes=("fwd", "rev"))
    t = jax.jvp(lambda x: lax.reduce_precision(x, 5, 2), (x,), (np.array([1.1, 1.3, 0.7]),))[1]
    np.testing.assert_array_equal(np.asarray(t), np.asarray(lax.reduce_precision(np.array([1.1, 1.3, 0.7]), 5, 2)))
    batched = jax.vmap(lambda x: lax.reduce_precision(x, 5, 2), in_axes=1)(np.stack([x, x + 1], 1))
    np.testing.assert_array_equal(np.asarray(batched), np.asarray(lax.reduce_precision(np.stack([x, x + 1]), 5, 2)))


def test_reduce_precision_errors() -> None:
    with pytest.raises(TypeError, match="^reduce_precision does not accept dtype int32. Accepted dtypes are subtypes of floating.$"):
        lax.reduce_precision(jnp.arange(3), 5, 10)
    with pytest.raises(ValueError, match="^reduce_precision: exponent_bits must be positive; got 0$"):
        lax.reduce_precision(1.0, 0, 10)
    with pytest.raises(ValueError, match="^reduce_precision: mantissa_bits must be non-negative; got -1$"):
        lax.reduce_precision(1.0, 5, -1)


# -- rng_bit_generator -----------------------------------------------------------------------------
@pytest.mark.parametrize("alg", list(lax.RandomAlgorithm), ids=str)
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64"])
def test_rng_bit_generator_matches_jax(alg: lax.RandomAlgorithm, dtype: str) -> None:
    call, (want_key, want_bits) = _recorded(f"rbg_{alg.name}_{dtype}")
    key = DATA[f"rbg_{alg.name}_{dtype}/arg0"]
    with enable_x64(dtype == "uint64"):
        new_key, bits = lax.rng_bit_generator(key, (2, 3), np.dtype(dtype), alg)
        jit_key, jit_bits = jax.jit(lambda k: lax.rng_bit_generator(k, (2, 3), np.dtype(dtype), alg))(key)
    assert bits.dtype == np.dtype(dtype) and bits.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(new_key), want_key)
    np.testing.assert_array_equal(np.asarray(bits), want_bits)
    np.testing.assert_array_equal(np.asarray(jit_bits), want_bits)
    np.testing.assert_array_equal(np.asarray(jit_key), want_key)


def test_rng_bit_generator_vmap_as_jax() -> None:
    _, (want_keys, want_bits) = _recorded("rbg_vmap")
    keys = DATA["rbg_vmap/arg0"]
    f = lambda k: lax.rng_bit_generator(k, (4,), algorithm=lax.RandomAlgorithm.RNG_PHILOX)
    got_keys, got_bits = jax.vmap(f)(keys)
    np.testing.assert_array_equal(np.asarray(got_keys), want_keys)
    np.testing.assert_array_equal(np.asarray(got_bits), want_bits)
    got_keys, got_bits = jax.vmap(f, in_axes=1, out_axes=1)(keys.T)
    np.testing.assert_array_equal(np.asarray(got_keys), want_keys.T)
    np.testing.assert_array_equal(np.asarray(got_bits), want_bits.T)


def test_rng_bit_generator_jvp_and_jaxpr() -> None:
    key = np.array([1, 2, 3, 4], np.uint32)
    out, tangent = jax.jvp(lambda k: lax.rng_bit_generator(k, (2,))[1], (key,), (np.zeros(4, jax.dtypes.float0),))
    assert tangent.dtype == jax.dtypes.float0 and tangent.shape == (2,)
    text = str(jax.make_jaxpr(lambda k: lax.rng_bit_generator(k, (2,)))(key))
    assert "rng_bit_generator[\n      algorithm=RNG_DEFAULT\n      dtype=uint32\n      out_sharding=None\n      shape=(2,)\n    ]" in text


def test_rng_bit_generator_errors() -> None:
    key = np.array([1, 2, 3, 4], np.uint32)
    with pytest.raises(TypeError, match="^rng_bit_generator: unsupported dtype int32$"):
        lax.rng_bit_generator(key, (3,), np.int32)
    with pytest.raises(TypeError, match="key must be a uint32\\[4\\] or uint64\\[2\\] array"):
        lax.rng_bit_generator(key[:3], (3,))
    with pytest.raises(NotImplementedError, match="out_sharding"):
        lax.rng_bit_generator(key, (3,), out_sharding=object())  # type: ignore[arg-type]


# -- sorting exports -------------------------------------------------------------------------------
def test_sort_exports() -> None:
    x = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], np.float32)
    np.testing.assert_array_equal(np.asarray(lax.sort(x)), np.sort(x))
    np.testing.assert_array_equal(np.asarray(lax.sort(x, dimension=0)), np.sort(x, axis=0))
    k, v = lax.sort_key_val(x, np.arange(6, dtype=np.int32).reshape(2, 3))
    np.testing.assert_array_equal(np.asarray(v), [[1, 2, 0], [3, 5, 4]])
    np.testing.assert_array_equal(np.asarray(k), np.sort(x))


def test_top_k_axis() -> None:
    x = np.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], np.float32)
    vals, idx = lax.top_k(x, 1, axis=0)
    np.testing.assert_array_equal(np.asarray(vals), [[3.0, 5.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(idx), [[0, 1, 1]])
    vals, idx = lax.top_k(x, 2)
    np.testing.assert_array_equal(np.asarray(vals), [[3.0, 2.0], [5.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(idx), [[0, 2], [1, 2]])


TOP_K_ERRORS: list[tuple[str, Callable[[], object], str]] = [
    ("k_too_big", lambda: lax.top_k(np.zeros((2, 3), np.float32), 4),
     "k argument to top_k must be no larger than size along axis; got k=4 with shape=[2, 3] and axis=1"),
    ("k_negative", lambda: lax.top_k(np.zeros((2, 3), np.float32), -1), "k argument to top_k must be nonnegative, got -1"),
    ("scalar", lambda: lax.top_k(np.float32(1), 1), "axis -1 is out of bounds for array of dimension 0"),
    ("axis", lambda: lax.top_k(np.zeros((2, 3), np.float32), 1, axis=2), "axis 2 is out of bounds for array of dimension 2"),
]


@pytest.mark.parametrize("name,call,msg", TOP_K_ERRORS, ids=[e[0] for e in TOP_K_ERRORS])
def test_top_k_errors(name: str, call: Callable[[], object], msg: str) -> None:
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == msg


# -- live JAX --------------------------------------------------------------------------------------
prefetch_special(DATA, RECORDED)


@pytest.fixture(scope="module")
def live() -> dict[str, Outcome]:
    return live_special(DATA, RECORDED)


@pytest.mark.parametrize("case", RECORDED)
def test_recorded_calls_bit_identical_to_live_jax(case: str, live: dict[str, Outcome]) -> None:
    call = special_call(DATA, case)
    assert_same(here(call), live[case], call.expr)
