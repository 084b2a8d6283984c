"""The registry contract: every primitive has jvp and batching rules, every primitive a
jvp rule can emit on tangents has a transpose rule, and every primitive is exercised by
some rules test (listed in a test module's ``COVERED`` set). The contract is jax_core's: primitives
users (and tests, as users) define with ``jax_core.extend`` are not held to it."""

from __future__ import annotations

import importlib.util
import pathlib

import jax_core  # noqa: F401  (registers the primitives)
from jax_core._src.core.primitive import Primitive, all_primitives, is_own_primitive

HERE = pathlib.Path(__file__).parent


def _covered() -> set[str]:
    names: set[str] = set()
    for path in sorted(HERE.parent.rglob("test_*.py")):  # every test package (tests/random, ...)
        if path.name == "test_rule_registry.py" or "COVERED" not in path.read_text():
            continue
        spec = importlib.util.spec_from_file_location(f"_registry_probe_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        names |= set(getattr(module, "COVERED", ()))
    return names


def _own_primitives() -> list[Primitive]:
    return [p for p in all_primitives() if is_own_primitive(p)]


def test_every_primitive_has_jvp_and_batch_rules() -> None:
    missing = [(p.name, kind) for p in _own_primitives() for kind in ("jvp", "batch") if getattr(p.rules, kind) is None]
    assert missing == []


def test_every_primitive_is_exercised_by_a_rules_test() -> None:
    covered = _covered()
    untested = sorted(p.name for p in _own_primitives() if p.name not in covered)
    assert untested == [], f"primitives with no rules test (add them to a COVERED set): {untested}"


def test_linear_primitives_have_transpose_rules() -> None:
    # The linear primitives JAX transposes; each must carry its transpose rule here too.
    linear = {
        "add", "sub", "neg", "mul", "div", "add_any", "convert_element_type", "reduce_sum", "cumsum",
        "broadcast_in_dim", "reshape", "transpose", "squeeze", "rev", "pad", "concatenate", "slice",
        "dynamic_slice", "dynamic_update_slice", "gather", "scatter-add", "dot_general", "select_n",
        "real", "imag", "conj", "complex", "jit", "checkpoint", "custom_lin", "name", "psum", "copy",
        "reduce_window_sum", "select_and_gather_add", "select_and_scatter_add",
    }
    names = {p.name: p for p in _own_primitives()}
    missing = sorted(n for n in linear if n in names and names[n].rules.transpose is None)
    assert missing == []
    assert linear - names.keys() == set()
