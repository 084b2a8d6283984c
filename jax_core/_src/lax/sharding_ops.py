"""``with_sharding_constraint``: how a value must be laid out over a mesh at one point of a
computation (``sharding_constraint_p``).

Eagerly it moves the value there (a committed array with that sharding). Under ``jit`` it is
an ``sdy.sharding_constraint`` the partitioner honours, and a ``jit`` whose arguments name no
mesh runs over the constraint's (``transforms/jit_shardings.py``). It is linear: its transpose
constrains the cotangent the same way, and under ``vmap`` the batch dimension is left
unconstrained.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeVar, cast, final

from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.primitive import Primitive, Rules
from jax_core._src.interpreters.ad_util import instantiate_zeros, linear_jvp, linear_transpose
from jax_core._src.lib.mlir import ir
from jax_core._src.lowering import sdy
from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext, module_context
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.sharding.shardings import NamedSharding, Sharding
from jax_core._src.tree.tree_util import broadcast_prefix, tree_flatten, tree_unflatten

T = TypeVar("T")


@final
class _NoMesh:
    """The ``context_mesh`` param when no mesh is set (JAX prints the empty mesh as ``Mesh()``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Mesh()"


NO_MESH: Final = _NoMesh()


def _abstract_eval(x: ShapedArray, *, sharding: Sharding, layout: Any, context_mesh: Any, unconstrained_dims: frozenset[int]) -> ShapedArray:
    return x


def _impl(x: Any, *, sharding: Sharding, layout: Any, context_mesh: Any, unconstrained_dims: frozenset[int]) -> Any:
    from jax_core._src.runtime.transfer import device_put

    return device_put(x, sharding)


def _spec_with_unconstrained(spec: PartitionSpec, ndim: int, unconstrained: frozenset[int]) -> PartitionSpec:
    entries: list[Any] = [spec[d] if d < len(spec) else None for d in range(ndim)]
    for d in unconstrained:
        entries[d] = PartitionSpec.UNCONSTRAINED
    while entries and entries[-1] is None:
        entries.pop()
    return PartitionSpec(*entries)


def _lower(
    ctx: LoweringRuleContext, x: ir.Value[ir.Type], *, sharding: Sharding, layout: Any, context_mesh: Any, unconstrained_dims: frozenset[int]
) -> ir.Value[ir.Type]:
    mesh_shape = module_context().mesh_shape
    if mesh_shape is None or sharding.num_devices == 1:
        return x  # one device: nothing to constrain
    if not isinstance(sharding, NamedSharding) or sharding.mesh.shape_tuple != mesh_shape:
        raise NotImplementedError(
            f"jax_core lowers sharding constraints with a NamedSharding over the computation's mesh "
            f"{dict(mesh_shape)} only; got {sharding}."
        )
    ndim = ctx.avals_in[0].ndim
    return sdy.sharding_constraint(x, _spec_with_unconstrained(sharding.spec, ndim, unconstrained_dims), ndim)


def _batch(
    args: Sequence[Any], dims: Sequence[int | None], *, sharding: Sharding, layout: Any, context_mesh: Any, unconstrained_dims: frozenset[int]
) -> tuple[Any, int | None]:
    (x,), (d,) = args, dims
    if d is None:
        return sharding_constraint_p.bind(
            x, sharding=sharding, layout=layout, context_mesh=context_mesh, unconstrained_dims=unconstrained_dims
        ), None
    if not isinstance(sharding, NamedSharding):
        raise NotImplementedError(f"vmap of with_sharding_constraint with {sharding} is not supported by jax_core")
    ndim = len(x.shape)
    entries: list[Any] = [sharding.spec[i] if i < len(sharding.spec) else None for i in range(ndim - 1)]
    entries.insert(d, PartitionSpec.UNCONSTRAINED)
    moved = frozenset({i + 1 if i >= d else i for i in unconstrained_dims} | {d})
    out = sharding_constraint_p.bind(
        x,
        sharding=sharding.with_spec(PartitionSpec(*entries)),
        layout=layout,
        context_mesh=context_mesh,
        unconstrained_dims=moved,
    )
    return out, d


def _pp(params: dict[str, Any]) -> list[tuple[str, Any]]:
    dims = sorted(params["unconstrained_dims"])
    return [
        ("context_mesh", params["context_mesh"]),
        ("layout", params["layout"]),
        ("sharding", params["sharding"]),
        ("unconstrained_dims", "frozenset({" + ", ".join(map(str, dims)) + "})"),
    ]


def _constrain_cotangent(ct: Any, **params: Any) -> Any:
    return sharding_constraint_p.bind(instantiate_zeros(ct), **params)


sharding_constraint_p: Primitive = Primitive("sharding_constraint")
sharding_constraint_p.def_rules(
    Rules(
        abstract_eval=_abstract_eval,
        lower=_lower,
        impl=_impl,
        jvp=linear_jvp(sharding_constraint_p),
        transpose=linear_transpose(_constrain_cotangent),
        batch=_batch,
        pp=_pp,
    )
)


def _resolve(s: Any) -> Sharding:
    if isinstance(s, Sharding):
        return s
    if isinstance(s, PartitionSpec):
        from jax_core._src.sharding import mesh_context

        mesh = mesh_context.get_concrete_mesh()
        if mesh is None:
            raise RuntimeError(
                "with_sharding_constraint requires a non-empty mesh in context if you are passing "
                "`PartitionSpec`s to shardings. You can define a context mesh via `jax.set_mesh(mesh)`. "
                "Alternatively, provide `Sharding`s to shardings and then the mesh context manager is not required."
            )
        return NamedSharding(mesh, s)
    raise ValueError(
        f"with_sharding_constraint's shardings must be Sharding or PartitionSpec (or a pytree of them); got {s!r}"
    )


def with_sharding_constraint(x: T, shardings: Any) -> T:
    """``x`` (a pytree of arrays) laid out as ``shardings`` (a prefix pytree of ``Sharding``s, or
    ``PartitionSpec``s under ``jax.set_mesh``) at this point of the computation. Eagerly the
    arrays move there; under ``jit`` XLA's partitioner honours it."""
    leaves, tree = tree_flatten(x)
    targets = broadcast_prefix(shardings, x, is_leaf=lambda s: s is None or isinstance(s, (Sharding, PartitionSpec)))
    outs: list[Any] = []
    for leaf, target in zip(leaves, targets, strict=True):
        s = _resolve(target)
        ndim = len(getattr(leaf, "shape", ()))
        s._check_compatible_rank(ndim)  # pyright: ignore[reportPrivateUsage]
        shape = tuple(getattr(leaf, "shape", ()))
        try:
            s.shard_shape(shape)
        except ValueError as err:
            raise type(err)(f"One of pjit outputs with pytree key path result was given the sharding {err}.") from None
        outs.append(
            sharding_constraint_p.bind(leaf, sharding=s, layout=None, context_mesh=_context_mesh(), unconstrained_dims=frozenset())
        )
    out: T = tree_unflatten(tree, outs)
    return out


def _context_mesh() -> Any:
    from jax_core._src.sharding import mesh_context

    mesh = mesh_context.get_concrete_mesh()
    return NO_MESH if mesh is None else mesh


def reshard(xs: T, out_shardings: Any) -> T:
    """``xs`` (a pytree) moved to ``out_shardings`` (a prefix pytree of ``Sharding``s, or
    ``PartitionSpec``s under ``jax.set_mesh``), for meshes whose axes are ``AxisType.Explicit``:
    eagerly a transfer, under ``jit`` a sharding constraint. Naming an ``Auto`` or ``Manual``
    axis raises JAX's ``ValueError`` (use ``with_sharding_constraint`` for those)."""
    from jax_core._src.sharding.mesh import AxisType

    leaves, tree = tree_flatten(xs)
    targets = broadcast_prefix(out_shardings, xs, is_leaf=lambda s: s is None or isinstance(s, (Sharding, PartitionSpec)))
    outs: list[Any] = []
    for leaf, target in zip(leaves, targets, strict=True):
        s = _resolve(target)
        if isinstance(s, NamedSharding):
            types = dict(zip(s.mesh.axis_names, s.mesh.axis_types, strict=True))
            for entry in s.spec:
                names: tuple[Any, ...] = cast("tuple[Any, ...]", entry) if isinstance(entry, tuple) else (entry,)  # type: ignore[redundant-cast]
                for name in names:
                    if name is not None and name is not PartitionSpec.UNCONSTRAINED and types.get(name) is not AxisType.Explicit:
                        raise ValueError(
                            "PartitionSpec passed to reshard cannot contain axis names that are of type Auto or Manual. "
                            f"Got PartitionSpec: {s.spec} with axis name: {name} of type: AxisType.{types.get(name)!r}."
                        )
        outs.append(with_sharding_constraint(leaf, s))
    out: T = tree_unflatten(tree, outs)
    return out
