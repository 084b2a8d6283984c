"""Pytree node types shared by the tree_util tests: registered once, at import (registration is
global and permanent), in a module of their own so that pickled PyTreeDefs name them by a stable
qualified name."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Any, NamedTuple

import jax_core.tree as jtree
import jax_core.tree_util as tu

# ---------------------------------------------------------------------------
# Module-level node types (registration is global and permanent, and pickling
# a PyTreeDef refers to them by qualified name).
# ---------------------------------------------------------------------------


class Point(NamedTuple):
    x: Any
    y: Any


@tu.register_pytree_node_class
class Box:
    """A node without keys: children get FlattenedIndexKey paths."""

    def __init__(self, v: Any, meta: str = "m") -> None:
        self.v = v
        self.meta = meta

    def tree_flatten(self) -> tuple[tuple[Any], str]:
        return (self.v,), self.meta

    @classmethod
    def tree_unflatten(cls, aux: str, children: tuple[Any, ...]) -> Box:
        return cls(children[0], aux)

    def __repr__(self) -> str:
        return f"Box({self.v!r}, {self.meta!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and (self.v, self.meta) == (other.v, other.meta)

    __hash__ = None  # type: ignore[assignment]


class Other:
    """A node with no children."""


tu.register_pytree_node(Other, lambda o: ((), None), lambda aux, ch: Other())


@tu.register_pytree_with_keys_class
class KBox:
    def __init__(self, a: Any, b: Any) -> None:
        self.a, self.b = a, b

    def tree_flatten_with_keys(self) -> tuple[tuple[tuple[Any, Any], ...], str]:
        return ((tu.GetAttrKey("a"), self.a), (tu.GetAttrKey("b"), self.b)), "aux"

    @classmethod
    def tree_unflatten(cls, aux: str, children: Iterable[Any]) -> KBox:
        return cls(*children)

    def __repr__(self) -> str:
        return f"KBox({self.a!r}, {self.b!r})"


class Pair:
    """Registered with register_pytree_with_keys and an explicit flatten_func."""

    def __init__(self, first: Any, second: Any) -> None:
        self.first, self.second = first, second


flatten_calls: list[str] = []


def _pair_flatten(p: Pair) -> tuple[list[Any], None]:
    flatten_calls.append("plain")
    return [p.first, p.second], None


def _pair_flatten_with_keys(p: Pair) -> tuple[list[tuple[Any, Any]], None]:
    flatten_calls.append("keys")
    return [(tu.DictKey("first"), p.first), (tu.DictKey("second"), p.second)], None


tu.register_pytree_with_keys(
    Pair, _pair_flatten_with_keys, lambda aux, ch: Pair(*ch), _pair_flatten
)


class SBox:
    def __init__(self, s: str) -> None:
        self.s = s

    def __hash__(self) -> int:
        return hash(self.s)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SBox) and other.s == self.s

    def __repr__(self) -> str:
        return f"SBox({self.s!r})"


assert tu.register_static(SBox) is SBox


@tu.register_dataclass
@dataclasses.dataclass
class DC:
    x: Any
    y: Any
    name: str = dataclasses.field(default="n", metadata={"static": True})


@tu.register_dataclass
@dataclasses.dataclass
class DCStatic:
    x: Any
    op: str = jtree.static(default="add")


@dataclasses.dataclass
class DCDrop:
    x: Any
    cache: int = 0
    s: str = jtree.static(default="q")


tu.register_dataclass(DCDrop, drop_fields=["cache"])


@functools.partial(tu.register_dataclass, data_fields=["a"], meta_fields=["b"])
class Plain:
    def __init__(self, a: Any, b: str) -> None:
        self.a, self.b = a, b

    def __repr__(self) -> str:
        return f"Plain({self.a!r}, {self.b!r})"


def _first(*args: Any) -> Any:
    return args[0]
