"""Running mypy, pyright, pyrefly and ty over a set of files and parsing what they report.

Shared by the corpus harness (test_corpus.py, all four checkers) and the installed-wheel test
(test_wheel_types.py, mypy and pyright). The checkers asked for are started at once and run side
by side; each reports ``Diagnostic``s keyed by absolute file path.

Output formats: mypy's one-line text, pyright ``--outputjson``, pyrefly ``--output-format json``
and ty ``--output-format gitlab`` (a JSON list; its severity ``major`` is an error, ``minor`` a
warning, and both count as errors here, as mypy's and pyright's warnings do).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHECKERS = ("mypy", "pyright", "pyrefly", "ty")

_MYPY_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|warning|note): (?P<message>.*?)"
    r"(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


@dataclass(frozen=True)
class Diagnostic:
    """One message of one checker: 1-based line, severity, text and rule/error code."""

    line: int
    severity: str  # "error" or "warning" (both count as errors), "note"/"information" otherwise
    message: str
    code: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity in ("error", "warning")

    def __str__(self) -> str:
        code = f"  [{self.code}]" if self.code else ""
        return f"{self.message}{code}"


@dataclass
class CheckerRun:
    """What one checker reported, by absolute file path; ``failure`` is set if it did not run."""

    name: str
    seconds: float = 0.0
    by_file: dict[str, list[Diagnostic]] = field(default_factory=lambda: defaultdict(list))
    failure: str | None = None
    raw: str = ""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("MYPYPATH", None)
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"  # the pip wrapper's "new version" notice
    env["NO_COLOR"] = "1"
    for name in ("PYREFLY_CONFIG", "TY_CONFIG_FILE", "TY_OUTPUT_FORMAT"):
        env.pop(name, None)  # the commands say which configuration and format
    return env


def mypy_command(config: Path, targets: Sequence[str], cache_dir: Path, python: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(config),
        "--python-executable",
        python,
        "--cache-dir",
        str(cache_dir),
        "--show-absolute-path",
        "--no-error-summary",
        "--hide-error-context",
        "--show-error-codes",
        "--no-pretty",
        "--no-color-output",
        *targets,
    ]


def pyright_command(config: Path, targets: Sequence[str], python: str) -> list[str]:
    cmd = [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", python]
    cmd += ["-p", str(config)]
    return [*cmd, *targets]


def pyrefly_command(config: Path, targets: Sequence[str], python: str) -> list[str]:
    # -c: that configuration and no other (no search for pyproject.toml, so no migration of its
    # [tool.mypy]); the interpreter gives site-packages, as --python-executable does for mypy.
    return [
        sys.executable,
        "-m",
        "pyrefly",
        "check",
        "--config",
        str(config),
        "--python-interpreter-path",
        python,
        "--output-format",
        "json",
        "--summary=none",
        "--progress-bar",
        "no",
        "--color",
        "never",
        *targets,
    ]


def ty_command(config: Path, targets: Sequence[str], python: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ty",
        "check",
        "--config-file",
        str(config),
        "--python",
        python,
        "--output-format",
        "gitlab",
        "--no-progress",
        "--color",
        "never",
        *targets,
    ]


def parse_mypy(run: CheckerRun, cwd: Path, returncode: int, stdout: str, stderr: str) -> None:
    run.raw = stdout + stderr
    if returncode not in (0, 1):
        run.failure = f"mypy exited with {returncode}:\n{(stdout + stderr)[-4000:]}"
        return
    for text in stdout.splitlines():
        m = _MYPY_LINE.match(text)
        if m is None:
            continue  # continuation of a multi-line note
        path = str((cwd / m["path"]).resolve())
        run.by_file[path].append(Diagnostic(int(m["line"]), m["severity"], m["message"], m["code"]))
    if returncode == 1 and not any(d.is_error for ds in run.by_file.values() for d in ds):
        run.failure = f"mypy exited with 1 but printed no parsable error:\n{run.raw[-4000:]}"


def _json_report(run: CheckerRun, returncode: int, stdout: str, stderr: str) -> Any:
    """The checker's JSON report; None (with ``run.failure`` set) if it did not run properly."""
    run.raw = stdout + stderr
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError:
        run.failure = f"{run.name} gave no JSON (exit {returncode}):\n{run.raw[-4000:]}"
        return None
    if returncode not in (0, 1):
        run.failure = f"{run.name} exited with {returncode}:\n{run.raw[-4000:]}"
        return None
    return report


def parse_pyright(run: CheckerRun, returncode: int, stdout: str, stderr: str) -> None:
    report = _json_report(run, returncode, stdout, stderr)
    if report is None:
        return
    for diag in report.get("generalDiagnostics", []):
        line = diag.get("range", {}).get("start", {}).get("line", -1) + 1
        path = str(Path(diag["file"]).resolve())
        run.by_file[path].append(
            Diagnostic(line, diag["severity"], diag["message"], diag.get("rule"))
        )


_PYREFLY_SEVERITY = {
    "error": "error",
    "warn": "warning",
    "warning": "warning",
    "info": "information",
}


def parse_pyrefly(run: CheckerRun, cwd: Path, returncode: int, stdout: str, stderr: str) -> None:
    report = _json_report(run, returncode, stdout, stderr)
    if report is None:
        return
    for err in report.get("errors", []):
        path = str((cwd / err["path"]).resolve())
        message = err.get("concise_description") or err.get("description", "")
        severity = _PYREFLY_SEVERITY.get(err.get("severity", "error"), "information")
        run.by_file[path].append(Diagnostic(int(err["line"]), severity, message, err.get("name")))


_TY_SEVERITY = {"blocker": "error", "critical": "error", "major": "error", "minor": "warning"}


def parse_ty(run: CheckerRun, cwd: Path, returncode: int, stdout: str, stderr: str) -> None:
    run.raw = stdout + stderr
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError:
        run.failure = f"ty gave no JSON (exit {returncode}):\n{run.raw[-4000:]}"
        return
    if returncode not in (0, 1) or not isinstance(report, list):
        run.failure = f"ty exited with {returncode}:\n{run.raw[-4000:]}"
        return
    for diag in report:
        code = diag.get("check_name")
        message = diag.get("description", "")
        if code and message.startswith(f"{code}: "):
            message = message[len(code) + 2 :]
        location = diag.get("location", {})
        line = location.get("positions", {}).get("begin", {}).get("line", -1)
        path = str((cwd / location.get("path", "")).resolve())
        severity = _TY_SEVERITY.get(diag.get("severity", ""), "information")
        run.by_file[path].append(Diagnostic(int(line), severity, message, code))


def run_checkers(
    *,
    cwd: Path,
    mypy_config: Path,
    pyright_config: Path,
    targets: Sequence[str],
    cache_dir: Path,
    pyrefly_config: Path | None = None,
    ty_config: Path | None = None,
    checkers: Sequence[str] | None = None,
    python: str = sys.executable,
    timeout: float = 240,
    extra_env: dict[str, str] | None = None,
) -> dict[str, CheckerRun]:
    """Runs the checkers concurrently on ``targets`` (paths relative to ``cwd``).

    ``checkers`` picks them (a subset of CHECKERS); by default, every checker whose configuration
    is given: mypy and pyright always, pyrefly and ty when ``pyrefly_config`` / ``ty_config`` is
    (the corpus gives all four; the wheel test, mypy and pyright only, at no extra cost).
    """
    import time

    configs = {
        "mypy": mypy_config,
        "pyright": pyright_config,
        "pyrefly": pyrefly_config,
        "ty": ty_config,
    }
    if checkers is None:
        checkers = [name for name in CHECKERS if configs[name] is not None]
    unknown = [name for name in checkers if name not in CHECKERS]
    if unknown:
        raise ValueError(f"unknown checkers {unknown}; known: {CHECKERS}")
    missing = [name for name in checkers if configs[name] is None]
    if missing:
        raise ValueError(f"no configuration given for {missing}")

    def command(name: str, config: Path) -> list[str]:
        if name == "mypy":
            return mypy_command(config, targets, cache_dir, python)
        if name == "pyright":
            return pyright_command(config, targets, python)
        if name == "pyrefly":
            return pyrefly_command(config, targets, python)
        return ty_command(config, targets, python)

    env = {**_env(), **(extra_env or {})}
    commands: dict[str, list[str]] = {}
    for name in checkers:
        config = configs[name]
        assert config is not None
        commands[name] = command(name, config)
    start = time.perf_counter()
    procs = {
        name: subprocess.Popen(
            cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for name, cmd in commands.items()
    }
    runs = {name: CheckerRun(name) for name in commands}
    for name, proc in procs.items():
        try:
            stdout, stderr = proc.communicate(
                timeout=max(1.0, timeout - (time.perf_counter() - start))
            )
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()
            runs[name].failure = f"{name} timed out after {timeout:.0f} s"
            continue
        runs[name].seconds = time.perf_counter() - start
        if name == "mypy":
            parse_mypy(runs[name], cwd, proc.returncode, stdout, stderr)
        elif name == "pyright":
            parse_pyright(runs[name], proc.returncode, stdout, stderr)
        elif name == "pyrefly":
            parse_pyrefly(runs[name], cwd, proc.returncode, stdout, stderr)
        else:
            parse_ty(runs[name], cwd, proc.returncode, stdout, stderr)
    return runs


def run_mypy(
    *,
    cwd: Path,
    config: Path,
    targets: Sequence[str],
    cache_dir: Path,
    python: str = sys.executable,
    timeout: float = 240,
) -> CheckerRun:
    """Runs mypy alone on ``targets`` (paths relative to ``cwd``), with the command and parsing
    of ``run_checkers``: for runs that have no pyright counterpart (the corpus with the plugin)."""
    import time

    run = CheckerRun("mypy")
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            mypy_command(config, targets, cache_dir, python),
            cwd=cwd,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        run.failure = f"mypy timed out after {timeout:.0f} s"
        return run
    run.seconds = time.perf_counter() - start
    parse_mypy(run, cwd, proc.returncode, proc.stdout, proc.stderr)
    return run
