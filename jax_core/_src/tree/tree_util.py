"""Pytrees: nested containers of leaves, flattened and rebuilt by jaxlib's C++ registry.

A pytree is a tree of Python containers (tuples, lists, dicts, ``None``,
namedtuples, ``OrderedDict``, ``defaultdict``, dataclasses and any registered
node type) whose non-container values are *leaves*. Flattening a pytree gives
its leaves in a deterministic left-to-right depth-first order plus a
``PyTreeDef`` describing its structure; unflattening rebuilds the tree.

The work is done by jaxlib's C++ ``pytree`` module (``jaxlib._jax.pytree``),
through the one process-wide ``default_registry``. Semantics and error messages
follow ``jax.tree_util`` 0.12.

This module is the pytree API: import it from here. The implementation is split
by responsibility, each module importing only those listed before it:

- ``tree_core``: the C++ types (``PyTreeDef``, the key path entries, ...) with
  their type declarations, ``default_registry``, flattening and unflattening;
- ``tree_paths``: key paths (``keystr``, ``tree_flatten_with_path``, ...);
- ``tree_errors``: the structure-mismatch diagnostics (``prefix_errors``, ...);
- ``tree_registration``: registering node types (``register_pytree_node``,
  ``register_dataclass``, ``static``, ...), the Python-registered containers
  (``OrderedDict``, ``defaultdict``) and ``Partial``;
- this module: mapping, reducing, transposing and broadcasting, and the
  re-export of all the above.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Final, Literal, TypeVar, cast, overload

from jax_core._src.tree.errors import (
    equality_errors,
    equality_errors_pytreedef,
    iter_prefix_errors,
    prefix_errors,
)
from jax_core._src.tree.flatten import (
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyEntry,
    KeyLeafPair,
    KeyPath,
    Leaf,
    PyTree,
    PyTreeDef,
    PyTreeRegistry,
    SequenceKey,
    all_leaves,
    default_registry,
    flatten_one_level,
    flatten_one_level_with_keys,
    is_tree_node,
    tree_flatten,
    tree_leaves,
    tree_structure,
    tree_unflatten,
    treedef_children,
    treedef_is_leaf,
    treedef_is_strict_leaf,
    treedef_tuple,
)
from jax_core._src.tree.paths import keystr, tree_flatten_with_path, tree_leaves_with_path
from jax_core._src.tree.registration import (
    Partial,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    register_pytree_with_keys_class,
    register_static,
    static,
)

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


# ---------------------------------------------------------------------------
# Mapping
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
            err = next(iter_prefix_errors((), tree, r, is_leaf), None)
            raise (err("tree_map tree") if err is not None else e) from None
    return treedef.unflatten(f(*xs) for xs in zip(*all_leaves_))


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
            err = next(iter_prefix_errors((), tree, r, leaf_pred), None)
            raise (err("tree_map_with_path tree") if err is not None else e) from None
    return treedef.unflatten(f(*xs) for xs in zip(*columns))


# ---------------------------------------------------------------------------
# Reducing, transposing, broadcasting
# ---------------------------------------------------------------------------


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


# ``doctest.testmod`` on this module collects the examples of what is defined
# here only; name the re-exported functions and classes so theirs run with it.
__test__: Final[dict[str, Any]] = {
    name: obj
    for name, obj in list(globals().items())
    if name in __all__
    and (inspect.isfunction(obj) or inspect.isclass(obj))
    and obj.__module__.startswith("jax_core._src.tree.")
    and obj.__module__ != __name__
}
