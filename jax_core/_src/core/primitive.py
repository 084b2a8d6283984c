"""``Primitive``: an operation the system knows, and ``Rules``: everything it knows about it.

Each primitive holds all of its rules in one ``Rules`` record (abstract evaluation,
lowering, and the transformation rules), registered with one ``def_rules`` call in
the module that defines the primitive. A rule left as ``None`` is unsupported, and
using it raises an error naming the primitive and the transformation.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Concatenate, TypeAlias, TypeVar, cast

from jax_core._src.core.avals import ShapedArray

if TYPE_CHECKING:
    from jaxlib.mlir import ir

    from jax_core._src.core.trace import Trace
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

EffectfulAbstractEvalRule = Callable[..., "tuple[ShapedArray | Sequence[ShapedArray], Effects]"]
"""Output aval(s) and effects, called as ``rule(*avals, **params)`` (JAX's
``def_effectful_abstract_eval``)."""

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
    """All the rules of one primitive. ``None`` means the primitive does not support it.

    ``jax_core.extend`` and ``jax_core.interpreters`` write into this same record: JAX's
    ``def_impl``/``def_abstract_eval``, ``ad.primitive_jvps[p] = ...``,
    ``batching.primitive_batchers[p] = ...`` and ``mlir.register_lowering(p, ...)`` each set one
    field (see ``Primitive.update_rules``).
    """

    abstract_eval: AbstractEvalRule | None = None
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
    effectful_abstract_eval: EffectfulAbstractEvalRule | None = None
    """JAX's ``def_effectful_abstract_eval``: output aval(s) and effects from the input avals
    and params (then ``abstract_eval`` reads its avals and an equation's effects its effects)."""


def carries_jaxprs(params: dict[str, Any]) -> bool:
    """Whether a primitive is higher-order (a jaxpr among its params): its outputs' variance
    comes from its jaxprs, not from the standard rule."""
    from jax_core._src.core.jaxpr import ClosedJaxpr, Jaxpr

    for value in params.values():
        items: tuple[Any, ...] = tuple(cast("Sequence[Any]", value)) if isinstance(value, (tuple, list)) else (value,)
        if any(isinstance(item, (ClosedJaxpr, Jaxpr)) for item in items):
            return True
    return False


ImplT = TypeVar("ImplT", bound=Callable[..., Any])
AbstractEvalT = TypeVar("AbstractEvalT", bound=AbstractEvalRule)
EffectfulAbstractEvalT = TypeVar("EffectfulAbstractEvalT", bound=EffectfulAbstractEvalRule)

_ImplHook = Callable[["Primitive", Sequence[Any], dict[str, Any]], Any]
_default_impl: list[_ImplHook] = []


def set_default_impl(impl: _ImplHook) -> None:
    """Installs eager evaluation for primitives without their own ``impl`` (the runtime does)."""
    _default_impl[:] = [impl]


_registry: dict[str, Primitive] = {}


def all_primitives() -> Iterator[Primitive]:
    """Every primitive created so far, in creation order."""
    return iter(list(_registry.values()))


def is_own_primitive(prim: Primitive) -> bool:
    """Whether ``prim`` is one of jax_core's (created in its package), not a user's
    (``jax_core.extend.core.Primitive("...")``): the registry contract holds for jax_core's."""
    return prim._module.startswith("jax_core.")  # pyright: ignore[reportPrivateUsage]


class Primitive:
    """A named operation; ``bind`` applies it in whatever trace is current."""

    __slots__ = ("name", "multiple_results", "_rules", "_module")

    name: str
    multiple_results: bool
    call_primitive: bool = False
    """Whether it calls a jaxpr given among its params (JAX's flag; jax_core reads the params)."""
    map_primitive: bool = False
    """Whether it maps a jaxpr over an axis (JAX's flag; always ``False`` here)."""

    def __init__(self, name: str, *, multiple_results: bool = False) -> None:
        self.name = name
        self.multiple_results = multiple_results
        self._rules: Rules | None = None
        self._module: str = sys._getframe(1).f_globals.get("__name__", "")  # pyright: ignore[reportPrivateUsage]
        _registry.setdefault(name, self)

    def __repr__(self) -> str:
        return self.name

    def def_rules(self, rules: Rules) -> Rules:
        """Registers this primitive's rules (once, where the primitive is defined)."""
        if self._rules is not None:
            raise ValueError(f"rules for primitive '{self.name}' are already defined")
        self._rules = rules
        return rules

    def update_rules(self, **rules: Any) -> Rules:
        """Sets some fields of the ``Rules`` record, keeping the others: how JAX's one-rule-at-a-time
        registration (``def_impl``, ``ad.primitive_jvps[p] = ...``, ``register_lowering``) writes
        into the same record ``def_rules`` defines."""
        current = self._rules if self._rules is not None else Rules()
        self._rules = dataclasses.replace(current, **rules)
        return self._rules

    def def_impl(self, impl: ImplT) -> ImplT:
        """JAX's ``def_impl``: eager evaluation on concrete values (``Rules.impl``); returns ``impl``."""
        self.update_rules(impl=impl)
        return impl

    def def_abstract_eval(self, abstract_eval: AbstractEvalT) -> AbstractEvalT:
        """JAX's ``def_abstract_eval``: the output aval(s) from the input avals and params
        (``Rules.abstract_eval``); returns the rule, so it works as a decorator."""
        self.update_rules(abstract_eval=abstract_eval, effectful_abstract_eval=None)
        return abstract_eval

    def def_effectful_abstract_eval(self, rule: EffectfulAbstractEvalT) -> EffectfulAbstractEvalT:
        """JAX's ``def_effectful_abstract_eval``: ``rule(*avals, **params)`` returns the output
        aval(s) and the application's effects; returns the rule."""

        def avals_only(*avals: ShapedArray, **params: Any) -> ShapedArray | Sequence[ShapedArray]:
            return rule(*avals, **params)[0]

        self.update_rules(abstract_eval=avals_only, effectful_abstract_eval=rule)
        return rule

    def effects_of(self, avals: Sequence[ShapedArray], params: dict[str, Any]) -> Effects:
        """The effects of applying it to values of ``avals`` with ``params``."""
        from jax_core._src.core.jaxpr import params_effects

        rules = self.rules
        if rules.effectful_abstract_eval is not None:
            return rules.effectful_abstract_eval(*avals, **params)[1]
        if rules.effects is not None:
            return rules.effects(**params)
        return params_effects(params)

    def is_effectful(self, params: dict[str, Any]) -> bool:
        """Whether an application with ``params`` may have effects (as JAX's: only primitives that
        declare effects can)."""
        rules = self.rules
        return rules.effectful_abstract_eval is not None or rules.effects is not None or carries_jaxprs(params)

    def get_bind_params(self, params: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """JAX's hook for call primitives: the extra positional operands and the params ``bind``
        takes to re-apply an equation with ``params`` (here: none, and the params as they are)."""
        return [], dict(params)

    def bind_with_trace(self, trace: Trace, args: Sequence[Any], params: dict[str, Any]) -> Any:
        """Applies the primitive to ``args`` in ``trace`` (rather than the current one)."""
        return trace.process_primitive(self, args, params)

    @property
    def rules(self) -> Rules:
        """The registered rules."""
        if self._rules is None:
            raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")
        return self._rules

    def rule(self, kind: str) -> Callable[..., Any]:
        """The rule named ``kind`` (e.g. ``"jvp"``); raises naming the primitive if missing."""
        fn: Callable[..., Any] | None = getattr(self.rules, kind)
        if fn is None:
            raise NotImplementedError(_MISSING.get(kind, "The '{kind}' rule for primitive '{name}' is not implemented").format(kind=kind, name=self.name))
        return fn

    def bind(self, *args: Any, **params: Any) -> Any:
        """Applies the primitive to ``args`` in the current trace."""
        from jax_core._src.core.trace import current_trace

        return current_trace().process_primitive(self, args, params)

    def abstract_eval(self, *avals: ShapedArray, **params: Any) -> list[ShapedArray]:
        """The output avals, always as a list."""
        rule = self.rules.abstract_eval
        if rule is None:
            raise NotImplementedError(f"Abstract evaluation for '{self.name}' not implemented")
        try:
            out = rule(*avals, **params)
        except TypeError as e:
            raise_if_misfit(self, "abstract evaluation", rule, avals, params, e)
            raise
        outs = _checked_avals(self, out)
        vma_rule = self.rules.vma
        if vma_rule is not None:
            return [o.update(vma=v) for o, v in zip(outs, vma_rule(*avals, **params), strict=True)]
        if any(a.vma for a in avals) and not carries_jaxprs(params):
            # Inside shard_map: the outputs vary wherever the (pvary-matched) inputs do.
            varying = frozenset[Any]().union(*(a.vma for a in avals))
            return [o.update(vma=varying) for o in outs]
        return outs

    def impl(self, *args: Any, **params: Any) -> Any:
        """Evaluates the primitive eagerly on concrete values."""
        if self._rules is None:
            raise NotImplementedError(f"Evaluation rule for '{self.name}' not implemented")
        own = self._rules.impl
        if own is not None:
            return own(*args, **params)
        return _default_impl[0](self, args, params)


_MISSING = {
    "jvp": "Differentiation rule for '{name}' not implemented",
    "transpose": "Transpose rule (for reverse-mode differentiation) for '{name}' not implemented",
    "batch": "Batching rule for '{name}' not implemented",
}


def raise_if_misfit(
    prim: Primitive, kind: str, rule: Callable[..., Any], args: Sequence[object], params: dict[str, Any], error: TypeError
) -> None:
    """After ``rule(*args, **params)`` raised ``error``: a ``TypeError`` naming the primitive and
    the rule when the rule does not take those arguments (a rule written for another arity or
    other params), rather than Python's message about an anonymous function."""
    import inspect

    try:
        inspect.signature(rule).bind(*args, **params)
    except TypeError as misfit:
        name = getattr(rule, "__qualname__", repr(rule))
        raise TypeError(
            f"The {kind} rule of primitive '{prim.name}' ({name}) cannot be called with {len(args)} "
            f"operands and params {sorted(params)}: {misfit}"
        ) from error
    except ValueError:  # no signature to check (a builtin): the original error stands
        return


def _checked_avals(prim: Primitive, out: object) -> list[ShapedArray]:
    """The output avals an abstract-eval rule returned, as a list; a ``TypeError`` naming the
    primitive when they are not avals (or not a sequence of them for ``multiple_results``)."""
    if prim.multiple_results:
        if isinstance(out, (list, tuple)) and all(isinstance(o, ShapedArray) for o in cast("Sequence[object]", out)):
            return list(cast("Sequence[ShapedArray]", out))
        want = "a sequence of avals (ShapedArray), as multiple_results=True"
    else:
        if isinstance(out, ShapedArray):
            return [out]
        want = "one aval (ShapedArray)" + (", as multiple_results=False" if isinstance(out, (list, tuple)) else "")
    raise TypeError(f"The abstract evaluation rule of primitive '{prim.name}' must return {want}; got {out!r}")
