"""Tests for ``AbstractMesh``/``AbstractDevice`` and the current mesh (``jax.set_mesh``,
``jax.sharding.get_abstract_mesh``, ``use_abstract_mesh``).

One-device checks run in-process; 8-device checks run in ONE subprocess (the CPU device count is
fixed when the backend starts) that prints a JSON report. Expected reprs and error messages were
recorded from real jax 0.12.0.1 (the oracle venv) and are hard-coded.
"""

from __future__ import annotations

import pickle
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.sharding._programs import run_json_program

import jax_core as jax
from jax_core._src.sharding import mesh as mesh_src
from jax_core._src.sharding import mesh_context
from jax_core.sharding import (
    AbstractDevice,
    AbstractMesh,
    AxisType,
    Mesh,
    get_abstract_mesh,
    get_mesh,
    set_mesh,
    use_abstract_mesh,
)

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
CPU = AbstractDevice(device_kind="cpu", num_cores=None, platform="cpu")
EMPTY_ABSTRACT = "AbstractMesh((), axis_types=())"
ONE = "AbstractMesh('x': 1, axis_types=(Auto,), device_kind=cpu, num_cores=None, platform=cpu)"


def one_device_mesh(*names: str, types: tuple[AxisType, ...] | None = None) -> Mesh:
    devices = np.array(jax.devices()[:1]).reshape((1,) * len(names))
    return Mesh(devices, names, types)


# ---------------------------------------------------------------------------
# AbstractMesh, AbstractDevice
# ---------------------------------------------------------------------------


def test_abstract_mesh_fields_and_repr() -> None:
    am = AbstractMesh((2, 4), ("x", "y"))
    assert repr(am) == str(am) == "AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit))"
    assert list(am.shape.items()) == [("x", 2), ("y", 4)]
    assert am.shape_tuple == (("x", 2), ("y", 4))
    assert (am.size, am.axis_sizes, am.axis_names, am.empty) == (8, (2, 4), ("x", "y"), False)
    assert am.axis_types == (AxisType.Explicit, AxisType.Explicit)
    assert am.abstract_device is None and am.abstract_mesh is am
    assert am._internal_device_list is None  # pyright: ignore[reportPrivateUsage]
    mixed = AbstractMesh((2, 4), ("x", "y"), (AxisType.Auto, AxisType.Explicit))
    assert repr(mixed) == "AbstractMesh('x': 2, 'y': 4, axis_types=(Auto, Explicit))"
    assert repr(AbstractMesh((8,), ("x",), AxisType.Auto)) == "AbstractMesh('x': 8, axis_types=(Auto,))"
    empty = AbstractMesh((), ())
    assert (repr(empty), empty.size, empty.empty) == (EMPTY_ABSTRACT, 0, True)
    with_device = AbstractMesh((2,), ("x",), abstract_device=CPU)
    assert repr(with_device) == (
        "AbstractMesh('x': 2, axis_types=(Explicit,), device_kind=cpu, num_cores=None, platform=cpu)"
    )


def test_abstract_mesh_equality_hash_pickle() -> None:
    am = AbstractMesh((2, 4), ("x", "y"))
    same = AbstractMesh((2, 4), ("x", "y"), (AxisType.Explicit, AxisType.Explicit))
    assert am == same and hash(am) == hash(same)
    assert am != AbstractMesh((2, 4), ("x", "y"), (AxisType.Auto,) * 2)
    assert am != AbstractMesh((2, 4), ("x", "y"), abstract_device=CPU)
    assert am != AbstractMesh((4, 2), ("x", "y"))
    assert len({am, same}) == 1
    with_device = AbstractMesh((2,), ("x",), abstract_device=CPU)
    assert pickle.loads(pickle.dumps(with_device)) == with_device
    with pytest.raises(AttributeError):
        am.size = 3  # pyright: ignore[reportAttributeAccessIssue]


def test_abstract_mesh_methods() -> None:
    am = AbstractMesh((2, 4), ("x", "y"))
    assert repr(am.update(axis_names=("a", "b"))) == (
        "AbstractMesh('a': 2, 'b': 4, axis_types=(Explicit, Explicit))"
    )
    assert repr(am.update_axis_types({"x": AxisType.Manual})) == (
        "AbstractMesh('x': 2, 'y': 4, axis_types=(Manual, Explicit))"
    )
    assert am.update(abstract_device=CPU).abstract_device == CPU
    assert AbstractMesh((2,), ("x",), abstract_device=CPU).update(axis_sizes=(4,)).abstract_device == CPU
    assert (am.auto_axes, am.explicit_axes, am.manual_axes) == ((), ("x", "y"), ())
    assert (am.are_all_axes_explicit, am.are_all_axes_auto, am.are_all_axes_manual) == (True, False, False)
    assert AbstractMesh((), ()).are_all_axes_explicit is False


@pytest.mark.parametrize("attr", ["devices", "device_ids", "local_devices", "is_multi_process", "local_mesh"])
def test_abstract_mesh_has_no_devices(attr: str) -> None:
    with pytest.raises(ValueError, match=f"^AbstractMesh does not implement {attr}$"):
        getattr(AbstractMesh((2,), ("x",)), attr)


def test_abstract_mesh_errors() -> None:
    with pytest.raises(TypeError) as info:
        AbstractMesh((2, 4), ("x", "y"), ("a", "b"))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert str(info.value) == (
        "axis_types passed to AbstractMesh must be of type `jax.sharding.AxisType`. Got ('a', 'b') "
        "of type (<class 'str'>, <class 'str'>)"
    )
    with pytest.raises(TypeError, match="unhashable type: 'list'"):
        AbstractMesh([2, 4], ["x", "y"])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    with pytest.raises(ValueError):  # JAX: ValueError (from its safe_zip) when first used
        AbstractMesh((2, 4), ("x",))
    with pytest.raises(ValueError, match="Number of axis names should match the number of axis_types"):
        AbstractMesh((2, 4), ("x", "y"), (AxisType.Auto,))


def test_abstract_device() -> None:
    assert repr(CPU) == "AbstractDevice(device_kind=cpu, num_cores=None, platform=cpu)"
    assert CPU == AbstractDevice("cpu", None, "cpu") and hash(CPU) == hash(AbstractDevice("cpu", None, "cpu"))
    with pytest.raises(TypeError):
        AbstractDevice("cpu", None)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]
    assert AbstractDevice.of(jax.devices()[0]) == CPU


def test_mesh_abstract_mesh_and_empty_mesh() -> None:
    mesh = one_device_mesh("x")
    assert repr(mesh.abstract_mesh) == ONE
    assert mesh.abstract_mesh is mesh.abstract_mesh
    assert mesh.abstract_mesh == AbstractMesh((1,), ("x",), (AxisType.Auto,), abstract_device=CPU)
    assert repr(jax.make_mesh((1,), ("x",)).abstract_mesh) == (
        "AbstractMesh('x': 1, axis_types=(Explicit,), device_kind=cpu, num_cores=None, platform=cpu)"
    )
    empty = Mesh(np.empty((), dtype=object), ())
    assert (repr(empty), str(empty), empty.size, empty.empty) == (
        "Mesh(axis_sizes=(), axis_names=())", "Mesh()", 0, True
    )
    assert empty == Mesh(np.empty((), dtype=object), ()) and repr(empty.abstract_mesh) == EMPTY_ABSTRACT
    scalar = Mesh(np.array(jax.devices()[0]), ())
    assert (scalar.size, scalar.is_scalar, scalar.empty) == (1, True, False)
    assert repr(scalar) == "Mesh(axis_sizes=(), axis_names=(), axis_types=())"
    assert repr(scalar.abstract_mesh) == EMPTY_ABSTRACT
    assert mesh.local_mesh == mesh and mesh.auto_axes == ("x",)


def test_with_mesh_is_deprecated() -> None:
    mesh = one_device_mesh("x")
    with pytest.warns(DeprecationWarning, match=r"`with mesh:` context manager has been deprecated"):
        with mesh:
            assert mesh_src.resource_env_mesh() is mesh
            assert get_mesh().empty and repr(get_abstract_mesh()) == EMPTY_ABSTRACT  # as in JAX
    assert mesh_src.resource_env_mesh() is None


# ---------------------------------------------------------------------------
# set_mesh and friends, one device
# ---------------------------------------------------------------------------


def test_nothing_set() -> None:
    assert repr(get_abstract_mesh()) == EMPTY_ABSTRACT
    assert repr(get_mesh()) == "Mesh(axis_sizes=(), axis_names=())"
    assert mesh_context.get_concrete_mesh() is None
    assert not hasattr(jax.sharding, "use_mesh")  # removed in JAX 0.12


def test_set_mesh_as_context_manager_and_nested() -> None:
    m1 = one_device_mesh("x")
    m2 = jax.make_mesh((1, 1), ("a", "b"))
    with set_mesh(m1) as bound:
        assert bound is None
        assert get_mesh() is m1 and mesh_context.get_concrete_mesh() is m1
        assert repr(get_abstract_mesh()) == ONE
        with set_mesh(m2):
            assert str(get_mesh()) == "Mesh('a': 1, 'b': 1, axis_types=(Explicit, Explicit))"
            assert repr(get_abstract_mesh()) == (
                "AbstractMesh('a': 1, 'b': 1, axis_types=(Explicit, Explicit), device_kind=cpu, "
                "num_cores=None, platform=cpu)"
            )
        assert get_mesh() is m1
        with set_mesh(None):
            assert get_mesh().empty and mesh_context.get_concrete_mesh() is None
            assert repr(get_abstract_mesh()) == EMPTY_ABSTRACT
        assert get_mesh() is m1
    assert mesh_context.get_concrete_mesh() is None


def test_set_mesh_as_global_setter_is_thread_local() -> None:
    mesh = one_device_mesh("x")
    setter = set_mesh(mesh)
    try:
        assert type(setter) is set_mesh
        assert get_mesh() is mesh and repr(get_abstract_mesh()) == ONE
        seen: list[Any] = []
        thread = threading.Thread(target=lambda: seen.append((get_mesh().empty, repr(get_abstract_mesh()))))
        thread.start()
        thread.join()
        assert seen == [(True, EMPTY_ABSTRACT)]
    finally:
        setter.__exit__(None, None, None)
    assert mesh_context.get_concrete_mesh() is None and repr(get_abstract_mesh()) == EMPTY_ABSTRACT


def test_set_mesh_errors() -> None:
    with pytest.raises(ValueError) as info:
        set_mesh("x")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert str(info.value) == "Expected mesh of type `jax.sharding.Mesh`. Got <class 'str'>"
    with pytest.raises(ValueError) as info:
        set_mesh(one_device_mesh("x", types=(AxisType.Manual,)))
    assert str(info.value) == (
        "mesh Mesh('x': 1, axis_types=(Manual,)) contains manual axes which is not allowed when "
        "using `jax.set_mesh`. Please use `jax.shard_map` to enter into `Manual` mode instead."
    )
    assert mesh_context.get_concrete_mesh() is None


def test_inside_jit() -> None:
    mesh = one_device_mesh("x")
    errors: list[str] = []
    abstract: list[str] = []

    def f(x: Any) -> Any:
        for call in (get_mesh, lambda: set_mesh(mesh)):
            try:
                call()
            except ValueError as err:
                errors.append(str(err))
        abstract.append(repr(get_abstract_mesh()))
        return x

    with set_mesh(mesh):
        jax.jit(f)(1.0)
    assert errors == [
        "`get_mesh` can only be used outside of `jax.jit`. Maybe you want "
        "`jax.sharding.get_abstract_mesh()`?",
        "`set_mesh` can only be used outside of `jax.jit`.",
    ]
    assert abstract == [ONE]


def test_use_abstract_mesh() -> None:
    q1 = AbstractMesh((1,), ("q",))
    with use_abstract_mesh(q1) as bound:
        assert bound is None
        assert repr(get_abstract_mesh()) == "AbstractMesh('q': 1, axis_types=(Explicit,))"
        assert get_mesh().empty
        with set_mesh(one_device_mesh("x")):
            assert repr(get_abstract_mesh()) == ONE
        assert get_abstract_mesh() == q1
    assert repr(get_abstract_mesh()) == EMPTY_ABSTRACT
    with pytest.raises(ValueError) as info:
        use_abstract_mesh(one_device_mesh("x"))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
    assert str(info.value) == (
        "Expected mesh of type `jax.sharding.AbstractMesh`. Got type: "
        "<class 'jax_core._src.sharding.mesh.Mesh'>"
    )
    with set_mesh(one_device_mesh("x")):
        with pytest.raises(ValueError) as info:
            use_abstract_mesh(AbstractMesh((2,), ("q",))).__enter__()
        assert get_abstract_mesh() == one_device_mesh("x").abstract_mesh
        with use_abstract_mesh(AbstractMesh((), ())):  # an empty mesh is always allowed
            assert repr(get_abstract_mesh()) == EMPTY_ABSTRACT and not get_mesh().empty
    assert str(info.value) == (
        "use_abstract_mesh cannot change the size of the mesh. Got new mesh: AbstractMesh('q': 2, "
        f"axis_types=(Explicit,)) with size=2 and prev mesh: {ONE} with size=1"
    )


# ---------------------------------------------------------------------------
# 8 devices (one subprocess)
# ---------------------------------------------------------------------------

_PROGRAM = r"""
import json, threading
import jax_core as jax
from jax_core.sharding import AbstractMesh, AxisType, get_abstract_mesh, get_mesh, set_mesh, use_abstract_mesh

out = {}
def err(f):
    try:
        f()
    except Exception as e:
        return [type(e).__name__, str(e)]
    return None
m8 = jax.make_mesh((2, 4), ("x", "y"))
m4 = jax.make_mesh((4,), ("z",), axis_types=(AxisType.Auto,))
out["m8_abstract"] = repr(m8.abstract_mesh)
out["m4_abstract"] = repr(m4.abstract_mesh)
out["m8_abstract_shape"] = [list(m8.abstract_mesh.shape.items()), m8.abstract_mesh.size]
f = jax.jit(lambda x: x + get_abstract_mesh().size)
trace = [int(f(1))]
with set_mesh(m8):
    trace.append(int(f(1)))
    out["inside"] = [get_mesh() is m8, repr(get_abstract_mesh()), str(get_mesh())]
    seen = []
    t = threading.Thread(target=lambda: seen.append([repr(get_abstract_mesh()), str(get_mesh())]))
    t.start(); t.join()
    out["other_thread"] = seen[0]
    out["size_change"] = err(lambda: use_abstract_mesh(AbstractMesh((4,), ("q",))).__enter__())
    out["after_size_change"] = repr(get_abstract_mesh())
    with use_abstract_mesh(AbstractMesh((8,), ("q",), (AxisType.Auto,))):
        out["same_size"] = [repr(get_abstract_mesh()), str(get_mesh())]
        trace.append(int(f(1)))
with set_mesh(m4):
    trace.append(int(f(1)))
trace.append(int(f(1)))
out["trace"] = trace
g = set_mesh(m4)
out["global_setter"] = [str(get_mesh()), repr(get_abstract_mesh())]
g.__exit__(None, None, None)
out["after_global"] = [repr(get_mesh()), repr(get_abstract_mesh())]
out["make_mesh_errors"] = [
    err(lambda: jax.make_mesh((4, 4), ("x", "y"))),
    err(lambda: jax.make_mesh(("a", 4), ("x", "y"))),
    err(lambda: jax.make_mesh((2, 4), ("x",))),
    err(lambda: jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Auto,))),
]
out["make_mesh_devices"] = jax.make_mesh((2, 2), ("x", "y"), devices=jax.devices()[4:]).device_ids.tolist()
out["make_mesh_fewer"] = jax.make_mesh((3,), ("x",)).device_ids.tolist()
print(json.dumps(out))
"""

M8 = "AbstractMesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit), device_kind=cpu, num_cores=None, platform=cpu)"


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    result: dict[str, Any] = run_json_program(_PROGRAM, "mesh context", timeout_s=TIMEOUT_S)
    return result


def test_8_devices_abstract_meshes(report: dict[str, Any]) -> None:
    assert report["m8_abstract"] == M8
    assert report["m4_abstract"] == (
        "AbstractMesh('z': 4, axis_types=(Auto,), device_kind=cpu, num_cores=None, platform=cpu)"
    )
    assert report["m8_abstract_shape"] == [[["x", 2], ["y", 4]], 8]


def test_8_devices_set_mesh(report: dict[str, Any]) -> None:
    assert report["inside"] == [True, M8, "Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit))"]
    assert report["other_thread"] == [EMPTY_ABSTRACT, "Mesh()"]
    assert report["global_setter"] == [
        "Mesh('z': 4, axis_types=(Auto,))",
        "AbstractMesh('z': 4, axis_types=(Auto,), device_kind=cpu, num_cores=None, platform=cpu)",
    ]
    assert report["after_global"] == ["Mesh(axis_sizes=(), axis_names=())", EMPTY_ABSTRACT]


def test_8_devices_use_abstract_mesh(report: dict[str, Any]) -> None:
    assert report["size_change"] == [
        "ValueError",
        "use_abstract_mesh cannot change the size of the mesh. Got new mesh: AbstractMesh('q': 4, "
        f"axis_types=(Explicit,)) with size=4 and prev mesh: {M8} with size=8",
    ]
    assert report["after_size_change"] == M8
    assert report["same_size"] == [
        "AbstractMesh('q': 8, axis_types=(Auto,))",
        "Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit))",
    ]


def test_8_devices_jit_traces_again_per_mesh(report: dict[str, Any]) -> None:
    # Values as real JAX computes them: the mesh in force is part of jit's cache key.
    assert report["trace"] == [1, 9, 9, 5, 1]


def test_8_devices_make_mesh(report: dict[str, Any]) -> None:
    assert report["make_mesh_errors"] == [
        ["ValueError", "Number of devices 8 must be >= the product of mesh_shape (4, 4)"],
        ["ValueError", "`axis_sizes` passed to `make_mesh` should be a sequence of ints. Got ('a', 4)"],
        [
            "ValueError",
            "Mesh requires the ndim of its first argument (`devices`) to equal the length of its "
            "second argument (`axis_names`), but got devices.ndim == 2 and len(axis_names) == 1.",
        ],
        [
            "ValueError",
            "Number of axis names should match the number of axis_types. Got axis_names=('x', 'y') "
            "and axis_types=(Auto,)",
        ],
    ]
    assert report["make_mesh_devices"] == [[4, 5], [6, 7]]
    assert report["make_mesh_fewer"] == [0, 1, 2]
