"""Typed key arrays (JEP 9263): construction, the ``key<fry>`` dtype, array behaviour
(shape, indexing, reshape, iteration, repr), keys under ``jit``/``vmap``/``grad``, and the
public ``jax_core.random`` surface."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import dtypes, random

KEY = random.key(0)


def _data(k: Any) -> np.ndarray[Any, Any]:
    return np.asarray(random.key_data(k))


# -- the dtype -------------------------------------------------------------------------------


def test_key_is_a_scalar_key_array() -> None:
    assert KEY.shape == () and KEY.ndim == 0 and KEY.size == 1
    assert str(KEY.dtype) == repr(KEY.dtype) == KEY.dtype.name == "key<fry>"
    assert KEY.itemsize == 8 and KEY.weak_type is False
    assert isinstance(KEY, jax.Array)
    np.testing.assert_array_equal(_data(KEY), np.array([0, 0], np.uint32))


def test_issubdtype_as_the_seed_says() -> None:
    raw = random.PRNGKey(0)
    assert dtypes.issubdtype(KEY.dtype, dtypes.prng_key)
    assert dtypes.issubdtype(KEY.dtype, dtypes.extended)
    assert dtypes.issubdtype(dtypes.prng_key, dtypes.extended)
    assert not dtypes.issubdtype(raw.dtype, dtypes.prng_key)
    assert not dtypes.issubdtype(raw.dtype, dtypes.extended)
    assert not dtypes.issubdtype(KEY.dtype, np.integer)
    assert not dtypes.issubdtype(KEY.dtype, np.floating)
    assert KEY.dtype == random.key(7).dtype and hash(KEY.dtype) == hash(random.key(7).dtype)
    assert KEY.dtype != np.dtype("uint32")


def test_legacy_keys_are_raw_uint32() -> None:
    raw = random.PRNGKey(42)
    assert raw.shape == (2,) and raw.dtype == np.dtype("uint32")
    np.testing.assert_array_equal(np.asarray(raw), [0, 42])
    np.testing.assert_array_equal(np.asarray(random.key_data(raw)), [0, 42])  # identity
    assert random.key_impl(raw) == random.key_impl(KEY) == "threefry2x32"
    split = random.split(raw)
    assert split.shape == (2, 2) and split.dtype == np.dtype("uint32")


def test_wrap_and_unwrap() -> None:
    data = jnp.array([[1, 2], [3, 4]], dtype=jnp.uint32)
    keys = random.wrap_key_data(data)
    assert keys.shape == (2,) and keys.dtype == KEY.dtype
    np.testing.assert_array_equal(_data(keys), np.asarray(data))
    same = random.wrap_key_data(random.key_data(KEY), impl="threefry2x32")
    assert bool(same == KEY)
    assert random.wrap_key_data(data, dtype=KEY.dtype).dtype == KEY.dtype
    with pytest.raises(ValueError, match="Cannot specify both"):
        random.wrap_key_data(data, impl="threefry2x32", dtype=KEY.dtype)


def test_repr_as_jax() -> None:
    assert repr(KEY) == "Array((), dtype=key<fry>) overlaying:\n[0 0]"
    assert str(KEY) == repr(KEY)
    keys = jax.vmap(random.key)(jnp.arange(4))
    assert repr(keys) == "Array((4,), dtype=key<fry>) overlaying:\n[[0 0]\n [0 1]\n [0 2]\n [0 3]]"
    assert repr(random.split(KEY, 3)) == (
        "Array((3,), dtype=key<fry>) overlaying:\n"
        "[[1797259609 2579123966]\n [ 928981903 3453687069]\n [4146024105 2718843009]]"
    )


# -- array behaviour on keys ---------------------------------------------------------------


def test_indexing_reshape_iteration() -> None:
    keys = random.split(KEY, 6)
    data = _data(keys)
    assert len(keys) == 6
    np.testing.assert_array_equal(_data(keys[0]), data[0])
    np.testing.assert_array_equal(_data(keys[-1]), data[-1])
    np.testing.assert_array_equal(_data(keys[1:4]), data[1:4])
    np.testing.assert_array_equal(_data(keys[::-2]), data[::-2])
    grid = keys.reshape(2, 3)
    assert grid.shape == (2, 3) and grid.dtype == KEY.dtype
    np.testing.assert_array_equal(_data(grid[1, 2]), data[5])
    np.testing.assert_array_equal(_data(grid[:, 1]), data[[1, 4]])
    np.testing.assert_array_equal(_data(grid[..., 0]), data[[0, 3]])
    assert grid[None].shape == (1, 2, 3)
    np.testing.assert_array_equal(_data(grid.T), data.reshape(2, 3, 2).transpose(1, 0, 2))
    np.testing.assert_array_equal(_data(grid.ravel()), data)
    assert grid.reshape(-1).shape == (6,) and grid.flatten().shape == (6,)
    assert [k.shape for k in keys] == [()] * 6
    _, k2 = random.split(KEY)
    np.testing.assert_array_equal(_data(k2), _data(random.split(KEY))[1])


def test_equality_of_keys() -> None:
    keys = random.split(KEY, 3)
    np.testing.assert_array_equal(np.asarray(keys == keys[1]), [False, True, False])
    np.testing.assert_array_equal(np.asarray(keys != keys[1]), [True, False, True])
    assert bool(random.fold_in(KEY, 1) == random.fold_in(KEY, 1))


def test_keys_reject_use_as_data() -> None:
    with pytest.raises(TypeError, match=r"add does not accept dtypes key<fry>, int32\."):
        KEY + 1
    with pytest.raises(TypeError, match="cannot be converted to a NumPy array"):
        np.asarray(KEY)
    with pytest.raises(TypeError, match="cannot be converted to boolean"):
        bool(KEY)
    with pytest.raises(TypeError, match="unhashable"):
        hash(KEY)


def test_pickle_and_device_transfer() -> None:
    keys = random.split(KEY, 3)
    back = pickle.loads(pickle.dumps(keys))
    assert back.dtype == keys.dtype
    np.testing.assert_array_equal(_data(back), _data(keys))
    assert jax.device_get(keys) is keys
    np.testing.assert_array_equal(_data(jax.device_put(keys)), _data(keys))
    assert keys.block_until_ready() is keys
    assert keys.copy().shape == (3,) and not keys.is_deleted()


def test_pytree_leaf() -> None:
    leaves = jax.tree.leaves({"k": KEY, "x": 1})
    assert leaves[0] is KEY


# -- keys under transformations ------------------------------------------------------------


def test_jit_takes_and_returns_keys() -> None:
    calls: list[int] = []

    def f(k: Any) -> Any:
        calls.append(1)
        a, b = random.split(k)
        return b, random.normal(a, (2,))

    jf = jax.jit(f)
    k_out, x = jf(KEY)
    assert k_out.dtype == KEY.dtype and k_out.shape == ()
    np.testing.assert_array_equal(_data(k_out), _data(random.split(KEY))[1])
    np.testing.assert_array_equal(
        np.asarray(x), np.asarray(random.normal(random.split(KEY)[0], (2,)))
    )
    jf(random.key(1))
    assert len(calls) == 1  # same abstract signature: no retrace
    assert jax.jit(lambda k: k)(KEY).dtype == KEY.dtype


def test_jit_closes_over_keys_and_lowers_to_uint32() -> None:
    out = jax.jit(lambda x: x + random.uniform(KEY, (3,)))(jnp.zeros(3))
    np.testing.assert_array_equal(np.asarray(out), np.asarray(random.uniform(KEY, (3,))))
    text = jax.jit(lambda k: random.split(k)).lower(KEY).as_text()
    assert "tensor<2xui32>" in text and "tensor<2x2xui32>" in text
    compiled = jax.jit(lambda k: random.split(k)).lower(KEY).compile()
    np.testing.assert_array_equal(_data(compiled(KEY)), _data(random.split(KEY)))


def test_make_jaxpr_prints_key_types() -> None:
    text = str(jax.make_jaxpr(lambda k: random.bits(random.split(k)[0], (3,)))(KEY))
    assert "a:key<fry>[]" in text
    assert "random_split[shape=(2,)] a" in text
    assert "random_bits[bit_width=32 shape=(3,)]" in text
    text = str(jax.make_jaxpr(random.key)(1))
    assert "random_seed[impl=fry]" in text and ":key<fry>[] = " in text


def test_eval_shape_and_shape_dtype_struct() -> None:
    out = jax.eval_shape(lambda k: random.split(k, 3), KEY)
    assert out.shape == (3,) and out.dtype == KEY.dtype
    spec = jax.ShapeDtypeStruct((), KEY.dtype)
    assert "tensor<2xui32>" in jax.jit(lambda k: random.split(k)).lower(spec).as_text()


def test_vmap_of_key_and_samplers() -> None:
    keys = jax.vmap(random.key)(jnp.arange(4))
    assert keys.shape == (4,) and keys.dtype == KEY.dtype
    draws = jax.vmap(lambda k: random.normal(k))(random.split(KEY, 4))
    assert draws.shape == (4,)
    for i, k in enumerate(random.split(KEY, 4)):
        assert float(draws[i]) == float(random.normal(k))
    out = jax.vmap(lambda k, x: x * random.uniform(k), in_axes=(None, 0))(KEY, jnp.arange(3.0))
    np.testing.assert_array_equal(
        np.asarray(out), np.arange(3.0, dtype=np.float32) * float(random.uniform(KEY))
    )


def test_scan_carries_a_key() -> None:
    def step(k: Any, _: Any) -> tuple[Any, Any]:
        k, sub = random.split(k)
        return k, random.normal(sub)

    k_final, xs = jax.lax.scan(step, KEY, None, length=3)
    k = KEY
    for i in range(3):
        k, sub = random.split(k)
        assert float(xs[i]) == float(random.normal(sub))
    np.testing.assert_array_equal(_data(k_final), _data(k))
    # keys as scanned-over inputs and as stacked outputs
    keys = random.split(KEY, 3)
    _, draws = jax.lax.scan(lambda c, k: (c, random.normal(k)), 0.0, keys)
    np.testing.assert_array_equal(np.asarray(draws), np.asarray(jax.vmap(random.normal)(keys)))
    _, seen = jax.lax.scan(lambda c, _: (random.split(c)[0], c), KEY, None, length=3)
    assert seen.shape == (3,) and seen.dtype == KEY.dtype
    np.testing.assert_array_equal(_data(seen[1]), _data(random.split(KEY)[0]))
    np.testing.assert_array_equal(
        np.asarray(jax.lax.map(random.uniform, keys)), np.asarray(jax.vmap(random.uniform)(keys))
    )


def test_checkpoint_and_custom_jvp_with_keys() -> None:
    f = jax.checkpoint(lambda x, k: x * random.normal(k))
    assert float(jax.grad(f)(2.0, KEY)) == float(random.normal(KEY))
    g = jax.custom_jvp(lambda x, k: x * random.normal(k))
    g.defjvp(lambda primals, tangents: (g(*primals), tangents[0] * random.normal(primals[1])))
    _, t = jax.jvp(lambda x: g(x, KEY), (1.0,), (1.0,))
    assert float(t) == float(random.normal(KEY))


def test_grad_with_key_arguments() -> None:
    def loss(w: Any, k: Any) -> Any:
        return jnp.sum(w * random.normal(k, (3,)))

    g = jax.grad(loss)(jnp.ones(3), KEY)
    np.testing.assert_array_equal(np.asarray(g), np.asarray(random.normal(KEY, (3,))))
    gk = jax.grad(loss, argnums=1, allow_int=True)(jnp.ones(3), KEY)
    assert gk.dtype == dtypes.float0


def test_public_names() -> None:
    names = {
        "key", "PRNGKey", "key_data", "wrap_key_data", "key_impl", "split", "fold_in", "bits",
        "uniform", "normal", "bernoulli", "categorical", "choice", "permutation", "randint",
        "truncated_normal", "gamma", "beta", "dirichlet", "exponential", "laplace", "logistic",
        "multivariate_normal", "gumbel", "poisson",
    }  # fmt: skip
    for name in names:
        fn = getattr(random, name)
        assert callable(fn) and fn.__doc__, name
