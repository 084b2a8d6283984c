"""The shape checker's data layer (jax_core/mypy_plugin/_shape_spec.py, _shape_rules.py): the
dimension grammar, binding a callee's names per call, dtype promotion and the rules, without
mypy. The checks through mypy are tests/typing/test_shape_corpus.py."""

from __future__ import annotations

import pytest

from jax_core.mypy_plugin._shape_operands import Call, Operand, ShapeError
from jax_core.mypy_plugin._shape_rules import TABLE, broadcast
from jax_core.mypy_plugin._shape_spec import (
    Binding,
    Shape,
    SpecError,
    Star,
    apply,
    bind,
    dtype_conflict,
    evaluate,
    parse_dims,
    promote,
    scalar_promote,
)
from jax_core.mypy_plugin._shape_types import Sym

JNP = "jax_core.numpy"


def arr(spec: str, dtype: str = "Float") -> Operand:
    dims, _ = parse_dims(spec)
    return Operand(shape=Shape(dtype, dims))


def run(name: str, *args: Operand, **kwargs: Operand) -> Shape | None:
    return TABLE[f"{JNP}.{name}"](Call(name, list(args), dict(kwargs)))


def val(v: object) -> Operand:
    return Operand(value=v)


def test_grammar() -> None:
    dims, broadcast_at = parse_dims("batch 3 _ _n #k *rest n+1 m=n*2")
    assert dims == ("batch", 3, None, None, "k", Star("rest"), "n+1", "n*2")
    assert broadcast_at == frozenset({4})
    assert parse_dims("... n")[0] == (Star(None), "n")
    assert parse_dims("")[0] == ()
    with pytest.raises(SpecError, match="at most one variadic"):
        parse_dims("*a ... n")
    with pytest.raises(SpecError, match="invalid dimension"):
        parse_dims("n!")


def test_expressions() -> None:
    assert evaluate("n+1", {"n": 3}) == 4
    assert evaluate("2*n//3", {"n": 6}) == 4
    assert evaluate("n+m", {"n": 3}) is None
    assert evaluate("n//0", {"n": 3}) is None
    assert evaluate("__import__('os')", {}) is None  # not arithmetic: never evaluated


def test_binding_per_call() -> None:
    b = Binding()
    assert bind(Shape("Float", ("n", "d")), Shape("Float", (8, 3)), b) is None
    assert bind(Shape("Float", ("d", "k")), Shape("Float", (3, 2)), b) is None
    assert apply(Shape("Float", ("n", "k", "d+1")), b).dims == (8, 2, 4)
    problem = bind(Shape("Float", ("d",)), Shape("Float", (4,)), b)
    assert problem is not None and "d is 3" in problem
    assert bind(Shape("Float", ("n",)), Shape("Float", (1, 2)), Binding()) == "rank 2 is not 1"
    # a symbol against a size is undecided, two different symbols are not
    assert (
        bind(Shape("Float", ("n",)), Shape("Float", ("m",)), Binding(dims={"n": "n"})) is not None
    )
    assert bind(Shape("Float", (3,)), Shape("Float", ("m",)), Binding()) is None
    # variadic runs bind as a whole
    b2 = Binding()
    assert bind(Shape("Float", (Star("batch"), "d")), Shape("Float", (4, 5, 6)), b2) is None
    assert apply(Shape("Float", (Star("batch"), 1)), b2).dims == (4, 5, 1)
    # broadcastable: 1 is accepted
    dims, bc = parse_dims("#n")
    assert bind(Shape("Float", dims, bc), Shape("Float", (1,)), Binding(dims={"n": 5})) is None


def test_dtypes() -> None:
    assert promote("Float32", "Int32") == "Float32"
    assert promote("Float32", "Float64") == "Float64"
    assert promote("Int", "Float") == "Float"
    assert promote("Bool", "Int8") == "Int8"
    assert promote("Shaped", "Float") == "Shaped"
    assert scalar_promote("Int32", "float") == "Float"
    assert scalar_promote("Float16", "float") == "Float16"
    assert dtype_conflict("Float", "Int32")
    assert dtype_conflict("Float32", "Float64")
    assert not dtype_conflict("Float32", "Float")
    assert not dtype_conflict("Shaped", "Int")


def test_broadcasting() -> None:
    assert broadcast([Shape(dims=("b", "n")), Shape(dims=("n",))], "add") == ("b", "n")
    assert broadcast([Shape(dims=("b", 1)), Shape(dims=(1, "n"))], "add") == ("b", "n")
    assert broadcast([Shape(dims=(Star("batch"), "n")), Shape(dims=("n",))], "add") == (
        Star("batch"),
        "n",
    )
    with pytest.raises(ShapeError, match="n != b"):
        broadcast([Shape(dims=("b", "n")), Shape(dims=("b",))], "add")
    assert broadcast([Shape(dims=("b", "n")), Shape(dims=(3,))], "add") == ("b", None)


def test_rules() -> None:
    x, w = arr("b n"), arr("n m")
    assert run("matmul", x, w) == Shape("Float", ("b", "m"))
    with pytest.raises(ShapeError, match="m != b"):
        run("matmul", w, x)
    assert run("sum", x, axis=val(0)) == Shape("Float", ("n",))
    assert run("mean", arr("b n", "Int32"), axis=val(1), keepdims=val(True)) == Shape(
        "Float", ("b", 1)
    )
    with pytest.raises(ShapeError, match="out of bounds"):
        run("sum", x, axis=val(2))
    assert run("einsum", val("bn,nm->bm"), x, w) == Shape("Float", ("b", "m"))
    assert run("reshape", arr("4 6"), val((3, -1))) == Shape("Float", (3, 8))
    with pytest.raises(ShapeError, match="cannot reshape"):
        run("reshape", arr("4 6"), val((5, 5)))
    assert run("transpose", x) == Shape("Float", ("n", "b"))
    assert run("swapaxes", arr("a b c"), val(0), val(2)) == Shape("Float", ("c", "b", "a"))
    assert run("moveaxis", arr("a b c"), val(0), val(-1)) == Shape("Float", ("b", "c", "a"))
    listed = Operand(items=(x, arr("k n")))
    assert run("concatenate", listed, val(0)) == Shape("Float", ("b+k", "n"))
    with pytest.raises(ShapeError, match="same shape"):
        run("stack", listed)
    assert run("expand_dims", x, val(1)) == Shape("Float", ("b", 1, "n"))
    with pytest.raises(ShapeError, match="not 1"):
        run("squeeze", arr("n 3"), val(1))
    assert run("zeros", val((Sym("b"), Sym("4")))) == Shape("Float", ("b", 4))
    assert run("zeros", val((2, 3))) is None  # literal sizes: an unannotated value stays unknown
    assert run("where", arr("b n", "Bool"), x, Operand(scalar="float")) == Shape(
        "Float", ("b", "n")
    )
    assert run("greater", x, Operand(scalar="int")) == Shape("Bool", ("b", "n"))
