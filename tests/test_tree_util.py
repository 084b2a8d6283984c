"""Tests for jax_core.tree_util / jax_core.tree (pytrees over jaxlib's C++ registry).

Expected strings (PyTreeDef reprs, key paths, error messages) were recorded from
real jax 0.12.0.1 (the oracle venv) and are hard-coded here.
"""

from __future__ import annotations

import collections
import operator
import pickle
import re
from typing import Any

import pytest

import jax_core.tree_util as tu
from jax_core._src.tree import tree_util as tu_src
from jax_core._src.lib import pytree as cxx_pytree  # pyright: ignore[reportUnknownVariableType]
from tests._tree_nodes import DC, Box, KBox, Other, Point, SBox, _first

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
    # ``is_leaf`` holds below the top level too (as in JAX): a nested ``None`` is a leaf prefix.
    is_none = lambda x: x is None  # noqa: E731
    assert tu_src.prefix_errors(("b", {"z": None}), (1, {"z": (2, 3)}), is_leaf=is_none) == []
    assert len(tu_src.prefix_errors(("b", {"z": None}), (1, {"z": (2, 3)}))) == 1


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
