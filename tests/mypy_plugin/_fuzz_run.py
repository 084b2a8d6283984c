"""Running mypy with the jax_core plugin over a directory of generated modules (test_fuzz.py).

The configuration is the typing corpus's (typing/mypy.ini: strict, jax_core analysed silently)
plus ``plugins = jax_core.mypy_plugin``; the plugin's exceptions are raised, not swallowed
(``JAX_CORE_MYPY_PLUGIN_DEBUG=1``), so any bug in a hook ends the run with an internal error.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS_INI = ROOT / "typing" / "mypy.ini"


def snapshot(dest: Path) -> Path:
    """A copy of this checkout's jax_core (with its mypy plugin) and stubs under ``dest``: every run of a
    session checks against the same library and plugin even while the working tree changes (a
    changed plugin or library would make mypy re-analyse jax_core in some runs and read it from
    the cache in others, which prints some types differently)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("jax_core", "stubs"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    return dest


def write_config(dest: Path, src: Path = ROOT, plugin: bool = True) -> Path:
    """typing/mypy.ini with the plugin on (or not) and absolute paths (stubs from ``src``);
    returns the file written."""
    text = CORPUS_INI.read_text()
    text = text.replace("$MYPY_CONFIG_FILE_DIR/../stubs", str(src / "stubs"))
    if plugin:
        text = text.replace("[mypy]\n", "[mypy]\nplugins = jax_core.mypy_plugin\n", 1)
        if "plugins = jax_core.mypy_plugin" not in text:
            raise AssertionError(f"no [mypy] section in {CORPUS_INI}")
    path = dest / ("mypy.ini" if plugin else "mypy-no-plugin.ini")
    path.write_text(text)
    return path


def supports_num_workers() -> bool:
    """Whether this mypy has parallel checking (``--num-workers``, mypy 2.x)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--help"], capture_output=True, text=True, check=False
    )
    return "--num-workers" in proc.stdout


# Differences between a type analysed in this process and the same type read from the cache
# (or from another worker) that mypy makes itself, plugin or not; messages are compared without them:
# - overload variants listed with their function's name only when the library was analysed in
#   this process: ``def [P] jacrev(fun: ...`` / ``def [P] (fun: ...``;
_OVERLOAD_NAME = re.compile(r"^(.*: note:\s+def (?:\[[^\]]*\] )?)\w+\(")
# - a callable type printed with its function's name only when analysed in this process:
#   ``"def f1(k: int, *, x: int) -> int"`` / ``"def (k: int, *, x: int) -> int"``;
_CALLABLE_NAME = re.compile(r'"def ((?:\[[^\]]*\] )?)\w+\(')
# - a bound method printed with its definition's bare ``self`` only when read from the cache:
#   ``def eval_shape(self, k: Any)`` / ``def eval_shape(k: Any)`` (this also hides the symptom of
#   the plugin's BUG F4, /tmp/plugin_bugs.md: vmap of a callable object printed with ``self``);
_BARE_SELF = re.compile(r"(def (?:\[[^\]]*\] )?\()(?:self|cls)(?:, |(?=\)))")
# - notes pointing at a definition, printed only for definitions analysed in this process.
_DEFINITION_NOTE = re.compile(r": note: (Called function defined in |\".*\" defined here$)")


def normalize(line: str) -> str:
    """``line`` without the differences above."""
    line = _OVERLOAD_NAME.sub(r"\1(", line)
    line = _CALLABLE_NAME.sub(r'"def \1(', line)
    line = re.sub(r"(def (?:\[[^\]]*\] )?)(?:\w+)\((?=(?:self|cls)\b)", r"\1(", line)
    return _BARE_SELF.sub(r"\1", line)


@dataclass
class MypyRun:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    module_seconds: dict[str, float]  # from --timing-stats: seconds mypy spent on each module

    @property
    def messages(self) -> list[str]:
        """The reported lines, sorted (parallel and incremental runs may order files differently)
        and normalized (``normalize``: what mypy prints differently for cached types)."""
        return sorted(
            normalize(line)
            for line in self.stdout.splitlines()
            if line.strip() and not _DEFINITION_NOTE.search(line)
        )

    def problems(self) -> list[str]:
        """Why this run counts as a crash: exit status 2+, an internal error, a traceback."""
        out: list[str] = []
        if self.returncode not in (0, 1):
            out.append(f"exit status {self.returncode} (0 or 1 expected)")
        both = self.stdout + self.stderr
        for marker in ("INTERNAL ERROR", "Traceback"):
            if marker in both:
                out.append(f"{marker!r} in the output")
        return out

    def report(self, limit: int = 6000) -> str:
        return (
            f"--- stdout (tail)\n{self.stdout[-limit:]}\n--- stderr (tail)\n{self.stderr[-limit:]}"
        )


def run_mypy(
    cwd: Path,
    config: Path,
    files: list[str],
    cache: Path,
    workers: int | None = None,
    hash_seed: int = 0,
    timeout: float = 900.0,
    src: Path = ROOT,
) -> MypyRun:
    """mypy over ``files``; ``hash_seed`` fixes ``PYTHONHASHSEED``: runs compared with each
    other get different seeds, so output that depends on set or dict-of-str order shows up.
    jax_core and the plugin are imported from ``src`` (this checkout, or a ``snapshot``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "MYPY_NUM_WORKERS")}
    env["JAX_CORE_MYPY_PLUGIN_DEBUG"] = "1"
    env["NO_COLOR"] = "1"
    env["PYTHONHASHSEED"] = str(hash_seed)
    env["PYTHONPATH"] = str(src)  # this plugin and jax_core, whatever is installed
    cmd = [
        sys.executable, "-m", "mypy",
        "--config-file", str(config),
        "--cache-dir", str(cache),
        "--no-error-summary", "--hide-error-context", "--show-error-codes",
        "--no-pretty", "--show-traceback", "--no-color-output",
    ]  # fmt: skip
    if workers is not None:
        cmd += ["--num-workers", str(workers)]
    stats = cache.parent / f"{cache.name}-seed{hash_seed}-workers{workers or 0}.timing"
    cmd += ["--timing-stats", str(stats)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd + files,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return MypyRun(-1, out, f"timed out after {timeout:.0f} s", timeout, {})
    per_module: dict[str, float] = {}
    if stats.exists():
        for line in stats.read_text().splitlines():
            name, _, micros = line.rpartition(" ")
            if micros.isdigit():
                per_module[name] = int(micros) / 1e6
    return MypyRun(
        proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - start, per_module
    )


def copy_cache(src: Path, dest: Path) -> Path:
    """A copy of the cache ``src`` (stdlib, NumPy and jax_core analysed once per session)."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest)
    return dest


_LOCATION = re.compile(r"^(?P<file>[\w./-]+\.py):(?P<line>\d+):")


def files_named(run: MypyRun) -> set[str]:
    """The files the run's messages are about."""
    return {m["file"] for line in run.stdout.splitlines() if (m := _LOCATION.match(line))}
