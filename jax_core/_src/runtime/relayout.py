"""Arrays in non-default device-local layouts: reading an array's ``format``, relaying it out, and
making sure no executable ever reads a buffer in a layout it was not compiled for.

jaxlib's ``execute_sharded`` does not check layouts: a column-major buffer handed to an executable
compiled for row-major parameters is silently read transposed. So every path that feeds arrays
to an executable goes through ``match_parameters`` (or, for eager operations, through
``default_layout_args``). Checking costs a C++ call per argument, so it only happens once a
non-default layout can exist: after the first array with one was made (``arm``), or for an
executable compiled for a layout of its own (``Executable.custom_layouts``).

A relayout is a compiled identity whose result asks for the wanted layout (as JAX does it).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr, Var
from jax_core._src.core.tokens import AbstractToken
from jax_core._src.layout.formats import Format, Layout, describe_aval, layout_mode, user_layout_equal
from jax_core._src.lowering.lower_jaxpr import SpmdLayout, lower_closed_jaxpr
from jax_core._src.runtime.array import ArrayImpl, check_not_deleted
from jax_core._src.runtime.compile import Executable, compile_module, custom_layouts_compiled, note_custom_layouts
from jax_core._src.runtime.spmd import compile_spmd
from jax_core._src.sharding.shardings import NamedSharding, Sharding, from_cpp_sharding

_state = threading.Lock()
_identities: dict[tuple[Any, ...], Executable] = {}
_defaults: dict[tuple[Any, ...], Any] = {}


arm = note_custom_layouts
"""Notes that an array in a non-default layout may exist: from now on arguments are checked."""

armed = custom_layouts_compiled
"""Whether an array in a non-default layout may exist."""


def layout_of(x: Any) -> Layout | None:
    """The device-local layout of ``x`` (an ``ArrayImpl``), ``None`` once deleted."""
    if x.is_deleted():
        return None
    return Layout.from_pjrt_layout(x._pjrt_layout)


def format_of(x: Any) -> Format[Any]:
    """``x.format``: its layout and sharding."""
    return Format(layout_of(x), from_cpp_sharding(x._sharding))


def _shard(x: Any) -> Any:
    arrays: list[Any] = x._arrays
    return arrays[0]


def _shard_device(shard: Any) -> Any:
    sharding = shard._sharding  # jaxlib's own (``_device``) or a jax_core sharding of one device
    device = getattr(sharding, "_device", None)
    return sharding._device_assignment[0] if device is None else device


def _default_pjrt(x: Any, shard: Any) -> Any:
    device = _shard_device(shard)
    shape = tuple(x.shape) if len(x._arrays) == 1 else tuple(from_cpp_sharding(x._sharding).shard_shape(x.shape))
    key = (x.dtype, shape, device)
    found = _defaults.get(key)
    if found is None:
        client: Any = device.client
        found = _defaults.setdefault(key, client.get_default_layout(np.dtype(x.dtype), shape, device))
    return found


def has_default_layout(x: Any) -> bool:
    """Whether ``x`` (an ``ArrayImpl``, not deleted) is laid out as its backend's default."""
    shard = _shard(x)
    return bool(shard._pjrt_layout == _default_pjrt(x, shard))


def _identity(aval: ShapedArray, src: str | None, dst: str | None, sharding: Sharding) -> Executable:
    key = (aval, src, dst, sharding)
    with _state:
        found = _identities.get(key)
    if found is not None:
        return found
    v = Var(aval)
    jaxpr = ClosedJaxpr(Jaxpr([], [v], [v], []), [])
    if sharding.num_devices > 1 and not isinstance(sharding, NamedSharding):
        raise NotImplementedError(
            f"jax_core relays out arrays over several devices only when a NamedSharding describes them; got {sharding}. "
            "device_put the array to a NamedSharding first."
        )
    if isinstance(sharding, NamedSharding) and sharding.num_devices > 1:
        spmd = SpmdLayout(sharding.mesh.shape_tuple, (sharding.spec,), (sharding.spec,))
        lowered = lower_closed_jaxpr(jaxpr, "relayout", spmd=spmd, arg_layouts=[src], result_layouts=[dst])
        exe = compile_spmd(lowered, sharding.mesh)
    else:
        device = sharding._device_assignment[0]  # pyright: ignore[reportPrivateUsage]
        lowered = lower_closed_jaxpr(jaxpr, "relayout", arg_layouts=[src], result_layouts=[dst])
        exe = compile_module(lowered, device, committed=True)
    with _state:
        return _identities.setdefault(key, exe)


def relayout(x: Any, layout: Layout | None, sharding: Sharding | None = None) -> Any:
    """``x`` (an ``ArrayImpl`` already laid out over ``sharding``'s devices as ``sharding``) in
    ``layout`` (``None``: the default), committed to ``sharding`` (default: ``x``'s)."""
    check_not_deleted(x)
    target = from_cpp_sharding(x._sharding) if sharding is None else sharding
    current = layout_of(x)
    if layout is not None:
        layout.check_permutation(tuple(target.shard_shape(x.shape)), x.dtype)
        if current is not None and user_layout_equal(layout, current):
            return x
    elif has_default_layout(x):
        return x
    aval = cast(ShapedArray, x.aval)
    exe = _identity(aval, layout_mode(current, x.dtype), layout_mode(layout, x.dtype), target)
    out: list[Any] = exe.call([x])
    return out[0]


def default_layout_args(args: Sequence[Any]) -> list[Any]:
    """``args`` with every array in a non-default layout relaid out to the default one (eager
    operations run executables compiled for default layouts)."""
    return [relayout(x, None) if type(x) is ArrayImpl and not x.is_deleted() and not has_default_layout(x) else x for x in args]


def match_parameters(
    exe: Executable, args: Sequence[Any], names: Sequence[str] | None = None
) -> tuple[list[Any], bool]:
    """``args`` (arrays already on ``exe``'s devices) in the layouts ``exe`` was compiled for,
    and whether any had to be relaid out. An uncommitted array in another layout is relaid out;
    a committed one is JAX's ``ValueError`` (the caller asked for that layout)."""
    params = exe.parameter_layouts
    out: list[Any] = []
    changed = False
    mismatches: list[str] = []
    for i, (x, want, aval) in enumerate(zip(args, params, exe.in_avals, strict=True)):
        if type(x) is not ArrayImpl or isinstance(aval, AbstractToken) or _shard(x)._pjrt_layout == want:
            out.append(x)
            continue
        wanted = Layout.from_pjrt_layout(want)
        if x._committed:
            name = names[i] if names is not None else f"args[{i}]"
            mismatches.append(
                f"Argument {name} with shape {describe_aval(x.aval)}:\n  Passed layout: {layout_of(x)}\n  Required layout: {wanted}"
            )
            out.append(x)
            continue
        out.append(relayout(x, wanted))
        changed = True
    if mismatches:
        shown = mismatches[:5]
        count = f"the {len(mismatches)} mismatches" if len(mismatches) < 5 else f"5 mismatches out of {len(mismatches)}"
        raise ValueError(
            "Computation was compiled for input layouts that disagree with the layouts of arguments passed to it. "
            f"Here are {count}:\n" + "\n".join(shown)
        )
    return out, changed
