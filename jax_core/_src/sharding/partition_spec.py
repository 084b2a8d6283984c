"""Partition specs (``jax.sharding.PartitionSpec``): which mesh axes split each dimension.

A :class:`PartitionSpec` (alias :data:`P`) lists, per array dimension, ``None``, a
mesh axis name or a tuple of them; entries are canonicalized on construction
(``[]``/``()`` to ``None``, one-element sequences to the element). This module
also checks a spec against a :class:`~jax_core._src.sharding.mesh.Mesh`
(:func:`check_spec`, raising :class:`DuplicateSpecError`) and maps mesh axes to
the dimensions they split (:func:`array_mapping`), for
:class:`~jax_core._src.sharding.shardings.NamedSharding`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, NoReturn, TypeAlias, cast, final

from jax_core._src.sharding.jaxlib_types import AxisName
from jax_core._src.sharding.mesh import Mesh

__all__ = [
    "DuplicateSpecError",
    "P",
    "PartitionEntry",
    "PartitionSpec",
    "array_mapping",
    "check_spec",
]


class DuplicateSpecError(Exception):
    """A :class:`PartitionSpec` maps one mesh axis to more than one dimension."""

    def __init__(self, message: str, mesh: Mesh | None, pspec: PartitionSpec) -> None:
        super().__init__(message)
        self.message = message
        self.mesh = mesh
        self.pspec = pspec

    def __str__(self) -> str:
        return self.message


@final
class _UnconstrainedSingleton:
    """The type of ``PartitionSpec.UNCONSTRAINED``: the dimension's sharding is left to XLA."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNCONSTRAINED"

    def __reduce__(self) -> str:
        return "_UNCONSTRAINED"


_UNCONSTRAINED: Final = _UnconstrainedSingleton()

PartitionEntry: TypeAlias = AxisName | tuple[AxisName, ...] | None
"""One element of a :class:`PartitionSpec`: ``None`` (not sharded), a mesh axis
name, a tuple of mesh axis names, or ``PartitionSpec.UNCONSTRAINED``."""


def _canonicalize_partition(p: Any) -> PartitionEntry:
    if isinstance(p, (list, tuple)):
        items = tuple(cast(Iterable[AxisName], p))
        if not items:
            return None
        if len(items) == 1:
            return items[0]
        return items
    return cast(PartitionEntry, p)


@final
class PartitionSpec:
    """How each dimension of an array is split over the axes of a :class:`Mesh`.

    Each entry is ``None`` (the dimension is not split), a mesh axis name (split
    over that axis), or a tuple of axis names (split over all of them, the first
    major). Missing trailing entries mean ``None``. ``P()`` replicates the array
    on every device of the mesh.

    Example: ``PartitionSpec('x', None)`` splits dimension 0 over mesh axis ``'x'``.
    """

    __slots__ = ("_partitions", "reduced", "unreduced")

    UNCONSTRAINED: Final = _UNCONSTRAINED
    """A sentinel entry: leave this dimension's sharding to the compiler."""

    _partitions: tuple[PartitionEntry, ...]
    unreduced: frozenset[AxisName]
    reduced: frozenset[AxisName]

    def __init__(
        self,
        *partitions: PartitionEntry | list[AxisName],
        unreduced: frozenset[AxisName] | set[AxisName] = frozenset(),
        reduced: frozenset[AxisName] | set[AxisName] = frozenset(),
    ) -> None:
        parts = tuple(_canonicalize_partition(p) for p in partitions)
        ur = frozenset(unreduced)
        r = frozenset(reduced)
        if None in ur or None in r:
            raise ValueError("unreduced and reduced cannot contain None; they name mesh axes.")
        if ur & r:
            raise ValueError(
                "`unreduced` and `reduced` argument to PartitionSpec cannot overlap. "
                f"Got unreduced: {set(ur)} and reduced: {set(r)}"
            )
        object.__setattr__(self, "_partitions", parts)
        object.__setattr__(self, "unreduced", ur)
        object.__setattr__(self, "reduced", r)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"PartitionSpec is immutable: cannot set {name!r}")

    @property
    def partitions(self) -> tuple[PartitionEntry, ...]:
        """The per-dimension entries."""
        return self._partitions

    def __repr__(self) -> str:
        pr = repr(self._partitions)[1:-1]
        if not self.unreduced and not self.reduced:
            return f"P({pr})"
        extra: list[str] = []
        if self.unreduced:
            extra.append(f"unreduced={set(self.unreduced)!r}")
        if self.reduced:
            extra.append(f"reduced={set(self.reduced)!r}")
        pr = "" if not pr else f"{pr} " if pr.endswith(",") else f"{pr}, "
        return f"P({pr}{', '.join(extra)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartitionSpec):
            return False
        return (
            self._partitions == other._partitions
            and self.unreduced == other.unreduced
            and self.reduced == other.reduced
        )

    def __hash__(self) -> int:
        return hash((self._partitions, self.unreduced, self.reduced))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_make_partition_spec, (self._partitions, self.unreduced, self.reduced))

    def __len__(self) -> int:
        return len(self._partitions)

    def __getitem__(self, i: int) -> PartitionEntry:
        return self._partitions[i]

    def __iter__(self) -> Any:
        return iter(self._partitions)

    def __add__(self, other: PartitionSpec | tuple[PartitionEntry, ...]) -> PartitionSpec:
        if isinstance(other, PartitionSpec):
            return PartitionSpec(
                *self._partitions,
                *other._partitions,
                unreduced=self.unreduced | other.unreduced,
                reduced=self.reduced | other.reduced,
            )
        return PartitionSpec(
            *self._partitions, *other, unreduced=self.unreduced, reduced=self.reduced
        )

    def __radd__(self, other: tuple[PartitionEntry, ...]) -> PartitionSpec:
        return PartitionSpec(
            *other, *self._partitions, unreduced=self.unreduced, reduced=self.reduced
        )

    def index(self, value: PartitionEntry) -> int:
        """The position of the first entry equal to ``value``."""
        return self._partitions.index(_canonicalize_partition(value))

    def count(self, value: PartitionEntry) -> int:
        """The number of entries equal to ``value``."""
        return self._partitions.count(_canonicalize_partition(value))

    def _normalized(self, ndim: int) -> tuple[PartitionEntry, ...]:
        """The entries padded with ``None`` to ``ndim``, ``UNCONSTRAINED`` read as ``None``."""
        out = [None if p is _UNCONSTRAINED else p for p in self._partitions]
        out.extend([None] * (ndim - len(out)))
        return tuple(out)


P = PartitionSpec
"""Short alias of :class:`PartitionSpec`."""


def _make_partition_spec(
    partitions: tuple[PartitionEntry, ...],
    unreduced: frozenset[AxisName],
    reduced: frozenset[AxisName],
) -> PartitionSpec:
    return PartitionSpec(*partitions, unreduced=unreduced, reduced=reduced)


def _entry_axes(entry: PartitionEntry) -> tuple[AxisName, ...]:
    if entry is None or entry is _UNCONSTRAINED:
        return ()
    if isinstance(entry, tuple):
        return cast(tuple[AxisName, ...], entry)
    return (entry,)


def array_mapping(spec: PartitionSpec) -> dict[AxisName, int]:
    """``{mesh axis: array dimension it splits}``, in major-to-minor order."""
    out: dict[AxisName, int] = {}
    for dim, entry in enumerate(spec.partitions):
        for axis in _entry_axes(entry):
            out[axis] = dim
    return out


def _show_axes(axes: Iterable[AxisName]) -> str:
    return ", ".join(sorted(f"`{a}`" for a in axes))


def check_spec(mesh: Mesh, spec: PartitionSpec) -> None:
    """Raises if ``spec`` names a mesh axis twice or an axis ``mesh`` does not have."""
    counts: dict[AxisName, int] = {}
    for entry in spec.partitions:
        for axis in _entry_axes(entry):
            counts[axis] = counts.get(axis, 0) + 1
    duplicates = [a for a, c in counts.items() if c > 1]
    if duplicates:
        raise DuplicateSpecError(
            "A single NamedSharding spec specification can map every mesh axis to at most "
            f"one positional dimension, but {spec} has duplicate entries for {_show_axes(duplicates)}",
            mesh,
            spec,
        )
    for axis in counts:
        if axis not in mesh.axis_names:
            raise ValueError(
                f"Resource axis: {axis} of {spec} is not found in mesh: {tuple(mesh.shape.keys())}."
            )
    for axis in spec.unreduced | spec.reduced:
        if axis not in mesh.axis_names:
            raise ValueError(f"Unreduced/reduced axis {axis} is not found in {mesh.axis_names=}.")
