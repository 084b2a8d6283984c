"""``jax_core.nn.initializers`` against real JAX: the same key gives the same bits, for every
initializer, distribution, fan mode, axis layout and dtype (complex included), and the same
errors for shapes they cannot handle."""

from __future__ import annotations

import numpy as np
import pytest

import jax_core as jax
import jax_core.nn.initializers as init
import jax_core.numpy as jnp
from tests.oracle.client import Call, Outcome, assert_same, here, live_fixture

K = "random.key(3)"
NAMED = ["glorot_normal", "glorot_uniform", "he_normal", "he_uniform", "kaiming_normal", "kaiming_uniform",
         "lecun_normal", "lecun_uniform", "xavier_normal", "xavier_uniform"]  # fmt: skip
EXPRS = [
    f"jax.nn.initializers.zeros({K}, (2, 3))",
    f"jax.nn.initializers.ones({K}, (2, 3), jnp.int32)",
    f"jax.nn.initializers.zeros({K}, (2,), jnp.float16)",
    f"jax.nn.initializers.constant(2.5)({K}, (2, 3))",
    f"jax.nn.initializers.constant(jnp.arange(3.0), jnp.int8)({K}, (2, 3))",
    f"jax.nn.initializers.constant(-1)({K}, (4,), jnp.bfloat16)",
    f"jax.nn.initializers.uniform()({K}, (3, 4))",
    f"jax.nn.initializers.uniform(2.0, jnp.float16)({K}, (3, 4))",
    f"jax.nn.initializers.uniform(scale=0.5)({K}, (5,), jnp.bfloat16)",
    f"jax.nn.initializers.normal()({K}, (3, 4))",
    f"jax.nn.initializers.normal(1.5)({K}, (3, 4), jnp.bfloat16)",
    f"jax.nn.initializers.normal(1.0, jnp.complex64)({K}, (3,))",
    "jax.nn.initializers.normal(1.0)(random.PRNGKey(0), (2, 2), jnp.float16)",
    f"jax.nn.initializers.truncated_normal()({K}, (3, 4))",
    f"jax.nn.initializers.truncated_normal(2.0, lower=-1.0, upper=0.5)({K}, (6,))",
    f"jax.nn.initializers.truncated_normal(1.0, jnp.float16)({K}, (6,))",
    f"jax.nn.initializers.orthogonal()({K}, (3, 3))",
    f"jax.nn.initializers.orthogonal(2.0)({K}, (4, 2))",
    f"jax.nn.initializers.orthogonal(column_axis=0)({K}, (3, 2, 5))",
    f"jax.nn.initializers.orthogonal()({K}, (2, 0))",
    f"jax.nn.initializers.orthogonal()({K}, (4,))",
    f"jax.nn.initializers.orthogonal(dtype=jnp.complex64)({K}, (3, 3))",
    f"jax.nn.initializers.delta_orthogonal()({K}, (3, 2, 4))",
    f"jax.nn.initializers.delta_orthogonal(0.5)({K}, (3, 3, 2, 2))",
    f"jax.nn.initializers.delta_orthogonal()({K}, (2, 3, 4, 3, 3))",
    f"jax.nn.initializers.delta_orthogonal()({K}, (3, 4))",
    f"jax.nn.initializers.delta_orthogonal()({K}, (3, 4, 2))",
    f"jax.nn.initializers.orthogonal()({K}, (3, 3), out_sharding=jax.sharding.PartitionSpec())",
    f"jax.nn.initializers.zeros({K}, (2,), out_sharding=jax.sharding.PartitionSpec())",
    f"jax.nn.initializers.glorot_uniform()({K}, (5,))",
    f"jax.nn.initializers.lecun_normal(in_axis=0, out_axis=0)({K}, (5,))",
    f"jax.nn.initializers.variance_scaling(1.0, 'fan_mean', 'normal')({K}, (2, 3))",
    f"jax.nn.initializers.variance_scaling(1.0, 'fan_in', 'cauchy')({K}, (2, 3))",
    f"jax.nn.initializers.variance_scaling(1.0, 'fan_in', 'normal')({K}, (0, 3))",
    f"jax.nn.initializers.variance_scaling(jnp.float32(3.0), 'fan_out', 'normal')({K}, (2, 3))",
    f"jax.jit(lambda k: jax.nn.initializers.he_normal()(k, (4, 3)))({K})",
    f"jax.vmap(lambda k: jax.nn.initializers.glorot_uniform()(k, (4, 3)))(random.split({K}, 3))",
    f"jax.jit(jax.nn.initializers.orthogonal(), static_argnums=1)({K}, (3, 4))",
]
for name in NAMED:
    EXPRS += [
        f"jax.nn.initializers.{name}()({K}, (4, 3))",
        f"jax.nn.initializers.{name}()({K}, (3, 3, 2, 5), jnp.bfloat16)",
        f"jax.nn.initializers.{name}(in_axis=0, out_axis=(1, 2), batch_axis=3)({K}, (3, 2, 4, 2))",
        f"jax.nn.initializers.{name}(dtype=jnp.complex64)({K}, (4, 3))",
    ]
for mode in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
    for dist in ("truncated_normal", "normal", "uniform"):
        EXPRS += [
            f"jax.nn.initializers.variance_scaling(2.0, {mode!r}, {dist!r})({K}, (3, 5))",
            f"jax.nn.initializers.variance_scaling(0.5, {mode!r}, {dist!r}, in_axis=-1, out_axis=-2)({K}, (2, 3, 5), jnp.float16)",
            f"jax.nn.initializers.variance_scaling(1.0, {mode!r}, {dist!r})({K}, (3, 5), jnp.complex64)",
        ]
CALLS = [Call(e) for e in EXPRS] + [
    Call(f"jax.nn.initializers.he_uniform()({K}, (4, 5))", x64=True),
    Call(f"jax.nn.initializers.glorot_normal()({K}, (4, 5), jnp.complex128)", x64=True),
    Call(f"jax.nn.initializers.orthogonal()({K}, (4, 5))", x64=True),
    Call(f"jax.nn.initializers.normal()({K}, (4, 5))", x64=True),
    Call(f"jax.nn.initializers.truncated_normal()({K}, (4, 5))", x64=True),
]
live = live_fixture(CALLS)
# JAX raises a bare NotImplementedError here; jax_core's says what to do instead.
OWN_MESSAGE = {f"jax.nn.initializers.orthogonal()({K}, (3, 3), out_sharding=jax.sharding.PartitionSpec())"}


@pytest.mark.parametrize("call", CALLS, ids=[c.expr + (" x64" if c.x64 else "") for c in CALLS])
def test_same_as_jax(call: Call, live: dict[str, Outcome]) -> None:
    theirs = live[call.expr]
    assert_same(here(call), theirs, call.expr, messages=theirs.error is not None and call.expr not in OWN_MESSAGE)


def test_initializer_protocol() -> None:
    made = [init.constant(1.0), init.uniform(), init.normal(), init.truncated_normal(), init.orthogonal(),
            init.delta_orthogonal(), init.variance_scaling(1.0, "fan_in", "normal"), init.he_normal()]  # fmt: skip
    for fn in [*made, init.zeros, init.ones]:
        assert isinstance(fn, init.Initializer)
    assert init.xavier_uniform is init.glorot_uniform and init.kaiming_normal is init.he_normal


def test_named_sharding_places_the_result() -> None:
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("x",))
    sharding = jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec())
    out = init.glorot_normal()(jax.random.key(0), (3, 4), out_sharding=sharding)
    assert out.sharding == sharding
    np.testing.assert_array_equal(np.asarray(out), np.asarray(init.glorot_normal()(jax.random.key(0), (3, 4))))
    assert jnp.zeros(1).dtype == init.zeros(jax.random.key(0), (1,)).dtype
