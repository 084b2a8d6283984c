"""Structure-mismatch diagnostics: where and how two pytrees differ in structure.

``prefix_errors`` explains why one pytree is not a prefix of another (the
``ValueError`` that ``tree_map``, ``tree_map_with_path`` and ``broadcast_prefix``
raise for mismatched trees) and ``equality_errors`` lists the structural
differences of two pytrees. The messages are those of ``jax.tree_util``.
"""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from jax_core._src.tree.flatten import (
    KeyPath,
    PyTreeDef,
    flatten_one_level,
    flatten_one_level_with_keys,
    tree_structure,
    tree_unflatten,
    treedef_is_strict_leaf,
)
from jax_core._src.tree.paths import keystr

__all__ = ["equality_errors", "equality_errors_pytreedef", "iter_prefix_errors", "prefix_errors"]


def prefix_errors(
    prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None
) -> list[Callable[[str], ValueError]]:
    """Explains why ``prefix_tree`` is not a prefix of ``full_tree``.

    Each entry, called with the name of the prefix tree, gives the
    ``ValueError`` to raise; the list is empty if it is a prefix.
    """
    return list(iter_prefix_errors((), prefix_tree, full_tree, is_leaf))


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


def iter_prefix_errors(
    key_path: KeyPath,
    prefix_tree: Any,
    full_tree: Any,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Iterator[Callable[[str], ValueError]]:
    """Lazily explains why ``prefix_tree`` is not a prefix of ``full_tree``, below ``key_path``.

    Like ``prefix_errors`` as a generator: take the first error with ``next``
    without working out the others.
    """
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
        yield from iter_prefix_errors((*key_path, k), c1, c2, is_leaf)
