"""Global arrays across 2 processes x 4 CPU devices, jax_core beside real JAX on the same program:
what each process sees (devices, shards, errors) must be what JAX's process sees; the collectives
across processes must give the single-process 8-device results.

Values are integers (or float sums of small integers), so equality is exact on every CPU.
"""

from __future__ import annotations

from typing import Any

from tests.distributed._launch import results_of, run_both
from tests.sharding import _programs

# Cases use only jax's names, so the same text also runs in one process with 8 devices.
COLLECTIVES = """
shard_map = jax.shard_map

def _mesh8():
    return jax.make_mesh((8,), ("x",), axis_types=(AxisType.Explicit,))

def _global(shape, spec):
    m = _mesh8()
    n = int(np.prod(shape))
    return jax.make_array_from_callback(shape, NamedSharding(m, spec), lambda i: np.arange(n, dtype=np.int32).reshape(shape)[i])

def _replicated(x):
    return jax.jit(lambda y: y, out_shardings=NamedSharding(_mesh8(), P()))(x)

def whole(x):
    # Replicated over every process's devices: not fully addressable, yet each process holds it all.
    a = np.asarray(x)
    return {"dtype": str(a.dtype), "shape": list(a.shape), "values": a.tolist()}

def _smap(f, in_spec, out_spec):
    return jax.jit(shard_map(f, mesh=_mesh8(), in_specs=in_spec, out_specs=out_spec))

@case
def psum_across():
    x = _global((16,), P("x"))
    return whole(_replicated(_smap(lambda b: lax.psum(b, "x"), P("x"), P("x"))(x)))

@case
def all_gather_across():
    x = _global((8, 3), P("x"))
    return whole(_replicated(_smap(lambda b: lax.all_gather(b, "x", tiled=True), P("x"), P("x"))(x)))

@case
def ppermute_ring():
    x = _global((16,), P("x"))
    perm = [(i, (i + 1) % 8) for i in range(8)]
    return whole(_replicated(_smap(lambda b: lax.ppermute(b, "x", perm), P("x"), P("x"))(x)))

@case
def pmax_and_pmean():
    x = _global((8,), P("x"))
    out = _smap(lambda b: (lax.pmax(b, "x"), lax.pmean(b.astype(jnp.float32), "x")), P("x"), (P("x"), P("x")))(x)
    return [whole(_replicated(o)) for o in out]

@case
def jit_sum_over_all_devices():
    x = _global((4, 8), P(None, "x"))
    return whole(jax.jit(lambda y: (y * 2).sum(axis=0), out_shardings=NamedSharding(_mesh8(), P()))(x))
"""

PROCESS_VIEW = """
@case
def who():
    return {"index": jax.process_index(), "count": jax.process_count(), "indices": list(jax.process_indices()),
            "devices": [d.id for d in jax.devices()], "local": [d.id for d in jax.local_devices()],
            "owners": [d.process_index for d in jax.devices()], "device_count": jax.device_count(),
            "local_device_count": jax.local_device_count(), "default": jnp.ones(3).devices().pop().id}

def _mesh24():
    return global_mesh((2, 4), ("a", "b"))

def _cb(shape, spec, dtype=np.int32):
    data = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return jax.make_array_from_callback(shape, NamedSharding(_mesh24(), spec), lambda i: data[i])

@case
def callback_array_shards():
    x = _cb((4, 8), P("a", "b"))
    return {"shape": list(x.shape), "full": x.is_fully_addressable, "local": local_val(x),
            "n_global": len(x.global_shards), "none_data": sum(s.data is None for s in x.global_shards)}

@case
def reading_non_addressable_raises():
    x = _cb((4, 8), P("a", "b"))
    np.asarray(x)

@case
def reading_process_replicated_ok():
    x = _cb((4, 8), P(None, "b"))  # each process holds every block
    return {"full": x.is_fully_addressable, "value": val(x)}

@case
def process_local_data_batch():
    s = NamedSharding(_mesh24(), P("a"))
    local = np.arange(6, dtype=np.int32).reshape(3, 2) + 100 * jax.process_index()
    x = jax.make_array_from_process_local_data(s, local)
    return {"shape": list(x.shape), "local": local_val(x)}

@case
def process_local_data_sharded_on_both_axes():
    s = NamedSharding(_mesh24(), P("b", "a"))
    local = np.arange(16, dtype=np.int32).reshape(8, 2) + 100 * jax.process_index()
    x = jax.make_array_from_process_local_data(s, local)
    return {"shape": list(x.shape), "local": local_val(x)}

@case
def process_local_data_global_shape_given():
    s = NamedSharding(_mesh24(), P("a"))
    local = np.arange(8, dtype=np.int32).reshape(4, 2) + 10 * jax.process_index()
    x = jax.make_array_from_process_local_data(s, local, (8, 2))
    return {"shape": list(x.shape), "local": local_val(x)}

@case
def process_local_data_bad_shape():
    s = NamedSharding(_mesh24(), P("a"))
    jax.make_array_from_process_local_data(s, np.zeros((3, 2), np.int32), (8, 2))

@case
def single_device_arrays_global():
    m = _mesh24()
    s = NamedSharding(m, P("a", "b"))
    blocks = [jax.device_put(np.full((2, 2), d.id, np.int32), d) for d in jax.local_devices()]
    x = jax.make_array_from_single_device_arrays((4, 8), s, blocks)
    return {"shape": list(x.shape), "local": local_val(x)}

@case
def jit_with_named_sharding_out():
    x = _cb((4, 8), P("a", "b"))
    y = jax.jit(lambda v: v.T @ v, out_shardings=NamedSharding(_mesh24(), P("b")))(x)
    return {"shape": list(y.shape), "local": local_val(y), "spec": sharding_of(y)["spec"]}

@case
def local_mesh():
    m = _mesh24()
    return {"shape": list(m.local_mesh.devices.shape), "ids": [d.id for d in m.local_mesh.devices.flat],
            "local_devices": [d.id for d in m.local_devices]}

@case
def shutdown_clean():
    jax.distributed.shutdown()
    return jax.distributed.is_initialized()
"""


def _pairs(program: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    core, real = run_both(program)
    return list(zip(results_of(core), results_of(real), strict=True))


def test_each_process_sees_what_jax_process_sees() -> None:
    for pid, (mine, theirs) in enumerate(_pairs(PROCESS_VIEW)):
        assert mine.keys() == theirs.keys()
        for name in mine:
            assert mine[name] == theirs[name], f"process {pid}, case {name}:\njax_core {mine[name]}\njax      {theirs[name]}"
    # Not vacuous: the cases did what they claim on jax_core.
    who = mine["who"]["ok"]
    assert who["count"] == 2 and len(who["devices"]) == 8 and len(who["local"]) == 4
    assert mine["reading_non_addressable_raises"]["error"] == "RuntimeError"
    assert "non-addressable" in mine["reading_non_addressable_raises"]["message"]
    assert mine["callback_array_shards"]["ok"]["none_data"] == 4
    assert mine["shutdown_clean"] == {"ok": False}


def test_collectives_across_processes_equal_one_process_with_8_devices() -> None:
    per_process = _pairs(COLLECTIVES)
    single = _programs.run(COLLECTIVES, "jax_core", devices=8)
    for pid, (mine, theirs) in enumerate(per_process):
        for name in single:
            assert "ok" in mine[name], f"process {pid}, {name}: {mine[name]}"
            assert mine[name] == single[name], f"process {pid}, {name}: {mine[name]} != one process {single[name]}"
            assert mine[name] == theirs[name], f"process {pid}, {name}: jax_core {mine[name]} != jax {theirs[name]}"
    psum = single["psum_across"]["ok"]["values"]
    assert psum[:2] == [56, 64]  # the sums of the even and the odd elements of arange(16)


ONE_DEVICE_EACH = """
@case
def eager_ops_on_a_global_array():
    # One device per process: each process holds one shard, yet the array spans both processes.
    m = global_mesh((2,), ("x",))
    x = jax.make_array_from_callback((4,), NamedSharding(m, P("x")), lambda i: np.arange(4, dtype=np.int32)[i])
    return {"mul": local_val(x * 3), "sum": local_val(x.sum()), "where": local_val(jnp.where(x > 1, x, -x)),
            "sharding": sharding_of(x + 1), "info": jax.print_environment_info(True).splitlines()[-2]}
"""


def test_eager_ops_with_one_device_per_process_match_jax() -> None:
    core, real = run_both(ONE_DEVICE_EACH, local_devices=1)
    for pid, (mine, theirs) in enumerate(zip(results_of(core), results_of(real), strict=True)):
        assert "ok" in mine["eager_ops_on_a_global_array"], mine
        ours, jax_ = mine["eager_ops_on_a_global_array"]["ok"], theirs["eager_ops_on_a_global_array"]["ok"]
        info = ours.pop("info"), jax_.pop("info")
        assert ours == jax_, f"process {pid}: {ours} != {jax_}"
        assert info[0] == "process_count: 2"
    assert ours["sum"][0]["value"]["values"] == 6
