"""The plugin suites (test_*.yml, collected by pytest-mypy-plugins): mypy with the plugin, the
corpus's strictness and the repository's stubs, whatever directory pytest runs from.

Options given on the command line win; otherwise the cases use mypy.ini here, the stubs hook
of _hook.py, the mypy next to the running interpreter, and a testing base (where each case's temporary directory and the shared
incremental mypy cache live) under the repository's .mypy_cache/.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


# Cases that fail because of a known, still open plugin bug: skipped with the bug's name.
KNOWN_BUGS: dict[str, str] = {}


def pytest_runtest_setup(item: pytest.Item) -> None:
    # pytest.skip() rather than a skip marker: a marker's report takes its line from
    # reportinfo(), which pytest-mypy-plugins items leave empty.
    if item.path.parent == HERE and item.name in KNOWN_BUGS:
        pytest.skip(KNOWN_BUGS[item.name])


def pytest_configure(config: pytest.Config) -> None:
    opt = config.option
    if not hasattr(opt, "mypy_ini_file"):  # pytest-mypy-plugins not installed
        return
    if not opt.mypy_ini_file and not opt.mypy_pyproject_toml_file:
        opt.mypy_ini_file = str(HERE / "mypy.ini")
    if not opt.mypy_extension_hook:
        opt.mypy_extension_hook = "tests.mypy_plugin._hook.add_stubs"
    # pytest-mypy-plugins runs the `mypy` found on PATH: make it this interpreter's, also when
    # pytest runs as `.venv/bin/python -m pytest` without the virtual environment activated.
    bindir = Path(sys.executable).parent
    if (bindir / "mypy").exists() and shutil.which("mypy") != str(bindir / "mypy"):
        os.environ["PATH"] = os.pathsep.join([str(bindir), os.environ.get("PATH", "")])
    base = ROOT / ".mypy_cache" / "plugin-suites"
    base.mkdir(parents=True, exist_ok=True)
    opt.mypy_testing_base = str(base)
