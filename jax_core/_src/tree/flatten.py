"""Pytree types, the process-wide registry, and flattening over jaxlib's C++ ``pytree``.

A pytree is a tree of Python containers (tuples, lists, dicts, ``None``,
namedtuples, ``OrderedDict``, ``defaultdict``, dataclasses and any registered
node type) whose non-container values are *leaves*. Flattening a pytree gives
its leaves in a deterministic left-to-right depth-first order plus a
``PyTreeDef`` describing its structure; unflattening rebuilds the tree.

The work is done by jaxlib's C++ ``pytree`` module (``jaxlib._jax.pytree``):
this module owns the one process-wide ``default_registry`` and gives the C++
flatten/unflatten entry points a precisely annotated Python face. jaxlib ships
no type stubs, so the C++ classes (``PyTreeDef``, ``PyTreeRegistry`` and the key
path entries ``SequenceKey``, ``DictKey``, ``GetAttrKey``, ``FlattenedIndexKey``)
are declared for type checkers under ``TYPE_CHECKING`` and bound to the real C++
types at runtime.

This is the bottom of the pytree modules (``tree_paths``, ``tree_errors``,
``tree_registration`` and ``tree_util`` build on it); import the API from
:mod:`jax_core._src.tree.tree_util`, which re-exports all of it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeAlias, TypeVar, cast

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
    "PyTree",
    "PyTreeDef",
    "PyTreeRegistry",
    "SequenceKey",
    "all_leaves",
    "default_registry",
    "flatten_one_level",
    "flatten_one_level_with_keys",
    "is_tree_node",
    "tree_flatten",
    "tree_leaves",
    "tree_structure",
    "tree_unflatten",
    "treedef_children",
    "treedef_is_leaf",
    "treedef_is_strict_leaf",
    "treedef_tuple",
]

T = TypeVar("T")

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
# pickled by reference. The reference names ``jax_core._src.tree.tree_util``, the
# module the API is imported from: importing it on unpickling also registers the
# node types registered in Python (``OrderedDict``, ``defaultdict``, ``Partial``).
cast(Any, default_registry).__module__ = "jax_core._src.tree.tree_util"
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
