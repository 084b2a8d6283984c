"""Type aliases for annotating code written against jax_core (JEP 12049).

Annotate inputs loosely and outputs strictly::

    from jax_core.typing import Array, ArrayLike, DTypeLike

    def scale(x: ArrayLike, factor: float = 2.0, dtype: DTypeLike | None = None) -> Array:
        return jnp.asarray(x, dtype) * factor

``DTypeLike`` takes dtype names only from ``DTypeName``, so ``scale(x, dtype="flaot32")`` is
a type error in mypy and pyright. See docs/typing.md for the whole picture.

Shapes are annotated with jaxtyping's names, ``Float[Array, "batch n"]``: every checker reads
them as ``Array``, jax_core's mypy plugin checks the shapes, and jaxtyping's runtime checker
accepts them (docs/shape-typing.md).
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
from jax_core._src.typing.array_annotations import BFloat16 as BFloat16
from jax_core._src.typing.array_annotations import Bool as Bool
from jax_core._src.typing.array_annotations import Complex as Complex
from jax_core._src.typing.array_annotations import Complex64 as Complex64
from jax_core._src.typing.array_annotations import Complex128 as Complex128
from jax_core._src.typing.array_annotations import Float as Float
from jax_core._src.typing.array_annotations import Float8e4m3b11fnuz as Float8e4m3b11fnuz
from jax_core._src.typing.array_annotations import Float8e4m3fn as Float8e4m3fn
from jax_core._src.typing.array_annotations import Float8e4m3fnuz as Float8e4m3fnuz
from jax_core._src.typing.array_annotations import Float8e5m2 as Float8e5m2
from jax_core._src.typing.array_annotations import Float8e5m2fnuz as Float8e5m2fnuz
from jax_core._src.typing.array_annotations import Float16 as Float16
from jax_core._src.typing.array_annotations import Float32 as Float32
from jax_core._src.typing.array_annotations import Float64 as Float64
from jax_core._src.typing.array_annotations import Inexact as Inexact
from jax_core._src.typing.array_annotations import Int as Int
from jax_core._src.typing.array_annotations import Int2 as Int2
from jax_core._src.typing.array_annotations import Int4 as Int4
from jax_core._src.typing.array_annotations import Int8 as Int8
from jax_core._src.typing.array_annotations import Int16 as Int16
from jax_core._src.typing.array_annotations import Int32 as Int32
from jax_core._src.typing.array_annotations import Int64 as Int64
from jax_core._src.typing.array_annotations import Integer as Integer
from jax_core._src.typing.array_annotations import Key as Key
from jax_core._src.typing.array_annotations import Num as Num
from jax_core._src.typing.array_annotations import Real as Real
from jax_core._src.typing.array_annotations import Shaped as Shaped
from jax_core._src.typing.array_annotations import UInt as UInt
from jax_core._src.typing.array_annotations import UInt2 as UInt2
from jax_core._src.typing.array_annotations import UInt4 as UInt4
from jax_core._src.typing.array_annotations import UInt8 as UInt8
from jax_core._src.typing.array_annotations import UInt16 as UInt16
from jax_core._src.typing.array_annotations import UInt32 as UInt32
from jax_core._src.typing.array_annotations import UInt64 as UInt64
