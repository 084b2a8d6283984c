"""Bounds of symbolic dimensions and the decisions built on them (``>=``, ``max``, ``min``).

The procedure eliminates terms: to bound ``e = t*k + rest`` it combines ``e`` with known
constraints ``c >= 0`` (or ``c == 0``) that contain ``t``, so that ``t`` cancels, and recurses on
the result, whose terms are all syntactically smaller. The known constraints are the scope's
explicit constraints plus implicit ones for the terms met (a variable is ``>= 1``, a ``mod`` is
between 0 and its divisor, a ``floordiv`` satisfies ``op1 == op2*floordiv + mod``, ...).
The procedure is sound and incomplete; it follows JAX's heuristics step for step so that the
same comparisons are decided.
"""

from __future__ import annotations

import enum
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import SupportsIndex

from jax_core._src.core.shape_poly.dim_expr import (
    FLOORDIV,
    MAX,
    MIN,
    MOD,
    DimExpr,
    DimSize,
    Factor,
    Term,
    inconclusive,
    merge_sorted_pairs,
)
from jax_core._src.core.shape_poly.scope import Comparator, SymbolicScope

Bound = int | float
Terms = Sequence[tuple[Term, int]]


class BoundsPrecision(enum.Enum):
    """How far to refine bounds: a larger value is sufficient for every smaller one."""

    FOR_GEQ0_OR_LEQ0 = 0  # enough to decide max/min: lb >= 0 or ub <= 0
    FOR_GEQ0_OR_LT0 = 1  # enough to decide >=: lb >= 0 or ub < 0
    BEST = 2

    def sufficient(self, lb: Bound, ub: Bound) -> bool:
        if self is BoundsPrecision.FOR_GEQ0_OR_LEQ0:
            return lb >= 0 or ub <= 0
        if self is BoundsPrecision.FOR_GEQ0_OR_LT0:
            return lb >= 0 or ub < 0
        return False


def _sgn(x: int) -> int:
    return 1 if x >= 0 else -1


def _floor_div_inf(a: Bound, b: Bound) -> Bound:
    """``floor(a / b)`` where an infinite operand stands for the limit."""
    if not math.isinf(b):
        if not math.isinf(a):
            return math.floor(a / b)
        return -math.inf if (a >= 0) != (b >= 0) else math.inf
    if not math.isinf(a):
        return -1 if (a >= 0) != (b >= 0) else 0
    return -math.inf if (a >= 0) != (b >= 0) else math.inf


# (cmp, c, c_s, t_s): a constraint ``c ==/>= 0`` such that ``t*t_k*t_s + c*c_s`` lacks ``t``.
Combination = tuple[Comparator, DimExpr, int, int]


class Decision:
    """The state of the elimination procedure: known term bounds and known constraints."""

    def __init__(self, scope: SymbolicScope) -> None:
        self.scope = scope
        self.processed: set[Term] = set()
        self.term_bounds: dict[Term, tuple[Bound, Bound]] = {}
        # leading term -> constraints (as an insertion-ordered set) with that leading term
        self.expr_constraints: dict[Term, dict[tuple[Comparator, int, DimExpr], None]] = {}

    @staticmethod
    def build(scope: SymbolicScope) -> Decision:
        """A fresh state holding the scope's explicit constraints (the initial one is cached)."""
        if not scope.initialized or not scope.explicit_constraints:
            return Decision(scope).initialize()
        if scope.decision_initial_state is None:
            scope.decision_initial_state = Decision(scope).initialize()
        d = scope.decision_initial_state
        c = Decision(scope)
        c.processed = set(d.processed)
        c.term_bounds = dict(d.term_bounds)
        c.expr_constraints = {t: dict(cs) for t, cs in d.expr_constraints.items()}
        return c

    def initialize(self) -> Decision:
        for constr in self.scope.explicit_constraints:
            if isinstance(constr.diff, DimExpr):
                self.add_implicit_constraints_expr(constr.diff)
            self.combine_and_add_constraint(constr.cmp, constr.diff, 0, constr.debug_str)
            self.scope.bounds_cache.clear()
        return self

    def combine_and_add_constraint(
        self,
        cmp: Comparator,
        e1: DimSize | float,
        e2: DimSize | float,
        debug_str: str | None = None,
    ) -> None:
        """Adds ``e1 >= e2`` (or ``==``) and its combinations with the known constraints."""
        if isinstance(e1, float):
            if math.isinf(e1) and e1 >= 0 and cmp == Comparator.GEQ:
                return
            e1 = int(e1)
        if isinstance(e2, float):
            if math.isinf(e2) and e2 <= 0 and cmp == Comparator.GEQ:
                return
            e2 = int(e2)
        e = e1 - e2
        if (const := DimExpr.constant_of(e)) is not None:
            if const < 0:
                raise ValueError(
                    f"Unsatisfiable constraint: {debug_str or str(e1) + ' >= ' + str(e2)}"
                )
            return
        assert isinstance(e, DimExpr)
        self.add_to_state(cmp, e, debug_str)
        for cmp2, a in self.combine_constraint_with_existing(cmp, e, debug_str):
            self.add_to_state(cmp2, a, None)

    def add_to_state(self, cmp: Comparator, e: DimExpr, debug_str: str | None) -> None:
        """Records ``e >= 0`` (or ``== 0``)."""
        if (single := e.to_single_term()) is not None:
            n, t_k, t = single
            lb, ub = self.term_bounds.get(t, (-math.inf, math.inf))
            if cmp == Comparator.EQ:
                if n % t_k:
                    raise ValueError(f"Unsatisfiable constraint: {debug_str}")
                t_val = -(n // t_k)
                lb, ub = max(lb, t_val), min(ub, t_val)
            elif t_k > 0:
                lb = max(lb, math.ceil(-n / t_k))
            else:
                ub = min(ub, math.floor(-n / t_k))
            if lb > ub:
                raise ValueError(f"Unsatisfiable constraint: {debug_str}")
            self.term_bounds[t] = (lb, ub)
            return
        lead_t, lead_k = e.leading_term
        self.expr_constraints.setdefault(lead_t, {})[(cmp, lead_k, e)] = None

    def combine_term_with_existing(
        self, t: Term, t_k: int, *, only_smaller_than_t: bool
    ) -> list[Combination]:
        """The known constraints that can eliminate ``t*t_k``."""
        acc: list[Combination] = []
        t_lb, t_ub = self.term_bounds.get(t, (-math.inf, math.inf))
        t_e = DimExpr(((t, 1),), self.scope)
        if t_lb == t_ub:
            acc.append((Comparator.EQ, _as_expr(t_e - int(t_lb)), abs(t_k), -_sgn(t_k)))
        else:
            if t_lb > -math.inf:
                acc.append((Comparator.GEQ, _as_expr(t_e - int(t_lb)), abs(t_k), -_sgn(t_k)))
            if t_ub < math.inf:
                neg = DimExpr(((t, -1),), self.scope)
                acc.append((Comparator.GEQ, _as_expr(neg + int(t_ub)), abs(t_k), _sgn(t_k)))
        groups = (
            [self.expr_constraints.get(t, {})]
            if only_smaller_than_t
            else list(self.expr_constraints.values())
        )
        for group in groups:
            for c_eq, _, c in group:
                tc_k = dict(c.terms).get(t)
                if tc_k is not None:
                    acc.append((c_eq, c, abs(t_k), -tc_k * _sgn(t_k)))
        return acc

    def combine_constraint_with_existing(
        self, eq: Comparator, e: DimExpr, debug_str: str | None
    ) -> dict[tuple[Comparator, DimExpr], None]:
        combinations: dict[tuple[Comparator, DimExpr], None] = {}
        for t, t_k in e.terms:
            if t.is_constant:
                continue
            for c_eq, c, c_s, t_s in self.combine_term_with_existing(
                t, t_k, only_smaller_than_t=False
            ):
                if t_s > 0 or eq == Comparator.EQ:
                    new_eq = Comparator.EQ if eq == c_eq == Comparator.EQ else Comparator.GEQ
                    new_e = DimExpr.linear_combination(e, t_s, c, c_s, e.scope)
                    if (const := DimExpr.constant_of(new_e)) is not None:
                        if (new_eq == Comparator.GEQ and const < 0) or (
                            new_eq == Comparator.EQ and const != 0
                        ):
                            raise ValueError(
                                f"Unsatisfiable constraints: {debug_str or str(e) + ' >= 0'}"
                            )
                    else:
                        combinations[(new_eq, _as_expr(new_e))] = None
        return combinations

    def bounds(
        self, e: DimSize, prec: BoundsPrecision, add_implicit_constraints: bool = False
    ) -> tuple[Bound, Bound]:
        """Lower and upper bounds of ``e`` (``-inf``/``inf`` when unknown)."""
        if (const := DimExpr.constant_of(e)) is not None:
            return (const, const)
        assert isinstance(e, DimExpr)
        if (cached := self.scope.bounds_cache.get(e)) is not None:
            lb, ub, prev_prec = cached
            if prec.sufficient(lb, ub) or prev_prec.value >= prec.value:
                return (lb, ub)
        if add_implicit_constraints:
            self.add_implicit_constraints_expr(e)
        lb, ub = self.bounds_for_sorted_terms(e.terms, 0, prec)
        lb = int(lb) if lb > -math.inf else lb
        ub = int(ub) if ub < math.inf else ub
        self.scope.bounds_cache[e] = (lb, ub, prec)
        return (lb, ub)

    def bounds_for_sorted_terms(
        self, e: Terms, i: int, prec: BoundsPrecision
    ) -> tuple[Bound, Bound]:
        """Bounds of ``e[i:]``."""
        if i >= len(e):
            return (0, 0)
        t, t_k = e[i]
        if t.is_constant:
            return (t_k, t_k)
        lb: Bound = -math.inf
        ub: Bound = math.inf
        for c_eq, c, c_s, t_s in self.combine_term_with_existing(t, t_k, only_smaller_than_t=True):
            rest = merge_sorted_pairs(e[i:], t_s, c.terms, c_s)
            rest_lb, rest_ub = self.bounds_for_sorted_terms(rest, 0, BoundsPrecision.BEST)
            if rest_ub < math.inf:
                if t_s > 0:
                    ub = min(ub, math.floor(rest_ub / t_s))
                else:
                    lb = max(lb, math.ceil(rest_ub / t_s))
            if rest_lb > -math.inf and c_eq == Comparator.EQ:
                if t_s > 0:
                    lb = max(lb, math.ceil(rest_lb / t_s))
                else:
                    ub = min(ub, math.floor(rest_lb / t_s))
            if prec.sufficient(lb, ub):
                return (lb, ub)
        f = t.to_factor()
        if f is not None and f.operation in (MAX, MIN):
            op1, op2 = f.operands
            lb1, ub1 = self.bounds_for_sorted_terms(
                merge_sorted_pairs(e[i + 1 :], 1, op1.terms, t_k), 0, BoundsPrecision.BEST
            )
            lb2, ub2 = self.bounds_for_sorted_terms(
                merge_sorted_pairs(e[i + 1 :], 1, op2.terms, t_k), 0, BoundsPrecision.BEST
            )
            if (t_k > 0) == (f.operation == MAX):
                lb, ub = max(lb, max(lb1, lb2)), min(ub, max(ub1, ub2))
            else:
                lb, ub = max(lb, min(lb1, lb2)), min(ub, min(ub1, ub2))
        return (lb, ub)

    def add_implicit_constraints_expr(self, e: DimExpr) -> None:
        for t, _ in e.terms:
            if not t.is_constant:
                self.add_implicit_constraints_term(t)

    def add_implicit_constraints_term(self, t: Term) -> None:
        if t in self.processed:
            return
        self.processed.add(t)
        t_e = DimExpr.from_term(t, 1, self.scope)
        f = t.to_factor()
        if f is None:
            self._add_product_bounds(t, t_e)
        elif f.var is not None:
            self.combine_and_add_constraint(Comparator.GEQ, t_e, 1)
        else:
            for o in f.operands:
                self.add_implicit_constraints_expr(o)
            self._add_operation_constraints(f, t_e)

    def _add_product_bounds(self, t: Term, t_e: DimSize) -> None:
        per_factor: list[tuple[Bound, Bound]] = []
        for f1, f1_exp in t.factors:
            f1_t = Term.from_factor(f1)
            self.add_implicit_constraints_term(f1_t)
            a_l, a_u = self.bounds(DimExpr.from_term(f1_t, 1, self.scope), BoundsPrecision.BEST)
            candidates: list[Bound] = [a_l**f1_exp, a_u**f1_exp]
            if f1_exp % 2 == 0 and a_l <= 0 <= a_u:
                candidates.append(0)
            per_factor.append((min(candidates), max(candidates)))
        products = [
            0 if 0 in combo else math.prod(combo) for combo in itertools.product(*per_factor)
        ]
        self.combine_and_add_constraint(Comparator.GEQ, t_e, min(products))
        self.combine_and_add_constraint(Comparator.GEQ, max(products), t_e)

    def _add_operation_constraints(self, f: Factor, t_e: DimSize) -> None:
        op1, op2 = f.operands
        geq = Comparator.GEQ
        if f.operation == MOD:
            l2, u2 = self.bounds(op2, BoundsPrecision.FOR_GEQ0_OR_LT0)
            if l2 > 0:
                self.combine_and_add_constraint(geq, t_e, 0)
                self.combine_and_add_constraint(geq, op2 - 1, t_e)
                self.combine_and_add_constraint(geq, u2 - 1, t_e)
            elif u2 < 0:
                self.combine_and_add_constraint(geq, t_e, op2 + 1)
                self.combine_and_add_constraint(geq, t_e, l2 + 1)
                self.combine_and_add_constraint(geq, 0, t_e)
            return
        l1, u1 = self.bounds(op1, BoundsPrecision.BEST)
        l2, u2 = self.bounds(op2, BoundsPrecision.BEST)
        if f.operation == FLOORDIV:
            if l2 <= 0 <= u2:
                raise inconclusive(f"Possible division by 0 in division by {op2}")
            candidates = [_floor_div_inf(a, b) for a in (l1, u1) for b in (l2, u2)]
            self.combine_and_add_constraint(geq, t_e, min(candidates))
            self.combine_and_add_constraint(geq, max(candidates), t_e)
            if l2 >= 0:
                if l1 >= 0:
                    self.combine_and_add_constraint(geq, t_e, 0)
                mod_e = DimExpr.from_operation(MOD, op1, op2, scope=self.scope)
                if isinstance(mod_e, DimExpr):
                    self.add_implicit_constraints_expr(mod_e)
                self.combine_and_add_constraint(Comparator.EQ, op1, op2 * t_e + mod_e)
        elif f.operation == MAX:
            self.combine_and_add_constraint(geq, t_e, max(l1, l2))
            self.combine_and_add_constraint(geq, max(u1, u2), t_e)
            self.combine_and_add_constraint(geq, t_e, op1)
            self.combine_and_add_constraint(geq, t_e, op2)
        else:
            self.combine_and_add_constraint(geq, t_e, min(l1, l2))
            self.combine_and_add_constraint(geq, min(u1, u2), t_e)
            self.combine_and_add_constraint(geq, op1, t_e)
            self.combine_and_add_constraint(geq, op2, t_e)


def _as_expr(e: DimSize) -> DimExpr:
    assert isinstance(e, DimExpr)
    return e


def bounds_decision(e: DimSize, prec: BoundsPrecision) -> tuple[Bound, Bound]:
    """Bounds of ``e`` refined at least to ``prec``."""
    if not isinstance(e, DimExpr):
        return (int(e), int(e))
    return Decision.build(e.scope).bounds(e, prec, add_implicit_constraints=True)


def geq_decision(e1: DimSize, e2: DimSize, cmp_str: Callable[[], str]) -> bool:
    """``e1 >= e2``, or :class:`InconclusiveDimensionOperation` naming ``cmp_str()``."""
    if isinstance(e1, DimExpr):
        scope = e1.scope
        if isinstance(e2, DimExpr):
            scope.check_same_scope(e2, f"when comparing {cmp_str()}")
    elif isinstance(e2, DimExpr):
        scope = e2.scope
    else:
        return int(e1) >= int(e2)
    lb, ub = bounds_decision(e1 - e2, BoundsPrecision.FOR_GEQ0_OR_LT0)
    if lb >= 0:
        return True
    if ub < 0:
        return False
    describe = f"\nUsing symbolic scope {scope}" if scope.explicit_constraints else ""
    raise inconclusive(f"Symbolic dimension comparison {cmp_str()} is inconclusive.{describe}")


def _max_or_min(e: DimExpr, other: DimSize, is_max: bool, e_first: bool) -> DimSize:
    lb, ub = bounds_decision(e - other, BoundsPrecision.FOR_GEQ0_OR_LEQ0)
    if 0 <= lb:
        return e if is_max else other
    if ub <= 0:
        return other if is_max else e
    operands = (e, other) if e_first else (other, e)
    return DimExpr.from_operation(MAX if is_max else MIN, *operands, scope=e.scope)


def _concrete_dim(d: object, what: str) -> DimSize:
    if isinstance(d, DimExpr):
        return d
    del what  # JAX names the argument only for tracers, which never reach here
    return operator.index(d)  # type: ignore[arg-type]  # raises TypeError for non-integers


def max_dim(d1: DimSize, d2: DimSize) -> DimSize:
    """``max(d1, d2)``: an int or one operand when decidable, else a symbolic ``max``."""
    if not isinstance(d1, DimExpr) and not isinstance(d2, DimExpr):
        return max(d1, d2)
    d1, d2 = (
        _concrete_dim(d1, "argument `d1` of `core.max_dim`"),
        _concrete_dim(d2, "argument `d2` of `core.max_dim`"),
    )
    if isinstance(d1, DimExpr):
        return _max_or_min(d1, d2, True, True)
    return _max_or_min(_as_expr(d2), d1, True, False)


def min_dim(d1: DimSize, d2: DimSize) -> DimSize:
    """``min(d1, d2)``: an int or one operand when decidable, else a symbolic ``min``."""
    if not isinstance(d1, DimExpr) and not isinstance(d2, DimExpr):
        return min(d1, d2)
    d1, d2 = (
        _concrete_dim(d1, "argument `d1` of `core.min_dim`"),
        _concrete_dim(d2, "argument `d2` of `core.min_dim`"),
    )
    if isinstance(d1, DimExpr):
        return _max_or_min(d1, d2, False, True)
    return _max_or_min(_as_expr(d2), d1, False, False)


def non_negative_dim(d: DimSize) -> DimSize:
    """``max(d, 0)`` (what older JAX called ``core.non_negative_dim``)."""
    return max_dim(d, 0)


def symbolic_dim_bounds(dimension: DimSize | SupportsIndex) -> tuple[float, float]:
    """Inclusive lower and upper bounds JAX can prove for ``dimension`` (``±inf`` if none)."""
    d: DimSize = dimension if isinstance(dimension, DimExpr) else operator.index(dimension)
    return bounds_decision(d, BoundsPrecision.BEST)
