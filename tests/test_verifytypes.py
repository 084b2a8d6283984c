"""tools/check_verifytypes.py (``make verifytypes``): its figure does not depend on PATH, and its
report survives diagnostics that pyright gives without a source range."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from tests._tools import load_tool

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "check_verifytypes.py"


def _tool() -> ModuleType:
    return load_tool("check_verifytypes")


def test_location_without_range_or_file() -> None:
    tool = _tool()
    sources = {"/tmp/x/jax_core": "jax_core"}
    with_range = {
        "file": "/tmp/x/jax_core/_src/dtypes.py",
        "range": {"start": {"line": 11, "character": 0}},
    }
    assert tool._location(with_range, sources) == "jax_core/_src/dtypes.py:12"
    assert tool._location({"file": "/tmp/x/jax_core/a.py"}, sources) == "jax_core/a.py"
    assert tool._location({}, sources) == "<no file>"


def test_full_score_with_a_bare_path() -> None:
    """With only the system's directories on PATH (no venv, no pyenv shims) pyright used to find a
    python without numpy: numpy's types became Any and the score fell to 94.66%."""
    env = {"HOME": os.environ.get("HOME", "/root"), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run(
        [sys.executable, str(TOOL)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "type completeness of jax_core: 100.00%" in proc.stdout
