"""Moving values between the host and devices: ``device_put``, ``device_get``.

``device_put`` places host values (NumPy arrays, scalars) and existing device
arrays on a device or according to a :class:`~jax_core.sharding.Sharding`; for a
multi-device sharding the host value is cut into per-device shards with
``devices_indices_map`` and jaxlib assembles one global array from them. The
array stores the very sharding object passed in, so ``device_put(x, s).sharding
is s``.

Re-sharding an existing array copies its shards device-to-device when the old
and new shardings cut the array the same way (same ``HloSharding``, any
devices); otherwise the value takes a round trip through the host (correct
everywhere, and cheap on the CPU backend).

``ensure_single_device`` is the rule eager dispatch uses for arrays that span
several devices: gather them onto one device before running a one-device
computation.
"""

from __future__ import annotations

import contextlib
from types import ModuleType
from collections.abc import Callable, Sequence
from typing import Any, Final, NamedTuple, cast, overload

import numpy as np

from jax_core._src import config, dtypes
from jax_core._src import lib as _lib
from jax_core._src.backend import client
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.tokens import Token
from jax_core._src.layout.formats import AutoLayoutSingleton, Format, describe_aval
from jax_core._src.runtime import relayout
from jax_core._src.runtime.array import (
    CPP_SINGLE_DEVICE_SHARDING,
    ArrayImpl,
    _to_numpy_canonical,  # pyright: ignore[reportPrivateUsage]
    check_not_deleted,
    device_put_host,
)
from jax_core._src.sharding.shardings import (
    Device,
    Sharding,
    SingleDeviceSharding,
    from_cpp_sharding,
)
from jax_core._src.tree.tree_util import broadcast_prefix, tree_flatten, tree_unflatten
from jax_core._src.typing import ArrayLike
from jax_core._src.typing.basearray import Array

__all__ = ["device_get", "device_put", "ensure_single_device", "placement"]

_jax: ModuleType = getattr(_lib, "_jax")  # noqa: B009  (typed as ModuleType on purpose)
_COPY: Final[Any] = _jax.HostBufferSemantics.IMMUTABLE_UNTIL_TRANSFER_COMPLETES

DeviceOrSharding = Device | Sharding | Format[Any]
"""Where ``device_put`` places a value: a device or a sharding."""


def _is_target(x: object) -> bool:
    return x is None or isinstance(x, (Sharding, _jax.Device, Format))


def _index_key(index: tuple[slice, ...]) -> tuple[tuple[int | None, int | None, int | None], ...]:
    return tuple((s.start, s.stop, s.step) for s in index)


def _put_host(value: np.ndarray[Any, Any], weak: bool, sharding: Any, committed: bool) -> Any:
    """Copies a canonical-dtype host array to the devices of ``sharding`` (jax_core or C++)."""
    s = from_cpp_sharding(sharding)
    aval = ShapedArray(value.shape, value.dtype, weak)
    x64 = config.enable_x64.value
    if s.num_devices == 1:
        devices = list(s._device_assignment)  # pyright: ignore[reportPrivateUsage]
        return _jax.batched_device_put(
            aval, sharding, [value], devices, committed, False, _COPY, x64
        )
    index_map = s.devices_indices_map(tuple(value.shape))  # validates rank and divisibility
    devices = list(s._addressable_device_assignment)  # pyright: ignore[reportPrivateUsage]
    if s.is_fully_replicated:
        shards = [value] * len(devices)
        return _jax.batched_device_put(
            aval, sharding, shards, devices, committed, False, _COPY, x64
        )
    indices = [index_map[d] for d in devices]
    shards = [value[i] for i in indices]
    if len({_index_key(i) for i in indices}) == len(indices):
        return _jax.batched_device_put(
            aval, sharding, shards, devices, committed, False, _COPY, x64
        )
    # Partially replicated (some blocks on several devices): jaxlib 0.12's
    # batched_device_put fails on these ("bad_function_call"), so each block is put
    # on its device and the global array is assembled from the single-device arrays.
    shard_aval = ShapedArray(shards[0].shape, value.dtype, weak)
    singles = [
        _jax.batched_device_put(
            shard_aval, client.single_device_sharding(d), [v], [d], committed, False, _COPY, x64
        )
        for v, d in zip(shards, devices, strict=True)
    ]
    return ArrayImpl(aval, sharding, singles, committed, True)


def _sharding_of(x: Any) -> Sharding:
    return from_cpp_sharding(x._sharding)


def _reshard(x: Any, target: Any, *, donate: bool, may_alias: bool | None) -> Any:
    """``x`` (an ``ArrayImpl``) laid out as ``target`` (a jax_core or C++ sharding), committed."""
    src = _sharding_of(x)
    dst = from_cpp_sharding(target)
    if src == dst and may_alias is not False:
        if x._committed:
            return x
        # Same buffers, now committed to their devices.
        return ArrayImpl(x.aval, target, x._arrays, True, True)
    ndim = len(x.shape)
    if (
        src.num_devices == dst.num_devices
        and src.memory_kind == dst.memory_kind
        and _same_layout(src, dst, ndim)
    ):
        semantics = (
            _jax.ArrayCopySemantics.DONATE_INPUT
            if donate
            else _jax.ArrayCopySemantics.ALWAYS_COPY
            if may_alias is False
            else _jax.ArrayCopySemantics.REUSE_INPUT
        )
        device_list = dst._internal_device_list  # pyright: ignore[reportPrivateUsage]
        (out,) = _jax.batched_copy_array_to_devices_with_sharding(
            [x], [device_list], [target], [semantics]
        )
        if not out._committed:
            out = ArrayImpl(out.aval, target, out._arrays, True, True)
        return out
    value = np.asarray(x)
    out = _put_host(value, bool(x.aval.weak_type), target, committed=True)
    if donate:
        x.delete()
    return out


def _same_layout(src: Sharding, dst: Sharding, ndim: int) -> bool:
    """Whether device position ``i`` holds the same slice under both shardings."""
    a = src._to_xla_hlo_sharding(ndim)  # pyright: ignore[reportPrivateUsage]
    b = dst._to_xla_hlo_sharding(ndim)  # pyright: ignore[reportPrivateUsage]
    replicated = (src.num_devices == 1 or a.is_replicated()) and (
        dst.num_devices == 1 or b.is_replicated()
    )
    return replicated or bool(a == b)


_traced_put: list[Callable[[Any, Any, bool, bool | None], Any]] = []


def register_traced_put(put: Callable[[Any, Any, bool, bool | None], Any]) -> None:
    """lax registers how a traced value is placed (a ``device_put`` equation)."""
    _traced_put[:] = [put]


class _Described(NamedTuple):
    shape: tuple[int, ...]
    dtype: Any


def _put_formatted(x: Any, target: Format, donate: bool, may_alias: bool | None) -> Any:
    """``device_put`` to a ``Format``: placed as its sharding, then relaid out (a compiled
    identity) into its layout."""
    layout = target.layout
    if isinstance(layout, AutoLayoutSingleton):
        raise ValueError(
            "sharding and layout in `Layout` instance should be concrete. Got layout: "
            f"{target} for input {describe_aval(_Described(tuple(np.shape(x)), np.result_type(x)))}"
        )
    if isinstance(x, Array) and type(x) is not ArrayImpl:
        # Traced: a device_put equation naming the Format, as in JAX (whose lowering leaves the
        # layout to the jit's results; ``with_layout_constraint`` fixes one inside).
        return _traced_put[0](x, target, donate, may_alias)
    placed = _put_leaf(x, target.sharding, donate, may_alias)
    if layout is None:
        return placed
    return relayout.relayout(placed, layout)


def _put_leaf(x: Any, target: Any, donate: bool, may_alias: bool | None) -> Any:
    if isinstance(target, Format):
        return _put_formatted(x, cast("Format[Any]", target), donate, may_alias)  # type: ignore[redundant-cast]
    if not _is_target(target):
        raise ValueError(
            "`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, `jax.Device`, `Format` or a pytree "
            f"of these values. Received invalid value: {target}"
        )
    if isinstance(target, _jax.Device):
        target = client.single_device_sharding(target)
    if type(x) is ArrayImpl:
        check_not_deleted(x)
        if target is None:
            if may_alias is False:
                return _reshard(x, x._sharding, donate=donate, may_alias=False)
            return x
        return _reshard(x, target, donate=donate, may_alias=may_alias)
    if isinstance(x, Array):  # a tracer: a device_put equation (lax registers how it is bound)
        if target is None:
            return x
        return _traced_put[0](x, target, donate, may_alias)
    jax_array = getattr(x, "__jax_array__", None)
    if jax_array is not None:
        return _put_leaf(jax_array(), target, donate, may_alias)
    value, weak = _to_numpy_canonical(x)
    if target is None:
        return _put_host(value, weak, client.single_device_sharding(client.default_device()), False)
    return _put_host(value, weak, target, committed=True)


@overload
def device_put(
    x: ArrayLike,
    device: DeviceOrSharding | None = None,
    *,
    donate: bool = False,
    may_alias: bool | None = None,
) -> Array: ...


@overload
def device_put(
    x: Any,
    device: Any = None,
    *,
    donate: bool = False,
    may_alias: bool | None = None,
) -> Any: ...


def device_put(
    x: Any,
    device: Any = None,
    *,
    donate: bool = False,
    may_alias: bool | None = None,
) -> Any:
    """Places ``x`` (an array-like, or a pytree of them) on a device or sharding.

    Args:
      x: a NumPy array, Python or NumPy scalar, ``jax_core.Array``, or a pytree of them.
      device: ``None`` (the default device, uncommitted; arrays are returned as
        they are), a ``Device``, a :class:`~jax_core.sharding.Sharding` (e.g. a
        ``NamedSharding`` splitting the array over a mesh), or a pytree prefix
        of ``x`` whose leaves are any of those.
      donate: whether ``x``'s buffers may be invalidated (donated) by the copy.
      may_alias: ``False`` forces a copy even when ``x`` already has the
        requested placement; ``None``/``True`` let the result share ``x``'s buffers.

    Returns:
      ``jax_core.Array`` leaves in the structure of ``x``. A device or sharding
      commits the result to its devices. The result's ``sharding`` is the object
      passed (a ``Device`` becomes ``SingleDeviceSharding(device)``).

    Raises:
      ValueError: the sharding's rank exceeds the value's, or ``device`` is not
        a tree prefix of ``x``.
      IndivisibleError: a sharded dimension does not divide evenly.
      TypeError: a leaf is not an array-like value.
    """
    leaves, treedef = tree_flatten(x)
    if _is_target(device):
        targets: list[Any] = [device] * len(leaves)
    else:
        targets = broadcast_prefix(device, x, is_leaf=_is_target)
    with config.explicit_device_put_scope():
        out = [_put_leaf(leaf, t, donate, may_alias) for leaf, t in zip(leaves, targets, strict=True)]
    return tree_unflatten(treedef, out)


def device_get(x: Any) -> Any:
    """Copies every ``jax_core.Array`` in the pytree ``x`` to a host NumPy array.

    Sharded arrays are assembled from all their shards. Other leaves (NumPy
    arrays, Python scalars, strings, ...) are returned unchanged. The NumPy
    arrays returned are read-only, as in JAX.
    """
    leaves, treedef = tree_flatten(x)
    with config.explicit_device_get_scope():
        for leaf in leaves:  # start all transfers before waiting on any
            if type(leaf) is ArrayImpl and leaf._npy_value is None and not leaf.is_deleted():
                with contextlib.suppress(Exception):  # best effort: only a prefetch
                    leaf._copy_single_device_array_to_host_async()
        # Arrays of extended dtypes (PRNG keys) have no NumPy form: they are returned as they are.
        out = [np.asarray(leaf) if isinstance(leaf, Array) and not dtypes.is_extended_dtype(leaf.dtype) else leaf for leaf in leaves]
    return tree_unflatten(treedef, out)


def ensure_single_device(x: Any, device: Device | None = None) -> Any:
    """``x`` as an array on one device: gathers an array that spans several devices.

    Eager dispatch compiles one-device computations, so an input sharded or
    replicated over several devices is first brought onto ``device`` (default:
    the default device): a replicated array reuses its shard on that device when
    it has one; a sharded array is assembled through the host. The result is
    uncommitted. Everything else (single-device arrays, host values, tracers) is
    returned unchanged.
    """
    if type(x) is not ArrayImpl:
        return x
    cpp = x._sharding
    if type(cpp) is CPP_SINGLE_DEVICE_SHARDING or isinstance(cpp, SingleDeviceSharding):
        return x
    s = from_cpp_sharding(cpp)
    if s.num_devices == 1:
        return x
    dev = client.default_device() if device is None else device
    target = client.single_device_sharding(dev)
    if s.is_fully_replicated:
        for shard in x._arrays:
            if shard._sharding._device == dev:
                return ArrayImpl(x.aval, target, [shard], False, True)
    return _put_host(np.asarray(x), bool(x.aval.weak_type), target, committed=False)


def _single_device(x: Any) -> Device | None:
    cpp = x._sharding
    if type(cpp) is CPP_SINGLE_DEVICE_SHARDING:
        found: Device = cpp._device
        return found
    s = from_cpp_sharding(cpp)
    return s._device_assignment[0] if s.num_devices == 1 else None  # pyright: ignore[reportPrivateUsage]


def placement(
    args: Sequence[Any], device: Device | None = None, fun_name: str = "computation", arg_names: Sequence[str] | None = None
) -> tuple[Device, bool]:
    """Where a one-device computation on ``args`` runs, and whether its results are committed
    (as JAX): on ``device`` when given; else on the device of the committed arguments (JAX's
    ``ValueError`` when they are on different devices); else on the default device, uncommitted."""
    if device is not None:
        return device, True
    found: Device | None = None
    first = 0
    for i, x in enumerate(args):
        if type(x) is ArrayImpl and x._committed:
            d = _single_device(x)
            if d is None:
                continue  # spans several devices: gathered onto the computation's device
            if found is None:
                found, first = d, i
            elif d != found:

                def describe(j: int, dev: Device) -> str:
                    name = arg_names[j] if arg_names is not None and j < len(arg_names) else f"args[{j}]"
                    return f"argument {name} of {fun_name} with shape {args[j].aval} and with device ids [{dev.id}] on platform CPU"

                raise ValueError(
                    f"Received incompatible devices for jitted computation. Got {describe(first, found)} and {describe(i, d)}"
                )
    if found is None:
        return client.default_device(), False
    return found, True


def to_device_input(x: Any, device: Device | None = None) -> Any:
    """An argument for a one-device executable (on ``device``, default: the default device): a
    device array on that device.

    Device arrays spanning several devices are gathered, arrays on another device copied,
    ``__jax_array__`` objects converted, and host values (NumPy arrays, Python scalars) copied to
    the device.
    """
    if type(x) is ArrayImpl:
        check_not_deleted(x)
        if device is None:
            return ensure_single_device(x)
        x = ensure_single_device(x, device)
        if _single_device(x) != device:
            return _put_host(np.asarray(x), bool(x.aval.weak_type), client.single_device_sharding(device), committed=False)
        return x
    if type(x) is Token:  # its bool[0] buffer stands for the token, as in JAX
        return to_device_input(x._buf, device)  # pyright: ignore[reportPrivateUsage]
    dtype = getattr(x, "dtype", None)
    if dtypes.is_extended_dtype(dtype):  # e.g. a PRNG key array: its data
        return to_device_input(dtype._rules.physical_const(x), device)  # pyright: ignore[reportPrivateUsage]
    jax_array = getattr(x, "__jax_array__", None)
    if jax_array is not None:
        return to_device_input(jax_array(), device)
    return device_put_host(x, device)
