"""Key paths: rendering them (``keystr``) and flattening pytrees into ``(key path, leaf)`` pairs.

A key path is the tuple of key entries leading from the root of a pytree to one
of its leaves: ``SequenceKey`` for an element of a tuple or list, ``DictKey``
for a dict value, ``GetAttrKey`` for an attribute of a namedtuple or dataclass,
``FlattenedIndexKey`` for a child of a node registered without keys, or a custom
node's own keys. ``tree_map_with_path``, which shares ``tree_map``'s handling of
mismatched trees, is in :mod:`jax_core._src.tree.tree_util`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, overload

from jax_core._src.tree.flatten import (
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyEntry,
    KeyPath,
    Leaf,
    PyTreeDef,
    SequenceKey,
    default_registry,
)

__all__ = ["keystr", "tree_flatten_with_path", "tree_leaves_with_path"]


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
