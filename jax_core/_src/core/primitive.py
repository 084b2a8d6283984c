"""``Primitive``: an operation the system knows, and ``Rules``: everything it knows about it.

Each primitive holds all of its rules in one ``Rules`` record (abstract evaluation,
lowering, and the transformation rules), registered with one ``def_rules`` call in
the module that defines the primitive. A rule left as ``None`` is unsupported, and
using it raises an error naming the primitive and the transformation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, TypeAlias, cast

from jax_core._src.core.avals import ShapedArray

if TYPE_CHECKING:
    from jaxlib.mlir import ir

    from jax_core._src.core.effects import Effects
    from jax_core._src.core.jaxpr import JaxprEqn
    from jax_core._src.lowering.lower_jaxpr import LoweringRuleContext


AbstractEvalRule: TypeAlias = Callable[..., ShapedArray | Sequence[ShapedArray]]
"""Computes the output aval(s) of a primitive from its input avals and params.

Called as ``rule(*avals, **params)``; the ``...`` lets each rule spell out the
params its primitive takes as keyword-only parameters.
"""

LowerRule: TypeAlias = Callable[
    Concatenate["LoweringRuleContext", ...], "ir.Value[ir.Type] | Sequence[ir.Value[ir.Type]]"
]
"""Emits StableHLO for one application of a primitive; returns its result value(s).

Called as ``rule(ctx, *operands, **params)`` with ``ir.Value`` operands.
"""

TransformRule: TypeAlias = Callable[..., Any]
"""A jvp, transpose, batching or partial-evaluation rule.

Their contracts are documented where rule authors find their helpers:
``interpreters/ad_util.py`` (jvp, transpose), ``interpreters/batching_util.py`` (batch)
and ``interpreters/partial_eval.py`` (``partial_eval``, only for higher-order primitives
whose inner jaxpr can be split; others are staged whole when any operand is unknown).
"""


PrintRule = Callable[[dict[str, Any]], Sequence[tuple[str, Any]]]
"""Which params an equation prints, in order, and how (default: all, sorted by name)."""

ForwardRule = Callable[..., Sequence[int | None]]
"""Staging: which input each output is, unchanged (``None``: computed); when every output
is an input the equation is not recorded (JAX's ``forwarding_rules``). Called as
``rule(*avals_in, **params)``."""

ConstFoldRule = Callable[..., Sequence[Any] | None]
"""Staging: the outputs computed now when some operands are literals, or ``None`` to record
the equation (JAX's ``const_fold_rules``); they become literals of the avals out. Called as
``rule(consts, avals_out, **params)`` with ``consts[i]`` the literal value of operand ``i``
(``None`` for variables)."""

DceRule = Callable[[Sequence[bool], "JaxprEqn"], tuple[list[bool], "JaxprEqn | None"]]
"""Dead-code elimination of one equation some of whose outputs are used (JAX's ``dce_rules``):
called as ``rule(used_outputs, eqn)``; returns which operands the replacement reads and the
replacement equation (binding only the used outputs, ``eqn.outvars`` filtered), or ``None`` to
drop it. Without a rule an equation with a used output is kept whole."""

EffectsRule = Callable[..., "Effects"]
"""The effects of one application, from its params (called as ``rule(**params)``); without a
rule, the union of the effects of the jaxprs among the params (none for a first-order
primitive)."""


VmaRule = Callable[..., "Sequence[frozenset[Any]]"]
"""Inside ``shard_map``: the mesh axes each output varies over, from the inputs' (called as
``rule(*avals_in, **params)``). Without a rule the outputs vary over the union of the inputs'
axes, and inputs that vary over fewer are cast with ``pvary`` first (JAX's auto ``pcast``)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """All the rules of one primitive. ``None`` means the primitive does not support it."""

    abstract_eval: AbstractEvalRule
    lower: LowerRule | None = None
    impl: Callable[..., Any] | None = None
    jvp: TransformRule | None = None
    transpose: TransformRule | None = None
    batch: TransformRule | None = None
    partial_eval: TransformRule | None = None
    pp: PrintRule | None = None
    forward: ForwardRule | None = None
    const_fold: ConstFoldRule | None = None
    dce: DceRule | None = None
    effects: EffectsRule | None = None
    vma: VmaRule | None = None


def carries_jaxprs(params: dict[str, Any]) -> bool:
    """Whether a primitive is higher-order (a jaxpr among its params): its outputs' variance
    comes from its jaxprs, not from the standard rule."""
    from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr

    for value in params.values():
        items: tuple[Any, ...] = tuple(cast("Sequence[Any]", value)) if isinstance(value, (tuple, list)) else (value,)
        if any(isinstance(item, (ClosedJaxpr, Jaxpr)) for item in items):
            return True
    return False


_ImplHook = Callable[["Primitive", Sequence[Any], dict[str, Any]], Any]
_default_impl: list[_ImplHook] = []


def set_default_impl(impl: _ImplHook) -> None:
    """Installs eager evaluation for primitives without their own ``impl`` (the runtime does)."""
    _default_impl[:] = [impl]


_registry: dict[str, Primitive] = {}


def all_primitives() -> Iterator[Primitive]:
    """Every primitive created so far, in creation order."""
    return iter(list(_registry.values()))


class Primitive:
    """A named operation; ``bind`` applies it in whatever trace is current."""

    __slots__ = ("name", "multiple_results", "_rules")

    name: str
    multiple_results: bool

    def __init__(self, name: str, *, multiple_results: bool = False) -> None:
        self.name = name
        self.multiple_results = multiple_results
        self._rules: Rules | None = None
        _registry.setdefault(name, self)

    def __repr__(self) -> str:
        return self.name

    def def_rules(self, rules: Rules) -> Rules:
        """Registers this primitive's rules (once, where the primitive is defined)."""
        if self._rules is not None:
            raise ValueError(f"rules for primitive '{self.name}' are already defined")
        self._rules = rules
        return rules

    @property
    def rules(self) -> Rules:
        """The registered rules."""
        if self._rules is None:
            raise NotImplementedError(f"primitive '{self.name}' has no rules registered")
        return self._rules

    def rule(self, kind: str) -> Callable[..., Any]:
        """The rule named ``kind`` (e.g. ``"jvp"``); raises naming the primitive if missing."""
        fn: Callable[..., Any] | None = getattr(self.rules, kind)
        if fn is None:
            raise NotImplementedError(
                f"Differentiation rule for '{self.name}' not implemented"
                if kind in ("jvp", "transpose")
                else f"The '{kind}' rule for primitive '{self.name}' is not implemented"
            )
        return fn

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive to ``args`` in the current trace."""
        from jax_core._src.core.trace import current_trace

        return current_trace().process_primitive(self, args, params)

    def abstract_eval(self, *avals: ShapedArray, **params: Any) -> list[ShapedArray]:
        """The output avals, always as a list."""
        out = self.rules.abstract_eval(*avals, **params)
        if self.multiple_results:
            assert not isinstance(out, ShapedArray)
            outs = list(out)
        else:
            assert isinstance(out, ShapedArray)
            outs = [out]
        rule = self.rules.vma
        if rule is not None:
            return [o.update(vma=v) for o, v in zip(outs, rule(*avals, **params), strict=True)]
        if any(a.vma for a in avals) and not carries_jaxprs(params):
            # Inside shard_map: the outputs vary wherever the (pvary-matched) inputs do.
            varying = frozenset[Any]().union(*(a.vma for a in avals))
            return [o.update(vma=varying) for o in outs]
        return outs

    def impl(self, *args: Any, **params: Any) -> Any:
        """Evaluates the primitive eagerly on concrete values."""
        own = self.rules.impl
        if own is not None:
            return own(*args, **params)
        return _default_impl[0](self, args, params)
