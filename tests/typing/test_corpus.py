"""The typing corpus: user programs in typing/{pass,fail,reveal} checked by mypy, pyright,
pyrefly and ty.

One run of each checker checks the whole corpus, once per pytest session, the four side by side:
mypy (typing/mypy.ini: strict, warn_unused_ignores, no plugin), pyright (typing/pyrightconfig.json:
strict, reportUnnecessaryTypeIgnoreComment), pyrefly (typing/pyrefly.toml: the strict preset,
passed with -c so the repository's [tool.mypy] is never migrated) and ty (typing/ty.toml: the
default rules plus the strict-mode counterparts listed there). Every file then gets one test per
checker, so a failure names the file, the line and what went wrong. The files are those present
at run time (files added to pass/, fail/ or reveal/ are picked up).

Directories:
    pass/    valid programs: no checker may report anything. They are also run (runpy).
    fail/    each wrong line carries a marker (below); the checkers must report an error on
             exactly the marked lines. Not run.
    reveal/  ``assert_type(expr, T)`` statements, so a wrong inferred type is an error. Also run,
             with ``assert_type`` checking ``isinstance(value, T)`` where ``T`` is a plain class.

Markers: an end-of-line comment on the line where the checker reports the error:
    # E: <fragment>             every checker reports an error there, each with a message (or
                                error code) that contains <fragment> (case-insensitive, and the
                                quotes " ' ` all alike; may be empty)
    # E[mypy]: <fragment>       only mypy does; the checkers not named must be silent on the line
    # E[pyright]: <fragment>    likewise pyright; also E[pyrefly], E[ty]
    # E[mypy,ty]: <fragment>    each checker named does (a comma-separated list)
``# E[mypy,pyright]: a  # E[pyrefly,ty]: b`` expects all four, with a fragment each (a checker
may be named once per line). Where pyrefly or ty does not do what mypy and pyright do, the line's
marker names it and typing/checker_differences.md has a reviewed row for it (checked below);
a line marked for all four with different wording is no difference. A marker in pass/ or
reveal/ records a known gap of the typed surface (a false positive, or an ``Any`` where a
precise type belongs); when the gap closes the test fails as "missed error": delete the marker.
Keep marked statements on one line (checkers disagree on the line of a multi-line statement).

Files are checked as modules named after their file: names must be unique across the three
directories and must not be those of stdlib or installed top-level packages.
"""

from __future__ import annotations

import ast
import importlib
import re
import runpy
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.typing._checkers import CHECKERS, CheckerRun, run_checkers
from tests.typing._markers import check_file, parse_markers

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "typing"
KINDS = ("pass", "fail", "reveal")
FILES = sorted(p for kind in KINDS for p in (CORPUS / kind).glob("*.py"))
RUN_KINDS = ("pass", "reveal")


def _rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


@pytest.fixture(scope="session")
def checker_runs() -> dict[str, CheckerRun]:
    """The four checkers over the whole corpus, side by side, once per session."""
    return run_checkers(
        cwd=CORPUS,
        mypy_config=CORPUS / "mypy.ini",
        pyright_config=CORPUS / "pyrightconfig.json",
        pyrefly_config=CORPUS / "pyrefly.toml",
        ty_config=CORPUS / "ty.toml",
        checkers=CHECKERS,
        targets=[_rel(p) for p in FILES],
        cache_dir=ROOT / ".mypy_cache" / "typing-corpus",
    )


def _file_params() -> Iterator[Any]:
    for path in FILES:
        for checker in CHECKERS:
            yield pytest.param(path, checker, id=f"{checker}:{_rel(path)}")


@pytest.mark.parametrize(("path", "checker"), list(_file_params()))
def test_checker_agrees_with_markers(
    checker_runs: dict[str, CheckerRun], path: Path, checker: str
) -> None:
    run = checker_runs[checker]
    if run.failure:
        pytest.fail(run.failure, pytrace=False)
    problems = check_file(path, _rel(path), checker, run.by_file.get(str(path.resolve()), []))
    if problems:
        pytest.fail(f"{checker} on {_rel(path)}:\n" + "\n".join(problems), pytrace=False)


@pytest.mark.parametrize("checker", CHECKERS)
def test_no_errors_outside_the_corpus(checker_runs: dict[str, CheckerRun], checker: str) -> None:
    # jax_core is checked as a library (errors there are `make typecheck`'s job), so anything
    # reported outside the corpus means the configuration is wrong.
    run = checker_runs[checker]
    if run.failure:
        pytest.fail(run.failure, pytrace=False)
    corpus = {str(p.resolve()) for p in FILES}
    stray = [
        f"{path}:{d.line}: {d}"
        for path, diags in run.by_file.items()
        if path not in corpus
        for d in diags
        if d.is_error
    ]
    assert stray == []


# ---------------------------------------------------------------------------------------------
# Reviewed differences of pyrefly and ty (typing/checker_differences.md)
# ---------------------------------------------------------------------------------------------

DIFFERENCES = CORPUS / "checker_differences.md"
REVIEWED = ("pyrefly", "ty")
_ROW = re.compile(
    r"^\|\s*`(?P<file>[^`]+\.py)`:\s*`(?P<code>[^`]+)`\s*\|\s*(?P<checker>[a-z]+)\s*\|"
)


def differences_needing_review(path: Path) -> Iterator[tuple[int, str]]:
    """(line, checker) for each marked line of ``path`` where pyrefly or ty differs from mypy
    and pyright: the checker is marked where mypy and pyright are not both marked, or it is not
    where both are. A line marked for all four (whatever the wording) is no difference, and
    neither is one where mypy and pyright disagree and the checker sides with either."""
    for line, by_checker in sorted(parse_markers(path).items()):
        both = "mypy" in by_checker and "pyright" in by_checker
        for checker in REVIEWED:
            if (checker in by_checker) != both:
                yield line, checker


def reviewed_rows(text: str) -> list[tuple[str, str, str]]:
    """(file, code, checker) of each row of checker_differences.md's tables."""
    return [(m["file"], m["code"], m["checker"]) for m in map(_ROW.match, text.splitlines()) if m]


def test_checker_differences_are_reviewed() -> None:
    rows = reviewed_rows(DIFFERENCES.read_text())
    assert rows, "checker_differences.md has no rows: is the table there?"
    bad_checker = [r for r in rows if r[2] not in REVIEWED]
    assert bad_checker == [], f"rows must name one of {REVIEWED}"
    needed: list[tuple[str, int, str, str]] = []  # (file, line, checker, code)
    for path in FILES:
        lines = path.read_text().splitlines()
        needed += [(_rel(path), n, c, lines[n - 1]) for n, c in differences_needing_review(path)]
    unreviewed = [
        f"{file}:{n} [{c}]: {code.strip()}"
        for file, n, c, code in needed
        if not any(f == file and c == rc and rcode in code for f, rcode, rc in rows)
    ]
    stale = [
        f"{file} [{c}]: {code}"
        for file, code, c in rows
        if not any(f == file and c == nc and code in ncode for f, _, nc, ncode in needed)
    ]
    assert unreviewed == [], "differences without a row in typing/checker_differences.md"
    assert stale == [], "rows of typing/checker_differences.md that match no marked difference"


def test_difference_rules(tmp_path: Path) -> None:
    path = tmp_path / "reveal" / "r.py"
    path.parent.mkdir()
    path.write_text(
        "a  # E: x\n"  # all four: no difference
        "b  # E[mypy,pyright]: x  # E[pyrefly,ty]: y\n"  # all four, other wording
        "c  # E[pyrefly]: z\n"  # pyrefly alone
        "d  # E[mypy,pyright,ty]: w\n"  # pyrefly misses what both report
        "e  # E[mypy]: v\n"  # mypy alone: pyrefly and ty side with pyright
        "f  # E[pyright,ty]: u\n"  # ty sides with pyright, but mypy is silent
    )
    assert list(differences_needing_review(path)) == [(3, "pyrefly"), (4, "pyrefly"), (6, "ty")]
    rows = reviewed_rows("| `reveal/r.py`: `c` | pyrefly | z | why | — |\n| Case | Checker |")
    assert rows == [("reveal/r.py", "c", "pyrefly")]


# ---------------------------------------------------------------------------------------------
# Layout rules
# ---------------------------------------------------------------------------------------------


def test_corpus_is_not_empty() -> None:
    for kind in KINDS:
        assert list((CORPUS / kind).glob("*.py")), f"typing/{kind}/ has no files"


def test_file_names_are_unique_and_shadow_nothing() -> None:
    stems = [p.stem for p in FILES]
    dupes = sorted({s for s in stems if stems.count(s) > 1})
    assert dupes == [], f"corpus file names must be unique across {KINDS}: {dupes}"
    taken = set(sys.stdlib_module_names) | {"jax", "jax_core", "numpy", "ml_dtypes", "jaxlib"}
    assert sorted(set(stems) & taken) == []


@pytest.mark.parametrize("path", [p for p in FILES if p.parent.name == "fail"], ids=_rel)
def test_fail_file_has_markers(path: Path) -> None:
    assert parse_markers(path), f"{_rel(path)} marks no line with `# E: ...`"


@pytest.mark.parametrize("path", [p for p in FILES if p.parent.name == "reveal"], ids=_rel)
def test_reveal_file_uses_assert_type(path: Path) -> None:
    assert "assert_type(" in path.read_text(), f"{_rel(path)} has no assert_type"


# ---------------------------------------------------------------------------------------------
# Running pass/ and reveal/
# ---------------------------------------------------------------------------------------------


# The numeric tower of the typing spec: a ``float`` annotation admits an int, and so on.
_PROMOTED: dict[type, tuple[type, ...]] = {float: (float, int), complex: (complex, float, int)}


def _runtime_classes(typ: Any) -> tuple[type, ...] | None:
    """The classes a value of static type ``typ`` is an instance of; None if not expressible."""
    origin = typing.get_origin(typ) or typ
    if origin in (typing.Union, types.UnionType):
        parts = [_runtime_classes(arg) for arg in typing.get_args(typ)]
        return None if any(p is None for p in parts) else tuple(c for p in parts if p for c in p)
    if not isinstance(origin, type) or origin is typing.Any:
        return None  # Any, Literal, TypeVars, callables ...
    if getattr(origin, "_is_protocol", False) and not getattr(
        origin, "_is_runtime_protocol", False
    ):
        return None
    return _PROMOTED.get(origin, (origin,))


def _runtime_assert_type(value: Any, typ: Any, /) -> Any:
    """``assert_type`` at run time: where ``typ`` names classes, the value must be one of them."""
    classes = _runtime_classes(typ)
    if classes is not None:
        assert isinstance(value, classes), (
            f"assert_type(..., {typ!r}) holds statically, but at run time the value is "
            f"{type(value).__module__}.{type(value).__qualname__}: {value!r}"
        )
    return value


# pass/ files that tour one library area call by call, each call a computation XLA compiles
# (about 75 s of the runtime pass in all). The functions they call are typed on themselves (the
# stubs/ overlays type Array and the tracers, run here through array_usage.py and reveal/), and
# the suites named run every one of them with its values checked, so only these files' imports
# run here: every name they take from jax_core exists at run time.
RUN_ELSEWHERE = {
    "pass/image_ops_usage.py": "tests/image, tests/ops, tests/scipy",
    "pass/lax_linalg_usage.py": "tests/lax, tests/scipy",
    "pass/nn_usage.py": "tests/nn",
    "pass/random_index_usage.py": "tests/random, tests/numpy",
    "pass/scipy_more_usage.py": "tests/scipy",
    "pass/scipy_stats_usage.py": "tests/scipy",
}


def test_run_elsewhere_names_pass_files() -> None:
    passing = {_rel(p) for p in FILES if p.parent.name == "pass"}
    assert sorted(set(RUN_ELSEWHERE) - passing) == [], "RUN_ELSEWHERE names no such pass/ file"


@pytest.mark.parametrize(
    "path", [p for p in FILES if p.parent.name in RUN_KINDS and _rel(p) not in RUN_ELSEWHERE], ids=_rel
)
def test_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typing, "assert_type", _runtime_assert_type)
    runpy.run_path(str(path), run_name="__typing_corpus__")


@pytest.mark.parametrize("path", [p for p in FILES if _rel(p) in RUN_ELSEWHERE], ids=_rel)
def test_imports_resolve(path: Path) -> None:
    imports = [n for n in ast.parse(path.read_text()).body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert imports, f"{_rel(path)} imports nothing"
    for node in imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                importlib.import_module(alias.name)
            continue
        assert node.module is not None and node.level == 0, f"{_rel(path)}: a relative import"
        module = importlib.import_module(node.module)
        for alias in node.names:  # an attribute of the module, or else a submodule
            if not hasattr(module, alias.name):
                importlib.import_module(f"{node.module}.{alias.name}")
