"""``jax_core.extend.backend`` and ``jax_core.extend.sharding``: backends, compile options,
caches, and serialized sharding protos, compared live with real JAX where values are exact."""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.extend import backend as jeb
from jax_core.extend import sharding as jes
from tests.oracle.client import Outcome, assert_same, here, live_fixture, program_call

_PRELUDE = """
import importlib
jeb = importlib.import_module(jax.__name__ + '.extend.backend')
jes = importlib.import_module(jax.__name__ + '.extend.sharding')
xc = jes.xla_client
import numpy as np
def ser(h):
    return jes.get_serialized_proto_from_hlo_sharding(h).hex()
def options(*args, **kwargs):
    o = jeb.get_compile_options(*args, **kwargs)
    b = o.executable_build_options
    return [o.num_replicas, o.num_partitions, str(o.device_assignment), b.use_spmd_partitioning,
            b.optimization_level, b.memory_fitting_level, o.profile_version,
            b.debug_options.xla_detailed_logging, list(o.env_option_overrides)]
"""

HLO_SHARDINGS = [
    "xc.HloSharding.replicate()",
    "xc.HloSharding.manual()",
    "xc.HloSharding.iota_tile([4, 1])",
    "xc.HloSharding.iota_tile([2, 3], reshape_dims=[3, 2], transpose_perm=[1, 0])",
    "xc.HloSharding.iota_tile([2, 1, 2], subgroup_types=[xc.OpSharding.Type.REPLICATED])",
]

CASES = [
    *(f"ser({h})" for h in HLO_SHARDINGS),
    *(
        f"str(jes.get_hlo_sharding_from_serialized_proto(bytes.fromhex(ser({h}))))"
        for h in HLO_SHARDINGS
    ),
    *(
        f"jes.get_op_sharding_from_serialized_proto(bytes.fromhex(ser({h}))).SerializeToString().hex()"
        for h in HLO_SHARDINGS
    ),
    *(
        f"str(jes.get_op_sharding_from_serialized_proto(bytes.fromhex(ser({h}))).type)"
        for h in HLO_SHARDINGS
    ),
    *(
        f"jes.get_hlo_sharding_from_serialized_proto(bytes.fromhex(ser({h}))) == {h}"
        for h in HLO_SHARDINGS
    ),
    "repr(jes.GSPMDSharding(jax.devices(), xc.HloSharding.replicate()))",
    "jes.GSPMDSharding(jax.devices(), xc.HloSharding.replicate()).is_fully_replicated",
    "str(jes.GSPMDSharding(jax.devices(), xc.HloSharding.replicate()).devices_indices_map((4, 2)))",
    "jes.xla_client.OpSharding.Type.OTHER == jes.get_op_sharding_from_serialized_proto(bytes.fromhex(ser(xc.HloSharding.iota_tile([4, 1])))).type",
    "sorted(jeb.backends())",
    "str(jeb.backend_xla_version())",
    "str(jeb.get_default_device())",
    "jeb.get_backend().platform",
    "jeb.get_backend('cpu').platform",
    "sorted(n for n in dir(jeb.ifrt_proxy) if not n.startswith('_'))",
    "options(1, 1)",
    "options(1, 2, device_assignment=[[0, 0]])",
    "options(2, 1, device_assignment=np.array([0, 0]))",
    "options(1, 1, device_assignment=np.array([jax.devices()[0]], dtype=object), detailed_logging=False)",
    "options(1, 1, env_options_overrides={'xla_cpu_enable_fast_math': True, 'optimization_level': 'O1'})",
]

ERROR_CASES = [
    "jeb.get_backend('foo')",
    "jeb.get_backend('TPU')",
    "jeb.get_backend('gpu')",
    "options(2, 1, device_assignment=[[0, 0]])",
    "options(1, 1, device_assignment=[[0, 0]])",
]

CALLS = {case: program_call(_PRELUDE, case) for case in (*CASES, *ERROR_CASES)}
live = live_fixture(list(CALLS.values()))


@pytest.mark.parametrize("case", CASES)
def test_matches_jax(case: str, live: dict[str, Outcome]) -> None:
    ours = here(CALLS[case])
    assert ours.leaves is not None, ours.describe()
    assert_same(ours, live[CALLS[case].expr], case)


@pytest.mark.parametrize("case", ERROR_CASES)
def test_errors_match_jax(case: str, live: dict[str, Outcome]) -> None:
    ours, theirs = here(CALLS[case]), live[CALLS[case].expr]
    assert ours.error is not None and ours.error == theirs.error, (
        ours.describe(),
        theirs.describe(),
    )
    assert ours.message == theirs.message


# -- without the oracle ------------------------------------------------------------------------


def test_serialized_proto_round_trip() -> None:
    xc: Any = jes.xla_client
    hlo = xc.HloSharding.iota_tile([2, 2])
    data = jes.get_serialized_proto_from_hlo_sharding(hlo)
    assert isinstance(data, bytes) and data
    assert jes.get_hlo_sharding_from_serialized_proto(data) == hlo
    op = jes.get_op_sharding_from_serialized_proto(data)
    assert isinstance(op, jes.XlaOpShardingProto)
    assert list(op.tile_assignment_dimensions) == [2, 2]
    assert jes.XlaOpShardingProto is xc.OpSharding


def test_gspmd_sharding_places_arrays() -> None:
    xc: Any = jes.xla_client
    sharding = jes.GSPMDSharding(jax.devices()[:1], xc.HloSharding.replicate())
    x = jax.device_put(jnp.arange(4.0), sharding)
    assert x.sharding.is_equivalent_to(sharding, 1)
    assert np.asarray(x).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_backends_and_default_device() -> None:
    assert set(jeb.backends()) >= {"cpu"}
    assert jeb.get_backend() is jeb.backends()["cpu"]
    assert jeb.get_backend(jeb.get_backend()) is jeb.get_backend()
    assert jeb.get_default_device() == jax.devices()[0]
    assert callable(jeb.ifrt_proxy.get_client)


@pytest.fixture
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Backends registered by a test are forgotten after it."""
    from jax_core._src.transforms import backend_api

    for name in ("_factories", "_clients", "_errors", "_topology_factories"):
        monkeypatch.setattr(backend_api, name, {})
    monkeypatch.setattr(backend_api, "_tried", set[str]())


class _FakeClient:
    platform = "fake"
    xla_version = 7


@pytest.mark.usefixtures("fresh_registry")
def test_register_backend_factory() -> None:
    made: list[int] = []

    def factory() -> Any:
        made.append(1)
        return _FakeClient()

    def broken() -> Any:
        raise OSError("no such device")

    jeb.register_backend_factory("fake_for_test", factory, priority=5)
    jeb.register_backend_factory("broken_for_test", broken)
    assert jeb.get_backend("fake_for_test").platform == "fake"
    assert jeb.backend_xla_version("fake_for_test") == 7
    assert jeb.get_backend() is jeb.backends()["cpu"]
    with pytest.raises(
        RuntimeError,
        match="Backend 'broken_for_test' failed to initialize: OSError: no such device",
    ):
        jeb.get_backend("broken_for_test")
    with pytest.raises(RuntimeError, match="Backend fake_for_test already initialized"):
        jeb.register_backend_factory("fake_for_test", factory)
    with pytest.raises(RuntimeError, match="Backend cpu already initialized"):
        jeb.register_backend_factory("cpu", factory)
    jeb.clear_backends()  # the registered client is made again on next use; cpu stays
    assert "fake_for_test" in jeb.backends() and len(made) == 2
    assert jax.numpy.add(1, 2).tolist() == 3


@pytest.mark.usefixtures("fresh_registry")
def test_fail_loudly_factory_raises() -> None:
    def broken() -> Any:
        return None

    jeb.register_backend_factory("loud_for_test", broken, fail_quietly=False)
    with pytest.raises(RuntimeError, match="Could not initialize backend 'loud_for_test'"):
        jeb.backends()


def test_register_backend_cache_is_cleared() -> None:
    calls: list[int] = []

    @functools.lru_cache
    def cached(x: int) -> int:
        calls.append(x)
        return x

    jeb.register_backend_cache(cached, "test cache")
    cached(1)
    cached(1)
    assert calls == [1]
    jeb.clear_in_memory_compilation_cache()
    cached(1)
    assert calls == [1, 1]
    jeb.clear_backends()
    cached(1)
    assert calls == [1, 1, 1]


def test_clear_in_memory_compilation_cache_keeps_functions_working() -> None:
    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        return x + 1

    assert f(jnp.float32(1.0)).tolist() == 2.0
    jeb.clear_in_memory_compilation_cache()
    assert f(jnp.float32(3.0)).tolist() == 4.0
    assert jnp.sin(0.0).tolist() == 0.0


def test_compile_options_compile_a_module() -> None:
    from jax_core._src.backend import client

    def double(x: jax.Array) -> jax.Array:
        return x * 2

    text = jax.jit(double).lower(jnp.ones(3, jnp.float32)).as_text()
    options = jeb.get_compile_options(1, 1, device_assignment=[[jax.devices()[0].id]])
    backend: Any = jeb.get_backend()
    exe = backend.compile_and_load(text, client.device_list((jax.devices()[0],)), options)
    assert len(exe.hlo_modules()) == 1
    assert "multiply" in exe.hlo_modules()[0].to_string()


def test_public_names_and_signatures() -> None:
    backend_names = {
        "backend_xla_version", "backends", "clear_backends", "clear_in_memory_compilation_cache", "get_backend",
        "get_compile_options", "get_default_device", "ifrt_proxy", "register_backend_cache",
        "register_backend_factory",
    }  # fmt: skip
    assert backend_names <= set(dir(jeb))
    sharding_names = {
        "GSPMDSharding", "XlaOpShardingProto", "get_hlo_sharding_from_serialized_proto",
        "get_op_sharding_from_serialized_proto", "get_serialized_proto_from_hlo_sharding", "xla_client",
    }  # fmt: skip
    assert sharding_names <= set(dir(jes))
    assert list(inspect.signature(jeb.get_compile_options).parameters) == [
        "num_replicas", "num_partitions", "device_assignment", "env_options_overrides", "fdo_profile",
        "detailed_logging", "backend",
    ]  # fmt: skip
    assert list(inspect.signature(jeb.register_backend_factory).parameters) == [
        "name", "factory", "priority", "fail_quietly", "experimental", "make_topology", "c_api",
    ]  # fmt: skip


def test_clear_in_memory_compilation_cache_recompiles() -> None:
    traces: list[int] = []

    @jax.jit
    def f(x: jax.Array) -> jax.Array:
        traces.append(1)
        return x + 1

    f(jnp.float32(1.0))
    f(jnp.float32(2.0))
    assert len(traces) == 1
    jeb.clear_in_memory_compilation_cache()
    assert f(jnp.float32(3.0)).tolist() == 4.0
    assert len(traces) == 2
    jax.clear_caches()
    f(jnp.float32(4.0))
    assert len(traces) == 3
