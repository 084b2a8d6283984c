"""``Exported`` serialization: round trips of every field through JAX 0.12's flatbuffer, the
errors JAX gives, and real JAX reading what jax_core writes (and the reverse) where the oracle
(``.venv-jax``) is available (the oracle tests skip without it).

The ``Exported`` objects are built directly (``_exported_fixtures.make``), so these tests do not
depend on ``export``.
"""

from __future__ import annotations

import collections
import dataclasses
import re
from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect
from jax_core._src.export import flatbuffer_tables as fb
from jax_core._src.export import serialization
from jax_core._src.export.exported import DisabledSafetyCheck, Exported
from jax_core._src.export.pytree_serialization import (
    register_namedtuple_serialization,
    register_pytree_node_serialization,
)
from jax_core._src.export.serialization import deserialize, serialize
from jax_core._src.random import rbg, threefry
from jax_core._src.random.keys import KeyTy
from jax_core._src.sharding.mesh import AxisType, Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec as P
from jax_core._src.sharding.shardings import NamedSharding
from jax_core._src.tree.tree_util import register_pytree_node, tree_structure
from tests.export import _goldens
from tests.export._exported_fixtures import (
    DESCRIBE,
    F32,
    JAX_POINT,
    MODULE,
    X,
    describe_here,
    fields_of,
    jax_reads,
    make,
)
from tests.oracle.client import Call, evaluate


def _replace(record: fb.ExportedRecord, **changes: Any) -> fb.ExportedRecord:
    return dataclasses.replace(record, **changes)


def round_trip(exp: Exported, vjp_order: int = 0) -> Exported:
    blob = serialize(exp, vjp_order=vjp_order)
    assert isinstance(blob, bytearray)
    return deserialize(blob)


class TestEffect(Effect):
    """An effect with a nullary constructor giving equal instances (serializable by JAX's rule)."""

    __test__ = False

    def __eq__(self, other: object) -> bool:
        return type(other) is TestEffect

    def __hash__(self) -> int:
        return hash(TestEffect)


class NoNullaryEffect(Effect):
    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return f"NoNullary({self.name})"


def one_device_mesh(names: tuple[str, ...] = ("x",)) -> Mesh:
    from jax_core._src.backend.client import devices

    grid = np.empty(1, dtype=object)
    grid[0] = devices()[0]
    return Mesh(grid.reshape((1,) * len(names)), names)


# ---------------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------------


def test_every_field_round_trips() -> None:
    from jax_core._src.ffi.call import ffi_effect

    mesh = one_device_mesh(("x", "y"))
    s1 = NamedSharding(mesh, P("x", None))
    s2 = NamedSharding(mesh, P(("x", "y")), memory_kind="device")
    exp = make(
        fun_name="fün_名",
        in_tree=tree_structure(((0,), {"k": 0, "a": [0, None]})),
        in_avals=(X, ShapedArray((), np.dtype(np.int32)), ShapedArray((4, 1), F32)),
        _in_named_shardings=(s1, None, s2),
        _out_named_shardings=(None, s1),
        platforms=("cpu", "cuda", "tpu"),
        ordered_effects=(TestEffect(),),
        unordered_effects=(ffi_effect,),
        disabled_safety_checks=(
            DisabledSafetyCheck.platform(),
            DisabledSafetyCheck.custom_call("my_target"),
        ),
        calling_convention_version=9,
        module_kept_var_idx=(0, 2),
        uses_global_constants=True,
        nr_devices=1,
    )
    back = round_trip(exp)
    assert fields_of(back) == fields_of(exp)
    assert back.unordered_effects[0] is ffi_effect  # jax_core's effects compare by identity
    assert not back.has_vjp()


NUMPY_DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
ML_DTYPES = (
    "bfloat16", "int4", "uint4", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e4m3", "float8_e3m4", "float8_e8m0fnu",
    "float4_e2m1fn",
)  # fmt: skip
ALL_DTYPES: tuple[np.dtype[Any], ...] = (
    *map(np.dtype, NUMPY_DTYPES),
    *(np.dtype(getattr(ml_dtypes, n)) for n in ML_DTYPES),
    dtypes.float0,
)
"""Every dtype of the schema but the PRNG keys."""


def key_dtypes() -> tuple[Any, ...]:
    impls = (threefry.threefry_prng_impl, rbg.rbg_prng_impl, rbg.unsafe_rbg_prng_impl)
    return tuple(KeyTy(impl) for impl in impls)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_dtype_round_trips(dtype: np.dtype[Any]) -> None:
    aval = ShapedArray((3, 0, 2), dtype)
    back = round_trip(
        make(in_avals=(aval,), in_tree=tree_structure(((0,), {})), module_kept_var_idx=(0,))
    )
    assert back.in_avals == (aval,)
    assert back.in_avals[0].dtype == dtype


def test_prng_key_dtypes_round_trip_once_registered() -> None:
    for dtype in key_dtypes():
        aval = ShapedArray((2,), dtype)
        back = round_trip(make(out_avals=(aval,), out_tree=tree_structure(0)))
        assert back.out_avals == (aval,) and str(back.out_avals[0]) == str(aval)
    with pytest.raises(ValueError, match="already"):
        serialization.register_dtype_code(KeyTy(rbg.rbg_prng_impl), serialization.DTYPE_KEY_FRY)


def test_unsupported_dtype_is_not_serialized() -> None:
    exp = make(out_avals=(ShapedArray((2,), np.dtype(ml_dtypes.int2)),), out_tree=tree_structure(0))
    with pytest.raises(NotImplementedError, match="int2"):
        serialize(exp)


def test_avals_come_back_without_weak_type() -> None:
    weak = ShapedArray((), F32, weak_type=True)
    back = round_trip(
        make(in_avals=(weak,), in_tree=tree_structure(((0,), {})), module_kept_var_idx=(0,))
    )
    assert back.in_avals == (ShapedArray((), F32),)


def test_what_is_written_matches_jax_012() -> None:
    mesh = one_device_mesh()
    s = NamedSharding(mesh, P("x"))
    exp = make(_in_named_shardings=(s, s), _out_named_shardings=(None, s))
    (record,) = fb.read_exported_chain(bytes(serialize(exp)))
    assert record.serialization_version == 12
    assert record.jax_version == serialization.JAX_VERSION_WRITTEN
    assert record.nr_devices == 1 and record.nr_devices_short == 0
    # the uniques with their indices, and the per-argument vectors older readers use
    assert (
        len(record.unique_avals) == 1
        and record.in_avals_idxs == (0, 0)
        and record.out_avals_idxs == (0, 0)
    )
    assert record.in_avals == record.out_avals == (record.unique_avals[0],) * 2
    assert record.unique_avals[0] == fb.AbstractValueRecord(
        ("2", "3"), dtype=10, memory_space=fb.MEMORY_SPACE_DEVICE
    )
    assert len(record.unique_abstract_meshes) == 1 and len(record.unique_named_shardings) == 1
    assert record.in_shardings_idxs == (1, 1) and record.out_shardings_idxs == (0, 1)
    named = record.unique_named_shardings[0]
    assert record.in_shardings == (fb.ShardingRecord(named),) * 2
    assert named.mesh == record.unique_abstract_meshes[0] and named.abstract_mesh_idx == 0
    assert named.mesh.axis_types == (fb.AXIS_TYPE_AUTO,)  # pyright: ignore[reportOptionalMemberAccess]
    assert named.spec == fb.PartitionSpecRecord((("x",),), (), ())


def test_sharding_needs_enough_devices_here() -> None:
    mesh = one_device_mesh()
    (record,) = fb.read_exported_chain(
        bytes(serialize(make(_in_named_shardings=(NamedSharding(mesh, P("x")), None))))
    )
    big = fb.AbstractMeshRecord(
        (4096,), ("x",), (fb.AXIS_TYPE_EXPLICIT,), record.unique_abstract_meshes[0].abstract_device
    )
    blob = fb.write_exported_chain([_replace(record, unique_abstract_meshes=(big,))])
    with pytest.raises(ValueError, match="mesh of 4096"):
        deserialize(blob)


def test_axis_types_round_trip() -> None:
    from jax_core._src.backend.client import devices

    grid = np.empty((1, 1), dtype=object)
    grid[0, 0] = devices()[0]
    mesh = Mesh(grid, ("a", "b"), (AxisType.Explicit, AxisType.Manual))
    back = round_trip(make(_out_named_shardings=(NamedSharding(mesh, P(None, "b")), None)))
    sharding = back._out_named_shardings[0]
    assert sharding is not None and sharding.mesh.axis_types == (AxisType.Explicit, AxisType.Manual)
    assert sharding.spec == P(None, "b")


# ---------------------------------------------------------------------------------------------
# Pytrees
# ---------------------------------------------------------------------------------------------

Pair = collections.namedtuple("Pair", ["first", "second"])
register_namedtuple_serialization(Pair, serialized_name="test_serialization.Pair")


class Box:
    def __init__(self, items: list[Any], label: str) -> None:
        self.items, self.label = items, label


register_pytree_node(
    Box, lambda b: (b.items, b.label), lambda label, items: Box(list(items), label)
)
register_pytree_node_serialization(
    Box,
    serialized_name="test_serialization.Box",
    serialize_auxdata=lambda label: label.encode(),
    deserialize_auxdata=lambda raw: raw.decode(),
)


class Reversed:
    """Stores its children reversed: ``from_children`` gives them in flattening order."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b


register_pytree_node(Reversed, lambda r: ((r.b, r.a), None), lambda _, c: Reversed(c[1], c[0]))
register_pytree_node_serialization(
    Reversed,
    serialized_name="test_serialization.Reversed",
    serialize_auxdata=lambda _: b"",
    deserialize_auxdata=lambda _: None,
    from_children=lambda _, children: Reversed(children[1], children[0]),
)


@pytest.mark.parametrize(
    "tree",
    [
        0,
        None,
        (),
        [0, (0, None), {"b": 0, "a": [0, 0]}],
        {"": 0, "ü": None, "z": {"y": (0,)}},
        Pair(first=0, second=[0, None]),
        collections.OrderedDict([("z", 0), ("a", (0, 0))]),
        Box([0, {"x": 0}], "label"),
        [Reversed(0, (0, 0)), Reversed(None, 0)],
    ],
    # Without object addresses: every xdist worker must collect the same ids.
    ids=lambda tree: re.sub(r" object at 0x[0-9a-f]+", "", repr(tree)),
)
def test_pytrees_round_trip(tree: Any) -> None:
    out_tree = tree_structure(tree)
    n = out_tree.num_leaves
    back = round_trip(make(out_tree=out_tree, out_avals=(X,) * n))
    assert back.out_tree == out_tree
    assert back.in_tree == tree_structure(((0, 0), {}))


def test_a_deep_pytree_round_trips() -> None:
    tree: Any = 0
    for _ in range(fb.MAX_PYTREE_DEPTH - 1):
        tree = [tree]
    assert round_trip(
        make(out_tree=tree_structure(tree), out_avals=(X,))
    ).out_tree == tree_structure(tree)
    with pytest.raises(ValueError, match="deeper"):
        serialize(make(out_tree=tree_structure([tree]), out_avals=(X,)))


class Unregistered:
    pass


register_pytree_node(Unregistered, lambda _: ((), None), lambda *_: Unregistered())


def test_pytree_errors_as_jax() -> None:
    with pytest.raises(
        TypeError,
        match=r"only for dictionaries with string keys. Found key 1 of type <class 'int'>",
    ):
        serialize(make(out_tree=tree_structure({1: 0}), out_avals=(X,)))
    with pytest.raises(
        ValueError, match="Cannot serialize PyTreeDef containing an unregistered type `<class"
    ):
        serialize(make(out_tree=tree_structure(Unregistered()), out_avals=()))
    with pytest.raises(
        NotImplementedError, match="OrderedDict is supported only when the keys are strings"
    ):
        serialize(make(out_tree=tree_structure(collections.OrderedDict([(1, 0)])), out_avals=(X,)))


def test_auxdata_must_be_bytes() -> None:
    class Odd:
        pass

    register_pytree_node(Odd, lambda _: ((), "aux"), lambda *_: Odd())
    register_pytree_node_serialization(
        Odd,
        serialized_name="test_serialization.Odd",
        serialize_auxdata=str,  # type: ignore[arg-type]  # the mistake under test
        deserialize_auxdata=bytes.decode,
    )
    with pytest.raises(
        ValueError, match="must return a `bytes` object. It returned a <class 'str'>"
    ):
        serialize(make(out_tree=tree_structure(Odd()), out_avals=()))


def test_unregistered_name_on_deserialization() -> None:
    (record,) = fb.read_exported_chain(
        bytes(serialize(make(out_tree=tree_structure(Box([0], "l")), out_avals=(X,))))
    )
    assert record.out_tree is not None
    nodes = tuple(
        fb.PyTreeNode(n.kind, n.num_children, n.children_names, "nobody", n.custom_auxdata)
        if n.custom_name
        else n
        for n in record.out_tree
    )
    with pytest.raises(
        ValueError, match="Cannot deserialize a PyTreeDef containing an unregistered type `nobody`"
    ):
        deserialize(fb.write_exported_chain([_replace(record, out_tree=nodes)]))


def test_registration_errors_as_jax() -> None:
    class NotTuple:
        pass

    with pytest.raises(
        ValueError,
        match="^Use `jax.export.register_pytree_node_serialization` for types other than",
    ):
        register_namedtuple_serialization(NotTuple, serialized_name="x.NotTuple")
    with pytest.raises(
        ValueError, match="you must call first`jax.tree_util.register_pytree_node` for `<class"
    ):
        register_pytree_node_serialization(
            NotTuple,
            serialized_name="x.NotTuple",
            serialize_auxdata=bytes,
            deserialize_auxdata=bytes,
        )
    with pytest.raises(
        ValueError,
        match="Duplicate serialization registration for type `<class .*Pair'>`. Previous registration was with serialized_name `test_serialization.Pair`",
    ):
        register_namedtuple_serialization(Pair, serialized_name="other")
    Other = collections.namedtuple("Other", ["a"])
    with pytest.raises(
        ValueError,
        match="Duplicate serialization registration for serialized_name `test_serialization.Pair`. Previous registration was for type `<class",
    ):
        register_namedtuple_serialization(Other, serialized_name="test_serialization.Pair")
    with pytest.raises(ValueError, match="Duplicate .* `collections.OrderedDict`"):
        register_namedtuple_serialization(Other, serialized_name="collections.OrderedDict")


def test_registration_returns_the_class() -> None:
    Triple = collections.namedtuple("Triple", ["a", "b", "c"])
    assert (
        register_namedtuple_serialization(Triple, serialized_name="test_serialization.Triple")
        is Triple
    )

    class Node:
        pass

    register_pytree_node(Node, lambda _: ((), None), lambda *_: Node())
    decorated = register_pytree_node_serialization(
        Node,
        serialized_name="test_serialization.Node",
        serialize_auxdata=lambda _: b"",
        deserialize_auxdata=lambda _: None,
    )
    assert decorated is Node


# ---------------------------------------------------------------------------------------------
# Effects
# ---------------------------------------------------------------------------------------------


def test_effects_are_written_under_jax_names() -> None:
    from jax_core._src.ffi.call import ffi_effect

    (record,) = fb.read_exported_chain(
        bytes(serialize(make(ordered_effects=(TestEffect(),), unordered_effects=(ffi_effect,))))
    )
    assert record.unordered_effects == ("<class 'jax._src.ffi.FfiEffect'>",)
    assert record.ordered_effects == (str(TestEffect),)


def test_jax_effect_names_read_as_jax_core_singletons() -> None:
    from jax_core._src.callbacks.debugging import debug_effect, ordered_debug_effect
    from jax_core._src.callbacks.io import io_effect, ordered_io_effect

    (record,) = fb.read_exported_chain(bytes(serialize(make())))
    names = {
        "<class 'jax._src.debugging.DebugEffect'>": debug_effect,
        "<class 'jax._src.debugging.OrderedDebugEffect'>": ordered_debug_effect,
        "<class 'jax._src.callback.IOEffect'>": io_effect,
        "<class 'jax._src.callback.OrderedIOEffect'>": ordered_io_effect,
    }
    back = deserialize(fb.write_exported_chain([_replace(record, unordered_effects=tuple(names))]))
    assert all(a is b for a, b in zip(back.unordered_effects, names.values(), strict=True))
    unknown = fb.write_exported_chain(
        [_replace(record, ordered_effects=("<class 'jax._src.lax.lax.NoDCEEffect'>",))]
    )
    with pytest.raises(
        ValueError, match="cannot deserialize effect type <class 'jax._src.lax.lax.NoDCEEffect'>"
    ):
        deserialize(unknown)


@pytest.mark.parametrize(
    "effect, message",
    [
        (
            "debug",
            "Effect Debug must have a nullary class constructor that produces an equal effect object.",
        ),
        (
            "io",
            "Effect IO must have a nullary class constructor that produces an equal effect object.",
        ),
        ("no_nullary", "Effect NoNullary(a) must have a nullary constructor to be serializable"),
    ],
)
def test_effects_jax_cannot_serialize(effect: str, message: str) -> None:
    from jax_core._src.callbacks.debugging import debug_effect
    from jax_core._src.callbacks.io import io_effect

    eff = {"debug": debug_effect, "io": io_effect, "no_nullary": NoNullaryEffect("a")}[effect]
    with pytest.raises(NotImplementedError) as info:
        serialize(make(unordered_effects=(eff,)))
    assert str(info.value) == message


# ---------------------------------------------------------------------------------------------
# VJPs, versions, and what deserialize rejects
# ---------------------------------------------------------------------------------------------


def with_vjps(depth: int) -> Exported:
    """An Exported with ``depth`` levels of VJP (named ``f``, ``vjp1``, ...)."""
    level: Exported | None = None
    for i in reversed(range(depth + 1)):
        inner = level
        get: Callable[[Exported], Exported] | None = (
            None if inner is None else (lambda _e, v=inner: v)
        )
        level = make(fun_name="f" if i == 0 else f"vjp{i}", _get_vjp=get, nr_devices=1 + i)
    assert level is not None
    return level


@pytest.mark.parametrize("order", [0, 1, 2])
def test_vjps_nest_to_the_order_asked(order: int) -> None:
    back = round_trip(with_vjps(3), vjp_order=order)
    names = [back.fun_name]
    while back.has_vjp():
        back = back.vjp()
        names.append(back.fun_name)
        assert back.nr_devices == len(names)
    assert names == ["f", "vjp1", "vjp2"][: order + 1]
    with pytest.raises(ValueError, match="No VJP"):
        back.vjp()


def test_one_blob_deserializes_to_equal_exporteds() -> None:
    blob = serialize(with_vjps(2), vjp_order=2)
    a, b = deserialize(blob), deserialize(blob)
    assert a == b and hash(a) == hash(b)
    assert a.vjp() == b.vjp() and a.vjp().vjp() == b.vjp().vjp()
    assert a != deserialize(serialize(with_vjps(2), vjp_order=1))


def test_missing_vjp_levels() -> None:
    with pytest.raises(
        ValueError,
        match="^serialization of an Exported that does not have vjps of high-enough order$",
    ):
        serialize(with_vjps(1), vjp_order=2)


def test_calling_convention_outside_the_supported_range() -> None:
    (record,) = fb.read_exported_chain(bytes(serialize(make())))
    for version in (0, 8, 11, 65535):
        with pytest.raises(
            ValueError, match=rf"calling convention version {version} is outside .* \[9..10\]"
        ):
            deserialize(
                fb.write_exported_chain([_replace(record, calling_convention_version=version)])
            )
    # in a VJP level too
    inner = _replace(record, calling_convention_version=3)
    with pytest.raises(ValueError, match="calling convention version 3"):
        deserialize(fb.write_exported_chain([record, inner]))


def test_expired_versions_give_jax_message() -> None:
    (record,) = fb.read_exported_chain(bytes(serialize(make())))
    old = _replace(
        record, serialization_version=4, nr_devices=0, nr_devices_short=1, jax_version=None
    )
    with pytest.raises(ValueError) as info:
        deserialize(fb.write_exported_chain([old]))
    assert str(info.value) == (
        "Exported being deserialized seems to be older than the 6-month backward-compatibility "
        "window and cannot be deserialized anymore.The Exported uses serialization version 4. "
        "See https://docs.jax.dev/en/latest/501/export.html#compatibility-guarantees."
    )
    hlo = _replace(
        record,
        in_shardings_idxs=(),
        in_shardings=(fb.ShardingRecord(None, has_hlo_sharding=True),) * 2,
    )
    with pytest.raises(
        ValueError,
        match="^Exported being deserialized seems to be older .* created with JAX version 0.12",
    ):
        deserialize(fb.write_exported_chain([hlo]))


def test_old_per_argument_vectors_are_read() -> None:
    mesh = one_device_mesh()
    exp = make(_in_named_shardings=(NamedSharding(mesh, P("x")), None))
    (record,) = fb.read_exported_chain(bytes(serialize(exp)))
    old = _replace(
        record,
        unique_avals=(),
        unique_abstract_meshes=(),
        unique_named_shardings=(),
        in_avals_idxs=(),
        out_avals_idxs=(),
        in_shardings_idxs=(),
        out_shardings_idxs=(),
        serialization_version=9,
    )
    assert fields_of(deserialize(fb.write_exported_chain([old]))) == fields_of(exp)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            {"unique_avals": (fb.AbstractValueRecord(("2", "3"), 10, fb.MEMORY_SPACE_HOST),)},
            "memory space",
        ),
        ({"unique_avals": (fb.AbstractValueRecord(("b +", "3"), 10),)}, "syntax error in symbolic shape"),
        ({"unique_avals": (fb.AbstractValueRecord(("2", "3"), 99),)}, "dtype code 99"),
        ({"unique_avals": (fb.AbstractValueRecord(("2",), 10, kind=1),)}, "kind 1"),
        ({"in_avals_idxs": (0, 5)}, "aval index 5"),
        ({"in_shardings_idxs": (0, 3)}, "sharding index 2"),
        ({"in_shardings_idxs": (0,)}, "2 in_avals but 1 in_shardings"),
        ({"module_kept_var_idx": (1, 0)}, "module_kept_var_idx"),
        ({"module_kept_var_idx": (0, 2)}, "module_kept_var_idx"),
        (
            {"in_tree": (fb.PyTreeNode(fb.PYTREE_TUPLE, 1), fb.PyTreeNode(fb.PYTREE_LEAF))},
            "1 leaves but there are 2",
        ),
        (
            {
                "in_tree": (
                    fb.PyTreeNode(fb.PYTREE_DICT, 2, ("a", "a")),
                    fb.PyTreeNode(0),
                    fb.PyTreeNode(0),
                )
            },
            "keys",
        ),
        ({"in_tree": (fb.PyTreeNode(9),)}, "unknown kind: 9"),
        ({"in_tree": None}, "in_tree field is missing"),
        ({"function_name": None}, "function_name field is missing"),
        (
            {"disabled_checks": (fb.DisabledCheckRecord(fb.CHECK_SHAPE_ASSERTIONS),)},
            "unknown kind: 2",
        ),
        ({"mlir_module_serialized": b"not bytecode"}, "not a StableHLO portable artifact"),
        ({"mlir_module_serialized": None}, "mlir_module_serialized field is missing"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_invalid_contents_raise_value_error(change: dict[str, Any], message: str) -> None:
    (record,) = fb.read_exported_chain(bytes(serialize(make())))
    with pytest.raises(ValueError, match="not a valid serialized Exported") as info:
        deserialize(fb.write_exported_chain([_replace(record, **change)]))
    assert message in str(info.value)


def test_a_corrupt_module_body_is_kept_for_the_call_to_report() -> None:
    """Decision: ``deserialize`` checks the module's bytecode magic but does not parse it (jaxlib's
    bytecode reader can hang on some corrupt modules, in JAX too); the bytes come back as they
    were, and parsing them (``mlir_module``, ``call``) reports the corruption."""
    corrupt = MODULE[:4] + bytes(b ^ 0x5A for b in MODULE[4:40]) + MODULE[40:]
    back = round_trip(make(mlir_module_serialized=corrupt))
    assert back.mlir_module_serialized == corrupt


# ---------------------------------------------------------------------------------------------
# Real JAX reads what jax_core writes, and the reverse
# ---------------------------------------------------------------------------------------------


def test_jax_reads_what_jax_core_writes() -> None:
    from jax_core._src.ffi.call import ffi_effect

    mesh = one_device_mesh(("x", "y"))
    cases = [
        make(),
        make(
            fun_name="g",
            in_tree=tree_structure(((0, {"b": [0, None]}), {"kw": _goldens.Point(0, 0)})),
            in_avals=(
                X,
                ShapedArray((), np.dtype(ml_dtypes.bfloat16)),
                ShapedArray((4,), np.dtype(np.int8)),
                X,
            ),
            _in_named_shardings=(
                NamedSharding(mesh, P("x", "y")),
                None,
                NamedSharding(mesh, P(("x", "y"))),
                None,
            ),
            unordered_effects=(ffi_effect,),
            disabled_safety_checks=(
                DisabledSafetyCheck.custom_call("tgt"),
                DisabledSafetyCheck.platform(),
            ),
            platforms=("cpu", "tpu"),
            uses_global_constants=True,
            module_kept_var_idx=(1, 3),
            calling_convention_version=9,
        ),
        with_vjps(2),
        make(  # the dtype codes
            in_avals=tuple(ShapedArray((1, 2), d) for d in (*ALL_DTYPES, *key_dtypes())),
            module_kept_var_idx=(),
        ),
    ]
    blobs = [bytes(serialize(e, vjp_order=2 if e.has_vjp() else 0)) for e in cases]
    outcomes = evaluate([jax_reads(b) for b in blobs])
    for exp, outcome in zip(cases, outcomes, strict=True):
        assert outcome.leaves is not None, outcome.describe()
        assert str(outcome.leaves[0]) == describe_here(exp)


JAX_WRITES = """
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

def f(x, y, point, *, k):
    return {"a": x * 2, "b": [jnp.sin(y), None]}, point.x + k

mesh = jax.make_mesh((1,), ("x",))
s = NamedSharding(mesh, P("x"))
specs = (jax.ShapeDtypeStruct((4,), jnp.float32, sharding=s), jax.ShapeDtypeStruct((2, 3), jnp.bfloat16),
         Point(jax.ShapeDtypeStruct((), jnp.float32), jax.ShapeDtypeStruct((2,), jnp.int32)))
exp = jax.export.export(jax.jit(f))(*specs, k=jax.ShapeDtypeStruct((), jnp.float32))
blob = exp.serialize(vjp_order=1)
result = (np.frombuffer(bytes(blob), dtype=np.uint8), describe(jax.export.deserialize(blob)))
"""


def test_jax_core_reads_what_jax_writes() -> None:
    expr = "(lambda ns: (exec(src, ns), ns['result'])[1])({'jax': jax, 'np': np})"
    (outcome,) = evaluate([Call(expr, {"src": JAX_POINT + DESCRIBE + JAX_WRITES})])
    assert outcome.leaves is not None, outcome.describe()
    blob, description = outcome.leaves
    exp = deserialize(blob.tobytes())
    assert describe_here(exp) == str(description)
    assert rewrites_the_same(exp)


def rewrites_the_same(exp: Exported) -> bool:
    """jax_core writes back what it read: the same fields, the VJP included."""
    back = round_trip(exp, vjp_order=1)
    return fields_of(back) == fields_of(exp) and fields_of(back.vjp()) == fields_of(exp.vjp())
