"""Bad input under shape polymorphism gets JAX's exception class and message: calls whose shapes
violate the specification or a constraint (checked in Python before anything is compiled),
inconclusive comparisons, uses of a symbolic dimension as a constant, shapes that do not divide
evenly, mixed scopes. Both runs are live, on this machine (real JAX in the oracle venv)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.sharding._programs import run_both

PROGRAM = r"""
export = jax.export

scope = export.SymbolicScope(("b >= 2",))
spec = jax.ShapeDtypeStruct(export.symbolic_shape("b, 2*h", scope=scope), jnp.float32)
exp = export.export(jax.jit(lambda x: x[:, : x.shape[1] // 2] + 1))(spec)
square = export.export(jax.jit(lambda x: x @ x))(jax.ShapeDtypeStruct(export.symbolic_shape("b, b"), jnp.float32))
b, = export.symbolic_shape("b")

def ones(*shape):
    return np.ones(shape, np.float32)

@case
def call_ok():
    return val(exp.call(ones(3, 4)))

@case
def call_odd():
    return val(exp.call(ones(3, 5)))

@case
def call_violates_constraint():
    return val(exp.call(ones(1, 4)))

@case
def call_zero_dim():
    return val(exp.call(ones(3, 0)))

@case
def call_wrong_rank():
    return val(exp.call(ones(3)))

@case
def call_under_jit():
    return val(jax.jit(exp.call)(ones(3, 5)))

@case
def call_inconsistent():
    return val(square.call(ones(3, 4)))

@case
def compare_inconclusive():
    return b >= 2

@case
def compare_eq_undecided():
    return b == 2

@case
def as_constant():
    return int(b)

@case
def reshape_uneven():
    return str(export.export(jax.jit(lambda x: jnp.reshape(x, (3, -1))))(jax.ShapeDtypeStruct((b,), jnp.float32)))

@case
def branch_on_dim():
    return str(export.export(jax.jit(lambda x: x if x.shape[0] > 3 else -x))(jax.ShapeDtypeStruct((b,), jnp.float32)))

@case
def mixed_scopes():
    return str(export.symbolic_shape("a")[0] + b)

@case
def bad_spec():
    return str(export.symbolic_shape("b + , 3"))

@case
def args_specs_prefix_tree():
    args = (np.ones((2, 3), np.float32), {"a": np.ones((4,), np.int32), "z": np.ones((1, 2), np.float32)})
    specs = export.symbolic_args_specs(args, ("b, _", {"a": "c", "z": None}))
    return [[str(tuple(s.shape)), str(s.dtype)] for s in jax.tree_util.tree_leaves(specs)]

@case
def args_specs_one_string():
    specs = export.symbolic_args_specs([np.ones((2, 3)), np.ones((2, 5, 6))], "b, ...")
    return [str(tuple(s.shape)) for s in specs]

@case
def args_specs_bad_prefix():
    return str(export.symbolic_args_specs((np.ones(2), np.ones(3)), ("b", "c", "d")))

@case
def args_specs_scope_and_constraints():
    return str(export.symbolic_args_specs(np.ones(2), "b", constraints=("b >= 2",), scope=export.SymbolicScope()))

@case
def unknown_constraint_var():
    return str(export.symbolic_shape("b", constraints=("c >= 2",)))
"""


def _normalized(result: dict[str, Any]) -> dict[str, Any]:
    if "message" not in result:
        return result
    message = re.sub(r"scope \d+ created at [^\n]*", "scope <scope>", result["message"])
    return {**result, "message": message}


@pytest.fixture(scope="module")
def both() -> tuple[dict[str, Any], dict[str, Any]]:
    return run_both(PROGRAM, devices=8)


@pytest.mark.parametrize(
    "name",
    [
        "call_ok", "call_odd", "call_violates_constraint", "call_zero_dim", "call_wrong_rank", "call_under_jit",
        "call_inconsistent", "compare_inconclusive", "compare_eq_undecided", "as_constant", "reshape_uneven",
        "branch_on_dim", "mixed_scopes", "bad_spec", "unknown_constraint_var", "args_specs_prefix_tree",
        "args_specs_one_string", "args_specs_bad_prefix", "args_specs_scope_and_constraints",
    ],
)
def test_same_outcome_as_jax(both: tuple[dict[str, Any], dict[str, Any]], name: str) -> None:
    ours, theirs = both
    assert _normalized(ours[name]) == _normalized(theirs[name])


def test_errors_are_errors(both: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ours, _ = both
    assert ours["call_odd"]["error"] == "ValueError"
    assert "Division had remainder 1 when computing the value of 'h'" in ours["call_odd"]["message"]
    assert ours["compare_inconclusive"]["error"] == "InconclusiveDimensionOperation"
    assert ours["call_ok"]["ok"]["shape"] == [3, 2]
