"""Symbolic dimensions against JAX 0.12: normal forms, printing, arithmetic, comparisons, bounds,
max/min, floordiv/mod, the parser and scopes.

``jax_forms.json`` is recorded by ``tools/record_shape_poly_forms.py`` under real JAX; here the
same expressions run on jax_core and must give the same shown result (or the same exception
class and message). ``test_live_oracle`` reruns a handful through real JAX on this machine.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jax_core._src.core import shape_poly as sp
from tests.oracle import client
from tools import record_shape_poly_forms as rec

FORMS = json.loads((Path(__file__).parent / "jax_forms.json").read_text())

# JAX turns a DimExpr combined with a non-integer (float, str) into an array through its
# ``dim_as_value`` primitive, which raises NotImplementedError outside ``jax.export``; jax_core's
# symbolic layer has no arrays and lets Python raise TypeError instead.
_THROUGH_ARRAYS = "Evaluation rule for 'dim_as_value' is not implemented"


def namespace() -> dict[str, Any]:
    return {
        "shape": sp.symbolic_shape,
        "Scope": sp.SymbolicScope,
        "bounds": sp.symbolic_dim_bounds,
        "max_dim": sp.max_dim,
        "min_dim": sp.min_dim,
        "is_symbolic": sp.is_symbolic_dim,
    }


def test_recording_covers_all_cases() -> None:
    assert list(FORMS["cases"]) == rec.CASES
    assert FORMS["jax_version"].startswith("0.12")


@pytest.mark.parametrize("expr", rec.CASES)
def test_same_as_jax(expr: str) -> None:
    expected: str = FORMS["cases"][expr]
    got = rec.run_case(expr, namespace())
    if _THROUGH_ARRAYS in expected:
        assert got.startswith("raise TypeError: ")
        return
    assert got == expected


def test_live_oracle() -> None:
    client.need()
    exe = client.python()
    assert exe is not None
    chosen = [
        "(a + b) * (a - b)",
        "divmod(a*b + 3, b)",
        "a*b - a >= 0",
        "bounds(P('floordiv(10, a)'))",
        "max_dim(a - 2, 0)",
        "shape('(b, h')",
        "(lambda b, h: (4*b, 2*b, 3*b, b >= 1, 4*b*h))(*shape('b, h', constraints=['2*b == h']))",
        "(lambda b: (b <= 10, b < 10))(*shape('b', constraints=['b <= 10']))",
        "a*b*c*h + w*w - 5 * (a // h) + max_dim(a, h) % 3",
    ]
    out = subprocess.run(
        [str(exe), str(Path(rec.__file__)), "--live", *chosen],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    theirs = json.loads(out)
    for expr in chosen:
        assert rec.run_case(expr, namespace()) == theirs[expr], expr
