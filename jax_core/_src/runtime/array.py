"""``ArrayImpl``: the concrete device array, jaxlib's C++ array type with jax_core's surface.

jaxlib's C++ ``ArrayImpl`` is what the C++ jit fast path accepts and returns, so
jax_core uses that type itself and installs its Python surface on it (as JAX does),
and registers it as a virtual subclass of ``jax_core.Array``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Final, NoReturn, cast

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import config, dtypes
from jax_core._src.backend import client
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib import jax_ext
from jax_core._src.typing.basearray import Array

if TYPE_CHECKING:
    from jax_core._src.sharding.shardings import Device

# jaxlib's C++ class is untyped: its instances are ``Any`` to checkers, and the
# Python surface installed on it below is declared on ``jax_core.Array``.
ArrayImpl: type[Any] = jax_ext.ArrayImpl
"""The concrete device array type (jaxlib's C++ class with jax_core's methods)."""

Array.register(ArrayImpl)

_COPY: Final[object] = jax_ext.HostBufferSemantics.IMMUTABLE_UNTIL_TRANSFER_COMPLETES


def _is_ndarray(x: object) -> TypeIs[np.ndarray[Any, Any]]:
    return isinstance(x, np.ndarray)


def _is_scalar(x: object) -> TypeIs[bool | int | float | complex | np.generic[Any]]:
    return isinstance(x, (bool, int, float, complex, np.generic))


def _to_numpy_canonical(x: object) -> tuple[np.ndarray[Any, Any], bool]:
    """Converts a host value to a NumPy array of its canonical dtype, and its weak flag."""
    weak = dtypes.is_weakly_typed(x)
    if _is_ndarray(x):
        arr = x
    elif _is_scalar(x):
        arr = np.asarray(x, dtypes.dtype(x, canonicalize=True))
    else:
        raise TypeError(f"Value {x!r} with type {type(x)} is not a valid JAX type")
    # ml_dtypes' types (bfloat16, int4, float8_*) are kind "V" too, like float0: both are valid.
    kind = arr.dtype.kind
    if kind in "OUST" or (
        kind == "V" and arr.dtype not in dtypes.PROMOTABLE_DTYPES and arr.dtype != dtypes.float0
    ):
        raise TypeError(f"JAX only supports number and bool dtypes, got array with dtype {arr.dtype}")
    canonical = dtypes.canonicalize_dtype(arr.dtype)
    if arr.dtype != canonical:
        if arr.dtype.kind in "iu" and arr.size and not np.can_cast(arr.dtype, canonical):
            info = np.iinfo(canonical)
            if arr.min() < info.min or arr.max() > info.max:
                raise OverflowError(f"Python int too large to convert to {canonical}")
        arr = arr.astype(canonical)
    return arr, weak


def device_put_host(x: object, device: Device | None = None, *, committed: bool = False) -> Array:
    """Copies a host value (NumPy array or scalar) to a device; returns an ``ArrayImpl``."""
    arr, weak = _to_numpy_canonical(x)
    dev = client.default_device() if device is None else device
    aval = ShapedArray(arr.shape, arr.dtype, weak)
    out: Array = jax_ext.batched_device_put(
        aval,
        client.single_device_sharding(dev),
        [arr],
        [dev],
        committed,
        False,
        _COPY,
        config.enable_x64.value,
    )
    return out


CPP_SINGLE_DEVICE_SHARDING: Final[type[Any]] = jax_ext.SingleDeviceSharding
"""jaxlib's ``SingleDeviceSharding``: the sharding of an array on one device."""


def spans_devices(x: Any) -> bool:
    """Whether ``x`` (an ``ArrayImpl``) is laid out over several devices: several shards here, or
    shards on other processes' devices too (one shard here need not mean one device)."""
    return len(x._arrays) > 1 or (type(x._sharding) is not CPP_SINGLE_DEVICE_SHARDING and not x.is_fully_addressable)


def check_not_deleted(x: Any) -> None:
    """Raises JAX's ``RuntimeError`` when ``x`` (an ``ArrayImpl``) has been deleted or donated.

    Every entry point that hands an array's buffers to jaxlib (eager ops, ``jit`` calls,
    ``device_put``) or reads them (host copies, printing) checks first, so a deleted array never
    reaches an executable (jaxlib would fail there with an ``INVALID_ARGUMENT`` and C++ logs).
    """
    if x.is_deleted():
        aval = x.aval
        name = getattr(aval.dtype, "name", str(aval.dtype))
        raise RuntimeError(f"Array has been deleted with shape={name}[{','.join(map(str, aval.shape))}].")


def _value(self: Any) -> np.ndarray[Any, Any]:
    """The array's value on the host, assembled from all shards."""
    check_not_deleted(self)
    cached: np.ndarray[Any, Any] | None = self._npy_value
    if cached is not None:
        return cached
    shards: list[Any] = self._arrays
    if not _holds_whole_value(self):
        raise RuntimeError(
            "Fetching value for `jax.Array` that spans non-addressable (non process local) devices is not "
            "possible. You can use `jax.experimental.multihost_utils.process_allgather` to print the global "
            "array or use `.addressable_shards` method of jax.Array to inspect the addressable (process local) "
            "shards."
        )
    if len(shards) == 1 or self.is_fully_replicated:
        out = _buffer_view(shards[0], self.aval)
        if out is None:
            out, _ = shards[0]._single_device_array_to_np_array_did_copy()
            out = cast(np.ndarray[Any, Any], out)
    else:
        out = _assemble_shards(self)
    out.flags.writeable = False
    self._npy_value = out
    return out


def _whole_here(sharding: Any) -> bool:
    """Whether this process holds the array's whole value by its sharding alone: all of it, or a
    replica of it (JAX's test for printing values)."""
    return bool(sharding.is_fully_addressable or (sharding.is_fully_replicated and sharding.has_addressable_devices))


def _holds_whole_value(self: Any) -> bool:
    """Whether this process's shards hold every block of the array (always, on one process)."""
    if type(self._sharding) is CPP_SINGLE_DEVICE_SHARDING:  # the common case, without a conversion
        return True
    sharding = _sharding_property(self)
    if _whole_here(sharding):
        return True
    everywhere = sharding.devices_indices_map(self.shape).values()
    here = sharding.addressable_devices_indices_map(self.shape).values()

    def blocks(indices: Any) -> set[tuple[tuple[Any, Any, Any], ...]]:
        return {tuple((s.start, s.stop, s.step) for s in index) for index in indices}

    return blocks(everywhere) == blocks(here)


def _buffer_view(shard: Any, aval: Any) -> np.ndarray[Any, Any] | None:
    """The shard's value through the buffer protocol (a read-only view of the CPU buffer, once
    it is ready), or ``None`` where the protocol does not apply (another platform, a dtype NumPy's
    buffer formats cannot name). jaxlib's own conversion imports ``jax._src.sharding_impls`` on
    every call, which without JAX is a failed search of ``sys.path``: ~100 us per fresh array."""
    try:
        view = memoryview(shard)
    except (TypeError, BufferError, ValueError):
        return None
    out: np.ndarray[Any, Any] = np.asarray(view)
    if out.dtype != aval.dtype or out.shape != aval.shape:  # (a shard's own aval may be unset)
        return None
    return out


def _assemble_shards(self: Any) -> np.ndarray[Any, Any]:
    """Builds the global value from the addressable shards (jaxlib would return shard 0)."""
    from jax_core._src.sharding.shardings import devices_indices_map

    out: np.ndarray[Any, Any] = np.empty(self.shape, self.dtype)
    index_map = devices_indices_map(self._sharding, self.shape)
    written: set[tuple[tuple[int | None, int | None, int | None], ...]] = set()
    for shard in self._arrays:
        # jaxlib gives every shard a one-device sharding (``_device``); copies of
        # a replicated block are read once.
        index = index_map[shard._sharding._device]
        key = tuple((s.start, s.stop, s.step) for s in index)
        if key in written:
            continue
        written.add(key)
        data, _ = shard._single_device_array_to_np_array_did_copy()
        out[index] = data
    return out


def _sharding_property(self: Any) -> Any:
    """The array's jax_core ``Sharding`` (jaxlib's native C++ shardings are mapped)."""
    from jax_core._src.sharding.shardings import from_cpp_sharding

    return from_cpp_sharding(self._sharding)


def _is_fully_replicated(self: Any) -> bool:
    """Whether every device of the array holds the whole value."""
    return bool(_sharding_property(self).is_fully_replicated)


def _array(self: Any, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
    value = _value(self)
    if copy is False and dtype is not None and np.dtype(dtype) != value.dtype:
        raise ValueError("Unable to avoid copy while creating an array as requested.")
    out = value if dtype is None else value.astype(dtype, copy=False)
    return out.copy() if copy else out


def _printable(self: Any) -> bool:
    """Whether this process can show the values: it holds them all, and they are under 1 MiB (a
    bigger array, or one spread over other processes' devices, prints its shape, as in JAX)."""
    return _whole_here(_sharding_property(self)) and self.nbytes < 1 << 20


def _repr(self: Any) -> str:
    prefix = "Array("
    check_not_deleted(self)  # as JAX: printing a deleted array raises
    dtype_str = f"dtype={self.dtype.name}" + (", weak_type=True" if self.aval.weak_type else "")
    sharding = _sharding_property(self)
    if not (sharding.is_fully_addressable or sharding.is_fully_replicated):
        return f"{prefix}shape={self.shape}, {dtype_str})"
    line_width = int(np.get_printoptions()["linewidth"])
    if self.size == 0:
        s = f"[], shape={self.shape}"
    elif not _printable(self):
        s = f"shape={self.shape}"
    else:
        s = np.array2string(_value(self), prefix=prefix, suffix=",", separator=", ", max_line_width=line_width)
    last_line_len = len(s) - s.rfind("\n") + 1
    sep = " "
    if last_line_len + len(dtype_str) + 2 > line_width:
        sep = " " * len(prefix)
    return f"{prefix}{s},{sep}{dtype_str})"


def _check_scalar(self: Any, what: str) -> None:
    if self.size != 1:
        raise TypeError(f"only length-1 arrays can be converted to Python scalars ({what})")


def _bool(self: Any) -> bool:
    if self.size != 1:
        raise ValueError(
            "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
        )
    return bool(_value(self))


def _int(self: Any) -> int:
    _check_scalar(self, "int")
    return int(_value(self).reshape(()))


def _float(self: Any) -> float:
    _check_scalar(self, "float")
    return float(_value(self).reshape(()))


def _complex(self: Any) -> complex:
    _check_scalar(self, "complex")
    return complex(_value(self).reshape(()))


def _index(self: Any) -> int:
    if self.shape != () or not (np.issubdtype(self.dtype, np.integer) or self.dtype == np.bool_):
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return int(_value(self))


def _item(self: Any, *args: int) -> Any:
    return _value(self).item(*args)


def _tolist(self: Any) -> Any:
    return _value(self).tolist()


def _iter(self: Any) -> Iterator[Any]:
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _setitem(self: Any, key: Any, value: Any) -> NoReturn:
    raise TypeError(
        "JAX arrays are immutable and do not support in-place item assignment. Instead of "
        "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method: "
        "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html"
    )


def _reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
    return (_rebuild, (np.asarray(_value(self)), self.aval.weak_type))


def _rebuild(value: np.ndarray[Any, Any], weak_type: bool) -> Any:
    arr: Any = device_put_host(value)
    if weak_type:
        arr = arr._rewrap_with_aval_and_sharding(arr.aval.update(weak_type=True), arr._sharding)
    return arr


def _devices(self: Any) -> set[Device]:
    """The set of devices holding (part of) the array."""
    check_not_deleted(self)
    return set(_sharding_property(self).device_set)


def _format(self: Any, spec: str) -> str:
    if not _whole_here(_sharding_property(self)):
        return _repr(self)
    if self.ndim == 0:
        return format(_value(self)[()], spec)
    return format(_value(self), spec)


def _str(self: Any) -> str:
    return str(_value(self)) if _printable(self) else _repr(self)


def _format_property(self: Any) -> Any:
    from jax_core._src.runtime.relayout import format_of

    return format_of(self)


def _copy_to_host_async(self: Any) -> None:
    self._copy_single_device_array_to_host_async()


_SURFACE: dict[str, Any] = {
    "shape": property(lambda self: self.aval.shape, doc="The array's shape."),
    "dtype": property(lambda self: self.aval.dtype, doc="The array's element type."),
    "weak_type": property(lambda self: self.aval.weak_type, doc="Whether the dtype is weak."),
    "ndim": property(lambda self: len(self.aval.shape), doc="The number of dimensions."),
    "size": property(lambda self: self.aval.size, doc="The number of elements."),
    "itemsize": property(lambda self: self.aval.dtype.itemsize, doc="Bytes per element."),
    "nbytes": property(lambda self: self.aval.size * self.aval.dtype.itemsize, doc="Total bytes."),
    "sharding": property(_sharding_property, doc="How the array is laid out on devices."),
    "is_fully_replicated": property(_is_fully_replicated, doc="Whether every device holds the whole array."),
    "format": property(_format_property, doc="The array's device-local layout and sharding."),
    "devices": _devices,
    "_value": property(_value),
    "__array__": _array,
    "__repr__": _repr,
    "__str__": _str,
    "__format__": _format,
    "__bool__": _bool,
    "__int__": _int,
    "__float__": _float,
    "__complex__": _complex,
    "__index__": _index,
    "__len__": Array.__len__,
    "__iter__": _iter,
    "__setitem__": _setitem,
    "__reduce__": _reduce,
    "__hash__": None,
    "__array_priority__": 100,
    "item": _item,
    "tolist": _tolist,
    "copy_to_host_async": _copy_to_host_async,
}

for _name, _attr in _SURFACE.items():
    setattr(ArrayImpl, _name, _attr)
