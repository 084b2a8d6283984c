"""The marker scheme of the typing corpus and the comparison of markers with what a checker said.

A marker is an end-of-line comment (the scheme is described in test_corpus.py):
``# E: <fragment>`` (every checker), ``# E[<checker>]: <fragment>`` (that checker only, one of
CHECKERS) and ``# E[<checker>,<checker>...]: <fragment>`` (each of those checkers).
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

from tests.typing._checkers import CHECKERS, Diagnostic

MARKER = "E"
_HEAD = re.compile(rf"^{MARKER}(?:\[(?P<who>[^\]]*)\])?$")


class MarkerError(ValueError):
    """A comment that looks like a marker but names no known checker (or one twice)."""


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
            m = _HEAD.match(head.strip())
            if m is None:
                continue
            line = tok.start[0]
            who = CHECKERS if m["who"] is None else _checkers_named(m["who"], path, line)
            for checker in who:
                if checker in out.get(line, {}):
                    raise MarkerError(f"{path}:{line}: two markers for {checker}")
                out.setdefault(line, {})[checker] = Expected(fragment.strip(), f"# {text}")
    return out


_QUOTES = str.maketrans({"'": '"', "`": '"'})


def _normal(text: str) -> str:
    return text.casefold().translate(_QUOTES)


def matches(fragment: str, diag: Diagnostic) -> bool:
    """Whether ``diag`` (message and code) contains ``fragment``: case-insensitive, and with the
    quotes ``"``, ``'`` and a backtick all alike (mypy and pyright write ``"str"``, pyrefly and ty
    `` `str` ``)."""
    return _normal(fragment) in _normal(str(diag))


def _checkers_named(names: str, path: Path, line: int) -> tuple[str, ...]:
    who = tuple(n.strip() for n in names.split(","))
    bad = [n for n in who if n not in CHECKERS]
    if bad or not who or len(set(who)) != len(who):
        raise MarkerError(
            f"{path}:{line}: marker E[{names}] must name distinct checkers among {CHECKERS}"
        )
    return who


# The code each checker gives a failed ``assert_type``: mypy, pyright, pyrefly, ty.
ASSERT_TYPE_CODES = (
    "assert-type",
    "reportAssertTypeFailure",
    "assert-type",
    "type-assertion-failure",
)


def is_assert_type_mismatch(diag: Diagnostic) -> bool:
    return diag.code in ASSERT_TYPE_CODES or ('"assert_type" mismatch' in diag.message)


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
        elif exp.fragment and not any(matches(exp.fragment, d) for d in got):
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
