"""Running mypy with the jax_core plugin over a directory of generated modules (test_fuzz.py).

The configuration is the typing corpus's (typing/mypy.ini: strict, jax_core analysed silently)
plus ``plugins = mypy_plugin``; the plugin's exceptions are raised, not swallowed
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


def write_config(dest: Path) -> Path:
    """typing/mypy.ini with the plugin on and absolute paths; returns the file written."""
    text = CORPUS_INI.read_text()
    text = text.replace("$MYPY_CONFIG_FILE_DIR/../stubs", str(ROOT / "stubs"))
    text = text.replace("[mypy]\n", "[mypy]\nplugins = mypy_plugin\n", 1)
    if "plugins = mypy_plugin" not in text:
        raise AssertionError(f"no [mypy] section in {CORPUS_INI}")
    path = dest / "mypy.ini"
    path.write_text(text)
    return path


def supports_num_workers() -> bool:
    """Whether this mypy has parallel checking (``--num-workers``, mypy 2.x)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--help"], capture_output=True, text=True, check=False
    )
    return "--num-workers" in proc.stdout


_OVERLOAD_NAME = re.compile(r"^(.*: note:\s+def (?:\[[^\]]*\] )?)\w+\(")
# Notes mypy adds only when the called function's definition was analysed in this process
# (not when it came from the cache or another worker), with or without the plugin.
_DEFINITION_NOTE = re.compile(r": note: (Called function defined in |\".*\" defined here$)")


@dataclass
class MypyRun:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    module_seconds: dict[str, float]  # from --timing-stats: seconds mypy spent on each module

    @property
    def messages(self) -> list[str]:
        """The reported lines, sorted (parallel and incremental runs may order files differently),
        overload variants listed without their function's name: mypy itself prints the name
        when it analysed the library in this run and omits it when it read the library from
        its cache, plugin or not (``def [P] jacrev(fun: ...`` / ``def [P] (fun: ...``), and
        without the notes pointing at a definition (also printed only for definitions analysed in
        the same process)."""
        return sorted(
            _OVERLOAD_NAME.sub(r"\1(", line)
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
) -> MypyRun:
    """mypy over ``files``; ``hash_seed`` fixes ``PYTHONHASHSEED``: runs compared with each
    other get different seeds, so output that depends on set or dict-of-str order shows up."""
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "MYPY_NUM_WORKERS")}
    env["JAX_CORE_MYPY_PLUGIN_DEBUG"] = "1"
    env["NO_COLOR"] = "1"
    env["PYTHONHASHSEED"] = str(hash_seed)
    env["PYTHONPATH"] = str(ROOT)  # this checkout's plugin and jax_core, whatever is installed
    cmd = [
        sys.executable, "-m", "mypy",
        "--config-file", str(config),
        "--cache-dir", str(cache),
        "--no-error-summary", "--hide-error-context", "--show-error-codes",
        "--no-pretty", "--show-traceback", "--no-color-output",
    ]  # fmt: skip
    if workers is not None:
        cmd += ["--num-workers", str(workers)]
    stats = cache.parent / f"{cache.name}.timing"
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
