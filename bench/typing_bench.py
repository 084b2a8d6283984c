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

A second table is the overhead of jax_core's mypy plugin (jax_core/mypy_plugin/): the same corpus,
jax_core only, checked with typing/mypy.ini plus ``plugins = jax_core.mypy_plugin`` against the same
configuration without it, cold and warm as above, the two interleaved run by run (target
<= 1.10: the plugin may cost at most 10%). Both sides run the same program, so noise only adds
time: that table reports the best of the rounds rather than the median.

Prints each median of ``--repeat`` runs (default 3; a warm mypy run is the best of five), the
ratio jax_core/JAX (plugin/no plugin) of wall times (the verdict) and of CPU times (steadier when
the machine is shared) and PASS/FAIL. Options: ``--repeat N``, ``--quick`` (one run each), ``--json OUT``,
``--strict`` (exit 1 when a row fails), ``--jax-python`` (default .venv-jax/bin/python),
``--only {jax,plugin,shapes}`` (one table; ``plugin`` and ``shapes`` need no JAX interpreter).

A third table is the cost of the plugin's shape checking (docs/shape-typing.md): the annotated
shape corpus (typing/shapes/) and the public-code corpus (typing/public/), checked with the plugin
and shape checking on, against the same with ``shapes = false`` (both with the plugin; target
<= 1.20), cold (jax_core analysed too) and re-checked (a warm cache for jax_core, the corpus files
changed by a comment so that mypy checks them again), interleaved, best of the rounds.
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
from collections.abc import Callable, Iterable
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
PLUGIN_TARGET = 1.10
PLUGIN_ROWS = [
    ("mypy_cold", "mypy + plugin, cold cache"),
    ("mypy_warm", "mypy + plugin, warm cache"),
]
SHAPES_TARGET = 1.20
SHAPES_ROWS = [
    ("mypy_cold", "shapes on/off, cold cache"),
    ("mypy_recheck", "shapes on/off, re-checked"),
]
SHAPE_DIRS = ("shapes/fail", "shapes/pass", "public")


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    env["PYRIGHT_PYTHON_IGNORE_WARNINGS"] = "1"
    env["NO_COLOR"] = "1"
    env.update(extra or {})
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
    mypy_ini = re.sub(r"^mypy_path = .*\n", "", mypy_ini, flags=re.MULTILINE)
    mypy_ini = mypy_ini.replace("[mypy-jax_core.*]", "[mypy-jax.*,jaxlib.*]")
    (dest / "mypy.ini").write_text(mypy_ini)
    pyright = json.loads(
        re.sub(r"^\s*//.*$", "", (CORPUS / "pyrightconfig.json").read_text(), flags=re.MULTILINE)
    )
    pyright.pop("stubPath", None)
    (dest / "pyrightconfig.json").write_text(json.dumps(pyright))


def _timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the checker and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=_env(env), capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(
            f"{cmd[:4]} exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def _bin(name: str) -> str:
    return str(Path(sys.executable).parent / name)


WARM_RUNS = 5  # a warm run takes a fraction of a second: the best of several


class Setup:
    """One library's corpus, interpreter and mypy cache, and the commands that check it."""

    def __init__(
        self,
        root: Path,
        python: str,
        cache: Path,
        config: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        files = _files(root)
        self.root = root
        self.cache = cache
        self.env = env
        self.mypy = [
            _bin("mypy"),
            "--config-file",
            str(config or "mypy.ini"),
            "--python-executable",
            python,
        ]
        self.mypy += ["--cache-dir", str(cache), "--no-error-summary", *files]
        self.pyright = [_bin("pyright"), "-p", "pyrightconfig.json", "--pythonpath", python, *files]

    def mypy_cold(self) -> tuple[float, float]:
        shutil.rmtree(self.cache, ignore_errors=True)
        return _timed(self.mypy, self.root, self.env)

    def mypy_warm(self) -> tuple[float, float]:
        return _timed(self.mypy, self.root, self.env)

    def run_pyright(self) -> tuple[float, float]:
        return _timed(self.pyright, self.root)


def measure_round(
    setups: dict[str, Setup], order: tuple[str, str], pyright: bool = True
) -> dict[str, dict[str, tuple[float, float]]]:
    """One sample of every row for both setups (libraries, or plugin on/off), interleaved run by run."""
    out: dict[str, dict[str, tuple[float, float]]] = {lib: {} for lib in order}
    for lib in order:
        out[lib]["mypy_cold"] = setups[lib].mypy_cold()
    warm: dict[str, list[tuple[float, float]]] = {lib: [] for lib in order}
    for _ in range(WARM_RUNS):
        for lib in order:
            warm[lib].append(setups[lib].mypy_warm())
    for lib in order:
        out[lib]["mypy_warm"] = (min(w for w, _ in warm[lib]), min(c for _, c in warm[lib]))
        if pyright:
            out[lib]["pyright"] = setups[lib].run_pyright()
    return out


def _plugin_configs(dest: Path) -> tuple[Path, Path]:
    """typing/mypy.ini without and with ``plugins = jax_core.mypy_plugin``, identical otherwise (absolute
    paths, so they work from ``dest``)."""
    text = (
        (CORPUS / "mypy.ini")
        .read_text()
        .replace("$MYPY_CONFIG_FILE_DIR/../stubs", str(ROOT / "stubs"))
    )
    if "plugins" in text:
        raise RuntimeError("typing/mypy.ini already names a plugin")
    without, with_plugin = dest / "no-plugin.ini", dest / "plugin.ini"
    without.write_text(text)
    with_plugin.write_text(text.replace("[mypy]\n", "[mypy]\nplugins = jax_core.mypy_plugin\n", 1))
    return without, with_plugin


def _table(
    samples: dict[str, dict[str, list[tuple[float, float]]]],
    rows: list[tuple[str, str]],
    libs: tuple[str, str],
    target: float,
    stat: Callable[[Iterable[float]], float] = statistics.median,
) -> tuple[dict[str, dict[str, float | str]], bool]:
    """Prints ``stat`` over rounds (the median; the best for the plugin table, where both sides run
    the same program and noise only adds) and the ratios libs[0]/libs[1] of each row; returns
    them and whether any row failed."""
    a, b = libs
    results: dict[str, dict[str, float | str]] = {}
    print(f"\n{'row':<26} {a:>9} {b:>9} {'ratio':>6} {'cpu ratio':>9} {'target':>7}  verdict")
    failed = False
    for key, label in rows:
        core = stat(w for w, _ in samples[a][key])
        other = stat(w for w, _ in samples[b][key])
        core_cpu = stat(c for _, c in samples[a][key])
        other_cpu = stat(c for _, c in samples[b][key])
        ratio, cpu_ratio = core / other, core_cpu / other_cpu
        verdict = "PASS" if ratio <= target else "FAIL"
        failed |= verdict == "FAIL"
        results[key] = {
            f"{a}_s": core,
            f"{b}_s": other,
            "ratio": ratio,
            f"{a}_cpu_s": core_cpu,
            f"{b}_cpu_s": other_cpu,
            "cpu_ratio": cpu_ratio,
            "verdict": verdict,
        }
        print(
            f"{label:<26} {core:>8.2f}s {other:>8.2f}s {ratio:>6.2f} {cpu_ratio:>9.2f} {'<= ' + str(target):>7}  {verdict}"
        )
    return results, failed


def _shape_setups(tmp: Path) -> dict[str, Setup]:
    """The shape corpus and the public corpus in ``tmp``, with the plugin's configuration with
    shape checking on and off."""
    root = tmp / "shapes-corpus"
    for d in SHAPE_DIRS:
        (root / d).mkdir(parents=True)
        for src in (CORPUS / d).glob("*.py"):
            shutil.copy(src, root / d / src.name)
    text = (CORPUS / "mypy-plugin.ini").read_text().replace("$MYPY_CONFIG_FILE_DIR/..", str(ROOT))
    on, off = root / "shapes-on.ini", root / "shapes-off.ini"
    on.write_text(text)
    off.write_text(text + "\n[jax_core.mypy_plugin]\nshapes = false\n")
    here = {"PYTHONPATH": str(ROOT)}
    setups = {}
    for name, config in (("shapes", on), ("no shapes", off)):
        setup = Setup(root, sys.executable, tmp / f"cache-{name.replace(' ', '-')}", config, here)
        files = sorted(
            str(p.relative_to(root)) for d in SHAPE_DIRS for p in (root / d).glob("*.py")
        )
        setup.mypy = [*setup.mypy[: setup.mypy.index("--no-error-summary") + 1], *files]
        setups[name] = setup
    return setups


def measure_shapes_round(
    setups: dict[str, Setup], order: tuple[str, str], nonce: int
) -> dict[str, dict[str, tuple[float, float]]]:
    """Cold runs, then re-checks: every corpus file gets a new comment, so mypy checks it again
    while jax_core comes from the cache."""
    out: dict[str, dict[str, tuple[float, float]]] = {lib: {} for lib in order}
    for lib in order:
        out[lib]["mypy_cold"] = setups[lib].mypy_cold()
    runs: dict[str, list[tuple[float, float]]] = {lib: [] for lib in order}
    root = setups[order[0]].root
    for k in range(WARM_RUNS):
        for lib in order:
            for path in root.rglob("*.py"):
                path.write_text(path.read_text() + f"# re-check {nonce}.{k}.{lib}\n")
            runs[lib].append(setups[lib].mypy_warm())
    for lib in order:
        out[lib]["mypy_recheck"] = (min(w for w, _ in runs[lib]), min(c for _, c in runs[lib]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one run of each")
    ap.add_argument("--json", type=Path, help="write the samples and results here")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a row fails")
    ap.add_argument("--jax-python", default=str(ROOT / ".venv-jax" / "bin" / "python"))
    ap.add_argument("--only", choices=("jax", "plugin", "shapes"), help="only one of the tables")
    args = ap.parse_args()
    repeat = 1 if args.quick else args.repeat
    run_jax, run_plugin = args.only in (None, "jax"), args.only in (None, "plugin")
    run_shapes = args.only in (None, "shapes")
    shape_samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        lib: {k: [] for k, _ in SHAPES_ROWS} for lib in ("shapes", "no shapes")
    }
    if run_jax and not Path(args.jax_python).exists():
        print(
            f"no JAX interpreter at {args.jax_python}: run `make bench` (it builds .venv-jax)",
            file=sys.stderr,
        )
        return 2

    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        lib: {k: [] for k, _ in ROWS} for lib in ("jax_core", "jax")
    }
    plugin_samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        lib: {k: [] for k, _ in PLUGIN_ROWS} for lib in ("plugin", "no plugin")
    }
    n_files = len(_files(CORPUS))
    with tempfile.TemporaryDirectory(prefix="typing-bench-") as tmp:
        if run_jax:
            jax_root = Path(tmp) / "corpus-jax"
            _jax_copy(jax_root)
            setups = {
                "jax_core": Setup(CORPUS, sys.executable, Path(tmp) / "cache-jax_core"),
                "jax": Setup(jax_root, args.jax_python, Path(tmp) / "cache-jax"),
            }
            print(
                f"typing corpus: {n_files} files; {repeat} round(s), libraries interleaved",
                file=sys.stderr,
            )
            for i in range(repeat):
                order = ("jax_core", "jax") if i % 2 == 0 else ("jax", "jax_core")
                for lib, rows in measure_round(setups, order).items():
                    for key, value in rows.items():
                        samples[lib][key].append(value)
        if run_plugin:
            without, with_plugin = _plugin_configs(Path(tmp))
            here = {
                "PYTHONPATH": str(ROOT)
            }  # this checkout's jax_core.mypy_plugin, both sides alike
            plugin_setups = {
                "plugin": Setup(
                    CORPUS, sys.executable, Path(tmp) / "cache-plugin", with_plugin, here
                ),
                "no plugin": Setup(
                    CORPUS, sys.executable, Path(tmp) / "cache-no-plugin", without, here
                ),
            }
            print(
                f"typing corpus: {n_files} files; {repeat} round(s), plugin on/off interleaved",
                file=sys.stderr,
            )
            for i in range(repeat):
                order = ("plugin", "no plugin") if i % 2 == 0 else ("no plugin", "plugin")
                for lib, rows in measure_round(plugin_setups, order, pyright=False).items():
                    for key, value in rows.items():
                        plugin_samples[lib][key].append(value)
        if run_shapes:
            shape_setups = _shape_setups(Path(tmp))
            print(
                f"shape and public corpora; {repeat} round(s), shape checking on/off interleaved",
                file=sys.stderr,
            )
            for i in range(repeat):
                order = ("shapes", "no shapes") if i % 2 == 0 else ("no shapes", "shapes")
                for lib, rows in measure_shapes_round(shape_setups, order, i).items():
                    for key, value in rows.items():
                        shape_samples[lib][key].append(value)

    out: dict[str, object] = {}
    failed = False
    if run_jax:
        results, failed_jax = _table(samples, ROWS, ("jax_core", "jax"), TARGET)
        failed |= failed_jax
        out.update(samples=samples, results=results)
        print(
            "\nratio: wall time jax_core/JAX (the verdict); cpu ratio: CPU time (user+sys) of the checker,"
            " steadier on a loaded machine."
        )
    extra_tables = [
        (
            "plugin",
            run_plugin,
            plugin_samples,
            PLUGIN_ROWS,
            ("plugin", "no plugin"),
            PLUGIN_TARGET,
            "with the mypy plugin / without (the verdict), jax_core's corpus",
        ),
        (
            "shapes",
            run_shapes,
            shape_samples,
            SHAPES_ROWS,
            ("shapes", "no shapes"),
            SHAPES_TARGET,
            "of mypy + plugin with shape checking / with `shapes = false`, on typing/shapes and typing/public",
        ),
    ]
    for key, wanted, table_samples, rows, libs, target, what in extra_tables:
        if not wanted:
            continue
        table_results, table_failed = _table(table_samples, rows, libs, target, stat=min)
        failed |= table_failed
        out[key] = {"samples": table_samples, "results": table_results}
        print(
            f"\nratio: wall time {what}, best of the rounds; cpu ratio: CPU time (user+sys), best of the rounds."
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
