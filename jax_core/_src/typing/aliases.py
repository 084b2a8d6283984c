"""The type aliases of jax_core's public API: the one place they are defined.

Inputs are typed loosely (``ArrayLike``, ``DTypeLike``, ``ShapeLike``) and outputs
strictly (``Array``, ``np.dtype``, ``tuple[int, ...]``), as JEP 12049 proposes.
Loose is not the same as anything: a dtype *name* must be one JAX accepts, so a
misspelling such as ``jnp.zeros(3, "flaot32")`` is a type error (``DTypeName``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Protocol,
    SupportsIndex,
    TypeAlias,
    Union,
    cast,
    runtime_checkable,
)

import numpy as np

from jax_core._src.typing.basearray import Array as Array

if TYPE_CHECKING:  # core is a layer above: the name is for checkers (a string at run time)
    from jax_core._src.core.shape_poly import DimExpr

DType: TypeAlias = np.dtype[Any]
"""A concrete dtype object, as every jax_core function returns.

Example::

    def widest(x: Array, y: Array) -> DType:
        return jnp.promote_types(x.dtype, y.dtype)
"""

Shape: TypeAlias = tuple[int, ...]
"""A concrete shape, as every jax_core function returns.

Example::

    def batch_shape(x: Array) -> Shape:
        return x.shape[:-1]
"""

DimSize: TypeAlias = Union[int, "DimExpr"]
"""One dimension of a shape: an integer, or under shape polymorphism a symbolic dimension
(``jax_core.export.symbolic_shape("b, 2*h")`` gives ``b`` and ``2*h``), which goes wherever a
shape takes an integer.

Example::

    def rows(x: Array) -> DimSize:
        return x.shape[0]
"""

ShapeLike: TypeAlias = SupportsIndex | Sequence[SupportsIndex]
"""What shape parameters accept: an integer or a sequence of integers, where an integer is
anything with ``__index__`` (``int``, NumPy integer scalars such as ``np.int32(3)``), as the
runtime takes it.

Example::

    def make(shape: ShapeLike) -> Array:
        return jnp.zeros(shape)   # make(3), make((2, 3)), make([2, 3]), make((np.int32(2),))
"""

def shape_entries(shape: ShapeLike) -> Sequence[SupportsIndex]:
    """The entries of a ``ShapeLike``: ``(shape,)`` for an integer (``int`` or a NumPy integer),
    else ``shape`` itself (what the runtime iterates)."""
    if isinstance(shape, (int, np.integer)):
        return (cast("SupportsIndex", shape),)
    return cast("Sequence[SupportsIndex]", shape)


# The dtype names JAX accepts: what ``np.dtype(name)`` maps (with ml_dtypes imported) to a dtype
# a JAX array may have. Byte-order-prefixed codes ("<f4", "=i8", "|b1") are accepted at run time
# too but left out; spell those ``np.dtype("<f4")``. tests/typing/test_dtype_names.py checks this
# list against the runtime both ways.
DTypeName: TypeAlias = Literal[
    # bool
    "bool", "bool_", "?", "b1",
    # signed integers (ml_dtypes' int1/int2/int4, then NumPy's; "l"/"long" and "p"/"n" are
    # int64 or int32 depending on the platform, valid either way)
    "int1", "int2", "int4",
    "int8", "byte", "b", "i1",
    "int16", "short", "h", "i2",
    "int32", "intc", "i", "i4",
    "int64", "int", "int_", "intp", "long", "longlong", "i8", "l", "q", "p", "n",
    # unsigned integers
    "uint1", "uint2", "uint4",
    "uint8", "ubyte", "B", "u1",
    "uint16", "ushort", "H", "u2",
    "uint32", "uintc", "I", "u4",
    "uint64", "uint", "uintp", "ulong", "ulonglong", "u8", "L", "Q", "P", "N",
    # floating point (ml_dtypes' low-precision floats, then IEEE)
    "bfloat16",
    "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn",
    "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu",
    "float16", "half", "e", "f2",
    "float32", "single", "f", "f4",
    "float64", "double", "float", "d", "f8",
    # complex
    "complex64", "csingle", "F", "c8",
    "complex128", "cdouble", "complex", "D", "c16",
]  # fmt: skip
"""Every dtype name (and NumPy character code) JAX accepts, as a ``Literal``.

``DTypeLike`` takes these names instead of any ``str``, so type checkers reject a misspelt
name. A name only known at run time (read from a config file, say) is turned into a dtype
first with ``np.dtype(name)``, which raises ``TypeError`` for an unknown name.

Example::

    def cast(x: Array, name: DTypeName = "float32") -> Array:
        return x.astype(name)

    cast(x, "bfloat16")   # ok
    cast(x, "flaot32")    # type error: not a DTypeName
"""


@runtime_checkable
class SupportsDType(Protocol):
    """Any object with a ``dtype`` attribute (numpy scalar types, ``ShapeDtypeStruct``).

    Example::

        spec = jax.ShapeDtypeStruct((3,), jnp.float32)
        jnp.zeros(spec.shape, spec)           # spec is a SupportsDType
        isinstance(spec, SupportsDType)       # True
    """

    @property
    def dtype(self) -> DType:
        """The object's dtype."""
        ...


if TYPE_CHECKING:
    _ScalarType: TypeAlias = type[np.generic[Any]]
else:  # numpy.generic takes no subscript at run time
    _ScalarType = type[np.generic]

DTypeLike: TypeAlias = (
    DTypeName
    | _ScalarType
    | type[bool]
    | type[int]
    | type[float]
    | type[complex]
    | np.dtype[Any]
    | SupportsDType
)
"""What dtype parameters accept: dtype objects, scalar types, Python types or dtype names.

Names are checked statically (``DTypeName``), and so are types: NumPy/ml_dtypes scalar types
and ``bool``/``int``/``float``/``complex`` pass, ``str`` or ``list`` do not. ``None`` is not
part of it; parameters that allow a default dtype are typed ``DTypeLike | None``.

Example::

    def zeros_of(shape: ShapeLike, dtype: DTypeLike = "float32") -> Array:
        return jnp.zeros(shape, dtype)

    zeros_of(3, jnp.int8)          # ok: a scalar type
    zeros_of(3, np.dtype("f2"))    # ok: a dtype object
    zeros_of(3, float)             # ok: a Python type (the default float dtype)
    zeros_of(3, "bfloat16")        # ok: a name
    zeros_of(3, "bf16")            # type error: not a DTypeName
    zeros_of(3, str)               # type error: not a scalar type JAX arrays can hold
"""


@runtime_checkable
class SupportsJaxArray(Protocol):
    """An object that converts itself to an array through ``__jax_array__``.

    Example::

        class Meters:
            def __init__(self, v: float) -> None:
                self.v = v

            def __jax_array__(self) -> Array:
                return jnp.asarray(self.v)

        jnp.sin(Meters(1.0))   # accepted where an ArrayLike is
    """

    def __jax_array__(self) -> Array:
        """The object as a jax_core array."""
        ...


# NumPy's generic classes are left unparameterized (their parameters default to Any) so that
# ``isinstance(v, ArrayLike)`` works, at run time and for checkers.
ArrayLike: TypeAlias = (
    Array
    | np.ndarray
    | np.bool_
    | np.number
    | bool
    | int
    | float
    | complex
)
"""What array parameters accept: JAX's ``ArrayLike`` (arrays, NumPy arrays and scalars, Python
scalars). Lists, tuples, strings and None are rejected, as in JAX. ``isinstance(v, ArrayLike)``
tells whether ``v`` is one.

Objects with ``__jax_array__`` (``SupportsJaxArray``) are converted at run time but are not part
of it, as in JAX: every member of ``ArrayLike`` supports arithmetic, comparisons and NumPy calls,
so a parameter annotated ``ArrayLike`` can be used in them.

Example::

    def scale(x: ArrayLike, factor: float = 2.0) -> Array:
        return jnp.asarray(x) * factor

    scale(jnp.ones(3)); scale(np.ones(3)); scale(1.5)   # ok
    scale([1.0, 2.0])                                   # type error: convert with jnp.array first
"""

@runtime_checkable
class DuckTypedArray(Protocol):
    """Any object with ``shape`` and ``dtype`` (``ShapeDtypeStruct``, NumPy arrays, arrays), as
    the ``*_like`` constructors accept it.

    Example::

        spec = jax.ShapeDtypeStruct((3,), jnp.float32)
        jnp.zeros_like(spec)   # a float32 array of zeros, shape (3,)
    """

    @property
    def shape(self) -> Sequence[int]:
        """The object's shape."""
        ...

    @property
    def dtype(self) -> DType:
        """The object's dtype."""
        ...


PRNGKeyArray: TypeAlias = Array
"""An array of PRNG keys. Keys are ``Array`` values whose dtype is a key dtype.

A documenting alias, not a separate type: a checker treats it exactly as ``Array``, and
``isinstance(key, Array)`` holds. Use it to say which parameters expect keys.

Example::

    def init(key: PRNGKeyArray, shape: Shape) -> Array:
        return jax.random.normal(key, shape)
"""
