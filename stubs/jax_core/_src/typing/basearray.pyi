# GENERATED from jax_core/_src/typing/basearray.py by tools/gen_overlays.py (mypy stubgen): do not edit.
# Shipped beside the module in the wheel; read by pyright in the repository (stubPath).
import abc
import numpy as np
from collections.abc import Iterator, Sequence
from jax_core._src.layout.formats import Format as Format, Layout as Layout
from jax_core._src.numpy.array_methods import Shard as Shard
from jax_core._src.numpy.indexing import IndexUpdateHelper as IndexUpdateHelper
from jax_core._src.sharding.shardings import Device as Device, Sharding as Sharding
from jax_core._src.typing import ArrayLike as ArrayLike, DTypeLike as DTypeLike
from types import EllipsisType
from typing import Any, ClassVar, SupportsIndex, TypeAlias, overload

Index: TypeAlias = None | SupportsIndex | slice | EllipsisType | ArrayLike | tuple[Any, ...]

class Array(abc.ABC, metaclass=abc.ABCMeta):
    """An N-dimensional array: a device buffer, or a tracer standing for one.

    Use it in annotations and ``isinstance`` checks; create arrays with
    ``jax_core.numpy`` functions or ``jax_core.device_put``, never directly.
    """
    __array_priority__: int
    @property
    @abc.abstractmethod
    def dtype(self) -> np.dtype[Any]:
        """The array's element type."""
    @property
    @abc.abstractmethod
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
    @property
    @abc.abstractmethod
    def weak_type(self) -> bool:
        """Whether the dtype is weak (came from a Python scalar) for type promotion."""
    @property
    def ndim(self) -> int:
        """The number of dimensions."""
    @property
    def size(self) -> int:
        """The number of elements."""
    @property
    def itemsize(self) -> int:
        """The size of one element in bytes."""
    @property
    def nbytes(self) -> int:
        """The total size of the elements in bytes."""
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __len__(self) -> int: ...
    @property
    def sharding(self) -> Sharding:
        """How the array is laid out across devices."""
    @property
    def is_fully_replicated(self) -> bool:
        """Whether every device of the array holds the whole value."""
    @property
    def format(self) -> Format[Layout]:
        """The array's device-local layout and its sharding (``x.format.layout.major_to_minor``;
            a deleted array's layout is ``None``)."""
    def devices(self) -> set[Device]:
        """The set of devices holding (part of) the array."""
    def block_until_ready(self) -> Array:
        """Waits until the array has been computed; returns it."""
    def copy(self) -> Array:
        """A copy of the array in a new buffer."""
    def is_deleted(self) -> bool:
        """Whether the array's buffers have been deleted (``delete``, donation)."""
    def delete(self) -> None:
        """Frees the array's device buffers now; the array may not be used afterwards."""
    def item(self, *args: int) -> bool | int | float | complex:
        """One element as a Python scalar (the only one if no index is given)."""
    def tolist(self) -> Any:
        """The value as nested Python lists of Python scalars."""
    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        """The value as a NumPy array (a host copy)."""
    def __bool__(self) -> bool: ...
    def __int__(self) -> int: ...
    def __float__(self) -> float: ...
    def __complex__(self) -> complex: ...
    def __index__(self) -> int: ...
    def __iter__(self) -> Iterator[Array]: ...
    def __getitem__(self, idx: Index) -> Array: ...
    def __neg__(self) -> Array: ...
    def __pos__(self) -> Array: ...
    def __abs__(self) -> Array: ...
    def __invert__(self) -> Array: ...
    def __add__(self, other: ArrayLike, /) -> Array: ...
    def __radd__(self, other: ArrayLike, /) -> Array: ...
    def __sub__(self, other: ArrayLike, /) -> Array: ...
    def __rsub__(self, other: ArrayLike, /) -> Array: ...
    def __mul__(self, other: ArrayLike, /) -> Array: ...
    def __rmul__(self, other: ArrayLike, /) -> Array: ...
    def __truediv__(self, other: ArrayLike, /) -> Array: ...
    def __rtruediv__(self, other: ArrayLike, /) -> Array: ...
    def __floordiv__(self, other: ArrayLike, /) -> Array: ...
    def __rfloordiv__(self, other: ArrayLike, /) -> Array: ...
    def __mod__(self, other: ArrayLike, /) -> Array: ...
    def __rmod__(self, other: ArrayLike, /) -> Array: ...
    def __pow__(self, other: ArrayLike, /) -> Array: ...
    def __rpow__(self, other: ArrayLike, /) -> Array: ...
    def __matmul__(self, other: ArrayLike, /) -> Array: ...
    def __rmatmul__(self, other: ArrayLike, /) -> Array: ...
    def __and__(self, other: ArrayLike, /) -> Array: ...
    def __rand__(self, other: ArrayLike, /) -> Array: ...
    def __or__(self, other: ArrayLike, /) -> Array: ...
    def __ror__(self, other: ArrayLike, /) -> Array: ...
    def __xor__(self, other: ArrayLike, /) -> Array: ...
    def __rxor__(self, other: ArrayLike, /) -> Array: ...
    def __lshift__(self, other: ArrayLike, /) -> Array: ...
    def __rlshift__(self, other: ArrayLike, /) -> Array: ...
    def __rshift__(self, other: ArrayLike, /) -> Array: ...
    def __rrshift__(self, other: ArrayLike, /) -> Array: ...
    def __lt__(self, other: ArrayLike, /) -> Array: ...
    def __le__(self, other: ArrayLike, /) -> Array: ...
    def __gt__(self, other: ArrayLike, /) -> Array: ...
    def __ge__(self, other: ArrayLike, /) -> Array: ...
    def __eq__(self, other: Any, /) -> Array: ...  # type: ignore[override]
    def __ne__(self, other: Any, /) -> Array: ...  # type: ignore[override]
    @property
    def T(self) -> Array:
        """The transpose (axes reversed)."""
    @property
    def mT(self) -> Array:
        """The matrix transpose (last two axes swapped)."""
    @property
    def real(self) -> Array:
        """The real part."""
    @property
    def imag(self) -> Array:
        """The imaginary part."""
    @property
    def at(self) -> IndexUpdateHelper:
        """Functional updates: ``x.at[i].set(v)`` returns an updated copy (also ``add``,
            ``subtract``, ``multiply``, ``divide``, ``min``, ``max``, ``apply``, ``get``)."""
    def astype(self, dtype: DTypeLike | None, copy: bool = False, device: Device | Sharding | None = None) -> Array:
        """The array converted to ``dtype``."""
    @overload
    def reshape(self, shape: Sequence[SupportsIndex], /, *, order: str = 'C') -> Array: ...
    @overload
    def reshape(self, *args: SupportsIndex, order: str = 'C') -> Array: ...
    @overload
    def transpose(self, axes: Sequence[SupportsIndex] | None, /) -> Array: ...
    @overload
    def transpose(self, *args: SupportsIndex) -> Array: ...
    def ravel(self, order: str = 'C') -> Array:
        """The elements as a 1-d array."""
    def flatten(self, order: str = 'C') -> Array:
        """The elements as a 1-d array."""
    def squeeze(self, axis: int | Sequence[int] | None = None) -> Array:
        """The array without (the given) size-1 axes."""
    def swapaxes(self, axis1: int, axis2: int) -> Array:
        """The array with two axes exchanged."""
    def sum(self, axis: int | Sequence[int] | None = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None, promote_integers: bool = True) -> Array:
        """The sum over ``axis`` (all axes by default)."""
    def prod(self, axis: int | Sequence[int] | None = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None, promote_integers: bool = True) -> Array:
        """The product over ``axis`` (all axes by default)."""
    def max(self, axis: int | Sequence[int] | None = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
        """The maximum over ``axis`` (all axes by default)."""
    def min(self, axis: int | Sequence[int] | None = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None) -> Array:
        """The minimum over ``axis`` (all axes by default)."""
    def mean(self, axis: int | Sequence[int] | None = None, dtype: DTypeLike | None = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
        """The mean over ``axis`` (all axes by default)."""
    def any(self, axis: int | Sequence[int] | None = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
        """Whether any element over ``axis`` is true."""
    def all(self, axis: int | Sequence[int] | None = None, out: None = None, keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
        """Whether every element over ``axis`` is true."""
    def argmax(self, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
        """The index of the maximum over ``axis`` (of the flattened array by default)."""
    def argmin(self, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
        """The index of the minimum over ``axis`` (of the flattened array by default)."""
    def dot(self, b: ArrayLike, *, precision: Any = None, preferred_element_type: DTypeLike | None = None) -> Array:
        """The dot product with ``b`` (``jnp.dot``)."""
    def conj(self) -> Array:
        """The complex conjugate."""
    def conjugate(self) -> Array:
        """The complex conjugate."""
    def std(self, axis: int | Sequence[int] | None = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0, keepdims: bool = False, *, where: ArrayLike | None = None, mean: ArrayLike | None = None, correction: int | float | None = None) -> Array:
        """The standard deviation over ``axis``."""
    def var(self, axis: int | Sequence[int] | None = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0, keepdims: bool = False, *, where: ArrayLike | None = None, mean: ArrayLike | None = None, correction: int | float | None = None) -> Array:
        """The variance over ``axis``."""
    def ptp(self, axis: int | Sequence[int] | None = None, out: None = None, keepdims: bool = False) -> Array:
        """Peak to peak (max - min) over ``axis``."""
    def cumsum(self, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
        """The cumulative sum along ``axis`` (of the flattened array by default)."""
    def cumprod(self, axis: int | None = None, dtype: DTypeLike | None = None, out: None = None) -> Array:
        """The cumulative product along ``axis`` (of the flattened array by default)."""
    def clip(self, min: ArrayLike | None = None, max: ArrayLike | None = None) -> Array:
        """The array limited to ``[min, max]``."""
    def round(self, decimals: int = 0, out: None = None) -> Array:
        """The array rounded to ``decimals`` decimal places (halves to even)."""
    def sort(self, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True, descending: bool = False) -> Array:
        """A sorted copy along ``axis``."""
    def argsort(self, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True, descending: bool = False, dtype: DTypeLike | None = None) -> Array:
        """The indices that sort the array along ``axis``."""
    def argpartition(self, kth: int, axis: int = -1) -> Array:
        """Indices that partition the array around its ``kth`` element."""
    def searchsorted(self, v: ArrayLike, side: str = 'left', sorter: ArrayLike | None = None, *, method: str = 'scan') -> Array:
        """Insertion indices of ``v`` into this sorted 1-D array."""
    def take(self, indices: ArrayLike, axis: int | None = None, out: None = None, mode: str | None = None, unique_indices: bool = False, indices_are_sorted: bool = False, fill_value: ArrayLike | None = None) -> Array:
        """Elements at ``indices`` along ``axis`` (``jnp.take``)."""
    def repeat(self, repeats: ArrayLike, axis: int | None = None, *, total_repeat_length: int | None = None) -> Array:
        """Each element repeated ``repeats`` times along ``axis``."""
    def nonzero(self, *, fill_value: ArrayLike | Sequence[ArrayLike] | None = None, size: int | None = None) -> tuple[Array, ...]:
        """Indices of the nonzero elements (``size`` is required under transformations)."""
    def choose(self, choices: Sequence[ArrayLike], out: None = None, mode: str = 'raise') -> Array:
        """``choices[self[i]][i]`` elementwise."""
    def compress(self, condition: ArrayLike, axis: int | None = None, *, out: None = None, size: int | None = None, fill_value: ArrayLike = 0) -> Array:
        """The slices along ``axis`` where ``condition`` is true."""
    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
        """The diagonal in the ``axis1``/``axis2`` plane."""
    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: DTypeLike | None = None, out: None = None) -> Array:
        """The sum along the diagonal."""
    def view(self, dtype: DTypeLike | None = None, type: None = None) -> Array:
        """The same bits reinterpreted as ``dtype``."""
    def byteswap(self, inplace: bool = False) -> Array:
        """The array with the bytes of each element reversed."""
    def tobytes(self, order: str = 'C') -> bytes:
        """The raw bytes of the value."""
    @property
    def device(self) -> Device | Sharding:
        """The device holding the array, or its sharding if it spans several."""
    def to_device(self, device: Device | Sharding, *, stream: int | None = None) -> Array:
        """A copy of the array on ``device``."""
    @property
    def committed(self) -> bool:
        """Whether the array is committed to its device(s)."""
    @property
    def is_fully_addressable(self) -> bool:
        """Whether this process holds every shard (always, single-process)."""
    def addressable_data(self, index: int) -> Array:
        """The data of the ``index``-th shard this process holds."""
    @property
    def addressable_shards(self) -> list[Shard]:
        """The shards this process holds."""
    @property
    def global_shards(self) -> list[Shard]:
        """The shards on every device (a shard of another process has ``data`` None)."""
    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
    def __divmod__(self, other: Any) -> tuple[Array, Array]: ...
    def __rdivmod__(self, other: Any) -> tuple[Array, Array]: ...
    def __round__(self, ndigits: int | None = None) -> Array: ...
    def __contains__(self, other: Any) -> Array: ...
    def __reversed__(self) -> Iterator[Array]: ...
    def __copy__(self, memo: Any = None) -> Array: ...
    def __deepcopy__(self, memo: Any = None) -> Array: ...
    def __array_namespace__(self, *, api_version: str | None = None) -> Any: ...
