"""What a shape rule sees: the call's operands (``Operand``, ``Call``), the error a rule raises
(``ShapeError``), and the small helpers every family of rules shares. No mypy import."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jax_core.mypy_plugin._shape_spec import (
    Dim,
    Shape,
    Star,
    promote,
    scalar_promote,
)
from jax_core.mypy_plugin._shape_types import UNKNOWN, Static, tuple_items


@dataclass(frozen=True)
class Operand:
    """One argument: an array's shape, a Python scalar's kind, or a static value (or several
    arrays, for the list passed to ``concatenate``/``stack``)."""

    shape: Shape | None = None
    scalar: str | None = None
    value: Static = UNKNOWN
    items: tuple[Operand, ...] | None = None


@dataclass
class Call:
    """A call as rules see it: positional operands, and keyword operands by parameter name."""

    name: str
    args: list[Operand]
    kwargs: dict[str, Operand] = field(default_factory=dict[str, Operand])

    def get(self, i: int, name: str) -> Operand | None:
        if name in self.kwargs:
            return self.kwargs[name]
        return self.args[i] if i < len(self.args) else None

    def value(self, i: int, name: str, default: Static = None) -> Static:
        op = self.get(i, name)
        return default if op is None else op.value


class ShapeError(Exception):
    """The operands certainly cannot go together."""


Result = Shape | None
Rule = Callable[[Call], Result]
UNKNOWN_DIMS = (Star(None),)


def dims_of(s: Shape | None) -> tuple[Dim, ...] | None:
    return None if s is None or s.dims is None or s.dims == UNKNOWN_DIMS else s.dims


def fixed_dims(s: Shape | None) -> tuple[Dim, ...] | None:
    d = dims_of(s)
    return None if d is None or any(isinstance(x, Star) for x in d) else d


def axis_index(a: Static, rank: int) -> int | None:
    if isinstance(a, bool) or not isinstance(a, int):
        return None
    j = a + rank if a < 0 else a
    if not 0 <= j < rank:
        raise ShapeError(f"axis {a} is out of bounds for an array of rank {rank}")
    return j


def shapes_text(shapes: Sequence[Shape | None]) -> str:
    return " and ".join(str(s) for s in shapes if s is not None)


def dtype_of(ops: Sequence[Operand]) -> str:
    dtype: str | None = None
    scalars: list[str] = []
    for op in ops:
        if op.shape is not None:
            dtype = op.shape.dtype if dtype is None else promote(dtype, op.shape.dtype)
        elif op.scalar is not None:
            scalars.append(op.scalar)
    if dtype is None:
        return "Shaped"
    for s in scalars:
        dtype = scalar_promote(dtype, s)
    return dtype


def axes_of(value: Static, rank: int) -> list[int] | None:
    if value is None:
        return list(range(rank))
    items = tuple_items(value)
    if items is not None:
        out = [axis_index(v, rank) for v in items]
        return None if any(a is None for a in out) else [a for a in out if a is not None]
    a = axis_index(value, rank)
    return None if a is None else [a]
