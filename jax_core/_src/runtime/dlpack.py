"""DLPack: sharing array memory with other libraries (NumPy, PyTorch, CuPy, ...).

``from_dlpack(x)`` takes any object with ``__dlpack__``/``__dlpack_device__``
(the Python array API exchange protocol) and wraps its buffer as an ``ArrayImpl``
without copying when it can (the buffer must be 64-byte aligned and compactly
strided; a misaligned buffer is copied unless ``copy=False``). ``to_dlpack``
exports an array's device buffer as a DLPack capsule; it is what ``Array.__dlpack__``
returns, so ``np.from_dlpack(jax_array)`` reads the device buffer in place.

As in JAX, the result's dtype is canonicalized (a float64 producer gives float32
unless x64 is enabled) and a zero-copy result shares memory with the producer, who
must not mutate it while jax_core uses it.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

import numpy as np

from jax_core._src import dtypes
from jax_core._src.backend import client
from jax_core._src.core.avals import ShapedArray
from jax_core._src.lib import jax_ext
from jax_core._src.runtime.array import ArrayImpl, check_not_deleted
from jax_core._src.runtime.transfer import device_put
from jax_core._src.typing import DTypeLike
from jax_core._src.typing.basearray import Array

if TYPE_CHECKING:
    from jax_core._src.sharding.shardings import Device, Sharding


class DLDeviceType(enum.IntEnum):
    """DLPack's device type codes (``DLDeviceType`` in ``dlpack.h``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLROCM = 10
    kDLROCMHost = 11
    kDLTPUHost = 20
    kDLOneAPI = 14


class SupportsDLPack(Protocol):
    """An object that exports its memory through DLPack (``__dlpack__`` and ``__dlpack_device__``)."""

    def __dlpack__(self, *, stream: Any = None) -> Any: ...

    def __dlpack_device__(self) -> tuple[int, int]: ...


DLPACK_VERSION: Final[tuple[int, int]] = (
    int(jax_ext.dlpack_version[0]),
    int(jax_ext.dlpack_version[1]),
)
"""The newest DLPack version jaxlib speaks, e.g. ``(1, 3)``."""

MIN_DLPACK_VERSION: Final[tuple[int, int]] = (0, 5)
"""The oldest DLPack version a consumer may ask ``__dlpack__`` for."""

SUPPORTED_DTYPES_SET: Final[frozenset[np.dtype[Any]]] = frozenset(
    np.dtype(t)
    for t in (
        np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
        np.float16, dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128, np.bool_,
    )
)  # fmt: skip
"""The dtypes DLPack exchanges (no 4-bit integers, no 8-bit floats)."""

_PLATFORMS: Final[dict[int, str]] = {
    DLDeviceType.kDLCPU: "cpu",
    DLDeviceType.kDLCUDA: "cuda",
    DLDeviceType.kDLCUDAHost: "cuda",
    DLDeviceType.kDLROCM: "rocm",
    DLDeviceType.kDLROCMHost: "rocm",
    DLDeviceType.kDLTPUHost: "tpu",
    DLDeviceType.kDLOneAPI: "oneapi",
}
_HOST_PINNED: Final[frozenset[int]] = frozenset(
    {DLDeviceType.kDLCUDAHost, DLDeviceType.kDLROCMHost, DLDeviceType.kDLTPUHost}
)


def is_supported_dtype(dtype: DTypeLike) -> bool:
    """Whether arrays of ``dtype`` can be exchanged through DLPack."""
    if dtype is None:  # pyright: ignore[reportUnnecessaryComparison]
        # np.dtype(None) is float64: refuse rather than answer for a dtype nobody named
        raise TypeError(f"Expected a string or dtype-like object; got {dtype=}")
    return np.dtype(dtype) in SUPPORTED_DTYPES_SET


def _local_device(dl_device_type: int, device_id: int) -> Device:
    platform = _PLATFORMS[dl_device_type]
    backend = cast(Any, client.backend())
    if backend.platform != platform:
        raise TypeError(
            f"Array passed to from_dlpack is on a {platform} device, but jax_core runs on "
            f"{backend.platform} only; move it to the host first (e.g. tensor.cpu())."
        )
    return cast("Device", backend.device_from_local_hardware_id(device_id))


def _check_device(device: Device | None, dlpack_device: Device, copy: bool | None) -> None:
    if device is not None and dlpack_device != device and copy is not None and not copy:
        raise ValueError(
            f"Specified {device=} which requires a copy since the source device is "
            f"{dlpack_device!r}, however copy=False. Set copy=True or copy=None to perform "
            "the requested operation."
        )


def _is_tensorflow_tensor(x: object) -> bool:
    t = type(x)
    return t.__qualname__ == "EagerTensor" and t.__module__.endswith(
        "tensorflow.python.framework.ops"
    )


def _wrap(raw: Any, device: Device) -> Array:
    """An ``ArrayImpl`` over the single buffer jaxlib imported (which comes without an aval)."""
    try:
        view = np.asarray(memoryview(raw))
    except (TypeError, BufferError, ValueError):
        view, _ = raw._single_device_array_to_np_array_did_copy()
    aval = ShapedArray(view.shape, view.dtype, False)
    out: Array = ArrayImpl(aval, client.single_device_sharding(device), raw._arrays, True, True)
    canonical = dtypes.canonicalize_dtype(view.dtype)
    if canonical != view.dtype:
        # x64 off: the value is converted (and so copied), as JAX converts with jnp.asarray
        with np.errstate(all="ignore"):
            host = np.asarray(view).astype(canonical)
        out = device_put(host, device)
    return out


def from_dlpack(
    external_array: SupportsDLPack,
    device: Device | Sharding | None = None,
    copy: bool | None = None,
) -> Array:
    """An ``Array`` over the memory of ``external_array`` (anything with ``__dlpack__``).

    Args:
      external_array: an object with ``__dlpack__`` and ``__dlpack_device__`` methods, e.g.
        a NumPy array or a PyTorch tensor.
      device: the device (or one-device sharding) to place the result on; the result is then
        committed to it. By default it stays on the device the data is on.
      copy: ``True`` always copies; ``False`` never does and raises ``ValueError`` when a copy
        is needed (another device, a misaligned buffer); ``None`` copies only when needed.

    Returns:
      The array; without a copy it shares memory with ``external_array``.
    """
    target: Device | None
    if device is not None and hasattr(device, "device_set"):
        device_set = cast("Sharding", device).device_set
        if len(device_set) > 1:
            raise ValueError(
                "from_dlpack can only unpack a dlpack tensor onto a singular device, but a "
                f"Sharding with {len(device_set)} devices was provided."
            )
        (target,) = device_set
    else:
        target = device  # pyright: ignore[reportAssignmentType]
    if not hasattr(external_array, "__dlpack__") or not hasattr(
        external_array, "__dlpack_device__"
    ):
        raise TypeError(
            "The array passed to from_dlpack must have __dlpack__ and __dlpack_device__ methods."
        )
    dl_device_type, device_id = external_array.__dlpack_device__()
    if int(dl_device_type) not in _PLATFORMS:
        raise TypeError(
            "Array passed to from_dlpack is on unsupported device type "
            f"(DLDeviceType: {dl_device_type}, array: {external_array}"
        )
    dlpack_device = _local_device(int(dl_device_type), int(device_id))
    _check_device(target, dlpack_device, copy)
    stream: Any = None
    if not _is_tensorflow_tensor(external_array) and int(dl_device_type) not in _HOST_PINNED:
        try:
            stream = cast(Any, dlpack_device).get_stream_for_external_ready_events()
        except jax_ext.JaxRuntimeError as err:
            if "UNIMPLEMENTED" not in str(err):
                raise
    producer = cast(Any, external_array)
    try:
        capsule = producer.__dlpack__(stream=stream, max_version=DLPACK_VERSION)
    except TypeError:  # a producer older than DLPack 1.0 takes no max_version
        capsule = producer.__dlpack__(stream=stream)
    try:
        raw = jax_ext.dlpack_managed_tensor_to_buffer(
            capsule, dlpack_device, stream, copy, int(dl_device_type)
        )
    except jax_ext.JaxRuntimeError as err:
        message = str(err)
        if "is not aligned to" not in message:
            raise
        reason = message[message.index("is not aligned to") :]
        raise ValueError(
            f"Specified input which requires a copy since the source data buffer {reason} "
            "However copy=False. Set copy=True or copy=None to perform the requested operation."
        ) from None
    arr = _wrap(raw, dlpack_device)
    if target is not None and dlpack_device != target:
        return device_put(arr, target)
    return arr


def to_dlpack(
    x: Array,
    stream: int | Any | None = None,
    src_device: Device | None = None,
    dl_device: tuple[DLDeviceType, int] | None = None,
    max_version: tuple[int, int] | None = None,
    copy: bool | None = None,
) -> Any:
    """A DLPack capsule over the device buffer of ``x`` (what ``x.__dlpack__()`` returns).

    ``dl_device`` asks for the data on another device (a copy), ``copy=True`` always copies
    and ``copy=False`` raises ``ValueError`` when a copy is needed; ``max_version`` is the
    newest DLPack version the consumer reads (below 0.5 is a ``BufferError``).
    """
    if not isinstance(x, ArrayImpl):
        raise TypeError(f"Argument to to_dlpack must be a jax.Array, got {type(x)}")
    check_not_deleted(x)
    impl = cast(Any, x)
    devices = impl.sharding.device_set
    if len(devices) > 1:
        raise BufferError(
            "to_dlpack can only pack a dlpack tensor from an array on a singular device, but "
            f"an array with a Sharding over {len(devices)} devices was provided."
        )
    if src_device is None:
        (src_device,) = devices
    device: Device | None = None
    if dl_device is not None and dl_device[0]:
        if int(dl_device[0]) not in _PLATFORMS:
            raise BufferError(
                "The device specification passed to to_dlpack contains an unsupported device "
                f"type (DLDeviceType: {dl_device[0]})"
            )
        device = _local_device(int(dl_device[0]), int(dl_device[1]))
    if max_version is not None and tuple(max_version) < MIN_DLPACK_VERSION:
        raise BufferError(
            f"JAX does not support any version below {MIN_DLPACK_VERSION} but version "
            f"({max_version}) was requested."
        )
    copied = False
    arr: Any = x
    if device is not None and device != src_device:
        if copy is not None and not copy:
            raise ValueError(
                f"Specified {device=} which requires a copy since the source device is "
                f"{src_device!r}, however copy=False. Set copy=True or copy=None to perform "
                "the requested operation."
            )
        arr = device_put(x, device)
        copied = True
    elif copy:
        arr = device_put(np.array(np.asarray(x)), src_device)
        copied = True
    return jax_ext.buffer_to_dlpack_managed_tensor(
        arr.addressable_data(0), stream=stream, max_version=max_version, copied=copied
    )


def dlpack_device(x: Array) -> tuple[DLDeviceType, int]:
    """``x.__dlpack_device__()``: DLPack's ``(device type, device id)`` of ``x``'s buffer."""
    impl = cast(Any, x)
    if len(impl._arrays) != 1:
        raise BufferError("__dlpack__ only supported for unsharded arrays.")
    platform = next(iter(impl.sharding.device_set)).platform
    if platform == "cpu":
        return DLDeviceType.kDLCPU, 0
    raise BufferError(f"__dlpack__ device only supported for CPU and GPU, got platform {platform}")


def __dlpack__(
    self: Array,
    *,
    stream: int | Any | None = None,
    max_version: tuple[int, int] | None = None,
    dl_device: tuple[DLDeviceType, int] | None = None,
    copy: bool | None = None,
) -> Any:
    """``Array.__dlpack__``: the array's buffer as a DLPack capsule (see :func:`to_dlpack`)."""
    return to_dlpack(self, stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)
