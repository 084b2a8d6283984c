"""``jax_core.shard_map``: write the per-device program; arguments are split into blocks by
``in_specs`` and the blocks of the results concatenated by ``out_specs``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Set
from typing import Any, Final, ParamSpec, TypeVar, final, overload

from jax_core._src.core.jaxpr import ClosedJaxpr
from jax_core._src.core.trace import get_aval
from jax_core._src.interpreters.staging import DebugInfo, convert_constvars_to_invars, trace_to_jaxpr
from jax_core._src.shard_map.primitive import body_context, shard_map_p
from jax_core._src.shard_map.specs import (
    broadcast_specs,
    check_in_avals,
    check_names,
    check_out_avals,
    local_aval,
    spec_axes,
)
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.tree.tree_util import tree_flatten, tree_structure, tree_unflatten

P = ParamSpec("P")
R = TypeVar("R")


@final
class InferFromArgs:
    """``in_specs``' default (``jax.sharding.Infer``): each argument's spec is read from its
    ``NamedSharding`` on the mesh (replicated for arrays without one)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "jax.sharding.Infer"


Infer: Final = InferFromArgs()


def _infer_specs(leaves: list[Any], mesh: Mesh) -> list[PartitionSpec]:
    from jax_core._src.sharding.shardings import NamedSharding

    out: list[PartitionSpec] = []
    for x in leaves:
        s = getattr(x, "sharding", None) if not hasattr(x, "_trace") else None
        out.append(s.spec if isinstance(s, NamedSharding) and s.mesh.shape_tuple == mesh.shape_tuple else PartitionSpec())
    return out


def _context_mesh() -> Mesh:
    from jax_core._src.sharding import mesh_context

    mesh: Mesh | None = mesh_context.get_concrete_mesh()
    if mesh is None:
        raise ValueError("The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context")
    return mesh


def _arg_indices(args: tuple[Any, ...]) -> list[int]:
    out: list[int] = []
    for i, a in enumerate(args):
        out.extend([i] * tree_structure(a).num_leaves)
    return out


def apply_shard_map(
    f: Callable[..., Any],
    args: tuple[Any, ...],
    mesh: Mesh | None,
    in_specs: Any,
    out_specs: Any,
    axis_names: Set[Any],
    check_vma: bool,
) -> Any:
    """Applies ``f`` per device (what ``shard_map(f, ...)(*args)`` does; ``out_specs`` may also be
    a function of the result, for ``pmap``)."""
    m = _context_mesh() if mesh is None else mesh
    if not isinstance(m, Mesh):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"shard_map requires a jax.sharding.Mesh (or a mesh set with jax.set_mesh); got {m!r}")
    manual = frozenset(axis_names) if axis_names else frozenset(m.axis_names)
    leaves, in_tree = tree_flatten(args)
    specs = (
        _infer_specs(leaves, m) if isinstance(in_specs, InferFromArgs)
        else [PartitionSpec() if s is None else s for s in broadcast_specs(in_specs, args, "in_specs")]
    )  # fmt: skip
    check_names(specs, manual, "in_specs")
    avals = [get_aval(x) for x in leaves]
    check_in_avals(f, m, specs, avals, _arg_indices(args))
    body_avals = [
        local_aval(m, s, a.update(vma=frozenset()), frozenset(spec_axes(s)) & manual if check_vma else frozenset())
        for s, a in zip(specs, avals, strict=True)
    ]
    out_tree_box: list[Any] = []
    name = getattr(f, "__name__", type(f).__name__)

    def flat_body(*xs: Any) -> list[Any]:
        out = f(*tree_unflatten(in_tree, xs))
        out_leaves, out_tree = tree_flatten(out)
        out_tree_box.append((out_tree, out))
        return out_leaves

    with body_context(m, manual, check_vma):
        closed = trace_to_jaxpr(flat_body, body_avals, DebugInfo("shard_map", f))
    out_tree, out_value = out_tree_box[0]
    if callable(out_specs):  # pmap: the specs follow the results' out_axes, known only now
        out_specs = out_specs(out_value)
    out_flat = [PartitionSpec() if s is None else s for s in broadcast_specs(out_specs, out_value, "out_specs")]
    check_names(out_flat, manual, "out_specs")
    check_out_avals(name, m, out_flat, closed.out_avals, manual, check_vma, single=out_tree.num_leaves == 1 and out_tree.num_nodes == 1)
    body, consts = convert_constvars_to_invars(closed)
    const_specs = [PartitionSpec()] * len(consts)
    outs = shard_map_p.bind(
        *consts,
        *leaves,
        jaxpr=ClosedJaxpr(body, []),
        mesh=m,
        in_specs=(*const_specs, *specs),
        out_specs=tuple(out_flat),
        check_vma=check_vma,
        newly_manual_axes=manual,
    )
    return tree_unflatten(out_tree, outs)


@overload
def shard_map(
    f: Callable[P, R],
    /,
    *,
    out_specs: Any,
    in_specs: Any = Infer,
    mesh: Mesh | None = None,
    axis_names: Set[Any] = frozenset(),
    check_vma: bool = True,
) -> Callable[P, R]: ...


@overload
def shard_map(
    f: None = None,
    /,
    *,
    out_specs: Any,
    in_specs: Any = Infer,
    mesh: Mesh | None = None,
    axis_names: Set[Any] = frozenset(),
    check_vma: bool = True,
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def shard_map(
    f: Callable[P, R] | None = None,
    /,
    *,
    out_specs: Any,
    in_specs: Any = Infer,
    mesh: Mesh | None = None,
    axis_names: Set[Any] = frozenset(),
    check_vma: bool = True,
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Maps ``f`` over blocks of its arguments, one block per device of ``mesh``.

    ``in_specs`` (a prefix of the positional arguments; default: read from the arguments'
    shardings) says which mesh axes split each argument's dimensions; ``f`` sees its device's
    block, and may call collectives over the mesh axes (``lax.psum``, ``all_gather``,
    ``ppermute``, ...). ``out_specs`` (a prefix of the results) says how the result blocks
    concatenate; an axis a spec does not name means the result is the same on every device
    along it, which ``check_vma`` verifies statically. ``mesh`` defaults to the one set with
    ``jax.set_mesh``. Usable as ``shard_map(f, ...)`` and as ``@shard_map(...)``; the result
    keeps ``f``'s signature.
    """

    def wrap(fun: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fun)
        def mapped(*args: P.args, **kwargs: P.kwargs) -> R:
            if kwargs:
                raise TypeError(
                    f"shard_map-decorated function {getattr(fun, '__name__', fun)} takes positional arguments only "
                    f"(in_specs describes them); got keyword arguments {sorted(kwargs)}."
                )
            out: R = apply_shard_map(fun, tuple(args), mesh, in_specs, out_specs, axis_names, check_vma)
            return out

        return mapped

    return wrap if f is None else wrap(f)
