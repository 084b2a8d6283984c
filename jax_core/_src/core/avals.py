"""Abstract values: what tracing knows about an array (shape, dtype, weak type)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, SupportsIndex, cast

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.core.shape_poly import is_symbolic_dim

if TYPE_CHECKING:
    from jax_core._src.layout.formats import Format, Layout
    from jax_core._src.sharding.shardings import Sharding
    from jax_core._src.typing import DTypeLike


_EMPTY: Final[frozenset[Any]] = frozenset()

# The order names print in (``f32[4]{V:(x,y)}``): their mesh's, as ``shard_map`` registers it.
_axis_order: dict[Any, int] = {}


def register_axis_order(names: Iterable[Any]) -> None:
    """Records the order of a mesh's axis names, for printing the axes a value varies over."""
    for name in names:
        _axis_order.setdefault(name, len(_axis_order))


def order_axes(names: Iterable[Any]) -> tuple[Any, ...]:
    """``names`` in their mesh's order (as registered by ``register_axis_order``)."""
    return tuple(sorted(names, key=lambda n: (_axis_order.get(n, len(_axis_order)), str(n))))


def _dtype_name(dtype: np.dtype[Any]) -> str:
    """The dtype's name as JAX prints avals (``float0``, whose numpy name is ``void``)."""
    return "float0" if dtype == dtypes.float0 else dtype.name


class ShapedArray:
    """The abstract value of an array: its shape, dtype and weak-type flag, and (inside
    ``shard_map``) ``vma``, the mesh axes along which its per-device values vary."""

    __slots__ = ("shape", "dtype", "weak_type", "vma")

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    weak_type: bool
    vma: frozenset[Any]

    def __init__(
        self, shape: tuple[int, ...], dtype: np.dtype[Any], weak_type: bool = False, vma: frozenset[Any] = _EMPTY
    ) -> None:
        self.shape = shape
        self.dtype = dtype
        self.weak_type = weak_type
        self.vma = vma

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return math.prod(self.shape)

    def update(
        self,
        shape: tuple[int, ...] | None = None,
        dtype: np.dtype[Any] | None = None,
        weak_type: bool | None = None,
        vma: frozenset[Any] | None = None,
    ) -> ShapedArray:
        """A copy with some fields replaced."""
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
            self.vma if vma is None else vma,
        )

    def strip_weak_type(self) -> ShapedArray:
        """The same aval with a strong dtype."""
        return self.update(weak_type=False) if self.weak_type else self

    def str_short(self) -> str:
        """The jaxpr spelling, e.g. ``f32[3,4]``."""
        return f"{dtypes.short_dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]{self._vma_str()}"

    def _vma_str(self) -> str:
        if not self.vma:
            return ""
        names = order_axes(self.vma)
        inner = ",".join(map(str, names))
        return "{V:" + (inner if len(names) == 1 else f"({inner})") + "}"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is ShapedArray
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
            and self.vma == other.vma
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type, self.vma))

    def __repr__(self) -> str:
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapedArray({_dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]{weak})"

    def __str__(self) -> str:
        weak = "~" if self.weak_type else ""
        return f"{weak}{_dtype_name(self.dtype)}[{','.join(map(str, self.shape))}]{self._vma_str()}"


AVAL_SCALAR_TYPES: Final = (bool, int, float, complex)


def canonical_shape(shape: object, context: str) -> tuple[int, ...]:
    """Converts a user shape (an int or a sequence of ints) to a tuple, with JAX's error."""
    from jax_core._src.core.trace import Tracer

    seq: Any = (shape,) if _is_integer(shape) or _is_index_like(shape) else shape
    try:
        items: list[Any] = list(seq)
    except TypeError:
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {shape!r}."
        ) from None
    tracers = [d for d in items if isinstance(d, Tracer)]
    if tracers:  # JAX's TypeError (ConcretizationTypeError is one too), with where the value came from
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {tuple(items)}.\n"
            "If using `jit`, try using `static_argnums` or applying `jit` to smaller subfunctions.\n"
            f"{tracers[0].provenance()}"
        )
    out: list[int] = []
    for d in items:
        if is_symbolic_dim(d):  # shape polymorphism: a symbolic dimension is non-negative by construction
            out.append(cast(int, d))  # avals annotate shapes as JAX's do: ``tuple[int, ...]``
            continue
        try:
            out.append(int(d.__index__()))
        except (AttributeError, TypeError):
            raise TypeError(
                f"Shapes must be 1D sequences of concrete values of integer type, got {shape!r}."
            ) from None
        if out[-1] < 0:
            raise TypeError(f"{context}: shape dimensions must be non-negative, got {tuple(items)}.")
    return tuple(out)


def _is_integer(x: object) -> TypeIs[int | np.integer[Any]]:
    return isinstance(x, (int, np.integer))


def _is_index_like(x: object) -> bool:
    from jax_core._src.core.trace import Tracer

    return isinstance(x, Tracer) and x.ndim == 0


class FormatSupport:
    """How ``ShapeDtypeStruct`` reads a ``Format`` (a layer above registers it: ``layout/``)."""

    def split(self, sharding: Any) -> tuple[Any, Any] | None:
        """``(layout, sharding)`` of a ``Format``, ``None`` for anything else."""
        raise NotImplementedError

    def join(self, layout: Any, sharding: Any) -> Any:
        """The ``Format`` of a layout and a sharding."""
        raise NotImplementedError


_format_support: list[FormatSupport] = []


def register_format_support(support: FormatSupport) -> None:
    """Lets ``ShapeDtypeStruct`` take a ``Format`` as its sharding (``layout/formats.py``)."""
    _format_support[:] = [support]


class ShapeDtypeStruct:
    """A shape and dtype (and optionally a sharding, or a ``Format``: a layout and a sharding)
    standing in for an array argument.

    Pass it to ``jit(f).lower``/``.trace``/``.eval_shape`` or ``eval_shape`` to work with
    abstract arguments; ``eval_shape`` returns its results as these.
    """

    __slots__ = ("shape", "dtype", "sharding", "weak_type", "_layout")

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    sharding: Sharding | None
    weak_type: bool
    _layout: Layout | None

    def __init__(
        self,
        shape: Iterable[SupportsIndex],
        dtype: DTypeLike,
        *,
        sharding: Sharding | Format[Layout] | Format[None] | None = None,
        weak_type: bool = False,
    ) -> None:
        self.shape = tuple(cast(int, d) if is_symbolic_dim(d) else int(d) for d in shape)
        # As in JAX the dtype is kept as given (``float64`` stays ``float64`` without x64; ``to_aval``
        # canonicalizes). Extended dtypes (PRNG keys) are allowed; avals annotate dtypes as NumPy's.
        self.dtype = (
            cast("np.dtype[Any]", dtype) if dtypes.is_extended_dtype(dtype) else dtypes.dtype(dtype)
        )
        parts = _format_support[0].split(sharding) if _format_support else None
        self._layout, self.sharding = (None, cast("Sharding | None", sharding)) if parts is None else parts
        self.weak_type = weak_type

    @property
    def format(self) -> Format[Any]:
        """Its layout (``None``: the default) and sharding."""
        fmt: Format[Any] = _format_support[0].join(self._layout, self.sharding)
        return fmt

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return math.prod(self.shape)

    def __repr__(self) -> str:
        sharding = "" if self.sharding is None else f", sharding={self.sharding}"
        layout = "" if self._layout is None else f", format={self._layout}"
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{sharding}{layout}{weak})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ShapeDtypeStruct)
            and (self.shape, self.dtype, self.sharding, self._layout, self.weak_type)
            == (other.shape, other.dtype, other.sharding, other._layout, other.weak_type)
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type))

    def to_aval(self) -> ShapedArray:
        """The abstract value (its dtype canonical for the x64 mode)."""
        dtype = cast("np.dtype[Any]", dtypes.canonicalize_dtype(self.dtype, allow_extended_dtype=True))
        return ShapedArray(self.shape, dtype, self.weak_type)
