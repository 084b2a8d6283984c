"""Every artifact real JAX 0.12 recorded (``tests/export/goldens``, written by
``tools/record_export_goldens.py``) deserializes in jax_core with the metadata JAX recorded, and
jax_core writes it back unchanged (real JAX reads the rewrite the same, where the oracle is)."""

from __future__ import annotations

from typing import Any

import pytest

from jax_core._src.export.exported import Exported
from jax_core._src.export.serialization import deserialize, serialize
from jax_core._src.tree.tree_util import tree_structure
from tests.export import _goldens
from tests.export._exported_fixtures import describe_here, fields_of, jax_reads
from tests.oracle.client import evaluate


def test_the_goldens_are_there() -> None:
    assert set(_goldens.NAMES) >= {
        "sin_cos_f32", "ints_bools", "bf16_mixed", "pytrees", "kwargs_only", "multi_platform",
        "unused_arg", "small_types", "prng_key",
    }  # fmt: skip


def _levels(exp: Exported) -> list[Exported]:
    levels = [exp]
    while levels[-1].has_vjp():
        levels.append(levels[-1].vjp())
    return levels


@pytest.mark.parametrize("name", _goldens.NAMES)
def test_golden_metadata(name: str) -> None:
    blob, meta = _goldens.load(name)
    exp = deserialize(blob)
    assert exp.fun_name == meta["fun_name"]
    assert [str(a) for a in exp.in_avals] == meta["in_avals"]
    assert [str(a) for a in exp.out_avals] == meta["out_avals"]
    assert list(exp.platforms) == meta["platforms"]
    assert list(exp.module_kept_var_idx) == meta["module_kept_var_idx"]
    assert exp.calling_convention_version == meta["calling_convention_version"]
    assert exp.uses_global_constants == meta["uses_global_constants"]
    assert exp.nr_devices == meta["nr_devices"]
    assert [str(e) for e in exp.ordered_effects] == meta["ordered_effects"]
    assert [str(e) for e in exp.unordered_effects] == meta["unordered_effects"]
    assert [str(c) for c in exp.disabled_safety_checks] == meta["disabled_safety_checks"]
    assert exp.in_shardings_hlo == (None,) * len(exp.in_avals)
    # the pytrees of the recorded inputs and outputs
    args, kwargs = _goldens.decode(meta["args"]), _goldens.decode(meta["kwargs"])
    assert exp.in_tree == tree_structure((args, kwargs))
    assert exp.out_tree == tree_structure(_goldens.decode(meta["outputs"]))
    # the VJP levels it was serialized with, and no more
    levels = _levels(exp)
    assert len(levels) == meta["vjp_order"] + 1
    for level, want in zip(levels[1:], meta["vjp_levels"], strict=True):
        assert level.fun_name == want["fun_name"]
        assert [str(a) for a in level.in_avals] == want["in_avals"]
        assert [str(a) for a in level.out_avals] == want["out_avals"]


@pytest.mark.parametrize("name", _goldens.NAMES)
def test_golden_rewritten_by_jax_core_reads_the_same(name: str) -> None:
    blob, meta = _goldens.load(name)
    exp = deserialize(blob)
    again = deserialize(serialize(exp, vjp_order=meta["vjp_order"]))
    for a, b in zip(_levels(exp), _levels(again), strict=True):
        assert fields_of(a) == fields_of(b)


def test_jax_reads_the_goldens_jax_core_rewrote() -> None:
    exps: list[Any] = []
    blobs: list[bytes] = []
    for name in _goldens.NAMES:
        blob, meta = _goldens.load(name)
        exps.append(deserialize(blob))
        blobs.append(bytes(serialize(exps[-1], vjp_order=meta["vjp_order"])))
    outcomes = evaluate([jax_reads(b) for b in blobs])
    for name, exp, outcome in zip(_goldens.NAMES, exps, outcomes, strict=True):
        assert outcome.leaves is not None, f"{name}: {outcome.describe()}"
        assert str(outcome.leaves[0]) == describe_here(exp), name
