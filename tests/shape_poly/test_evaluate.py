"""jax_core's own surface of symbolic dimensions: evaluation through a ``DimArith`` backend,
``non_negative_dim``, variables, hashing and the public re-exports."""

from __future__ import annotations

import itertools

import pytest

from jax_core._src.core import errors
from jax_core._src.core import shape_poly as sp


class _Trace:
    """A DimArith building the text of the computation, to see what ``evaluate`` emits."""

    def constant(self, v: int, /) -> str:
        return str(v)

    def add(self, a: str, b: str, /) -> str:
        return f"({a} + {b})"

    def sub(self, a: str, b: str, /) -> str:
        return f"({a} - {b})"

    def mul(self, a: str, b: str, /) -> str:
        return f"({a} * {b})"

    def floordiv(self, a: str, b: str, /) -> str:
        return f"fd({a}, {b})"

    def mod(self, a: str, b: str, /) -> str:
        return f"md({a}, {b})"

    def max(self, a: str, b: str, /) -> str:
        return f"mx({a}, {b})"

    def min(self, a: str, b: str, /) -> str:
        return f"mn({a}, {b})"


SPECS = [
    "a",
    "2*a*b - 3*b + 7",
    "a^2*b - b^2",
    "floordiv(a - 7, 3)",
    "mod(2*a - 9, 4)",
    "max(a, 3*b) - min(a, b)",
    "floordiv(a*b, b + 1) + mod(-a, 5)",
    "floordiv(5 - 3*a, -2)",
]


@pytest.mark.parametrize("spec", SPECS)
def test_evaluate_on_ints_matches_python(spec: str) -> None:
    (e,) = sp.symbolic_shape(spec)
    assert isinstance(e, sp.DimExpr)
    py = spec.replace("^", "**").replace("floordiv", "fd").replace("mod", "md")
    for a, b in itertools.product(range(1, 7), range(1, 5)):
        env: dict[str, object] = {
            "a": a,
            "b": b,
            "fd": sp.INT_ARITH.floordiv,
            "md": sp.INT_ARITH.mod,
        }
        assert e.evaluate({"a": a, "b": b}, sp.INT_ARITH) == eval(py, env), (spec, a, b)


def test_evaluate_structure() -> None:
    (e,) = sp.symbolic_shape("2*a*b + floordiv(a, 3) - 1")
    assert isinstance(e, sp.DimExpr)
    assert e.evaluate({"a": "A", "b": "B"}, _Trace()) == "((fd(A, 3) + ((B * A) * 2)) + -1)"
    with pytest.raises(sp.UnexpectedDimVar, match="Encountered dimension variable 'b'"):
        e.evaluate({"a": 1}, sp.INT_ARITH)


def test_evaluate_symbolically() -> None:
    a, b = sp.symbolic_shape("a, b")
    e = sp.max_dim(a, b) + a // 2
    assert isinstance(e, sp.DimExpr)
    assert str(e.evaluate({"a": 2 * b, "b": b}, sp.SYMBOLIC_ARITH)) == "3*b"


def test_non_negative_dim() -> None:
    a, b = sp.symbolic_shape("a, b")
    assert sp.non_negative_dim(a) is a
    assert str(sp.non_negative_dim(a - b)) == "max(- b + a, 0)"
    assert sp.non_negative_dim(-3) == 0
    assert sp.non_negative_dim(a - 1) == a - 1


def test_vars_constants_and_hash() -> None:
    a, b = sp.symbolic_shape("a, b")
    e = a * b + a // 3
    assert isinstance(e, sp.DimExpr)
    assert e.get_vars() == frozenset({"a", "b"})
    assert not e.is_constant
    assert (a + b) - b is a or (a + b) - b == a
    assert hash(a + b) == hash(b + a) and {a + b: 1}[b + a] == 1
    assert isinstance(a - a, int) and a - a == 0
    assert sp.symbolic_dim_bounds(7) == (7, 7)


def test_inconclusive_is_the_errors_class() -> None:
    (a,) = sp.symbolic_shape("a")
    assert sp.InconclusiveDimensionOperation is errors.InconclusiveDimensionOperation
    with pytest.raises(errors.InconclusiveDimensionOperation, match="'a' >= '2' is inconclusive"):
        bool(a >= 2)
    with pytest.raises(TypeError):
        a * 2.5  # type: ignore[operator]  # JAX makes an array here; there are none at this level
