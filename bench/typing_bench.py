"""Type-checker speed on the typing corpus: jax_core against the same programs written for JAX.

``make bench`` runs it after bench/run.py; alone: ``.venv/bin/python bench/typing_bench.py``.

The programs are the typing corpus (typing/{pass,fail,reveal}/*.py). The JAX version is a copy
with every ``jax_core`` replaced by ``jax``, checked against real JAX (``.venv-jax``). Both are
checked the way the corpus test checks them: mypy strict (typing/mypy.ini: the library analysed
silently) and pyright strict, mypy and pyright from the dev venv, pointed at each library's
interpreter (``--python-executable`` / ``--pythonpath``). Timed, one run at a time, alternating
libraries:

* mypy cold: an empty cache directory (the library itself is analysed too);
* mypy warm: again with that cache, nothing changed;
* pyright: the CLI keeps no cache, so every run is cold.

Prints each median of ``--repeat`` runs (default 3; a warm mypy run is the best of five), the
ratio jax_core/JAX of wall times (target <= 1.0, the verdict) and of CPU times (steadier when
the machine is shared) and PASS/FAIL. Options: ``--repeat N``, ``--quick`` (one run each), ``--json OUT``,
``--strict`` (exit 1 when a row fails), ``--jax-python`` (default .venv-jax/bin/python).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "typing"
KINDS = ("pass", "fail", "reveal")
TARGET = 1.0
ROWS = [
    ("mypy_cold", "mypy strict, cold cache"),
    ("mypy_warm", "mypy strict, warm cache"),
    ("pyright", "pyright strict"),
]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"
    env["NO_COLOR"] = "1"
    return env


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for kind in KINDS for p in (root / kind).glob("*.py"))


def _jax_copy(dest: Path) -> None:
    """The corpus rewritten for JAX, with configs equivalent to the corpus's own."""
    for kind in KINDS:
        (dest / kind).mkdir(parents=True)
        for src in (CORPUS / kind).glob("*.py"):
            (dest / kind / src.name).write_text(re.sub(r"\bjax_core\b", "jax", src.read_text()))
    mypy_ini = (CORPUS / "mypy.ini").read_text()
    mypy_ini = re.sub(r"^mypy_path = .*\n", "", mypy_ini, flags=re.M)
    mypy_ini = mypy_ini.replace("[mypy-jax_core.*]", "[mypy-jax.*,jaxlib.*]")
    (dest / "mypy.ini").write_text(mypy_ini)
    pyright = json.loads(re.sub(r"^\s*//.*$", "", (CORPUS / "pyrightconfig.json").read_text(), flags=re.M))
    pyright.pop("stubPath", None)
    (dest / "pyrightconfig.json").write_text(json.dumps(pyright))


def _timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the checker and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{cmd[:4]} exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def _bin(name: str) -> str:
    return str(Path(sys.executable).parent / name)


WARM_RUNS = 5  # a warm run takes a fraction of a second: the best of several


class Setup:
    """One library's corpus, interpreter and mypy cache, and the commands that check it."""

    def __init__(self, root: Path, python: str, cache: Path) -> None:
        files = _files(root)
        self.root = root
        self.cache = cache
        self.mypy = [_bin("mypy"), "--config-file", "mypy.ini", "--python-executable", python]
        self.mypy += ["--cache-dir", str(cache), "--no-error-summary", *files]
        self.pyright = [_bin("pyright"), "-p", "pyrightconfig.json", "--pythonpath", python, *files]

    def mypy_cold(self) -> tuple[float, float]:
        shutil.rmtree(self.cache, ignore_errors=True)
        return _timed(self.mypy, self.root)

    def mypy_warm(self) -> tuple[float, float]:
        return _timed(self.mypy, self.root)

    def run_pyright(self) -> tuple[float, float]:
        return _timed(self.pyright, self.root)


def measure_round(setups: dict[str, Setup], order: tuple[str, str]) -> dict[str, dict[str, tuple[float, float]]]:
    """One sample of every row for both libraries, the libraries interleaved run by run."""
    out: dict[str, dict[str, tuple[float, float]]] = {lib: {} for lib in order}
    for lib in order:
        out[lib]["mypy_cold"] = setups[lib].mypy_cold()
    warm: dict[str, list[tuple[float, float]]] = {lib: [] for lib in order}
    for _ in range(WARM_RUNS):
        for lib in order:
            warm[lib].append(setups[lib].mypy_warm())
    for lib in order:
        out[lib]["mypy_warm"] = (min(w for w, _ in warm[lib]), min(c for _, c in warm[lib]))
        out[lib]["pyright"] = setups[lib].run_pyright()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one run of each")
    ap.add_argument("--json", type=Path, help="write the samples and results here")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a row fails")
    ap.add_argument("--jax-python", default=str(ROOT / ".venv-jax" / "bin" / "python"))
    args = ap.parse_args()
    repeat = 1 if args.quick else args.repeat
    if not Path(args.jax_python).exists():
        print(f"no JAX interpreter at {args.jax_python}: run `make bench` (it builds .venv-jax)", file=sys.stderr)
        return 2

    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        lib: {k: [] for k, _ in ROWS} for lib in ("jax_core", "jax")
    }
    with tempfile.TemporaryDirectory(prefix="typing-bench-") as tmp:
        jax_root = Path(tmp) / "corpus-jax"
        _jax_copy(jax_root)
        setups = {
            "jax_core": Setup(CORPUS, sys.executable, Path(tmp) / "cache-jax_core"),
            "jax": Setup(jax_root, args.jax_python, Path(tmp) / "cache-jax"),
        }
        n_files = len(_files(CORPUS))
        print(f"typing corpus: {n_files} files; {repeat} round(s), libraries interleaved", file=sys.stderr)
        for i in range(repeat):
            order = ("jax_core", "jax") if i % 2 == 0 else ("jax", "jax_core")
            for lib, rows in measure_round(setups, order).items():
                for key, value in rows.items():
                    samples[lib][key].append(value)

    results: dict[str, dict[str, float | str]] = {}
    print(f"\n{'row':<26} {'jax_core':>9} {'jax':>9} {'ratio':>6} {'cpu ratio':>9} {'target':>7}  verdict")
    failed = False
    for key, label in ROWS:
        core = statistics.median(w for w, _ in samples["jax_core"][key])
        jax = statistics.median(w for w, _ in samples["jax"][key])
        core_cpu = statistics.median(c for _, c in samples["jax_core"][key])
        jax_cpu = statistics.median(c for _, c in samples["jax"][key])
        ratio, cpu_ratio = core / jax, core_cpu / jax_cpu
        verdict = "PASS" if ratio <= TARGET else "FAIL"
        failed |= verdict == "FAIL"
        results[key] = {
            "jax_core_s": core, "jax_s": jax, "ratio": ratio,
            "jax_core_cpu_s": core_cpu, "jax_cpu_s": jax_cpu, "cpu_ratio": cpu_ratio, "verdict": verdict,
        }
        print(f"{label:<26} {core:>8.2f}s {jax:>8.2f}s {ratio:>6.2f} {cpu_ratio:>9.2f} {'<= 1.0':>7}  {verdict}")
    print("\nratio: wall time jax_core/JAX (the verdict); cpu ratio: CPU time (user+sys) of the checker,"
          " steadier on a loaded machine.")
    if args.json:
        args.json.write_text(json.dumps({"samples": samples, "results": results}, indent=2))
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
