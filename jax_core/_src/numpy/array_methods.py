"""The Array method and operator table: written once, installed on ``ArrayImpl`` and ``Tracer``.

So ``x + 1``, ``x.sum()`` and ``x[0]`` behave the same on a device array and on any
tracer, and there is one place to read what each method does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from jax_core._src.lib.devices import Device
from jax_core._src.core.trace import Tracer
from jax_core._src.numpy import (
    creation,
    indexing,
    indexing_funcs,
    manipulation,
    math,
    numeric,
    products,
    reductions,
    shape,
    sorting,
    ufuncs,
)
from jax_core._src.runtime.array import ArrayImpl, check_not_deleted
from jax_core._src.runtime import dlpack
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array


def _defer(binary: Callable[[ArrayLike, ArrayLike], Array], *, reflected: bool = False) -> Callable[[Any, Any], Any]:
    """An operator that returns NotImplemented for operands jax_core does not know (lists...)."""

    def op(self: Array, other: Any) -> Any:
        if not _accepts(other):
            return NotImplemented
        return binary(other, self) if reflected else binary(self, other)

    op.__name__ = binary.__name__
    return op


def _accepts(x: object) -> bool:
    return isinstance(x, (Array, np.ndarray, bool, int, float, complex, np.generic)) or hasattr(x, "__jax_array__")


def _astype(self: Array, dtype: DTypeLike | None, copy: bool = False, device: Any = None) -> Array:
    out = creation.astype(self, dtype)
    if device is not None:
        from jax_core._src.runtime.transfer import device_put

        moved: Array = device_put(out, device)
        return moved
    return out


def _mT(self: Array) -> Array:
    return manipulation.matrix_transpose(self)


def _divmod(self: Array, other: Any) -> Any:
    if not _accepts(other):
        return NotImplemented
    return math.divmod(self, other)


def _rdivmod(self: Array, other: Any) -> Any:
    if not _accepts(other):
        return NotImplemented
    return math.divmod(other, self)


def _round_dunder(self: Array, ndigits: int | None = None) -> Array:
    if ndigits is None:  # round(x): to the nearest integer, as an integer array (as in JAX)
        from jax_core._src import dtypes

        return creation.astype(math.round(self), dtypes.default_int_dtype())
    return math.round(self, ndigits)


def _contains(self: Array, other: Any) -> Array:
    if self.ndim != 1:
        raise ValueError(f"Array.__contains__: search array must be one-dimensional, got arr.shape={self.shape}.")
    return reductions.any(ufuncs.equal(self, other))


def _reversed(self: Array) -> Any:
    return iter(manipulation.flip(self, 0) if self.ndim else self)


def _self_copy(self: Array, memo: Any = None) -> Array:
    return self


def _array_namespace(self: Array, /, *, api_version: str | None = None) -> Any:
    import jax_core.numpy as jnp

    return jnp


def _flat(self: Array) -> Any:
    raise NotImplementedError("JAX Arrays do not implement the arr.flat property: consider arr.flatten() instead.")


def _view(self: Array, dtype: DTypeLike | None = None, type: None = None) -> Array:
    """The same bits as another dtype (``lax.bitcast_convert_type`` semantics on the last axis)."""
    import numpy as np_

    from jax_core._src import dtypes
    from jax_core._src.lax.elementwise import bitcast_convert_type

    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self
    new = dtypes.canonicalize_dtype(dtype)
    old = self.dtype
    if new == old:
        return self
    if self.ndim == 0:
        if old.itemsize != new.itemsize:
            raise ValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
        return bitcast_convert_type(self, new)
    if old == np_.bool_ or new == np_.bool_:
        src = self if old != np_.bool_ else ensure_bool_as_uint8(self)
        out = _view(src, np_.uint8 if new == np_.bool_ else new)
        return out if new != np_.bool_ else ufuncs.not_equal(out, np_.uint8(0))
    if old.kind == "c":  # as (real, imag) pairs of the component type, interleaved
        part = dtypes.finfo(old).dtype
        pairs = shape.stack([ufuncs.real(self), ufuncs.imag(self)], axis=-1)
        return _view(shape.reshape(pairs, (*self.shape[:-1], self.shape[-1] * 2)).astype(part), new)
    if new.kind == "c":
        out = _view(self, dtypes.finfo(new).dtype).astype(new)
        return out[..., 0::2] + 1j * out[..., 1::2]
    if self.shape[-1] * old.itemsize % new.itemsize:
        raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis of the array.")
    if old.itemsize == new.itemsize:
        return bitcast_convert_type(self, new)
    if old.itemsize > new.itemsize:
        out = bitcast_convert_type(self, new)
        return shape.reshape(out, (*self.shape[:-1], self.shape[-1] * (old.itemsize // new.itemsize)))
    ratio = new.itemsize // old.itemsize
    grouped = shape.reshape(self, (*self.shape[:-1], self.shape[-1] // ratio, ratio))
    return bitcast_convert_type(grouped, new)


def ensure_bool_as_uint8(x: Array) -> Array:
    """A bool array as uint8 (for ``view``)."""
    import numpy as np_

    return creation.astype(x, np_.uint8)


def _byteswap(self: Array, inplace: bool = False) -> Array:
    if inplace:
        raise ValueError("Inplace byteswapping not supported.")
    import numpy as np_

    if self.dtype.itemsize == 1 or self.dtype == np_.bool_:
        return self
    as_bytes = _view(self, np_.uint8)
    n = self.dtype.itemsize
    swapped = manipulation.flip(shape.reshape(as_bytes, (*self.shape, n)), -1)
    return _view(shape.reshape(swapped, (*self.shape[:-1], self.shape[-1] * n) if self.ndim else (n,)), self.dtype) if self.ndim else _view(swapped, self.dtype)


def _tobytes(self: Array, order: str = "C") -> bytes:
    return np.asarray(self).tobytes(order=order)  # type: ignore[arg-type]


def _nonzero(self: Array, *, fill_value: Any = None, size: int | None = None) -> tuple[Array, ...]:
    return indexing_funcs.nonzero(self, size=size, fill_value=fill_value)


def _choose(self: Array, choices: Sequence[ArrayLike], out: None = None, mode: str = "raise") -> Array:
    return indexing_funcs.choose(self, choices, out, mode)


def _compress(self: Array, condition: ArrayLike, axis: int | None = None, *, out: None = None, size: int | None = None, fill_value: ArrayLike = 0) -> Array:
    return indexing_funcs.compress(condition, self, axis, size=size, fill_value=fill_value, out=out)


def _searchsorted(self: Array, v: ArrayLike, side: str = "left", sorter: ArrayLike | None = None, *, method: str = "scan") -> Array:
    return sorting.searchsorted(self, v, side, sorter, method=method)


def _clip(self: Array, min: ArrayLike | None = None, max: ArrayLike | None = None) -> Array:
    return numeric.clip(self, min, max)


def _device(self: Any) -> Any:
    devices = self.devices()
    return next(iter(devices)) if len(devices) == 1 else self.sharding


def _to_device(self: Array, device: Any, *, stream: Any = None) -> Array:
    if stream is not None:
        raise NotImplementedError("stream argument of array.to_device()")
    from jax_core._src.runtime.transfer import device_put

    moved: Array = device_put(self, device)
    return moved


def _addressable_data(self: Any, index: int) -> Array:
    shards: list[Any] = self._arrays
    out: Array = shards[index]
    return out


class Shard:
    """One shard of an array: its device, its index into the global array, and its data."""

    __slots__ = ("device", "index", "replica_id", "data")

    device: Device
    """The device holding this shard."""
    index: tuple[slice, ...]
    """Which part of the global array it is."""
    replica_id: int
    """Which copy it is, among the devices holding the same part (0 for the first)."""
    data: Array
    """Its values, a single-device array."""

    def __init__(self, device: Device, index: tuple[slice, ...], replica_id: int, data: Array) -> None:
        self.device = device
        self.index = index
        self.replica_id = replica_id
        self.data = data

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, data={self.data})"


def _blocks(self: Any) -> list[tuple[Any, tuple[slice, ...], int]]:
    """Every device of the array's sharding with its block and replica id (the copies of a block
    are numbered in device-assignment order, over all processes' devices, as in JAX)."""
    from jax_core._src.sharding.shardings import devices_indices_map

    seen: dict[tuple[Any, ...], int] = {}
    out: list[tuple[Any, tuple[slice, ...], int]] = []
    for device, index in devices_indices_map(self._sharding, self.shape).items():
        key = tuple((s.start, s.stop, s.step) for s in index)
        replica = seen.get(key, 0)
        seen[key] = replica + 1
        out.append((device, index, replica))
    return out


def _addressable_shards(self: Any) -> list[Shard]:
    check_not_deleted(self)
    blocks = {device.id: (index, replica) for device, index, replica in _blocks(self)}
    out: list[Shard] = []
    for shard in self._arrays:
        device = shard._sharding._device
        index, replica = blocks[device.id]
        out.append(Shard(device, index, replica, shard))
    return out


def _global_shards(self: Any) -> list[Shard]:
    check_not_deleted(self)
    if self.sharding.is_fully_addressable:
        return _addressable_shards(self)
    data = {shard._sharding._device.id: shard for shard in self._arrays}
    # A shard held by another process has no data here (``None``, as in JAX).
    return [Shard(d, index, replica, cast(Array, data.get(d.id))) for d, index, replica in _blocks(self)]


def _dlpack(self: Array, *args: Any, **kwargs: Any) -> Any:
    return dlpack.__dlpack__(self, *args, **kwargs)


def _dlpack_device(self: Array) -> tuple[int, int]:
    kind, index = dlpack.dlpack_device(self)
    return int(kind), index


def _removed(name: str, hint: str) -> property:
    def get(self: Any) -> Any:
        raise AttributeError(f"arr.{name} has been removed; use {hint} instead.")

    return property(get)


def _reshape(self: Array, *args: Any, order: str = "C") -> Array:
    new_shape = args[0] if len(args) == 1 and not isinstance(args[0], (int, np.integer, Tracer)) else args
    return shape.reshape(self, new_shape, order=order)


def _transpose(self: Array, *args: Any) -> Array:
    axes = None if not args or (len(args) == 1 and args[0] is None) else (args[0] if len(args) == 1 and not isinstance(args[0], int) else args)
    return shape.transpose(self, axes)


def _ravel(self: Array, order: str = "C") -> Array:
    return shape.ravel(self, order)


def _squeeze(self: Array, axis: int | Sequence[int] | None = None) -> Array:
    return shape.squeeze(self, axis)


def _swapaxes(self: Array, axis1: int, axis2: int) -> Array:
    return shape.swapaxes(self, axis1, axis2)


def _block_until_ready(self: Array) -> Array:
    return self


def _copy(self: Array) -> Array:
    return creation.array(self, copy=True)


METHODS: dict[str, Any] = {
    # operators
    "__neg__": ufuncs.negative,
    "__pos__": ufuncs.positive,
    "__abs__": ufuncs.absolute,
    "__invert__": ufuncs.invert,
    "__add__": _defer(ufuncs.add),
    "__radd__": _defer(ufuncs.add, reflected=True),
    "__sub__": _defer(ufuncs.subtract),
    "__rsub__": _defer(ufuncs.subtract, reflected=True),
    "__mul__": _defer(ufuncs.multiply),
    "__rmul__": _defer(ufuncs.multiply, reflected=True),
    "__truediv__": _defer(ufuncs.true_divide),
    "__rtruediv__": _defer(ufuncs.true_divide, reflected=True),
    "__floordiv__": _defer(ufuncs.floor_divide),
    "__rfloordiv__": _defer(ufuncs.floor_divide, reflected=True),
    "__mod__": _defer(ufuncs.remainder),
    "__rmod__": _defer(ufuncs.remainder, reflected=True),
    "__pow__": _defer(ufuncs.power),
    "__rpow__": _defer(ufuncs.power, reflected=True),
    "__matmul__": _defer(products.matmul),
    "__rmatmul__": _defer(products.matmul, reflected=True),
    "__and__": _defer(ufuncs.bitwise_and),
    "__rand__": _defer(ufuncs.bitwise_and, reflected=True),
    "__or__": _defer(ufuncs.bitwise_or),
    "__ror__": _defer(ufuncs.bitwise_or, reflected=True),
    "__xor__": _defer(ufuncs.bitwise_xor),
    "__rxor__": _defer(ufuncs.bitwise_xor, reflected=True),
    "__lshift__": _defer(ufuncs.left_shift),
    "__rlshift__": _defer(ufuncs.left_shift, reflected=True),
    "__rshift__": _defer(ufuncs.right_shift),
    "__rrshift__": _defer(ufuncs.right_shift, reflected=True),
    "__lt__": _defer(ufuncs.less),
    "__le__": _defer(ufuncs.less_equal),
    "__gt__": _defer(ufuncs.greater),
    "__ge__": _defer(ufuncs.greater_equal),
    "__eq__": _defer(ufuncs.equal),
    "__ne__": _defer(ufuncs.not_equal),
    "__getitem__": indexing.getitem,
    # methods
    "astype": _astype,
    "reshape": _reshape,
    "transpose": _transpose,
    "T": property(lambda self: shape.transpose(self, None), doc="The transpose (axes reversed)."),
    "mT": property(_mT, doc="The matrix transpose (last two axes swapped; needs ndim >= 2)."),
    "ravel": _ravel,
    "flatten": _ravel,
    "squeeze": _squeeze,
    "swapaxes": _swapaxes,
    "sum": reductions.sum,
    "prod": reductions.prod,
    "max": reductions.max,
    "min": reductions.min,
    "mean": reductions.mean,
    "any": reductions.any,
    "all": reductions.all,
    "argmax": reductions.argmax,
    "argmin": reductions.argmin,
    "dot": products.dot,
    "conj": ufuncs.conjugate,
    "conjugate": ufuncs.conjugate,
    "real": property(ufuncs.real, doc="The real part."),
    "imag": property(ufuncs.imag, doc="The imaginary part."),
    "at": property(lambda self: indexing.IndexUpdateHelper(self), doc="Functional updates: ``x.at[i].set(v)``."),
    "std": reductions.std,
    "var": reductions.var,
    "ptp": reductions.ptp,
    "cumsum": reductions.cumsum,
    "cumprod": reductions.cumprod,
    "clip": _clip,
    "round": math.round,
    "sort": sorting.sort,
    "argsort": sorting.argsort,
    "argpartition": sorting.argpartition,
    "searchsorted": _searchsorted,
    "take": indexing_funcs.take,
    "repeat": manipulation.repeat,
    "nonzero": _nonzero,
    "choose": _choose,
    "compress": _compress,
    "diagonal": indexing_funcs.diagonal,
    "trace": indexing_funcs.trace,
    "view": _view,
    "byteswap": _byteswap,
    "tobytes": _tobytes,
    "flat": property(_flat, doc="Not supported (as in JAX): use ``flatten()``."),
    "__divmod__": _divmod,
    "__rdivmod__": _rdivmod,
    "__round__": _round_dunder,
    "__contains__": _contains,
    "__reversed__": _reversed,
    "copy": _copy,
    "__copy__": _self_copy,
    "__deepcopy__": _self_copy,
    "__array_namespace__": _array_namespace,
}
"""The methods, properties and operators every array and tracer has, by attribute name."""

_TRACER_ONLY: dict[str, Any] = {"block_until_ready": _block_until_ready}
_IMPL_ONLY: dict[str, Any] = {
    "device": property(_device, doc="The device holding the array (its sharding if on several)."),
    "committed": property(lambda self: bool(getattr(self, "_committed", True)), doc="Whether the array is committed to its device(s)."),
    "is_fully_addressable": property(
        lambda self: bool(self.sharding.is_fully_addressable), doc="Whether this process holds every shard."
    ),
    "to_device": _to_device,
    "addressable_data": _addressable_data,
    "addressable_shards": property(_addressable_shards, doc="The shards this process holds."),
    "global_shards": property(
        _global_shards, doc="The shards on every device; a shard of another process has ``data`` None."
    ),
    "device_buffer": _removed("device_buffer", "arr.addressable_data(0)"),
    "device_buffers": _removed("device_buffers", "[s.data for s in arr.addressable_shards]"),
    "__dlpack__": _dlpack,
    "__dlpack_device__": _dlpack_device,
}


def install() -> None:
    """Installs the table on ``ArrayImpl`` and ``Tracer`` (idempotent)."""
    for name, value in METHODS.items():
        setattr(ArrayImpl, name, value)
        setattr(Tracer, name, value)
    for name, value in _TRACER_ONLY.items():
        setattr(Tracer, name, value)
    for name, value in _IMPL_ONLY.items():
        setattr(ArrayImpl, name, value)


install()
