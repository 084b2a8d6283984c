"""Where a ``jit`` call runs when shardings are involved: ``in_shardings``/``out_shardings`` and
arguments laid out over several devices.

A call whose arguments and requested shardings name one device at most runs on that device
(``runtime/transfer.placement``). Otherwise it runs partitioned over one mesh: every sharding
involved must use the same devices in the same order (JAX's "incompatible devices" error
otherwise), a committed argument keeps its sharding (a different ``in_shardings`` entry is JAX's
mismatch error), and the rest is left to XLA's partitioner. ``SpmdPlan`` is what the trace cache
keys on and what lowering needs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Final, cast, final

from jax_core._src.core.avals import ShapedArray, ShapeDtypeStruct
from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr
from jax_core._src.layout.formats import AutoLayoutSingleton, Format, Layout, LayoutOptions, split_formats
from jax_core._src.lowering.lower_jaxpr import SpmdLayout
from jax_core._src.runtime.array import ArrayImpl
from jax_core._src.runtime.spmd import named_from_hlo
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec, check_spec
from jax_core._src.sharding.shardings import Device, NamedSharding, Sharding, from_cpp_sharding
from jax_core._src.tree.tree_util import PyTreeDef, broadcast_prefix, tree_flatten


@final
class UnspecifiedValue:
    """The default of ``jit``'s ``in_shardings``/``out_shardings``: nothing requested."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UnspecifiedValue"


UNSPECIFIED: Final = UnspecifiedValue()


def _is_leaf(x: Any) -> bool:
    return x is None or isinstance(x, (Sharding, PartitionSpec, UnspecifiedValue, Format, Layout, AutoLayoutSingleton))


def check_no_bare_layouts(tree: Any) -> bool:
    """Raises JAX's ``ValueError`` for a ``Layout`` given to ``jit`` without a ``Format``; returns
    whether some ``Format`` asks for a layout."""
    if isinstance(tree, UnspecifiedValue):
        return False
    layouts, _ = split_formats(tree_flatten(tree, is_leaf=_is_leaf)[0])
    return any(layout is not None for layout in layouts)


def hashable_spec_tree(tree: Any) -> Any:
    """A hashable stand-in for a pytree of shardings (the jit options key)."""
    if isinstance(tree, UnspecifiedValue):
        return tree
    leaves, treedef = tree_flatten(tree, is_leaf=_is_leaf)
    return (treedef, tuple(leaves))


def _check_leaf(x: Any, what: str) -> Sharding | PartitionSpec | None:
    if x is None or isinstance(x, UnspecifiedValue):
        return None
    if isinstance(x, Format):
        return x.sharding
    if isinstance(x, (Sharding, PartitionSpec)):
        return x
    raise ValueError(
        f"`jit` {what} leaves must be instances of jax.sharding.Sharding, jax.sharding.PartitionSpec "
        f"or None. Got {x!r} of type {type(x)}."
    )


def _layout_of_entry(x: Any) -> LayoutOptions:
    return cast("Format[Any]", x).layout if isinstance(x, Format) else None  # type: ignore[redundant-cast]


def in_leaf_layouts(in_shardings: Any, args: tuple[Any, ...], num_kwarg_leaves: int) -> list[LayoutOptions]:
    """One requested layout (or ``None``) per argument leaf, from the ``Format``s in
    ``in_shardings`` (broadcast as ``in_leaf_shardings`` does)."""
    return [_layout_of_entry(x) for x in _in_entries(in_shardings, args, num_kwarg_leaves)]


def out_leaf_layouts(out_shardings: Any, out_tree: PyTreeDef) -> list[LayoutOptions]:
    """One requested layout (or ``None``) per result leaf, from the ``Format``s in ``out_shardings``."""
    return [_layout_of_entry(x) for x in _out_entries(out_shardings, out_tree)]


def in_leaf_shardings(in_shardings: Any, args: tuple[Any, ...], num_kwarg_leaves: int) -> list[Sharding | PartitionSpec | None]:
    """One requested sharding (or ``None``) per argument leaf: ``in_shardings`` is a prefix of the
    positional arguments tuple (a single sharding applies to all); keyword arguments get none."""
    return [_check_leaf(x, "in_shardings") for x in _in_entries(in_shardings, args, num_kwarg_leaves)]


def _in_entries(in_shardings: Any, args: tuple[Any, ...], num_kwarg_leaves: int) -> list[Any]:
    if isinstance(in_shardings, UnspecifiedValue):
        n = len(tree_flatten(args)[0])
        return [None] * (n + num_kwarg_leaves)
    if isinstance(in_shardings, list):
        in_shardings = tuple(cast("list[Any]", in_shardings))  # type: ignore[redundant-cast]
    if isinstance(in_shardings, tuple) and len(cast("tuple[Any, ...]", in_shardings)) != len(args):  # type: ignore[redundant-cast]
        raise ValueError(
            "pjit in_shardings specification must be a tree prefix of the positional arguments tuple. "
            "In particular, pjit in_shardings must either be a Sharding, a PartitionSpec, or a tuple of "
            "length equal to the number of positional arguments. But pjit in_shardings is the wrong "
            f"length: got a tuple or list of length {len(cast('tuple[Any, ...]', in_shardings))} for an args tuple of length {len(args)}."  # type: ignore[redundant-cast]
        )
    prefix: tuple[Any, ...] = cast("tuple[Any, ...]", in_shardings) if isinstance(in_shardings, tuple) else (in_shardings,) * len(args)  # type: ignore[redundant-cast]
    leaves = broadcast_prefix(prefix, args, is_leaf=lambda x: x is None or isinstance(x, Format))
    return [*leaves, *[None] * num_kwarg_leaves]


def out_leaf_shardings(out_shardings: Any, out_tree: PyTreeDef) -> list[Sharding | PartitionSpec | None]:
    """One requested sharding (or ``None``) per result leaf: ``out_shardings`` is a prefix of the
    result tree."""
    return [_check_leaf(x, "out_shardings") for x in _out_entries(out_shardings, out_tree)]


def requested_out_shardings(out_shardings: Any) -> list[Sharding | PartitionSpec | None]:
    """The shardings ``out_shardings`` names (its leaves, before matching them with results)."""
    if isinstance(out_shardings, UnspecifiedValue):
        return []
    return [_check_leaf(x, "out_shardings") for x in tree_flatten(out_shardings, is_leaf=_is_leaf)[0]]


def _out_entries(out_shardings: Any, out_tree: PyTreeDef) -> list[Any]:
    n = out_tree.num_leaves
    if isinstance(out_shardings, UnspecifiedValue):
        return [None] * n
    if _is_leaf(out_shardings):
        return [out_shardings] * n
    skeleton = out_tree.unflatten([0] * n)
    if isinstance(out_shardings, list) and isinstance(skeleton, tuple):
        out_shardings = tuple(cast("list[Any]", out_shardings))  # type: ignore[redundant-cast]
    leaves: list[Any] = broadcast_prefix(out_shardings, skeleton, is_leaf=lambda x: x is None or isinstance(x, Format))
    return leaves


@dataclasses.dataclass(frozen=True)
class SpmdPlan:
    """A call partitioned over ``mesh``: each argument's sharding (``None``: the partitioner's
    choice)."""

    mesh: Mesh
    in_shardings: tuple[NamedSharding | None, ...]

    def layout(self, out_shardings: Sequence[NamedSharding | None]) -> SpmdLayout:
        """What lowering needs: the mesh and the specs of ``main``'s parameters and results."""
        return SpmdLayout(
            self.mesh.shape_tuple,
            tuple(None if s is None else s.spec for s in self.in_shardings),
            tuple(None if s is None else s.spec for s in out_shardings),
        )


def constraint_shardings(jaxpr: Jaxpr) -> list[Sharding]:
    """The meshes ``with_sharding_constraint`` and ``shard_map`` equations name in ``jaxpr`` and
    its sub-jaxprs, as shardings (a ``jit`` with them runs over their mesh)."""
    out: list[Sharding] = []
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "sharding_constraint":
            s = eqn.params["sharding"]
            if isinstance(s, NamedSharding) or isinstance(s, Sharding) and s.num_devices > 1:
                out.append(s)
        elif eqn.primitive.name == "device_put":
            out += [d for d in eqn.params["devices"] if isinstance(d, NamedSharding)]
        elif eqn.primitive.name == "shard_map" and eqn.params["mesh"].size >= 1:
            out.append(NamedSharding(eqn.params["mesh"], PartitionSpec()))
        for value in eqn.params.values():
            items: tuple[Any, ...] = tuple(cast("Sequence[Any]", value)) if isinstance(value, (tuple, list)) else (value,)
            for item in items:
                if isinstance(item, ClosedJaxpr):
                    out += constraint_shardings(item.jaxpr)
                elif isinstance(item, Jaxpr):
                    out += constraint_shardings(item)
    return out


def _device_ids(s: Sharding) -> list[int]:
    return [d.id for d in s._device_assignment]  # pyright: ignore[reportPrivateUsage]


def _describe(aval: ShapedArray) -> str:
    return f"{aval.dtype.name}{list(aval.shape)}".replace(" ", "")


def check_divisible(s: Sharding, aval: ShapedArray, what: str) -> None:
    """Raises JAX's errors if ``s`` does not fit a value of ``aval``'s rank and shape."""
    s._check_compatible_rank(aval.ndim)  # pyright: ignore[reportPrivateUsage]
    try:
        s.shard_shape(aval.shape)
    except ValueError as err:
        raise type(err)(f"One of {what} was given the sharding {err}.") from None


def _resolve_spec(s: Sharding | PartitionSpec, mesh: Mesh | None, what: str) -> Sharding:
    if isinstance(s, Sharding):
        return s
    if mesh is None:
        from jax_core._src.sharding import mesh_context

        mesh = mesh_context.get_concrete_mesh()
    if mesh is None:
        raise ValueError(
            f"Using PartitionSpec ({s}) in {what} without a mesh is not allowed. Pass a NamedSharding, "
            "or set a mesh with `jax.set_mesh(mesh)` (as a context manager or globally)."
        )
    check_spec(mesh, s)
    return NamedSharding(mesh, s)


def plan(
    leaves: Sequence[Any],
    avals: Sequence[ShapedArray],
    requested: Sequence[Sharding | PartitionSpec | None],
    out_requested: Sequence[Sharding | PartitionSpec | None] | None,
    fun_name: str,
    arg_names: Sequence[str],
) -> SpmdPlan | Device | None:
    """Where the call runs: an ``SpmdPlan`` over several devices, one device, or ``None`` (no
    sharding involved: the default placement). Raises JAX's errors for mismatched or
    incompatible shardings."""
    involved: list[tuple[Sharding, str]] = []
    chosen: list[Sharding | None] = []
    for x, aval, req, name in zip(leaves, avals, requested, arg_names, strict=True):
        committed = type(x) is ArrayImpl and bool(x._committed)
        own = from_cpp_sharding(x._sharding) if type(x) is ArrayImpl else None
        if isinstance(x, ShapeDtypeStruct) and x.sharding is not None:  # stands for a committed array
            committed, own = True, x.sharding
        target = None if req is None else _resolve_spec(req, None, "in_shardings")
        if target is not None:
            check_divisible(target, aval, f"pjit arguments with pytree key path {name}")
            if committed and own is not None and not own.is_equivalent_to(target, aval.ndim):
                raise ValueError(
                    "Sharding passed to jit does not match the sharding on the respective arg. "
                    f"Got jit sharding: {target},\narg sharding: {own} for arg type: {_describe(aval)}"
                )
            chosen.append(target)
            involved.append((target, f"explicit input sharding of {name}"))
        elif committed and own is not None:
            chosen.append(own)
            involved.append((own, f"argument {name} of {fun_name} with shape {_describe(aval)}"))
        else:
            chosen.append(None)
    out_targets = [None if r is None else _resolve_spec(r, None, "out_shardings") for r in (out_requested or ())]
    involved += [(s, "explicit output sharding") for s in out_targets if s is not None]
    if not involved:
        return None
    first, first_what = involved[0]
    for s, what in involved[1:]:
        if s._device_assignment != first._device_assignment:  # pyright: ignore[reportPrivateUsage]
            raise ValueError(
                "Received incompatible devices for jitted computation. Got "
                f"{first_what} and with device ids {_device_ids(first)} on platform CPU and "
                f"{what} and with device ids {_device_ids(s)} on platform CPU"
            )
    if all(s.num_devices == 1 and not isinstance(s, NamedSharding) for s, _ in involved):
        return first._device_assignment[0]  # pyright: ignore[reportPrivateUsage]
    mesh = next((s.mesh for s, _ in involved if isinstance(s, NamedSharding)), None)
    if mesh is None:
        raise NotImplementedError(
            "jax_core partitions a jit over several devices only when a NamedSharding names its mesh; "
            "pass in_shardings/out_shardings as NamedSharding (or device_put the arguments with one)."
        )

    def named(s: Sharding | None, ndim: int) -> NamedSharding | None:
        if s is None or isinstance(s, NamedSharding) and s.mesh == mesh:
            return s
        if isinstance(s, NamedSharding):
            if s.mesh.shape_tuple != mesh.shape_tuple:
                raise NotImplementedError(
                    f"jax_core does not yet run one jit over two meshes of the same devices ({s.mesh} and {mesh})."
                )
            return NamedSharding(mesh, s.spec, memory_kind=s.memory_kind)
        converted = named_from_hlo(mesh, s._to_xla_hlo_sharding(ndim), ndim)  # pyright: ignore[reportPrivateUsage]
        if not isinstance(converted, NamedSharding):
            raise NotImplementedError(f"jax_core cannot express {s} over the mesh {mesh} yet.")
        return converted

    return SpmdPlan(mesh, tuple(named(s, a.ndim) for s, a in zip(chosen, avals, strict=True)))


def out_shardings_on(
    spmd: SpmdPlan, requested: Sequence[Sharding | PartitionSpec | None], avals: Sequence[ShapedArray]
) -> tuple[NamedSharding | None, ...]:
    """The requested result shardings (one per result leaf) as ``NamedSharding``s over the plan's
    mesh, each checked against its result's rank and shape."""
    out: list[NamedSharding | None] = []
    for r, aval in zip(requested, avals, strict=True):
        if r is None:
            out.append(None)
            continue
        s = _resolve_spec(r, spmd.mesh, "out_shardings")
        check_divisible(s, aval, "pjit outputs")
        if isinstance(s, NamedSharding):
            out.append(s if s.mesh == spmd.mesh else NamedSharding(spmd.mesh, s.spec, memory_kind=s.memory_kind))
            continue
        converted = named_from_hlo(spmd.mesh, s._to_xla_hlo_sharding(aval.ndim), aval.ndim)  # pyright: ignore[reportPrivateUsage]
        if not isinstance(converted, NamedSharding):
            raise NotImplementedError(f"jax_core cannot express {s} over the mesh {spmd.mesh} yet.")
        out.append(converted)
    return tuple(out)
