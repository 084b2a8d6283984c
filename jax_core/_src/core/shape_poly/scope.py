"""Symbolic scopes: the constraints shared by the expressions that may be combined."""

from __future__ import annotations

import enum
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING

from jax_core._src.core.shape_poly.dim_expr import (
    FLOORDIV,
    MOD,
    DimExpr,
    DimSize,
    Factor,
    NormalizationRules,
    Term,
    ensure_poly,
)

if TYPE_CHECKING:
    from jax_core._src.core.shape_poly.decision import BoundsPrecision, Decision

_DOCS_CONSTRAINTS = (
    "https://docs.jax.dev/en/latest/501/shape-polymorphism.html#user-specified-symbolic-constraints"
)
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))) + os.sep
_STDLIB_DIR = sysconfig.get_path("stdlib")


class Comparator(enum.Enum):
    """The kind of a constraint: ``e1 == e2`` or ``e1 >= e2``."""

    EQ = 1
    GEQ = 2


@dataclass(frozen=True, slots=True)
class SymbolicConstraint:
    """``e1 == e2`` or ``e1 >= e2`` as the user wrote it (``debug_str``), with ``diff = e1 - e2``
    computed before the constraint itself rewrites expressions."""

    cmp: Comparator
    debug_str: str
    e1: DimSize
    e2: DimSize
    diff: DimSize

    def __repr__(self) -> str:
        return f"Constraint({self.debug_str})"


def _user_location() -> str:
    """``file:line:col (function)`` of the innermost frame outside jax_core and the stdlib."""
    frame: FrameType | None = sys._getframe(1)  # pyright: ignore[reportPrivateUsage]
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith(_PACKAGE_DIR) and not name.startswith(_STDLIB_DIR):
            line = frame.f_lineno
            col = 0
            positions = list(frame.f_code.co_positions())
            idx = frame.f_lasti // 2
            if 0 <= idx < len(positions):
                start_line, _, start_col, _ = positions[idx]
                line = start_line if start_line is not None else line
                col = start_col or 0
            func = frame.f_code.co_name
            return f"{name}:{line}:{col} ({func})" if col else f"{name}:{line} ({func})"
        frame = frame.f_back
    return "unknown"


class SymbolicScope:
    """The scope of symbolic expressions that may interact, with their constraints.

    ``constraints_str`` holds constraints ``e1 >= e2``, ``e1 <= e2`` or ``e1 == e2`` (the
    left side of an equality must be a single term times a coefficient).
    """

    def __init__(self, constraints_str: Sequence[str] = ()) -> None:
        if isinstance(constraints_str, str):
            raise ValueError(  # noqa: TRY004 - JAX's class
                f"The symbolic constraints should be a sequence of strings. Got {constraints_str!r}"
            )
        self.initialized: bool = False
        self._location = _user_location()
        self.explicit_constraints: list[SymbolicConstraint] = []
        self.bounds_cache: dict[DimExpr, tuple[float, float, BoundsPrecision]] = {}
        self.decision_initial_state: Decision | None = None
        self.normalization_rules: NormalizationRules = {}
        for c_str in constraints_str:
            self._parse_constraint(c_str)
            self.bounds_cache.clear()
        self.initialized = True

    def __str__(self) -> str:
        extras: list[str] = []
        if self.explicit_constraints:
            extras.append(" with constraints:")
            extras.extend(f"  {c.debug_str}" for c in self.explicit_constraints)
        return f"{id(self)} created at {self._location}" + "\n".join(extras)

    __repr__ = __str__

    def _parse_constraint(self, c_str: str) -> None:
        from jax_core._src.core.shape_poly.parser import parse_dims

        if not isinstance(c_str, str):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"SymbolicScope constraint must be a string: got {c_str!r}")  # noqa: TRY004
        cmp, swap = Comparator.EQ, False
        pos = c_str.find("==")
        if pos < 0:
            cmp = Comparator.GEQ
            pos = c_str.find(">=")
            if pos < 0:
                pos, swap = c_str.find("<="), True
            if pos < 0:
                raise ValueError(
                    "Constraint parsing error: must contain one of '==' or '>=' or '<='"
                )
        left, right = c_str[:pos], c_str[pos + 2 :]
        (e1,) = parse_dims(left, None, repr(left), self)
        (e2,) = parse_dims(right, None, repr(right), self)
        if swap:
            e1, e2 = e2, e1
        self._add_constraint(SymbolicConstraint(cmp, c_str, e1, e2, e1 - e2))

    def _add_constraint(self, c: SymbolicConstraint) -> None:
        if (diff := DimExpr.constant_of(c.diff)) is not None:
            if (c.cmp == Comparator.EQ and diff != 0) or (c.cmp == Comparator.GEQ and diff < 0):
                raise ValueError(f"Unsatisfiable explicit constraint: {c.debug_str}")
            return
        if c.cmp == Comparator.EQ:
            invalid = (
                "Invalid equality constraint: {e1} == {e2}. "
                "The left-hand-side must be of the form `term * coefficient`."
            )
            if not isinstance(c.e1, DimExpr) or len(c.e1.terms) > 1:
                raise ValueError(invalid)
            before, before_k = c.e1.leading_term
            after = ensure_poly(c.e2, "parse_constraint", c.e1.scope)
            if before in self.normalization_rules:
                raise NotImplementedError(
                    f"Found multiple equality constraints with the same left-hand-side: {before}"
                )
            self.normalization_rules[before] = (after, before_k)
            f = before.to_factor()
            if (
                before_k == 1
                and c.e2 == 0
                and not isinstance(c.e2, DimExpr)
                and f is not None
                and f.operation == MOD
                and (k2 := DimExpr.constant_of(f.operands[1])) is not None
            ):
                # mod(e, k) == 0 also gives k*floordiv(e, k) == e.
                k_floordiv = DimExpr.from_term(
                    Term.from_factor(Factor(None, FLOORDIV, f.operands)),
                    k2,
                    self,
                )
                e = f.operands[0]
                self._add_constraint(
                    SymbolicConstraint(
                        Comparator.EQ, f"{k_floordiv} == {e}", k_floordiv, e, k_floordiv - e
                    )
                )
        self.explicit_constraints.append(c)

    def check_same_scope(
        self, other: DimExpr, when: str = "", self_descr: str = " ", other_descr: str = "unknown"
    ) -> None:
        """Raises JAX's ``ValueError`` unless ``other`` belongs to this scope."""
        if self is not other.scope:
            raise ValueError(
                f"Invalid mixing of symbolic scopes {when}.\n"
                f"Expected {self_descr}scope {self}\n"
                f"and found for '{other}' ({other_descr}) scope {other.scope}\n"
                f"See {_DOCS_CONSTRAINTS}."
            )
