"""Which device-local layout each argument and result of a ``jit`` is compiled for.

``in_shardings``/``out_shardings`` may hold ``Format``s (``jit_shardings`` splits them into
layouts and shardings). JAX's rules: an argument is compiled for the layout its ``Format`` asks
for (a committed argument in another layout is an error), else for a committed argument's own
layout, else for the default one (an uncommitted argument in another layout is relaid out before
the call, ``runtime/relayout.match_parameters``). Default layouts are written ``None`` throughout,
so that programs without layouts lower and dispatch exactly as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jax_core._src.backend import client
from jax_core._src.core.avals import ShapedArray, ShapeDtypeStruct
from jax_core._src.layout.formats import (
    Layout,
    LayoutOptions,
    check_layouts_fit,
    describe_aval,
    is_default_layout,
    layout_mode,
    user_layout_equal,
)
from jax_core._src.runtime import relayout
from jax_core._src.runtime.array import ArrayImpl
from jax_core._src.runtime.compile import Executable
from jax_core._src.sharding.shardings import Sharding, SingleDeviceSharding, from_cpp_sharding
from jax_core._src.transforms.jit_shardings import SpmdPlan
from jax_core._src.tree.tree_util import PyTreeDef, keystr, tree_flatten_with_path

_AUTO_HINT = (
    " The layout given to `jax.jit` is `Layout.AUTO` but the corresponding argument passed is a "
    "`jax.Array` with a concrete layout. Consider passing a `jax.ShapeDtypeStruct` instead of "
    "`jax.Array` as an argument to the jitted function  when using `Layout.AUTO`."
)


def abstract_layout(x: Any) -> Layout | None:
    """The layout a ``ShapeDtypeStruct`` argument names (``None``: none, or not one)."""
    if not isinstance(x, ShapeDtypeStruct):
        return None
    layout: Layout | None = x.format.layout
    return layout


def layout_target(where: Any, i: int, requested: Any, x: Any, *, outputs: bool = False) -> Sharding:
    """The sharding the ``i``-th argument (result) is laid out over, to tell default layouts:
    the one requested, the plan's, the argument's own, or the call's device."""
    if isinstance(requested, Sharding):
        return requested
    if isinstance(where, SpmdPlan) and not outputs:
        s = where.in_shardings[i]
        if s is not None:
            return s
    if type(x) is ArrayImpl:
        return from_cpp_sharding(x._sharding)
    if isinstance(x, ShapeDtypeStruct) and x.sharding is not None:
        return x.sharding
    device = client.default_device() if where is None or isinstance(where, SpmdPlan) else where
    return SingleDeviceSharding(device)


def resolve_in_layouts(
    leaves: Sequence[Any],
    avals: Sequence[ShapedArray],
    names: Sequence[str],
    asked: Sequence[LayoutOptions],
    requested: Sequence[Any],
    where: Any,
) -> tuple[LayoutOptions, ...] | None:
    """The layout each argument is compiled for (``None`` entries: the default; ``None``: all
    default). Raises JAX's ``ValueError`` for a committed argument whose layout is not the one its
    ``Format`` asks for, and for layouts of the wrong rank."""
    check_layouts_fit(asked, [a.shape for a in avals], names, "jit arguments")
    out: list[LayoutOptions] = []
    for i, (x, want, aval) in enumerate(zip(leaves, asked, avals, strict=True)):
        committed = type(x) is ArrayImpl and not x.is_deleted() and bool(x._committed)
        abstract = abstract_layout(x)  # a ShapeDtypeStruct's format stands for a committed array's
        if want is None:
            if abstract is not None:
                abstract.check_permutation(aval.shape, aval.dtype)
                target = layout_target(where, i, requested[i], x)
                out.append(None if is_default_layout(abstract, target, aval.shape, aval.dtype) else abstract)
            else:
                out.append(relayout.layout_of(x) if committed and not relayout.has_default_layout(x) else None)
            continue
        if isinstance(want, Layout):
            want.check_permutation(aval.shape, aval.dtype)
        own = relayout.layout_of(x) if committed else abstract
        if own is not None and not user_layout_equal(want, own):
            raise ValueError(
                "Layout passed to jit does not match the layout on the respective arg. "
                f"Got jit layout: {want},\narg layout: {own} for arg type: {describe_aval(aval)}."
                + ("" if isinstance(want, Layout) else _AUTO_HINT)
            )
        target = layout_target(where, i, requested[i], x)
        out.append(None if isinstance(want, Layout) and is_default_layout(want, target, aval.shape, aval.dtype) else want)
    return None if all(layout is None for layout in out) else tuple(out)


def result_layout_modes(
    asked: Sequence[LayoutOptions], requested: Sequence[Any], avals: Sequence[ShapedArray], out_tree: PyTreeDef, where: Any
) -> list[str | None]:
    """The ``mhlo.layout_mode`` of each result (``None``: the default layout)."""
    paths, _ = tree_flatten_with_path(out_tree.unflatten([0] * out_tree.num_leaves))
    check_layouts_fit(asked, [a.shape for a in avals], ["result" + keystr(tuple(p)) for p, _ in paths], "jit outputs")
    modes: list[str | None] = []
    for i, (want, aval) in enumerate(zip(asked, avals, strict=True)):
        if isinstance(want, Layout):
            want.check_permutation(aval.shape, aval.dtype)
            if is_default_layout(want, layout_target(where, i, requested[i], None, outputs=True), aval.shape, aval.dtype):
                want = None
        modes.append(layout_mode(want, aval.dtype))
    return modes


def dispatch_layouts(exe: Executable, in_layouts: Sequence[LayoutOptions] | None, where: Any, n: int) -> list[Layout | None]:
    """What jaxlib's C++ dispatch compares each argument's layout with (``None``: the default)."""
    if in_layouts is None:
        return [None] * n
    out: list[Layout | None] = []
    for i, (want, got, aval) in enumerate(zip(in_layouts, exe.parameter_layouts, exe.in_avals, strict=True)):
        layout = None if want is None else Layout.from_pjrt_layout(got)
        target = layout_target(where, i, None, None) if exe.input_shardings is None else exe.input_shardings[i]
        out.append(None if is_default_layout(layout, target, aval.shape, aval.dtype) else layout)
    return out
