"""The wheel ships what type checkers need: ``py.typed`` and every ``stubs/`` overlay in place.

Builds an sdist and, from it, a wheel (``python -m build --no-isolation``) out of a copy of the
build inputs, so the check also covers MANIFEST.in and never writes into the working tree.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STUBS = ROOT / "stubs"
BUILD_INPUTS = [
    "pyproject.toml",
    "setup.py",
    "MANIFEST.in",
    "README.md",
    "jax_core",
    "stubs",
]
OVERLAYS = sorted(p.relative_to(STUBS).as_posix() for p in STUBS.rglob("*.pyi"))


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    src = tmp_path_factory.mktemp("src")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        elif path.exists():
            shutil.copy2(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(src)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as zf:
        return set(zf.namelist())


def test_wheel_is_typed(wheel_names: set[str]) -> None:
    assert "jax_core/py.typed" in wheel_names
    assert "jax_core/__init__.py" in wheel_names
    assert "jax_core/mypy_plugin/__init__.py" in wheel_names


def test_wheel_has_every_source_file(wheel_names: set[str]) -> None:
    # A subpackage without __init__.py is silently left out of the wheel; this catches it.
    sources = {
        p.relative_to(ROOT).as_posix()
        for package in ("jax_core",)
        for p in (ROOT / package).rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert sorted(sources - wheel_names) == []


def test_wheel_top_level_is_only_our_packages(wheel_names: set[str]) -> None:
    # typing/, tests/, tools/ ... must never ship (a top-level `typing` would shadow the stdlib).
    top = {
        name.split("/", 1)[0]
        for name in wheel_names
        if not name.split("/", 1)[0].endswith(".dist-info")
    }
    # The mypy plugin ships as jax_core.mypy_plugin: no generic top-level `mypy_plugin` module.
    assert top == {"jax_core"}


@pytest.mark.parametrize(
    "overlay",
    OVERLAYS or [pytest.param(None, marks=pytest.mark.skip("stubs/ has no .pyi overlays yet"))],
)
def test_overlay_ships_beside_its_module(wheel_names: set[str], overlay: str) -> None:
    assert overlay in wheel_names
    module = overlay.removesuffix(".pyi")
    assert f"{module}.py" in wheel_names or f"{module}/__init__.py" in wheel_names
