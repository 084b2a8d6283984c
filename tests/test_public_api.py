"""The public API is a reviewed surface: it must match the checked-in snapshot."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> object:
    spec = importlib.util.spec_from_file_location("api_snapshot", ROOT / "tools" / "api_snapshot.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["api_snapshot"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_public_api_matches_snapshot() -> None:
    tool = _tool()
    current = tool.render()  # type: ignore[attr-defined]
    snapshot = (ROOT / "api" / "public_api.txt").read_text()
    assert current == snapshot, "public API changed: run `python tools/api_snapshot.py` and review api/public_api.txt"


def test_snapshot_covers_the_core_names() -> None:
    snapshot = (ROOT / "api" / "public_api.txt").read_text()
    for line in ["jit def", "make_jaxpr def", "Array class", "sin def", "promote_types def", "tree_map def"]:
        assert line in snapshot
