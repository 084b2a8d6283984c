"""JAX's rule dictionaries (``ad.primitive_jvps``, ``batching.primitive_batchers``, ...) as views
of the one ``Rules`` record each primitive keeps.

``ad.primitive_jvps[p] = rule`` sets ``p``'s ``Rules.jvp``; reading ``primitive_jvps[p]`` gives
the rule ``def_rules`` registered, for jax_core's own primitives as for a user's. The rule
contracts are the ones ``Rules`` documents, which are JAX's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from typing import Any, Generic, TypeVar

from jax_core._src.core.primitive import Primitive, all_primitives

RuleT = TypeVar("RuleT", bound=Callable[..., Any])

_FIELDS = frozenset(
    ("abstract_eval", "lower", "impl", "jvp", "transpose", "batch", "partial_eval", "pp", "forward", "const_fold", "dce", "effects", "vma")
)


class RuleTable(MutableMapping[Primitive, RuleT], Generic[RuleT]):
    """A mapping from primitives to one kind of rule, stored in each primitive's ``Rules``."""

    __slots__ = ("field", "name")

    field: str
    """The ``Rules`` field the table reads and writes."""
    name: str
    """JAX's name for the table (for messages)."""

    def __init__(self, field: str, name: str) -> None:
        if field not in _FIELDS:
            raise ValueError(f"Rules has no field {field!r}")
        self.field = field
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}: {len(self)} primitives with a '{self.field}' rule>"

    def _get(self, prim: Primitive) -> RuleT | None:
        rules = prim._rules  # pyright: ignore[reportPrivateUsage]
        found: RuleT | None = None if rules is None else getattr(rules, self.field)
        return found

    def __getitem__(self, prim: Primitive) -> RuleT:
        if not isinstance(prim, Primitive):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{self.name} is keyed by Primitive; got {type(prim).__name__}")
        rule = self._get(prim)
        if rule is None:
            raise KeyError(prim)
        return rule

    def __setitem__(self, prim: Primitive, rule: RuleT) -> None:
        if not isinstance(prim, Primitive):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"{self.name} is keyed by Primitive; got {type(prim).__name__}")
        if not callable(rule):
            raise TypeError(f"{self.name}[{prim.name}] must be a callable rule; got {rule!r}")
        prim.update_rules(**{self.field: rule})

    def __delitem__(self, prim: Primitive) -> None:
        if self._get(prim) is None:
            raise KeyError(prim)
        prim.update_rules(**{self.field: None})

    def __iter__(self) -> Iterator[Primitive]:
        return (p for p in all_primitives() if self._get(p) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, prim: object) -> bool:
        return isinstance(prim, Primitive) and self._get(prim) is not None
