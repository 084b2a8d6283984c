"""Type-check ``examples/`` and show what the mypy plugin catches (the second half of ``make demo``).

1. mypy, strict, with the jax_core plugin (``examples/mypy.ini``): every example but
   ``mistakes.py`` must be clean; in ``mistakes.py`` the plugin's errors (codes ``jax-*``) must
   be exactly the ``# plugin: jax-<code>`` comments, line by line. Other errors are allowed only
   on those lines (the annotations catching the same mistake).
2. mypy, strict, without the plugin: what jax_core's annotations alone catch.
3. pyright, strict (``examples/pyrightconfig.json``): the examples must be clean; for
   ``mistakes.py`` it prints which mistakes pyright flags (the annotations alone).
4. Real JAX: if ``.venv-jax`` exists, a copy of ``mistakes.py`` importing ``jax`` instead of
   ``jax_core`` is checked by mypy (strict, no plugin) against real JAX's own annotations.

Steps 2 to 4 only print; step 1 (and pyright on the clean examples) decides the exit status.
``check_plugin()`` is step 1 as a function, for tests/mypy_plugin/test_examples.py.

Usage: ``.venv/bin/python tools/typecheck_examples.py`` (run by ``make demo``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
MISTAKES = EXAMPLES / "mistakes.py"
MYPY_INI = EXAMPLES / "mypy.ini"
PYRIGHT_CONFIG = EXAMPLES / "pyrightconfig.json"
JAX_PYTHON = ROOT / ".venv-jax" / "bin" / "python"
CACHE = ROOT / ".mypy_cache"

MARKER = re.compile(r"#\s*plugin:\s*(jax-[a-z-]+)")
MYPY_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|note): (?P<message>.*?)"
    r"(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


@dataclass(frozen=True)
class Diagnostic:
    """One error: file (relative to the repository when inside it), line, code, message."""

    path: str
    line: int
    code: str
    message: str


@dataclass
class PluginReport:
    """What step 1 found; ``problems`` is empty when everything is as expected."""

    clean: list[str] = field(default_factory=list[str])
    found: list[Diagnostic] = field(default_factory=list[Diagnostic])
    expected: dict[int, set[str]] = field(default_factory=dict[int, set[str]])
    problems: list[str] = field(default_factory=list[str])


def _relative(path: str) -> str:
    p = Path(path)
    p = p if p.is_absolute() else ROOT / p
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return path


def markers(path: Path = MISTAKES) -> dict[int, set[str]]:
    """Line number -> the codes named by ``# plugin: jax-<code>`` comments on that line."""
    out: dict[int, set[str]] = {}
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        codes = set(MARKER.findall(text))
        if codes:
            out[number] = codes
    return out


def example_files() -> list[Path]:
    """The Python files under examples/."""
    return sorted(EXAMPLES.glob("*.py"))


def run_mypy(args: list[str], cwd: Path = ROOT) -> list[Diagnostic]:
    """mypy's errors (notes dropped); raises if mypy itself fails (exit status 2)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-pretty", "--show-error-codes", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"mypy failed (exit {proc.returncode}):\n{proc.stdout}{proc.stderr}")
    out: list[Diagnostic] = []
    for text in proc.stdout.splitlines():
        m = MYPY_LINE.match(text)
        if m and m["severity"] == "error":
            path = m["path"] if cwd != ROOT else _relative(m["path"])
            out.append(Diagnostic(path, int(m["line"]), m["code"] or "misc", m["message"]))
    return out


def _mypy_examples(plugin: bool) -> list[Diagnostic]:
    files = [str(p.relative_to(ROOT)) for p in example_files()]
    if plugin:
        return run_mypy(
            ["--config-file", str(MYPY_INI), "--cache-dir", str(CACHE / "examples"), *files]
        )
    # The same configuration without the plugin (mypy has no flag that removes one).
    with tempfile.TemporaryDirectory(prefix="typecheck-examples-") as tmp:
        ini = Path(tmp) / "mypy.ini"
        text = MYPY_INI.read_text().replace("plugins = jax_core.mypy_plugin\n", "")
        ini.write_text(text.replace("$MYPY_CONFIG_FILE_DIR/..", str(ROOT)))
        return run_mypy(
            ["--config-file", str(ini), "--cache-dir", str(CACHE / "examples-noplugin"), *files]
        )


def check_plugin() -> PluginReport:
    """Step 1: mypy with the plugin on examples/; the report's ``problems`` say what is wrong."""
    report = PluginReport(expected=markers())
    diagnostics = _mypy_examples(plugin=True)
    mistakes = str(MISTAKES.relative_to(ROOT))
    for path in example_files():
        rel = str(path.relative_to(ROOT))
        errors = [d for d in diagnostics if d.path == rel]
        if rel == mistakes:
            report.found = errors
        elif errors:
            report.problems += [f"{rel}:{d.line}: {d.message}  [{d.code}]" for d in errors]
        else:
            report.clean.append(rel)
    got: dict[int, set[str]] = {}
    for d in report.found:
        if d.code.startswith("jax-"):
            got.setdefault(d.line, set()).add(d.code)
        elif d.line not in report.expected:
            report.problems.append(
                f"{mistakes}:{d.line}: error on a line without a # plugin: comment: "
                f"{d.message}  [{d.code}]"
            )
    for line in sorted(set(got) | set(report.expected)):
        want, have = report.expected.get(line, set()), got.get(line, set())
        if want != have:
            report.problems.append(
                f"{mistakes}:{line}: the # plugin: comments say {sorted(want) or 'nothing'}, "
                f"the plugin reported {sorted(have) or 'nothing'}"
            )
    return report


def _short(message: str, width: int = 110) -> str:
    return message if len(message) <= width else message[: width - 3] + "..."


# Complaints about Any/Unknown results, not about the mistake on the line.
ANY_CODES = frozenset(
    {
        "no-any-return",
        "reportUnknownVariableType",
        "reportUnknownMemberType",
        "reportUnknownArgumentType",
    }
)


def _caught(diagnostics: list[Diagnostic], expected: dict[int, set[str]]) -> set[int]:
    """The marked lines with an error that is about the mistake (not about an ``Any``)."""
    return {d.line for d in diagnostics if d.line in expected and d.code not in ANY_CODES}


def _print_caught(diagnostics: list[Diagnostic], expected: dict[int, set[str]]) -> None:
    """For each mistake line: the errors there (the first message, every code)."""
    for line in sorted(expected):
        here = [d for d in diagnostics if d.line == line]
        if not here:
            continue
        codes = ", ".join(dict.fromkeys(d.code for d in here))
        relevant = [d for d in here if d.code not in ANY_CODES]
        note = "" if relevant else "  (only about Any: not counted)"
        print(f"  line {line:3d}  [{codes}]  {_short((relevant or here)[0].message)}{note}")


def _print_plugin(report: PluginReport) -> None:
    print("\n== mypy --strict with the jax_core plugin on examples/ (examples/mypy.ini) ==")
    for rel in report.clean:
        print(f"{rel}: clean")
    print(f"{MISTAKES.relative_to(ROOT)}:")
    for d in sorted(report.found, key=lambda d: (d.line, not d.code.startswith("jax-"))):
        if d.code.startswith("jax-"):
            print(f"  line {d.line:3d}  [{d.code}]  {_short(d.message)}")
        else:
            print(f"  line {d.line:3d}  also [{d.code}] from the annotations alone")
    n_codes = sum(len(c) for c in report.expected.values())
    if report.problems:
        print("MISMATCH between the plugin's errors and the # plugin: comments:")
        for p in report.problems:
            print("  " + p)
    else:
        print(f"the plugin's errors match the {n_codes} # plugin: comments, line by line")


def _print_without_plugin(expected: dict[int, set[str]]) -> None:
    diagnostics = [d for d in _mypy_examples(plugin=False) if d.path.endswith("mistakes.py")]
    caught = _caught(diagnostics, expected)
    print("\n== mypy --strict without the plugin (jax_core's annotations alone) ==")
    print(f"examples/mistakes.py: catches {len(caught)} of the {len(expected)} mistakes")
    _print_caught(diagnostics, expected)


def _pyright() -> list[Diagnostic]:
    proc = subprocess.run(
        [sys.executable, "-m", "pyright", "--outputjson", "-p", str(PYRIGHT_CONFIG)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise RuntimeError(f"pyright failed:\n{proc.stdout}{proc.stderr}") from e
    return [
        Diagnostic(
            _relative(d["file"]),
            d["range"]["start"]["line"] + 1,
            d.get("rule", "error"),
            d["message"].splitlines()[0],
        )
        for d in data["generalDiagnostics"]
        if d["severity"] == "error"
    ]


def _print_pyright(expected: dict[int, set[str]]) -> list[str]:
    print("\n== pyright --strict on examples/ (examples/pyrightconfig.json; no plugins exist) ==")
    diagnostics = _pyright()
    mistakes = str(MISTAKES.relative_to(ROOT))
    problems: list[str] = []
    for path in example_files():
        rel = str(path.relative_to(ROOT))
        errors = [d for d in diagnostics if d.path == rel]
        if rel == mistakes:
            caught = _caught(errors, expected)
            print(f"{rel}: flags {len(caught)} of the {len(expected)} mistakes")
            _print_caught(errors, expected)
            others = [d for d in errors if d.line not in expected]
            if others:
                lines = sorted({d.line for d in others})
                print(f"  and {len(others)} errors on other lines {lines} (Unknown results)")
        elif errors:
            print(f"{rel}: {len(errors)} errors")
            problems += [f"{rel}:{d.line}: {d.message}  [{d.code}]" for d in errors]
            for p in problems:
                print("  " + p)
        else:
            print(f"{rel}: clean")
    return problems


def _print_real_jax(expected: dict[int, set[str]]) -> None:
    print("\n== mypy --strict on examples/mistakes.py written for real JAX (no plugin) ==")
    if not JAX_PYTHON.exists():
        print("skipped: .venv-jax is absent (`make bench` builds it)")
        return
    version = subprocess.run(
        [str(JAX_PYTHON), "-c", "import jax; print(jax.__version__)"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="typecheck-examples-jax-") as tmp:
        copy = Path(tmp) / "mistakes_jax.py"
        copy.write_text(MISTAKES.read_text().replace("jax_core", "jax"))
        (Path(tmp) / "mypy.ini").write_text("[mypy]\n")  # not the project's configuration
        diagnostics = run_mypy(
            [
                "--config-file",
                "mypy.ini",
                "--strict",
                "--python-version",
                "3.12",
                "--python-executable",
                str(JAX_PYTHON),
                "--cache-dir",
                str(CACHE / "examples-jax"),
                copy.name,
            ],
            cwd=Path(tmp),
        )
    caught = _caught(diagnostics, expected)
    label = f"real JAX {version}" if version else "real JAX"
    print(f"{label}: catches {len(caught)} of the {len(expected)} mistakes")
    _print_caught(diagnostics, expected)
    others = [d for d in diagnostics if d.line not in expected]
    if others:
        codes = sorted({d.code for d in others})
        print(f"  and {len(others)} errors on other lines ({', '.join(codes)}: Any results)")


def main() -> int:
    start = time.perf_counter()
    report = check_plugin()
    _print_plugin(report)
    _print_without_plugin(report.expected)
    problems = _print_pyright(report.expected)
    _print_real_jax(report.expected)
    print(f"\n(type-checking took {time.perf_counter() - start:.0f} s)")
    if report.problems or problems:
        print("typecheck_examples: FAILED", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
