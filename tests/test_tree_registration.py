"""Tests for jax_core.tree_util registration, partial, key paths and the public modules (the rest
of test_tree_util.py). Expected strings were recorded from real jax 0.12.0.1."""

from __future__ import annotations

import collections
import dataclasses
import functools
import operator
import pickle
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jax_core.tree as jtree
import jax_core.tree_util as tu
from jax_core._src.tree import tree_util as tu_src
from jax_core._src.lib import pytree as cxx_pytree  # pyright: ignore[reportUnknownVariableType]
from tests._tree_nodes import (
    DC,
    Box,
    DCDrop,
    DCStatic,
    Other,
    Pair,
    Plain,
    Point,
    SBox,
    flatten_calls,
)

# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def test_register_pytree_node_class() -> None:
    tree = [Box([1, 2], "meta")]
    leaves, treedef = tu.tree_flatten(tree)
    assert leaves == [1, 2]
    assert str(treedef) == "PyTreeDef([CustomNode(Box[meta], [[*, *]])])"
    assert tu.tree_map(lambda x: -x, tree) == [Box([-1, -2], "meta")]


def test_register_pytree_with_keys_uses_plain_flatten_when_given() -> None:
    flatten_calls.clear()
    assert tu.tree_leaves(Pair(1, (2,))) == [1, 2]
    assert flatten_calls == ["plain"]
    flatten_calls.clear()
    paths = [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(Pair(1, (2,)))]
    assert paths == ["['first']", "['second'][0]"]
    assert flatten_calls == ["keys"]
    rebuilt = tu.tree_map(lambda x: x + 1, Pair(1, 2))
    assert (rebuilt.first, rebuilt.second) == (2, 3)


def test_register_pytree_with_keys_derives_flatten() -> None:
    class Derived:
        def __init__(self, v: Any) -> None:
            self.v = v

    tu.register_pytree_with_keys(
        Derived, lambda d: (((tu.GetAttrKey("v"), d.v),), None), lambda aux, ch: Derived(*ch)
    )
    assert tu.tree_leaves([Derived(1), Derived((2, 3))]) == [1, 2, 3]
    assert [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(Derived([4]))] == [".v[0]"]


def test_register_pytree_node_with_keys_func() -> None:
    class WithKeys:
        def __init__(self, a: Any) -> None:
            self.a = a

    tu.register_pytree_node(
        WithKeys,
        lambda w: ((w.a,), None),
        lambda aux, ch: WithKeys(ch[0]),
        lambda w: (((tu.GetAttrKey("a"), w.a),), None),
    )
    assert [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(WithKeys([1]))] == [".a[0]"]


def test_register_static() -> None:
    leaves, treedef = tu.tree_flatten([1, SBox("x")])
    assert leaves == [1]
    assert tu.tree_unflatten(treedef, [5]) == [5, SBox("x")]
    assert tu.tree_structure(SBox("x")) != tu.tree_structure(SBox("y"))
    assert tu.tree_leaves_with_path([1, SBox("x")]) == [((tu.SequenceKey(0),), 1)]


def test_duplicate_registration() -> None:
    with pytest.raises(
        ValueError, match=re.escape(f"Duplicate custom PyTreeDef type registration for {Other!r}.")
    ):
        tu.register_pytree_node(Other, lambda o: ((), None), lambda aux, ch: Other())


def test_subclass_of_registered_type_is_a_leaf() -> None:
    class SubBox(Box):
        pass

    sub = SubBox(1)
    assert tu.tree_leaves([sub]) == [sub]


# ---------------------------------------------------------------------------
# register_dataclass
# ---------------------------------------------------------------------------


def test_register_dataclass_infers_fields() -> None:
    assert tu.tree_flatten(DCStatic(1)) == ([1], tu.tree_structure(DCStatic(0)))
    assert str(tu.tree_structure(DCStatic(1))) == "PyTreeDef(CustomNode(DCStatic[('add',)], [*]))"
    assert tu.tree_unflatten(tu.tree_structure(DCStatic(1, "mul")), [7]) == DCStatic(7, "mul")
    assert tu.tree_structure(DCStatic(1, "mul")) != tu.tree_structure(DCStatic(1))
    assert tu.tree_map(lambda x: x + 1, DC([1, 2], 3, "k")) == DC([2, 3], 4, "k")


def test_register_dataclass_static_field_metadata() -> None:
    (field,) = [f for f in dataclasses.fields(DCStatic) if f.name == "op"]
    assert field.metadata["static"] is True
    assert field.default == "add"
    merged: Any = jtree.static(default=1, metadata={"doc": "d"})
    assert dict(merged.metadata) == {"static": True, "doc": "d"}


def test_register_dataclass_drop_fields() -> None:
    leaves, treedef = tu.tree_flatten(DCDrop(1, 7))
    assert leaves == [1]
    assert str(treedef) == "PyTreeDef(CustomNode(DCDrop[('q',)], [*]))"
    assert tu.tree_unflatten(treedef, [9]) == DCDrop(9, 0, "q")


def test_register_dataclass_explicit_fields_non_dataclass() -> None:
    leaves, treedef = tu.tree_flatten(Plain(1, "m"))
    assert leaves == [1]
    assert str(treedef) == "PyTreeDef(CustomNode(Plain[('m',)], [*]))"
    rebuilt = tu.tree_unflatten(treedef, [5])
    assert (type(rebuilt), rebuilt.a, rebuilt.b) == (Plain, 5, "m")
    assert tu.tree_leaves_with_path(Plain(1, "m")) == [((tu.GetAttrKey("a"),), 1)]


def test_register_dataclass_init_false_field() -> None:
    @dataclasses.dataclass
    class WithInitFalse:
        x: Any
        w: int = dataclasses.field(default=5, init=False)

    # As in jax: inferred data fields include init=False fields, which then fail the check.
    with pytest.raises(ValueError) as info:
        tu.register_dataclass(WithInitFalse)
    assert str(info.value) == (
        "data_fields and meta_fields must include all dataclass fields with ``init=True`` "
        "and only them. Unexpected fields: {'w'}."
    )
    assert tu.register_dataclass(WithInitFalse, drop_fields=["w"]) is WithInitFalse
    assert tu.tree_leaves(WithInitFalse(3)) == [3]


def test_register_dataclass_errors() -> None:
    @dataclasses.dataclass
    class DC2:
        x: int
        y: int

    class NotDC:
        pass

    with pytest.raises(TypeError) as type_info:
        tu.register_dataclass(DC2, data_fields=["x"])
    assert str(type_info.value) == (
        "register_dataclass: data_fields and meta_fields must both be specified when either "
        "is specified. Got data_fields=['x'] meta_fields=None."
    )
    with pytest.raises(TypeError, match="data_fields and meta_fields are required when"):
        tu.register_dataclass(NotDC)
    with pytest.raises(ValueError) as info:
        tu.register_dataclass(DC2, data_fields=["x"], meta_fields=[])
    assert str(info.value) == (
        "data_fields and meta_fields must include all dataclass fields with ``init=True`` "
        "and only them. Missing fields: {'y'}. Add them to drop_fields to suppress this error."
    )
    with pytest.raises(ValueError) as info:
        tu.register_dataclass(DC2, data_fields=["x", "y", "z"], meta_fields=[])
    assert str(info.value).endswith(" Unexpected fields: {'z'}.")
    with pytest.raises(ValueError) as info:
        tu.register_dataclass(DC2, data_fields=["x", "y"], meta_fields=["x"])
    assert str(info.value) == (
        "data_fields and meta_fields must not overlap. Overlapping fields: {'x'}."
    )
    assert not tu.is_tree_node(DC2)


# ---------------------------------------------------------------------------
# Partial
# ---------------------------------------------------------------------------


def test_partial() -> None:
    add_one = tu.Partial(operator.add, 1)
    assert add_one(2) == 3
    assert isinstance(add_one, functools.partial)
    assert repr(add_one) == "Partial(<built-in function add>, 1)"
    leaves, treedef = tu.tree_flatten(add_one)
    assert leaves == [1]
    rebuilt = tu.tree_unflatten(treedef, [10])
    assert type(rebuilt) is tu.Partial
    assert rebuilt(2) == 12
    assert tu.tree_map(lambda x: x * 10, add_one)(1) == 11
    assert tu.Partial(operator.add)(1, 2) == 3
    assert tu.tree_leaves(tu.Partial(operator.add)) == []


def test_partial_keywords_and_pickle() -> None:
    p = tu.Partial(max, 1, key=abs)
    assert tu.tree_leaves(p) == [1, abs]
    restored = pickle.loads(pickle.dumps(tu.Partial(operator.add, 1)))
    assert type(restored) is tu.Partial
    assert restored(2) == 3


def test_partial_of_partial_keeps_only_outer_arguments() -> None:
    inner = tu.Partial(operator.add, 1)
    outer = tu.Partial(inner, 2)
    leaves, treedef = tu.tree_flatten(outer)
    assert leaves == [2]
    assert str(treedef) == (
        "PyTreeDef(CustomNode(Partial[_HashableCallableShim(Partial(<built-in function add>, "
        "1))], [(*,), {}]))"
    )
    assert outer() == 3
    assert tu.Partial(inner)(2) == 3
    assert tu.tree_unflatten(treedef, [5])() == 6
    assert outer.func.func is operator.add  # type: ignore[attr-defined]
    assert outer.func.args == (1,)  # type: ignore[attr-defined]
    plain = tu.Partial(functools.partial(max, 1), 2)
    assert plain(0) == 2
    assert tu.tree_leaves(plain) == [2]


# ---------------------------------------------------------------------------
# Key paths
# ---------------------------------------------------------------------------


def test_key_classes() -> None:
    keys = [
        tu.DictKey("a"),
        tu.DictKey(1),
        tu.DictKey(("x", 2)),
        tu.SequenceKey(3),
        tu.GetAttrKey("y"),
        tu.FlattenedIndexKey(4),
    ]
    assert [str(k) for k in keys] == ["['a']", "[1]", "[('x', 2)]", "[3]", ".y", "[<flat index 4>]"]
    assert [repr(k) for k in keys[:1] + keys[3:]] == [
        "DictKey(key='a')",
        "SequenceKey(idx=3)",
        "GetAttrKey(name='y')",
        "FlattenedIndexKey(key=4)",
    ]
    assert tu.DictKey("a") == tu.DictKey("a")
    assert tu.DictKey(1) != tu.SequenceKey(1)
    assert hash(tu.SequenceKey(1)) == hash(tu.SequenceKey(1))
    assert pickle.loads(pickle.dumps(tu.DictKey("a"))) == tu.DictKey("a")
    assert (tu.SequenceKey(3).idx, tu.DictKey("a").key, tu.GetAttrKey("y").name) == (3, "a", "y")
    assert tu.FlattenedIndexKey(4).key == 4
    assert tu.DictKey is cxx_pytree.DictKey
    assert tu.FlattenedIndexKey is cxx_pytree.FlattenedIndexKey


def test_key_pattern_matching() -> None:
    def describe(key: tu.KeyEntry) -> str:
        match key:
            case tu.SequenceKey(idx):
                return f"seq {idx}"
            case tu.DictKey(k):
                return f"dict {k}"
            case tu.GetAttrKey(name):
                return f"attr {name}"
            case tu.FlattenedIndexKey(i):
                return f"flat {i}"
            case _:
                return "other"

    paths = [p for p, _ in tu.tree_leaves_with_path({"a": [Point(Box(1), 2)]})]
    assert [[describe(k) for k in p] for p in paths] == [
        ["dict a", "seq 0", "attr x", "flat 0"],
        ["dict a", "seq 0", "attr y"],
    ]


def test_keystr() -> None:
    path = (tu.DictKey("a"), tu.SequenceKey(0), tu.GetAttrKey("x"), tu.FlattenedIndexKey(2))
    assert tu.keystr(path) == "['a'][0].x[<flat index 2>]"
    assert tu.keystr(path, simple=True, separator=".") == "a.0.x.2"
    assert tu.keystr((tu.DictKey("a"), tu.SequenceKey(1)), separator="/") == "['a']/[1]"
    assert tu.keystr(("a", 1)) == "a1"
    assert tu.keystr(()) == ""
    params = {"foo": {"bar": {"baz": 1, "bat": [2, 3]}}}
    assert [tu.keystr(p) for p, _ in tu.tree_leaves_with_path(params)] == [
        "['foo']['bar']['bat'][0]",
        "['foo']['bar']['bat'][1]",
        "['foo']['bar']['baz']",
    ]
    assert [
        tu.keystr(p, simple=True, separator="/") for p, _ in tu.tree_leaves_with_path(params)
    ] == ["foo/bar/bat/0", "foo/bar/bat/1", "foo/bar/baz"]


def test_flatten_with_path_values_and_is_leaf() -> None:
    path_leaves, treedef = tu.tree_flatten_with_path({"a": (1,)})
    assert path_leaves == [((tu.DictKey("a"), tu.SequenceKey(0)), 1)]
    assert str(treedef) == "PyTreeDef({'a': (*,)})"
    path_leaves, treedef = tu.tree_flatten_with_path(
        {"a": [1, 2], "b": (3,)}, is_leaf=lambda x: isinstance(x, list)
    )
    assert path_leaves == [((tu.DictKey("a"),), [1, 2]), ((tu.DictKey("b"), tu.SequenceKey(0)), 3)]
    assert str(treedef) == "PyTreeDef({'a': *, 'b': (*,)})"
    path_leaves, treedef = tu.tree_flatten_with_path(
        {"a": [1, 2], "b": [3]},
        is_leaf=lambda p, x: len(p) == 1 and p[0] == tu.DictKey("a"),
        is_leaf_takes_path=True,
    )
    assert path_leaves == [((tu.DictKey("a"),), [1, 2]), ((tu.DictKey("b"), tu.SequenceKey(0)), 3)]
    assert str(treedef) == "PyTreeDef({'a': *, 'b': [*]})"


def test_tree_map_with_path() -> None:
    assert tu.tree_map_with_path(lambda p, x: tu.keystr(p), {"a": [1, (2,)], "b": None}) == {
        "a": ["['a'][0]", ("['a'][1][0]",)],
        "b": None,
    }
    assert tu.tree_map_with_path(
        lambda p, x, y: (tu.keystr(p, simple=True, separator="/"), x + y),
        {"a": [1, 2]},
        {"a": [10, 20]},
    ) == {"a": [("a/0", 11), ("a/1", 22)]}
    assert tu.tree_map_with_path(
        lambda p, x: len(p), [[1], 2], is_leaf=lambda x: isinstance(x, list) and len(x) == 1
    ) == [1, 1]


# ---------------------------------------------------------------------------
# Public modules
# ---------------------------------------------------------------------------

TREE_UTIL_NAMES = [
    "DictKey",
    "FlattenedIndexKey",
    "GetAttrKey",
    "KeyEntry",
    "KeyPath",
    "Partial",
    "PyTreeDef",
    "SequenceKey",
    "all_leaves",
    "default_registry",
    "flatten_one_level",
    "flatten_one_level_with_keys",
    "is_tree_node",
    "keystr",
    "register_dataclass",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "register_pytree_with_keys_class",
    "register_static",
    "tree_all",
    "tree_broadcast",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_with_path",
    "tree_reduce",
    "tree_reduce_associative",
    "tree_structure",
    "tree_transpose",
    "tree_unflatten",
    "treedef_children",
    "treedef_is_leaf",
    "treedef_tuple",
]


def test_public_tree_util_names() -> None:
    public = sorted(n for n in vars(tu) if not n.startswith("_"))
    assert public == sorted(TREE_UTIL_NAMES)
    for name in TREE_UTIL_NAMES:
        assert getattr(tu, name) is getattr(tu_src, name)
        obj = getattr(tu, name)
        if callable(obj) and name not in ("KeyEntry", "KeyPath"):
            assert obj.__doc__, name
    assert tu.__doc__ and jtree.__doc__ and tu_src.__doc__


def test_tree_namespace() -> None:
    aliases: dict[str, Callable[..., Any]] = {
        "all": tu.tree_all,
        "broadcast": tu.tree_broadcast,
        "flatten": tu.tree_flatten,
        "flatten_with_path": tu.tree_flatten_with_path,
        "leaves": tu.tree_leaves,
        "leaves_with_path": tu.tree_leaves_with_path,
        "map": tu.tree_map,
        "map_with_path": tu.tree_map_with_path,
        "reduce": tu.tree_reduce,
        "reduce_associative": tu.tree_reduce_associative,
        "structure": tu.tree_structure,
        "transpose": tu.tree_transpose,
        "unflatten": tu.tree_unflatten,
    }
    for name, fn in aliases.items():
        assert getattr(jtree, name) is fn
    assert sorted(jtree.__all__) == sorted([*aliases, "static"])
    assert jtree.map(lambda x: x + 1, [1]) == [2]
    assert jtree.leaves({"a": 1}) == [1]
    assert str(jtree.structure((1,))) == "PyTreeDef((*,))"
    assert jtree.reduce(operator.add, [1, 2]) == 3
    assert jtree.all([1, 1])


def test_jax_core_never_imports_jax() -> None:
    import sys

    assert "jax" not in sys.modules


# ---------------------------------------------------------------------------
# Property: flatten/unflatten round trip on random trees
# ---------------------------------------------------------------------------

_leaf = st.one_of(st.integers(), st.text(max_size=3), st.floats(allow_nan=False))
_trees = st.recursive(
    st.one_of(_leaf, st.none()),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(st.text(max_size=2), children, max_size=3),
        st.tuples(children, children).map(lambda t: Point(*t)),
        st.dictionaries(st.text(max_size=2), children, max_size=3).map(collections.OrderedDict),
        st.tuples(children).map(lambda t: Box(t[0])),
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(_trees)
def test_round_trip_property(tree: Any) -> None:
    leaves, treedef = tu.tree_flatten(tree)
    assert tu.tree_unflatten(treedef, leaves) == tree
    assert treedef.num_leaves == len(leaves)
    path_leaves, path_treedef = tu.tree_flatten_with_path(tree)
    assert path_treedef == treedef
    assert [x for _, x in path_leaves] == leaves
    assert tu.tree_map(lambda x: x, tree) == tree
    assert pickle.loads(pickle.dumps(treedef)) == treedef
    assert tu.tree_structure(tu.tree_map(lambda x: 0, tree)) == treedef


def test_docstring_examples() -> None:
    import doctest

    globs = {**vars(tu_src), "dataclasses": dataclasses, "operator": operator}
    result = doctest.testmod(tu_src, globs=globs, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 25
    assert result.failed == 0
