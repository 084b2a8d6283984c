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
from jax_core._src.tree.tree_util import (
    DictKey as DictKey,
)
from jax_core._src.tree.tree_util import (
    FlattenedIndexKey as FlattenedIndexKey,
)
from jax_core._src.tree.tree_util import (
    GetAttrKey as GetAttrKey,
)
from jax_core._src.tree.tree_util import (
    KeyEntry as KeyEntry,
)
from jax_core._src.tree.tree_util import (
    KeyPath as KeyPath,
)
from jax_core._src.tree.tree_util import (
    Partial as Partial,
)
from jax_core._src.tree.tree_util import (
    PyTreeDef as PyTreeDef,
)
from jax_core._src.tree.tree_util import (
    SequenceKey as SequenceKey,
)
from jax_core._src.tree.tree_util import (
    all_leaves as all_leaves,
)
from jax_core._src.tree.tree_util import (
    default_registry as default_registry,
)
from jax_core._src.tree.tree_util import (
    flatten_one_level as flatten_one_level,
)
from jax_core._src.tree.tree_util import (
    flatten_one_level_with_keys as flatten_one_level_with_keys,
)
from jax_core._src.tree.tree_util import (
    is_tree_node as is_tree_node,
)
from jax_core._src.tree.tree_util import (
    keystr as keystr,
)
from jax_core._src.tree.tree_util import (
    register_dataclass as register_dataclass,
)
from jax_core._src.tree.tree_util import (
    register_pytree_node as register_pytree_node,
)
from jax_core._src.tree.tree_util import (
    register_pytree_node_class as register_pytree_node_class,
)
from jax_core._src.tree.tree_util import (
    register_pytree_with_keys as register_pytree_with_keys,
)
from jax_core._src.tree.tree_util import (
    register_pytree_with_keys_class as register_pytree_with_keys_class,
)
from jax_core._src.tree.tree_util import (
    register_static as register_static,
)
from jax_core._src.tree.tree_util import (
    tree_all as tree_all,
)
from jax_core._src.tree.tree_util import (
    tree_broadcast as tree_broadcast,
)
from jax_core._src.tree.tree_util import (
    tree_flatten as tree_flatten,
)
from jax_core._src.tree.tree_util import (
    tree_flatten_with_path as tree_flatten_with_path,
)
from jax_core._src.tree.tree_util import (
    tree_leaves as tree_leaves,
)
from jax_core._src.tree.tree_util import (
    tree_leaves_with_path as tree_leaves_with_path,
)
from jax_core._src.tree.tree_util import (
    tree_map as tree_map,
)
from jax_core._src.tree.tree_util import (
    tree_map_with_path as tree_map_with_path,
)
from jax_core._src.tree.tree_util import (
    tree_reduce as tree_reduce,
)
from jax_core._src.tree.tree_util import (
    tree_reduce_associative as tree_reduce_associative,
)
from jax_core._src.tree.tree_util import (
    tree_structure as tree_structure,
)
from jax_core._src.tree.tree_util import (
    tree_transpose as tree_transpose,
)
from jax_core._src.tree.tree_util import (
    tree_unflatten as tree_unflatten,
)
from jax_core._src.tree.tree_util import (
    treedef_children as treedef_children,
)
from jax_core._src.tree.tree_util import (
    treedef_is_leaf as treedef_is_leaf,
)
from jax_core._src.tree.tree_util import (
    treedef_tuple as treedef_tuple,
)
