"""jvp, batching and lowering rules of the key primitives (``random_seed``, ``random_wrap``,
``random_unwrap``, ``random_bits``, ``random_split``, ``random_fold_in``,
``iota_2x32_shape``, ``random_gamma``) and of the structural primitives applied to keys.

Keys carry no derivative: tangents of keys and of bits are ``float0`` zeros. Batching is
checked against a Python loop over the batch.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import lax, random
from jax_core._src import dtypes
from jax_core._src.lax.shape import assembly as shape_assembly
from jax_core._src.lax.shape import dimensions as shape_dims
from jax_core._src.lax.indexing import slicing
from jax_core._src.random.primitives import iota_2x32_shape_p
from tests.oracle.client import Call, assert_same, evaluate, here, prefetch

COVERED: frozenset[str] = frozenset(
    {
        "random_seed",
        "random_wrap",
        "random_unwrap",
        "random_bits",
        "random_split",
        "random_fold_in",
        "iota_2x32_shape",
        "random_gamma",
    }
)

KEY = random.key(42)
KEYS = random.split(KEY, 4)


def _data(x: Any) -> np.ndarray[Any, Any]:
    if dtypes.issubdtype(x.dtype, dtypes.prng_key):
        x = random.key_data(x)
    return np.asarray(x)


def _same(a: Any, b: Any) -> None:
    np.testing.assert_array_equal(_data(a), _data(b))


def _loop(f: Any, *xs: Any) -> Any:
    outs = [f(*args) for args in zip(*xs)]
    if dtypes.issubdtype(outs[0].dtype, dtypes.prng_key):
        return random.wrap_key_data(jnp.stack([random.key_data(o) for o in outs]))
    return jnp.stack(outs)


# -- jvp: keys and bits have zero (float0) tangents ---------------------------------------


def _float0(shape: tuple[int, ...] = ()) -> np.ndarray[Any, Any]:
    return np.zeros(shape, dtypes.float0)


@pytest.mark.parametrize(
    "f",
    [
        lambda k: random.split(k, 3),
        lambda k: random.fold_in(k, 3),
        lambda k: random.bits(k, (2,)),
        lambda k: random.key_data(k),
    ],
)
def test_jvp_of_key_functions_is_float0_zero(f: Any) -> None:
    out, tangent = jax.jvp(f, (KEY,), (_float0(),))
    _same(out, f(KEY))
    assert tangent.dtype == dtypes.float0
    assert tangent.shape == np.shape(_data(out))[: len(out.shape)] or tangent.shape == out.shape


def test_jvp_through_seed_and_wrap() -> None:
    out, tangent = jax.jvp(lambda s: random.key_data(random.key(s)), (np.int32(3),), (_float0(),))
    assert tangent.dtype == dtypes.float0
    out, tangent = jax.jvp(
        lambda d: random.wrap_key_data(d), (random.key_data(KEY),), (_float0((2,)),)
    )
    _same(out, KEY)
    assert tangent.dtype == dtypes.float0 and tangent.shape == ()


def test_grad_through_samplers() -> None:
    noise = random.normal(KEY, (3,))
    g = jax.grad(lambda x: (x * random.normal(KEY, (3,))).sum())(1.0)
    np.testing.assert_allclose(float(g), float(noise.sum()), rtol=1e-6)
    g = jax.grad(lambda x, k: (x * random.uniform(k, (3,))).sum())(2.0, KEY)
    np.testing.assert_allclose(float(g), float(random.uniform(KEY, (3,)).sum()), rtol=1e-6)


def test_gamma_jvp_in_key_is_zero() -> None:
    out, tangent = jax.jvp(lambda k: random.gamma(k, 2.0, (3,)), (KEY,), (_float0(),))
    _same(out, random.gamma(KEY, 2.0, (3,)))
    np.testing.assert_array_equal(np.asarray(tangent), np.zeros(3, np.float32))


# Recorded with JAX 0.12.0.1: grad of the samples of random.key(0) with respect to the shape
# parameter (implicit differentiation through lax.random_gamma_grad), for gamma, loggamma,
# beta (through two gammas) and dirichlet (its Jacobian). Host math (log/exp, igamma's series):
# compared with rtol 2e-6 (~16 float32 eps; SSE4.2/AVX2/AVX-512 stay within it), and bit for bit
# with live JAX on this machine below.
_A = [0.3, 1.0, 2.5, 7.0]
_JAX_GAMMA_GRADS = {
    "gamma": [2.2258236408233643, 0.9927736520767212, 0.830788254737854, 1.2524102926254272],
    "loggamma": [3.537153482437134, 1.3669203519821167, 0.5380605459213257, 0.11789937317371368],
    "beta": [0.425203412771225, 0.577501118183136, 0.049185410141944885, 0.014541630633175373],
}
_JAX_DIRICHLET_JACOBIAN = [
    [0.6010407209396362, -0.07430391758680344, -0.06218016520142555],
    [-0.19227482378482819, 0.25662386417388916, -0.07176655530929565],
    [-0.40876588225364685, -0.18231993913650513, 0.1339467316865921],
]


def test_gamma_family_differentiates_in_the_shape_parameter_as_jax() -> None:
    a, key = jnp.array(_A), random.key(0)
    samplers = {
        "gamma": lambda a: random.gamma(key, a).sum(),
        "loggamma": lambda a: random.loggamma(key, a).sum(),
        "beta": lambda a: random.beta(key, a, 2.0).sum(),
    }
    for name, f in samplers.items():
        np.testing.assert_allclose(jax.grad(f)(a), _JAX_GAMMA_GRADS[name], rtol=2e-6, err_msg=name)
    jac = jax.jacfwd(lambda a: random.dirichlet(key, a))(a[:3])
    np.testing.assert_allclose(jac, _JAX_DIRICHLET_JACOBIAN, rtol=2e-6, atol=1e-7)


_LIVE_GRADS = [
    Call(f"jax.grad(lambda a: random.{f}(random.key(0), a{extra}).sum())(jnp.array({_A}))")
    for f, extra in (("gamma", ""), ("loggamma", ""), ("beta", ", 2.0"))
] + [Call(f"jax.jacfwd(lambda a: random.dirichlet(random.key(0), a))(jnp.array({_A[:3]}))")]


prefetch(_LIVE_GRADS)


def test_gamma_family_grads_bit_identical_to_live_jax() -> None:
    for call, theirs in zip(_LIVE_GRADS, evaluate(_LIVE_GRADS), strict=True):
        assert_same(here(call), theirs, call.expr)


def test_iota_2x32_shape_counts_the_flat_index() -> None:
    hi, lo = iota_2x32_shape_p.bind(shape=(3, 4))
    np.testing.assert_array_equal(np.asarray(lo), np.arange(12, dtype=np.uint32).reshape(3, 4))
    np.testing.assert_array_equal(np.asarray(hi), np.zeros((3, 4), np.uint32))
    _, lo = jax.vmap(lambda _: iota_2x32_shape_p.bind(shape=(2,)))(jnp.arange(3))
    np.testing.assert_array_equal(np.asarray(lo), [[0, 1]] * 3)  # no operand: unbatched, broadcast
    (_, counts), (_, tangent) = jax.jvp(
        lambda x: (x, iota_2x32_shape_p.bind(shape=(2,))[1]), (1.0,), (1.0,)
    )
    np.testing.assert_array_equal(np.asarray(counts), [0, 1])
    assert tangent.dtype == dtypes.float0


# -- batching: vmap equals a loop over the batch --------------------------------------------


def test_batch_random_seed() -> None:
    seeds = jnp.array([0, 1, 7, -3], dtype=jnp.int32)
    _same(jax.vmap(random.key)(seeds), _loop(random.key, seeds))
    _same(jax.vmap(random.PRNGKey)(seeds), _loop(random.PRNGKey, seeds))


def test_batch_random_bits_split_fold_in() -> None:
    for f in (
        lambda k: random.bits(k, (3,)),
        lambda k: random.split(k, 3),
        lambda k: random.fold_in(k, 5),
    ):
        _same(jax.vmap(f)(KEYS), _loop(f, KEYS))
    msgs = jnp.arange(4, dtype=jnp.uint32)
    _same(jax.vmap(random.fold_in)(KEYS, msgs), _loop(random.fold_in, KEYS, msgs))
    _same(
        jax.vmap(lambda m: random.fold_in(KEY, m))(msgs),
        _loop(lambda m: random.fold_in(KEY, m), msgs),
    )


def test_batch_axes_other_than_zero() -> None:
    grid = random.split(KEY, (2, 3))
    got = jax.vmap(lambda ks: random.bits(ks[1], (4,)), in_axes=1)(grid)
    _same(got, _loop(lambda ks: random.bits(ks[1], (4,)), [grid[:, i] for i in range(3)]))
    got = jax.vmap(lambda k: random.split(k), in_axes=0, out_axes=1)(KEYS)
    assert got.shape == (2, 4)
    _same(got[:, 1], random.split(KEYS[1]))


def test_batch_wrap_unwrap() -> None:
    data = random.key_data(KEYS)
    _same(jax.vmap(random.wrap_key_data)(data), KEYS)
    _same(jax.vmap(random.key_data)(KEYS), data)
    _same(jax.vmap(random.wrap_key_data, in_axes=1)(data.T), KEYS)


def test_batch_gamma() -> None:
    a = jnp.array([0.3, 1.0, 4.0, 9.0])
    _same(
        jax.vmap(lambda k, a: random.gamma(k, a))(KEYS, a),
        _loop(lambda k, a: random.gamma(k, a), KEYS, a),
    )
    _same(
        jax.vmap(lambda a: random.gamma(KEY, a, (2,)))(a),
        _loop(lambda a: random.gamma(KEY, a, (2,)), a),
    )
    _same(
        jax.vmap(lambda k: random.gamma(k, 2.0, (3,)))(KEYS),
        _loop(lambda k: random.gamma(k, 2.0, (3,)), KEYS),
    )


def test_nested_vmap_and_jit() -> None:
    grid = random.split(KEY, (2, 3))
    f = jax.jit(jax.vmap(jax.vmap(lambda k: random.normal(k, (2,)))))
    got = f(grid)
    assert got.shape == (2, 3, 2)
    _same(got[1, 2], random.normal(grid[1, 2], (2,)))


# -- structural primitives on keys: the trailing key-data axis rides along ------------------


def test_slice_squeeze_reshape_transpose_on_keys() -> None:
    grid = random.split(KEY, (2, 3))
    data = np.asarray(random.key_data(grid))
    _same(slicing.slice(grid, (0, 1), (2, 3)), data[:, 1:3])
    _same(shape_dims.squeeze(grid[:1], (0,)), data[0])
    _same(shape_dims.reshape(grid, (3, 2)), data.reshape(3, 2, 2))
    _same(shape_dims.reshape(grid, (6,), (1, 0)), data.transpose(1, 0, 2).reshape(6, 2))
    _same(shape_dims.transpose(grid, (1, 0)), data.transpose(1, 0, 2))
    _same(
        shape_dims.broadcast_in_dim(KEY, (2, 3), ()),
        np.broadcast_to(np.asarray(random.key_data(KEY)), (2, 3, 2)),
    )
    _same(shape_assembly.concatenate([grid, grid], 0), np.concatenate([data, data]))
    _same(shape_assembly.rev(grid, (1,)), data[:, ::-1])


def test_dynamic_slice_gather_and_update_on_keys() -> None:
    data = np.asarray(random.key_data(KEYS))
    _same(slicing.dynamic_slice(KEYS, (jnp.int32(1),), (2,)), data[1:3])
    _same(jax.jit(lambda ks, i: ks[i])(KEYS, 2), data[2])
    _same(KEYS[jnp.array([3, 0])], data[[3, 0]])
    _same(KEYS[np.array([True, False, True, False])], data[[0, 2]])
    new = slicing.dynamic_update_slice(KEYS, random.split(KEY, 1), (jnp.int32(2),))
    _same(
        new, np.concatenate([data[:2], np.asarray(random.key_data(random.split(KEY, 1))), data[3:]])
    )


def test_select_and_compare_keys() -> None:
    other = random.split(random.key(1), 4)
    pred = jnp.array([True, False, False, True])
    want = np.where(np.asarray(pred)[:, None], _data(KEYS), _data(other))
    _same(lax.select(pred, KEYS, other), want)
    _same(jnp.where(pred, KEYS, other), want)
    np.testing.assert_array_equal(np.asarray(KEYS == other), [False] * 4)
    np.testing.assert_array_equal(np.asarray(KEYS == KEYS[2]), [False, False, True, False])
    np.testing.assert_array_equal(np.asarray(KEYS != KEYS[2]), [True, True, False, True])


def test_while_loop_and_cond_carry_keys() -> None:
    def body(c: Any) -> Any:
        i, k = c
        return i + 1, random.split(k)[0]

    _, k = lax.while_loop(lambda c: c[0] < 3, body, (0, KEY))
    _same(k, random.split(random.split(random.split(KEY)[0])[0])[0])
    out = jax.vmap(lambda n, k: lax.while_loop(lambda c: c[0] < n, body, (0, k))[1])(
        jnp.array([1, 2]), KEYS[:2]
    )
    _same(out[0], random.split(KEYS[0])[0])
    _same(out[1], random.split(random.split(KEYS[1])[0])[0])
    _same(lax.cond(True, lambda k: random.split(k)[1], lambda k: k, KEY), random.split(KEY)[1])
