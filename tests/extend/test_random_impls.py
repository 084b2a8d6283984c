"""``jax_core.extend.random``: user-defined PRNG implementations end to end, the built-in ones
(``rbg``, ``unsafe_rbg``, threefry) and the threefry2x32 hash, compared live with real JAX."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.extend import random as jex
from tests.oracle.client import Outcome, assert_same, here, live_fixture, program_call

COVERED = {"threefry2x32"}  # threefry2x32_p: bind, vmap, jit (tests/transforms/test_rule_registry.py)

U32 = np.uint32

# A toy implementation with three-word keys, written as a user would: functions on one key.
TOY = """
import importlib
jex = importlib.import_module(jax.__name__ + '.extend.random')
import numpy as np


def seed(s):
    s = s.astype(jnp.uint32)
    return jnp.stack([s, s * jnp.uint32(3), jnp.uint32(7) + s * 0])

def split(k, shape):
    n = int(np.prod(shape))
    return jex.threefry_2x32(k[:2], jnp.arange(n * 3, dtype=jnp.uint32)).reshape(*shape, 3)

def random_bits(k, bit_width, shape):
    n = int(np.prod(shape))
    out = jex.threefry_2x32(k[1:], jnp.arange(n, dtype=jnp.uint32)).reshape(shape)
    return out if bit_width == 32 else out.astype(f'uint{bit_width}')

def fold_in(k, d):
    return jex.threefry_2x32(k[:2], jnp.stack([d, d + 1, k[2]]).astype(jnp.uint32))

impl = jex.define_prng_impl(key_shape=(3,), seed=seed, split=split, random_bits=random_bits,
                            fold_in=fold_in, name='toy', tag='toy')
key = jax.random.key(11, impl=impl)
keys = jax.random.split(key, 4)
"""

TOY_CASES = [
    "str(key.dtype)",
    "jax.random.key_data(key)",
    "jax.random.key_data(jax.random.split(key, 3))",
    "jax.random.key_data(jax.random.split(key, (2, 2)))",
    "jax.random.key_data(jax.random.fold_in(key, 5))",
    "jax.random.bits(key, (5,))",
    "jax.random.bits(key, (2, 3), jnp.uint8)",
    "jax.random.uniform(key, (4,))",
    "jax.random.normal(key, (4,))",
    "jax.random.randint(key, (3,), 0, 100)",
    "jax.jit(lambda k: jax.random.uniform(k, (4,)))(key)",
    "jax.random.key_data(jax.jit(lambda k: jax.random.split(k, 2))(key))",
    "jax.vmap(lambda k: jax.random.bits(k, (2,)))(keys)",
    "jax.random.key_data(jax.vmap(lambda k: jax.random.fold_in(k, 3))(keys))",
    "jax.random.key_data(jax.vmap(jax.random.fold_in)(keys, jnp.arange(4)))",
    "jax.random.key_data(jax.vmap(lambda k: jax.random.split(k, 2))(keys))",
    "jax.jit(jax.vmap(lambda k: jax.random.normal(k, (2,))))(keys)",
]

BUILTIN_CASES = [
    *(
        f"jax.random.{expr}"
        for impl in ("rbg", "unsafe_rbg")
        for expr in (
            f"bits(jax.random.key(3, impl='{impl}'), (6,))",
            f"key_data(jax.random.split(jax.random.key(3, impl='{impl}'), 3))",
            f"key_data(jax.random.fold_in(jax.random.key(3, impl='{impl}'), 7))",
            f"uniform(jax.random.key(3, impl='{impl}'), (4,))",
        )
    ),
    "jax.random.key_data(jex.seed_with_impl(jex.rbg_prng_impl, 5))",
    "jax.random.key_data(jex.seed_with_impl(jex.unsafe_rbg_prng_impl, 5))",
    "jax.random.key_data(jex.random_seed(np.arange(3), jex.threefry_prng_impl))",
    "str(jex.seed_with_impl(jex.unsafe_rbg_prng_impl, 0).dtype)",
    "jex.threefry_2x32(np.array([1, 2], np.uint32), np.arange(5, dtype=np.uint32))",
    "jex.threefry_2x32(np.array([1, 2], np.uint32), np.arange(6, dtype=np.uint32))",
    "jex.threefry_2x32((np.uint32(7), np.uint32(9)), np.arange(12, dtype=np.uint32).reshape(3, 4))",
    "jex.threefry_2x32(np.array([0xFFFFFFFF, 3], np.uint32), np.array(5, np.uint32))",
    "jax.jit(jex.threefry_2x32)(np.array([1, 2], np.uint32), np.arange(7, dtype=np.uint32))",
    "jex.threefry2x32_p.bind(np.uint32(1), np.uint32(2), np.arange(3, dtype=np.uint32), np.arange(3, dtype=np.uint32))",
    "jax.vmap(lambda c: jex.threefry2x32_p.bind(np.uint32(1), np.uint32(2), c, c))(np.arange(6, dtype=np.uint32).reshape(2, 3))",
    "jex.threefry_prng_impl.split(jax.random.key_data(jax.random.key(0)), (2,))",
]
"""Expressions over ``jex`` (``jax.extend.random``) and ``np``."""

ERROR_CASES = [
    "jex.threefry_2x32(np.array([1, 2], np.int32), np.arange(5, dtype=np.uint32))",
    "jex.threefry2x32_p.bind(np.uint32(1), np.uint32(2), np.arange(3, dtype=np.uint32), np.arange(2, dtype=np.uint32))",
    "jex.threefry2x32_p.bind(np.arange(2, dtype=np.uint32), np.uint32(2), np.ones((2, 3), np.uint32), np.ones((2, 3), np.uint32))",
]

_JEX = "import importlib\njex = importlib.import_module(jax.__name__ + '.extend.random')\nimport numpy as np\n"
CALLS = {
    **{case: program_call(TOY, case) for case in TOY_CASES},
    **{case: program_call(_JEX, case) for case in (*BUILTIN_CASES, *ERROR_CASES)},
}
live = live_fixture(list(CALLS.values()))


def _theirs(live: dict[str, Outcome], case: str) -> Outcome:
    return live[CALLS[case].expr]


@pytest.mark.parametrize("case", TOY_CASES)
def test_user_impl_matches_jax(case: str, live: dict[str, Outcome]) -> None:
    ours = here(CALLS[case])
    assert ours.leaves is not None, ours.describe()
    assert_same(ours, _theirs(live, case), case)


@pytest.mark.parametrize("case", BUILTIN_CASES)
def test_builtin_impls_and_threefry_match_jax(case: str, live: dict[str, Outcome]) -> None:
    ours = here(CALLS[case])
    assert ours.leaves is not None, ours.describe()
    assert_same(ours, _theirs(live, case), case)


@pytest.mark.parametrize("case", ERROR_CASES)
def test_errors_match_jax(case: str, live: dict[str, Outcome]) -> None:
    ours, theirs = here(CALLS[case]), _theirs(live, case)
    assert ours.error == theirs.error == "TypeError", (ours.describe(), theirs.describe())
    assert ours.message == theirs.message


# -- without the oracle ------------------------------------------------------------------------


def _counter_impl(**overrides: Any) -> jex.PRNGImpl:
    """A small implementation with two-word keys whose values are easy to predict."""

    def seed(s: Any) -> Any:
        s = s.astype(jnp.uint32)
        return jnp.stack([s, s + jnp.uint32(1)])

    def split(k: Any, shape: tuple[int, ...]) -> Any:
        n = int(np.prod(shape))
        return (k[None, :] + jnp.arange(1, n + 1, dtype=jnp.uint32)[:, None]).reshape(*shape, 2)

    def random_bits(k: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
        out = jnp.full(shape, k[0] * jnp.uint32(1000) + k[1], dtype=jnp.uint32)
        return out.astype(np.dtype(f"uint{bit_width}"))

    def fold_in(k: Any, d: Any) -> Any:
        return k + d.astype(jnp.uint32)

    rules: dict[str, Any] = {
        "seed": seed,
        "split": split,
        "random_bits": random_bits,
        "fold_in": fold_in,
    }
    rules.update(overrides)
    return jex.define_prng_impl(key_shape=(2,), name="counter", tag="ctr", **rules)


def test_user_impl_key_dtype_and_exact_values() -> None:
    impl = _counter_impl()
    key = jax.random.key(4, impl=impl)
    assert str(key.dtype) == "key<ctr>" and key.shape == ()
    assert jax.random.key_impl(key) == "counter"
    assert jax.random.key_data(key).tolist() == [4, 5]
    assert jax.random.key_data(jax.random.split(key, 2)).tolist() == [[5, 6], [6, 7]]
    assert jax.random.key_data(jax.random.fold_in(key, 10)).tolist() == [14, 15]
    assert jax.random.bits(key, (2,)).tolist() == [4005, 4005]

    def scalar_bits(k: jax.Array) -> jax.Array:
        return jax.random.bits(k, ())

    def fold_one(k: jax.Array) -> jax.Array:
        return jax.random.key_data(jax.random.fold_in(k, 1))

    vmapped = jax.vmap(scalar_bits)(jax.random.split(key, 2))
    assert vmapped.tolist() == [5006, 6007]
    jitted = jax.jit(fold_one)(key)
    assert jitted.tolist() == [5, 6]
    assert jax.random.uniform(key, (3,)).dtype == jnp.float32


def test_user_impl_wrap_and_unwrap() -> None:
    impl = _counter_impl()
    keys = jex.random_wrap(jnp.array([[1, 2], [3, 4]], dtype=jnp.uint32), impl=impl)
    assert str(keys.dtype) == "key<ctr>" and keys.shape == (2,)
    assert jex.random_unwrap(keys).tolist() == [[1, 2], [3, 4]]
    assert jex.seed_with_impl(impl, 9).dtype == keys.dtype
    assert jex.random_seed(np.arange(3), impl).shape == (3,)


def test_user_impl_is_not_registered_by_name() -> None:
    _counter_impl()
    with pytest.raises(ValueError, match='unrecognized PRNG implementation "counter"'):
        jax.random.key(0, impl="counter")


def test_split_rule_with_wrong_shape_is_reported() -> None:
    def split(k: jax.Array, shape: tuple[int, ...]) -> jax.Array:
        return jnp.zeros((3,), jnp.uint32)

    impl = _counter_impl(split=split)
    key = jax.random.key(0, impl=impl)
    message = r"split rule of PRNG implementation 'counter' returned uint32\[3\] for one key, expected uint32\[2, 2\]"
    with pytest.raises(TypeError, match=message):
        jax.random.split(key)
    with pytest.raises(TypeError, match=message):
        jax.jit(jax.random.split)(key)


def test_bits_rule_with_wrong_dtype_is_reported() -> None:
    def random_bits(k: jax.Array, bit_width: int, shape: tuple[int, ...]) -> jax.Array:
        return jnp.zeros(shape, jnp.float32)

    impl = _counter_impl(random_bits=random_bits)
    with pytest.raises(
        TypeError,
        match=r"random_bits rule .* returned float32\[4\] for one key, expected uint32\[4\]",
    ):
        jax.random.bits(jax.random.key(0, impl=impl), (4,))


def test_define_prng_impl_argument_errors() -> None:
    def seed(s: jax.Array) -> jax.Array:
        return s

    with pytest.raises(
        TypeError,
        match="missing 3 required keyword-only arguments: 'split', 'random_bits', and 'fold_in'",
    ):
        jex.define_prng_impl(key_shape=(2,), seed=seed)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    with pytest.raises(TypeError, match="split must be callable"):
        _counter_impl(split=3)
    with pytest.raises(TypeError, match="key_shape must be a tuple of ints"):
        jex.define_prng_impl(key_shape="2", seed=seed, split=seed, random_bits=seed, fold_in=seed)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


def test_threefry2x32_p_bind_shapes() -> None:
    hi, lo = jex.threefry2x32_p.bind(U32(1), U32(2), np.zeros((2, 3), U32), np.zeros((1, 3), U32))
    assert hi.shape == lo.shape == (2, 3) and hi.dtype == lo.dtype == jnp.uint32
    # The hash of a batch equals the hash of each element.
    counts = np.arange(8, dtype=U32)
    whole = jex.threefry_2x32(np.array([5, 6], U32), counts)
    assert whole.shape == (8,)
    again = jax.jit(jex.threefry_2x32)(np.array([5, 6], U32), counts)
    assert whole.tolist() == again.tolist()


def test_public_names_and_signatures() -> None:
    names = {n for n in dir(jex) if not n.startswith("_")}
    expected = {
        "PRNGImpl", "define_prng_impl", "random_seed", "random_unwrap", "random_wrap", "rbg_prng_impl",
        "seed_with_impl", "threefry2x32_p", "threefry_2x32", "threefry_prng_impl", "unsafe_rbg_prng_impl",
    }  # fmt: skip
    assert expected <= names
    assert list(inspect.signature(jex.define_prng_impl).parameters) == [
        "key_shape", "seed", "split", "random_bits", "fold_in", "name", "tag",
    ]  # fmt: skip
    assert list(inspect.signature(jex.seed_with_impl).parameters) == ["impl", "seed"]
    assert list(inspect.signature(jex.random_seed).parameters) == ["seeds", "impl"]
    assert list(inspect.signature(jex.threefry_2x32).parameters) == ["keypair", "count"]
    assert jex.rbg_prng_impl.key_shape == (4,) and jex.threefry_prng_impl.key_shape == (2,)
