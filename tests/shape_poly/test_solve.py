"""Solving dimension variables from argument shapes, against JAX 0.12's recording.

For each spec in ``jax_forms.json`` (``tools/record_shape_poly_forms.py``): the synthetic
variables, the solution, every shape constraint (kind, sides, message with placeholders, message
inputs) in order, the messages of the lowered module's shape assertions, and the outcome of
calling the exported function with concrete shapes (values, or the exact ``ValueError``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from jax_core._src.core import shape_poly as sp

FORMS = json.loads((Path(__file__).parent / "jax_forms.json").read_text())
SOLVE: list[dict[str, Any]] = FORMS["solve"]


def _sorted_var_sets(msg: str) -> str:
    # A Python set of names prints in hash order, which varies between processes.
    def sort(m: re.Match[str]) -> str:
        return "{" + ", ".join(sorted(m.group(1).split(", "))) + "}"

    return re.sub(r"\{('[^{}]*')\}", sort, msg)


def _solve(entry: dict[str, Any]) -> sp.DimVarSolution:
    scope = sp.SymbolicScope(entry["constraints"])
    shapes = [sp.symbolic_shape(s, scope=scope) for s in entry["specs"]]
    return sp.solve_dim_vars(shapes, entry["names"])


def _id(entry: dict[str, Any]) -> str:
    return " | ".join(entry["specs"]) + (
        f" with {entry['constraints']}" if entry["constraints"] else ""
    )


@pytest.mark.parametrize("entry", SOLVE, ids=_id)
def test_solution_and_constraints(entry: dict[str, Any]) -> None:
    if "error" in entry:
        with pytest.raises(ValueError) as info:
            _solve(entry)
        assert _sorted_var_sets(f"ValueError: {info.value}") == _sorted_var_sets(entry["error"])
        return
    sol = _solve(entry)
    assert [[sol.arg_dim_var(i, j), i, j] for i, j in sol.synthetic_dims] == entry["synthetic"]
    assert sol.dim_vars == entry["dim_vars"]
    assert {v: str(e) for v, e in sol.solution.items()} == entry["solution"]
    got = [
        [
            c.comp,
            str(c.left),
            str(c.right),
            c.error_message,
            [str(x) for x in c.error_message_inputs],
        ]
        for c in sol.constraints
    ]
    assert got == entry["shape_constraints"]
    for c in sol.assertions:
        assert sp.is_symbolic_dim(c.left) or sp.is_symbolic_dim(c.right)


@pytest.mark.parametrize("entry", [e for e in SOLVE if e.get("calls")], ids=_id)
def test_check_concrete(entry: dict[str, Any]) -> None:
    sol = _solve(entry)
    for call in entry["calls"]:
        shapes = [tuple(s) for s in call["shapes"]]
        if "error" in call:
            with pytest.raises(ValueError) as info:
                sol.check_concrete(shapes)
            assert f"ValueError: {info.value}" == call["error"], shapes
        else:
            assert sol.check_concrete(shapes) == call["values"], shapes


def test_lowered_assertion_messages() -> None:
    """The messages JAX puts in the module's ``shape_assertion`` custom calls for ``b, 4*h``."""
    sol = sp.solve_dim_vars([sp.symbolic_shape("b, 4*h")], ["args[0]"])
    assert [a.error_message for a in sol.assertions] == FORMS["mlir_messages"]
    assert [a.comp for a in sol.assertions] == ["ge", "eq", "ge"]


def test_synthetic_variable_names() -> None:
    b, h = sp.symbolic_shape("b, h")
    sol = sp.solve_dim_vars([(b, 3), (h,)], ["args[0]", "kwargs['x']"])
    assert sol.synthetic_dims == [(0, 0), (1, 0)]
    assert sol.arg_dim_var(1, 0) == "kwargs['x'].shape[0]"
    assert str(sol.solution["h"]) == "kwargs['x'].shape[0]"
    assert sol.check_concrete([(2, 3), (5,)]) == {"b": 2, "h": 5}


def test_static_arguments_need_no_solving() -> None:
    sol = sp.solve_dim_vars([(2, 3)], ["args[0]"])
    assert (sol.dim_vars, sol.assertions, sol.synthetic_dims) == ([], [], [])
    assert sol.check_concrete([(2, 3)]) == {}
    with pytest.raises(
        ValueError, match=r"Rank mismatch for args\[0\]: expected \(2, 3\) and called with \(2,\)"
    ):
        sol.check_concrete([(2,)])
