"""Type aliases for annotating code written against jax_core (JEP 12049).

Annotate inputs loosely and outputs strictly::

    from jax_core.typing import Array, ArrayLike, DTypeLike

    def scale(x: ArrayLike, factor: float = 2.0, dtype: DTypeLike | None = None) -> Array:
        return jnp.asarray(x, dtype) * factor

``DTypeLike`` takes dtype names only from ``DTypeName``, so ``scale(x, dtype="flaot32")`` is
a type error in mypy and pyright. See docs/typing.md for the whole picture.
"""

from jax_core._src.typing import Array as Array
from jax_core._src.typing import ArrayLike as ArrayLike
from jax_core._src.typing import DimSize as DimSize
from jax_core._src.typing import DType as DType
from jax_core._src.typing import DTypeLike as DTypeLike
from jax_core._src.typing import DTypeName as DTypeName
from jax_core._src.typing import DuckTypedArray as DuckTypedArray
from jax_core._src.typing import PRNGKeyArray as PRNGKeyArray
from jax_core._src.typing import Shape as Shape
from jax_core._src.typing import ShapeLike as ShapeLike
from jax_core._src.typing import SupportsDType as SupportsDType
