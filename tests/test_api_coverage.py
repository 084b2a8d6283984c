"""tools/api_coverage.py: the JAX 0.12 name snapshot, the reviewed exclusions and the coverage floor."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from tests._tools import load_tool
from tests.oracle import client

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    return load_tool("api_coverage")


def test_snapshot_parses_and_is_not_empty() -> None:
    snap = _tool().load_snapshot()
    modules = snap["modules"]
    assert "jax" in modules and "jax.numpy" in modules and "jax.lax" in modules
    assert sum(len(names) for names in modules.values()) > 1000
    for module, names in modules.items():
        assert names, f"{module}: no public names recorded"
        for name, entry in names.items():
            assert not name.startswith("_")
            assert entry["kind"] in ("function", "class", "module", "other"), (module, name)
    assert modules["jax"]["jit"]["kind"] == "function"


def test_every_exclusion_names_a_snapshot_name_and_gives_a_reason() -> None:
    tool = _tool()
    modules = tool.load_snapshot()["modules"]
    exclusions = tool.load_exclusions()
    assert exclusions
    for full, reason in exclusions.items():
        module, name = tool.split_name(full, set(modules))
        assert name in modules[module], f"exclusion {full!r} is not in api/jax_0.12_names.json"
        assert reason, f"exclusion {full!r} gives no reason (`module.name  # reason`)"


def test_coverage_does_not_go_down() -> None:
    tool = _tool()
    report = tool.compute(tool.load_snapshot(), tool.load_exclusions())
    floor: dict[str, int] = json.loads((ROOT / "api" / "coverage_floor.json").read_text())
    present = {row.module: row.present for row in report.rows}
    assert set(floor) <= set(present), "api/coverage_floor.json names a module not in the snapshot"
    fell = {m: (present[m], n) for m, n in floor.items() if present[m] < n}
    assert not fell, (
        f"coverage went down (module: (present, floor)): {fell}; when coverage rises, raise the "
        "floor instead: `python tools/api_coverage.py --write-floor` rewrites api/coverage_floor.json"
    )
    rose = {m: (n, floor.get(m, 0)) for m, n in present.items() if n > floor.get(m, 0)}
    if rose:  # not a failure: a reminder to lock the gain in
        print(
            f"coverage rose (module: (present, floor)): {rose}; raise the floor: "
            "`python tools/api_coverage.py --write-floor`"
        )


def test_snapshot_is_what_record_writes_now(tmp_path: Path) -> None:
    client.need()
    tool = _tool()
    fresh = tmp_path / "jax_0.12_names.json"
    fresh.write_text(tool.record_text(str(client.python())))
    assert fresh.read_text() == tool.SNAPSHOT.read_text(), (
        "api/jax_0.12_names.json differs from a fresh recording: run "
        "`python tools/api_coverage.py --record` and review the diff"
    )
