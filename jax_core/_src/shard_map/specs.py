"""``shard_map``'s specs: matching them to arguments and results, the per-device shapes they
imply, and JAX's errors when they do not fit (each names the argument and the fix)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, cast

from jax_core._src.core.avals import ShapedArray
from jax_core._src.sharding.mesh import Mesh
from jax_core._src.sharding.partition_spec import PartitionSpec
from jax_core._src.tree.errors import prefix_errors
from jax_core._src.tree.tree_util import tree_flatten, tree_map

AxisName = Any


def is_spec_leaf(x: Any) -> bool:
    """``PartitionSpec``s and ``None`` are leaves of a specs pytree."""
    return x is None or isinstance(x, PartitionSpec)


def broadcast_specs(specs: Any, tree: Any, what: str) -> list[PartitionSpec | None]:
    """One spec per leaf of ``tree`` (``specs`` is a prefix of it); JAX's pytree structure error
    naming ``shard_map {what}`` otherwise."""
    # ``None`` is a spec (replicated), not an empty subtree.
    specs = tree_map(lambda s: PartitionSpec() if s is None else s, specs, is_leaf=is_spec_leaf)
    errors = prefix_errors(specs, tree, is_leaf=is_spec_leaf)
    if errors:
        raise errors[0](f"shard_map {what}")
    leaves, treedef = tree_flatten(specs, is_leaf=is_spec_leaf)
    out: list[PartitionSpec | None] = []
    for spec, sub in zip(leaves, treedef.flatten_up_to(tree), strict=True):
        out.extend([spec] * len(tree_flatten(sub)[0]))
    return out


def entry_names(entry: Any) -> tuple[AxisName, ...]:
    """The mesh axes one spec entry names (a name or a tuple of names)."""
    return cast("tuple[AxisName, ...]", entry) if isinstance(entry, tuple) else (entry,)  # type: ignore[redundant-cast]


def spec_axes(spec: PartitionSpec) -> list[AxisName]:
    """Every mesh axis ``spec`` names, in order."""
    names: list[AxisName] = []
    for entry in spec:
        if entry is None or entry is PartitionSpec.UNCONSTRAINED:
            continue
        names.extend(entry_names(entry))
    return names


def dim_factor(mesh: Mesh, entry: Any) -> int:
    """How many blocks a dimension is split into under one spec entry."""
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return 1
    n = 1
    for name in entry_names(entry):
        n *= mesh.shape[name]
    return n


def check_names(specs: Sequence[PartitionSpec | None], manual: frozenset[AxisName], what: str) -> None:
    """Each spec names only manual mesh axes (JAX's error names the first offender)."""
    for spec in specs:
        if spec is None:
            continue
        for name in spec_axes(spec):
            if name not in manual:
                raise ValueError(
                    f"shard_map {what} argument must refer to an axis marked as manual ({manual}), but:\n\n"
                    f"  {what} refers to {name!r}\n\nCheck the {what} values passed to shard_map."
                )


def _arg_description(fun: Callable[..., Any], i: int, shape: str = "") -> str:
    """``args[i]{shape}, where args[i] is bound to f's parameter 'a',`` as JAX names an argument."""
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return f"args[{i}]{shape}"
    name = getattr(fun, "__name__", "fun")
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if i < len(positional):
        return f"args[{i}]{shape} where args[{i}] is bound to {name}'s parameter '{positional[i].name}',"
    return f"args[{i}]{shape}"


def _short(aval: ShapedArray) -> str:
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]"


def check_in_avals(
    fun: Callable[..., Any], mesh: Mesh, specs: Sequence[PartitionSpec | None], avals: Sequence[ShapedArray], arg_index: Sequence[int]
) -> None:
    """Ranks and divisibility of the arguments under ``in_specs`` (JAX's messages)."""
    name = getattr(fun, "__name__", "fun")
    for spec, aval, i in zip(specs, avals, arg_index, strict=True):
        if spec is None:
            continue
        if len(spec) > aval.ndim:
            raise ValueError(
                f"shard_map applied to the function '{name}' was given an in_specs entry which is too long to be "
                "compatible with the corresponding input value from the function:\n\n"
                f"in_specs is {spec} which has length {len(spec)}, but the passed {_arg_description(fun, i, ',')} "
                f"has shape {_short(aval)}, which has rank {aval.ndim} (and {aval.ndim} < {len(spec)})\n\n"
                "Entries in in_specs must be of length no greater than the number of axes in the corresponding "
                f"input value.\n\nEither revise the spec to be shorter, or modify '{name}' so that its inputs have "
                "sufficient rank."
            )
        for d, entry in enumerate(spec):
            factor = dim_factor(mesh, entry)
            if aval.shape[d] % factor:
                axes = entry_names(entry)
                where = (
                    f"mesh axis {axes[0]!r} (of size {factor})" if len(axes) == 1
                    else f"mesh axes {axes} (of total size {factor})"
                )  # fmt: skip
                raise ValueError(
                    f"shard_map applied to the function '{name}' was given argument arrays with axis sizes that are "
                    "not evenly divisible by the corresponding mesh axis sizes:\n\n"
                    f"The mesh given has shape {tuple(mesh.devices.shape)} with corresponding axis names "
                    f"{tuple(mesh.axis_names)}.\n\n"
                    f"the passed {_arg_description(fun, i, f' of shape {_short(aval)},')} corresponds to in_specs of "
                    f"value {spec}, which maps array axis {d} (of size {aval.shape[d]}) "
                    f"to {where}, but {factor} does not evenly divide {aval.shape[d]}\n\n"
                    "Array arguments' axis sizes must be evenly divisible by the mesh axis or axes indicated by the "
                    "corresponding elements of the argument's in_specs entry. Consider checking that in_specs are "
                    f"correct, and if so consider changing the mesh axis sizes or else padding the input and adapting "
                    f"'{name}' appropriately."
                )


def check_out_avals(
    name: str,
    mesh: Mesh,
    specs: Sequence[PartitionSpec | None],
    avals: Sequence[ShapedArray],
    manual: frozenset[AxisName],
    check_vma: bool,
    single: bool = False,
) -> None:
    """Ranks of the results under ``out_specs``, and (``check_vma``) that a result the specs
    claim is replicated over an axis does not vary over it (``single``: the function returns one
    array, which JAX's messages name without an index)."""
    for i, (spec, aval) in enumerate(zip(specs, avals, strict=True)):
        index = "" if single else f"[{i}]"
        if spec is None:
            continue
        if len(spec) > aval.ndim:
            raise ValueError(
                f"shard_map applied to the function '{name}' was given an out_specs entry which is too long to be "
                "compatible with the corresponding output value from the function:\n\n"
                f"out_specs{index} is {spec} which has length {len(spec)}, but {name}(*args){index} has shape "
                f"{_short(aval)}, which has rank {aval.ndim} (and {aval.ndim} < {len(spec)})\n\n"
                "Entries in out_specs must be of length no greater than the number of axes in the corresponding "
                f"output value.\n\nEither revise the spec to be shorter, or modify '{name}' so that its outputs have "
                "sufficient rank.\n\nFor scalar values (rank 0), consider using an out_specs entry of `P()`, where "
                "`P = jax.sharding.PartitionSpec`. In particular, for rank 0 outputs which are not constant over the "
                "mesh, add at least one (singleton) axis to them so that they can be concatenated using out_specs."
            )
        if not check_vma:
            continue
        named = set(spec_axes(spec))
        lies = [a for a in mesh.axis_names if a in manual and a in aval.vma and a not in named]
        if lies:
            mentioned = "{" + ", ".join(str(a) for a in mesh.axis_names if a in named) + "}"
            varying = "{" + ", ".join(str(a) for a in lies) + "}"
            raise ValueError(
                f"shard_map applied to the function '{name}' was given out_specs which require replication which "
                "can't be statically inferred given the mesh:\n\n"
                f"The mesh given has shape {tuple(mesh.devices.shape)} with corresponding axis names "
                f"{tuple(mesh.axis_names)}.\n\n"
                f"out_specs is {spec} which implies that the corresponding output value is only varying across "
                f"mesh axes {mentioned} and not {varying}, but it was inferred to be possibly varying over {varying}\n\n"
                "Check if these output values are meant to be replicated over those mesh axes. If not, consider "
                "revising the corresponding out_specs entries. If so, consider disabling the check by passing the "
                "check_vma=False argument to `jax.shard_map`."
            )


def local_aval(mesh: Mesh, spec: PartitionSpec | None, aval: ShapedArray, vma: frozenset[AxisName]) -> ShapedArray:
    """The per-device aval of an argument: each dimension divided by its spec entry's axes, varying
    over the axes the spec names (when checked)."""
    if spec is None:
        return aval.update(vma=vma)
    shape = tuple(s // dim_factor(mesh, spec[d]) if d < len(spec) else s for d, s in enumerate(aval.shape))
    return ShapedArray(shape, aval.dtype, aval.weak_type, vma)


def global_aval(mesh: Mesh, spec: PartitionSpec | None, aval: ShapedArray) -> ShapedArray:
    """The global aval of a result: each dimension multiplied by its spec entry's axes."""
    if spec is None:
        return ShapedArray(aval.shape, aval.dtype, aval.weak_type)
    shape = tuple(s * dim_factor(mesh, spec[d]) if d < len(spec) else s for d, s in enumerate(aval.shape))
    return ShapedArray(shape, aval.dtype, aval.weak_type)
