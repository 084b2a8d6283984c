"""pytest-mypy-plugins extension hook (``--mypy-extension-hook``, set by conftest.py): puts the
repository's stubs/ on MYPYPATH for each case, as ``mypy_path`` does in typing/mypy.ini."""

from __future__ import annotations

from pathlib import Path
from typing import Any

STUBS = Path(__file__).resolve().parents[2] / "stubs"


def add_stubs(item: Any) -> None:
    env: dict[str, str] = item.environment_variables
    parts = [p for p in (env.get("MYPYPATH"), str(STUBS)) if p]
    env["MYPYPATH"] = ":".join(parts)
