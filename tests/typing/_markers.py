"""The marker scheme of the typing corpus and the comparison of markers with what a checker said.

A marker is an end-of-line comment (the scheme is described in test_corpus.py):
``# E: <fragment>`` (both checkers), ``# E[mypy]: <fragment>``, ``# E[pyright]: <fragment>``.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

from tests.typing._checkers import CHECKERS, Diagnostic

MARKER = "E"


@dataclass(frozen=True)
class Expected:
    """What a marked line expects from one checker: an error whose text contains ``fragment``."""

    fragment: str
    marker: str


def parse_markers(path: Path) -> dict[int, dict[str, Expected]]:
    """The expectations of ``path``: line -> checker -> Expected."""
    out: dict[int, dict[str, Expected]] = {}
    source = path.read_text()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            continue
        for part in tok.string.split("#")[1:]:
            text = part.strip()
            head, sep, fragment = text.partition(":")
            if not sep:
                continue
            head = head.strip()
            if head == MARKER:
                who: tuple[str, ...] = CHECKERS
            elif head in (f"{MARKER}[{c}]" for c in CHECKERS):
                who = (head[len(MARKER) + 1 : -1],)
            else:
                continue
            line = tok.start[0]
            for checker in who:
                out.setdefault(line, {})[checker] = Expected(fragment.strip(), f"# {text}")
    return out


def is_assert_type_mismatch(diag: Diagnostic) -> bool:
    return diag.code in ("assert-type", "reportAssertTypeFailure") or (
        '"assert_type" mismatch' in diag.message
    )


def check_file(path: Path, shown: str, checker: str, diags: list[Diagnostic]) -> list[str]:
    """The problems of one file under one checker, as readable text (empty when all is well).

    ``shown`` is the name printed for the file; ``diags`` is all the checker said about it.
    A file outside fail/ with a marker records a known gap, so a missed error there says so.
    """
    lines = path.read_text().splitlines()
    expected = parse_markers(path)
    errors: dict[int, list[Diagnostic]] = {}
    for d in diags:
        if d.is_error:
            errors.setdefault(d.line, []).append(d)
    problems: list[str] = []

    def where(line: int) -> str:
        src = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        return f"{shown}:{line}: {src}"

    for line, by_checker in sorted(expected.items()):
        exp = by_checker.get(checker)
        if exp is None:
            continue
        got = errors.get(line, [])
        if not got:
            gap = " (a known gap closed? delete the marker)" if path.parent.name != "fail" else ""
            problems.append(f"missed error{gap}: {checker} reports nothing\n    {where(line)}")
        elif exp.fragment and not any(exp.fragment.casefold() in str(d).casefold() for d in got):
            said = "\n".join(f"      {checker}: {d}" for d in got)
            problems.append(
                f"wrong error: no message contains {exp.fragment!r}\n    {where(line)}\n{said}"
            )
    for line, got in sorted(errors.items()):
        if checker in expected.get(line, {}):
            continue
        for d in got:
            if is_assert_type_mismatch(d):
                kind = "assert_type mismatch"
            elif expected.get(line):
                kind = f"unexpected error (the marker expects only {', '.join(expected[line])})"
            else:
                kind = "false positive"
            problems.append(f"{kind}\n    {where(line)}\n      {checker}: {d}")
    return problems
