"""The typed vocabulary: the ``Array`` ABC (``basearray.py``) and the public type aliases
(``aliases.py``). The package is what callers import (``from jax_core._src.typing import ArrayLike``).
jaxtyping's array annotations (``Float[Array, "batch n"]``) are in ``array_annotations.py``,
imported from there by jax_core.typing.
"""

from jax_core._src.typing.aliases import ArrayLike as ArrayLike
from jax_core._src.typing.aliases import DimSize as DimSize
from jax_core._src.typing.aliases import DType as DType
from jax_core._src.typing.aliases import DTypeLike as DTypeLike
from jax_core._src.typing.aliases import DTypeName as DTypeName
from jax_core._src.typing.aliases import DuckTypedArray as DuckTypedArray
from jax_core._src.typing.aliases import PRNGKeyArray as PRNGKeyArray
from jax_core._src.typing.aliases import Shape as Shape
from jax_core._src.typing.aliases import ShapeLike as ShapeLike
from jax_core._src.typing.aliases import SupportsDType as SupportsDType
from jax_core._src.typing.aliases import SupportsJaxArray as SupportsJaxArray
from jax_core._src.typing.aliases import shape_entries as shape_entries
from jax_core._src.typing.basearray import Array as Array
