"""``pmap``: map a function over devices, one slice of the mapped axis per device.

As in JAX 0.12, ``pmap(f)`` is ``jit`` of a ``shard_map`` over a one-axis mesh of the first
``n`` devices (``n`` the mapped size; the axis is ``axis_name``): the mapped axis is split over
the devices, each device runs ``f`` on its slice (the axis squeezed away), collectives over
``axis_name`` communicate among the devices, and the results are stacked along ``out_axes``,
sharded over the devices (``NamedSharding(Mesh(devices, (axis_name,)), P(axis_name))``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from typing import Any, ParamSpec, TypeVar

import numpy as np

from jax_core._src.backend.client import local_devices
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.core.avals import ShapedArray
from jax_core._src.sharding.shardings import Device, NamedSharding
from jax_core._src.transforms.jit_shardings import check_divisible
from jax_core._src.transforms.api import Jitted, jit
from jax_core._src.tree.tree_util import broadcast_prefix, tree_flatten, tree_leaves, tree_unflatten

P = ParamSpec("P")
R = TypeVar("R")

_INTERNAL_AXIS = "_internal_pmap_axis_name"


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
    slice; ``donate_argnums`` as for ``jit``. The mapped size must not exceed the number of
    devices (``devices``, default all local devices). Results are stacked along ``out_axes``
    and sharded over the devices. Returns a compiled function (with ``lower``/``trace``) like
    ``jit``'s.
    """
    from jax_core._src.interpreters.batching_util import moveaxis
    from jax_core._src.lax.shape.dimensions import expand_dims, squeeze
    from jax_core._src.shard_map.api import apply_shard_map

    if backend is not None and backend not in {d.platform for d in local_devices()}:
        raise NotImplementedError(
            f"pmap backend={backend!r}: only the local platform's devices are available"
        )
    statics = _as_tuple(static_broadcasted_argnums)
    name = _INTERNAL_AXIS if axis_name is None else axis_name

    @functools.wraps(fun)
    def mapped(*args: Any, **kwargs: Any) -> Any:
        n = len(args)
        static: set[int] = {i % n for i in statics} if n else set()
        axes = list(in_axes) if isinstance(in_axes, (tuple, list)) else [in_axes] * n
        if len(axes) != n:
            raise ValueError(
                f"pmap in_axes must be an int, None, or a tuple of entries corresponding to the positional "
                f"arguments passed to the function, but got len(in_axes)={len(axes)}, len(args)={n}"
            )
        dyn = [(i, a) for i, a in enumerate(args) if i not in static]
        dyn_axes: list[Any] = [axes[i] for i, _ in dyn] + [0] * len(kwargs)
        dyn_values: list[Any] = [a for _, a in dyn] + list(kwargs.values())
        leaf_axes: list[Any] = []
        leaves: list[Any] = []
        for value, ax in zip(dyn_values, dyn_axes, strict=True):
            value_leaves = tree_leaves(value)
            leaves += value_leaves
            leaf_axes += broadcast_prefix(ax, value, is_leaf=lambda x: x is None) if value_leaves else []
        size = axis_size if axis_size is not None else _mapped_size(leaves, leaf_axes)
        if size is None:
            raise ValueError("pmap requires at least one argument with a mapped axis (in_axes not None).")
        available = list(devices) if devices is not None else local_devices()
        mesh = Mesh(np.array(available[:size], dtype=object), (name,))
        for x, ax in zip(leaves, leaf_axes, strict=True):
            if ax == 0:  # as JAX 0.12: the mapped axis is split over the devices (jit's error)
                aval = ShapedArray(tuple(np.shape(x)), np.dtype(np.result_type(x)))
                split = NamedSharding(mesh, PartitionSpec(name))
                check_divisible(split, aval, "pjit arguments with pytree key path flat_args[0]")
        flat_in, in_tree = tree_flatten(dyn_values)
        moved = [x if ax is None else moveaxis(x, ax, 0) for x, ax in zip(flat_in, leaf_axes, strict=True)]
        in_specs = tuple(PartitionSpec() if ax is None else PartitionSpec(name) for ax in leaf_axes)
        out_tree_box: list[Any] = []

        def per_device(*xs: Any) -> list[Any]:
            local = [x if ax is None else squeeze(x, (0,)) for x, ax in zip(xs, leaf_axes, strict=True)]
            values = tree_unflatten(in_tree, local)
            it = iter(values)
            call_args = [args[i] if i in static else next(it) for i in range(n)]
            call_kwargs = {k: next(it) for k in kwargs}
            call: Callable[..., Any] = fun
            out = call(*call_args, **call_kwargs)
            out_leaves, out_tree = tree_flatten(out)
            out_ax = broadcast_prefix(out_axes, out, is_leaf=lambda x: x is None)
            out_tree_box.append((out_tree, out_ax))
            return [x if ax is None else expand_dims(x, (0,)) for x, ax in zip(out_leaves, out_ax, strict=True)]

        def out_specs(outs: Any) -> list[PartitionSpec]:
            return [PartitionSpec() if ax is None else PartitionSpec(name) for ax in out_tree_box[-1][1]]

        results = apply_shard_map(per_device, tuple(moved), mesh, in_specs, out_specs, frozenset(), False)
        out_tree, out_ax = out_tree_box[-1]
        final = [r if ax is None or ax == 0 else moveaxis(r, 0, ax) for r, ax in zip(results, out_ax, strict=True)]
        return tree_unflatten(out_tree, final)

    out: Jitted[P, R] = jit(mapped, static_argnums=statics, donate_argnums=donate_argnums)
    return out
