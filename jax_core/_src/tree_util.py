"""Pytrees: nested containers of leaves, flattened and rebuilt by jaxlib's C++ registry.

A pytree is a tree of Python containers (tuples, lists, dicts, ``None``,
namedtuples, ``OrderedDict``, ``defaultdict``, dataclasses and any registered
node type) whose non-container values are *leaves*. Flattening a pytree gives
its leaves in a deterministic left-to-right depth-first order plus a
``PyTreeDef`` describing its structure; unflattening rebuilds the tree.

The work is done by jaxlib's C++ ``pytree`` module (``jaxlib._jax.pytree``):
this module owns the one process-wide ``default_registry``, registers the
container types JAX registers in Python (``OrderedDict``, ``defaultdict``,
``Partial``), and gives every C++ entry point a precisely annotated Python
face. jaxlib ships no type stubs, so the C++ classes are declared for type
checkers under ``TYPE_CHECKING`` and bound to the real C++ types at runtime.
Semantics and error messages follow ``jax.tree_util`` 0.12.
"""

from __future__ import annotations

import collections
import dataclasses
import difflib
import functools
import operator
import textwrap
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, Self, TypeAlias, TypeVar, cast, overload

# jaxlib's ``_jax`` has no stubs: ``pytree`` is Unknown to pyright and Any to mypy.
# Its classes and functions are declared with precise types below.
from jax_core._src.lib import pytree  # pyright: ignore[reportUnknownVariableType]

__all__ = [
    "DictKey",
    "FlattenedIndexKey",
    "GetAttrKey",
    "KeyEntry",
    "KeyLeafPair",
    "KeyPath",
    "Leaf",
    "Partial",
    "PyTree",
    "PyTreeDef",
    "PyTreeRegistry",
    "SequenceKey",
    "all_leaves",
    "broadcast_prefix",
    "default_registry",
    "equality_errors",
    "equality_errors_pytreedef",
    "flatten_one_level",
    "flatten_one_level_with_keys",
    "is_tree_node",
    "keystr",
    "prefix_errors",
    "register_dataclass",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "register_pytree_with_keys_class",
    "register_static",
    "static",
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
    "treedef_is_strict_leaf",
    "treedef_tuple",
]

T = TypeVar("T")
_R = TypeVar("_R")
_H = TypeVar("_H", bound=Hashable)
_Typ = TypeVar("_Typ", bound=type[Any])
_Children = TypeVar("_Children", bound=Iterable[Any])
_AuxData = TypeVar("_AuxData", bound=Hashable)

Leaf: TypeAlias = Any
"""A pytree leaf: any value that is not a registered pytree node."""

PyTree: TypeAlias = Any
"""A pytree: a leaf, or a registered container of pytrees."""

KeyEntry: TypeAlias = Any
"""One step of a key path: usually a ``SequenceKey``, ``DictKey``, ``GetAttrKey``
or ``FlattenedIndexKey``, but custom nodes may use any hashable object."""

KeyPath: TypeAlias = tuple[KeyEntry, ...]
"""The path from the root of a pytree to one of its leaves."""

KeyLeafPair: TypeAlias = tuple[KeyEntry, Any]
"""A child of a pytree node together with the key that names it."""


# ---------------------------------------------------------------------------
# The C++ types, as type checkers see them.
#
# jaxlib's ``_jax`` extension ships no stubs, so its classes would be Unknown
# to pyright and Any to mypy. They are declared here (signatures copied from
# the nanobind docstrings of jaxlib 0.12) and bound to the real classes below.
# ---------------------------------------------------------------------------

if TYPE_CHECKING:

    class PyTreeDef:
        """The structure of a pytree: everything about it except its leaves.

        Made by flattening (``tree_flatten``/``tree_structure``); immutable,
        hashable, comparable with ``==`` and picklable.
        """

        @property
        def num_leaves(self) -> int:
            """The number of leaves in the structure."""
            ...

        @property
        def num_nodes(self) -> int:
            """The number of nodes (containers, ``None`` and leaves) in the structure."""
            ...

        def unflatten(self, leaves: Iterable[Any], /) -> Any:
            """Builds the pytree with this structure whose leaves are ``leaves``."""
            ...

        def flatten_up_to(self, tree: Any, /) -> list[Any]:
            """Flattens ``tree`` down to this structure's leaves (a prefix match)."""
            ...

        def compose(self, inner: PyTreeDef, /) -> PyTreeDef:
            """The structure with ``inner`` substituted for every leaf of this one."""
            ...

        def children(self) -> list[PyTreeDef]:
            """The structures of the root node's immediate children."""
            ...

        def node_data(self) -> tuple[type[Any], Any] | None:
            """The root node's ``(type, aux data)``, or ``None`` for a leaf."""
            ...

        @staticmethod
        def from_node_data_and_children(
            registry: PyTreeRegistry,
            node_data: tuple[type[Any], Any] | None,
            children: Iterable[PyTreeDef],
        ) -> PyTreeDef:
            """Rebuilds a structure from ``node_data()`` and ``children()``."""
            ...

        def walk(
            self,
            f_node: Callable[[Any, Any], Any],
            f_leaf: Callable[[Any], Any] | None,
            leaves: Iterable[Any],
            /,
        ) -> Any:
            """Folds over the structure: ``f_node(children, node_data)`` at nodes."""
            ...

        def from_iterable_tree(self, tree: Any, /) -> Any:
            """Builds a pytree of this structure from a tree of iterables."""
            ...

        def serialize_using_proto(self) -> bytes:
            """Serializes a structure made only of built-in nodes."""
            ...

        @staticmethod
        def deserialize_using_proto(registry: PyTreeRegistry, data: bytes) -> PyTreeDef:
            """Inverse of ``serialize_using_proto``."""
            ...

        def __eq__(self, other: object, /) -> bool: ...
        def __ne__(self, other: object, /) -> bool: ...
        def __hash__(self) -> int: ...

    class PyTreeRegistry:
        """A registry of pytree node types (jaxlib's C++ ``PyTreeRegistry``)."""

        def __init__(
            self,
            enable_none: bool = True,
            enable_tuple: bool = True,
            enable_namedtuple: bool = True,
            enable_list: bool = True,
            enable_dict: bool = True,
        ) -> None: ...

        def flatten(
            self, tree: Any, leaf_predicate: Callable[[Any], bool] | None = None
        ) -> tuple[list[Leaf], PyTreeDef]:
            """Flattens ``tree`` into its leaves and structure."""
            ...

        def flatten_with_path(
            self, tree: Any, leaf_predicate: Callable[[Any, Any], bool] | None = None
        ) -> tuple[list[tuple[KeyPath, Leaf]], PyTreeDef]:
            """Flattens ``tree`` into ``(key path, leaf)`` pairs and its structure."""
            ...

        def flatten_one_level(self, tree: Any) -> tuple[Iterable[Any], Any] | None:
            """The children and aux data of a node, or ``None`` for a leaf."""
            ...

        def flatten_one_level_with_keys(
            self, tree: Any
        ) -> tuple[Iterable[KeyLeafPair], Any] | None:
            """Like ``flatten_one_level`` with ``(key, child)`` pairs."""
            ...

        def is_node(self, type: type[Any]) -> bool:
            """Whether ``type`` is a node type (built-in, registered or namedtuple)."""
            ...

        def register_node(
            self,
            type: type[T],
            to_iterable: Callable[[T], tuple[Iterable[Any], Any]],
            from_iterable: Callable[[Any, Any], T],
            to_iterable_with_keys: Callable[[T], tuple[Iterable[KeyLeafPair], Any]] | None = None,
        ) -> None:
            """Registers a custom node type."""
            ...

        def register_dataclass_node(
            self, type: type[Any], data_fields: Sequence[str], meta_fields: Sequence[str], /
        ) -> None:
            """Registers a dataclass-like node type by field names."""
            ...

    class SequenceKey:
        """Key path entry for an element of a tuple or list: prints as ``[idx]``."""

        __match_args__ = ("idx",)

        def __init__(self, idx: int) -> None: ...
        @property
        def idx(self) -> int:
            """The index of the element."""
            ...

        def __eq__(self, other: object, /) -> bool: ...
        def __hash__(self) -> int: ...

    class DictKey:
        """Key path entry for a value of a dict: prints as ``[key!r]``."""

        __match_args__ = ("key",)

        def __init__(self, key: Hashable) -> None: ...
        @property
        def key(self) -> Hashable:
            """The dict key."""
            ...

        def __eq__(self, other: object, /) -> bool: ...
        def __hash__(self) -> int: ...

    class GetAttrKey:
        """Key path entry for an attribute (namedtuple, dataclass): prints as ``.name``."""

        __match_args__ = ("name",)

        def __init__(self, name: str) -> None: ...
        @property
        def name(self) -> str:
            """The attribute name."""
            ...

        def __eq__(self, other: object, /) -> bool: ...
        def __hash__(self) -> int: ...

    class FlattenedIndexKey:
        """Key path entry for the n-th child of a node registered without keys."""

        __match_args__ = ("key",)

        def __init__(self, key: int) -> None: ...
        @property
        def key(self) -> int:
            """The position of the child among its node's children."""
            ...

        def __eq__(self, other: object, /) -> bool: ...
        def __hash__(self) -> int: ...

    def _cxx_default_registry() -> PyTreeRegistry: ...
    def _cxx_all_leaves(registry: PyTreeRegistry, iterable: Iterable[Any], /) -> bool: ...
    def _cxx_treedef_tuple(
        registry: PyTreeRegistry, treedefs: Sequence[PyTreeDef], /
    ) -> PyTreeDef: ...

else:
    PyTreeDef = pytree.PyTreeDef
    PyTreeRegistry = pytree.PyTreeRegistry
    SequenceKey = pytree.SequenceKey
    DictKey = pytree.DictKey
    GetAttrKey = pytree.GetAttrKey
    FlattenedIndexKey = pytree.FlattenedIndexKey
    _cxx_default_registry = pytree.default_registry
    _cxx_all_leaves = pytree.all_leaves
    _cxx_treedef_tuple = pytree.treedef_tuple

    # The C++ classes carry no docstrings; give help() something to show.
    for _cls, _doc in (
        (PyTreeDef, "The structure of a pytree: everything about it except its leaves."),
        (PyTreeRegistry, "A registry of pytree node types."),
        (SequenceKey, "Key path entry for an element of a tuple or list: prints as [idx]."),
        (DictKey, "Key path entry for a value of a dict: prints as [key!r]."),
        (GetAttrKey, "Key path entry for an attribute: prints as .name."),
        (FlattenedIndexKey, "Key path entry for the n-th child of a node registered without keys."),
    ):
        if not _cls.__doc__:
            try:
                _cls.__doc__ = _doc
            except (AttributeError, TypeError):  # pragma: no cover
                pass
    del _cls, _doc


default_registry: Final[PyTreeRegistry] = _cxx_default_registry()
"""The process-wide pytree registry (jaxlib's default registry), shared with jit's C++ path."""

# ``__module__``/``__name__`` let a PyTreeDef that refers to this registry be
# pickled by reference.
cast(Any, default_registry).__module__ = __name__
cast(Any, default_registry).__name__ = "default_registry"


# ---------------------------------------------------------------------------
# Flattening and unflattening
# ---------------------------------------------------------------------------


def tree_flatten(
    tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> tuple[list[Leaf], PyTreeDef]:
    """Flattens a pytree into its leaves and its structure.

    The leaves come in left-to-right depth-first order; dicts are visited in
    sorted key order. ``None`` is an empty node (it has no leaves).

    Args:
      tree: the pytree to flatten.
      is_leaf: optional predicate called at every node; where it returns True
        the whole subtree is treated as a leaf.

    Returns:
      ``(leaves, treedef)``, where ``tree_unflatten(treedef, leaves)`` rebuilds
      ``tree``.

    Example:
      >>> tree_flatten({"b": [1, None], "a": 2})
      ([2, 1], PyTreeDef({'a': *, 'b': [*, None]}))
    """
    return default_registry.flatten(tree, is_leaf)


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Leaf]) -> Any:
    """Builds the pytree with structure ``treedef`` and leaves ``leaves``.

    Raises ``ValueError`` when the number of leaves does not match
    ``treedef.num_leaves``.

    Example:
      >>> tree_unflatten(tree_structure((0, [0])), ["x", "y"])
      ('x', ['y'])
    """
    return treedef.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list[Leaf]:
    """The leaves of a pytree, in flattening order.

    Example:
      >>> tree_leaves([1, (2, None), {"a": 3}])
      [1, 2, 3]
    """
    return default_registry.flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """The structure (``PyTreeDef``) of a pytree.

    Example:
      >>> tree_structure({"a": (1, 2), "b": None})
      PyTreeDef({'a': (*, *), 'b': None})
    """
    return default_registry.flatten(tree, is_leaf)[1]


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The structure of a tuple whose elements have the structures ``treedefs``.

    Example:
      >>> treedef_tuple([tree_structure([1]), tree_structure(2)])
      PyTreeDef(([*], *))
    """
    return _cxx_treedef_tuple(default_registry, list(treedefs))


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """The structures of the immediate children of ``treedef``'s root.

    Example:
      >>> treedef_children(tree_structure([(1, 2), 3, {"a": 4}]))
      [PyTreeDef((*, *)), PyTreeDef(*), PyTreeDef({'a': *})]
    """
    return treedef.children()


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Whether ``treedef`` has a single node (a leaf, ``None`` or an empty container).

    Example:
      >>> treedef_is_leaf(tree_structure(1)), treedef_is_leaf(tree_structure([1]))
      (True, False)
    """
    return treedef.num_nodes == 1


def treedef_is_strict_leaf(treedef: PyTreeDef) -> bool:
    """Whether ``treedef`` is exactly one leaf (not ``None`` or an empty container)."""
    return treedef.num_nodes == 1 and treedef.num_leaves == 1


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """Whether every element of ``iterable`` is a leaf.

    Example:
      >>> all_leaves([1, 2]), all_leaves([[1]]), all_leaves([None])
      (True, False, False)
    """
    if is_leaf is None:
        return _cxx_all_leaves(default_registry, iterable)
    items = list(iterable)
    leaves = tree_leaves(items, is_leaf)
    return len(leaves) == len(items) and all(
        item is leaf for item, leaf in zip(items, leaves, strict=True)
    )


def is_tree_node(typ: type[Any]) -> bool:
    """Whether ``typ`` is a pytree node type (built-in, registered, or a namedtuple).

    Example:
      >>> is_tree_node(dict), is_tree_node(int)
      (True, False)
    """
    return default_registry.is_node(typ)


def flatten_one_level(tree: Any) -> tuple[Iterable[Any], Hashable]:
    """Flattens one pytree node by one level into ``(children, aux data)``.

    Raises:
      ValueError: if ``tree`` is a leaf.

    Example:
      >>> flatten_one_level({"a": [1, 2], "b": {"c": 3}})
      (([1, 2], {'c': 3}), ('a', 'b'))
    """
    out = default_registry.flatten_one_level(tree)
    if out is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = out
    return children, cast(Hashable, aux)


def flatten_one_level_with_keys(tree: Any) -> tuple[Iterable[KeyLeafPair], Hashable]:
    """Like ``flatten_one_level``, with each child paired with its key.

    Raises:
      ValueError: if ``tree`` is a leaf.
    """
    out = default_registry.flatten_one_level_with_keys(tree)
    if out is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = out
    return children, cast(Hashable, aux)


# ---------------------------------------------------------------------------
# Mapping, reducing, transposing
# ---------------------------------------------------------------------------


# The overloads give ``f``'s parameters a known type (Any) for one, two and
# three trees, so ``tree_map(lambda x: ..., tree)`` checks under pyright strict.
@overload
def tree_map(
    f: Callable[[Any], Any], tree: Any, *, is_leaf: Callable[[Any], bool] | None = None
) -> Any: ...
@overload
def tree_map(
    f: Callable[[Any, Any], Any],
    tree: Any,
    rest1: Any,
    /,
    *,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any: ...
@overload
def tree_map(
    f: Callable[[Any, Any, Any], Any],
    tree: Any,
    rest1: Any,
    rest2: Any,
    /,
    *,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any: ...
@overload
def tree_map(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any: ...
def tree_map(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Applies ``f`` leafwise over one or more pytrees of the same structure.

    Args:
      f: called with one leaf from ``tree`` and the matching leaf of each of
        ``rest``.
      tree: the pytree whose structure the result has.
      *rest: pytrees having ``tree``'s structure or having it as a prefix
        (a leaf of ``tree`` may match a whole subtree of a ``rest`` tree).
      is_leaf: optional predicate marking subtrees of ``tree`` as leaves.

    Raises:
      ValueError: ``"pytree structure error: ..."`` naming the key path where a
        tree of ``rest`` does not match ``tree``.

    Example:
      >>> tree_map(lambda x, y: x + y, {"a": 1, "b": (2, 3)}, {"a": 10, "b": (20, 30)})
      {'a': 11, 'b': (22, 33)}
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    all_leaves_: list[list[Any]] = [leaves]
    for r in rest:
        try:
            all_leaves_.append(treedef.flatten_up_to(r))
        except Exception as e:
            err = next(_prefix_error((), tree, r, is_leaf), None)
            raise (err("tree_map tree") if err is not None else e) from None
    return treedef.unflatten(f(*xs) for xs in zip(*all_leaves_))


class _Unspecified:
    """Marker for an argument that was not given."""


_UNSPECIFIED: Final = _Unspecified()


def tree_reduce(
    function: Callable[[T, Any], T],
    tree: Any,
    initializer: T | _Unspecified = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> T:
    """Reduces the leaves of a pytree with ``functools.reduce``.

    Raises ``TypeError`` for a tree without leaves and no ``initializer``.

    Example:
      >>> tree_reduce(lambda acc, x: acc + x, [1, (2, 3)], 10)
      16
    """
    leaves = tree_leaves(tree, is_leaf=is_leaf)
    result: T
    if isinstance(initializer, _Unspecified):
        result = functools.reduce(function, leaves)
    else:
        result = functools.reduce(function, leaves, initializer)
    return result


def _parallel_reduce(
    sequence: list[T],
    operation: Callable[[T, T], T],
    identity: T | _Unspecified = _UNSPECIFIED,
) -> T:
    length = len(sequence)
    if length == 0:
        if isinstance(identity, _Unspecified):
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    if length == 1:
        return sequence[0]
    index = length // 2
    a = _parallel_reduce(sequence[:index], operation, identity)
    b = _parallel_reduce(sequence[index:], operation, identity)
    return operation(a, b)


def tree_reduce_associative(
    operation: Callable[[T, T], T],
    tree: Any,
    *,
    identity: T | _Unspecified = _UNSPECIFIED,
    is_leaf: Callable[[Any], bool] | None = None,
) -> T:
    """Reduces the leaves of a pytree with an associative ``operation``, as a balanced tree.

    Raises ``TypeError`` for a tree without leaves and no ``identity``.

    Example:
      >>> tree_reduce_associative(lambda a, b: a + b, [1, (2, 3)])
      6
    """
    sequence = cast(list[T], tree_leaves(tree, is_leaf=is_leaf))
    return _parallel_reduce(sequence, operation, identity)


def tree_all(tree: Any, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """``all()`` over the leaves of a pytree.

    Example:
      >>> tree_all([True, {"a": True, "b": (True, 1)}]), tree_all([True, (0,)])
      (True, False)
    """
    return all(tree_leaves(tree, is_leaf=is_leaf))


def tree_transpose(
    outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any
) -> Any:
    """Turns an outer-structure tree of inner-structure trees inside out.

    Args:
      outer_treedef: the outer structure.
      inner_treedef: the inner structure; ``None`` infers it from the first
        outer leaf.
      pytree_to_transpose: a tree of structure ``outer_treedef.compose(inner_treedef)``.

    Raises:
      TypeError: if the tree does not have the composed structure.

    Example:
      >>> tree_transpose(tree_structure([0, 0]), tree_structure((0, 0)), [(1, 2), (3, 4)])
      ([1, 3], [2, 4])
    """
    flat, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0])
    inner_size = inner_treedef.num_leaves
    outer_size = outer_treedef.num_leaves
    if treedef.num_leaves != inner_size * outer_size:
        expected_treedef = outer_treedef.compose(inner_treedef)
        raise TypeError(f"Mismatch\n{treedef}\n != \n{expected_treedef}")
    iter_flat = iter(flat)
    lol = [[next(iter_flat) for _ in range(inner_size)] for _ in range(outer_size)]
    transposed_lol = zip(*lol)
    subtrees = [tree_unflatten(outer_treedef, leaves) for leaves in transposed_lol]
    return tree_unflatten(inner_treedef, subtrees)


def broadcast_prefix(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> list[Any]:
    """Repeats each leaf of ``prefix_tree`` once per leaf of its subtree in ``full_tree``.

    Raises:
      ValueError: ``"pytree structure error: ..."`` if ``prefix_tree`` is not a
        prefix of ``full_tree``.
    """
    result: list[Any] = []
    try:
        leaves, treedef = tree_flatten(prefix_tree, is_leaf=is_leaf)
        for x, subtree in zip(leaves, treedef.flatten_up_to(full_tree)):
            result.extend([x] * tree_structure(subtree).num_leaves)
    except ValueError:
        e, *_ = prefix_errors(prefix_tree, full_tree)
        raise e("broadcast_prefix prefix_tree") from None
    return result


def tree_broadcast(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Any:
    """Broadcasts a tree prefix into the structure of ``full_tree``.

    Example:
      >>> tree_broadcast((1, 2, 3), (0, {"a": 0, "b": 0}, (0, 0)))
      (1, {'a': 2, 'b': 2}, (3, 3))
    """
    broadcast_leaves = broadcast_prefix(prefix_tree, full_tree, is_leaf=is_leaf)
    return tree_structure(full_tree).unflatten(broadcast_leaves)


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def register_pytree_node(
    nodetype: type[T],
    flatten_func: Callable[[T], tuple[_Children, _AuxData]],
    unflatten_func: Callable[[_AuxData, _Children], T],
    flatten_with_keys_func: Callable[[T], tuple[Iterable[KeyLeafPair], _AuxData]] | None = None,
) -> None:
    """Registers ``nodetype`` as a pytree node type.

    Args:
      nodetype: the type to register (subclasses are not included).
      flatten_func: maps a node to ``(children, aux_data)``; the children are
        flattened recursively and the hashable ``aux_data`` is stored in the
        ``PyTreeDef``.
      unflatten_func: maps ``(aux_data, children)`` back to a node.
      flatten_with_keys_func: optional; like ``flatten_func`` but gives
        ``(key, child)`` pairs, used by the ``*_with_path`` functions (without
        it, children get ``FlattenedIndexKey`` keys).

    Raises:
      ValueError: if ``nodetype`` is already registered.
    """
    default_registry.register_node(
        nodetype,
        flatten_func,
        cast(Callable[[Any, Any], T], unflatten_func),
        flatten_with_keys_func,
    )


def register_pytree_with_keys(
    nodetype: type[T],
    flatten_with_keys: Callable[[T], tuple[Iterable[KeyLeafPair], _AuxData]],
    unflatten_func: Callable[[_AuxData, Iterable[Any]], T],
    flatten_func: Callable[[T], tuple[Iterable[Any], _AuxData]] | None = None,
) -> None:
    """Registers ``nodetype`` as a pytree node type whose children have keys.

    Args:
      nodetype: the type to register.
      flatten_with_keys: maps a node to ``(iterable of (key, child), aux_data)``.
      unflatten_func: maps ``(aux_data, children)`` back to a node.
      flatten_func: optional faster flattening without keys; must give the same
        children in the same order and the same aux data.
    """
    if flatten_func is None:

        def flatten_func_impl(tree: T) -> tuple[list[Any], _AuxData]:
            key_children, aux = flatten_with_keys(tree)
            return [c for _, c in key_children], aux

        flatten_func = flatten_func_impl
    register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys)


def register_pytree_node_class(cls: _Typ) -> _Typ:
    """Class decorator registering ``cls`` as a pytree node type.

    ``cls`` must define a ``tree_flatten(self)`` method returning
    ``(children, aux_data)`` and a ``tree_unflatten(cls, aux_data, children)``
    classmethod. Returns ``cls`` unchanged.

    Example:
      >>> @register_pytree_node_class
      ... class Pair:
      ...     def __init__(self, a, b):
      ...         self.a, self.b = a, b
      ...     def tree_flatten(self):
      ...         return (self.a, self.b), None
      ...     @classmethod
      ...     def tree_unflatten(cls, aux_data, children):
      ...         return cls(*children)
      >>> tree_leaves(Pair(1, [2]))
      [1, 2]
    """
    unflatten = cast(Callable[[Any, Any], Any], cls.tree_unflatten)
    register_pytree_node(cls, operator.methodcaller("tree_flatten"), unflatten)
    return cls


def register_pytree_with_keys_class(cls: _Typ) -> _Typ:
    """Class decorator registering ``cls`` as a pytree node type with keys.

    ``cls`` must define ``tree_flatten_with_keys(self)`` returning
    ``(iterable of (key, child), aux_data)`` and a ``tree_unflatten(cls,
    aux_data, children)`` classmethod; a ``tree_flatten`` method, if present,
    is used for flattening without keys. Returns ``cls`` unchanged.
    """
    flatten_func: Callable[[Any], tuple[Iterable[Any], Any]] | None = (
        operator.methodcaller("tree_flatten") if hasattr(cls, "tree_flatten") else None
    )
    unflatten = cast(Callable[[Any, Iterable[Any]], Any], cls.tree_unflatten)
    register_pytree_with_keys(
        cls, operator.methodcaller("tree_flatten_with_keys"), unflatten, flatten_func
    )
    return cls


def register_dataclass(
    nodetype: _Typ,
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
    drop_fields: Sequence[str] = (),
) -> _Typ:
    """Registers a dataclass-like type as a pytree node, by field names.

    ``data_fields`` are the children (traced by transformations);
    ``meta_fields`` are static aux data (hashable, part of the ``PyTreeDef``).
    For a dataclass both may be omitted: fields declared with
    ``dataclasses.field(metadata=dict(static=True))`` (or :func:`static`) are
    meta fields, the others data fields, except those in ``drop_fields``.
    Returns ``nodetype``, so it works as a class decorator.

    Raises:
      TypeError: if only one of ``data_fields``/``meta_fields`` is given, or
        neither is given for a non-dataclass.
      ValueError: if, for a dataclass, the fields do not cover exactly its
        ``init=True`` fields, or if data and meta fields overlap.

    Example:
      >>> @register_dataclass
      ... @dataclasses.dataclass
      ... class Op:
      ...     x: int
      ...     name: str = static(default="add")
      >>> tree_flatten(Op(1))
      ([1], PyTreeDef(CustomNode(Op[('add',)], [*])))
    """
    cls: type[Any] = nodetype
    is_dataclass = dataclasses.is_dataclass(cls)
    if data_fields is None or meta_fields is None:
        if (data_fields is None) != (meta_fields is None):
            raise TypeError(
                "register_dataclass: data_fields and meta_fields must both be specified"
                f" when either is specified. Got {data_fields=} {meta_fields=}."
            )
        if not is_dataclass:
            raise TypeError(
                "register_dataclass: data_fields and meta_fields are required when"
                f" nodetype is not a dataclass. Got {nodetype=}."
            )
        fields = dataclasses.fields(cls)
        data_fields = [
            f.name
            for f in fields
            if not f.metadata.get("static", False) and f.name not in drop_fields
        ]
        meta_fields = [
            f.name for f in fields if f.metadata.get("static", False) and f.name not in drop_fields
        ]

    # Immutable copies: later mutation of the caller's lists must not matter.
    meta = tuple(meta_fields)
    data = tuple(data_fields)

    if is_dataclass:
        init_fields = {f.name for f in dataclasses.fields(cls) if f.init}
        init_fields.difference_update(drop_fields)
        if {*meta, *data} != init_fields:
            msg = (
                "data_fields and meta_fields must include all dataclass fields with"
                " ``init=True`` and only them."
            )
            if missing := init_fields - {*meta, *data}:
                msg += (
                    f" Missing fields: {missing}. Add them to drop_fields to suppress this error."
                )
            if unexpected := {*meta, *data} - init_fields:
                msg += f" Unexpected fields: {unexpected}."
            raise ValueError(msg)

    if overlap := set(data) & set(meta):
        raise ValueError(
            f"data_fields and meta_fields must not overlap. Overlapping fields: {overlap}."
        )

    default_registry.register_dataclass_node(nodetype, list(data), list(meta))
    return nodetype


def register_static(cls: type[_H]) -> type[_H]:
    """Registers ``cls`` as a pytree node with no children: instances are static.

    An instance becomes the aux data of its ``PyTreeDef`` (so it must be
    hashable) and contributes no leaves. Returns ``cls``, so it works as a
    class decorator.

    Example:
      >>> @register_static
      ... class Tag(str):
      ...     pass
      >>> tree_leaves([1, Tag("t")])
      [1]
    """

    def flatten(obj: _H) -> tuple[tuple[()], _H]:
        return (), obj

    def unflatten(obj: _H, children: Iterable[Any]) -> _H:
        del children
        return obj

    register_pytree_with_keys(cls, flatten, unflatten)
    return cls


def _register_builtin_extras() -> None:
    """Registers the standard-library containers JAX treats as nodes in Python."""

    def od_flatten_with_keys(
        x: collections.OrderedDict[Any, Any],
    ) -> tuple[tuple[KeyLeafPair, ...], tuple[Any, ...]]:
        return tuple((DictKey(k), x[k]) for k in x), tuple(x)

    def od_unflatten(
        keys: tuple[Any, ...], values: Iterable[Any]
    ) -> collections.OrderedDict[Any, Any]:
        return collections.OrderedDict(zip(keys, values, strict=True))

    def dd_flatten_with_keys(
        d: collections.defaultdict[Any, Any],
    ) -> tuple[tuple[KeyLeafPair, ...], tuple[Callable[[], Any] | None, tuple[Any, ...]]]:
        keys = tuple(sorted(d))
        return tuple((DictKey(k), d[k]) for k in keys), (d.default_factory, keys)

    def dd_unflatten(
        s: tuple[Callable[[], Any] | None, tuple[Any, ...]], values: Iterable[Any]
    ) -> collections.defaultdict[Any, Any]:
        return collections.defaultdict(s[0], zip(s[1], values, strict=True))

    if not default_registry.is_node(collections.OrderedDict):
        register_pytree_with_keys(collections.OrderedDict, od_flatten_with_keys, od_unflatten)
    if not default_registry.is_node(collections.defaultdict):
        register_pytree_with_keys(collections.defaultdict, dd_flatten_with_keys, dd_unflatten)


_register_builtin_extras()


if TYPE_CHECKING:
    # Type checkers special-case ``dataclasses.field`` (PEP 681); ``static``
    # must be that very function for them to accept it as a field specifier.
    from dataclasses import field as static
else:

    def static(**kwargs):
        """A ``dataclasses.field`` with ``metadata={"static": True}`` (``jax.tree.static``).

        Marks a dataclass field as a meta (static) field for
        :func:`register_dataclass`; takes the arguments of ``dataclasses.field``.
        """
        metadata = {"static": True, **(kwargs.pop("metadata", {}) or {})}
        return dataclasses.field(metadata=metadata, **kwargs)


# ---------------------------------------------------------------------------
# Partial
# ---------------------------------------------------------------------------


class _HashableCallableShim:
    """Delegates ``__call__``, ``__hash__`` and ``__eq__`` to a wrapped callable."""

    func: Callable[..., Any]
    args: tuple[Any, ...]
    keywords: dict[str, Any]

    def __init__(self, fun: Callable[..., Any]) -> None:
        self.fun = fun

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return self.fun(*args, **kw)

    def __hash__(self) -> int:
        return hash(self.fun)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _HashableCallableShim):
            return bool(self.fun == other.fun)
        return bool(self.fun == other)

    def __repr__(self) -> str:
        return f"_HashableCallableShim({self.fun!r})"


class Partial(functools.partial[_R]):
    """``functools.partial`` as a pytree: the bound arguments are its children.

    The wrapped function is static aux data (it must be hashable); the
    positional and keyword arguments are pytree children, so a ``Partial``
    can be passed through transformations, its arguments being traced.

    Example:
      >>> add_one = Partial(operator.add, 1)
      >>> add_one(2)
      3
      >>> tree_flatten(add_one)[0]
      [1]
    """

    def __new__(cls, func: Callable[..., _R], /, *args: Any, **kw: Any) -> Self:
        # ``functools.partial.__new__`` merges a partial ``func``'s arguments
        # into the new object; box it so exactly ``args``/``kw`` are children.
        if isinstance(func, functools.partial):
            original = cast("functools.partial[_R]", func)
            shim = _HashableCallableShim(original)
            out = super().__new__(cls, shim, *args, **kw)
            shim.func = original.func
            shim.args = original.args
            shim.keywords = original.keywords
            return out
        return super().__new__(cls, func, *args, **kw)


def _partial_flatten(
    p: Partial[Any],
) -> tuple[tuple[tuple[Any, ...], dict[str, Any]], Callable[..., Any]]:
    return (p.args, p.keywords), p.func


def _partial_unflatten(
    func: Callable[..., Any], xs: tuple[tuple[Any, ...], dict[str, Any]]
) -> Partial[Any]:
    return Partial(func, *xs[0], **xs[1])


register_pytree_node(Partial, _partial_flatten, _partial_unflatten)


# ---------------------------------------------------------------------------
# Key paths
# ---------------------------------------------------------------------------


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """Renders a key path as a string.

    Args:
      keys: the key path (a tuple of key entries).
      simple: if True, show each entry bare (``a``, ``0``, ``x``) instead of
        ``['a']``, ``[0]``, ``.x``; shorter but ambiguous.
      separator: the string placed between entries.

    Example:
      >>> [keystr(p) for p, _ in tree_leaves_with_path({"a": [1, (2,)]})]
      ["['a'][0]", "['a'][1][0]"]
      >>> [keystr(p, simple=True, separator="/") for p, _ in tree_leaves_with_path({"a": [1]})]
      ['a/0']
    """
    str_fn = _simple_entrystr if simple else str
    return separator.join(map(str_fn, keys))


def _simple_entrystr(key: KeyEntry) -> str:
    match key:
        case SequenceKey(idx=k) | FlattenedIndexKey(key=k):
            return str(k)
        case DictKey(key=k):
            return str(k)
        case GetAttrKey(name=k):
            return k
        case _:
            return str(key)


@overload
def tree_flatten_with_path(
    tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
    is_leaf_takes_path: Literal[False] = False,
) -> tuple[list[tuple[KeyPath, Leaf]], PyTreeDef]: ...
@overload
def tree_flatten_with_path(
    tree: Any,
    is_leaf: Callable[[KeyPath, Any], bool] | None,
    is_leaf_takes_path: Literal[True],
) -> tuple[list[tuple[KeyPath, Leaf]], PyTreeDef]: ...
@overload
def tree_flatten_with_path(
    tree: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> tuple[list[tuple[KeyPath, Leaf]], PyTreeDef]: ...
def tree_flatten_with_path(
    tree: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> tuple[list[tuple[KeyPath, Leaf]], PyTreeDef]:
    """Flattens a pytree into ``(key path, leaf)`` pairs and its structure.

    Args:
      tree: the pytree to flatten.
      is_leaf: optional predicate marking subtrees as leaves; called as
        ``is_leaf(x)``, or ``is_leaf(path, x)`` if ``is_leaf_takes_path``.
      is_leaf_takes_path: whether ``is_leaf`` takes the key path too.

    Example:
      >>> tree_flatten_with_path({"a": (1,)})
      ([((DictKey(key='a'), SequenceKey(idx=0)), 1)], PyTreeDef({'a': (*,)}))
    """
    if is_leaf is None or is_leaf_takes_path:
        return default_registry.flatten_with_path(tree, is_leaf)
    leaf_pred = is_leaf

    def path_predicate(path: Any, x: Any) -> bool:
        del path
        return leaf_pred(x)

    return default_registry.flatten_with_path(tree, path_predicate)


@overload
def tree_leaves_with_path(
    tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
    is_leaf_takes_path: Literal[False] = False,
) -> list[tuple[KeyPath, Leaf]]: ...
@overload
def tree_leaves_with_path(
    tree: Any,
    is_leaf: Callable[[KeyPath, Any], bool] | None,
    is_leaf_takes_path: Literal[True],
) -> list[tuple[KeyPath, Leaf]]: ...
@overload
def tree_leaves_with_path(
    tree: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> list[tuple[KeyPath, Leaf]]: ...
def tree_leaves_with_path(
    tree: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> list[tuple[KeyPath, Leaf]]:
    """The ``(key path, leaf)`` pairs of a pytree, in flattening order.

    Example:
      >>> tree_leaves_with_path([1, {"b": 2}])
      [((SequenceKey(idx=0),), 1), ((SequenceKey(idx=1), DictKey(key='b')), 2)]
    """
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], Any],
    tree: Any,
    *,
    is_leaf: Callable[[Any], bool] | None = None,
    is_leaf_takes_path: Literal[False] = False,
) -> Any: ...
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], Any],
    tree: Any,
    *,
    is_leaf: Callable[[KeyPath, Any], bool] | None,
    is_leaf_takes_path: Literal[True],
) -> Any: ...
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any, Any], Any],
    tree: Any,
    rest1: Any,
    /,
    *,
    is_leaf: Callable[[Any], bool] | None = None,
    is_leaf_takes_path: Literal[False] = False,
) -> Any: ...
@overload
def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any: ...
def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like ``tree_map``, but ``f`` also receives each leaf's key path first.

    Example:
      >>> tree_map_with_path(lambda p, x: keystr(p) + "=" + str(x), {"a": 1, "b": [2]})
      {'a': "['a']=1", 'b': ["['b'][0]=2"]}
    """
    keypath_leaves, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    columns: list[list[Any]] = [[p for p, _ in keypath_leaves], [x for _, x in keypath_leaves]]
    for r in rest:
        try:
            columns.append(treedef.flatten_up_to(r))
        except Exception as e:
            leaf_pred = None if is_leaf_takes_path else is_leaf
            err = next(_prefix_error((), tree, r, leaf_pred), None)
            raise (err("tree_map_with_path tree") if err is not None else e) from None
    return treedef.unflatten(f(*xs) for xs in zip(*columns))


# ---------------------------------------------------------------------------
# Structure-mismatch diagnostics (the messages of jax.tree_util)
# ---------------------------------------------------------------------------


def prefix_errors(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> list[Callable[[str], ValueError]]:
    """Explains why ``prefix_tree`` is not a prefix of ``full_tree``.

    Each entry, called with the name of the prefix tree, gives the
    ``ValueError`` to raise; the list is empty if it is a prefix.
    """
    return list(_prefix_error((), prefix_tree, full_tree, is_leaf))


def equality_errors(
    tree1: Any, tree2: Any, is_leaf: Callable[[Any], bool] | None = None
) -> Iterator[tuple[KeyPath, str, str, str]]:
    """Describes the structural differences of two pytrees.

    Yields ``(key path, what tree1 has, what tree2 has, explanation)``.
    """
    yield from _equality_errors((), tree1, tree2, is_leaf)


class _LeafMeta(type):
    def __repr__(cls) -> str:
        return "pytree leaf"


class _Leaf(metaclass=_LeafMeta):
    pass


def equality_errors_pytreedef(
    tree1: PyTreeDef, tree2: PyTreeDef
) -> Iterator[tuple[KeyPath, str, str, str]]:
    """Like ``equality_errors``, for two structures."""
    leaf = _Leaf()
    return equality_errors(
        tree_unflatten(tree1, [leaf] * tree1.num_leaves),
        tree_unflatten(tree2, [leaf] * tree2.num_leaves),
    )


def _child_keys(tree: Any) -> KeyPath:
    return tuple(k for k, _ in flatten_one_level_with_keys(tree)[0])


def _type_of(x: object) -> type[Any]:
    return type(x)


def _plural(n: int) -> str:
    return "ren" if n > 1 else ""


def _equality_errors(
    path: KeyPath, t1: Any, t2: Any, is_leaf: Callable[[Any], bool] | None
) -> Iterator[tuple[KeyPath, str, str, str]]:
    # Two leaves never make a structure error.
    if treedef_is_strict_leaf(tree_structure(t1, is_leaf=is_leaf)) and treedef_is_strict_leaf(
        tree_structure(t2, is_leaf=is_leaf)
    ):
        return
    type1, type2 = _type_of(t1), _type_of(t2)
    if type1 is not type2:
        yield path, str(type1), str(type2), "their Python types differ"
        return
    if issubclass(type1, (list, tuple)):
        n1, n2 = len(t1), len(t2)
        if n1 != n2:
            yield (
                path,
                f"{type1.__name__} of length {n1}",
                f"{type2.__name__} of length {n2}",
                "the lengths do not match",
            )
            return
    c1, t1_meta = flatten_one_level(t1)
    c2, t2_meta = flatten_one_level(t2)
    t1_children = tuple(c1)
    t2_children = tuple(c2)
    t1_keys, t2_keys = _child_keys(t1), _child_keys(t2)
    try:
        diff = " ".join(repr(k.key) for k in set(t1_keys).symmetric_difference(set(t2_keys)))
    except Exception:
        diff = ""
    if len(t1_children) != len(t2_children):
        n1, n2 = len(t1_children), len(t2_children)
        yield (
            path,
            f"{type1} with {n1} child{_plural(n1)}",
            f"{type2} with {n2} child{_plural(n2)}",
            "the numbers of children do not match"
            + (diff and f", with the symmetric difference of key sets: {{{diff}}}"),
        )
        return
    if t1_meta != t2_meta:
        yield (
            path,
            f"{type1} with pytree metadata {t1_meta}",
            f"{type2} with pytree metadata {t2_meta}",
            "the pytree node metadata does not match",
        )
        return
    for k, x1, x2 in zip(t1_keys, t1_children, t2_children):
        yield from _equality_errors((*path, k), x1, x2, is_leaf)


def _prefix_error(
    key_path: KeyPath,
    prefix_tree: Any,
    full_tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Iterator[Callable[[str], ValueError]]:
    # A leaf is a valid prefix of any tree.
    if treedef_is_strict_leaf(tree_structure(prefix_tree, is_leaf=is_leaf)):
        return

    prefix_type = _type_of(prefix_tree)
    full_type = _type_of(full_tree)
    where = keystr(key_path)

    if prefix_type is not full_type:
        yield lambda name: ValueError(
            "pytree structure error: different types at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {prefix_type}\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            f"    {full_type}."
        )
        return

    # Same type, and the prefix is not a leaf, so both flatten one level.
    pc, prefix_tree_meta = flatten_one_level(prefix_tree)
    fc, full_tree_meta = flatten_one_level(full_tree)
    prefix_tree_children = tuple(pc)
    full_tree_children = tuple(fc)
    prefix_tree_keys = _child_keys(prefix_tree)
    full_tree_keys = _child_keys(full_tree)

    if issubclass(prefix_type, (list, tuple)):
        n_prefix, n_full = len(prefix_tree), len(full_tree)
        if n_prefix != n_full:
            ty = prefix_type.__name__
            yield lambda name: ValueError(
                f"pytree structure error: different lengths of {ty} at key path\n"
                f"    {name}{where}\n"
                f"At that key path, the prefix pytree {name} has a subtree of type "
                f"{ty} of length {n_prefix}, but the full pytree "
                f"has a subtree of the same type but of length {n_full}."
            )
            return
    else:
        diff: set[Any] | None
        try:
            diff = set(prefix_tree_keys).symmetric_difference(set(full_tree_keys))
        except Exception:
            diff = None
        if len(prefix_tree_children) != len(full_tree_children):
            n_prefix, n_full = len(prefix_tree_children), len(full_tree_children)
            prefix_keys_str = " ".join(str(k) for k in prefix_tree_keys)
            full_keys_str = " ".join(str(k) for k in full_tree_keys)
            diff_str = (
                ""
                if diff is None
                else "so the symmetric difference on key sets is\n"
                f"    {' '.join(str(k) for k in diff)}"
            )
            yield lambda name: ValueError(
                "pytree structure error: different numbers of pytree children at key path\n"
                f"    {name}{where}\n"
                f"At that key path, the prefix pytree {name} has a subtree of type\n"
                f"    {prefix_type}\n"
                f"with {n_prefix} child keys\n"
                f"    {prefix_keys_str}\n"
                "but at the same key path the full pytree has a subtree of the same "
                f"type but with {n_full} child keys\n"
                f"    {full_keys_str}\n" + diff_str
            )
            return

    if prefix_tree_meta != full_tree_meta:
        prefix_meta_str = str(prefix_tree_meta)
        full_meta_str = str(full_tree_meta)
        metadata_diff = textwrap.indent(
            "\n".join(difflib.ndiff(prefix_meta_str.splitlines(), full_meta_str.splitlines())),
            prefix="    ",
        )
        yield lambda name: ValueError(
            "pytree structure error: different pytree metadata at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {prefix_type}\n"
            "with metadata\n"
            f"    {prefix_meta_str}\n"
            "but at the same key path the full pytree has a subtree of the same "
            "type but with metadata\n"
            f"    {full_meta_str}\n"
            "so the diff in the metadata at these pytree nodes is\n"
            f"{metadata_diff}"
        )
        return

    # Same type, arity and metadata: the mismatch is further down.
    for k, c1, c2 in zip(prefix_tree_keys, prefix_tree_children, full_tree_children):
        yield from _prefix_error((*key_path, k), c1, c2)
