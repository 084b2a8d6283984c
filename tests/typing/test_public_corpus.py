"""The public corpus: library-style JAX code in typing/public/*.py, checked as published code is.

typing/public/ holds realistic library code written against jax_core (an optimizer library, neural
network layers, ODE solvers, probabilistic models, RL losses, image augmentation), ~4,000 lines.
Where typing/{pass,fail,reveal} (test_corpus.py) pins jax_core's types line by line under the
checkers' strictest settings, this corpus asks the question a user asks: does ordinary code
written against the typed API pass the checkers a published project runs, as written? So:

* each of five checks must report **zero** errors (warnings count as errors): mypy strict
  (typing/mypy.ini), mypy strict with jax_core's plugin (typing/mypy-plugin.ini), pyright
  "standard" mode, pyrefly's default preset and ty's default rules plus unused-ignore-comment
  (typing/public/{pyrightconfig.json,pyrefly.toml,ty.toml}; their headers say why these modes);
  one test per check, failing with the list;
* the code passes as written: no ``# type: ignore`` (nor pyright's, pyrefly's or ty's own
  suppression comments), no ``cast(``, and no leftover ``# FP:`` / ``# CHK:`` / ``# RT:`` markers
  of a known false positive, checker limitation or runtime workaround;
* it stays a meaningful sample: at least 3,000 code lines and 60 ``assert_type`` calls, so the
  checkers verify inferred types, not just the absence of complaints;
* it is correct code: each file's ``__main__`` demo runs to exit status 0.

The five checks and the six demos run side by side (the demos two at a time), once per module.
The demos' XLA compiles at optimization level 0: they compile hundreds of small programs, whose
run time does not matter here, and that halves their cost on a small machine.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.typing._checkers import CheckerRun, run_checkers, run_mypy

ROOT = Path(__file__).resolve().parents[2]
TYPING = ROOT / "typing"  # the checkers run here, as for typing/{pass,fail,reveal}
PUBLIC = TYPING / "public"
FILES = sorted(PUBLIC.glob("*.py"))
CHECKS = ("mypy", "mypy-plugin", "pyright", "pyrefly", "ty")
_VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(_VENV_PYTHON) if _VENV_PYTHON.exists() else sys.executable
DEMO_TIMEOUT = 120.0
DEMO_WORKERS = 2
DEMO_XLA_FLAGS = "--xla_backend_optimization_level=0 --xla_llvm_disable_expensive_passes=true"

MIN_CODE_LINES = 3000
MIN_ASSERT_TYPES = 60

_SUPPRESSION = re.compile(r"#\s*(type|pyright|pyrefly|ty)\s*:\s*ignore\b")
_CAST = re.compile(r"\bcast\(")
_MARKER = re.compile(r"#\s*(FP|CHK|RT):")
_ASSERT_TYPE = re.compile(r"\bassert_type\(")


@dataclass
class DemoRun:
    returncode: int | None  # None: timed out
    seconds: float
    output: str


@dataclass
class Results:
    checks: dict[str, CheckerRun]
    demos: dict[str, DemoRun]


def _rel(path: Path) -> str:
    return path.relative_to(TYPING).as_posix()


def _run_demo(path: Path) -> DemoRun:
    import time

    env = dict(os.environ)
    env["XLA_FLAGS"] = f"{env.get('XLA_FLAGS', '')} {DEMO_XLA_FLAGS}".strip()
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [PYTHON, str(path)],
            cwd=PUBLIC,
            env=env,
            capture_output=True,
            text=True,
            timeout=DEMO_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or ""
        text = out.decode(errors="replace") if isinstance(out, bytes) else out
        return DemoRun(None, time.perf_counter() - start, text)
    return DemoRun(proc.returncode, time.perf_counter() - start, proc.stdout + proc.stderr)


@pytest.fixture(scope="module")
def results() -> Results:
    """The five checks and the six demos, started together; the demos two at a time."""
    targets = [_rel(p) for p in FILES]
    cache = ROOT / ".mypy_cache"
    with ThreadPoolExecutor(DEMO_WORKERS) as demo_pool, ThreadPoolExecutor(2) as check_pool:
        demos: dict[str, Future[DemoRun]] = {p.name: demo_pool.submit(_run_demo, p) for p in FILES}
        four = check_pool.submit(
            run_checkers,
            cwd=TYPING,
            mypy_config=TYPING / "mypy.ini",
            pyright_config=PUBLIC / "pyrightconfig.json",
            pyrefly_config=PUBLIC / "pyrefly.toml",
            ty_config=PUBLIC / "ty.toml",
            checkers=("mypy", "pyright", "pyrefly", "ty"),
            targets=targets,
            cache_dir=cache / "public-corpus",
        )
        plugin = check_pool.submit(
            run_mypy,
            cwd=TYPING,
            config=TYPING / "mypy-plugin.ini",
            targets=targets,
            cache_dir=cache / "public-corpus-plugin",
        )
        checks = {**four.result(), "mypy-plugin": plugin.result()}
        return Results(checks, {name: f.result() for name, f in demos.items()})


# ---------------------------------------------------------------------------------------------
# The checkers
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("check", CHECKS)
def test_checker_reports_no_errors(results: Results, check: str) -> None:
    run = results.checks[check]
    if run.failure:
        pytest.fail(run.failure, pytrace=False)
    errors = [
        f"{Path(path).relative_to(TYPING) if path.startswith(str(TYPING)) else path}:{d.line}: {d}"
        for path, diags in sorted(run.by_file.items())
        for d in sorted(diags, key=lambda d: d.line)
        if d.is_error
    ]
    if errors:
        pytest.fail(f"{check}: {len(errors)} error(s)\n" + "\n".join(errors), pytrace=False)


# ---------------------------------------------------------------------------------------------
# The demos
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_demo_runs(results: Results, path: Path) -> None:
    demo = results.demos[path.name]
    if demo.returncode is None:
        pytest.fail(f"{path.name} timed out after {DEMO_TIMEOUT:.0f} s:\n{demo.output[-4000:]}")
    assert demo.returncode == 0, (
        f"{path.name} exited with {demo.returncode}:\n{demo.output[-4000:]}"
    )


# ---------------------------------------------------------------------------------------------
# The code as written
# ---------------------------------------------------------------------------------------------


def _code_lines(path: Path) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(path.read_text().splitlines(), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, line


def _matches(pattern: re.Pattern[str]) -> list[str]:
    return [
        f"{_rel(p)}:{n}: {line.strip()}"
        for p in FILES
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if pattern.search(line)
    ]


def test_corpus_is_substantial() -> None:
    assert len(FILES) >= 6, f"typing/public/ has {len(FILES)} files"
    code_lines = sum(1 for p in FILES for _ in _code_lines(p))
    assert_types = sum(len(_ASSERT_TYPE.findall(p.read_text())) for p in FILES)
    assert code_lines >= MIN_CODE_LINES, f"{code_lines} code lines"
    assert assert_types >= MIN_ASSERT_TYPES, f"{assert_types} assert_type calls"


def test_no_suppression_comments() -> None:
    assert _matches(_SUPPRESSION) == [], "the corpus must pass as written"


def test_no_casts() -> None:
    assert _matches(_CAST) == [], "the corpus must pass as written"


def test_no_leftover_markers() -> None:
    assert _matches(_MARKER) == [], "the line passes now: delete the marker"


def test_patterns() -> None:
    assert _SUPPRESSION.search("x = f()  # type: ignore[arg-type]")
    assert _SUPPRESSION.search("x = f()  # pyright: ignore[reportX]")
    assert _SUPPRESSION.search("x = f()  # pyrefly: ignore")
    assert _SUPPRESSION.search("x = f()  # ty: ignore[invalid-argument-type]")
    assert not _SUPPRESSION.search("x = f()  # typed: ignored elsewhere")
    assert _CAST.search("y = cast(Array, x)") and _CAST.search("y = typing.cast(Array, x)")
    assert not _CAST.search("y = tree_cast(x, dtype)") and not _CAST.search("lax.broadcast(x, s)")
    assert _MARKER.search("x  # FP: pyright: ...") and _MARKER.search("x  # RT: workaround")
    assert not _MARKER.search("x  # CHECK: shapes")
