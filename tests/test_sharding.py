"""Tests for jax_core.sharding and device_put/device_get with shardings.

Multi-device behaviour needs 8 CPU devices, and the PjRt client is created once
per process, so those checks run in one subprocess started with
``XLA_FLAGS=--xla_force_host_platform_device_count=8``; it prints a JSON report the
tests assert on. Single-device checks run in-process.

Expected reprs, shard indices and error messages were recorded from real jax
0.12.0.1 (the oracle venv, run separately) and are hard-coded here.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jax_core as jax
from jax_core._src.sharding import shardings as sharding_src
from jax_core._src.runtime import transfer
from jax_core.sharding import (
    AxisType,
    Mesh,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
)

P = PartitionSpec
ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------
# The 8-device subprocess
# ---------------------------------------------------------------------------

_SCRIPT = r"""
import json
import numpy as np
import jax_core as jax
from jax_core._src.lib import _jax
from jax_core._src.sharding.shardings import make_mesh, IndivisibleError, GSPMDSharding
from jax_core._src.runtime.transfer import ensure_single_device
from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding

out = {}
devs = jax.devices()
out["n_devices"] = len(devs)
mesh = make_mesh((2, 4), ("x", "y"))
out["mesh_repr"] = repr(mesh)
out["mesh_str"] = str(mesh)
x = np.arange(64, dtype=np.float32).reshape(8, 8)

def describe(a, s, value):
    shards = a._arrays
    placed = all(
        np.array_equal(np.asarray(sh), value[s.devices_indices_map(value.shape)[sh._sharding._device]])
        for sh in shards
    )
    return {
        "repr": repr(s),
        "equal": bool(np.array_equal(np.asarray(a), value)),
        "global_shape": list(np.asarray(a).shape),
        "is_same_sharding": a.sharding is s,
        "fully_replicated": bool(a.is_fully_replicated),
        "s_fully_replicated": bool(s.is_fully_replicated),
        "devices": sorted(d.id for d in a.devices()),
        "shard_shapes": sorted({tuple(np.asarray(sh).shape) for sh in shards}),
        "shard_shape": list(s.shard_shape(value.shape)),
        "n_shards": len(shards),
        "placed": bool(placed),
        "committed": bool(a._committed),
        "indices": {
            str(d.id): [[sl.start, sl.stop] for sl in idx]
            for d, idx in s.devices_indices_map(value.shape).items()
        },
        "hlo": str(s._to_xla_hlo_sharding(value.ndim)),
        "repr_matches_host": repr(a) == repr(jax.device_put(value)),
        "str_matches_host": str(a) == str(value),
        "tolist": a.tolist() == value.tolist(),
    }

specs = {
    "x": P("x"), "xy": P("x", "y"), "None_y": P(None, "y"), "replicated": P(),
    "xy_tuple": P(("x", "y")), "yx": P("y", "x"),
}
out["mesh2d"] = {}
for name, spec in specs.items():
    s = NamedSharding(mesh, spec)
    out["mesh2d"][name] = describe(jax.device_put(x, s), s, x)

mesh1 = Mesh(np.array(devs), ("i",))
v = np.arange(16, dtype=np.int32)
out["mesh1d"] = {}
for name, spec in {"i": P("i"), "replicated": P()}.items():
    s = NamedSharding(mesh1, spec)
    out["mesh1d"][name] = describe(jax.device_put(v, s), s, v)

# jaxlib's own read-back of a sharded array is shard 0 only: the bug jax_core works around.
a = jax.device_put(x, NamedSharding(mesh, P("x", "y")))
raw, _ = a._single_device_array_to_np_array_did_copy()
out["raw_readback_shape"] = list(np.asarray(raw).shape)
out["asarray_shape"] = list(np.asarray(a).shape)
out["array_dunder_equal"] = bool(np.array_equal(a.__array__(), x))
out["repr_P_x"] = repr(jax.device_put(np.arange(16, dtype=np.float32).reshape(8, 2), NamedSharding(mesh, P("x"))))

# device_get is pytree-aware and assembles every sharded leaf.
b = jax.device_put(v, NamedSharding(mesh1, P("i")))
got = jax.device_get({"a": a, "b": [b, 1, "s"], "c": None})
out["device_get"] = {
    "a": bool(isinstance(got["a"], np.ndarray) and np.array_equal(got["a"], x)),
    "b": bool(np.array_equal(got["b"][0], v)),
    "rest": [got["b"][1], got["b"][2], got["c"]],
    "readonly": not got["a"].flags.writeable,
}

# Re-sharding existing arrays.
r1 = jax.device_put(a, NamedSharding(mesh, P("y")))
r2 = jax.device_put(a, devs[3])
mesh_rev = Mesh(np.array(devs[::-1]).reshape(2, 4), ("x", "y"))
r3 = jax.device_put(a, NamedSharding(mesh_rev, P("x", "y")))  # same layout: device-to-device copy
r4 = jax.device_put(jax.device_put(x, NamedSharding(mesh, P("x"))), NamedSharding(mesh_rev, P("x")))
out["reshard"] = {
    "P_y": [bool(np.array_equal(np.asarray(r1), x)), repr(r1.sharding.spec), r1.sharding.shard_shape(x.shape)],
    "to_device": [bool(np.array_equal(np.asarray(r2), x)), repr(r2.sharding), bool(r2._committed)],
    "reversed_mesh": [bool(np.array_equal(np.asarray(r3), x)), r3.sharding.mesh is mesh_rev,
                      sorted(np.asarray(r3._arrays[0]).shape)],
    "reversed_mesh_partial": bool(np.array_equal(np.asarray(r4), x)),
    "same_is_identity": jax.device_put(a, a.sharding) is a,
}

# Eager computations take one-device inputs: ensure_single_device gathers.
g = ensure_single_device(a)
rep = jax.device_put(x, NamedSharding(mesh, P()))
g2 = ensure_single_device(rep)
g3 = ensure_single_device(jax.device_put(x, NamedSharding(mesh, P("x"))), devs[2])
out["gather"] = {
    "sharded": [bool(np.array_equal(np.asarray(g), x)), repr(g.sharding), bool(np.array_equal(np.asarray(g + 1), x + 1))],
    "replicated": [bool(np.array_equal(np.asarray(g2), x)), repr(g2.sharding), bool(np.array_equal(np.asarray(g2 * 2), x * 2))],
    "to_device": [bool(np.array_equal(np.asarray(g3), x)), [d.id for d in g3.devices()]],
    "single_unchanged": ensure_single_device(r2) is r2,
}

# Scalars, dtypes, weak types.
out["scalar"] = repr(jax.device_put(3.0, NamedSharding(mesh, P())))
out["int64_canonical"] = repr(jax.device_put(np.arange(8), NamedSharding(mesh, P("x"))))
out["bool"] = repr(jax.device_put(np.array([True, False] * 4), NamedSharding(mesh, P("y"))))
pt = jax.device_put({"w": np.ones((8, 2), np.float32), "n": 2}, NamedSharding(mesh, P("x")) if False else {"w": NamedSharding(mesh, P("x")), "n": NamedSharding(mesh, P())})
out["tree_prefix"] = [repr(pt["w"].sharding.spec), repr(pt["n"].sharding.spec), repr(pt["n"])]

errors = {}
for key, fn in {
    "indivisible": lambda: jax.device_put(np.ones(7), NamedSharding(mesh, P("x"))),
    "rank": lambda: jax.device_put(np.float32(3), NamedSharding(mesh, P("x"))),
}.items():
    try:
        fn()
        errors[key] = None
    except Exception as e:
        errors[key] = [type(e).__name__, isinstance(e, ValueError), str(e)]
out["errors"] = errors
out["make_mesh_too_big"] = None
try:
    make_mesh((3, 4), ("a", "b"))
except ValueError as e:
    out["make_mesh_too_big"] = str(e)

# jaxlib's native GSPMDSharding on an array maps to a jax_core sharding.
gs = _jax.GSPMDSharding(_jax.DeviceList(tuple(devs)), NamedSharding(mesh, P("x", "y"))._to_xla_hlo_sharding(2))
native = _jax.batched_device_put(a.aval, gs, [np.asarray(s_) for s_ in a._arrays], devs, True, False,
                                 _jax.HostBufferSemantics.IMMUTABLE_UNTIL_TRANSFER_COMPLETES, False)
out["native_gspmd"] = [repr(native.sharding), bool(np.array_equal(np.asarray(native), x)),
                       isinstance(native.sharding, GSPMDSharding)]
print("JSON:" + json.dumps(out))
"""


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    env = dict(os.environ)
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("JAX_PLATFORMS", None)
    proc = subprocess.run(
        [sys.executable, "-c", _SCRIPT],
        env=env,
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("JSON:"))
    result: dict[str, Any] = json.loads(line[len("JSON:") :])
    return result


MESH_STR = "Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit))"

# Recorded from jax 0.12.0.1: (repr, shard shape of an (8, 8) array, HloSharding)
JAX_2D: dict[str, tuple[str, list[int], str]] = {
    "x": (
        f"NamedSharding(mesh={MESH_STR}, spec=P('x',), memory_kind=device)",
        [4, 8],
        "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
    ),
    "xy": (
        f"NamedSharding(mesh={MESH_STR}, spec=P('x', 'y'), memory_kind=device)",
        [4, 2],
        "{devices=[2,4]<=[8]}",
    ),
    "None_y": (
        f"NamedSharding(mesh={MESH_STR}, spec=P(None, 'y'), memory_kind=device)",
        [8, 2],
        "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
    ),
    "replicated": (
        f"NamedSharding(mesh={MESH_STR}, spec=P(), memory_kind=device)",
        [8, 8],
        "{replicated}",
    ),
    "xy_tuple": (
        f"NamedSharding(mesh={MESH_STR}, spec=P(('x', 'y'),), memory_kind=device)",
        [1, 8],
        "{devices=[8,1]<=[8]}",
    ),
    "yx": (
        f"NamedSharding(mesh={MESH_STR}, spec=P('y', 'x'), memory_kind=device)",
        [2, 4],
        "{devices=[4,2]<=[2,4]T(1,0)}",
    ),
}

# Recorded from jax 0.12.0.1: devices_indices_map (device id -> [start, stop] per dim).
JAX_INDICES: dict[str, dict[str, list[list[int | None]]]] = {
    "x": {str(d): [[0, 4] if d < 4 else [4, 8], [None, None]] for d in range(8)},
    "xy": {str(d): [[0, 4] if d < 4 else [4, 8], [2 * (d % 4), 2 * (d % 4) + 2]] for d in range(8)},
    "None_y": {str(d): [[None, None], [2 * (d % 4), 2 * (d % 4) + 2]] for d in range(8)},
    "replicated": {str(d): [[None, None], [None, None]] for d in range(8)},
    "xy_tuple": {str(d): [[d, d + 1], [None, None]] for d in range(8)},
    "yx": {str(d): [[2 * (d % 4), 2 * (d % 4) + 2], [0, 4] if d < 4 else [4, 8]] for d in range(8)},
}


def test_subprocess_has_eight_devices(report: dict[str, Any]) -> None:
    assert report["n_devices"] == 8


def test_mesh_repr_matches_jax(report: dict[str, Any]) -> None:
    assert (
        report["mesh_repr"]
        == "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Explicit, Explicit))"
    )
    assert report["mesh_str"] == MESH_STR


@pytest.mark.parametrize("name", sorted(JAX_2D))
def test_named_sharding_2x4(report: dict[str, Any], name: str) -> None:
    r = report["mesh2d"][name]
    expected_repr, shard_shape, hlo = JAX_2D[name]
    assert r["repr"] == expected_repr
    assert r["hlo"] == hlo
    assert r["shard_shape"] == shard_shape
    assert r["shard_shapes"] == [shard_shape]
    assert r["n_shards"] == 8
    assert r["indices"] == JAX_INDICES[name]
    # The full global value, in the right places: not jaxlib's "shard 0".
    assert r["equal"] and r["global_shape"] == [8, 8]
    assert r["placed"]
    assert r["is_same_sharding"]
    assert r["devices"] == list(range(8))
    assert r["fully_replicated"] == r["s_fully_replicated"] == (name == "replicated")
    assert r["committed"]
    assert r["repr_matches_host"] and r["str_matches_host"] and r["tolist"]


@pytest.mark.parametrize("name", ["i", "replicated"])
def test_named_sharding_1d_mesh(report: dict[str, Any], name: str) -> None:
    r = report["mesh1d"][name]
    spec = "P('i',)" if name == "i" else "P()"
    assert (
        r["repr"]
        == f"NamedSharding(mesh=Mesh('i': 8, axis_types=(Auto,)), spec={spec}, memory_kind=device)"
    )
    assert r["equal"] and r["placed"] and r["is_same_sharding"]
    assert r["shard_shapes"] == ([[2]] if name == "i" else [[16]])
    assert r["fully_replicated"] == (name == "replicated")
    assert r["devices"] == list(range(8))
    assert r["repr_matches_host"]


def test_asarray_is_not_shard_zero(report: dict[str, Any]) -> None:
    # jaxlib alone reads back only shard 0 of a sharded array ...
    assert report["raw_readback_shape"] == [4, 2]
    # ... jax_core assembles the whole value.
    assert report["asarray_shape"] == [8, 8]
    assert report["array_dunder_equal"]


def test_sharded_repr_shows_full_value(report: dict[str, Any]) -> None:
    assert report["repr_P_x"] == (
        "Array([[ 0.,  1.],\n"
        "       [ 2.,  3.],\n"
        "       [ 4.,  5.],\n"
        "       [ 6.,  7.],\n"
        "       [ 8.,  9.],\n"
        "       [10., 11.],\n"
        "       [12., 13.],\n"
        "       [14., 15.]], dtype=float32)"
    )


def test_device_get_tree(report: dict[str, Any]) -> None:
    r = report["device_get"]
    assert r["a"] and r["b"] and r["readonly"]
    assert r["rest"] == [1, "s", None]


def test_reshard(report: dict[str, Any]) -> None:
    r = report["reshard"]
    assert r["P_y"] == [True, "P('y',)", [2, 8]]
    assert r["to_device"] == [
        True,
        "SingleDeviceSharding(device=CpuDevice(id=3), memory_kind=device)",
        True,
    ]
    assert r["reversed_mesh"] == [True, True, [2, 4]]
    assert r["reversed_mesh_partial"]
    assert r["same_is_identity"]


def test_ensure_single_device_gathers(report: dict[str, Any]) -> None:
    r = report["gather"]
    sds0 = "SingleDeviceSharding(device=CpuDevice(id=0), memory_kind=device)"
    assert r["sharded"] == [True, sds0, True]
    assert r["replicated"] == [True, sds0, True]
    assert r["to_device"] == [True, [2]]
    assert r["single_unchanged"]


def test_scalars_dtypes_and_trees(report: dict[str, Any]) -> None:
    assert report["scalar"] == "Array(3., dtype=float32, weak_type=True)"
    assert report["int64_canonical"] == "Array([0, 1, 2, 3, 4, 5, 6, 7], dtype=int32)"
    assert (
        report["bool"]
        == "Array([ True, False,  True, False,  True, False,  True, False], dtype=bool)"
    )
    assert report["tree_prefix"] == ["P('x',)", "P()", "Array(2, dtype=int32, weak_type=True)"]


def test_sharding_errors(report: dict[str, Any]) -> None:
    e = report["errors"]
    assert e["indivisible"] == [
        "IndivisibleError",
        True,
        (
            f"NamedSharding(mesh={MESH_STR}, spec=P('x',), memory_kind=device) implies that array "
            "axis 0 is partitioned 2 times, but the dimension size is 7 (full shape: (7,), "
            "per-dimension tiling factors: (2,) should evenly divide the shape)"
        ),
    ]
    assert e["rank"][:2] == ["ValueError", True]
    assert "For scalars the PartitionSpec should be P()" in e["rank"][2]
    assert (
        report["make_mesh_too_big"]
        == "Number of devices 8 must be >= the product of mesh_shape (3, 4)"
    )


def test_native_gspmd_sharding_is_mapped(report: dict[str, Any]) -> None:
    assert report["native_gspmd"] == [
        "GSPMDSharding({devices=[2,4]<=[8]}, memory_kind=device)",
        True,
        True,
    ]


# ---------------------------------------------------------------------------
# In-process (one device)
# ---------------------------------------------------------------------------


def _committed(x: object) -> bool:
    """Whether a device array is committed to its devices (jaxlib's ``_committed``)."""
    return bool(getattr(x, "_committed"))  # noqa: B009


@pytest.mark.parametrize(
    ("spec", "text", "partitions"),
    [
        (P(), "P()", ()),
        (P("x"), "P('x',)", ("x",)),
        (P("x", None), "P('x', None)", ("x", None)),
        (P(("x", "y")), "P(('x', 'y'),)", (("x", "y"),)),
        (P(["x", "y"]), "P(('x', 'y'),)", (("x", "y"),)),
        (P(("x",), None), "P('x', None)", ("x", None)),
        (P(()), "P(None,)", (None,)),
        (P("x", []), "P('x', None)", ("x", None)),
        (P(P.UNCONSTRAINED), "P(UNCONSTRAINED,)", (P.UNCONSTRAINED,)),
        (P("x", None, ("a", "b")), "P('x', None, ('a', 'b'))", ("x", None, ("a", "b"))),
    ],
)
def test_partition_spec_canonical_repr(
    spec: PartitionSpec, text: str, partitions: tuple[Any, ...]
) -> None:
    assert repr(spec) == str(spec) == text
    assert spec.partitions == partitions
    assert len(spec) == len(partitions)
    assert tuple(spec) == partitions


def test_partition_spec_semantics() -> None:
    assert P("x") == P("x") and hash(P("x")) == hash(P("x"))
    assert P("x") != P("x", None)  # as in jax 0.12
    assert P("x") != ("x",)
    assert P("x") + ("y",) == P("x", "y")
    assert ("a",) + P("b") == P("a", "b")
    assert P("x", "y").index("y") == 1 and P(None, None).count(None) == 2
    assert P("x", unreduced={"y"}).unreduced == frozenset({"y"})
    assert repr(P("x", unreduced={"y"})) == "P('x', unreduced={'y'})"
    assert pickle.loads(pickle.dumps(P("x", P.UNCONSTRAINED))) == P("x", P.UNCONSTRAINED)
    assert sharding_src.P is PartitionSpec
    with pytest.raises(AttributeError):
        P("x")._partitions = ()  # type: ignore[misc]
    with pytest.raises(ValueError, match="cannot overlap"):
        P(unreduced={"x"}, reduced={"x"})


def test_single_device_sharding() -> None:
    dev = jax.devices()[0]
    s = SingleDeviceSharding(dev)
    assert repr(s) == f"SingleDeviceSharding(device={dev!r}, memory_kind=device)"
    assert s == SingleDeviceSharding(dev) and hash(s) == hash(SingleDeviceSharding(dev))
    assert s.device_set == {dev} and s.addressable_devices == {dev}
    assert s.num_devices == 1 and s.is_fully_replicated and s.is_fully_addressable
    assert s.memory_kind == "device"
    assert s.with_memory_kind("pinned_host").memory_kind == "pinned_host"
    assert s.shard_shape((3, 4)) == (3, 4)
    assert s.devices_indices_map((3, 4)) == {dev: (slice(None), slice(None))}
    assert s.is_equivalent_to(SingleDeviceSharding(dev), 2)
    assert isinstance(s, Sharding)
    with pytest.raises(ValueError, match="Got memory kind: foo"):
        SingleDeviceSharding(dev, memory_kind="foo")


def test_default_array_sharding_is_jax_core_sharding() -> None:
    dev = jax.devices()[0]
    x = jax.device_put(np.arange(3.0))
    assert isinstance(x.sharding, SingleDeviceSharding)
    assert x.sharding == SingleDeviceSharding(dev)
    assert x.devices() == {dev}
    assert x.sharding.is_fully_replicated
    assert not _committed(x)


def test_mesh_one_device() -> None:
    dev = jax.devices()[0]
    mesh = Mesh(np.array([dev]), "a")
    assert repr(mesh) == "Mesh(axis_sizes=(1,), axis_names=('a',), axis_types=(Auto,))"
    assert str(mesh) == "Mesh('a': 1, axis_types=(Auto,))"
    assert mesh.shape == {"a": 1} and mesh.size == 1 and mesh.axis_sizes == (1,)
    assert mesh.shape_tuple == (("a", 1),) and mesh.axis_types == (AxisType.Auto,)
    assert mesh.device_ids.tolist() == [dev.id]
    assert mesh == Mesh(np.array([dev]), ("a",)) and hash(mesh) == hash(Mesh([dev], ("a",)))
    assert mesh != Mesh(np.array([dev]), ("b",))
    assert mesh != Mesh(np.array([dev]), ("a",), (AxisType.Explicit,))
    assert mesh.update(axis_names=("b",)).axis_names == ("b",)
    with pytest.raises(AttributeError):
        mesh.size = 2  # type: ignore[misc]
    with pytest.raises(ValueError, match="Mesh requires the ndim"):
        Mesh(np.array([dev]), ("a", "b"))
    m = sharding_src.make_mesh((1,), ("z",))
    assert m.axis_types == (AxisType.Explicit,) and m.devices.tolist() == [dev]
    with pytest.raises(ValueError, match="must be >= the product of mesh_shape"):
        sharding_src.make_mesh((2, len(jax.devices())), ("a", "b"))


def test_named_sharding_one_device() -> None:
    dev = jax.devices()[0]
    mesh = Mesh(np.array([dev]), ("a",))
    s = NamedSharding(mesh, P("a"))
    # Recorded from jax 0.12.0.1.
    assert (
        repr(s)
        == "NamedSharding(mesh=Mesh('a': 1, axis_types=(Auto,)), spec=P('a',), memory_kind=device)"
    )
    assert s.is_fully_replicated and s.num_devices == 1
    assert s.mesh is mesh and s.spec == P("a")
    assert s == NamedSharding(Mesh(np.array([dev]), ("a",)), P("a"))
    assert hash(s) == hash(NamedSharding(Mesh(np.array([dev]), ("a",)), P("a")))
    assert s != NamedSharding(mesh, P())
    assert s.is_equivalent_to(NamedSharding(mesh, P()), 1)
    assert str(s._to_xla_hlo_sharding(1)) == "{replicated}"  # pyright: ignore[reportPrivateUsage]
    assert s.with_spec(("a", None)).spec == P("a", None)
    x = jax.device_put(np.arange(4.0), s)
    assert x.sharding is s
    assert repr(x) == "Array([0., 1., 2., 3.], dtype=float32)"
    with pytest.raises(sharding_src.DuplicateSpecError, match="duplicate entries for `a`"):
        NamedSharding(mesh, P("a", "a"))
    with pytest.raises(
        ValueError, match=r"Resource axis: z of P\('z',\) is not found in mesh: \('a',\)."
    ):
        NamedSharding(mesh, P("z"))
    with pytest.raises(TypeError, match="must be a PartitionSpec"):
        NamedSharding(mesh, ("a",))  # type: ignore[arg-type]


def test_device_put_host_values() -> None:
    dev = jax.devices()[0]
    x = jax.device_put(1.0)
    assert repr(x) == "Array(1., dtype=float32, weak_type=True)"
    assert not _committed(x)
    y = jax.device_put(3, dev)
    assert repr(y) == "Array(3, dtype=int32, weak_type=True)"
    assert _committed(y)
    assert y.sharding == SingleDeviceSharding(dev)
    s = SingleDeviceSharding(dev)
    z = jax.device_put(np.arange(3), s)
    assert z.sharding is s
    assert np.array_equal(np.asarray(z), np.arange(3))
    with pytest.raises(TypeError, match="not a valid JAX type"):
        jax.device_put("a")


def test_device_put_existing_arrays() -> None:
    dev = jax.devices()[0]
    x = jax.device_put(np.ones(3, np.float32))
    assert jax.device_put(x) is x
    y = jax.device_put(x, dev)
    assert y is not x and _committed(y)
    assert np.array_equal(np.asarray(y), np.ones(3)) and y.shape == (3,)
    assert jax.device_put(y, dev) is y
    assert jax.device_put(y, y.sharding) is y
    c = jax.device_put(y, may_alias=False)
    assert c is not y and np.array_equal(np.asarray(c), np.ones(3))
    w = jax.device_put(jax.device_put(2.0), SingleDeviceSharding(dev))
    assert w.weak_type


def test_device_put_trees() -> None:
    dev = jax.devices()[0]
    out = jax.device_put([1, 2.0, np.ones(2)])
    assert [repr(o) for o in out] == [
        "Array(1, dtype=int32, weak_type=True)",
        "Array(2., dtype=float32, weak_type=True)",
        "Array([1., 1.], dtype=float32)",
    ]
    assert jax.device_put(None) is None
    t = jax.device_put({"a": np.ones(2), "b": None}, {"a": dev, "b": None})
    assert t["b"] is None and t["a"].sharding == SingleDeviceSharding(dev)
    with pytest.raises(ValueError):
        jax.device_put([np.ones(1), np.ones(1)], [dev, dev, dev])


def test_device_get() -> None:
    x = jax.device_put(np.arange(3.0))
    got = jax.device_get({"x": x, "n": 1, "s": "s", "a": np.ones(1)})
    assert isinstance(got["x"], np.ndarray) and got["x"].tolist() == [0.0, 1.0, 2.0]
    assert not got["x"].flags.writeable
    assert got["n"] == 1 and got["s"] == "s" and got["a"].tolist() == [1.0]
    assert jax.device_get(x).tolist() == [0.0, 1.0, 2.0]


def test_ensure_single_device_passthrough() -> None:
    x = jax.device_put(np.arange(3.0))
    assert transfer.ensure_single_device(x) is x
    assert transfer.ensure_single_device(1.0) == 1.0
    n = np.ones(2)
    assert transfer.ensure_single_device(n) is n


def test_cpp_sharding_round_trip() -> None:
    dev = jax.devices()[0]
    s = SingleDeviceSharding(dev)
    cpp = sharding_src.to_cpp_sharding(s, 2)
    assert type(cpp).__module__.startswith("jaxlib")
    assert sharding_src.from_cpp_sharding(cpp) == s
    assert sharding_src.to_cpp_sharding(cpp, 2) is cpp
    ns = NamedSharding(Mesh(np.array([dev]), ("a",)), P("a"))
    g = sharding_src.from_cpp_sharding(sharding_src.to_cpp_sharding(ns, 1))
    assert isinstance(g, sharding_src.GSPMDSharding)
    assert g.is_equivalent_to(ns, 1) and g.is_fully_replicated
    assert sharding_src.devices_indices_map(ns, (4,)) == {dev: (slice(None),)}
    with pytest.raises(TypeError, match="Not a sharding"):
        sharding_src.from_cpp_sharding(object())


def test_public_module_exports() -> None:
    import jax_core.sharding as pub

    assert set(pub.__all__) >= {
        "Sharding",
        "SingleDeviceSharding",
        "NamedSharding",
        "Mesh",
        "PartitionSpec",
    }
    assert pub.PartitionSpec is sharding_src.PartitionSpec
    assert pub.NamedSharding is sharding_src.NamedSharding
