"""Tests for jax_core.tree_util / jax_core.tree (pytrees over jaxlib's C++ registry).

Expected strings (PyTreeDef reprs, key paths, error messages) were recorded from
real jax 0.12.0.1 (the oracle venv) and are hard-coded here.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import operator
import pickle
import re
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jax_core.tree as jtree
import jax_core.tree_util as tu
from jax_core._src import tree_util as tu_src
from jax_core._src.lib import pytree as cxx_pytree  # pyright: ignore[reportUnknownVariableType]

# ---------------------------------------------------------------------------
# Module-level node types (registration is global and permanent, and pickling
# a PyTreeDef refers to them by qualified name).
# ---------------------------------------------------------------------------


class Point(NamedTuple):
    x: Any
    y: Any


@tu.register_pytree_node_class
class Box:
    """A node without keys: children get FlattenedIndexKey paths."""

    def __init__(self, v: Any, meta: str = "m") -> None:
        self.v = v
        self.meta = meta

    def tree_flatten(self) -> tuple[tuple[Any], str]:
        return (self.v,), self.meta

    @classmethod
    def tree_unflatten(cls, aux: str, children: tuple[Any, ...]) -> Box:
        return cls(children[0], aux)

    def __repr__(self) -> str:
        return f"Box({self.v!r}, {self.meta!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and (self.v, self.meta) == (other.v, other.meta)

    __hash__ = None  # type: ignore[assignment]


class Other:
    """A node with no children."""


tu.register_pytree_node(Other, lambda o: ((), None), lambda aux, ch: Other())


@tu.register_pytree_with_keys_class
class KBox:
    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def tree_flatten_with_keys(self) -> tuple[tuple[tuple[Any, Any], ...], str]:
        return ((tu.GetAttrKey("a"), self.a), (tu.GetAttrKey("b"), self.b)), "aux"

    @classmethod
    def tree_unflatten(cls, aux: str, children: Iterable[Any]) -> KBox:
        return cls(*children)

    def __repr__(self) -> str:
        return f"KBox({self.a!r}, {self.b!r})"


class Pair:
    """Registered with register_pytree_with_keys and an explicit flatten_func."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second


flatten_calls: list[str] = []


def _pair_flatten(p: Pair) -> tuple[list[Any], None]:
    flatten_calls.append("plain")
    return [p.first, p.second], None


def _pair_flatten_with_keys(p: Pair) -> tuple[list[tuple[Any, Any]], None]:
    flatten_calls.append("keys")
    return [(tu.DictKey("first"), p.first), (tu.DictKey("second"), p.second)], None


tu.register_pytree_with_keys(
    Pair, _pair_flatten_with_keys, lambda aux, ch: Pair(*ch), _pair_flatten
)


class SBox:
    def __init__(self, s: str) -> None:
        self.s = s

    def __hash__(self) -> int:
        return hash(self.s)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SBox) and other.s == self.s

    def __repr__(self) -> str:
        return f"SBox({self.s!r})"


assert tu.register_static(SBox) is SBox


@tu.register_dataclass
@dataclasses.dataclass
class DC:
    x: Any
    y: Any
    name: str = dataclasses.field(default="n", metadata={"static": True})


@tu.register_dataclass
@dataclasses.dataclass
class DCStatic:
    x: Any
    op: str = jtree.static(default="add")


@dataclasses.dataclass
class DCDrop:
    x: Any
    cache: int = 0
    s: str = jtree.static(default="q")


tu.register_dataclass(DCDrop, drop_fields=["cache"])


@functools.partial(tu.register_dataclass, data_fields=["a"], meta_fields=["b"])
class Plain:
    def __init__(self, a: Any, b: str) -> None:
        self.a, self.b = a, b

    def __repr__(self) -> str:
        return f"Plain({self.a!r}, {self.b!r})"


def _first(*args: Any) -> Any:
    return args[0]


# ---------------------------------------------------------------------------
# Flattening built-in containers
# ---------------------------------------------------------------------------

_dd: collections.defaultdict[str, Any] = collections.defaultdict(list, {"b": 1, "a": 2})
_od: collections.OrderedDict[str, int] = collections.OrderedDict([("b", 1), ("a", 2)])

# (tree, leaves, str(treedef), keystr paths, simple '/' paths) — from real jax.
FLATTEN_CASES: list[tuple[str, Any, list[Any], str, list[str], list[str]]] = [
    ("none", None, [], "PyTreeDef(None)", [], []),
    ("leaf", 1, [1], "PyTreeDef(*)", [""], [""]),
    ("empty tuple", (), [], "PyTreeDef(())", [], []),
    (
        "tuple",
        (1, (2, 3)),
        [1, 2, 3],
        "PyTreeDef((*, (*, *)))",
        ["[0]", "[1][0]", "[1][1]"],
        ["0", "1/0", "1/1"],
    ),
    ("list", [1, [2]], [1, 2], "PyTreeDef([*, [*]])", ["[0]", "[1][0]"], ["0", "1/0"]),
    (
        "dict sorted",
        {"b": 1, "a": 2},
        [2, 1],
        "PyTreeDef({'a': *, 'b': *})",
        ["['a']", "['b']"],
        ["a", "b"],
    ),
    (
        "dict int keys",
        {1: "a", 0: "b"},
        ["b", "a"],
        "PyTreeDef({0: *, 1: *})",
        ["[0]", "[1]"],
        ["0", "1"],
    ),
    (
        "namedtuple",
        Point(1, 2),
        [1, 2],
        "PyTreeDef(CustomNode(namedtuple[Point], [*, *]))",
        [".x", ".y"],
        ["x", "y"],
    ),
    (
        "OrderedDict keeps insertion order",
        _od,
        [1, 2],
        "PyTreeDef(CustomNode(OrderedDict[('b', 'a')], [*, *]))",
        ["['b']", "['a']"],
        ["b", "a"],
    ),
    (
        "defaultdict sorted",
        _dd,
        [2, 1],
        "PyTreeDef(CustomNode(defaultdict[(<class 'list'>, ('a', 'b'))], [*, *]))",
        ["['a']", "['b']"],
        ["a", "b"],
    ),
    (
        "dataclass",
        DC(1, 2),
        [1, 2],
        "PyTreeDef(CustomNode(DC[('n',)], [*, *]))",
        [".x", ".y"],
        ["x", "y"],
    ),
    (
        "custom node without keys",
        Box(3),
        [3],
        "PyTreeDef(CustomNode(Box[m], [*]))",
        ["[<flat index 0>]"],
        ["0"],
    ),
    ("custom node without children", Other(), [], "PyTreeDef(CustomNode(Other[None], []))", [], []),
    (
        "Partial",
        tu.Partial(max, 1, key=2),
        [1, 2],
        "PyTreeDef(CustomNode(Partial[<built-in function max>], [(*,), {'key': *}]))",
        ["[<flat index 0>][0]", "[<flat index 1>]['key']"],
        ["0/0", "1/key"],
    ),
    (
        "mixed",
        {"a": [None, (1,)], "b": Point(1, None)},
        [1, 1],
        "PyTreeDef({'a': [None, (*,)], 'b': CustomNode(namedtuple[Point], [*, None])})",
        ["['a'][1][0]", "['b'].x"],
        ["a/1/0", "b/x"],
    ),
    (
        "keyed custom node",
        {"k": KBox(1, [2, 3])},
        [1, 2, 3],
        "PyTreeDef({'k': CustomNode(KBox[aux], [*, [*, *]])})",
        ["['k'].a", "['k'].b[0]", "['k'].b[1]"],
        ["k/a", "k/b/0", "k/b/1"],
    ),
    (
        "static node",
        [1, SBox("x")],
        [1],
        "PyTreeDef([*, CustomNode(SBox[SBox('x')], [])])",
        ["[0]"],
        ["0"],
    ),
]


@pytest.mark.parametrize(
    ("tree", "leaves", "treedef_str", "paths", "simple_paths"),
    [case[1:] for case in FLATTEN_CASES],
    ids=[case[0] for case in FLATTEN_CASES],
)
def test_flatten_matches_jax(
    tree: Any, leaves: list[Any], treedef_str: str, paths: list[str], simple_paths: list[str]
) -> None:
    got_leaves, treedef = tu.tree_flatten(tree)
    assert got_leaves == leaves
    assert str(treedef) == treedef_str
    assert repr(treedef) == treedef_str
    assert tu.tree_leaves(tree) == leaves
    assert tu.tree_structure(tree) == treedef
    assert treedef.num_leaves == len(leaves)
    path_leaves, path_treedef = tu.tree_flatten_with_path(tree)
    assert path_treedef == treedef
    assert [leaf for _, leaf in path_leaves] == leaves
    assert [tu.keystr(p) for p, _ in path_leaves] == paths
    assert [tu.keystr(p, simple=True, separator="/") for p, _ in path_leaves] == simple_paths
    assert [p for p, _ in tu.tree_leaves_with_path(tree)] == [p for p, _ in path_leaves]


@pytest.mark.parametrize("case", FLATTEN_CASES, ids=[case[0] for case in FLATTEN_CASES])
def test_unflatten_round_trip_preserves_types(case: tuple[Any, ...]) -> None:
    tree = case[1]
    leaves, treedef = tu.tree_flatten(tree)
    rebuilt = tu.tree_unflatten(treedef, leaves)
    assert type(rebuilt) is type(tree)
    assert tu.tree_structure(rebuilt) == treedef
    assert tu.tree_leaves(rebuilt) == leaves


def test_containers_rebuild_exactly() -> None:
    tree = {"a": [None, (1,)], "b": Point(1, None), "c": _od, "d": _dd}
    leaves, treedef = tu.tree_flatten(tree)
    rebuilt = tu.tree_unflatten(treedef, leaves)
    assert rebuilt == tree
    assert list(rebuilt["c"]) == ["b", "a"]
    assert isinstance(rebuilt["d"], collections.defaultdict)
    assert rebuilt["d"].default_factory is list
    assert rebuilt["d"]["missing"] == []
    assert tu.tree_unflatten(tu.tree_structure(DC(1, 2)), [5, 6]) == DC(5, 6)


def test_dict_subclass_is_a_leaf() -> None:
    sub = type("D", (dict,), {})(a=1)
    assert tu.tree_flatten(sub) == ([sub], tu.tree_structure(0))


def test_unsortable_dict_keys() -> None:
    with pytest.raises(ValueError, match="Comparator raised exception while sorting pytree"):
        tu.tree_flatten({1: "a", "b": 2})


def test_is_leaf() -> None:
    leaves, treedef = tu.tree_flatten([1, None, (2, None)], is_leaf=lambda x: x is None)
    assert leaves == [1, None, 2, None]
    assert str(treedef) == "PyTreeDef([*, *, (*, *)])"
    leaves, treedef = tu.tree_flatten([1, (2, 3)], is_leaf=lambda x: isinstance(x, tuple))
    assert leaves == [1, (2, 3)]
    assert str(treedef) == "PyTreeDef([*, *])"
    assert tu.tree_leaves([1, [2, [3]]], is_leaf=lambda x: isinstance(x, list) and len(x) == 1) == [
        1,
        2,
        [3],
    ]
    assert tu.tree_structure((1, [2]), is_leaf=lambda x: isinstance(x, list)) == (
        tu.tree_structure((1, 2))
    )


# ---------------------------------------------------------------------------
# PyTreeDef
# ---------------------------------------------------------------------------


def test_pytreedef_is_the_cxx_type() -> None:
    assert tu.PyTreeDef is cxx_pytree.PyTreeDef
    assert type(tu.tree_structure([1])) is tu.PyTreeDef
    assert tu.default_registry is cxx_pytree.default_registry()


def test_pytreedef_methods() -> None:
    treedef = tu.tree_structure((1, (2, 3)))
    assert treedef.num_leaves == 3
    assert treedef.num_nodes == 5
    assert tu.treedef_children(treedef) == [tu.tree_structure(0), tu.tree_structure((0, 0))]
    assert [str(t) for t in tu.treedef_children(tu.tree_structure([(1, 2), 3, {"a": 4}]))] == [
        "PyTreeDef((*, *))",
        "PyTreeDef(*)",
        "PyTreeDef({'a': *})",
    ]
    assert tu.tree_structure({"b": 1, "a": 2}).node_data() == (dict, ["a", "b"])
    assert tu.tree_structure(1).node_data() is None
    assert str(tu.tree_structure([0, 0]).compose(tu.tree_structure((0, 0)))) == (
        "PyTreeDef([(*, *), (*, *)])"
    )
    assert tu.tree_structure([0, {"a": 0}]).flatten_up_to([(1, 2), {"a": [3]}]) == [
        (1, 2),
        [3],
    ]
    assert [str(t) for t in tu.treedef_children(tu.tree_structure(_dd))] == [
        "PyTreeDef(*)",
        "PyTreeDef(*)",
    ]


def test_treedef_is_leaf() -> None:
    assert tu.treedef_is_leaf(tu.tree_structure(1))
    assert tu.treedef_is_leaf(tu.tree_structure(None))
    assert tu.treedef_is_leaf(tu.tree_structure(()))
    assert not tu.treedef_is_leaf(tu.tree_structure([1, 2]))
    assert tu_src.treedef_is_strict_leaf(tu.tree_structure(1))
    assert not tu_src.treedef_is_strict_leaf(tu.tree_structure(None))


def test_treedef_equality_and_hash() -> None:
    assert tu.tree_structure([1, 2]) == tu.tree_structure([3, 4])
    assert tu.tree_structure([1]) != tu.tree_structure((1,))
    assert hash(tu.tree_structure({"a": 1})) == hash(tu.tree_structure({"a": 2}))
    assert tu.tree_structure(Box(1, "a")) != tu.tree_structure(Box(1, "b"))


def test_treedef_tuple() -> None:
    treedef = tu.treedef_tuple(
        [tu.tree_structure([1]), tu.tree_structure(2), tu.tree_structure(None)]
    )
    assert str(treedef) == "PyTreeDef(([*], *, None))"
    assert treedef == tu.tree_structure(([1], 2, None))


def test_unflatten_wrong_number_of_leaves() -> None:
    treedef = tu.tree_structure((1, 2))
    with pytest.raises(
        ValueError, match=re.escape("Too few leaves for PyTreeDef; expected 2, got 1")
    ):
        tu.tree_unflatten(treedef, [1])
    with pytest.raises(ValueError, match=re.escape("Too many leaves for PyTreeDef; expected 2.")):
        tu.tree_unflatten(treedef, [1, 2, 3])


PICKLE_CASES: list[Any] = [
    None,
    1,
    (1, [2, {"a": 3}]),
    Point(1, 2),
    _od,
    _dd,
    DC(1, 2),
    Box(1),
    KBox(1, 2),
    tu.Partial(operator.add, 1),
    [1, SBox("s")],
]


@pytest.mark.parametrize("tree", PICKLE_CASES)
def test_pickle_pytreedef(tree: Any) -> None:
    treedef = tu.tree_structure(tree)
    restored = pickle.loads(pickle.dumps(treedef))
    assert restored == treedef
    assert str(restored) == str(treedef)


# ---------------------------------------------------------------------------
# tree_map and structure mismatches
# ---------------------------------------------------------------------------


def test_tree_map() -> None:
    assert tu.tree_map(lambda x, y: x + y, {"a": 1, "b": (2, 3)}, {"a": 10, "b": (20, 30)}) == {
        "a": 11,
        "b": (22, 33),
    }
    assert tu.tree_map(lambda x: x + 1, {"a": None, "b": 1}) == {"a": None, "b": 2}
    assert tu.tree_map(lambda x: x is None, [None, (1, None)], is_leaf=lambda x: x is None) == [
        True,
        (False, True),
    ]
    # A leaf of the first tree matches a whole subtree of the others.
    assert tu.tree_map(lambda x, y: (x, y), [1, 2], [(3, 4), {"a": 5}]) == [
        (1, (3, 4)),
        (2, {"a": 5}),
    ]
    assert tu.tree_map(lambda x: x * 2, Point(1, [2])) == Point(2, [4])
    out = tu.tree_map(lambda x: x * 10, _dd)
    assert isinstance(out, collections.defaultdict) and dict(out) == {"a": 20, "b": 10}


DIFF_DICT_KEYS = """\
pytree structure error: different pytree metadata at key path
    tree_map tree
At that key path, the prefix pytree tree_map tree has a subtree of type
    <class 'dict'>
with metadata
    ('a',)
but at the same key path the full pytree has a subtree of the same type but with metadata
    ('b',)
so the diff in the metadata at these pytree nodes is
    - ('a',)
    ?   ^

    + ('b',)
    ?   ^
"""

# (first tree, second tree, message) — recorded from jax 0.12.0.1.
MAP_ERROR_CASES: list[tuple[str, Any, Any, str]] = [
    (
        "tuple arity",
        (1, 2),
        (1, 2, 3),
        (
            "pytree structure error: different lengths of tuple at key path\n"
            "    tree_map tree\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type tuple of "
            "length 2, but the full pytree has a subtree of the same type but of length 3."
        ),
    ),
    (
        "nested list length",
        {"a": (1, [2])},
        {"a": (1, [2, 3])},
        (
            "pytree structure error: different lengths of list at key path\n"
            "    tree_map tree['a'][1]\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type list of "
            "length 1, but the full pytree has a subtree of the same type but of length 2."
        ),
    ),
    (
        "list vs tuple",
        [1, 2],
        (1, 2),
        (
            "pytree structure error: different types at key path\n"
            "    tree_map tree\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            "    <class 'list'>\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            "    <class 'tuple'>."
        ),
    ),
    ("dict keys", {"a": 1}, {"b": 1}, DIFF_DICT_KEYS),
    (
        "dict number of keys",
        {"a": 1},
        {"a": 1, "b": 2},
        (
            "pytree structure error: different numbers of pytree children at key path\n"
            "    tree_map tree\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            "    <class 'dict'>\n"
            "with 1 child keys\n"
            "    ['a']\n"
            "but at the same key path the full pytree has a subtree of the same type but with "
            "2 child keys\n"
            "    ['a'] ['b']\n"
            "so the symmetric difference on key sets is\n"
            "    ['b']"
        ),
    ),
    (
        "node vs leaf",
        {"a": (1, 2)},
        {"a": 1},
        (
            "pytree structure error: different types at key path\n"
            "    tree_map tree['a']\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            "    <class 'tuple'>\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            "    <class 'int'>."
        ),
    ),
    (
        "None vs leaf",
        [None],
        [1],
        (
            "pytree structure error: different types at key path\n"
            "    tree_map tree[0]\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            "    <class 'NoneType'>\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            "    <class 'int'>."
        ),
    ),
    (
        "namedtuple vs tuple",
        Point(1, 2),
        (1, 2),
        (
            "pytree structure error: different types at key path\n"
            "    tree_map tree\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            f"    {Point!r}\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            "    <class 'tuple'>."
        ),
    ),
    (
        "OrderedDict order",
        collections.OrderedDict(a=1, b=2),
        collections.OrderedDict(b=1, a=2),
        (
            "pytree structure error: different pytree metadata at key path\n"
            "    tree_map tree\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            "    <class 'collections.OrderedDict'>\n"
            "with metadata\n"
            "    ('a', 'b')\n"
            "but at the same key path the full pytree has a subtree of the same type but with "
            "metadata\n"
            "    ('b', 'a')\n"
            "so the diff in the metadata at these pytree nodes is\n"
            "    - ('a', 'b')\n"
            "    + ('b', 'a')"
        ),
    ),
    (
        "custom node types",
        [Box(1)],
        [Other()],
        (
            "pytree structure error: different types at key path\n"
            "    tree_map tree[0]\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            f"    {Box!r}\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            f"    {Other!r}."
        ),
    ),
    (
        "custom node metadata",
        Box(1, "a"),
        Box(1, "b"),
        (
            "pytree structure error: different pytree metadata at key path\n"
            "    tree_map tree\n"
            "At that key path, the prefix pytree tree_map tree has a subtree of type\n"
            f"    {Box!r}\n"
            "with metadata\n"
            "    a\n"
            "but at the same key path the full pytree has a subtree of the same type but with "
            "metadata\n"
            "    b\n"
            "so the diff in the metadata at these pytree nodes is\n"
            "    - a\n"
            "    + b"
        ),
    ),
]


@pytest.mark.parametrize(
    ("tree", "other", "message"),
    [case[1:] for case in MAP_ERROR_CASES],
    ids=[case[0] for case in MAP_ERROR_CASES],
)
def test_tree_map_mismatch_errors(tree: Any, other: Any, message: str) -> None:
    with pytest.raises(ValueError) as info:
        tu.tree_map(_first, tree, other)
    assert str(info.value) == message
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_tree_map_with_path_mismatch_error() -> None:
    with pytest.raises(ValueError) as info:
        tu.tree_map_with_path(lambda p, a, b: a, (1, 2), (1, 2, 3))
    assert str(info.value) == (
        "pytree structure error: different lengths of tuple at key path\n"
        "    tree_map_with_path tree\n"
        "At that key path, the prefix pytree tree_map_with_path tree has a subtree of type "
        "tuple of length 2, but the full pytree has a subtree of the same type but of length 3."
    )


# The C++ messages (regexes); tree_map turns them into the messages above.
FLATTEN_UP_TO_ERRORS: list[tuple[str, Any, Any, str]] = [
    ("tuple", (1, 2), (1, 2, 3), re.escape("Tuple arity mismatch: 3 != 2; tuple: (1, 2, 3).")),
    ("list", [1, 2], [1], re.escape("List arity mismatch: 1 != 2; list: [1].")),
    (
        "dict",
        {"a": 1},
        {"b": 1},
        re.escape("Dict key mismatch; expected keys: ['a']; present keys: ['b']."),
    ),
    (
        "custom type",
        Box(1),
        Other(),
        (
            r"Custom node type mismatch: expected type: <class '[\w.]*Box'>, "
            r"value: <[\w.]*Other object at 0x[0-9a-f]+>\."
        ),
    ),
    (
        "custom data",
        Box(1, "a"),
        Box(1, "b"),
        re.escape("Mismatch custom node data: 'a' != 'b'; value: Box(1, 'b')."),
    ),
    ("None", None, 1, re.escape("Expected None, got 1.")),
]


@pytest.mark.parametrize(
    ("tree", "other", "message"),
    [case[1:] for case in FLATTEN_UP_TO_ERRORS],
    ids=[case[0] for case in FLATTEN_UP_TO_ERRORS],
)
def test_flatten_up_to_errors(tree: Any, other: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tu.tree_structure(tree).flatten_up_to(other)


def test_equality_errors() -> None:
    assert list(tu_src.equality_errors({"a": [1, 2], "b": (1,)}, {"a": [1], "b": [1]})) == [
        ((tu.DictKey("a"),), "list of length 2", "list of length 1", "the lengths do not match"),
        ((tu.DictKey("b"),), "<class 'tuple'>", "<class 'list'>", "their Python types differ"),
    ]
    assert list(tu_src.equality_errors({"a": 1}, {"a": 1, "c": 2})) == [
        (
            (),
            "<class 'dict'> with 1 child",
            "<class 'dict'> with 2 children",
            "the numbers of children do not match, with the symmetric difference of key sets: {'c'}",
        )
    ]
    assert list(tu_src.equality_errors({"a": 1}, {"b": 1})) == [
        (
            (),
            "<class 'dict'> with pytree metadata ('a',)",
            "<class 'dict'> with pytree metadata ('b',)",
            "the pytree node metadata does not match",
        )
    ]
    assert list(
        tu_src.equality_errors_pytreedef(tu.tree_structure((1, 2)), tu.tree_structure([1, 2]))
    ) == [((), "<class 'tuple'>", "<class 'list'>", "their Python types differ")]
    assert list(tu_src.equality_errors([1, (2,)], [3, (4,)])) == []
    assert tu_src.prefix_errors([1, 2], [(1, 2), 3]) == []


# ---------------------------------------------------------------------------
# Reductions, transpose, broadcast
# ---------------------------------------------------------------------------


def test_tree_reduce() -> None:
    assert tu.tree_reduce(operator.add, [1, (2, 3)], 10) == 16
    assert tu.tree_reduce(operator.add, [1, (2, 3)]) == 6
    assert tu.tree_reduce(operator.add, ([1], None), is_leaf=lambda x: isinstance(x, list)) == [1]
    with pytest.raises(TypeError, match="reduce\\(\\) of empty iterable with no initial value"):
        tu.tree_reduce(operator.add, [])


def test_tree_reduce_associative() -> None:
    assert tu.tree_reduce_associative(operator.add, [1, (2, 3), {"a": 4}]) == 10
    assert tu.tree_reduce_associative(operator.add, [], identity=0) == 0
    assert tu.tree_reduce_associative(operator.add, ["a", ("b", "c")]) == "abc"
    with pytest.raises(
        TypeError, match="Must specify identity for parallel reduction of empty sequence."
    ):
        tu.tree_reduce_associative(operator.add, [])


def test_tree_all() -> None:
    assert tu.tree_all([True, {"a": True, "b": (True, 1)}])
    assert not tu.tree_all([True, (1, 0)])
    assert tu.tree_all([])
    assert tu.tree_all([None])
    assert not tu.tree_all([[]], is_leaf=lambda x: isinstance(x, list) and not x)


def test_tree_transpose() -> None:
    outer, inner = tu.tree_structure([0, 0]), tu.tree_structure((0, 0))
    assert tu.tree_transpose(outer, inner, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])
    assert tu.tree_transpose(outer, None, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])
    assert tu.tree_transpose(
        tu.tree_structure({"a": 0, "b": 0}),
        tu.tree_structure([0, 0, 0]),
        {"a": [1, 2, 3], "b": [4, 5, 6]},
    ) == [{"a": 1, "b": 4}, {"a": 2, "b": 5}, {"a": 3, "b": 6}]
    with pytest.raises(TypeError) as info:
        tu.tree_transpose(outer, tu.tree_structure((0, 0, 0)), [(1, 2), (3, 4)])
    assert str(info.value) == (
        "Mismatch\nPyTreeDef([(*, *), (*, *)])\n != \nPyTreeDef([(*, *, *), (*, *, *)])"
    )
    with pytest.raises(TypeError) as info:
        tu.tree_transpose(outer, None, [(1, 2), (3,)])
    assert (
        str(info.value) == "Mismatch\nPyTreeDef([(*, *), (*,)])\n != \nPyTreeDef([(*, *), (*, *)])"
    )


def test_tree_broadcast() -> None:
    assert tu.tree_broadcast((1, 2, 3), (0, {"a": 0, "b": 0}, (0, 0))) == (
        1,
        {"a": 2, "b": 2},
        (3, 3),
    )
    assert tu.tree_broadcast({"a": 1, "b": None}, {"a": [0, 0], "b": None}) == {
        "a": [1, 1],
        "b": None,
    }
    with pytest.raises(ValueError) as info:
        tu.tree_broadcast((1, 2), (0, 0, 0))
    assert str(info.value) == (
        "pytree structure error: different lengths of tuple at key path\n"
        "    broadcast_prefix prefix_tree\n"
        "At that key path, the prefix pytree broadcast_prefix prefix_tree has a subtree of "
        "type tuple of length 2, but the full pytree has a subtree of the same type but of "
        "length 3."
    )


def test_all_leaves() -> None:
    assert tu.all_leaves([1, 2])
    assert not tu.all_leaves([[1]])
    assert not tu.all_leaves([None])
    assert tu.all_leaves([(1,)], is_leaf=lambda x: isinstance(x, tuple))
    # As in jax, is_leaf is also applied to the list of items itself.
    assert not tu.all_leaves([[1], 2], is_leaf=lambda x: isinstance(x, list))
    assert tu.all_leaves(iter([1, "a", 2.0]))


def test_is_tree_node() -> None:
    node_types: list[type[Any]] = [dict, list, tuple, type(None), collections.OrderedDict]
    node_types += [collections.defaultdict, tu.Partial, KBox, SBox, DC, Point]
    assert all(tu.is_tree_node(t) for t in node_types)
    assert not tu.is_tree_node(int)
    assert not tu.is_tree_node(str)


def test_flatten_one_level() -> None:
    assert tu.flatten_one_level({"a": [1, 2], "b": {"c": 3}}) == (([1, 2], {"c": 3}), ("a", "b"))
    assert tu.flatten_one_level(None) == ((), None)
    assert tu.flatten_one_level(Point(1, 2)) == ([1, 2], Point)
    assert tu.flatten_one_level(Box(3)) == ((3,), "m")
    assert tu.flatten_one_level_with_keys({"a": 1, "b": [2]}) == (
        ((tu.DictKey("a"), 1), (tu.DictKey("b"), [2])),
        ("a", "b"),
    )
    with pytest.raises(ValueError, match="can't tree-flatten type: <class 'int'>"):
        tu.flatten_one_level(1)
    with pytest.raises(ValueError, match="can't tree-flatten type: <class 'str'>"):
        tu.flatten_one_level_with_keys("s")


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
