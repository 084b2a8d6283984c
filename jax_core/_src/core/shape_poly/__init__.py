"""Symbolic dimensions for shape polymorphism: expressions, scopes, parsing, decisions, solving.

Imports only ``jax_core._src.core.errors`` (and the stdlib), so avals and lowering may import it.
"""

from jax_core._src.core.errors import InconclusiveDimensionOperation
from jax_core._src.core.shape_poly.decision import (
    BoundsPrecision,
    bounds_decision,
    max_dim,
    min_dim,
    non_negative_dim,
    symbolic_dim_bounds,
)
from jax_core._src.core.shape_poly.dim_expr import (
    INT_ARITH,
    DimArith,
    DimExpr,
    DimSize,
    Shape,
    UnexpectedDimVar,
    is_constant_dim,
    is_symbolic_dim,
    register_dimension_as_value,
)
from jax_core._src.core.shape_poly.parser import symbolic_shape
from jax_core._src.core.shape_poly.scope import Comparator, SymbolicConstraint, SymbolicScope
from jax_core._src.core.shape_poly.solve import (
    SYMBOLIC_ARITH,
    DimVarSolution,
    ShapeAssertion,
    solve_dim_vars,
)

__all__ = [
    "INT_ARITH",
    "SYMBOLIC_ARITH",
    "BoundsPrecision",
    "Comparator",
    "DimArith",
    "DimExpr",
    "DimSize",
    "DimVarSolution",
    "InconclusiveDimensionOperation",
    "Shape",
    "ShapeAssertion",
    "SymbolicConstraint",
    "SymbolicScope",
    "UnexpectedDimVar",
    "bounds_decision",
    "is_constant_dim",
    "is_symbolic_dim",
    "max_dim",
    "min_dim",
    "non_negative_dim",
    "register_dimension_as_value",
    "solve_dim_vars",
    "symbolic_dim_bounds",
    "symbolic_shape",
]
