"""Where shapes are trusted and where they are checked inside a function body.

mypy merges a variable's types at the end of an ``if`` by simplifying their union, and two
``Array`` types that carry different shapes look alike to it: the merged type would show one
branch's shape. So an operand's shape is trusted only when its value has one origin: not a
conditional expression, and not a local variable assigned in more than one block (a straight run
of reassignments, ``h = f(h)``, is kept). Checks happen at the places an annotation states a
shape: a ``return`` (directly, or through a variable assigned once) and an annotated assignment.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mypy.nodes import (
    AssignmentStmt,
    Block,
    ConditionalExpr,
    Expression,
    ForStmt,
    FuncItem,
    IfStmt,
    ListExpr,
    NameExpr,
    OperatorAssignmentStmt,
    ReturnStmt,
    Statement,
    TryStmt,
    TupleExpr,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.types import CallableType, TupleType, Type, get_proper_type

from jax_core.mypy_plugin._shape_types import has_shapes


@dataclass
class Sink:
    """A place where an expression's shape must match an annotation."""

    expected: Type
    what: str
    line: int


@dataclass
class FunctionFacts:
    """What the checks need to know about one function body."""

    blocks: dict[Var, set[int]] = field(default_factory=dict[Var, set[int]])
    sinks: dict[int, Sink] = field(default_factory=dict[int, Sink])
    returned_params: list[tuple[NameExpr, Sink]] = field(
        default_factory=list[tuple[NameExpr, Sink]]
    )
    checked_params: bool = False


class _Collect:
    """A walk over one function's statements (mypy's visitors are compiled and cannot be
    subclassed from a plugin): assignments by block, returns, annotated assignments."""

    def __init__(self, facts: FunctionFacts) -> None:
        self.facts = facts
        self.assigned: dict[Var, list[Expression]] = {}
        self.returns: list[ReturnStmt] = []

    def block(self, block: Block | None) -> None:
        if block is None:
            return
        for stmt in block.body:
            self.statement(stmt, id(block))

    def _target(self, target: Expression, rvalue: Expression, where: int) -> None:
        for t in target.items if isinstance(target, (TupleExpr, ListExpr)) else [target]:
            if isinstance(t, NameExpr) and isinstance(t.node, Var):
                self.facts.blocks.setdefault(t.node, set()).add(where)
                self.assigned.setdefault(t.node, []).append(rvalue if t is target else t)

    def statement(self, stmt: Statement, where: int) -> None:
        if isinstance(stmt, AssignmentStmt):
            for lv in stmt.lvalues:
                self._target(lv, stmt.rvalue, where)
            if stmt.type is not None and len(stmt.lvalues) == 1 and has_shapes(stmt.type):
                self.facts.sinks[id(stmt.rvalue)] = Sink(stmt.type, "the assigned value", stmt.line)
        elif isinstance(stmt, OperatorAssignmentStmt):
            self._target(stmt.lvalue, stmt.lvalue, where)
            self._target(
                stmt.lvalue, stmt.lvalue, -1
            )  # its type is the operation's: not one origin
        elif isinstance(stmt, ReturnStmt):
            self.returns.append(stmt)
        elif isinstance(stmt, IfStmt):
            for b in stmt.body:
                self.block(b)
            self.block(stmt.else_body)
        elif isinstance(stmt, (ForStmt, WhileStmt)):
            if isinstance(stmt, ForStmt):
                self._target(stmt.index, stmt.index, id(stmt.body))
            self.block(stmt.body)
            self.block(stmt.else_body)
        elif isinstance(stmt, WithStmt):
            for target in stmt.target:
                if target is not None:
                    self._target(target, target, where)
            self.block(stmt.body)
        elif isinstance(stmt, TryStmt):
            self.block(stmt.body)
            for h in stmt.handlers:
                self.block(h)
            self.block(stmt.else_body)
            self.block(stmt.finally_body)
        elif isinstance(stmt, Block):
            self.block(stmt)


def collect(func: FuncItem) -> FunctionFacts:
    """Scans one function body (not nested functions) for assignments and checked places."""
    facts = FunctionFacts()
    visitor = _Collect(facts)
    visitor.block(func.body)
    params = {a.variable for a in func.arguments}
    top = id(func.body)
    for p in params:
        facts.blocks.setdefault(p, set()).add(top)
    signature = func.type if isinstance(func.type, CallableType) else None
    ret = get_proper_type(signature.ret_type) if signature is not None else None
    if ret is None or not has_shapes(ret):
        return facts
    for stmt in visitor.returns:
        if stmt.expr is None:
            continue
        pairs: list[tuple[Expression, Type, str]] = [(stmt.expr, ret, "the return value")]
        if (
            isinstance(stmt.expr, TupleExpr)
            and isinstance(ret, TupleType)
            and len(ret.items) == len(stmt.expr.items)
        ):
            pairs = [
                (e, t, f"return value {i}")
                for i, (e, t) in enumerate(zip(stmt.expr.items, ret.items, strict=True))
            ]
        for expr, expected, what in pairs:
            if not has_shapes(expected):
                continue
            sink = Sink(expected, what, stmt.line)
            facts.sinks[id(expr)] = sink
            if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
                origins = visitor.assigned.get(expr.node, [])
                if expr.node in params:
                    if not origins:
                        facts.returned_params.append((expr, sink))
                elif len(origins) == 1 and not isinstance(origins[0], NameExpr):
                    facts.sinks.setdefault(
                        id(origins[0]), Sink(expected, f"{what} ({expr.name})", stmt.line)
                    )
    return facts


def trusted(facts: FunctionFacts | None, expr: Expression | None) -> bool:
    """Whether the type mypy gives ``expr`` can be believed to carry its value's shape."""
    if expr is None:
        return True
    if isinstance(expr, ConditionalExpr):
        return False
    if facts is not None and isinstance(expr, NameExpr) and isinstance(expr.node, Var):
        return len(facts.blocks.get(expr.node, ())) <= 1
    return True
