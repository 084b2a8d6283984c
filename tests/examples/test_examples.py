"""JAX's own ``examples/`` scripts, run under real JAX and under jax_core (through
``jax_core.compat``) with the same synthetic data and small step counts (``runner.py``), and
their printed numbers compared.

The scripts are read from a checkout of jax-ml/jax: ``$JAX_EXAMPLES_DIR`` (a directory holding
``mnist_classifier.py`` ...) or the git mirror ``$JAX_MIRROR`` (default
``/work/.mirror/jax-ml+jax/repo``); without either the tests skip. Timings are removed from the
output before comparing. ``advi`` trains through ``jax.scipy.stats.norm.logpdf``, whose gradient
jax_core computes with a different (equally accurate) formula than JAX's, so its later iterates
agree to a tolerance; the others print the same text.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.oracle.client import python as jax_python

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).resolve().parent / "runner.py"
MIRROR = Path(os.environ.get("JAX_MIRROR", "/work/.mirror/jax-ml+jax/repo"))

IDENTICAL = ("mnist_classifier", "mnist_classifier_fromscratch", "mnist_vae")
CLOSE = ("advi",)
TIMING = re.compile(r"\s*\(?\bin \d+\.\d+ sec\)?|\s*\(\d+\.\d+ sec\)")
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _source(name: str, tmp_path: Path) -> Path:
    directory = os.environ.get("JAX_EXAMPLES_DIR")
    if directory and (Path(directory) / f"{name}.py").exists():
        return Path(directory) / f"{name}.py"
    if not MIRROR.exists():
        pytest.skip("no checkout of jax-ml/jax examples (set JAX_EXAMPLES_DIR)")
    out = subprocess.run(
        ["git", "--git-dir", str(MIRROR), "show", f"HEAD:examples/{name}.py"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        pytest.skip(f"examples/{name}.py not in the mirror: {out.stderr.strip()}")
    path = tmp_path / f"{name}.py"
    path.write_text(out.stdout)
    return path


def _run(interpreter: str, mode: str, name: str, path: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [interpreter, str(RUNNER), mode, name, str(path)],
        capture_output=True, text=True, env=env, timeout=900, check=False,
    )  # fmt: skip
    assert out.returncode == 0, f"{name} under {mode} failed:\n{out.stderr[-3000:]}"
    return [TIMING.sub("", line) for line in out.stdout.splitlines() if line.strip()]


def _both(name: str, tmp_path: Path) -> tuple[list[str], list[str]]:
    exe = jax_python()
    if exe is None:
        pytest.skip("no interpreter with real JAX")
    path = _source(name, tmp_path)
    return _run(sys.executable, "jax_core", name, path), _run(str(exe), "jax", name, path)


@pytest.mark.parametrize("name", IDENTICAL)
def test_prints_the_same(name: str, tmp_path: Path) -> None:
    ours, theirs = _both(name, tmp_path)
    assert ours == theirs
    assert any(NUMBER.search(line) for line in ours)


@pytest.mark.parametrize("name", CLOSE)
def test_prints_close_numbers(name: str, tmp_path: Path) -> None:
    ours, theirs = _both(name, tmp_path)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert NUMBER.sub("#", a) == NUMBER.sub("#", b)
        for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
            assert float(x) == pytest.approx(float(y), rel=1e-5), (a, b)
