"""``pmap``: map a function over the devices, one slice of the leading axis per device.

On this runtime the mapped computation is compiled as one vectorised program (``vmap`` under
``jit``, with ``axis_name`` bound for collectives) placed on the first device: the values are
those of JAX's ``pmap``, and the mapped axis may not be larger than the number of devices,
as in JAX. Spreading the slices over several devices is not implemented (on a single-device
host, the common case for CPU, there is nothing to spread).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ParamSpec, TypeVar

import numpy as np

from jax_core._src.backend.client import local_devices
from jax_core._src.sharding.shardings import Device
from jax_core._src.transforms.api import Jitted, jit
from jax_core._src.transforms.vmap_api import vmap
from jax_core._src.tree.tree_util import tree_leaves

P = ParamSpec("P")
R = TypeVar("R")


def _as_tuple(nums: int | Sequence[int]) -> tuple[int, ...]:
    return (nums,) if isinstance(nums, int) else tuple(nums)


def _mapped_size(args: Sequence[Any], axes: Sequence[Any]) -> int | None:
    for arg, axis in zip(args, axes, strict=True):
        leaves = tree_leaves(arg)
        if isinstance(axis, int) and leaves and np.ndim(leaves[0]) > axis:
            return int(np.shape(leaves[0])[axis])
    return None


def pmap(
    fun: Callable[P, R],
    axis_name: Hashable | None = None,
    *,
    in_axes: int | None | Sequence[Any] = 0,
    out_axes: Any = 0,
    static_broadcasted_argnums: int | Sequence[int] = (),
    devices: Sequence[Device] | None = None,
    backend: str | None = None,
    axis_size: int | None = None,
    donate_argnums: int | Sequence[int] = (),
) -> Jitted[P, R]:
    """Maps ``fun`` over axis ``in_axes`` (default 0) of its arguments, one slice per device;
    ``axis_name`` names the mapped axis for collectives (``lax.psum(x, axis_name)``).

    Arguments in ``static_broadcasted_argnums`` are Python values (hashable) given to every
    slice; ``donate_argnums`` as for ``jit``. The mapped axis must not be longer than the
    number of devices (``devices``, default all local devices). Returns a compiled function
    (with ``lower``/``trace``) like ``jit``'s.
    """
    if backend is not None and backend not in {d.platform for d in local_devices()}:
        raise NotImplementedError(
            f"pmap backend={backend!r}: only the local platform's devices are available"
        )
    statics = _as_tuple(static_broadcasted_argnums)
    n_devices = len(devices) if devices is not None else len(local_devices())

    @functools.wraps(fun)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        n = len(args)
        axes = list(in_axes) if isinstance(in_axes, (tuple, list)) else [in_axes] * n
        static: set[int] = {i % n for i in statics} if n else set()
        axes = [None if i in static else a for i, a in enumerate(axes)]
        size = axis_size if axis_size is not None else _mapped_size(args, axes)
        if size is not None and size > n_devices:
            raise ValueError(
                f"pmap got a mapped axis of size {size}, but only {n_devices} devices are available "
                f"(compiling computation that requires {size} logical devices); map over at most "
                f"{n_devices} slices, or use vmap"
            )
        return vmap(fun, tuple(axes), out_axes, axis_name=axis_name, axis_size=axis_size)(
            *args, **kwargs
        )

    out: Jitted[P, R] = jit(mapped, static_argnums=statics, donate_argnums=donate_argnums)
    return out
