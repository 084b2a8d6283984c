"""Utilities for working with pytrees: nested tuples, lists, dicts and registered nodes.

A pytree is a tree of Python containers whose non-container values are its
leaves. Container types are extensible: registering a type as a pytree node
(``register_pytree_node``, ``register_dataclass``, ...) makes it transparent
to every function here and to the transformations. There is one process-wide
registry (``default_registry``); class hierarchy is ignored (a subclass of a
registered type is a leaf unless registered itself). This is the counterpart
of ``jax.tree_util``; :mod:`jax_core.tree` holds shorter aliases.
"""

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.tree_util import (
    DictKey as DictKey,
    FlattenedIndexKey as FlattenedIndexKey,
    GetAttrKey as GetAttrKey,
    KeyEntry as KeyEntry,
    KeyPath as KeyPath,
    Partial as Partial,
    PyTreeDef as PyTreeDef,
    SequenceKey as SequenceKey,
    all_leaves as all_leaves,
    default_registry as default_registry,
    flatten_one_level as flatten_one_level,
    flatten_one_level_with_keys as flatten_one_level_with_keys,
    is_tree_node as is_tree_node,
    keystr as keystr,
    register_dataclass as register_dataclass,
    register_pytree_node as register_pytree_node,
    register_pytree_node_class as register_pytree_node_class,
    register_pytree_with_keys as register_pytree_with_keys,
    register_pytree_with_keys_class as register_pytree_with_keys_class,
    register_static as register_static,
    tree_all as tree_all,
    tree_broadcast as tree_broadcast,
    tree_flatten as tree_flatten,
    tree_flatten_with_path as tree_flatten_with_path,
    tree_leaves as tree_leaves,
    tree_leaves_with_path as tree_leaves_with_path,
    tree_map as tree_map,
    tree_map_with_path as tree_map_with_path,
    tree_reduce as tree_reduce,
    tree_reduce_associative as tree_reduce_associative,
    tree_structure as tree_structure,
    tree_transpose as tree_transpose,
    tree_unflatten as tree_unflatten,
    treedef_children as treedef_children,
    treedef_is_leaf as treedef_is_leaf,
    treedef_tuple as treedef_tuple,
)
