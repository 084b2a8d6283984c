"""Tests for ``make_array_from_callback`` and ``make_array_from_single_device_arrays``.

8-device behaviour runs in ONE subprocess that prints a JSON report; one-device behaviour runs
in-process. Error classes and messages, the indices passed to the callback and the reprs of the
results' shardings were recorded from real jax 0.12.0.1 (the oracle venv, same program) and are
hard-coded. Values are integers and compared exactly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.sharding._programs import run_json_program

import jax_core as jax
import jax_core.numpy as jnp
from jax_core._src.core.errors import UnexpectedTracerError
from jax_core._src.runtime.assembly import (
    make_array_from_callback,
    make_array_from_single_device_arrays,
)
from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120

_PROGRAM = r"""
import json
import numpy as np
import jax_core as jax, jax_core.numpy as jnp
from jax_core._src.runtime.assembly import make_array_from_callback, make_array_from_single_device_arrays
from jax_core.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding

out = {}
def run(name, f):
    try:
        r = f()
    except Exception as e:
        out[name] = {"error": [type(e).__name__, str(e)]}
        return
    value = np.asarray(r)
    shards = r.addressable_shards
    out[name] = {"ok": {
        "shape": list(r.shape), "dtype": str(r.dtype), "sharding": repr(r.sharding),
        "is_sharding": r.sharding is sharding_of[name] if name in sharding_of else None,
        "committed": bool(r._committed), "weak": bool(r.weak_type), "value": value.tolist(),
        "devices": sorted(s.device.id for s in shards),
        "placed": all(np.array_equal(np.asarray(s.data), value[s.index]) for s in shards),
    }}

devs = jax.devices()
m = Mesh(np.array(devs).reshape(2, 4), ("x", "y"))
m4 = Mesh(np.array(devs[:4]), ("x",))
g = np.arange(32, dtype=np.int32).reshape(8, 4)
s_xy = NamedSharding(m, P("x", "y"))
sharding_of = {"cb_xy": s_xy, "sda_ok": s_xy}
seen = []
run("cb_xy", lambda: make_array_from_callback((8, 4), s_xy, lambda i: (seen.append(repr(i)), g[i])[1]))
out["cb_xy_indices"] = seen
seen_r = []
run("cb_replicated", lambda: make_array_from_callback((8, 4), NamedSharding(m, P()), lambda i: (seen_r.append(repr(i)), g[i])[1]))
out["cb_replicated_indices"] = seen_r
run("cb_partial", lambda: make_array_from_callback((8, 4), NamedSharding(m, P("x")), lambda i: g[i]))
run("cb_single", lambda: make_array_from_callback((8, 4), SingleDeviceSharding(devs[2]), lambda i: g[i]))
run("cb_int64_canonical", lambda: make_array_from_callback((8,), NamedSharding(m, P("y")), lambda i: np.arange(8, dtype=np.int64)[i]))
run("cb_scalar", lambda: make_array_from_callback((), NamedSharding(m, P()), lambda i: 3))
run("cb_bool", lambda: make_array_from_callback((), NamedSharding(m, P()), lambda i: True))
run("cb_jax_pieces", lambda: make_array_from_callback((8,), NamedSharding(m, P("x")), lambda i: jnp.arange(8, dtype=jnp.int32)[i]))
run("cb_sharded_pieces", lambda: make_array_from_callback((8,), NamedSharding(m4, P("x")), lambda i: jax.device_put(np.arange(8, dtype=np.int32)[i], NamedSharding(m4, P()))))
run("cb_dtype_mismatch", lambda: make_array_from_callback((8, 4), NamedSharding(m, P("x")), lambda i: g[i], dtype=np.float32))
run("cb_shape_mismatch", lambda: make_array_from_callback((8, 4), NamedSharding(m, P("x")), lambda i: g))
run("cb_indivisible", lambda: make_array_from_callback((6,), NamedSharding(m, P("y")), lambda i: np.arange(6)[i]))
imap = s_xy.addressable_devices_indices_map((8, 4))
arrs = [jax.device_put(g[imap[d]], d) for d in devs]
run("sda_ok", lambda: make_array_from_single_device_arrays((8, 4), s_xy, arrs))
run("sda_reversed_tuple", lambda: make_array_from_single_device_arrays((8, 4), s_xy, tuple(arrs[::-1])))
run("sda_too_few", lambda: make_array_from_single_device_arrays((8, 4), s_xy, arrs[:7]))
run("sda_duplicate_device", lambda: make_array_from_single_device_arrays((8, 4), s_xy, arrs[:7] + [arrs[0]]))
s4 = NamedSharding(m4, P("x"))
on = lambda lo, hi, n=2: [jax.device_put((np.arange(n) + 2 * k).astype(np.int32), d) for k, d in enumerate(devs[lo:hi])]
run("sda_wrong_devices", lambda: make_array_from_single_device_arrays((8,), s4, on(4, 8)))
run("sda_some_wrong_devices", lambda: make_array_from_single_device_arrays((8,), s4, on(2, 6)))
run("sda_bad_shape", lambda: make_array_from_single_device_arrays((8,), s4, on(0, 4, 3)))
run("sda_bad_dtype", lambda: make_array_from_single_device_arrays((8,), s4, on(0, 2) + [jax.device_put(np.array([4.0, 5.0], np.float32), devs[2])] + on(3, 4)))
run("sda_dtype_arg_mismatch", lambda: make_array_from_single_device_arrays((8,), s4, on(0, 4), dtype=np.float32))
run("sda_dtype_arg", lambda: make_array_from_single_device_arrays((8,), s4, on(0, 4), dtype=np.int32))
run("sda_empty", lambda: make_array_from_single_device_arrays((8,), s4, []))
run("sda_empty_dtype", lambda: make_array_from_single_device_arrays((8,), s4, [], dtype=np.int32))
run("sda_numpy", lambda: make_array_from_single_device_arrays((8,), s4, [np.arange(2)] * 4))
run("sda_iterator", lambda: make_array_from_single_device_arrays((8,), s4, iter(on(0, 4))))
run("sda_multi_device_piece", lambda: make_array_from_single_device_arrays((8,), s4, [jax.device_put(np.arange(2), NamedSharding(m4, P()))] * 4))
run("sda_weak_pieces", lambda: make_array_from_single_device_arrays((4,), s4, [jax.device_put(jnp.asarray(1.0).reshape(1), d) for d in devs[:4]]))
run("sda_partially_replicated", lambda: make_array_from_single_device_arrays((8,), NamedSharding(m, P("x")), [jax.device_put(np.arange(4, dtype=np.int32) + (4 if d.id >= 4 else 0), d) for d in devs]))
run("sda_global_shape_mismatch", lambda: make_array_from_single_device_arrays((16,), s4, on(0, 4)))
print(json.dumps(out))
"""

MESH_24 = "Mesh('x': 2, 'y': 4, axis_types=(Auto, Auto))"
MESH_4 = "Mesh('x': 4, axis_types=(Auto,))"
ALL = list(range(8))
G = np.arange(32).reshape(8, 4).tolist()


def named(mesh: str, spec: str) -> str:
    return f"NamedSharding(mesh={mesh}, spec={spec}, memory_kind=device)"


def ok(
    shape: list[int],
    dtype: str,
    sharding: str,
    value: Any,
    devices: list[int],
    *,
    is_sharding: bool | None = None,
) -> dict[str, Any]:
    return {
        "ok": {
            "shape": shape, "dtype": dtype, "sharding": sharding, "is_sharding": is_sharding,
            "committed": True, "weak": False, "value": value, "devices": devices, "placed": True,
        }
    }  # fmt: skip


def error(kind: str, message: str) -> dict[str, Any]:
    return {"error": [kind, message]}


_SHAPE_ERROR = (
    "Expected shard shape {} doesn't match the single device array shape {}. Shape of Array is {} "
    "with sharding {}"
)

# Recorded from real JAX (its results' shard data is checked through "placed").
EXPECTED: dict[str, Any] = {
    "cb_xy": ok([8, 4], "int32", named(MESH_24, "P('x', 'y')"), G, ALL, is_sharding=True),
    "cb_xy_indices": [
        f"(slice({r}, {r + 4}, None), slice({c}, {c + 1}, None))" for r in (0, 4) for c in range(4)
    ],
    "cb_replicated": ok([8, 4], "int32", named(MESH_24, "P()"), G, ALL),
    "cb_replicated_indices": ["(slice(None, None, None), slice(None, None, None))"],
    "cb_partial": ok([8, 4], "int32", named(MESH_24, "P('x',)"), G, ALL),
    "cb_single": ok(
        [8, 4], "int32", "SingleDeviceSharding(device=CpuDevice(id=2), memory_kind=device)", G, [2]
    ),
    "cb_int64_canonical": ok([8], "int32", named(MESH_24, "P('y',)"), list(range(8)), ALL),
    "cb_scalar": ok([], "int32", named(MESH_24, "P()"), 3, ALL),
    "cb_bool": ok([], "bool", named(MESH_24, "P()"), True, ALL),
    "cb_jax_pieces": ok([8], "int32", named(MESH_24, "P('x',)"), list(range(8)), ALL),
    "cb_sharded_pieces": ok([8], "int32", named(MESH_4, "P('x',)"), list(range(8)), [0, 1, 2, 3]),
    "cb_dtype_mismatch": error(
        "ValueError",
        "If `dtype` is provided to `jax.make_array_from_callback`, it must match the dtype of the "
        "addressable shards. Got dtype=float32 and shard dtype=int32`.",
    ),
    "cb_shape_mismatch": error(
        "ValueError", _SHAPE_ERROR.format((4, 4), (8, 4), "int32[8,4]", named(MESH_24, "P('x',)"))
    ),
    "cb_indivisible": error(
        "IndivisibleError",
        f"{named(MESH_24, "P('y',)")} implies that array axis 0 is partitioned 4 times, but the "
        "dimension size is 6 (full shape: (6,), per-dimension tiling factors: (4,) should evenly "
        "divide the shape)",
    ),
    "sda_ok": ok([8, 4], "int32", named(MESH_24, "P('x', 'y')"), G, ALL, is_sharding=True),
    "sda_reversed_tuple": ok([8, 4], "int32", named(MESH_24, "P('x', 'y')"), G, ALL),
    "sda_too_few": error(
        "ValueError",
        "Expected 8 per-device arrays (this is how many devices are addressable by the sharding), "
        "but got 7",
    ),
    "sda_duplicate_device": error(
        "ValueError",
        "When making an array from single-device arrays, the input arrays must be from distinct "
        "devices, but got device IDs [0, 1, 2, 3, 4, 5, 6, 0]",
    ),
    "sda_wrong_devices": error(
        "ValueError",
        "Addressable devices and per-device arrays devices do not match. Sharding contains devices "
        "{0, 1, 2, 3} that are not present in per-device arrays. Per-device arrays contain devices "
        "{4, 5, 6, 7} that are not present in the sharding.",
    ),
    "sda_some_wrong_devices": error(
        "ValueError",
        "Addressable devices and per-device arrays devices do not match. Sharding contains devices "
        "{0, 1} that are not present in per-device arrays. Per-device arrays contain devices "
        "{4, 5} that are not present in the sharding.",
    ),
    "sda_bad_shape": error(
        "ValueError", _SHAPE_ERROR.format((2,), (3,), "int32[8]", named(MESH_4, "P('x',)"))
    ),
    "sda_bad_dtype": error(
        "ValueError",
        "Input buffers to `Array` must have matching dtypes. Got float32, expected int32 for buffer: [4. 5.]",
    ),
    "sda_dtype_arg_mismatch": error(
        "ValueError",
        "If `dtype` is provided to `jax.make_array_from_single_device_arrays`, it must match the "
        "dtype of the addressable shards. Got dtype=float32 and shard dtype=int32`.",
    ),
    "sda_dtype_arg": ok([8], "int32", named(MESH_4, "P('x',)"), list(range(8)), [0, 1, 2, 3]),
    "sda_empty": error(
        "ValueError",
        "If the Array has no addressable shards, `dtype` must be provided via the `dtype` argument to "
        "`jax.make_array_from_single_device_arrays`.",
    ),
    "sda_empty_dtype": error(
        "ValueError",
        "Expected 4 per-device arrays (this is how many devices are addressable by the sharding), "
        "but got 0",
    ),
    "sda_numpy": error(
        "TypeError", "Unsupported type for elements in `arrays`: <class 'numpy.ndarray'>"
    ),
    "sda_iterator": error(
        "TypeError",
        "jax.make_array_from_single_device_arrays `arrays` argument must be a list or tuple, but got "
        "<class 'list_iterator'>.",
    ),
    "sda_multi_device_piece": error(
        "ValueError",
        "When making an array from single-device arrays the input arrays must have one shard each. "
        "An argument array had 4 shard(s).",
    ),
    "sda_weak_pieces": ok([4], "float32", named(MESH_4, "P('x',)"), [1.0] * 4, [0, 1, 2, 3]),
    "sda_partially_replicated": ok([8], "int32", named(MESH_24, "P('x',)"), list(range(8)), ALL),
    "sda_global_shape_mismatch": error(
        "ValueError", _SHAPE_ERROR.format((4,), (2,), "int32[16]", named(MESH_4, "P('x',)"))
    ),
}


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    result: dict[str, Any] = run_json_program(_PROGRAM, "assembly", timeout_s=TIMEOUT_S)
    return result


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_8_devices_as_jax(report: dict[str, Any], name: str) -> None:
    assert report[name] == EXPECTED[name]


# ---------------------------------------------------------------------------
# One device, in-process
# ---------------------------------------------------------------------------


def test_one_device_from_callback() -> None:
    device = jax.devices()[0]
    value = np.arange(6, dtype=np.int32).reshape(2, 3)
    s = SingleDeviceSharding(device)
    indices: list[Any] = []

    def fetch(index: Any) -> Any:
        indices.append(index)
        return value[index]

    out = make_array_from_callback((2, 3), s, fetch)
    assert indices == [(slice(None), slice(None))]
    assert out.sharding is s and out._committed  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
    assert np.asarray(out).tolist() == value.tolist() and out.dtype == np.int32
    mesh = Mesh(np.array([device]), ("x",))
    out2 = make_array_from_callback(
        (4,), NamedSharding(mesh, P("x")), lambda i: np.arange(4, dtype=np.int32)[i]
    )
    assert np.asarray(out2).tolist() == [0, 1, 2, 3] and out2.sharding == NamedSharding(
        mesh, P("x")
    )
    assert (out2 + 1).tolist() == [1, 2, 3, 4]  # usable in computations


def test_one_device_errors() -> None:
    device = jax.devices()[0]
    s = SingleDeviceSharding(device)
    with pytest.raises(TypeError) as info:
        make_array_from_callback((2,), P("x"), lambda i: np.zeros(2))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert str(info.value) == (
        "sharding should be an instance of `jax.sharding`. Got P('x',) of type "
        "<class 'jax_core._src.sharding.partition_spec.PartitionSpec'>"
    )
    with pytest.raises(
        TypeError, match=r"^Argument '\[1, 2\]' of type <class 'list'> is not a valid JAX type\.$"
    ):
        make_array_from_callback((2,), s, lambda i: [1, 2])  # type: ignore[arg-type, return-value]  # pyright: ignore[reportArgumentType]

    def traced(x: Any) -> Any:
        return make_array_from_callback((2,), s, lambda i: x)

    with pytest.raises(UnexpectedTracerError, match="cannot be called within a traced context"):
        jax.jit(traced)(jnp.zeros(2))
    piece = jax.device_put(np.arange(2, dtype=np.int32), device)
    out = make_array_from_single_device_arrays((2,), s, [piece])
    assert np.asarray(out).tolist() == [0, 1] and out.sharding is s
    piece.delete()
    with pytest.raises(RuntimeError, match="Array has been deleted"):
        make_array_from_single_device_arrays((2,), s, [piece])
