"""Effects: what an equation does besides computing its outputs (JAX's ``effects`` module).

An equation with an effect is never removed by dead-code elimination, even when nothing reads
its outputs (it may have none). A jaxpr's effects are the union of its equations' effects; a
higher-order primitive (``jit``, ``cond``, ``scan``, ...) has the effects of the jaxprs it
applies unless its ``Rules.effects`` says otherwise.

Effects of a type registered in ``ordered_effects`` happen in program order: the lowering threads
one token per ordered effect through the operations that have it (into and out of nested calls
and control flow), and the dispatcher passes the token of each ordered effect from one compiled
computation to the next (``runtime/tokens.py``). Unordered effects only keep their equations
alive, and ``effects_barrier`` waits for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import TypeAlias


class Effect:
    """A side effect an equation has (a subclass per kind; instances compare by identity)."""

    __slots__ = ()


Effects: TypeAlias = Set[Effect]
"""A set of effects (what ``jaxpr.effects`` and ``eqn.effects`` are)."""

no_effects: Effects = frozenset()
"""The empty set of effects."""


class EffectTypeSet:
    """A set of effect *types* (e.g. the ordered ones), tested by ``isinstance``."""

    __slots__ = ("_types",)

    def __init__(self) -> None:
        self._types: set[type[Effect]] = set()

    def __repr__(self) -> str:
        return f"EffectTypeSet({sorted(t.__name__ for t in self._types)})"

    def add_type(self, effect_type: type[Effect]) -> None:
        """Adds ``effect_type`` (and its subclasses) to the set."""
        self._types.add(effect_type)

    def contains(self, effect: Effect) -> bool:
        """Whether ``effect`` is of a type in the set."""
        return isinstance(effect, tuple(self._types))

    def filter_in(self, effects: Iterable[Effect]) -> list[Effect]:
        """The effects of ``effects`` whose type is in the set, in order."""
        return [e for e in effects if self.contains(e)]

    def filter_not_in(self, effects: Iterable[Effect]) -> list[Effect]:
        """The effects of ``effects`` whose type is not in the set, in order."""
        return [e for e in effects if not self.contains(e)]


ordered_effects: EffectTypeSet = EffectTypeSet()
"""Effect types that happen in program order (a token is threaded for each)."""

control_flow_allowed_effects: EffectTypeSet = EffectTypeSet()
"""Effect types allowed in the bodies of ``cond``/``while_loop``/``scan``."""

remat_allowed_effects: EffectTypeSet = EffectTypeSet()
"""Effect types allowed in a ``checkpoint``ed function."""

custom_derivatives_allowed_effects: EffectTypeSet = EffectTypeSet()
"""Effect types allowed in a ``custom_jvp``/``custom_vjp`` function."""

unrepeatable_effects: EffectTypeSet = EffectTypeSet()
"""Unordered effects that must not run for elements whose work is done (a ``vmap``ped
``while_loop`` with a batched predicate runs its body for every element: JAX's error)."""

partial_eval_kept_effects: EffectTypeSet = EffectTypeSet()
"""Effect types whose known equations ``checkpoint``'s split also replays where it recomputes
(debug callbacks: they show what the backward pass recomputes, as in JAX)."""


def ordered_in(effects: Iterable[Effect]) -> list[Effect]:
    """The ordered effects of ``effects``, each once, in a stable order (by type name): the
    order of the token parameters and results of a lowered computation."""
    return sorted(set(ordered_effects.filter_in(effects)), key=lambda e: (type(e).__module__, type(e).__qualname__, str(e)))
