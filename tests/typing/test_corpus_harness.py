"""The corpus harness itself: markers parse as documented and every kind of mismatch is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.typing._checkers import (
    CHECKERS,
    CheckerRun,
    Diagnostic,
    parse_mypy,
    parse_pyrefly,
    parse_pyright,
    parse_ty,
    run_checkers,
)
from tests.typing._markers import MarkerError, check_file, parse_markers

SOURCE = """\
a = 1
b = f("x")  # E: "str"
c = g()  # E[mypy]: Too many  # E[pyright]: Expected 0
d = h()  # E[pyright]: missing
s = "# E: not a marker"  # just a comment
"""


def _file(tmp_path: Path, kind: str = "fail") -> Path:
    path = tmp_path / kind / "sample.py"
    path.parent.mkdir()
    path.write_text(SOURCE)
    return path


def err(line: int, message: str, code: str | None = None) -> Diagnostic:
    return Diagnostic(line, "error", message, code)


def test_markers_parse(tmp_path: Path) -> None:
    marks = parse_markers(_file(tmp_path))
    assert sorted(marks) == [2, 3, 4]
    assert {c: e.fragment for c, e in marks[2].items()} == dict.fromkeys(CHECKERS, '"str"')
    assert {c: e.fragment for c, e in marks[3].items()} == {
        "mypy": "Too many",
        "pyright": "Expected 0",
    }
    assert list(marks[4]) == ["pyright"]


def test_all_expectations_met(tmp_path: Path) -> None:
    path = _file(tmp_path)
    mypy = [err(2, 'Argument 1 has incompatible type "str"'), err(3, "Too many arguments")]
    assert check_file(path, "s.py", "mypy", mypy) == []
    pyright = [
        err(2, 'parameter of type "str"'),
        err(3, "Expected 0 positional"),
        err(4, "missing x"),
    ]
    assert check_file(path, "s.py", "pyright", pyright) == []


def test_missed_error(tmp_path: Path) -> None:
    problems = check_file(_file(tmp_path), "s.py", "mypy", [err(3, "Too many arguments")])
    assert len(problems) == 1 and problems[0].startswith("missed error: mypy reports nothing")
    assert "s.py:2:" in problems[0]


def test_missed_error_outside_fail_is_a_closed_gap(tmp_path: Path) -> None:
    problems = check_file(_file(tmp_path, "reveal"), "s.py", "mypy", [err(3, "Too many")])
    assert "known gap closed" in problems[0]


def test_wrong_message(tmp_path: Path) -> None:
    diags = [err(2, 'Argument 1 has incompatible type "int"'), err(3, "Too many arguments")]
    (problem,) = check_file(_file(tmp_path), "s.py", "mypy", diags)
    assert problem.startswith("wrong error: no message contains '\"str\"'")


def test_false_positive_and_assert_type_mismatch(tmp_path: Path) -> None:
    diags = [
        err(1, "Name 'x' is not defined"),
        err(5, 'Expression is of type "Any", not "Array"', "assert-type"),
        err(2, '"str"'),
        err(3, "Too many"),
    ]
    problems = check_file(_file(tmp_path), "s.py", "mypy", diags)
    assert [p.split("\n")[0] for p in problems] == ["false positive", "assert_type mismatch"]


def test_error_from_the_checker_a_marker_excludes(tmp_path: Path) -> None:
    diags = [err(2, '"str"'), err(3, "Too many"), err(4, "missing")]
    (problem,) = check_file(_file(tmp_path), "s.py", "mypy", diags)
    assert problem.startswith("unexpected error (the marker expects only pyright)")


def test_notes_and_information_are_not_errors(tmp_path: Path) -> None:
    diags = [Diagnostic(1, "note", 'Revealed type is "int"'), Diagnostic(1, "information", "x")]
    problems = check_file(
        _file(tmp_path), "s.py", "mypy", [*diags, err(2, '"str"'), err(3, "Too many")]
    )
    assert problems == []


def test_output_parsers(tmp_path: Path) -> None:
    run = CheckerRun("mypy")
    out = (
        "pass/a.py:3: error: Incompatible types in assignment  [assignment]\n"
        'pass/a.py:4: note: Revealed type is "builtins.int"\n'
    )
    parse_mypy(run, tmp_path, 1, out, "")
    (diags,) = run.by_file.values()
    assert diags == [
        Diagnostic(3, "error", "Incompatible types in assignment", "assignment"),
        Diagnostic(4, "note", 'Revealed type is "builtins.int"', None),
    ]
    crashed = CheckerRun("mypy")
    parse_mypy(crashed, tmp_path, 2, "", "Traceback ...")
    assert crashed.failure is not None and "exited with 2" in crashed.failure

    run = CheckerRun("pyright")
    report = (
        '{"generalDiagnostics": [{"file": "/x/a.py", "severity": "error", "message": "m",'
        ' "range": {"start": {"line": 0, "character": 1}}, "rule": "reportFoo"}]}'
    )
    parse_pyright(run, 1, report, "")
    assert run.by_file["/x/a.py"] == [Diagnostic(1, "error", "m", "reportFoo")]
    broken = CheckerRun("pyright")
    parse_pyright(broken, 3, "not json", "")
    assert broken.failure is not None


def test_markers_naming_several_checkers(tmp_path: Path) -> None:
    path = tmp_path / "fail" / "m.py"
    path.parent.mkdir()
    path.write_text("a  # E[mypy, ty]: x  # E[pyright,pyrefly]: `y`\n")
    marks = parse_markers(path)
    assert {c: e.fragment for c, e in marks[1].items()} == {
        "mypy": "x",
        "ty": "x",
        "pyright": "`y`",
        "pyrefly": "`y`",
    }
    # quotes match quotes: mypy and pyright write "str", pyrefly and ty `str`
    assert check_file(path, "m.py", "pyrefly", [err(1, "Argument `y` is wrong")]) == []
    assert check_file(path, "m.py", "pyright", [err(1, 'Argument "y" is wrong')]) == []
    for bad in ("b  # E[mypy,mypy]: x\n", "b  # E[mpy]: x\n", "b  # E: x  # E[ty]: y\n"):
        path.write_text(bad)
        with pytest.raises(MarkerError):
            parse_markers(path)


def test_assert_type_mismatch_of_each_checker(tmp_path: Path) -> None:
    path = tmp_path / "reveal" / "r.py"
    path.parent.mkdir()
    path.write_text("assert_type(x, int)\n")
    for checker, code in [("pyrefly", "assert-type"), ("ty", "type-assertion-failure")]:
        (problem,) = check_file(path, "r.py", checker, [err(1, "...", code)])
        assert problem.startswith("assert_type mismatch")


def test_pyrefly_and_ty_parsers(tmp_path: Path) -> None:
    run = CheckerRun("pyrefly")
    report = (
        '{"errors": [{"line": 3, "column": 1, "path": "pass/a.py", "name": "bad-assignment",'
        ' "description": "long", "concise_description": "short", "severity": "error"},'
        ' {"line": 4, "column": 1, "path": "pass/a.py", "name": "reveal-type",'
        ' "description": "revealed type: int", "severity": "info"}]}'
    )
    parse_pyrefly(run, tmp_path, 1, report, "")
    path = str((tmp_path / "pass/a.py").resolve())
    assert run.by_file[path] == [
        Diagnostic(3, "error", "short", "bad-assignment"),
        Diagnostic(4, "information", "revealed type: int", "reveal-type"),
    ]
    broken = CheckerRun("pyrefly")
    parse_pyrefly(broken, tmp_path, 101, "", "panic")
    assert broken.failure is not None

    run = CheckerRun("ty")
    report = (
        '[{"check_name": "invalid-assignment", "description": "invalid-assignment: Object of type",'
        ' "severity": "major", "location": {"path": "pass/a.py",'
        ' "positions": {"begin": {"line": 5, "column": 1}}}},'
        ' {"check_name": "deprecated", "description": "deprecated: old", "severity": "minor",'
        ' "location": {"path": "pass/a.py", "positions": {"begin": {"line": 6, "column": 1}}}}]'
    )
    parse_ty(run, tmp_path, 1, report, "")
    assert run.by_file[path] == [
        Diagnostic(5, "error", "Object of type", "invalid-assignment"),
        Diagnostic(6, "warning", "old", "deprecated"),
    ]
    assert all(d.is_error for d in run.by_file[path])
    broken = CheckerRun("ty")
    parse_ty(broken, tmp_path, 2, "ty failed", "")
    assert broken.failure is not None


def test_run_checkers_picks_checkers_by_configuration(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no configuration"):
        run_checkers(
            cwd=tmp_path,
            mypy_config=tmp_path / "mypy.ini",
            pyright_config=tmp_path / "pyrightconfig.json",
            targets=[],
            cache_dir=tmp_path,
            checkers=["ty"],
        )
    with pytest.raises(ValueError, match="unknown checkers"):
        run_checkers(
            cwd=tmp_path,
            mypy_config=tmp_path / "mypy.ini",
            pyright_config=tmp_path / "pyrightconfig.json",
            targets=[],
            cache_dir=tmp_path,
            checkers=["pytype"],
        )
