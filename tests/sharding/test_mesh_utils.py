"""Tests for ``jax_core.experimental.mesh_utils`` (``create_device_mesh``, ``create_hybrid_device_mesh``).

Real CPU devices: ONE subprocess with 8 devices printing a JSON report. Several granules (slices or
processes) cannot exist on one CPU process, so hybrid meshes of several granules use stand-in
device objects, in-process. Expected layouts and messages were recorded from real jax 0.12.0.1
(the oracle venv, same calls) and are hard-coded; device ids are compared exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.sharding._programs import run_json_program

from jax_core.experimental import mesh_utils

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120

_PROGRAM = r"""
import json
import numpy as np
import jax_core as jax
from jax_core.experimental import mesh_utils as mu

d = jax.devices()
out = {}
def run(name, f):
    try:
        r = f()
    except Exception as e:
        out[name] = [type(e).__name__, str(e)]
        return
    out[name] = [list(r.shape), np.vectorize(lambda x: x.id, otypes=[int])(r).tolist()]

run("2x4", lambda: mu.create_device_mesh((2, 4)))
run("list_shape", lambda: mu.create_device_mesh([4, 2]))
run("array_shape", lambda: mu.create_device_mesh(np.array([2, 2, 2])))
run("float_shape", lambda: mu.create_device_mesh((2.0, 4.0)))
run("int_shape", lambda: mu.create_device_mesh(8))
run("str_shape", lambda: mu.create_device_mesh(("a", 2)))
run("wrong_count", lambda: mu.create_device_mesh((2, 2)))
run("given_devices", lambda: mu.create_device_mesh((2, 2), d[4:]))
run("given_devices_reversed", lambda: mu.create_device_mesh((2, 2), d[4:][::-1]))
run("contiguous", lambda: mu.create_device_mesh((2, 4), contiguous_submeshes=True))
run("split_axes", lambda: mu.create_device_mesh((2, 4), allow_split_physical_axes=True))
run("scalar", lambda: mu.create_device_mesh((), d[:1]))
run("hybrid_slices", lambda: mu.create_hybrid_device_mesh((2, 4), (1, 1)))
run("hybrid_process", lambda: mu.create_hybrid_device_mesh((2, 4), (1, 1), process_is_granule=True))
run("hybrid_process_3d", lambda: mu.create_hybrid_device_mesh((2, 2, 2), (1, 1, 1), process_is_granule=True))
run("hybrid_too_many_granules", lambda: mu.create_hybrid_device_mesh((2, 2), (2, 1), process_is_granule=True))
run("hybrid_wrong_block", lambda: mu.create_hybrid_device_mesh((2, 2), (1, 1), process_is_granule=True))
mesh = jax.sharding.Mesh(mu.create_device_mesh((2, 4)), ("x", "y"))
out["mesh"] = repr(mesh)
print(json.dumps(out))
"""

EXPECTED: dict[str, Any] = {
    "2x4": [[2, 4], [[0, 1, 2, 3], [4, 5, 6, 7]]],
    "list_shape": [[4, 2], [[0, 1], [2, 3], [4, 5], [6, 7]]],
    "array_shape": [[2, 2, 2], [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]],
    "float_shape": [[2, 4], [[0, 1, 2, 3], [4, 5, 6, 7]]],
    "int_shape": ["TypeError", "'int' object is not iterable"],
    "str_shape": [
        "ValueError",
        "`mesh_shape` passed to `create_device_mesh` should be a sequence of ints. Got ('a', 2)",
    ],
    "wrong_count": [
        "ValueError",
        "Number of devices 8 must equal the product of mesh_shape (2, 2)",
    ],
    "given_devices": [[2, 2], [[4, 5], [6, 7]]],
    "given_devices_reversed": [[2, 2], [[7, 6], [5, 4]]],
    "contiguous": [[2, 4], [[0, 1, 2, 3], [4, 5, 6, 7]]],
    "split_axes": [[2, 4], [[0, 1, 2, 3], [4, 5, 6, 7]]],
    "scalar": [[], 0],
    "hybrid_slices": [
        "ValueError",
        "Device cpu:0 does not have attribute slice_index. See `process_is_granule` option.",
    ],
    "hybrid_process": [[2, 4], [[0, 1, 2, 3], [4, 5, 6, 7]]],
    "hybrid_process_3d": [[2, 2, 2], [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]],
    "hybrid_too_many_granules": [
        "ValueError",
        "Number of slices 1 must equal the product of dcn_mesh_shape (2, 1)",
    ],
    "hybrid_wrong_block": [
        "ValueError",
        "Number of devices 8 must equal the product of mesh_shape (2, 2)",
    ],
    "mesh": "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))",
}


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    result: dict[str, Any] = run_json_program(_PROGRAM, "mesh_utils", timeout_s=TIMEOUT_S)
    return result


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_8_cpu_devices_as_jax(report: dict[str, Any], name: str) -> None:
    assert report[name] == EXPECTED[name]


# ---------------------------------------------------------------------------
# Stand-in devices, in-process
# ---------------------------------------------------------------------------


class FakeDevice:
    """What the layout functions read of a device."""

    def __init__(self, id: int, granule: int, platform: str = "cpu") -> None:
        self.id = id
        self.slice_index = granule
        self.process_index = granule
        self.device_kind = platform
        self.platform = platform

    def __repr__(self) -> str:
        return f"FakeDevice({self.id})"


def _id(device: Any) -> int:
    return int(device.id)


def ids(grid: np.ndarray[Any, Any]) -> list[Any]:
    out: list[Any] = np.vectorize(_id, otypes=[int])(grid).tolist()
    return out


# Devices 0-3 in granule 0 and 4-7 in granule 1; and the same devices with granules swapped.
TWO = [FakeDevice(i, i // 4) for i in range(8)]
SWAPPED = [FakeDevice(i, 1 - i // 4) for i in range(8)]


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (
            lambda: mesh_utils.create_hybrid_device_mesh((2, 2), (2, 1), TWO),
            [[0, 1], [2, 3], [4, 5], [6, 7]],
        ),
        (
            lambda: mesh_utils.create_hybrid_device_mesh((2, 2), (1, 2), TWO),
            [[0, 1, 4, 5], [2, 3, 6, 7]],
        ),
        (lambda: mesh_utils.create_hybrid_device_mesh((4,), (2,), TWO), list(range(8))),
        (
            lambda: mesh_utils.create_hybrid_device_mesh(
                (2, 2), (2, 1), SWAPPED, should_sort_granules_by_key=False
            ),
            [[0, 1], [2, 3], [4, 5], [6, 7]],
        ),
        (
            lambda: mesh_utils.create_hybrid_device_mesh((2, 2), (2, 1), SWAPPED),
            [[4, 5], [6, 7], [0, 1], [2, 3]],
        ),
        (
            lambda: mesh_utils.create_hybrid_device_mesh(
                (2, 2), (1, 2), SWAPPED, process_is_granule=True
            ),
            [[4, 5, 0, 1], [6, 7, 2, 3]],
        ),
        (
            lambda: mesh_utils.create_hybrid_device_mesh((1, 2, 2), (2, 1, 1), TWO),
            [[[0, 1], [2, 3]], [[4, 5], [6, 7]]],
        ),
    ],
)
def test_hybrid_meshes_as_jax(
    make: Callable[[], np.ndarray[Any, Any]], expected: list[Any]
) -> None:
    assert ids(make()) == expected


def test_hybrid_granule_count_error() -> None:
    with pytest.raises(ValueError) as info:
        mesh_utils.create_hybrid_device_mesh((2, 2), (4, 1), TWO)
    assert str(info.value) == "Number of slices 2 must equal the product of dcn_mesh_shape (4, 1)"


def test_platform_rules_and_handlers() -> None:
    gpus = [FakeDevice(i, 0, "gpu") for i in (3, 1, 2, 0)]
    assert ids(mesh_utils.create_device_mesh((2, 2), gpus)) == [[0, 1], [2, 3]]  # GPUs sorted by id
    with pytest.raises(NotImplementedError, match="TPU layouts are not supported"):
        mesh_utils.create_device_mesh((2, 2), [FakeDevice(i, 0, "tpu") for i in range(4)])
    calls: list[tuple[int, ...]] = []

    def handler(shape: tuple[int, ...], devices: Any, *, contiguous_submeshes: bool) -> Any:
        calls.append(shape)
        return (
            None if contiguous_submeshes else np.array(devices[::-1], dtype=object).reshape(shape)
        )

    devices = [FakeDevice(i, 0, "tpu") for i in range(4)]
    for d in devices:
        d.device_kind = "fake kind"
    mesh_utils.device_kind_handler_dict["fake kind"] = handler
    try:
        assert ids(mesh_utils.create_device_mesh((4,), devices)) == [3, 2, 1, 0]
        with pytest.raises(NotImplementedError):  # the handler declined: the platform rule applies
            mesh_utils.create_device_mesh((4,), devices, contiguous_submeshes=True)
    finally:
        del mesh_utils.device_kind_handler_dict["fake kind"]
    assert calls == [(4,), (4,)]
