"""``jax_core.experimental.multihost_utils`` against real JAX 0.12, process by process.

Three programs run through ``tests/distributed/_launch.py`` under jax_core and under real JAX:
2 processes x 4 CPU devices (most cases), 4 processes x 2 devices (meshes whose process blocks
are columns), and 1 process x 4 devices without ``distributed.initialize`` (JAX's single-process
fast paths, errors for bad input, and the jaxprs the conversion primitives' rules give under
``vmap``/``grad``/``jvp``). Every process's cases must give the same values, shapes, dtypes,
shardings and exception classes and messages in both. The in-process tests check the
single-process behaviour and the primitives' rules without a launch (and without the oracle).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import jax_core as jax
import jax_core.numpy as jnp
from jax_core.experimental import multihost_utils
from jax_core.sharding import Mesh, NamedSharding
from jax_core.sharding import PartitionSpec as P
from tests.distributed._launch import results_of, run_processes
from tests.oracle import client

# Their rules (abstract eval, identity lowering, jvp, transpose, batching) run in the
# single-process program and in test_conversion_rules_in_process.
COVERED = {"host_local_array_to_global_array", "global_array_to_host_local_array"}

TWO_BY_FOUR = r"""
pid = jax.process_index()
mesh2 = global_mesh((2, 4), ("host", "dev"))
mesh8 = global_mesh((8,), ("x",))
l2g = multihost_utils.host_local_array_to_global_array
g2l = multihost_utils.global_array_to_host_local_array

@case
def basics():
    return [jax.process_count(), jax.local_device_count(), [d.id for d in jax.local_devices()]]

@case
def allgather_stack():
    out = multihost_utils.process_allgather(np.arange(6, dtype=np.int32).reshape(2, 3) + 10 * pid)
    return [type(out).__name__, val(out)]

@case
def allgather_tiled_tree():
    out = multihost_utils.process_allgather({"a": np.arange(3) * (pid + 1), "s": pid, "f": np.float32(pid) / 4,
                                             "b": np.array([pid == 0, True])}, tiled=True)
    return {k: val(v) for k, v in sorted(out.items())}

@case
def allgather_jax_array_and_bf16():
    return [val(multihost_utils.process_allgather(jnp.arange(4, dtype=jnp.float32) + pid)),
            val(multihost_utils.process_allgather(np.array([1.5, pid], dtype=jnp.bfloat16)))]

@case
def allgather_repeated():
    return [val(multihost_utils.process_allgather(np.full((2,), i + pid))) for i in range(3)]

@case
def allgather_global():
    g = jax.make_array_from_callback((8, 2), NamedSharding(mesh8, P("x")), lambda i: np.arange(16).reshape(8, 2)[i])
    return val(multihost_utils.process_allgather(g, tiled=True))

@case
def allgather_global_untiled():
    g = jax.make_array_from_callback((8,), NamedSharding(mesh8, P("x")), lambda i: np.arange(8)[i])
    return val(multihost_utils.process_allgather(g))

@case
def broadcast_default():
    out = multihost_utils.broadcast_one_to_all({"a": np.arange(3) + 100 * pid, "b": np.float32(pid + 0.5),
                                                "c": np.array([[pid == 0]]), "d": np.int8(-3 - pid)})
    return {k: [type(v).__name__, val(v)] for k, v in sorted(out.items())}

@case
def broadcast_from_1():
    return val(multihost_utils.broadcast_one_to_all(np.arange(4, dtype=np.uint8) * (pid + 1), is_source=pid == 1))

@case
def broadcast_mixed():
    out = multihost_utils.broadcast_one_to_all({"e": pid + 7, "f": jnp.float32(pid) + 0.25,
                                                "g": jnp.arange(3, dtype=jnp.int16) * (pid + 2), "h": 1.5 + pid})
    return {k: [type(v).__name__, val(v)] for k, v in sorted(out.items())}

@case
def broadcast_no_source():
    return val(multihost_utils.broadcast_one_to_all(np.arange(3.0) + 1, is_source=False))

@case
def sync_ok():
    return multihost_utils.sync_global_devices("barrier-1")

@case
def sync_mismatch():
    return multihost_utils.sync_global_devices(f"barrier-{pid}")

@case
def assert_equal_ok():
    return multihost_utils.assert_equal({"a": np.arange(3), "b": 2.5}, "same")

@case
def assert_equal_differs():
    return multihost_utils.assert_equal(np.arange(3) + pid, "differs")

@case
def assert_equal_replicated_global():
    return multihost_utils.assert_equal(l2g(np.arange(4.0), mesh2, P()), "replicated")

@case
def preemption():
    return multihost_utils.reached_preemption_sync_point(3)

@case
def l2g_over_hosts():
    g = l2g(np.arange(8).reshape(4, 2) + 100 * pid, mesh2, P("host"))
    return [list(g.shape), str(g.dtype), g.is_fully_addressable, sharding_of(g), local_val(g)]

@case
def l2g_over_all_devices():
    g = l2g(np.arange(8).reshape(4, 2) + 100 * pid, mesh2, P(("host", "dev")))
    return [list(g.shape), sharding_of(g), local_val(g), val(multihost_utils.process_allgather(g, tiled=True))]

@case
def l2g_replicated_value():
    g = l2g(np.arange(4.0), mesh2, P())
    return [list(g.shape), g.is_fully_addressable, g.is_fully_replicated, np.asarray(g).tolist()]

@case
def round_trip_tree():
    tree = {"a": np.arange(16, dtype=np.float32).reshape(8, 2) + pid, "b": np.arange(4) * pid}
    specs = {"a": P("dev"), "b": P("host")}
    g = l2g(tree, mesh2, specs)
    l = g2l(g, mesh2, specs)
    return {k: [list(g[k].shape), list(l[k].shape), l[k].is_fully_addressable, sharding_of(l[k]), val(l[k])] for k in tree}

@case
def jit_between():
    g = l2g(np.arange(8, dtype=np.float32) + 10 * pid, mesh8, P("x"))
    with jax.set_mesh(mesh8):
        y = jax.jit(lambda v: v * 2 + 1, out_shardings=P("x"))(g)
    return [list(y.shape), val(g2l(y, mesh8, P("x")))]

@case
def g2l_reshards_first():
    g = jax.make_array_from_callback((8, 4), NamedSharding(mesh2, P(None, "dev")), lambda i: np.arange(32).reshape(8, 4)[i])
    l = g2l(g, mesh2, P("host"))
    return [sharding_of(l), val(l)]

@case
def passthrough():
    g = l2g(np.arange(4), mesh2, P("host"))
    l = g2l(g, mesh2, P("host"))
    return [l2g(g, mesh2, P("host")) is g, g2l(l, mesh2, P("host")) is l]

@case
def keys_round_trip():
    g = l2g(jax.random.split(jax.random.key(pid), 4), mesh2, P(("host", "dev")))
    l = g2l(g, mesh2, P(("host", "dev")))
    return [str(g.dtype), list(g.shape), str(l.dtype), list(l.shape), val(jax.random.key_data(l))]

@case
def vmap_l2g():
    y = jax.vmap(lambda x: l2g(x, mesh2, P("host")), in_axes=1)(np.ones((4, 3)) * pid)
    return [list(y.shape), sharding_of(y), local_val(y)[:2]]

@case
def vmap_g2l():
    g = l2g(np.arange(12.0).reshape(4, 3) + pid, mesh2, P("host"))
    y = jax.vmap(lambda x: g2l(x, mesh2, P("host")), in_axes=1)(g)
    return [list(y.shape), y.is_fully_addressable, local_val(y)[:2]]

@case
def err_none_spec():
    return l2g(np.arange(4), mesh2, None)

@case
def err_none_spec_g2l():
    return g2l(np.arange(4), mesh2, None)

@case
def err_value_of_global():
    return np.asarray(l2g(np.arange(4), mesh2, P("host"))).tolist()

@case
def err_noncontiguous_mesh():
    mesh = jax.sharding.Mesh(np.array(jax.devices())[[0, 4, 1, 5, 2, 6, 3, 7]], ("x",))
    return l2g(np.arange(4.0), mesh, P("x"))

@case
def assert_equal_sharded_global():
    try:
        multihost_utils.assert_equal(l2g(np.arange(4.0), mesh8, P("x")), "sharded")
    except AssertionError as e:
        return ["AssertionError", str(e).startswith("sharded. Expected: [0. 1. 2. 3. 0. 1. 2. 3.]")]
    return "passed"

@case
def key_data_of_global_keys():
    g = l2g(jax.random.split(jax.random.key(pid), 4), mesh2, P(("host", "dev")))
    return [g.is_fully_addressable, val(multihost_utils.process_allgather(jax.random.key_data(g), tiled=True))]
"""

FOUR_BY_TWO = r"""
pid = jax.process_index()
n, k = jax.process_count(), jax.local_device_count()
# Each process's devices are a column of this mesh.
columns = jax.sharding.Mesh(np.array(jax.devices()).reshape(n, k).T, ("dev", "host"))

@case
def allgather():
    return [val(multihost_utils.process_allgather(np.arange(3) + 10 * pid)),
            val(multihost_utils.process_allgather(np.float32(pid), tiled=True))]

@case
def broadcast_from_2():
    return val(multihost_utils.broadcast_one_to_all(np.arange(3) + 10 * pid, is_source=pid == 2))

@case
def round_trip_columns():
    g = multihost_utils.host_local_array_to_global_array(np.arange(8).reshape(2, 4) + 100 * pid, columns, P("dev", "host"))
    l = multihost_utils.global_array_to_host_local_array(g, columns, P("dev", "host"))
    return [list(g.shape), sharding_of(g), local_val(g), val(multihost_utils.process_allgather(g, tiled=True)),
            sharding_of(l), val(l)]

@case
def sync_and_assert():
    multihost_utils.sync_global_devices("four")
    return multihost_utils.assert_equal(np.arange(2), "eq")
"""

ONE_BY_FOUR = r"""
# no-initialize
mesh = jax.sharding.Mesh(np.array(jax.devices()), ("x",))
mesh22 = jax.sharding.Mesh(np.array(jax.devices()).reshape(2, 2), ("a", "b"))
l2g = multihost_utils.host_local_array_to_global_array
g2l = multihost_utils.global_array_to_host_local_array

def err(f):
    try:
        f()
    except Exception as e:
        return [type(e).__name__, str(e).split("\n--------")[0]]
    return "no error"

@case
def allgather():
    out = multihost_utils.process_allgather({"a": np.arange(3), "b": 2.5, "c": jnp.ones((2, 2), jnp.bfloat16), "d": np.int16(4)})
    tiled = multihost_utils.process_allgather([np.arange(3), 7], tiled=True)
    return [{k: [type(v).__name__, val(v)] for k, v in sorted(out.items())}, [[type(v).__name__, val(v)] for v in tiled]]

@case
def broadcast():
    out = multihost_utils.broadcast_one_to_all({"a": 1, "b": jnp.arange(2.0), "c": np.float16(3)}, is_source=False)
    return {k: [type(v).__name__, val(v)] for k, v in sorted(out.items())}

@case
def sync_assert_preemption():
    return [multihost_utils.sync_global_devices("x"), multihost_utils.assert_equal({"a": np.arange(3)}, "m"),
            multihost_utils.reached_preemption_sync_point(5), jax.distributed.is_initialized()]

@case
def l2g_tree():
    g = l2g({"i": np.arange(8, dtype=np.int64).reshape(4, 2), "f": np.float32(1.5), "b": np.array([True, False, True, True])},
            mesh22, {"i": P("a", "b"), "f": P(), "b": P(("a", "b"))})
    return {k: [sharding_of(v), str(v.dtype), v.weak_type, v.committed, local_val(v)] for k, v in sorted(g.items())}

@case
def l2g_jax_inputs():
    x = jnp.arange(8.0)
    y = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))
    gx, gy = l2g((x, y), mesh, P("x"))
    return [sharding_of(gx), val(gx), sharding_of(gy), val(gy), gy is y]

@case
def g2l_values():
    y = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))
    h = g2l(np.arange(6, dtype=np.int64).reshape(2, 3), mesh22, P("a"))
    return [g2l(y, mesh, P("x")) is y, sharding_of(h), str(h.dtype), val(h)]

@case
def float0_and_keys():
    z = l2g(np.zeros((4,), dtype=jax.dtypes.float0), mesh, P("x"))
    k = l2g(jax.random.split(jax.random.key(3), 4), mesh, P("x"))
    back = g2l(k, mesh, P("x"))
    return [str(z.dtype), val(z), str(k.dtype), sharding_of(k), val(jax.random.key_data(k)), back is k,
            val(jax.random.key_data(back))]

@case
def jaxprs():
    f = lambda x: l2g(x, mesh, P("x"))
    g = lambda x: g2l(x, mesh, P("x"))
    x = np.ones((4, 3), np.float32)
    return [str(jax.make_jaxpr(f)(x)), str(jax.make_jaxpr(g)(x)),
            str(jax.make_jaxpr(jax.vmap(f, in_axes=1))(x)), str(jax.make_jaxpr(jax.vmap(g, in_axes=1))(x)),
            str(jax.make_jaxpr(jax.grad(lambda v: f(v).sum()))(x)), str(jax.make_jaxpr(jax.grad(lambda v: g(v).sum()))(x)),
            str(jax.make_jaxpr(lambda v: jax.jvp(f, (v,), (v,)))(x))]

@case
def transformed_values():
    f = lambda x: l2g(x, mesh, P("x"))
    g = lambda x: g2l(x, mesh, P("x"))
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    return [val(jax.jit(lambda v: f(v) * 2)(x)), val(jax.jit(g)(x)), val(jax.grad(lambda v: (f(v) ** 2).sum())(x)),
            val(jax.vmap(f, in_axes=1)(x)), val(jax.vmap(g)(x)), [val(t) for t in jax.jvp(g, (x,), (x + 1,))],
            val(jax.linear_transpose(f, x)(x))]

@case
def errors():
    x = np.arange(4.0)
    return [err(lambda: l2g(x, mesh, None)), err(lambda: g2l(x, mesh, None)),
            err(lambda: l2g(np.arange(3.0), mesh, P("x"))), err(lambda: g2l(np.arange(3.0), mesh, P("x"))),
            err(lambda: jax.jit(lambda v: l2g(v, mesh, P("x")))(np.arange(3.0))),
            err(lambda: l2g(x, mesh, P("y"))), err(lambda: g2l(x, mesh, P("y"))),
            err(lambda: l2g((x, x), mesh, [P(), P()])), err(lambda: l2g((x, x), mesh, (P(), P(), P()))),
            err(lambda: g2l({"a": x}, mesh, {"b": P()})), err(lambda: l2g(((x, x),), mesh, ((P(), P(), P()),))),
            err(lambda: l2g([x], mesh, [P()])), err(lambda: l2g((x,), mesh, (P(), P()))),
            err(lambda: l2g(x, mesh, (P(),))), err(lambda: l2g({"a": x, "b": x}, mesh, {"a": P(), "c": P()}))]
"""

PROGRAMS = {
    "two_by_four": (TWO_BY_FOUR, {"num_processes": 2, "local_devices": 4}),
    "four_by_two": (FOUR_BY_TWO, {"num_processes": 4, "local_devices": 2}),
    "one_by_four": (ONE_BY_FOUR, {"num_processes": 1, "local_devices": 4}),
}



@functools.cache
def _results(program: str, which: str) -> tuple[dict[str, Any], ...]:
    """Each process's case results of one program under ``which`` (run once per test session)."""
    source, shape = PROGRAMS[program]
    return tuple(results_of(run_processes(source, which, timeout_s=90, **shape)))


def _theirs(program: str) -> tuple[dict[str, Any], ...]:
    client.need()
    return _results(program, "jax")


def _assert_same(program: str, skip: frozenset[str] = frozenset()) -> None:
    ours, theirs = _results(program, "jax_core"), _theirs(program)
    assert len(ours) == len(theirs) == PROGRAMS[program][1]["num_processes"]
    for pid, (mine, real) in enumerate(zip(ours, theirs, strict=True)):
        assert mine.keys() == real.keys()
        for name in real.keys() - skip:
            assert mine[name] == real[name], f"process {pid}, case {name}"


def test_two_processes_match_jax() -> None:
    _assert_same("two_by_four")


def test_four_processes_match_jax() -> None:
    _assert_same("four_by_two")


def test_one_process_matches_jax() -> None:
    _assert_same("one_by_four")


def test_two_processes_values() -> None:
    """What the 2 x 4 run gives under jax_core (checked without the oracle too)."""
    p0, p1 = _results("two_by_four", "jax_core")
    rows = [[[0, 1, 2], [3, 4, 5]], [[10, 11, 12], [13, 14, 15]]]
    for r in (p0, p1):
        assert r["allgather_stack"]["ok"] == [
            "ndarray",
            {"dtype": "int32", "shape": [2, 2, 3], "values": rows},
        ]
        assert r["allgather_tiled_tree"]["ok"]["a"]["values"] == [0, 1, 2, 0, 2, 4]
        assert r["broadcast_from_1"]["ok"]["values"] == [0, 2, 4, 6]
        assert r["broadcast_default"]["ok"]["d"] == [
            "ndarray",
            {"dtype": "int8", "shape": [], "values": -3},
        ]
        assert r["sync_ok"] == {"ok": None} and r["assert_equal_ok"] == {"ok": None}
        assert r["l2g_over_all_devices"]["ok"][0] == [8, 2]
        assert r["allgather_global_untiled"]["error"] == "ValueError"
        assert r["err_none_spec"]["error"] == "ValueError"
    assert p0["sync_mismatch"]["message"].startswith(
        "sync_global_devices name mismatch ('barrier-0'). Expected: ["
    )
    assert p1["assert_equal_differs"] == {
        "error": "AssertionError", "message": "differs. Expected: [0 1 2 1 2 3]; got: [1 2 3]."
    }  # fmt: skip
    assert p1["round_trip_tree"]["ok"]["b"][4]["values"] == [0, 1, 2, 3]


def test_preemption_sync_point_in_a_run() -> None:
    """``initialize`` starts jaxlib's preemption sync manager, as JAX does: with no preemption
    notice, no process has reached a sync point."""
    for r in _results("two_by_four", "jax_core"):
        assert r["preemption"] == {"ok": False}
    assert [r["preemption"] for r in _theirs("two_by_four")] == [{"ok": False}] * 2


# -- in process (one process, no distributed run) -------------------------------------------------
def _mesh() -> Mesh:
    return Mesh(np.array(jax.devices()), ("x",))


def test_single_process_collectives() -> None:
    out = multihost_utils.process_allgather({"a": np.arange(3), "s": 2})
    assert (
        type(out["a"]) is np.ndarray
        and out["a"].shape == (1, 3)
        and out["a"].tolist() == [[0, 1, 2]]
    )
    assert (
        out["s"].shape == (1,) and out["s"].dtype == np.int64
    )  # as JAX: np.asarray, not canonicalised
    tiled = multihost_utils.process_allgather(jnp.arange(4.0), tiled=True)
    assert type(tiled) is np.ndarray and tiled.tolist() == [0.0, 1.0, 2.0, 3.0]
    sent = multihost_utils.broadcast_one_to_all(
        (np.int64(5), jnp.ones(2, jnp.int8)), is_source=False
    )
    assert [type(v) for v in sent] == [np.ndarray, np.ndarray]
    assert sent[0].dtype == np.int64 and sent[1].dtype == np.int8 and sent[1].tolist() == [1, 1]
    assert multihost_utils.sync_global_devices("a") is None
    assert multihost_utils.assert_equal([np.arange(3), 1.5], "m") is None
    assert multihost_utils.reached_preemption_sync_point(7) is False


def test_conversions_in_process() -> None:
    mesh, n = _mesh(), jax.device_count()
    x = np.arange(4 * n, dtype=np.int64).reshape(2 * n, 2)
    g = multihost_utils.host_local_array_to_global_array(x, mesh, P("x"))
    assert g.shape == x.shape and g.dtype == np.int32 and not g.weak_type and g.committed
    assert g.sharding == NamedSharding(mesh, P("x")) and np.asarray(g).tolist() == x.tolist()
    assert multihost_utils.global_array_to_host_local_array(g, mesh, P("x")) is g
    h = multihost_utils.global_array_to_host_local_array(
        {"k": np.ones((n, 3), np.float32)}, mesh, {"k": P("x")}
    )
    assert h["k"].sharding == NamedSharding(mesh, P("x")) and h["k"].shape == (n, 3)
    z = multihost_utils.host_local_array_to_global_array(
        np.zeros((n,), jax.dtypes.float0), mesh, P("x")
    )
    assert z.dtype == np.bool_ and not np.asarray(z).any()
    keys = jax.random.split(jax.random.key(1), n)
    gk = multihost_utils.host_local_array_to_global_array(keys, mesh, P("x"))
    assert gk.dtype == keys.dtype and gk.shape == (n,)
    assert np.array_equal(
        np.asarray(jax.random.key_data(gk)), np.asarray(jax.random.key_data(keys))
    )


def test_conversion_errors_in_process() -> None:
    mesh, x = _mesh(), np.arange(4.0)
    with pytest.raises(ValueError, match="^`None` is not a valid input to the pspecs argument"):
        multihost_utils.host_local_array_to_global_array(x, mesh, None)
    with pytest.raises(ValueError, match="^`None` is not a valid input to the pspecs argument"):
        multihost_utils.global_array_to_host_local_array(x, mesh, None)
    with pytest.raises(
        ValueError,
        match=r"But input pspecs is the wrong length: got a tuple or list of length 3 for an args tuple of length 2\.$",
    ):
        multihost_utils.host_local_array_to_global_array((x, x), mesh, (P(), P(), P()))
    with pytest.raises(
        ValueError, match=r"But output pspecs is not a tuple: got <class 'list'> instead\.$"
    ):
        multihost_utils.global_array_to_host_local_array((x, x), mesh, [P(), P()])
    with pytest.raises(ValueError, match="^Resource axis: y of"):
        multihost_utils.host_local_array_to_global_array(x, mesh, P("y"))


def test_conversion_rules_in_process() -> None:
    mesh, n = _mesh(), jax.device_count()
    l2g = lambda v: multihost_utils.host_local_array_to_global_array(v, mesh, P("x"))
    g2l = lambda v: multihost_utils.global_array_to_host_local_array(v, mesh, P("x"))
    x = np.arange(6 * n, dtype=np.float32).reshape(2 * n, 3)
    jaxpr = jax.make_jaxpr(l2g)(x)
    assert [e.primitive.name for e in jaxpr.eqns] == ["host_local_array_to_global_array"]
    assert jaxpr.eqns[0].params == {"global_mesh": mesh, "pspec": P("x")}
    assert (
        np.asarray(jax.jit(lambda v: l2g(v) * 2)(x)).tolist() == (x * 2).tolist()
    )  # identity lowering
    assert np.asarray(jax.jit(g2l)(x)).tolist() == x.tolist()
    assert np.asarray(jax.grad(lambda v: (l2g(v) ** 2).sum())(x)).tolist() == (2 * x).tolist()
    primal, tangent = jax.jvp(g2l, (x,), (x + 1,))
    assert (
        np.asarray(tangent).tolist() == (x + 1).tolist()
        and np.asarray(primal).tolist() == x.tolist()
    )
    (ct,) = jax.linear_transpose(g2l, x)(x)
    assert np.asarray(ct).tolist() == x.tolist()
    batched = jax.make_jaxpr(jax.vmap(l2g, in_axes=1))(x)
    assert batched.eqns[0].params["pspec"] == P("x", None)  # the batch dimension is not split
    assert np.asarray(jax.vmap(l2g, in_axes=1)(x)).tolist() == x.T.tolist()
    assert np.asarray(jax.vmap(g2l)(x)).tolist() == x.tolist()
    assert jax.eval_shape(g2l, x).shape == x.shape
