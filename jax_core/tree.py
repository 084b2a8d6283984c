"""The ``jax.tree`` namespace: short aliases of the :mod:`jax_core.tree_util` functions.

``tree.map`` is ``tree_util.tree_map``, ``tree.leaves`` is
``tree_util.tree_leaves``, and so on; ``tree.static`` is a
``dataclasses.field`` marking a field static for ``register_dataclass``.
"""

# Re-exported with ``as`` so type checkers treat them as public (PEP 484).
from jax_core._src.tree.tree_util import (
    static as static,
)
from jax_core._src.tree.tree_util import (
    tree_all as all,
)
from jax_core._src.tree.tree_util import (
    tree_broadcast as broadcast,
)
from jax_core._src.tree.tree_util import (
    tree_flatten as flatten,
)
from jax_core._src.tree.tree_util import (
    tree_flatten_with_path as flatten_with_path,
)
from jax_core._src.tree.tree_util import (
    tree_leaves as leaves,
)
from jax_core._src.tree.tree_util import (
    tree_leaves_with_path as leaves_with_path,
)
from jax_core._src.tree.tree_util import (
    tree_map as map,
)
from jax_core._src.tree.tree_util import (
    tree_map_with_path as map_with_path,
)
from jax_core._src.tree.tree_util import (
    tree_reduce as reduce,
)
from jax_core._src.tree.tree_util import (
    tree_reduce_associative as reduce_associative,
)
from jax_core._src.tree.tree_util import (
    tree_structure as structure,
)
from jax_core._src.tree.tree_util import (
    tree_transpose as transpose,
)
from jax_core._src.tree.tree_util import (
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
