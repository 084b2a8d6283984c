"""The jaxpr IR (variables, literals, equations, jaxprs) and its text format.

Grammar, as JAX prints it::

    jaxpr ::= { lambda constvar* ; invar* . let eqn* in ( outvar* ) }
    eqn   ::= outvar* = primitive [ param=value* ] atom*
    atom  ::= var | literal            (a literal prints as ``2.0:f32[]``)

``eval_jaxpr`` interprets a jaxpr by binding each equation's primitive, so it is
itself traceable.
"""

from __future__ import annotations

import collections
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast

import numpy as np
from typing_extensions import TypeIs

from jax_core._src import dtypes
from jax_core._src.core.avals import ShapedArray
from jax_core._src.core.effects import Effect, Effects, no_effects
from jax_core._src.core.primitive import Primitive
from jax_core._src.core.source_info import SourceInfo, swap_source
from jax_core._src.lib import pretty_printer as pp

_var_ids = itertools.count()


class Var:
    """A jaxpr variable: an aval and an identity (names are assigned when printing)."""

    __slots__ = ("aval", "_id")

    aval: ShapedArray

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval
        self._id = next(_var_ids)

    def __repr__(self) -> str:
        return f"Var(id={self._id}):{self.aval.str_short()}"

    @property
    def order(self) -> int:
        """When the variable was made, relative to every other (increasing)."""
        return self._id


class Literal:
    """A scalar constant written inline in a jaxpr."""

    __slots__ = ("val", "aval")

    val: Any
    aval: ShapedArray

    def __init__(self, val: Any, aval: ShapedArray) -> None:
        self.val = val
        self.aval = aval

    def text(self) -> str:
        """The literal as JAX prints it, e.g. ``2.0:f32[]``."""
        val = self.val.item() if _is_numpy_value(self.val) else self.val
        return f"{val}:{self.aval.str_short()}"

    def __repr__(self) -> str:
        return f"Literal({self.text()})"


def _is_numpy_value(x: object) -> TypeIs[np.ndarray[Any, Any] | np.generic[Any]]:
    return isinstance(x, (np.ndarray, np.generic))


Atom: TypeAlias = Var | Literal
"""An operand of an equation: a variable or an inline literal."""


class JaxprEqn:
    """One equation: ``outvars = primitive[params] invars``."""

    __slots__ = ("invars", "outvars", "primitive", "params", "source_info", "_effects")

    invars: list[Atom]
    outvars: list[Var]
    primitive: Primitive
    params: dict[str, Any]
    source_info: SourceInfo | None

    def __init__(
        self,
        invars: list[Atom],
        outvars: list[Var],
        primitive: Primitive,
        params: dict[str, Any],
        source_info: SourceInfo | None,
    ) -> None:
        self.invars = invars
        self.outvars = outvars
        self.primitive = primitive
        self.params = params
        self.source_info = source_info
        self._effects: Effects | None = None

    @property
    def effects(self) -> Effects:
        """What the equation does besides computing its outputs (its primitive's ``effects`` rule,
        else the effects of the jaxprs among its params)."""
        found = self._effects
        if found is None:
            found = self._effects = self.primitive.effects_of([a.aval for a in self.invars], self.params)
        return found

    def __repr__(self) -> str:
        return pp.format(pp_eqn(self, NameContext()), 80)


class Jaxpr:
    """A function in the IR: constant and input variables, equations, outputs."""

    __slots__ = ("constvars", "invars", "outvars", "eqns", "_effects", "__weakref__")

    constvars: list[Var]
    invars: list[Var]
    outvars: list[Atom]
    eqns: list[JaxprEqn]

    def __init__(
        self,
        constvars: list[Var],
        invars: list[Var],
        outvars: list[Atom],
        eqns: list[JaxprEqn],
    ) -> None:
        self.constvars = constvars
        self.invars = invars
        self.outvars = outvars
        self.eqns = eqns
        self._effects: Effects | None = None

    @property
    def effects(self) -> Effects:
        """The union of its equations' effects."""
        found = self._effects
        if found is None:
            joined: set[Effect] = set()
            for eqn in self.eqns:
                joined.update(eqn.effects)
            found = self._effects = frozenset(joined) if joined else no_effects
        return found

    @property
    def in_avals(self) -> list[ShapedArray]:
        """The avals of the inputs."""
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list[ShapedArray]:
        """The avals of the outputs."""
        return [v.aval for v in self.outvars]

    def pretty_print(self, width: int = 80) -> str:
        """The jaxpr in JAX's text format."""
        return pp.format(pp_toplevel_jaxpr(self), width)

    def __str__(self) -> str:
        return self.pretty_print()

    __repr__ = __str__


class ClosedJaxpr:
    """A jaxpr together with the values of its constant variables."""

    __slots__ = ("jaxpr", "consts", "__weakref__")

    jaxpr: Jaxpr
    consts: list[Any]

    def __init__(self, jaxpr: Jaxpr, consts: Sequence[Any]) -> None:
        assert len(jaxpr.constvars) == len(consts)
        self.jaxpr = jaxpr
        self.consts = list(consts)

    @property
    def in_avals(self) -> list[ShapedArray]:
        """The avals of the inputs."""
        return self.jaxpr.in_avals

    @property
    def out_avals(self) -> list[ShapedArray]:
        """The avals of the outputs."""
        return self.jaxpr.out_avals

    @property
    def eqns(self) -> list[JaxprEqn]:
        """The equations."""
        return self.jaxpr.eqns

    @property
    def effects(self) -> Effects:
        """The effects of its jaxpr."""
        return self.jaxpr.effects

    def pretty_print(self, width: int = 80) -> str:
        """The jaxpr in JAX's text format."""
        return self.jaxpr.pretty_print(width)

    def __str__(self) -> str:
        return self.jaxpr.pretty_print()

    __repr__ = __str__


def params_effects(params: dict[str, Any]) -> Effects:
    """The union of the effects of the jaxprs among ``params`` (also inside tuples): the effects
    of a higher-order primitive's equation unless its rules say otherwise."""
    found: set[Effect] = set()
    for value in params.values():
        if isinstance(value, (Jaxpr, ClosedJaxpr)):
            found.update(value.effects)
        elif isinstance(value, tuple):
            for item in cast("tuple[object, ...]", value):
                if isinstance(item, (Jaxpr, ClosedJaxpr)):
                    found.update(item.effects)
    return frozenset(found) if found else no_effects


def dce_jaxpr(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` without the equations none of its outputs depend on and that have no effects;
    its inputs and outputs stay. Equations whose primitive has a ``dce`` rule are replaced by
    what the rule gives for the outputs that are used."""
    pruned, _ = dce_jaxpr_used(jaxpr, [True] * len(jaxpr.outvars), instantiate=True)
    return pruned


def dce_jaxpr_used(
    jaxpr: Jaxpr, used_outputs: Sequence[bool], instantiate: bool | Sequence[bool] = False
) -> tuple[Jaxpr, list[bool]]:
    """``jaxpr`` computing only its ``used_outputs``, without the equations they do not depend on
    and the inputs they do not read (``instantiate`` keeps inputs anyway). Returns it with which
    inputs it keeps. Constant variables stay."""
    outvars = [v for v, u in zip(jaxpr.outvars, used_outputs, strict=True) if u]
    live: set[Var] = {v for v in outvars if isinstance(v, Var)}
    kept: list[JaxprEqn] = []
    changed = False
    for eqn in reversed(jaxpr.eqns):
        used = [v in live for v in eqn.outvars]
        if not any(used) and not eqn.effects:
            changed = True
            continue
        rule = eqn.primitive.rules.dce
        if rule is not None and not eqn.effects:
            _, new = rule(used, eqn)
            changed = changed or new is not eqn
            if new is None:
                continue
            eqn = new
        kept.append(eqn)
        live.update(a for a in eqn.invars if isinstance(a, Var))
    n_in = len(jaxpr.invars)
    inst = [instantiate] * n_in if isinstance(instantiate, bool) else list(instantiate)
    used_inputs = [v in live or i for v, i in zip(jaxpr.invars, inst, strict=True)]
    if not changed and all(used_inputs) and len(outvars) == len(jaxpr.outvars):
        return jaxpr, used_inputs
    invars = [v for v, u in zip(jaxpr.invars, used_inputs) if u]
    return Jaxpr(jaxpr.constvars, invars, outvars, kept[::-1]), used_inputs


def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any], *args: Any) -> list[Any]:
    """Evaluates ``jaxpr`` by binding each primitive in the current trace."""
    env: dict[Var, Any] = {}

    def read(a: Atom) -> Any:
        return a.val if isinstance(a, Literal) else env[a]

    for v, x in zip(jaxpr.constvars, consts, strict=True):
        env[v] = x
    for v, x in zip(jaxpr.invars, args, strict=True):
        env[v] = x
    for eqn in jaxpr.eqns:
        info = eqn.source_info
        if isinstance(info, SourceInfo):
            previous = swap_source(info)
            try:
                outs = eqn.primitive.bind(*map(read, eqn.invars), **eqn.params)
            finally:
                swap_source(previous)
        else:
            outs = eqn.primitive.bind(*map(read, eqn.invars), **eqn.params)
        if not eqn.primitive.multiple_results:
            outs = [outs]
        for v, x in zip(eqn.outvars, outs, strict=True):
            env[v] = x
    return [read(a) for a in jaxpr.outvars]


# ---------------------------------------------------------------------------
# Printing (the same document structure JAX builds, so the text matches).


def _alphabetic(n: int) -> str:
    s = ""
    while not s or n:
        n, i = divmod(n, 26)
        s = chr(97 + i) + s
    return s


class NameContext:
    """The names given to variables while printing (``a``, ``b``, ...), in order of first use.

    ``names`` may start with variables named in advance (``_`` for unused results), and
    ``shared`` holds the sub-jaxprs printed once up front under a name (``let jaxpr = ...``);
    fresh variable names skip those names, as JAX's ``JaxprPpContext`` does.
    """

    __slots__ = ("names", "shared", "_count")

    names: dict[Var, str]
    shared: dict[Jaxpr, str]

    def __init__(self, names: dict[Var, str] | None = None) -> None:
        self.names = dict(names or {})
        self.shared = {}
        self._count = 0

    def name(self, v: Var) -> str:
        """The name of ``v``, assigning the next unused one on first use."""
        name = self.names.get(v)
        if name is None:
            taken = set(self.shared.values())
            name = _alphabetic(self._count)
            self._count += 1
            while name in taken:
                name = _alphabetic(self._count)
                self._count += 1
            self.names[v] = name
        return name

    def suggest(self, for_vars: Sequence[Atom], like_vars: Sequence[Atom]) -> None:
        """Names each unnamed var of ``for_vars`` like the var of ``like_vars`` it aliases."""
        if len(for_vars) != len(like_vars):
            return
        used: set[Var] = set()
        for for_v, like_v in zip(for_vars, like_vars):
            if isinstance(like_v, Var) and like_v not in used and isinstance(for_v, Var) and for_v not in self.names:
                used.add(like_v)
                self.names[for_v] = self.name(like_v)


def unused_vars(jaxpr: Jaxpr) -> dict[Var, str]:
    """The equation results of ``jaxpr`` nothing reads, named ``_`` (JAX's ``_dropvars``)."""
    names: dict[Var, str] = {}
    used: set[Var] = {a for a in jaxpr.outvars if isinstance(a, Var)}
    for eqn in reversed(jaxpr.eqns):
        for v in eqn.outvars:
            if v not in used:
                names[v] = "_"
        used.update(a for a in eqn.invars if isinstance(a, Var))
    return names


def _join(sep: pp.Doc, docs: Sequence[pp.Doc]) -> pp.Doc:
    parts: list[pp.Doc] = []
    for i, d in enumerate(docs):
        if i:
            parts.append(sep)
        parts.append(d)
    return pp.concat(parts)


def _pp_atom(a: Atom, ctx: NameContext) -> str:
    return a.text() if isinstance(a, Literal) else ctx.name(a)


def _pp_vars(vs: Sequence[Atom], ctx: NameContext, *, separator: str = "", shapes: bool = False) -> pp.Doc:
    docs = [
        pp.text(_pp_atom(v, ctx) + (":" + v.aval.str_short() if shapes else "")) for v in vs
    ]
    return pp.nest(2, pp.group(_join(pp.concat([pp.text(separator), pp.group(pp.brk())]), docs)))


_ADDRESS = re.compile(r" at 0x([0-9a-fA-F]+)")


def _pp_param(k: str, v: Any, ctx: NameContext) -> pp.Doc:
    if isinstance(v, ClosedJaxpr):
        doc = pp_jaxpr(v.jaxpr, ctx)
    elif _is_jaxpr_tuple(v):
        doc = pp_jaxprs(v, ctx)
    elif isinstance(v, Jaxpr):
        doc = pp_jaxpr(v, ctx)
    elif isinstance(v, np.dtype):
        doc = pp.text(v.name)
    else:  # object addresses masked, as JAX prints them (a function param prints the same each run)
        doc = pp.text(_ADDRESS.sub(lambda m: " at 0x" + "X" * len(m.group(1)), str(v)))
    return pp.concat([pp.text(f"{k}="), doc])


def _is_jaxpr_tuple(v: object) -> TypeIs[tuple[Jaxpr | ClosedJaxpr, ...]]:
    if not isinstance(v, tuple):
        return False
    items = cast("tuple[object, ...]", v)
    return bool(items) and all(isinstance(j, (Jaxpr, ClosedJaxpr)) for j in items)


def pp_jaxprs(jaxprs: Sequence[Jaxpr | ClosedJaxpr], ctx: NameContext) -> pp.Doc:
    """The document for a tuple of jaxprs (a param such as ``cond``'s ``branches``)."""
    docs = [pp_jaxpr(j.jaxpr if isinstance(j, ClosedJaxpr) else j, ctx) for j in jaxprs]
    return pp.group(
        pp.concat([pp.nest(2, pp.concat([pp.text("("), pp.brk(""), _join(pp.brk(), docs)])), pp.brk(""), pp.text(")")])
    )


def _pp_params(items: Sequence[tuple[str, Any]], ctx: NameContext) -> pp.Doc:
    if not items:
        return pp.nil()
    return pp.group(
        pp.concat(
            [
                pp.nest(2, pp.concat([pp.text("["), pp.brk(""), _join(pp.brk(), [_pp_param(k, v, ctx) for k, v in items])])),
                pp.brk(""),
                pp.text("]"),
            ]
        )
    )


ParamsOrder: TypeAlias = Callable[[JaxprEqn], Sequence[str]]
"""Orders the params of an equation for printing."""


def _shown_params(eqn: JaxprEqn) -> list[tuple[str, Any]]:
    """The params an equation prints, in order (its primitive's ``pp`` rule, else all, sorted)."""
    pp_rule = eqn.primitive.rules.pp
    return list(pp_rule(eqn.params) if pp_rule is not None else sorted(eqn.params.items()))


def pp_eqn(eqn: JaxprEqn, ctx: NameContext) -> pp.Doc:
    """The document for one equation."""
    lhs = _pp_vars(eqn.outvars, ctx, shapes=True)
    inner = eqn.params.get("jaxpr")
    if isinstance(inner, ClosedJaxpr) and eqn.primitive.name == "jit" and inner.jaxpr not in ctx.shared:
        # A call's inner variables print with the names of the outer ones they alias.
        ctx.suggest(inner.jaxpr.invars, eqn.invars)
        ctx.suggest(inner.jaxpr.outvars, eqn.outvars)
    rhs = [
        pp.text(eqn.primitive.name),
        _pp_params(_shown_params(eqn), ctx),
        pp.concat([pp.text(" "), _pp_vars(eqn.invars, ctx)]),
    ]
    if eqn.outvars:
        return pp.concat([lhs, pp.text(" = "), *rhs])
    return pp.concat(rhs)


def _pp_skeleton(jaxpr: Jaxpr, ctx: NameContext) -> pp.Doc:
    constvars = _pp_vars(jaxpr.constvars, ctx, shapes=True)
    invars = _pp_vars(jaxpr.invars, ctx, shapes=True)
    eqns = _join(pp.brk("; "), [pp_eqn(e, ctx) for e in jaxpr.eqns])
    outvars = pp.concat(
        [
            pp.text("("),
            _pp_vars(jaxpr.outvars, ctx, separator=","),
            pp.text(")" if len(jaxpr.outvars) != 1 else ",)"),
        ]
    )
    body = pp.concat(
        [
            pp.text("{ "),
            pp.text("lambda "),
            constvars,
            pp.text("; "),
            invars,
            pp.text(". "),
            pp.text("let"),
            pp.nest(2, pp.concat([pp.brk(), eqns])),
            pp.brk(),
            pp.text("in "),
            outvars,
        ]
    )
    return pp.concat([pp.group(pp.nest(2, body)), pp.text(" }")])


def pp_jaxpr(jaxpr: Jaxpr, ctx: NameContext) -> pp.Doc:
    """The document for a jaxpr (its name, if it is printed once up front)."""
    name = ctx.shared.get(jaxpr)
    if name is not None:
        return pp.text(name)
    return _pp_skeleton(jaxpr, ctx)


def _subjaxprs(eqn: JaxprEqn) -> list[tuple[str | None, Jaxpr]]:
    """The jaxprs an equation prints in its params, each with the name it would be shared under."""
    name = eqn.params.get("name")
    found: list[tuple[str | None, Jaxpr]] = []
    for _, value in _shown_params(eqn):
        items = cast("tuple[object, ...]", value) if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, ClosedJaxpr):
                item = item.jaxpr
            if isinstance(item, Jaxpr):
                found.append((name if isinstance(name, str) else None, item))
    return found


def pp_toplevel_jaxpr(jaxpr: Jaxpr) -> pp.Doc:
    """The document for a whole jaxpr, as JAX prints one: unused results named ``_``, and
    every sub-jaxpr that occurs more than once, or has more than 10 equations, printed
    first as ``let name = { ... } in`` and referred to by its name (the equation's ``name``
    param, else ``jaxpr``; numbered when taken)."""
    ctx = NameContext(unused_vars(jaxpr))
    names: dict[Jaxpr, str] = {}
    counts: dict[Jaxpr, int] = {}
    queue = collections.deque([jaxpr])
    while queue:
        j = queue.popleft()
        counts[j] = counts.get(j, 0) + (2 if j is not jaxpr and len(j.eqns) > 10 else 1)
        for eqn in j.eqns:
            for name, sub in _subjaxprs(eqn):
                queue.append(sub)
                if name is not None:
                    names.setdefault(sub, name.strip("<>"))
    taken: dict[str, int] = {}
    shared: list[tuple[str, Jaxpr]] = []
    for j, count in counts.items():
        if count == 1:
            continue
        name = names.get(j, "jaxpr")
        if taken.get(name, 0) > 0:
            taken[name] += 1
            name += str(taken[name] - 1)
        taken[name] = taken.get(name, 0) + 1
        ctx.shared[j] = name
        shared.append((name, j))
    docs = [
        pp.concat([pp.text(f"let {name} = "), _pp_skeleton(j, ctx), pp.text(" in"), pp.brk()])
        for name, j in shared
    ]
    return pp.concat([*docs, pp_jaxpr(jaxpr, ctx)])


def literal_aval(val: Any) -> ShapedArray:
    """The aval of a Python or NumPy scalar used as a literal."""
    return ShapedArray((), dtypes.dtype(val, canonicalize=True), dtypes.is_weakly_typed(val))
