"""The jaxlib contract (seed 000): versions checked at import, with the fix in the message."""

import subprocess
import sys
from pathlib import Path

import pytest

import jax_core
from jax_core._src import lib
from jax_core.version import MINIMUM_JAXLIB_VERSION, SUPPORTED_API_VERSIONS

ROOT = Path(__file__).resolve().parents[1]


def test_versions_are_exposed() -> None:
    assert jax_core.__version__ == "0.1.0"
    assert lib.JAXLIB_VERSION >= MINIMUM_JAXLIB_VERSION
    assert lib.API_VERSION in SUPPORTED_API_VERSIONS


def test_too_old_jaxlib_names_versions_and_fix() -> None:
    with pytest.raises(ImportError) as info:
        lib.check_jaxlib_version("0.11.2", 505)
    msg = str(info.value)
    assert "requires jaxlib >= 0.12.0" in msg and "jaxlib 0.11.2 is installed" in msg
    assert "pip install --upgrade 'jaxlib>=0.12.0,<0.13'" in msg


def test_unknown_newer_api_version() -> None:
    with pytest.raises(RuntimeError, match="API version 999 \\(newer than this jax_core knows\\)"):
        lib.check_jaxlib_version("0.12.9", 999)


def test_unknown_older_api_version() -> None:
    with pytest.raises(RuntimeError, match="older than this jax_core knows"):
        lib.check_jaxlib_version("0.12.0", 400)


def test_version_strings_with_suffixes() -> None:
    assert lib.check_jaxlib_version("0.12.0.1", 505) == (0, 12, 0, 1)
    assert lib.check_jaxlib_version("0.12.1.dev20261101", 505) == (0, 12, 1)
    assert lib.check_jaxlib_version("0.13.0+cuda", 505) == (0, 13, 0)


def _import_with(patch: str) -> subprocess.CompletedProcess[str]:
    code = f"{patch}\nimport jax_core"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def test_import_fails_cleanly_with_a_too_old_jaxlib() -> None:
    res = _import_with("import jaxlib.version as v; v._version = '0.11.1'")
    assert res.returncode != 0
    assert "ImportError: jax_core 0.1.0 requires jaxlib >= 0.12.0, but jaxlib 0.11.1 is installed" in res.stderr


def test_import_fails_cleanly_with_a_too_new_extension() -> None:
    res = _import_with("from jaxlib import xla_client; xla_client._version = 612")
    assert res.returncode != 0
    assert "RuntimeError" in res.stderr and "API version 612" in res.stderr


def test_jax_core_never_imports_jax() -> None:
    res = subprocess.run(
        [sys.executable, "-c", "import sys, jax_core, jax_core.numpy as jnp; jnp.sin(jnp.ones(2)); print('jax' in sys.modules)"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert res.stdout.strip() == "False", res.stderr
