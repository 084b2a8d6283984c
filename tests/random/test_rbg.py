"""The ``rbg`` and ``unsafe_rbg`` PRNG implementations: key data, splits, fold-ins and bits equal
to real JAX's on this machine (PRNG bits are exact by construction), eagerly, under ``jit`` and
under ``vmap`` (where JAX's batching rule of ``rng_bit_generator`` draws a batch of keys' bits
from the first key, and an unbatched fold-in message derives one block for every key)."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core import random
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

TEMPLATES = [
    "random.key_data(random.key({seed}, impl={impl!r}))",
    "random.key_data(random.split(random.key(42, impl={impl!r}), 3))",
    "random.key_data(random.split(random.key(42, impl={impl!r}), (2, 2)))",
    "random.key_data(random.fold_in(random.key(42, impl={impl!r}), 7))",
    "random.bits(random.key(42, impl={impl!r}), (5,))",
    "random.bits(random.key(42, impl={impl!r}), (3,), jnp.uint8)",
    "random.bits(random.key(42, impl={impl!r}), (2,), jnp.uint16)",
    "random.uniform(random.key(42, impl={impl!r}), (4,))",
    "random.normal(random.split(random.key(42, impl={impl!r}))[1], (2,))",
    "random.permutation(random.key(42, impl={impl!r}), 6)",
    "jax.jit(lambda k: random.randint(k, (3,), 0, 10))(random.key(42, impl={impl!r}))",
    "jax.vmap(lambda k: random.uniform(k, (2,)))(random.split(random.key(42, impl={impl!r}), 3))",
    "random.key_data(jax.vmap(lambda k, i: random.fold_in(k, i))(random.split(random.key(42, impl={impl!r}), 3), jnp.arange(3)))",
    "random.key_data(jax.vmap(lambda k: random.fold_in(k, 3))(random.split(random.key(42, impl={impl!r}), 3)))",
    "random.key_data(jax.vmap(jax.vmap(lambda k: random.fold_in(k, 3)))(random.split(random.key(42, impl={impl!r}), (2, 3))))",
    "random.key_data(jax.vmap(lambda k: random.split(k, 2))(random.split(random.key(42, impl={impl!r}), 3)))",
    "jax.vmap(jax.vmap(lambda k: random.bits(k, (2,))))(random.split(random.key(42, impl={impl!r}), (2, 3)))",
    "random.PRNGKey(3, impl={impl!r})",
    "str(random.key_impl(random.key(0, impl={impl!r})))",
    "repr(random.key(0, impl={impl!r}))",
    "random.key_data(random.wrap_key_data(jnp.arange(4, dtype=jnp.uint32), impl={impl!r}))",
    "random.wrap_key_data(jnp.arange(2, dtype=jnp.uint32), impl={impl!r})",
]
EXPRS = [t.format(impl=impl, seed=seed) for impl in ("rbg", "unsafe_rbg") for t in TEMPLATES for seed in ((0, 2**32 + 5) if "{seed}" in t else (0,))]
CALLS = [Call(e) for e in EXPRS]
live = live_fixture(CALLS)


@pytest.mark.parametrize("call", CALLS, ids=EXPRS)
def test_same_as_live_jax(call: Call, live: dict[str, Outcome]) -> None:
    assert_same(here(call), live[call.expr], call.expr)


def test_rbg_keys_without_the_oracle() -> None:
    k = random.key(42, impl="rbg")
    assert k.dtype.name == "key<rbg>" and random.key_data(k).shape == (4,)
    half = random.key_data(random.key(42))  # threefry's seed words, twice
    np.testing.assert_array_equal(random.key_data(k), np.concatenate([half, half]))
    a, b = random.split(k)
    assert not np.array_equal(random.bits(a, (4,)), random.bits(b, (4,)))
    u = random.uniform(random.key(0, impl="unsafe_rbg"), (1000,))
    assert 0.0 <= float(u.min()) and float(u.max()) < 1.0 and abs(float(u.mean()) - 0.5) < 0.05
    def draw(key: jax.Array) -> jax.Array:
        return random.normal(key, (2,))

    assert jax.jit(draw)(k).dtype == jnp.float32
