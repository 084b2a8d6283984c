"""Symbolic dimension expressions: factors, terms, the normal form, arithmetic and printing.

A :class:`DimExpr` is a sum of terms with integer coefficients; a term is a product of factors
raised to positive integer powers; a factor is a dimension variable or an operation
(``floordiv``, ``mod``, ``max``, ``min``) applied to expressions. Terms and factors are kept
sorted by a syntactic order (larger first), which makes the representation canonical: equal
expressions have equal representations, and an expression whose value is a constant is
represented as a plain ``int``. Comparisons defer to the decision procedure in ``decision``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeGuard, TypeVar

from jax_core._src.core.errors import InconclusiveDimensionOperation

if TYPE_CHECKING:
    from jax_core._src.core.shape_poly.scope import SymbolicScope

T = TypeVar("T")

FLOORDIV: Final = "floordiv"
MOD: Final = "mod"
MAX: Final = "max"
MIN: Final = "min"
OPERATIONS: Final = (FLOORDIV, MOD, MAX, MIN)

_INCONCLUSIVE_HELP = """
This error arises for comparison operations with shapes that
are non-constant, and the result of the operation cannot be represented as
a boolean value for all values of the symbolic dimensions involved.

Please see https://docs.jax.dev/en/latest/501/shape-polymorphism.html#comparison-of-symbolic-dimensions-is-partially-supported
for more details.
"""


def inconclusive(message: str) -> InconclusiveDimensionOperation:
    """The :class:`InconclusiveDimensionOperation` JAX raises, with its explanatory trailer."""
    return InconclusiveDimensionOperation(f"{message}{_INCONCLUSIVE_HELP}")


class UnexpectedDimVar(Exception):
    """Evaluation met a dimension variable that the environment does not bind."""


def _cmp(a: int | str, b: int | str) -> int:
    return -1 if a < b else (1 if a > b else 0)  # type: ignore[operator]


def _cmp_seq[E](s1: Sequence[E], s2: Sequence[E], elem_cmp: Callable[[E, E], int]) -> int:
    for e1, e2 in zip(s1, s2):
        if c := elem_cmp(e1, e2):
            return c
    return _cmp(len(s1), len(s2))


class Factor:
    """A variable, or an operation (``floordiv``, ``mod``, ``max``, ``min``) on expressions."""

    __slots__ = ("_hash", "operands", "operation", "size", "var")

    def __init__(self, var: str | None, operation: str | None, operands: tuple[DimExpr, ...]):
        self.var: str | None = var
        self.operation: str | None = operation
        self.operands: tuple[DimExpr, ...] = operands
        self.size: int = 1 if var is not None else 1 + sum(o.size for o in operands)
        self._hash: int | None = None

    @staticmethod
    def from_var(v: str) -> Factor:
        return Factor(v, None, ())

    def syntactic_cmp(self, other: Factor) -> int:
        """A total syntactic order, unrelated to the values: size, then name or operation."""
        if c := _cmp(self.size, other.size):
            return c
        if self.var is not None or other.var is not None:
            return _cmp(self.var or "", other.var or "")
        if c := _cmp(self.operation or "", other.operation or ""):
            return c
        return _cmp_seq(self.operands, other.operands, DimExpr.syntactic_cmp)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Factor) and self.syntactic_cmp(other) == 0

    def __lt__(self, other: Factor) -> bool:
        return self.syntactic_cmp(other) < 0

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.var, self.operation, *self.operands))
        return self._hash

    def get_vars(self) -> set[str]:
        if self.var is not None:
            return {self.var}
        acc: set[str] = set()
        for o in self.operands:
            acc |= o.get_vars()
        return acc

    def __str__(self) -> str:
        if self.var is not None:
            return self.var
        return f"{self.operation}({', '.join(str(o) for o in self.operands)})"

    __repr__ = __str__

    def evaluate(self, env: Mapping[str, T], arith: DimArith[T], scope: SymbolicScope) -> T:
        if self.var is not None:
            if self.var in env:
                return env[self.var]
            normalized = DimExpr.from_var(self.var, scope)
            if not isinstance(normalized, DimExpr):
                return arith.constant(normalized)
            if normalized.to_var() != self.var:
                return normalized.evaluate(env, arith)
            raise UnexpectedDimVar(
                f"Encountered dimension variable '{self.var}' that is not appearing in the shapes "
                "of the function arguments.\nThe following dimension variables are appearing in "
                f"the shapes of the function arguments: {list(env.keys())}.\nPlease see https://"
                "docs.jax.dev/en/latest/501/shape-polymorphism.html#dimension-variables-must-be-"
                "solvable-from-the-input-shapes for more details."
            )
        a, b = (o.evaluate(env, arith) for o in self.operands)
        if self.operation == FLOORDIV:
            return arith.floordiv(a, b)
        if self.operation == MOD:
            return arith.mod(a, b)
        if self.operation == MAX:
            return arith.max(a, b)
        return arith.min(a, b)


def merge_sorted_pairs[K: (Factor, Term)](
    pairs1: Sequence[tuple[K, int]], f1: int, pairs2: Sequence[tuple[K, int]], f2: int
) -> list[tuple[K, int]]:
    """``pairs1 * f1 + pairs2 * f2`` for pairs sorted largest first; zero coefficients drop."""
    acc: list[tuple[K, int]] = []
    i1 = i2 = 0
    while i1 < len(pairs1) and i2 < len(pairs2):
        (k1, c1), (k2, c2) = pairs1[i1], pairs2[i2]
        c = k1.syntactic_cmp(k2)  # pyright: ignore[reportArgumentType]
        if c < 0:
            acc.append((k2, c2 * f2))
            i2 += 1
        elif c > 0:
            acc.append((k1, c1 * f1))
            i1 += 1
        else:
            i1 += 1
            i2 += 1
            if combined := c1 * f1 + c2 * f2:
                acc.append((k1, combined))
    acc.extend((k, c * f1) for k, c in pairs1[i1:] if c != 0)
    acc.extend((k, c * f2) for k, c in pairs2[i2:] if c != 0)
    return acc


class Term:
    """A product of factors with positive exponents, largest factor first; ``()`` is 1."""

    __slots__ = ("_hash", "factors", "size")

    def __init__(self, factors: Sequence[tuple[Factor, int]]):
        self.factors: tuple[tuple[Factor, int], ...] = tuple(factors)
        self.size: int = sum(1 + e * f.size for f, e in self.factors)
        self._hash: int | None = None

    @staticmethod
    def from_factor(f: Factor, exp: int = 1) -> Term:
        return Term(((f, exp),))

    @property
    def is_constant(self) -> bool:
        return not self.factors

    def to_factor(self) -> Factor | None:
        """The single factor with exponent 1 this term is, if it is one."""
        if len(self.factors) == 1 and self.factors[0][1] == 1:
            return self.factors[0][0]
        return None

    def to_var(self) -> str | None:
        f = self.to_factor()
        return f.var if f is not None else None

    def syntactic_cmp(self, other: Term) -> int:
        if c := _cmp(self.size, other.size):
            return c

        def cmp_pair(a: tuple[Factor, int], b: tuple[Factor, int]) -> int:
            return a[0].syntactic_cmp(b[0]) or _cmp(a[1], b[1])

        return _cmp_seq(self.factors, other.factors, cmp_pair)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and self.syntactic_cmp(other) == 0

    def __lt__(self, other: Term) -> bool:
        return self.syntactic_cmp(other) < 0

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.factors)
        return self._hash

    def __str__(self) -> str:
        return "*".join(str(f) if e == 1 else f"{f}^{e}" for f, e in sorted(self.factors))

    __repr__ = __str__

    def get_vars(self) -> set[str]:
        acc: set[str] = set()
        for f, _ in self.factors:
            acc |= f.get_vars()
        return acc

    def mul(self, other: Term) -> Term:
        return Term(merge_sorted_pairs(self.factors, 1, other.factors, 1))

    def divide(self, divisor: Term) -> Term:
        """The exact quotient; raises :class:`InconclusiveDimensionOperation` if there is none."""
        factors = merge_sorted_pairs(self.factors, 1, divisor.factors, -1)
        if any(e <= 0 for _, e in factors):
            raise inconclusive(f"Cannot divide {self} by {divisor}.")
        return Term(factors)

    def evaluate(self, env: Mapping[str, T], arith: DimArith[T], scope: SymbolicScope) -> T:
        values: list[T] = []
        for f, e in self.factors:
            v = f.evaluate(env, arith, scope)
            values.append(functools.reduce(arith.mul, [v] * e))
        if not values:
            return arith.constant(1)
        return functools.reduce(arith.mul, values)


ONE: Final = Term(())


class DimArith(Protocol[T]):
    """The arithmetic :meth:`DimExpr.evaluate` uses, so an expression evaluates on any values."""

    def constant(self, v: int, /) -> T:
        """The value of the integer ``v``."""
        ...

    def add(self, a: T, b: T, /) -> T:
        """``a + b``."""
        ...

    def sub(self, a: T, b: T, /) -> T:
        """``a - b``."""
        ...

    def mul(self, a: T, b: T, /) -> T:
        """``a * b``."""
        ...

    def floordiv(self, a: T, b: T, /) -> T:
        """``a // b`` rounding toward minus infinity."""
        ...

    def mod(self, a: T, b: T, /) -> T:
        """``a % b`` with the sign of ``b``."""
        ...

    def max(self, a: T, b: T, /) -> T:
        """The larger of ``a`` and ``b``."""
        ...

    def min(self, a: T, b: T, /) -> T:
        """The smaller of ``a`` and ``b``."""
        ...


class IntArith:
    """:class:`DimArith` on Python ints."""

    def constant(self, v: int, /) -> int:
        return v

    def add(self, a: int, b: int, /) -> int:
        return a + b

    def sub(self, a: int, b: int, /) -> int:
        return a - b

    def mul(self, a: int, b: int, /) -> int:
        return a * b

    def floordiv(self, a: int, b: int, /) -> int:
        return a // b

    def mod(self, a: int, b: int, /) -> int:
        return a % b

    def max(self, a: int, b: int, /) -> int:
        return max(a, b)

    def min(self, a: int, b: int, /) -> int:
        return min(a, b)


INT_ARITH: Final[DimArith[int]] = IntArith()


def as_index(p: object) -> int | None:
    try:
        return operator.index(p)  # type: ignore[arg-type]
    except TypeError:
        return None


_as_value: list[Callable[[DimExpr], Any]] = []


def register_dimension_as_value(fn: Callable[[DimExpr], Any]) -> None:
    """Installs how a symbolic dimension becomes a traced value (lax's ``dim_as_value_p``; core
    cannot import lax)."""
    _as_value[:] = [fn]


def is_symbolic_dim(p: object) -> TypeGuard[DimExpr]:
    """Whether ``p`` is a symbolic dimension expression (not an integer)."""
    return isinstance(p, DimExpr)


def is_constant_dim(p: object) -> bool:
    """Whether ``p`` converts to an integer with ``operator.index``."""
    return as_index(p) is not None


class DimExpr:
    """A symbolic dimension: a sum of terms with integer coefficients, in normal form.

    Build them with ``symbolic_shape``; arithmetic with ints and other expressions of the same
    scope gives expressions (or ``int`` when the result is constant). ``==`` is syntactic on the
    normal form; ``<``, ``<=``, ``>``, ``>=`` use the decision procedure and raise
    :class:`InconclusiveDimensionOperation` when the bounds do not settle them.
    """

    __array_priority__ = 1000
    __slots__ = ("_hash", "_scope", "size", "terms")

    def __init__(self, terms: Sequence[tuple[Term, int]], scope: SymbolicScope):
        # ``terms`` must be sorted and normalized (see ``normalize``).
        self.terms: tuple[tuple[Term, int], ...] = tuple(terms) or ((ONE, 0),)
        self._scope = scope
        self.size: int = sum(1 + abs(k) * t.size for t, k in self.terms)
        self._hash: int | None = None

    @property
    def scope(self) -> SymbolicScope:
        """The scope (and constraints) this expression belongs to."""
        return self._scope

    # ----- construction and normal form -----

    @staticmethod
    def normalize(terms: Sequence[tuple[Term, int]], scope: SymbolicScope) -> DimSize:
        """The expression of sorted nonzero ``terms``, after the scope's equality rewrites."""
        rules = scope.normalization_rules
        if rules:
            for t, k in terms:
                if updates := _rewrites(t, k, rules):
                    coeffs = dict(terms)
                    for t1, k1 in updates:
                        if k1:
                            coeffs[t1] = coeffs.get(t1, 0) + k1
                    terms = sorted(((t2, k2) for t2, k2 in coeffs.items() if k2), reverse=True)
                    break
        if not terms:
            return 0
        if terms[0][0].is_constant:
            return terms[0][1]
        return DimExpr(terms, scope)

    @staticmethod
    def from_term(t: Term, k: int, scope: SymbolicScope) -> DimSize:
        return DimExpr.normalize(((t, k),), scope)

    @staticmethod
    def from_var(v: str, scope: SymbolicScope) -> DimSize:
        """The expression of the variable ``v`` (after the scope's rewrites)."""
        return DimExpr.from_term(Term.from_factor(Factor.from_var(v)), 1, scope)

    @staticmethod
    def from_operation(operation: str, *operands: DimSize, scope: SymbolicScope) -> DimSize:
        """``operation(*operands)`` as a single factor, without simplification."""
        opnds = tuple(ensure_poly(o, operation, scope) for o in operands)
        return DimExpr.from_term(Term.from_factor(Factor(None, operation, opnds)), 1, scope)

    @staticmethod
    def constant_of(e: DimSize) -> int | None:
        """The integer value of ``e`` if it is a constant."""
        if not isinstance(e, DimExpr):
            return int(e)
        t, k = e.terms[0]
        return k if t.is_constant else None

    @property
    def is_constant(self) -> bool:
        """Whether the expression is a constant (only for internal operand expressions)."""
        return self.terms[0][0].is_constant

    @property
    def leading_term(self) -> tuple[Term, int]:
        return self.terms[0]

    def to_single_term(self) -> tuple[int, int, Term] | None:
        """``(n, c, t)`` when the expression is ``n + c*t`` for one non-constant term ``t``."""
        n = c = 0
        term: Term | None = None
        for t, k in self.terms:
            if t.is_constant:
                n = k
            elif term is None:
                term, c = t, k
            else:
                return None
        return None if term is None else (n, c, term)

    def to_term(self) -> Term | None:
        if len(self.terms) == 1 and self.terms[0][1] == 1:
            return self.terms[0][0]
        return None

    def to_factor(self) -> Factor | None:
        t = self.to_term()
        return t.to_factor() if t is not None else None

    def to_var(self) -> str | None:
        f = self.to_factor()
        return f.var if f is not None else None

    def get_vars(self) -> frozenset[str]:
        """The names of the dimension variables the expression uses."""
        acc: set[str] = set()
        for t, _ in self.terms:
            acc |= t.get_vars()
        return frozenset(acc)

    def syntactic_cmp(self, other: DimExpr) -> int:
        if c := _cmp(self.size, other.size):
            return c

        def cmp_pair(a: tuple[Term, int], b: tuple[Term, int]) -> int:
            return a[0].syntactic_cmp(b[0]) or _cmp(a[1], b[1])

        return _cmp_seq(self.terms, other.terms, cmp_pair)

    # ----- printing -----

    def __str__(self) -> str:
        def one(t: Term, k: int) -> str:
            sign = "+" if k > 0 else "-"
            if t.is_constant:
                return f"{sign} {abs(k)}" if k != 0 else "0"
            return f"{sign} {t}" if abs(k) == 1 else f"{sign} {abs(k)}*{t}"

        res = " ".join(one(t, k) for t, k in self.terms)
        return res.removeprefix("+ ")

    def __repr__(self) -> str:
        return str(self)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.terms, self._scope))
        return self._hash

    # ----- arithmetic -----

    @staticmethod
    def linear_combination(
        e1: DimSize, k1: int, e2: DimSize, k2: int, scope: SymbolicScope
    ) -> DimSize:
        """``e1 * k1 + e2 * k2``, normalized."""
        if isinstance(e1, DimExpr):
            terms1 = e1.terms
            if isinstance(e2, DimExpr):
                e1.scope.check_same_scope(e2, when="for linear combination")
        elif not isinstance(e2, DimExpr):
            return e1 * k1 + e2 * k2
        else:
            terms1 = ((ONE, operator.index(e1)),)
        if isinstance(e2, DimExpr):
            terms2 = e2.terms
        elif e2 == 0:
            terms2 = ()
        else:
            terms2 = ((ONE, operator.index(e2)),)
        return DimExpr.normalize(merge_sorted_pairs(terms1, k1, terms2, k2), scope)

    def __add__(self, other: DimSize) -> DimSize:
        if not _convertible(other):
            return NotImplemented
        if isinstance(other, int) and other == 0:
            return self
        return DimExpr.linear_combination(self, 1, other, 1, self._scope)

    __radd__ = __add__

    def __sub__(self, other: DimSize) -> DimSize:
        if not _convertible(other):
            return NotImplemented
        if isinstance(other, int) and other == 0:
            return self
        return DimExpr.linear_combination(self, 1, other, -1, self._scope)

    def __rsub__(self, other: DimSize) -> DimSize:
        if not _convertible(other):
            return NotImplemented
        return DimExpr.linear_combination(self, -1, other, 1, self._scope)

    def __neg__(self) -> DimSize:
        return DimExpr.linear_combination(self, -1, 0, 0, self._scope)

    def __mul__(self, other: DimSize) -> DimSize:
        if not _convertible(other):
            return NotImplemented
        if isinstance(other, int):
            if other == 1:
                return self
            if other == 0:
                return 0
            return DimExpr.linear_combination(self, other, 0, 0, self._scope)
        o = ensure_poly(other, "mul", self._scope)
        coeffs: dict[Term, int] = {}
        for t1, k1 in self.terms:
            for t2, k2 in o.terms:
                if k1 * k2:
                    t = t1.mul(t2)
                    coeffs[t] = coeffs.get(t, 0) + k1 * k2
        return DimExpr.normalize(
            sorted(((t, k) for t, k in coeffs.items() if k), reverse=True), self._scope
        )

    def __rmul__(self, other: DimSize) -> DimSize:
        if not _convertible(other):
            return NotImplemented
        if isinstance(other, int):
            return self.__mul__(other)
        return ensure_poly(other, "mul", self._scope).__mul__(self)

    def __pow__(self, power: object, modulo: None = None) -> DimSize:
        if modulo is not None:
            raise NotImplementedError("__pow__ modulo not implemented")
        if isinstance(power, DimExpr) or not isinstance(power, int | float):
            return NotImplemented
        if power != int(power):
            raise ValueError(
                f"Symbolic dimension cannot be raised to non-integer powers: '{self}' ** '{power}'"
            )
        if power < 0:
            raise ValueError(
                f"Symbolic dimension cannot be raised to negative powers: '{self}' ** '{power}'"
            )
        acc: DimSize = 1
        for _ in range(int(power)):
            acc = self * acc if isinstance(acc, int) else acc * self
        return acc

    def __floordiv__(self, divisor: DimSize) -> DimSize:
        if not _convertible(divisor):
            return NotImplemented
        return self.poly_divmod(divisor)[0]

    def __rfloordiv__(self, dividend: DimSize) -> DimSize:
        if not _convertible(dividend):
            return NotImplemented
        return ensure_poly(dividend, "floordiv", self._scope).poly_divmod(self)[0]

    def __mod__(self, divisor: DimSize) -> DimSize:
        if not _convertible(divisor):
            return NotImplemented
        return self.poly_divmod(divisor)[1]

    def __rmod__(self, dividend: DimSize) -> DimSize:
        if not _convertible(dividend):
            return NotImplemented
        return ensure_poly(dividend, "mod", self._scope).poly_divmod(self)[1]

    def __divmod__(self, divisor: DimSize) -> tuple[DimSize, DimSize]:
        if not _convertible(divisor):
            return NotImplemented
        return self.poly_divmod(divisor)

    def __rdivmod__(self, dividend: DimSize) -> tuple[DimSize, DimSize]:
        if not _convertible(dividend):
            return NotImplemented  # type: ignore[no-any-return]
        return ensure_poly(dividend, "divmod", self._scope).poly_divmod(self)

    def poly_divmod(self, divisor: DimSize) -> tuple[DimSize, DimSize]:
        """Polynomial division; ``floordiv``/``mod`` factors when it is not exact.

        With a symbolic divisor the remainder must be 0; with a constant divisor the
        remainder may be a nonzero constant, as for integers.
        """
        scope = self._scope
        try:
            dividend: DimSize = self
            quotient: DimSize = 0
            while isinstance(dividend, DimExpr) and not dividend.is_constant:
                t, k = dividend.leading_term
                if isinstance(divisor, DimExpr):
                    dt, dk = divisor.leading_term
                    qt = t.divide(dt)
                else:
                    qt, dk = t, int(divisor)
                qk, rk = divmod(k, dk)
                if rk != 0:
                    raise inconclusive("")
                q = DimExpr.from_term(qt, qk, scope)
                quotient = quotient + q
                dividend = dividend - q * divisor
            rest = int(dividend)
            if isinstance(divisor, DimExpr):
                if rest != 0:
                    raise inconclusive("")
                return quotient, 0
            q_int, r_int = divmod(rest, int(divisor))
            return quotient + q_int, r_int
        except InconclusiveDimensionOperation:
            return (
                DimExpr.from_operation(FLOORDIV, self, divisor, scope=scope),
                DimExpr.from_operation(MOD, self, divisor, scope=scope),
            )

    def __int__(self) -> int:
        if (c := DimExpr.constant_of(self)) is not None:
            return c
        raise inconclusive(
            f"Symbolic dimension '{self}' used in a context that requires a constant"
        )

    if TYPE_CHECKING:
        # For checkers only: a symbolic dimension goes where a shape takes an integer, as JAX's
        # annotations accept it. At run time, as in JAX, it has no ``__index__``.
        def __index__(self) -> int: ...

    def dimension_as_value(self) -> Any:
        """The dimension as a traced scalar integer (``dim_as_value``), to compute with."""
        if not _as_value:
            raise NotImplementedError("jax_core.lax is not loaded: a dimension cannot be used as a value")
        return _as_value[0](self)

    def __jax_array__(self) -> Any:
        # Used where an array is expected (``x * x.shape[0]``), as in JAX.
        return self.dimension_as_value()

    # ----- comparisons -----

    def __eq__(self, other: object) -> bool:
        o: DimSize
        if isinstance(other, DimExpr):
            if self._scope is not other.scope:
                return False
            o = other
        elif (i := as_index(other)) is None:
            return False
        else:
            o = i
        diff = self - o
        # Unsound but total, as in JAX: ``==`` must not raise (it is used for hashing).
        return not isinstance(diff, DimExpr) and diff == 0

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __ge__(self, other: DimSize) -> bool:
        from jax_core._src.core.shape_poly import decision

        return decision.geq_decision(self, other, lambda: f"'{self}' >= '{other}'")

    def __le__(self, other: DimSize) -> bool:
        from jax_core._src.core.shape_poly import decision

        return decision.geq_decision(other, self, lambda: f"'{self}' <= '{other}'")

    def __gt__(self, other: DimSize) -> bool:
        from jax_core._src.core.shape_poly import decision

        return not decision.geq_decision(other, self, lambda: f"'{self}' > '{other}'")

    def __lt__(self, other: DimSize) -> bool:
        from jax_core._src.core.shape_poly import decision

        return not decision.geq_decision(self, other, lambda: f"'{self}' < '{other}'")

    # ----- evaluation -----

    def evaluate(self, env: Mapping[str, T], arith: DimArith[T]) -> T:
        """The value with the variables bound by ``env``, computed with ``arith``.

        Raises :class:`UnexpectedDimVar` for a variable ``env`` lacks.
        """
        values: list[T] = []
        for t, k in self.terms:
            if t.is_constant:
                values.append(arith.constant(k))
                continue
            v = t.evaluate(env, arith, self._scope)
            values.append(v if k == 1 else arith.mul(v, arith.constant(k)))
        return functools.reduce(arith.add, values)


type DimSize = int | DimExpr
type Shape = tuple[DimSize, ...]


def _convertible(p: object) -> bool:
    return isinstance(p, DimExpr) or is_constant_dim(p)


def ensure_poly(p: DimSize, operation_name: str, scope: SymbolicScope) -> DimExpr:
    """``p`` as an expression of ``scope`` (ints become constant expressions)."""
    if isinstance(p, DimExpr):
        scope.check_same_scope(p, when=f"for operation {operation_name}")
        return p
    if (i := as_index(p)) is not None:
        return DimExpr(((ONE, i),), scope)
    raise TypeError(f"Symbolic dimension {operation_name} not supported for {p}.")


type NormalizationRules = dict[Term, tuple[DimExpr, int]]


def _rewrites(t: Term, k: int, rules: NormalizationRules) -> list[tuple[Term, int]]:
    """The updates to add to an expression holding ``k*t`` to apply a rule ``t*tk -> e``."""
    after, after_k = rules.get(t, (None, 0))
    if after is not None and k % after_k == 0:
        return [(t, -k), *((t2, k2 * (k // after_k)) for t2, k2 in after.terms)]
    if len(t.factors) <= 1:
        return []
    for f, e in t.factors:
        f_term = Term(((f, e),))
        f_after, f_k = rules.get(f_term, (None, 0))
        if f_after is not None and k % f_k == 0:
            rest = t.divide(f_term)
            return [(t, -k), *((t2.mul(rest), k2 * (k // f_k)) for t2, k2 in f_after.terms)]
    return []
