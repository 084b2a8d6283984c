"""Solving dimension variables from the actual shapes of arguments, and the shape assertions.

Each symbolic dimension ``d`` of argument ``i`` at axis ``j`` gives an equation
``spec_expr == args[i].shape[j]``, where ``args[i].shape[j]`` is a fresh *synthetic* variable
standing for the actual size. Linear univariate equations are solved first and their solutions
substituted into the others, until every variable is expressed over synthetic variables; the
conditions for the solution to be valid (divisibility, every variable ``>= 1``, consistency of
the remaining dimensions, the scope's constraints) become shape assertions with JAX's messages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from jax_core._src.core.shape_poly.decision import max_dim, min_dim
from jax_core._src.core.shape_poly.dim_expr import (
    INT_ARITH,
    DimExpr,
    DimSize,
    UnexpectedDimVar,
)
from jax_core._src.core.shape_poly.scope import Comparator, SymbolicScope

_MISMATCH: Final = "Input shapes do not match the polymorphic shapes specification. "
_ASSERTION_DOCS: Final = (
    ". Please see https://docs.jax.dev/en/latest/501/shape-polymorphism.html#shape-assertion-errors"
    " for more details."
)
_SOLVABLE_DOCS: Final = (
    "Please see https://docs.jax.dev/en/latest/501/shape-polymorphism.html"
    "#dimension-variables-must-be-solvable-from-the-input-shapes for more details."
)
_MAX_MESSAGE_INPUTS: Final = 32  # the limit of the shape_assertion custom call


class SymbolicArith:
    """:class:`DimArith` on dimension sizes (ints and symbolic expressions)."""

    def constant(self, v: int, /) -> DimSize:
        return v

    def add(self, a: DimSize, b: DimSize, /) -> DimSize:
        return a + b

    def sub(self, a: DimSize, b: DimSize, /) -> DimSize:
        return a - b

    def mul(self, a: DimSize, b: DimSize, /) -> DimSize:
        return a * b

    def floordiv(self, a: DimSize, b: DimSize, /) -> DimSize:
        return a // b

    def mod(self, a: DimSize, b: DimSize, /) -> DimSize:
        return a % b

    def max(self, a: DimSize, b: DimSize, /) -> DimSize:
        return max_dim(a, b)

    def min(self, a: DimSize, b: DimSize, /) -> DimSize:
        return min_dim(a, b)


SYMBOLIC_ARITH: Final = SymbolicArith()


@dataclass(frozen=True, slots=True)
class ShapeAssertion:
    """``left == right`` (``"eq"``) or ``left >= right`` (``"ge"``) over synthetic variables.

    ``error_message`` has ``{0}``, ``{1}``, ... for the values of ``error_message_inputs``.
    """

    comp: Literal["eq", "ge"]
    left: DimSize
    right: DimSize
    error_message: str
    error_message_inputs: tuple[DimSize, ...]

    def holds(self, env: Mapping[str, int]) -> bool:
        """Whether the assertion holds for the synthetic variables' values ``env``."""
        left, right = _eval_int(self.left, env), _eval_int(self.right, env)
        return left == right if self.comp == "eq" else left >= right

    def message(self, env: Mapping[str, int]) -> str:
        """The error message with the inputs' values for ``env``."""
        return self.error_message.format(*(_eval_int(e, env) for e in self.error_message_inputs))


def _eval_int(e: DimSize, env: Mapping[str, int]) -> int:
    return e.evaluate(env, INT_ARITH) if isinstance(e, DimExpr) else int(e)


def _format(
    comp: Comparator, left: DimSize, right: DimSize, pieces: Sequence[str | DimSize]
) -> ShapeAssertion:
    specs: dict[DimSize, str] = {}
    inputs: list[DimSize] = []
    text: list[str] = []
    for p in pieces:
        if isinstance(p, str):
            text.append(p)
        elif (spec := specs.get(p)) is not None:
            text.append(spec)
        elif len(inputs) >= _MAX_MESSAGE_INPUTS:
            text.append("N/A")
        else:
            spec = specs[p] = "{" + str(len(inputs)) + "}"
            text.append(spec)
            inputs.append(p)
    kind: Literal["eq", "ge"] = "eq" if comp == Comparator.EQ else "ge"
    return ShapeAssertion(kind, left, right, "".join(text), tuple(inputs))


@dataclass
class DimVarSolution:
    """The dimension variables of symbolic argument shapes, solved over synthetic variables.

    ``solution[v]`` expresses variable ``v`` over the synthetic variables named by
    :meth:`arg_dim_var` for the dimensions in ``synthetic_dims``; ``assertions`` are the checks
    to emit (in JAX's order) and ``constraints`` all the checks, including those that hold
    statically.
    """

    dim_vars: list[str]
    solution: dict[str, DimSize]
    synthetic_dims: list[tuple[int, int]]
    constraints: list[ShapeAssertion]
    args_shapes: tuple[tuple[DimSize, ...], ...]
    args_names: tuple[str, ...]
    assertions: list[ShapeAssertion] = field(default_factory=list[ShapeAssertion])

    def arg_dim_var(self, arg_index: int, dim_index: int) -> str:
        """The synthetic variable for the actual size of dimension ``dim_index`` of an argument."""
        return f"{self.args_names[arg_index]}.shape[{dim_index}]"

    def check_concrete(self, arg_shapes: Sequence[tuple[int, ...]]) -> dict[str, int]:
        """The variables' values for concrete argument shapes, or JAX's ``ValueError``.

        Checks ranks and constant dimensions, then every constraint in order, as JAX does when
        an ``Exported`` is called.
        """
        if len(arg_shapes) != len(self.args_shapes):
            raise ValueError(f"Expected {len(self.args_shapes)} arguments, got {len(arg_shapes)}")
        for i, (expected, actual) in enumerate(zip(self.args_shapes, arg_shapes)):
            actual = tuple(actual)
            if len(expected) != len(actual):
                raise ValueError(
                    f"Rank mismatch for {self.args_names[i]}: expected {expected} and called with {actual}"
                )
            for j, d in enumerate(expected):
                if not isinstance(d, DimExpr) and d != actual[j]:
                    raise ValueError(
                        f"Shape mismatch for {self.args_names[i]}.shape[{j}] (expected same constant): "
                        f"expected {expected} and called with {actual}"
                    )
        env = {self.arg_dim_var(i, j): int(arg_shapes[i][j]) for i, j in self.synthetic_dims}
        for c in self.constraints:
            if not c.holds(env):
                raise ValueError(c.message(env))
        return {v: _eval_int(self.solution[v], env) for v in self.dim_vars}


@dataclass
class _Equation:
    spec: DimExpr
    dim_name: str


class _Solver:
    def __init__(self, specs: Sequence[tuple[str, str]]) -> None:
        self.env: dict[str, DimSize] = {}
        self.constraints: list[ShapeAssertion] = []
        self.solution_pieces: list[str | DimSize] = [" Obtained dimension variables: "]
        self.specs_msg = (
            " Using the following polymorphic shapes specifications: "
            + ",".join(f"{name}.shape = {spec}" for name, spec in specs)
            + "."
        )
        self.scope: SymbolicScope | None = None

    def add(
        self, comp: Comparator, left: DimSize, right: DimSize, head: Sequence[str | DimSize]
    ) -> None:
        pieces = [*head, *self.solution_pieces, _ASSERTION_DOCS]
        self.constraints.append(_format(comp, left, right, pieces))

    def process(self, eqn: _Equation) -> bool:
        """Solves ``eqn`` for its one unknown variable, or checks it; False if not yet possible."""
        if self.scope is None:
            self.scope = eqn.spec.scope
        scope = self.scope
        dim_value = DimExpr.from_var(eqn.dim_name, scope)
        var: str | None = None
        var_k = 0
        for t, k in eqn.spec.terms:
            try:
                value = t.evaluate(self.env, SYMBOLIC_ARITH, scope)
            except UnexpectedDimVar:
                v = t.to_var()
                if v is not None and var is None:
                    var, var_k = v, k
                    continue
                return False
            dim_value = dim_value + -1 * (value if k == 1 else value * k)
        if var is None:
            actual = DimExpr.from_var(eqn.dim_name, eqn.spec.scope)
            expected = eqn.spec.evaluate(self.env, SYMBOLIC_ARITH)
            self.add(
                Comparator.EQ,
                actual,
                expected,
                [
                    _MISMATCH + f"Found inconsistency between dimension size {eqn.dim_name} (= ",
                    actual,
                    f") and the specification '{eqn.spec}' (= ",
                    expected,
                    ")." + self.specs_msg,
                ],
            )
            return True
        if var_k == 1:
            var_value = dim_value
        else:
            var_value, remainder = divmod(dim_value, var_k)
            self.add(
                Comparator.EQ,
                remainder,
                0,
                [
                    _MISMATCH + "Division had remainder ",
                    remainder,
                    f" when computing the value of '{var}'." + self.specs_msg,
                ],
            )
        self.env[var] = var_value
        self.solution_pieces.extend(
            [
                f"'{var}' = ",
                var_value,
                f" from specification '{eqn.spec}' for dimension {eqn.dim_name} (= ",
                DimExpr.from_var(eqn.dim_name, eqn.spec.scope),
                "), ",
            ]
        )
        self.add(
            Comparator.GEQ,
            var_value,
            1,
            [_MISMATCH + f"Expected value >= 1 for dimension variable '{var}'." + self.specs_msg],
        )
        return True

    def add_explicit_constraints(self) -> None:
        if not self.env or self.scope is None:
            return
        for c in self.scope.explicit_constraints:
            diff = (
                c.diff.evaluate(self.env, SYMBOLIC_ARITH) if isinstance(c.diff, DimExpr) else c.diff
            )
            relation = "greater or equal" if c.cmp == Comparator.GEQ else "equal"
            self.add(
                c.cmp,
                diff,
                0,
                [
                    (
                        f"Input shapes do not match the symbolic shape constraint {c.debug_str}. "
                        f"Expected '{c.diff}' to be {relation} to 0, but found "
                    ),
                    diff,
                    ". " + self.specs_msg,
                ],
            )


def solve_dim_vars(
    args_shapes: Sequence[tuple[DimSize, ...]], args_names: Sequence[str]
) -> DimVarSolution:
    """Solves the dimension variables of ``args_shapes`` over the actual argument dimensions.

    ``args_names`` names each argument in messages (``"args[0]"``, ``"kwargs['x']"``). Raises
    JAX's ``ValueError`` when some variable cannot be solved (only linear univariate equations
    are solved), or when an assertion fails regardless of the actual shapes.
    """
    shapes = tuple(tuple(s) for s in args_shapes)
    names = tuple(args_names)
    eqns: list[_Equation] = []
    synthetic: list[tuple[int, int]] = []
    specs: list[tuple[str, str]] = []
    all_vars: set[str] = set()
    for i, shape in enumerate(shapes):
        if not any(isinstance(d, DimExpr) for d in shape):
            continue
        specs.append((names[i], str(shape)))
        for j, d in enumerate(shape):
            if isinstance(d, DimExpr):
                all_vars |= d.get_vars()
                synthetic.append((i, j))
                eqns.append(_Equation(d, f"{names[i]}.shape[{j}]"))
    solver = _Solver(specs)
    while True:
        before = len(eqns)
        eqns = [e for e in eqns if not solver.process(e)]
        if not eqns:
            solver.add_explicit_constraints()
            break
        if len(eqns) >= before:
            unsolved: set[str] = set()
            for e in eqns:
                unsolved |= e.spec.get_vars()
            unsolved -= solver.env.keys()
            unprocessed = ", ".join(f"'{e.spec}' for dimension size {e.dim_name}" for e in eqns)
            raise ValueError(
                f"Cannot solve for values of dimension variables {unsolved}. "
                "We can only solve linear uni-variate constraints."
                f"{solver.specs_msg} Unprocessed specifications: {unprocessed}. {_SOLVABLE_DOCS}"
            )
    assertions: list[ShapeAssertion] = []
    for c in solver.constraints:
        if isinstance(c.left, DimExpr) or isinstance(c.right, DimExpr):
            assertions.append(c)
        elif not c.holds({}):
            raise ValueError(c.message({}))
    return DimVarSolution(
        dim_vars=sorted(all_vars),
        solution=dict(solver.env),
        synthetic_dims=synthetic,
        constraints=solver.constraints,
        args_shapes=shapes,
        args_names=names,
        assertions=assertions,
    )
