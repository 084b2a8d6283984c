"""Building one global array from per-device pieces (``jax.make_array_from_callback``, ...).

:func:`make_array_from_callback` asks a callback for the block of the global array
each device holds (once, for a replicated sharding) and places each block on its
device; :func:`make_array_from_single_device_arrays` takes the per-device arrays
ready-made. Either way the pieces are checked as JAX checks them (count,
devices, dtype, shape: JAX's ``ValueError`` messages), put in the order of the
sharding's devices, and joined by jaxlib into a committed global array whose
``sharding`` is the sharding given.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Final, TypeAlias, cast

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src import lib as _lib
from jax_core._src.backend import client
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.errors import UnexpectedTracerError
from jax_core._src.core.trace import Tracer
from jax_core._src.runtime.array import (
    ArrayImpl,
    _to_numpy_canonical,  # pyright: ignore[reportPrivateUsage]
    check_not_deleted,
)
from jax_core._src.runtime.transfer import device_put
from jax_core._src.sharding.jaxlib_types import CppSharding, Device, Index
from jax_core._src.sharding.shardings import Sharding, from_cpp_sharding
from jax_core._src.typing import ArrayLike, DTypeLike
from jax_core._src.typing.basearray import Array

__all__ = ["make_array_from_callback", "make_array_from_single_device_arrays"]

_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)
_COPY: Final[Any] = _jax.HostBufferSemantics.IMMUTABLE_UNTIL_TRANSFER_COMPLETES

_Piece: TypeAlias = Any
"""A block of the global array: a canonical-dtype NumPy array or a device array (``ArrayImpl``)."""


def _check_sharding(sharding: object) -> Sharding:
    if not isinstance(sharding, CppSharding):
        raise TypeError(
            f"sharding should be an instance of `jax.sharding`. Got {sharding} of type "
            f"{type(sharding)}"
        )
    return from_cpp_sharding(sharding)


def _aval_text(shape: tuple[int, ...], dtype: np.dtype[Any]) -> str:
    return f"{dtype.name}[{','.join(map(str, shape))}]"


def _dtype_of(pieces: Sequence[Any], dtype: DTypeLike | None, fname: str) -> np.dtype[Any]:
    """The global array's dtype: ``dtype`` if given (it must match the pieces'), else theirs."""
    if dtype is None:
        if not pieces:
            raise ValueError(
                "If the Array has no addressable shards, `dtype` must be provided via the "
                f"`dtype` argument to `jax.{fname}`."
            )
        found: np.dtype[Any] = pieces[0].dtype
        return found
    wanted = dtypes.check_and_canonicalize_user_dtype(dtype, fname)
    if dtypes.is_extended_dtype(wanted):
        raise NotImplementedError(f"jax_core: jax.{fname} of extended dtypes (PRNG keys)")
    if pieces and pieces[0].dtype != wanted:
        raise ValueError(
            f"If `dtype` is provided to `jax.{fname}`, it must match the dtype of the "
            f"addressable shards. Got dtype={wanted} and shard dtype={pieces[0].dtype}`."
        )
    return wanted


def _check_pieces(
    pieces: Sequence[Any], sharding: Sharding, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> None:
    """JAX's checks that every piece has the global dtype and the shard shape."""
    expected = sharding.shard_shape(shape)
    for piece in pieces:
        if piece.dtype != dtype:
            raise ValueError(
                "Input buffers to `Array` must have matching dtypes. "
                f"Got {piece.dtype}, expected {dtype} for buffer: {piece}"
            )
        if tuple(piece.shape) != expected:
            raise ValueError(
                f"Expected shard shape {expected} doesn't match the single device array shape "
                f"{tuple(piece.shape)}. Shape of Array is {_aval_text(shape, dtype)} with "
                f"sharding {sharding}"
            )


def _on_device(piece: _Piece, device: Device) -> Any:
    """``piece`` as a committed single-device array on ``device``."""
    if type(piece) is not ArrayImpl:  # a NumPy array
        host: np.ndarray[Any, Any] = np.asarray(piece)
        aval = ShapedArray(host.shape, host.dtype, False)
        return _jax.batched_device_put(
            aval,
            client.single_device_sharding(device),
            [host],
            [device],
            True,
            False,
            _COPY,
            config.enable_x64.value,
        )
    return device_put(piece, device)


def _assemble(
    shape: tuple[int, ...], dtype: np.dtype[Any], sharding: Sharding, singles: list[Any]
) -> Array:
    """The committed global array made of ``singles`` (in the sharding's device order)."""
    aval = ShapedArray(shape, dtype, False)
    out: Array = ArrayImpl(aval, sharding, singles, True, True)
    return out


def _callback_piece(value: Any) -> _Piece:
    """A callback's result as a piece: a device array, or a canonical NumPy array."""
    if isinstance(value, Tracer):
        raise UnexpectedTracerError(
            "jax.make_array_from_callback cannot be called within a traced context."
        )
    if type(value) is ArrayImpl:
        check_not_deleted(value)
        return value
    jax_array = getattr(value, "__jax_array__", None)
    if jax_array is not None:
        return _callback_piece(jax_array())
    if not isinstance(value, (np.ndarray, np.generic, bool, int, float, complex)):
        raise TypeError(f"Argument '{value}' of type {type(value)} is not a valid JAX type.")
    array, _ = _to_numpy_canonical(cast(object, value))
    return array


def make_array_from_callback(
    shape: Sequence[int],
    sharding: Sharding,
    data_callback: Callable[[Index], ArrayLike],
    dtype: DTypeLike | None = None,
) -> Array:
    """A global array whose per-device blocks come from ``data_callback`` (``jax.make_array_from_callback``).

    Args:
      shape: the global array's shape.
      sharding: how it is laid out across devices.
      data_callback: called with the index (a tuple of slices) of each device's block
        of the global array, returns that block as an array-like (a NumPy array, a
        scalar, or a ``jax_core.Array``). For a fully replicated sharding it is
        called once, with the whole-array index.
      dtype: the array's dtype; by default the dtype of the first block (required
        when this process holds no block). Blocks are canonicalized (64-bit types
        become 32-bit unless x64 is enabled).

    Returns:
      A committed ``jax_core.Array`` with ``sharding`` as its sharding.

    Raises:
      TypeError: ``sharding`` is not a sharding, or a block is not an array-like.
      ValueError: a block's dtype or shape is not the expected one (JAX's messages),
        or the sharding does not suit the shape.
      UnexpectedTracerError: a block is a traced value.
    """
    s = _check_sharding(sharding)
    global_shape = tuple(operator.index(d) for d in shape)
    devices = list(s._addressable_device_assignment)  # pyright: ignore[reportPrivateUsage]
    if s.is_fully_replicated:
        whole = _callback_piece(data_callback((slice(None),) * len(global_shape)))
        pieces: list[_Piece] = [whole] * len(devices)
    else:
        index_map = s.addressable_devices_indices_map(global_shape)
        pieces = [_callback_piece(data_callback(index_map[d])) for d in devices]
    out_dtype = _dtype_of(pieces, dtype, "make_array_from_callback")
    _check_pieces(pieces, s, global_shape, out_dtype)
    singles = [_on_device(p, d) for p, d in zip(pieces, devices, strict=True)]
    return _assemble(global_shape, out_dtype, s, singles)


def _device_of(array: Any) -> Device:
    devices = from_cpp_sharding(array._sharding)._internal_device_list  # pyright: ignore[reportPrivateUsage]
    if len(devices) != 1:
        raise ValueError(
            "When making an array from single-device arrays the input arrays must have one "
            f"shard each. An argument array had {len(devices)} shard(s)."
        )
    return devices[0]


def _arrange(arrays: Sequence[Any], sharding: Sharding) -> list[Any]:
    """``arrays`` in the order of the sharding's devices, after JAX's checks on their devices."""
    by_id = {_device_of(a).id: a for a in arrays}
    addressable = sharding.addressable_devices
    if len(arrays) != len(addressable):
        raise ValueError(
            f"Expected {len(addressable)} per-device arrays (this is how many devices are "
            f"addressable by the sharding), but got {len(arrays)}"
        )
    if len(by_id) != len(arrays):
        ids = [_device_of(a).id for a in arrays]
        raise ValueError(
            "When making an array from single-device arrays, the input arrays must be from "
            f"distinct devices, but got device IDs {ids}"
        )
    wanted = {d.id for d in addressable}
    missing, extra = wanted - set(by_id), set(by_id) - wanted
    if missing or extra:
        message = "Addressable devices and per-device arrays devices do not match."
        if missing:
            message += (
                f" Sharding contains devices {missing} that are not present in per-device arrays."
            )
        if extra:
            message += (
                f" Per-device arrays contain devices {extra} that are not present in the sharding."
            )
        raise ValueError(message)
    order = sharding._addressable_device_assignment  # pyright: ignore[reportPrivateUsage]
    return [by_id[d.id] for d in order]


def make_array_from_single_device_arrays(
    shape: Sequence[int],
    sharding: Sharding,
    arrays: Sequence[Array],
    *,
    dtype: DTypeLike | None = None,
) -> Array:
    """A global array made of ready single-device arrays (``jax.make_array_from_single_device_arrays``).

    Args:
      shape: the global array's shape.
      sharding: how it is laid out across devices.
      arrays: a list or tuple with one ``jax_core.Array`` per addressable device of
        ``sharding``, each on its own device and holding that device's block (any
        order: they are matched to devices by the device they are on).
      dtype: the array's dtype; by default that of ``arrays[0]`` (required when
        ``arrays`` is empty).

    Returns:
      A committed ``jax_core.Array`` with ``sharding`` as its sharding, sharing the
      arrays' buffers.

    Raises:
      TypeError: ``arrays`` is not a list or tuple, or holds non-arrays.
      ValueError: wrong number of arrays, arrays on the same device or on devices
        outside the sharding, arrays spanning several devices, or a wrong dtype or
        shard shape (JAX's messages).
    """
    fname = "make_array_from_single_device_arrays"
    if not isinstance(arrays, (list, tuple)):
        raise TypeError(
            f"jax.{fname} `arrays` argument must be a list or tuple, but got {type(arrays)}."
        )
    s = _check_sharding(sharding)
    global_shape = tuple(operator.index(d) for d in shape)
    out_dtype = _dtype_of(arrays, dtype, fname)
    if dtypes.is_extended_dtype(out_dtype):
        raise NotImplementedError(f"jax_core: jax.{fname} of extended dtypes (PRNG keys)")
    strays = [a for a in arrays if type(a) is not ArrayImpl]
    if strays:
        if any(isinstance(a, Tracer) for a in arrays):
            raise ValueError(
                f"jax.{fname} requires a list of concrete arrays as input, but got types "
                f"{set(map(type, arrays))}"
            )
        raise TypeError(f"Unsupported type for elements in `arrays`: {type(strays[0])}")
    for a in arrays:
        check_not_deleted(a)
    ordered = _arrange(arrays, s)
    _check_pieces(ordered, s, global_shape, out_dtype)
    return _assemble(global_shape, out_dtype, s, ordered)
