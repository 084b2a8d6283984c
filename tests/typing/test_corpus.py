"""The typing corpus: user programs in typing/{pass,fail,reveal} checked by mypy and pyright.

One mypy run (typing/mypy.ini: strict, warn_unused_ignores, no plugin) and one pyright run
(typing/pyrightconfig.json: strict, reportUnnecessaryTypeIgnoreComment) check the whole corpus,
once per pytest session and side by side; every file then gets one test per checker, so a
failure names the file, the line and what went wrong.

Directories:
    pass/    valid programs: no checker may report anything. They are also run (runpy).
    fail/    each wrong line carries a marker (below); the checkers must report an error on
             exactly the marked lines. Not run.
    reveal/  ``assert_type(expr, T)`` statements, so a wrong inferred type is an error. Also run,
             with ``assert_type`` checking ``isinstance(value, T)`` where ``T`` is a plain class.

Markers: an end-of-line comment on the line where the checker reports the error:
    # E: <fragment>             both checkers report an error there, each with a message that
                                contains <fragment> (case-insensitive; may be empty)
    # E[mypy]: <fragment>       only mypy does; pyright must be silent on the line
    # E[pyright]: <fragment>    only pyright does; mypy must be silent on the line
``# E[mypy]: a  # E[pyright]: b`` expects both, with a fragment each. A marker in pass/ or
reveal/ records a known gap of the typed surface (a false positive, or an ``Any`` where a
precise type belongs); when the gap closes the test fails as "missed error": delete the marker.
Keep marked statements on one line (checkers disagree on the line of a multi-line statement).

Files are checked as modules named after their file: names must be unique across the three
directories and must not be those of stdlib or installed top-level packages.
"""

from __future__ import annotations

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
    """mypy and pyright over the whole corpus, once per session."""
    return run_checkers(
        cwd=CORPUS,
        mypy_config=CORPUS / "mypy.ini",
        pyright_config=CORPUS / "pyrightconfig.json",
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


@pytest.mark.parametrize("path", [p for p in FILES if p.parent.name in RUN_KINDS], ids=_rel)
def test_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typing, "assert_type", _runtime_assert_type)
    runpy.run_path(str(path), run_name="__typing_corpus__")
