"""The ``jax.tree`` namespace: short aliases of the :mod:`jax_core.tree_util` functions.

``tree.map`` is ``tree_util.tree_map``, ``tree.leaves`` is
``tree_util.tree_leaves``, and so on; ``tree.static`` is a
``dataclasses.field`` marking a field static for ``register_dataclass``.
"""

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.tree_util import (
    static as static,
    tree_all as all,  # noqa: A004
    tree_broadcast as broadcast,
    tree_flatten as flatten,
    tree_flatten_with_path as flatten_with_path,
    tree_leaves as leaves,
    tree_leaves_with_path as leaves_with_path,
    tree_map as map,  # noqa: A004
    tree_map_with_path as map_with_path,
    tree_reduce as reduce,
    tree_reduce_associative as reduce_associative,
    tree_structure as structure,
    tree_transpose as transpose,
    tree_unflatten as unflatten,
)

__all__ = [
    "all",
    "broadcast",
    "flatten",
    "flatten_with_path",
    "leaves",
    "leaves_with_path",
    "map",
    "map_with_path",
    "reduce",
    "reduce_associative",
    "static",
    "structure",
    "transpose",
    "unflatten",
]
