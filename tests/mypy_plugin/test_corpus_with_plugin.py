"""The typing corpus (typing/{pass,fail,reveal}) under mypy with the plugin.

One mypy run with typing/mypy-plugin.ini (typing/mypy.ini plus ``plugins = jax_core.mypy_plugin``) over
the whole corpus, read with the corpus's own marker scheme (tests/typing/_markers.py). The
plugin may only improve on the annotations, so what the corpus guarantees without it must hold:

* every line of fail/ marked for mypy (``# E:`` or ``# E[mypy]:``) still gets an error (any
  message: the plugin may word it better, at the cause);
* no line without a mypy marker gets an error, except an ``assert_type`` whose expected type
  was ``Any`` (``Expression is of type "X", not "Any"``): the plugin refined an ``Any``;
* a gap marker of pass/ or reveal/ (a false positive or an ``Any``, see tests/typing/test_corpus.py)
  either closes (no error) or stays the same gap (an error containing the marker's fragment).

It also records what the plugin gains: gaps closed (gap markers of pass/ and reveal/ with no
error left; lines of fail/ marked for pyright only that mypy now catches), and the known ones
(KNOWN_CLOSED) must stay closed. Run with ``-s`` to see the figures.
"""

from __future__ import annotations

import configparser
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.typing._checkers import CheckerRun, Diagnostic, run_mypy
from tests.typing._markers import is_assert_type_mismatch, parse_markers

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "typing"
KINDS = ("pass", "fail", "reveal")
FILES = sorted(p for kind in KINDS for p in (CORPUS / kind).glob("*.py"))
PLUGIN_CONFIG = CORPUS / "mypy-plugin.ini"

# Gaps the plugin is known to close, as (file, a piece of the marked line's code) so that edits
# elsewhere in the file do not move them. Each must be among the gaps found closed.
KNOWN_CLOSED: tuple[tuple[str, str], ...] = (
    # partial(shard_map, ...) as a decorator: precise instead of Any, and its arguments checked
    ("reveal/sharding_reveal.py", "assert_type(dot3(x, x), Array)"),
    ("fail/sharding_fail.py", 'scale2(x, "2")'),
    # a jitted call accepts an ndarray for an Array parameter (false positive gone)
    ("pass/jit_forms.py", "y_np = fast_affine(np.ones((4, 3), np.float32), w, b)"),
    # argnums tuples the overloads do not cover: precise instead of Any
    ("reveal/grad_reveal.py", "assert_type(grad(loss, (1, 0))(w, x)"),
    ("reveal/grad_reveal.py", "assert_type(grad(six, argnums=(0, 1, 2, 3))"),
    # partial(jit, static_argnums=...): precise instead of Any
    ("reveal/jit_reveal.py", "assert_type(k(x, 2), Array)"),
    # vmap of a Python-scalar function returns an Array
    ("reveal/transforms_reveal.py", "assert_type(vmap(rank)(xs), Array)"),
    # jitted methods through an instance and through the class: precise instead of Any
    ("reveal/transforms_reveal.py", "assert_type(m.apply(x), Array)"),
    ("reveal/transforms_reveal.py", "assert_type(Model.apply(m, x), Array)"),
    # a static argument of the wrong type / the result of a partial(jit) method: now caught
    ("fail/jit_fail.py", 'k(x, "4")'),
    ("fail/jit_fail.py", "v: str = k(x, 4)"),
)
# Lines of fail/ where the plugin's own check (a jax-* error code) now reports the mistake.
KNOWN_PLUGIN_CAUGHT: tuple[tuple[str, str], ...] = (
    ("fail/control_flow_fail.py", "y: Array = lax.cond(p, pos, as_tuple, x)"),
    ("fail/control_flow_fail.py", "z: Array = lax.switch(1, [pos, as_str], x)"),
)

_REFINED_ANY = re.compile(r'^Expression is of type "(?P<got>.+)", not "Any"$')


def _rel(path: Path) -> str:
    return path.relative_to(CORPUS).as_posix()


@dataclass(frozen=True)
class Line:
    file: str
    line: int
    code: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.code}"


@dataclass
class Analysis:
    """The corpus under the plugin, line by line."""

    lines_checked: int = 0
    marked: list[Line] = field(default_factory=list)  # fail/ lines marked for mypy
    still_caught: list[Line] = field(default_factory=list)
    plugin_caught: list[Line] = field(default_factory=list)  # ... with a jax-* error among them
    gaps: list[Line] = field(default_factory=list)  # gap markers for mypy in pass/, reveal/
    closed: list[Line] = field(default_factory=list)  # gaps closed (both kinds)
    refined_any: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _analyse(path: Path, rel: str, diags: list[Diagnostic], out: Analysis) -> None:
    """Adds what mypy said about ``path`` (shown as ``rel``, in a directory named after its
    kind) to ``out``."""
    source = path.read_text().splitlines()
    out.lines_checked += len(source)
    markers = parse_markers(path)
    errors: dict[int, list[Diagnostic]] = {}
    for d in diags:
        if d.is_error:
            errors.setdefault(d.line, []).append(d)

    def at(line: int) -> Line:
        return Line(rel, line, source[line - 1].strip() if 0 < line <= len(source) else "")

    def said(got: list[Diagnostic]) -> str:
        return "".join(f"\n      mypy: {d}" for d in got)

    for line, by_checker in sorted(markers.items()):
        got = errors.get(line, [])
        exp = by_checker.get("mypy")
        if path.parent.name == "fail":
            if exp is not None:
                out.marked.append(at(line))
                if not got:
                    out.problems.append(f"marked error no longer reported\n    {at(line)}")
                else:
                    out.still_caught.append(at(line))
                    if any((d.code or "").startswith("jax-") for d in got):
                        out.plugin_caught.append(at(line))
            elif got:  # marked for pyright only: mypy now catches it too
                out.closed.append(at(line))
        elif exp is not None:  # a known gap of pass/ or reveal/
            out.gaps.append(at(line))
            if not got:
                out.closed.append(at(line))
            elif exp.fragment and not any(
                exp.fragment.casefold() in str(d).casefold() for d in got
            ):
                out.problems.append(
                    f"gap changed: no message contains {exp.fragment!r}\n    {at(line)}{said(got)}"
                )
    for line, got in sorted(errors.items()):
        if "mypy" in markers.get(line, {}):
            continue
        if path.parent.name == "fail" and line in markers:
            continue  # a pyright-only line of fail/ that mypy now catches (counted above)
        for d in got:
            if is_assert_type_mismatch(d) and _REFINED_ANY.match(d.message):
                out.refined_any.append(f"{at(line)}  ({d.message})")
            else:
                out.problems.append(f"new error\n    {at(line)}{said([d])}")


@pytest.fixture(scope="module")
def mypy_run() -> CheckerRun:
    run = run_mypy(
        cwd=CORPUS,
        config=PLUGIN_CONFIG,
        targets=[_rel(p) for p in FILES],
        cache_dir=ROOT / ".mypy_cache" / "typing-corpus-plugin",
    )
    if run.failure:
        pytest.fail(run.failure, pytrace=False)
    return run


@pytest.fixture(scope="module")
def analysis(mypy_run: CheckerRun) -> Analysis:
    out = Analysis()
    for path in FILES:
        _analyse(path, _rel(path), mypy_run.by_file.get(str(path.resolve()), []), out)
    print(
        f"\ncorpus with the plugin: {len(FILES)} files, {out.lines_checked} lines checked "
        f"in {mypy_run.seconds:.1f} s; marked errors still caught "
        f"{len(out.still_caught)}/{len(out.marked)} (by a plugin check: {len(out.plugin_caught)}); "
        f"gaps closed {len(out.closed)} (gap markers of pass/reveal: {len(out.gaps)}); "
        f"Any refined: {len(out.refined_any)}"
    )
    for item in out.closed:
        print(f"  gap closed: {item}")
    for text in out.refined_any:
        print(f"  Any refined: {text}")
    return out


def test_config_is_the_corpus_config_plus_the_plugin() -> None:
    def sections(path: Path) -> dict[str, dict[str, str]]:
        parser = configparser.ConfigParser()
        parser.read(path)
        return {s: dict(parser[s]) for s in parser.sections()}

    with_plugin = sections(PLUGIN_CONFIG)
    assert with_plugin["mypy"].pop("plugins") == "jax_core.mypy_plugin"
    assert with_plugin == sections(CORPUS / "mypy.ini")


def test_no_errors_outside_the_corpus(mypy_run: CheckerRun) -> None:
    corpus = {str(p.resolve()) for p in FILES}
    stray = [
        f"{path}:{d.line}: {d}"
        for path, diags in mypy_run.by_file.items()
        if path not in corpus
        for d in diags
        if d.is_error
    ]
    assert stray == []


def test_guarantees_without_the_plugin_still_hold(analysis: Analysis) -> None:
    assert analysis.marked, "no line of fail/ is marked for mypy: is the corpus there?"
    if analysis.problems:
        pytest.fail(
            f"{len(analysis.problems)} problems with the plugin on:\n"
            + "\n".join(analysis.problems),
            pytrace=False,
        )


def _find(lines: list[Line], known: tuple[tuple[str, str], ...]) -> Iterator[str]:
    """The entries of ``known`` that no line of ``lines`` matches."""
    for file, code in known:
        if not any(item.file == file and code in item.code for item in lines):
            yield f"{file}: {code}"


def test_known_gaps_are_closed(analysis: Analysis) -> None:
    missing = list(_find(analysis.closed, KNOWN_CLOSED))
    assert missing == [], "gaps the plugin used to close are open again (or the line changed)"


def test_plugin_checks_report_known_mistakes(analysis: Analysis) -> None:
    missing = list(_find(analysis.plugin_caught, KNOWN_PLUGIN_CAUGHT))
    assert missing == [], "lines of fail/ no longer reported by a jax-* check"


def test_the_analysis_flags_regressions(tmp_path: Path) -> None:
    """The checks above, on a made-up corpus: each kind of regression is reported."""
    (tmp_path / "fail").mkdir()
    (tmp_path / "reveal").mkdir()
    fail = tmp_path / "fail" / "f.py"
    fail.write_text("a  # E: int\nb  # E[pyright]: str\nc\n")
    reveal = tmp_path / "reveal" / "r.py"
    reveal.write_text("x  # E: Any\ny  # E[mypy]: Any\nz\nw\n")

    def err(line: int, message: str, code: str | None = None) -> Diagnostic:
        return Diagnostic(line, "error", message, code)

    good = Analysis()
    _analyse(fail, "fail/f.py", [err(1, "bad int", "jax-static"), err(2, "str")], good)
    _analyse(
        reveal,
        "reveal/r.py",
        [err(1, 'Expression is of type "Any", not "int"', "assert-type")]
        + [err(4, 'Expression is of type "Array", not "Any"', "assert-type")],
        good,
    )
    assert good.problems == []
    assert [str(x) for x in good.closed] == [
        "fail/f.py:2: b  # E[pyright]: str",
        "reveal/r.py:2: y  # E[mypy]: Any",
    ]
    assert len(good.plugin_caught) == 1 and len(good.refined_any) == 1

    bad = Analysis()
    _analyse(fail, "fail/f.py", [err(3, "oops")], bad)  # marked line silent, unmarked line errs
    _analyse(reveal, "reveal/r.py", [err(1, 'Expression is of type "str", not "int"')], bad)
    assert [p.split("\n")[0] for p in bad.problems] == [
        "marked error no longer reported",
        "new error",
        "gap changed: no message contains 'Any'",
    ]
