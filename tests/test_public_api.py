"""The public API is a reviewed surface: it must match the checked-in snapshot."""

from pathlib import Path
from types import ModuleType

from tests._tools import load_tool

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    return load_tool("api_snapshot")


def test_public_api_matches_snapshot() -> None:
    tool = _tool()
    current = tool.render()  # type: ignore[attr-defined]
    snapshot = (ROOT / "api" / "public_api.txt").read_text()
    assert current == snapshot, "public API changed: run `python tools/api_snapshot.py` and review api/public_api.txt"


def test_snapshot_covers_the_core_names() -> None:
    snapshot = (ROOT / "api" / "public_api.txt").read_text()
    for line in ["jit def", "make_jaxpr def", "Array class", "sin def", "promote_types def", "tree_map def"]:
        assert line in snapshot
