"""Fail unless ``pyright --verifytypes jax_core --ignoreexternal`` reports 100% type completeness.

The package is checked as the wheel lays it out: a copy of ``jax_core/`` with every
``stubs/jax_core/**/*.pyi`` overlay placed beside its module (what setup.py's ``build_py`` does),
in a temporary directory put first on the interpreter's path. ``--verifytypes`` resolves the
package only through the interpreter's ``sys.path``, not through the project's pyright config.

Usage: ``.venv/bin/python tools/check_verifytypes.py`` (``make verifytypes``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "jax_core"
SHOWN = int(os.environ.get("VERIFYTYPES_SHOWN", "25"))


def _wheel_layout(dest: Path) -> dict[str, str]:
    """Copy the package and its overlays into ``dest``; map copied paths to their sources."""
    shutil.copytree(ROOT / PACKAGE, dest / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
    sources = {str(dest / PACKAGE): PACKAGE}
    stubs = ROOT / "stubs"
    for overlay in sorted((stubs / PACKAGE).rglob("*.pyi")):
        target = dest / overlay.relative_to(stubs)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(overlay, target)
        sources[str(target)] = str(overlay.relative_to(ROOT))
    return sources


def _where(path: str, sources: dict[str, str]) -> str:
    if path in sources:
        return sources[path]
    prefix = next((p for p in sources if path.startswith(p + os.sep)), None)
    return path if prefix is None else sources[prefix] + path[len(prefix) :]


def _location(diag: dict[str, Any], sources: dict[str, str]) -> str:
    """``file:line`` of a diagnostic; pyright leaves out ``range`` (and sometimes ``file``) for
    symbols it cannot place, such as a type that is unknown because its import failed."""
    where = _where(diag["file"], sources) if "file" in diag else "<no file>"
    start = diag.get("range", {}).get("start")
    return where if start is None else f"{where}:{start['line'] + 1}"


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="verifytypes-") as tmp:
        sources = _wheel_layout(Path(tmp))
        # pyright's --verifytypes finds the interpreter whose site-packages it reads through
        # PATH (``python``), whatever --pythonpath says: without the venv first on PATH it
        # found a system python without numpy, numpy's types became Any and the score fell
        # to 94.66% depending on what PATH happened to hold.
        bindir = str(Path(sys.executable).parent)
        path = os.pathsep.join([bindir, os.environ.get("PATH", "")])
        env = {**os.environ, "PYTHONPATH": tmp, "PATH": path}
        cmd = [
            sys.executable,
            "-m",
            "pyright",
            "--verifytypes",
            PACKAGE,
            "--ignoreexternal",
            "--outputjson",
            "--pythonpath",
            sys.executable,
        ]
        proc = subprocess.run(cmd, check=False, cwd=tmp, env=env, capture_output=True, text=True)
        try:
            report = json.loads(proc.stdout)
        except json.JSONDecodeError:
            print(f"pyright --verifytypes gave no JSON (exit {proc.returncode}):", file=sys.stderr)
            print(proc.stdout[-2000:] + proc.stderr[-2000:], file=sys.stderr)
            return 2

        completeness = report["typeCompleteness"]
        score = float(completeness["completenessScore"])
        counts = completeness["exportedSymbolCounts"]
        print(
            f"type completeness of {PACKAGE}: {score:.2%} "
            f"({counts['withKnownType']} known, {counts['withAmbiguousType']} ambiguous, "
            f"{counts['withUnknownType']} unknown exported symbols)"
        )
        for diag in report["generalDiagnostics"]:
            if diag["severity"] == "error":
                print(f"  error: {diag['message']}")
        if score >= 1.0 and proc.returncode == 0:
            return 0

        unknown = [
            s for s in completeness["symbols"] if not s["isTypeKnown"] or s["isTypeAmbiguous"]
        ]
        for sym in unknown[:SHOWN]:
            print(f"  {sym['name']} ({sym['category']})")
            for diag in sym["diagnostics"]:
                if diag["severity"] == "error":
                    print(f"      {_location(diag, sources)}: {diag['message']}")
        if len(unknown) > SHOWN:
            print(f"  ... and {len(unknown) - SHOWN} more")
        return 1


if __name__ == "__main__":
    sys.exit(main())
